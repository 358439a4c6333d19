#include "cluster/GroupDifference.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <unordered_map>

#include "core/RobustStats.hpp"
#include "core/TextFormat.hpp"

namespace marey {
namespace {

// Phases that can carry a difference on their own (as for slow ranks).
constexpr int kExplainingColumns[] = {kStepComputing, kStepCommNotOverlapped, kStepFree,
                                      kStepBubble, kStepPreparing};

bool Included(const std::vector<int>& onlyRanks, int rankId) {
    return onlyRanks.empty() || std::binary_search(onlyRanks.begin(), onlyRanks.end(), rankId);
}

double MedianOf(std::vector<double> values) {
    return MedianAndMad(values).median;
}

TimeNs Round(double ns) {
    return static_cast<TimeNs>(std::llround(ns));
}

// Each rank's step time in each step of cluster.steps, -1 where the rank lacks the step.
// [rank index][step index]; only the ranks of 'onlyRanks' (ids, ascending; empty: all) are
// filled, so that one group of a large cluster costs its own ranks. O(ranks × steps).
std::vector<std::vector<TimeNs>> StepWalls(const Cluster& cluster,
                                           const std::vector<int>& onlyRanks = {}) {
    std::unordered_map<std::string, size_t> stepIndex;
    for (size_t s = 0; s < cluster.steps.size(); ++s) stepIndex.emplace(cluster.steps[s], s);
    std::vector<std::vector<TimeNs>> walls(cluster.ranks.size());
    for (size_t r = 0; r < cluster.ranks.size(); ++r) {
        if (!Included(onlyRanks, cluster.ranks[r].Id().value())) continue;
        walls[r].assign(cluster.steps.size(), -1);
        for (const StepRow& row : cluster.ranks[r].steps) {
            const auto at = stepIndex.find(row.step);
            if (at != stepIndex.end()) walls[r][at->second] = StepWallNs(row);
        }
    }
    return walls;
}

double RankMedianStep(const std::vector<TimeNs>& walls) {
    std::vector<double> present;
    for (const TimeNs ns : walls)
        if (ns >= 0) present.push_back(static_cast<double>(ns));
    return MedianOf(std::move(present));
}

// The mean of 'column' over the rows of 'ranks' (indexes into table.rows).
double MeanOf(const StepTable& table, const std::vector<size_t>& ranks, int column) {
    double sum = 0;
    for (const size_t r : ranks) sum += static_cast<double>(table.rows[r].ns[column]);
    return ranks.empty() ? 0 : sum / static_cast<double>(ranks.size());
}

// The mean step time of 'ranks' in step 's'; false when none of them has it.
bool MeanInStep(const std::vector<std::vector<TimeNs>>& walls, const std::vector<size_t>& ranks,
                size_t s, double* mean) {
    double sum = 0;
    size_t count = 0;
    for (const size_t r : ranks)
        if (walls[r][s] >= 0) sum += static_cast<double>(walls[r][s]), ++count;
    if (count) *mean = sum / static_cast<double>(count);
    return count > 0;
}

// The steps that carry the difference between 'slower' and 'faster', the largest first, until
// kStepsShareOfDifference of it.
void StepsCarrying(const Cluster& cluster, const std::vector<std::vector<TimeNs>>& walls,
                   const std::vector<size_t>& slower, const std::vector<size_t>& faster,
                   GroupDifference& out) {
    std::vector<std::pair<double, size_t>> byStep;
    double total = 0;
    for (size_t s = 0; s < cluster.steps.size(); ++s) {
        double slow = 0, fast = 0;
        if (!MeanInStep(walls, slower, s, &slow) || !MeanInStep(walls, faster, s, &fast)) continue;
        ++out.stepCount;
        if (slow > fast) byStep.emplace_back(slow - fast, s), total += slow - fast;
    }
    std::stable_sort(byStep.begin(), byStep.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    double carried = 0;
    for (const auto& [difference, s] : byStep) {
        if (total <= 0 || carried >= kStepsShareOfDifference * total) break;
        carried += difference;
        out.steps.push_back(cluster.steps[s]);
    }
    out.stepsShare = total > 0 ? carried / total : 0;
    // More than half of the steps to carry it: the difference lies in the steps broadly, not in a
    // few of them.
    if (2 * out.steps.size() > out.stepCount) {
        out.steps.clear();
        for (const auto& [difference, s] : byStep) out.steps.push_back(cluster.steps[s]);
        out.stepsShare = total > 0 ? 1 : 0;
    }
}

std::string Named(const RankGroupFigures& group) {
    return (group.ranks.size() == 1 ? "rank " : "ranks ") + FormatRankList(group.ranks);
}

std::string StepList(const std::vector<std::string>& steps, size_t most) {
    std::string text = steps.size() == 1 ? "Step " : "Steps ";
    for (size_t i = 0; i < steps.size() && i < most; ++i) text += (i ? ", " : "") + steps[i];
    if (steps.size() > most) text += " and " + std::to_string(steps.size() - most) + " more";
    return text;
}

}  // namespace

std::optional<GroupDifference> FindGroupDifference(const Cluster& cluster, const StepTable& table,
                                                   const std::vector<SlowRank>& slow,
                                                   const std::vector<int>& onlyRanks) {
    std::vector<size_t> order;  // indexes into table.rows, by step time
    std::vector<double> times;
    for (size_t r = 0; r < table.rows.size(); ++r)
        if (table.rows[r].present && Included(onlyRanks, table.rows[r].rankId.value())) {
            order.push_back(r);
            times.push_back(static_cast<double>(table.rows[r].ns[kStepTimeColumn]));
        }
    if (order.size() < 2) return std::nullopt;
    if (MedianOf(times) <= 0) return std::nullopt;
    auto timeOf = [&](size_t r) { return table.rows[r].ns[kStepTimeColumn]; };
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return timeOf(a) < timeOf(b); });
    std::vector<std::vector<size_t>> groups(1);  // fastest first, for now
    for (size_t i = 0; i < order.size(); ++i) {
        const double faster = i > 0 ? static_cast<double>(timeOf(order[i - 1])) : 0;
        if (i > 0 && static_cast<double>(timeOf(order[i])) - faster > kGroupGapShare * faster)
            groups.emplace_back();
        groups.back().push_back(order[i]);
    }
    if (groups.size() < 2) return std::nullopt;
    size_t reference = 0;  // the largest group, the fastest of equals
    for (size_t g = 1; g < groups.size(); ++g)
        if (groups[g].size() > groups[reference].size()) reference = g;
    // Single ranks far from the rest that FindSlowRanks flagged say it already.
    bool explained = true;
    for (size_t g = 0; g < groups.size() && explained; ++g)
        for (const size_t r : groups[g])
            if (g != reference && std::none_of(slow.begin(), slow.end(), [&](const SlowRank& s) {
                    return s.rankId == table.rows[r].rankId;
                }))
                explained = false;
    if (explained) return std::nullopt;

