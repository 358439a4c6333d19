#pragma once
// Step trace across ranks: one row per rank with its phases, for one step or averaged over the
// steps each rank has; and the ranks that are slow by robust statistics and by a margin that
// matters in practice.
#include <array>
#include <string>
#include <vector>

#include "core/Ids.hpp"
#include "cluster/Cluster.hpp"

namespace marey {

// The columns of the step table: the profiler's phases, then the step's wall time.
inline constexpr int kStepTimeColumn = kStepPhaseCount;
inline constexpr int kStepColumnCount = kStepPhaseCount + 1;

// "Computing", …, "Step time" ("Forward and backward", … in MindInsight's layout).
const char* StepColumnName(int column, StepLayout layout = StepLayout::kAscend);
// "computing", …, "step_time": the phase names of `stats --json`.
const char* StepColumnKey(int column, StepLayout layout = StepLayout::kAscend);

struct StepTableRow {
    RankId rankId;
    bool present = false;  // the rank has the step (or, averaged, any step)
    std::array<TimeNs, kStepColumnCount> ns{};
};

struct StepTable {
    StepLayout layout = StepLayout::kAscend;
    std::string step;                                // empty: averaged over steps
    std::vector<StepTableRow> rows;                  // one per cluster rank, in rank order
    std::array<bool, kStepColumnCount> hasColumn{};  // some rank's file has it
};

// Step 'step' of cluster.steps, or without one the average over each rank's steps.
// O(ranks × steps).
StepTable BuildStepTable(const Cluster& cluster, std::optional<StepIndex> step);

// The rank whose step time is nearest the median (core/RobustStats' rule) of the ranks present
// in 'table': the rank to compare another with when none was chosen. None when no rank is
// present. O(ranks).
std::optional<RankId> MedianRankOf(const StepTable& table);

// A rank flagged as slow: its value of 'column' lies more than kSlowScore robust deviations
// above the median of the ranks compared, and at least kSlowShareOfStep of the median step time
// above it, so that jitter of a fraction of a percent never raises a flag on a thousand ranks.
struct SlowRank {
    RankId rankId;
    int column = 0;
    StepLayout layout = StepLayout::kAscend;  // how to name the column
    TimeNs valueNs = 0, medianNs = 0, madNs = 0;
    double score = 0;  // robust z of the value
};

inline constexpr double kSlowScore = 3.5;
inline constexpr double kSlowShareOfStep = 0.03;

// The slow ranks of 'table', each once, under the phase where it loses the most time (the step
// time only when no phase explains it); 'onlyRanks' (when not empty) restricts the comparison to
// these rank ids. Largest excess first.
std::vector<SlowRank> FindSlowRanks(const StepTable& table, const std::vector<int>& onlyRanks = {});

// "rank 5: Computing 126.0 ms against a median of 100.2 ms (MAD 0.3 ms), +25.7 %".
std::string DescribeSlowRank(const SlowRank& slow);

}  // namespace marey
