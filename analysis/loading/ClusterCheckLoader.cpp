#include "loading/ClusterCheckLoader.hpp"

#include <map>

#include "cluster/ClusterFolder.hpp"
#include "loading/RankLoader.hpp"

namespace marey {
namespace {

// Rank id → rank folder of one cluster; an error names what cannot be paired.
Result<std::map<int, std::string>> RankFoldersById(const std::string& path) {
    const ClusterFolders found = FindClusterFolders(path);
    if (found.rankFolders.empty())
        return Status::Error(path +
                             ": no rank folder in it: check compares rank folders (rank "
                             "summaries and cluster_analysis_output hold no per-step operators)");
    std::map<int, std::string> byId;
    for (const RankFiles& folder : found.rankFolders) {
        if (!folder.rankId)
            return Status::Error(folder.root +
                                 ": no rank id (no profiler_info_N.json, no number in its name): "
                                 "it cannot be paired with a rank of the other cluster");
        const auto [at, inserted] = byId.emplace(folder.rankId->value(), folder.root);
        if (!inserted)
            return Status::Error(folder.root + ": rank " + ToString(*folder.rankId) +
                                 " again (also " + at->second +
                                 "): it cannot be paired with a rank of the other cluster");
    }
    return byId;
}

}  // namespace

Result<ClusterCheckResult> CheckClusterFolders(const std::string& baseline,
                                               const std::string& candidate,
                                               const CheckRules& rules,
                                               const LoadOptions& options) {
    Result<std::map<int, std::string>> a = RankFoldersById(baseline);
    if (!a.ok()) return Status::Error(a.message());
    Result<std::map<int, std::string>> b = RankFoldersById(candidate);
    if (!b.ok()) return Status::Error(b.message());
    ClusterCheckResult cluster;
    cluster.baselinePath = baseline;
    cluster.candidatePath = candidate;
    for (const auto& [rank, folder] : a.value())
        if (!b.value().count(rank)) cluster.onlyInBaseline.push_back(rank);
    for (const auto& [rank, folder] : b.value())
        if (!a.value().count(rank)) cluster.onlyInCandidate.push_back(rank);
    for (const auto& [rank, folderA] : a.value()) {
        const auto inB = b.value().find(rank);
        if (inB == b.value().end()) continue;
        LoadedPair pair = LoadRankPair(folderA, inB->second, options);
        for (const Result<LoadedRank>* side : {&pair.a, &pair.b})
            if (!side->ok())
                return Status::Error("rank " + std::to_string(rank) + ": " + side->message());
        Result<CheckResult> result =
            CheckSides(MakeCheckSide(pair.a.value(), rules.Names(CheckKind::kCriticalPath)),
                       MakeCheckSide(pair.b.value(), rules.Names(CheckKind::kCriticalPath)), rules);
        if (!result.ok())
            return Status::Error("rank " + std::to_string(rank) + ": " + result.message());
        cluster.ranks.push_back({rank, std::move(result.value())});
    }
    if (cluster.ranks.empty())
        return Status::Error("nothing to compare: " + baseline + " and " + candidate +
                             " have no rank in common");
    OrderWorstFirst(cluster.ranks);
    return cluster;
}

}  // namespace marey