    GroupDifference out;
    out.layout = table.layout;
    out.step = table.step;
    const std::vector<std::vector<TimeNs>> walls = StepWalls(cluster);
    const size_t farthest = reference == 0 ? groups.size() - 1 : 0;
    for (size_t g = groups.size(); g-- > 0;) {  // slowest first
        RankGroupFigures figures;
        std::vector<double> medians;
        for (const size_t r : groups[g]) {
            figures.ranks.push_back(table.rows[r].rankId.value());
            medians.push_back(table.step.empty() ? RankMedianStep(walls[r])
                                                 : static_cast<double>(timeOf(r)));
        }
        std::sort(figures.ranks.begin(), figures.ranks.end());
        figures.averageStepNs = Round(MeanOf(table, groups[g], kStepTimeColumn));
        figures.medianStepNs = Round(MedianOf(std::move(medians)));
        if (g == reference) out.reference = out.groups.size();
        if (g == farthest) out.compared = out.groups.size();
        out.groups.push_back(std::move(figures));
    }
    const std::vector<size_t>& compared = groups[farthest];
    const std::vector<size_t>& yardstick = groups[reference];
    out.differenceNs =
        Round(MeanOf(table, compared, kStepTimeColumn) - MeanOf(table, yardstick, kStepTimeColumn));
    const bool slower = out.differenceNs > 0;
    const double magnitude = std::fabs(static_cast<double>(out.differenceNs));
    for (const int column : kExplainingColumns) {
        if (!table.hasColumn[column]) continue;
        const double difference =
            MeanOf(table, compared, column) - MeanOf(table, yardstick, column);
        if ((slower ? difference : -difference) >= kPhaseShareOfDifference * magnitude)
            out.phases.push_back({column, Round(difference)});
    }
    std::sort(out.phases.begin(), out.phases.end(),
              [](const PhaseDifference& a, const PhaseDifference& b) {
                  return std::llabs(a.differenceNs) > std::llabs(b.differenceNs);
              });
    if (!table.step.empty()) {
        out.steps = {table.step}, out.stepsShare = 1, out.stepCount = 1;
    } else {
        StepsCarrying(cluster, walls, slower ? compared : yardstick, slower ? yardstick : compared,
                      out);
    }
    return out;
}

