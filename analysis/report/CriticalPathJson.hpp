#pragma once
// A rank's critical path as `marey stats --json` and `marey critical-path` write it
// (docs/critical-path.md gives the schema), and as text for people.
#include <cstdint>
#include <optional>
#include <string>

#include "path/CriticalPath.hpp"

namespace marey {

// The stretches written at most: the path of a large step has tens of thousands; the JSON keeps
// the longest ones, in the path's order, and says how many it left out.
constexpr size_t kMostStretchesWritten = 1000;

// {"rank": …, "step": …, "length_ns": …, "bound_ns": {…}, "stretches": [...], …}. 'rank': the
// rank's number when known. O(stretches log stretches).
std::string CriticalPathToJson(const TraceModel& model, const CriticalPath& path,
                               std::optional<int64_t> rank,
                               size_t mostStretches = kMostStretchesWritten);

// The same for a path across ranks (path/RanksPath.hpp): "rank" null, "ranks", "ranks_visited",
// "collectives" (each: name, last_rank, late_by_ns, arrived_ns, ranks), each stretch's rank.
std::string CriticalPathAcrossRanksToJson(const TraceModel& model, const CriticalPath& path,
                                          const TraceAnalyses& analyses,
                                          size_t mostStretches = kMostStretchesWritten);

// A few lines: the window, the path's length and its share per bound kind, then its 'longest'
// longest stretches. Times since the trace's start ('originNs').
std::string CriticalPathToText(const TraceModel& model, const CriticalPath& path, TimeNs originNs,
                               size_t longest = 15);

// The same for a path across ranks, with the ranks it visits and, for each collective where it
// crossed, which rank came last, how late, and what that rank's path held before it.
std::string CriticalPathAcrossRanksToText(const TraceModel& model, const CriticalPath& path,
                                          const TraceAnalyses& analyses, TimeNs originNs,
                                          size_t longest = 15);

}  // namespace marey
