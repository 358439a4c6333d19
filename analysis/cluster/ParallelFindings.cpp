#include "cluster/ParallelFindings.hpp"

#include <algorithm>
#include <map>

#include "core/RobustStats.hpp"
#include "core/TextFormat.hpp"

namespace marey {
namespace {

// A unit of the layout: what it is called and its ranks, ascending.
struct Unit {
    std::string kind;  // "stage", "tp", "cp", "ep", "replica"
    int index = -1;    // the stage or replica; -1 for a group
    std::string name;  // "stage 2", "TP group", "data-parallel replica 1"
    std::vector<int> ranks;
    const char* others;  // who waits for it: "the other stages"
};

std::vector<Unit> UnitsOf(const ParallelLayout& layout) {
    std::vector<Unit> units;
    if (layout.stages.size() > 1)
        for (const ParallelStage& stage : layout.stages)
            units.push_back({"stage", stage.stage, "pipeline stage " + std::to_string(stage.stage),
                             stage.ranks, "the other stages"});
    for (const ParallelGroup& group : layout.groups)
        if (group.kind == "tp" || group.kind == "cp" || group.kind == "ep")
            units.push_back({group.kind, -1, ParallelKindLabel(group.kind) + " group", group.ranks,
                             "the ranks it communicates with"});
    if (layout.sizes.dp > 1) {
        std::map<int, std::vector<int>> replicas;
        for (const RankPlace& place : layout.places)
            if (place.dp >= 0) replicas[place.dp].push_back(place.rank);
        for (auto& [replica, ranks] : replicas)
            units.push_back({"replica", replica, "data-parallel replica " + std::to_string(replica),
                             std::move(ranks), "the other replicas"});
    }
    return units;
}

// The phase of a row; MindInsight's forward and backward holds the time a stage waits on
// Receive (its bubble), which is the others' slowness, not its own work: left out.
TimeNs PhaseOf(const StepTableRow& row, int column, StepLayout layout) {
    const TimeNs value = row.ns[static_cast<size_t>(column)];
    if (column != kStepComputing || layout != StepLayout::kMindInsight) return value;
    return value - std::min(value, row.ns[kStepBubble]);
}

ClusterFindingKind KindOfPhase(int column) {
    return column == kStepPreparing ? ClusterFindingKind::kInput : ClusterFindingKind::kCompute;
}

}  // namespace

std::vector<ClusterFinding> FindParallelUnitProblems(const Cluster& cluster,
                                                     const StepTable& averaged) {
    std::vector<ClusterFinding> findings;
    if (!cluster.parallel.Known()) return findings;
    std::vector<TimeNs> stepTimes;
    for (const StepTableRow& row : averaged.rows)
        if (row.present) stepTimes.push_back(row.ns[kStepTimeColumn]);
    const TimeNs medianStep = Median(stepTimes);
    std::vector<std::pair<TimeNs, ClusterFinding>> ranked;
    std::vector<std::vector<int>> named;  // rank sets already named by a unit
    for (const Unit& unit : UnitsOf(cluster.parallel)) {
        if (unit.ranks.size() < 2) continue;
        if (std::find(named.begin(), named.end(), unit.ranks) != named.end()) continue;
        // A cause, not an effect: what a unit computes or waits for its input. Its free time
        // and bubble are mostly the others' slowness seen from downstream.
        for (const int column :
             {static_cast<int>(kStepComputing), static_cast<int>(kStepPreparing)}) {
            if (!averaged.hasColumn[static_cast<size_t>(column)]) continue;
            std::vector<TimeNs> inside, outside;
            for (const StepTableRow& row : averaged.rows) {
                if (!row.present) continue;
                const bool in =
                    std::binary_search(unit.ranks.begin(), unit.ranks.end(), row.rankId.value());
                (in ? inside : outside).push_back(PhaseOf(row, column, averaged.layout));
            }
            if (inside.size() != unit.ranks.size() || outside.empty()) continue;
            // Every rank of the unit above every other rank by a margin that matters: the unit
            // stands apart as a whole, however many ranks it holds (a part of a slow stage
            // does not).
            const TimeNs lowestInside = *std::min_element(inside.begin(), inside.end());
            const TimeNs highestOutside = *std::max_element(outside.begin(), outside.end());
            const TimeNs value = Median(inside), others = Median(outside);
            const TimeNs margin =
                std::max(others / 10,
                         static_cast<TimeNs>(kSlowShareOfStep * static_cast<double>(medianStep)));
            if (lowestInside - highestOutside < margin) continue;
            ClusterFinding f;
            f.kind = KindOfPhase(column);
            f.group = "all ranks";
            f.ranks = unit.ranks;
            f.causes = unit.ranks.size();
            f.unitKind = unit.kind;
            f.unitIndex = unit.index;
            const double more = static_cast<double>(value - others) / static_cast<double>(others);
            f.text = "Slow " + unit.name + " (ranks " + FormatRankList(unit.ranks) +
                     "): " + StepColumnName(column, averaged.layout) +
                     (column == kStepComputing && averaged.layout == StepLayout::kMindInsight
                          ? " (its bubble left out) "
                          : " ") +
                     FormatDuration(value) + " on its median rank against " +
                     FormatDuration(others) + " on the other ranks', +" + FormatPercent(more) +
                     ", on every rank of it and no other; " + unit.others +
                     " wait for it. Look at what this " +
                     (column == kStepPreparing ? std::string("unit's input pipeline does")
                      : unit.kind == "stage"
                          ? std::string("stage runs: its layers are heavier than the others' "
                                        "(rebalance the layers across stages)")
                      : unit.kind == "replica" ? std::string("replica's cards run")
                                               : std::string("group's cards run")) +
                     ".";
            named.push_back(unit.ranks);
            ranked.push_back(
                {(value - others) * static_cast<TimeNs>(unit.ranks.size()), std::move(f)});
        }
    }
    std::stable_sort(ranked.begin(), ranked.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    for (auto& [lost, finding] : ranked) findings.push_back(std::move(finding));
    return findings;
}

}  // namespace marey
