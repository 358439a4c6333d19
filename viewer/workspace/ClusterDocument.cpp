#include "workspace/ClusterDocument.hpp"
#include "core/TextFormat.hpp"

#include <algorithm>
#include <filesystem>

namespace marey {

ClusterDocument::ClusterDocument() = default;
ClusterDocument::~ClusterDocument() = default;

std::string ClusterDocument::Title() const {
    std::filesystem::path root(cluster.root);
    std::string name = root.filename().string();
    if (name.empty()) name = root.parent_path().filename().string();
    return "cluster · " + CountText(cluster.ranks.size(), "rank", "ranks") + " · " + name;
}

void ClusterDocument::Derive() {
    report = BuildClusterReport(cluster);
}

const ClusterGroup* ClusterDocument::ChosenGroup() const {
    if (!selection.group || selection.group->value() < 0 ||
        selection.group->value() >= static_cast<int>(cluster.groups.size()))
        return nullptr;
    return &cluster.groups[static_cast<size_t>(selection.group->value())];
}

std::vector<int> ClusterDocument::GroupRanks() const {
    if (const ClusterGroup* group = ChosenGroup()) return group->ranks;
    std::vector<int> ranks;
    for (const ClusterRank& rank : cluster.ranks) ranks.push_back(rank.Id().value());
    return ranks;
}

bool ClusterDocument::InGroup(RankId rankId) const {
    const ClusterGroup* group = ChosenGroup();
    if (!group) return true;
    const std::vector<int>& ranks = group->ranks;
    return std::binary_search(ranks.begin(), ranks.end(), rankId.value());
}

const SlowRank* ClusterDocument::SlowRankOf(RankId rankId) const {
    for (const SlowRank& slow : report.slowRanks)
        if (slow.rankId == rankId) return &slow;
    return nullptr;
}

}  // namespace marey
