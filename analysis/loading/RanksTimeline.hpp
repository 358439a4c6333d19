#pragma once
// Loads several ranks into one timeline: each rank's trace is read, its ProfilerStep slices
// found, its clock shifted so that a chosen step starts at the same time on every rank, and the
// models merged (MergeRankModels), one collapsible group per rank.
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/Status.hpp"
#include "import/chrome_json/TraceLoader.hpp"
#include "model/TraceModel.hpp"

namespace marey {

// Aligns no step: every rank keeps the clock it was recorded on.
inline constexpr const char* kAlignOnClock = "clock";

struct RanksTimelineOptions {
    // The step (the N of "ProfilerStep#N") that starts at the same time on every rank; empty: the
    // first step every rank marks; kAlignOnClock: none.
    std::string alignStep;
    LoadOptions load;
};

// Progress of a load of several ranks; 'rank' is the progress of the one being read.
struct RanksProgress {
    std::atomic<uint32_t> ranksTotal{0};
    std::atomic<uint32_t> ranksDone{0};
    LoadProgress rank;  // its 'cancel' stops the whole load
};

struct RanksTimeline {
    std::unique_ptr<TraceModel> model;  // one ProcessGroup per rank that loaded, in the order asked
    std::vector<std::string> paths;     // of the ranks in the model, in its group order
    std::vector<std::string> steps;     // the steps every rank marks, by start: what can be aligned
    std::string alignedStep;            // the step aligned; empty when the ranks keep their clocks
    TimeNs alignedStartNs = 0,
           alignedEndNs = 0;  // that step on the first rank that has it (in the model's times)
    std::vector<std::string> failures;  // messages of the ranks that could not be read
};

// The group label of the rank at 'path': "rank N" when its folder says N, else the file or folder
// name.
std::string RankLabel(const std::string& path);

// Loads 'paths' (trace files or rank folders) one after the other, each on options.load.threads.
// A rank that cannot be read is left out with its message in 'failures'; fails only when none
// can be read, or when cancelled.
Result<RanksTimeline> LoadRanksTimeline(const std::vector<std::string>& paths,
                                        const RanksTimelineOptions& options,
                                        RanksProgress* progress = nullptr);

// The paths of the ranks 'ranks' names: rank ids ("0-3,7", "12") of the cluster folder 'cluster',
// or, when 'cluster' is empty, paths of traces or rank folders as they are. Fails naming an id
// the cluster does not hold, and a rank id named twice (paths are kept as given: the same trace
// several times is how the benchmark loads many ranks).
Result<std::vector<std::string>> ResolveRankPaths(const std::string& cluster,
                                                  const std::vector<std::string>& ranks);

// Rank ids written as "0-3,7 9": ranges and single ids, separated by commas or spaces. Fails on
// anything else, naming it with its column: an id past 2^24, a range backwards or of more than
// 100,000 ranks, an id named twice. O(ranks named).
Result<std::vector<int>> ParseRankList(const std::string& text);

}  // namespace marey
