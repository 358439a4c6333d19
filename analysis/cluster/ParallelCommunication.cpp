#include "cluster/ParallelCommunication.hpp"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "core/TextFormat.hpp"

namespace marey {

std::string LayoutKindHolding(const Cluster& cluster, const std::vector<int>& ranks) {
    if (!cluster.parallel.Known()) return "";
    if (ranks.size() >= cluster.ranks.size()) return "world";
    const ParallelGroup* smallest = nullptr;
    for (const ParallelGroup& group : cluster.parallel.groups) {
        if (group.ranks.size() < ranks.size()) continue;
        if (smallest && group.ranks.size() >= smallest->ranks.size()) continue;
        if (std::includes(group.ranks.begin(), group.ranks.end(), ranks.begin(), ranks.end()))
            smallest = &group;
    }
    return smallest ? smallest->kind : "outside";
}

std::vector<GroupKindCommunication> CommunicationByGroupKind(const Cluster& cluster) {
    if (!cluster.parallel.Known()) return {};
    std::unordered_map<std::string, std::string> kindOfGroup;  // group name → kind
    for (const ClusterGroup& group : cluster.groups)
        kindOfGroup.emplace(group.name, LayoutKindHolding(cluster, group.ranks));
    std::map<std::string, GroupKindCommunication> byKind;
    for (const ClusterRank& rank : cluster.ranks) {
        for (const RankCollective& collective : rank.collectives) {
            const auto kind = kindOfGroup.find(rank.Name(collective.group));
            if (kind == kindOfGroup.end()) continue;  // a group no rank list resolves
            GroupKindCommunication& sum = byKind[kind->second];
            sum.kind = kind->second;
            sum.elapseNs += collective.elapseNs, sum.waitNs += collective.waitNs;
            ++sum.operators;
        }
    }
    std::vector<GroupKindCommunication> split;
    for (auto& [kind, sum] : byKind) split.push_back(sum);
    std::sort(split.begin(), split.end(),
              [](const GroupKindCommunication& a, const GroupKindCommunication& b) {
                  return a.elapseNs > b.elapseNs;
              });
    return split;
}

std::string DescribeCommunicationByGroupKind(const std::vector<GroupKindCommunication>& split,
                                             size_t ranks) {
    TimeNs total = 0;
    for (const GroupKindCommunication& kind : split) total += kind.elapseNs;
    if (total <= 0 || ranks == 0) return "";
    std::string text;
    for (const GroupKindCommunication& kind : split) {
        text += (text.empty() ? "" : ", ") + ParallelKindLabel(kind.kind) + " " +
                FormatPercent(static_cast<double>(kind.elapseNs) / static_cast<double>(total)) +
                " (" + FormatDuration(kind.elapseNs / static_cast<TimeNs>(ranks)) +
                " a rank, wait " + FormatDuration(kind.waitNs / static_cast<TimeNs>(ranks)) + ")";
    }
    return text;
}

}  // namespace marey
