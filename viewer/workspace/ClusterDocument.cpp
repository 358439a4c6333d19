#include "workspace/ClusterDocument.hpp"

#include <algorithm>
#include <filesystem>

namespace marey {

std::string ClusterDocument::Title() const {
    std::filesystem::path root(cluster.root);
    std::string name = root.filename().string();
    if (name.empty()) name = root.parent_path().filename().string();
    return "cluster · " + std::to_string(cluster.ranks.size()) + " ranks · " + name;
}

void ClusterDocument::Derive() {
    report = BuildClusterReport(cluster);
    const std::vector<CollectiveKey>& collectives = report.collectives;
    // The collective a person most likely wants first: the longest of the first step.
    views.collective = 0;
    for (size_t i = 1; i < collectives.size() && collectives[i].step == collectives.front().step; ++i)
        if (collectives[i].maxElapseNs > collectives[views.collective].maxElapseNs) views.collective = static_cast<int>(i);
}

std::vector<int> ClusterDocument::GroupRanks() const {
    if (selection.group >= 0 && selection.group < static_cast<int>(cluster.groups.size())) return cluster.groups[selection.group].ranks;
    std::vector<int> ranks;
    for (const ClusterRank& rank : cluster.ranks) ranks.push_back(rank.rankId);
    return ranks;
}

bool ClusterDocument::InGroup(int rankId) const {
    if (selection.group < 0 || selection.group >= static_cast<int>(cluster.groups.size())) return true;
    const std::vector<int>& ranks = cluster.groups[selection.group].ranks;
    return std::binary_search(ranks.begin(), ranks.end(), rankId);
}

const CollectiveCache& ClusterDocument::CollectiveShown() {
    if (collectiveCache.collective == views.collective) return collectiveCache;
    const CollectiveKey& key = report.collectives[static_cast<size_t>(views.collective)];
    collectiveCache.collective = views.collective;
    collectiveCache.ranks = CollectiveAcrossRanks(cluster, key.step, key.name);
    collectiveCache.waitedFor = RankEveryoneWaitsFor(collectiveCache.ranks);
    return collectiveCache;
}

const StepTableCache& ClusterDocument::StepTableShown() {
    StepTableCache& cache = stepCache;
    if (cache.step == selection.step && cache.group == selection.group && cache.sortColumn == views.stepSortColumn &&
        cache.ascending == views.stepSortAscending)
        return cache;
    if (cache.step != selection.step || cache.group != selection.group) {
        cache.table = selection.step < 0 ? report.averagedSteps : BuildStepTable(cluster, selection.step);
        cache.slow = FindSlowRanks(cache.table, selection.group < 0 ? std::vector<int>() : GroupRanks());
    }
    cache.step = selection.step, cache.group = selection.group;
    cache.sortColumn = views.stepSortColumn, cache.ascending = views.stepSortAscending;
    cache.order.clear();
    for (size_t i = 0; i < cache.table.rows.size(); ++i)
        if (InGroup(cache.table.rows[i].rankId)) cache.order.push_back(static_cast<int>(i));
    const std::vector<StepTableRow>& rows = cache.table.rows;
    const int column = cache.sortColumn;
    if (column >= 0 && column < kStepColumnCount) {
        std::stable_sort(cache.order.begin(), cache.order.end(), [&](int a, int b) {
            return cache.ascending ? rows[a].ns[column] < rows[b].ns[column] : rows[a].ns[column] > rows[b].ns[column];
        });
    } else if (column == kStepColumnCount) {  // the flag column: flagged first, most excess first
        auto excess = [&](int i) {
            for (const SlowRank& slow : cache.slow)
                if (slow.rankId == rows[i].rankId) return slow.valueNs - slow.medianNs;
            return TimeNs{-1};
        };
        std::stable_sort(cache.order.begin(), cache.order.end(), [&](int a, int b) { return excess(a) > excess(b); });
    } else if (column < 0 && !cache.ascending) {  // rank order, descending
        std::reverse(cache.order.begin(), cache.order.end());
    }
    return cache;
}

const MatrixCache* ClusterDocument::MatrixShown() {
    if (auto built = matrixJob.TakeResult()) matrixCache = std::move(*built);
    const int op = views.matrixOperator >= 0 && views.matrixOperator < static_cast<int>(report.matrixOperators.size()) ? views.matrixOperator : -1;
    const int metric = views.matrixMetric;
    if (metric == matrixRequestedMetric && op == matrixRequestedOp) return matrixCache.get();
    matrixRequestedMetric = metric, matrixRequestedOp = op;
    // The links of all operators are the report's own; another operator's are built once and
    // kept while only the metric changes.
    std::shared_ptr<const std::vector<MatrixCell>> cells;
    if (op < 0) cells = std::shared_ptr<const std::vector<MatrixCell>>(&report.matrix, [](const std::vector<MatrixCell>*) {});
    else if (matrixCache && matrixCache->op == op) cells = matrixCache->cells;
    std::vector<int> rankIds;
    for (const ClusterRank& rank : cluster.ranks) rankIds.push_back(rank.rankId);
    const std::string opName = op < 0 ? std::string() : report.matrixOperators[op];
    const Cluster* source = &cluster;
    const std::vector<SlowLink>* allSlow = &report.slowLinks;
    matrixJob.Request([=]() {
        auto cache = std::make_unique<MatrixCache>();
        cache->metric = metric, cache->op = op;
        cache->cells = cells ? cells : std::make_shared<const std::vector<MatrixCell>>(BuildMatrix(*source, opName));
        cache->slow = op < 0 ? *allSlow : FindSlowLinks(*cache->cells);
        cache->grid.Build(*cache->cells, rankIds, static_cast<MatrixMetric>(metric));
        return cache;
    });
    return matrixCache.get();
}

void ClusterDocument::WaitForMatrix() {
    MatrixShown();
    if (auto built = matrixJob.Wait()) matrixCache = std::move(*built);
}

const SlowRank* ClusterDocument::SlowRankOf(int rankId) const {
    for (const SlowRank& slow : report.slowRanks)
        if (slow.rankId == rankId) return &slow;
    return nullptr;
}

}  // namespace marey