std::vector<int> DifferingRanks(const GroupDifference& difference) {
    std::vector<int> ranks;
    for (size_t g = 0; g < difference.groups.size(); ++g)
        if (g != difference.reference)
            ranks.insert(ranks.end(), difference.groups[g].ranks.begin(),
                         difference.groups[g].ranks.end());
    return ranks;
}

std::string DescribeGroupDifference(const GroupDifference& difference) {
    std::string text = "Ranks differ in groups and no single rank is an outlier: ";
    for (size_t g = 0; g < difference.groups.size(); ++g) {
        const RankGroupFigures& group = difference.groups[g];
        text += (g ? ", " : "") + Named(group) + " " + FormatDuration(group.averageStepNs);
        if (difference.step.empty())
            text += (g ? "" : " a step on average") + std::string(" (median step ") +
                    FormatDuration(group.medianStepNs) + ")";
    }
    if (!difference.step.empty()) text += " in step " + difference.step;
    text += ".";
    const bool everyStep =
        difference.stepCount > 1 && difference.steps.size() == difference.stepCount;
    if (difference.step.empty() && !difference.steps.empty() && !everyStep) {
        char share[16];
        std::snprintf(share, sizeof share, "%.0f %%", 100 * difference.stepsShare);
        text += " " + StepList(difference.steps, 5) +
                (difference.steps.size() == 1 ? " carries " : " carry ") + share +
                " of the difference: the average misleads, read the median step.";
    } else if (everyStep) {
        text += " Every step carries it.";
    }
    if (!difference.phases.empty()) {
        text += " Phases: ";
        for (size_t i = 0; i < difference.phases.size(); ++i) {
            const PhaseDifference& phase = difference.phases[i];
            text += (i ? ", " : "") + std::string(StepColumnName(phase.column, difference.layout)) +
                    (phase.differenceNs >= 0 ? " +" : " −") +
                    FormatDuration(std::llabs(phase.differenceNs));
            if (phase.column == kStepBubble) text += " (waiting on Receive)";
        }
        text += " on " + Named(difference.groups[difference.compared]) + " against " +
                Named(difference.groups[difference.reference]) + ".";
    }
    return text;
}

std::optional<DominantStep> FindDominantStep(const Cluster& cluster,
                                             const std::vector<int>& onlyRanks) {
    const std::vector<std::vector<TimeNs>> walls = StepWalls(cluster, onlyRanks);
    std::vector<size_t> included;
    for (size_t r = 0; r < cluster.ranks.size(); ++r)
        if (!walls[r].empty()) included.push_back(r);
    std::vector<double> medianRank;  // per step that some rank has
    std::vector<size_t> stepOf;
    for (size_t s = 0; s < cluster.steps.size(); ++s) {
        std::vector<double> values;
        for (const size_t r : included)
            if (walls[r][s] >= 0) values.push_back(static_cast<double>(walls[r][s]));
        if (values.empty()) continue;
        medianRank.push_back(MedianOf(std::move(values)));
        stepOf.push_back(s);
    }
    if (medianRank.size() < 3) return std::nullopt;  // two steps cannot say which is the usual one
    const double median = MedianOf(medianRank);
    const double count = static_cast<double>(medianRank.size());
    const double mean = std::accumulate(medianRank.begin(), medianRank.end(), 0.0) / count;
    const size_t top = static_cast<size_t>(std::max_element(medianRank.begin(), medianRank.end()) -
                                           medianRank.begin());
    double excess = 0;
    for (const double ns : medianRank) excess += std::max(0.0, ns - median);
    const double topExcess = medianRank[top] - median;
    if (median <= 0 || topExcess / count < kDominantShareOfStep * median || topExcess < excess / 2)
        return std::nullopt;
    return DominantStep{cluster.steps[stepOf[top]], Round(medianRank[top]), Round(median),
                        Round(mean)};
}

std::string DescribeDominantStep(const DominantStep& dominant) {
    return "Step " + dominant.step + " dominates the average: " + FormatDuration(dominant.stepNs) +
           " on the median rank against a median step of " + FormatDuration(dominant.medianStepNs) +
           ", which lifts the average step to " + FormatDuration(dominant.averageStepNs) +
           ". Read the median step, or leave step " + dominant.step +
           " out (a warm-up step, a stall).";
}

}  // namespace marey
