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

// A few lines: the window, the path's length and its share per bound kind, then its 'longest'
// longest stretches. Times since the trace's start ('originNs').
std::string CriticalPathToText(const TraceModel& model, const CriticalPath& path, TimeNs originNs,
                               size_t longest = 15);

}  // namespace marey
