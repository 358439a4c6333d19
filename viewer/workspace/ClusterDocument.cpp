#include "workspace/ClusterDocument.hpp"

#include <algorithm>
#include <filesystem>

namespace marey {

ClusterDocument::ClusterDocument() = default;
ClusterDocument::~ClusterDocument() = default;

std::string ClusterDocument::Title() const {
    std::filesystem::path root(cluster.root);
    std::string name = root.filename().string();
    if (name.empty()) name = root.parent_path().filename().string();
    return "cluster · " + std::to_string(cluster.ranks.size()) + " ranks · " + name;
}

void ClusterDocument::Derive() {
    report = BuildClusterReport(cluster);
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

const SlowRank* ClusterDocument::SlowRankOf(int rankId) const {
    for (const SlowRank& slow : report.slowRanks)
        if (slow.rankId == rankId) return &slow;
    return nullptr;
}

}  // namespace marey
