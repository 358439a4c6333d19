#pragma once
// Differences between ranks that no single slow rank explains: the ranks fall into groups whose
// step times lie far apart (two pipeline stages, half of the job), or one step (a warm-up)
// dominates the average. Median and MAD see nothing in two ranks against two; these rules name
// the ranks, the phases and the steps that carry the difference, and the median step beside an
// average that one step dominates.
#include <optional>
#include <string>
#include <vector>

#include "cluster/ClusterSteps.hpp"

namespace marey {

// Ranks sorted by step time split into groups where a rank's step time lies more than this share
// above the faster neighbour's: jitter and a spread of a few percent a rank never split them.
inline constexpr double kGroupGapShare = 0.10;
// A phase is named when the groups differ in it by at least this share of their step time's
// difference.
inline constexpr double kPhaseShareOfDifference = 0.25;
// The steps named are the fewest that carry at least this share of the difference.
inline constexpr double kStepsShareOfDifference = 0.80;
// One step dominates the average when it alone lifts the average step at least this share of the
// median step above the median step, and carries at least half of the steps' excess.
inline constexpr double kDominantShareOfStep = 0.10;

struct RankGroupFigures {
    std::vector<int> ranks;    // ascending
    TimeNs averageStepNs = 0;  // mean over the ranks of the table's step time
    TimeNs medianStepNs = 0;   // median over the ranks of each rank's median step
};

struct PhaseDifference {
    int column = 0;  // a step column
    TimeNs differenceNs = 0;
};

struct GroupDifference {
    StepLayout layout = StepLayout::kAscend;
    std::string step;                      // the table's step; empty: averaged over steps
    std::vector<RankGroupFigures> groups;  // slowest first
    size_t reference = 0;  // index into groups: the largest (the fastest of equals), the yardstick
    size_t compared = 0;   // index into groups: the one farthest from the reference
    TimeNs differenceNs = 0;              // step time, compared minus reference (either sign)
    std::vector<PhaseDifference> phases;  // the phases that carry it, largest first
    std::vector<std::string> steps;       // the steps that carry it, largest share first
    double stepsShare = 0;                // of the difference those steps carry
    size_t stepCount = 0;                 // steps compared
};

// The groups of the ranks of 'table' (restricted to 'onlyRanks' when not empty) when there are
// two or more and some rank outside the reference group is not among 'slow' (what FindSlowRanks
// flagged says a single rank already). 'table' is BuildStepTable(cluster, …). O(ranks × steps).
std::optional<GroupDifference> FindGroupDifference(const Cluster& cluster, const StepTable& table,
                                                   const std::vector<SlowRank>& slow,
                                                   const std::vector<int>& onlyRanks = {});

// The ranks of every group but the reference, slowest group first.
std::vector<int> DifferingRanks(const GroupDifference& difference);

// "Ranks differ in groups and no single rank is an outlier: ranks 2-3 average 576.3 ms a step
// (median step 178.9 ms), ranks 0-1 185.3 ms (median step 178.9 ms). Step 1 carries 99 % …".
std::string DescribeGroupDifference(const GroupDifference& difference);

struct DominantStep {
    std::string step;
    TimeNs stepNs = 0;         // the median rank's time in that step
    TimeNs medianStepNs = 0;   // the median over steps of the median rank's time
    TimeNs averageStepNs = 0;  // their mean
};

// The step that dominates the average step of the ranks 'onlyRanks' (all when empty), when one
// does; needs three steps or more. O(ranks × steps).
std::optional<DominantStep> FindDominantStep(const Cluster& cluster,
                                             const std::vector<int>& onlyRanks = {});

// "Step 1 dominates the average: 1.19 s on the median rank against a median step of …".
std::string DescribeDominantStep(const DominantStep& dominant);

}  // namespace marey
