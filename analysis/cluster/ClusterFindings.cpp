#include "cluster/ClusterFindings.hpp"

#include <algorithm>
#include <cstdio>

#include "core/RobustStats.hpp"
#include "core/TextFormat.hpp"

namespace marey {
namespace {

struct RankShare {
    int rankId;
    double share;
};

// The ranks whose share lies more than half the threshold above the median, highest first.
std::vector<RankShare> Above(std::vector<RankShare> shares, double median, double margin) {
    std::vector<RankShare> above;
    for (const RankShare& s : shares)
        if (s.share - median > margin) above.push_back(s);
    std::sort(above.begin(), above.end(),
              [](const RankShare& a, const RankShare& b) { return a.share > b.share; });
    return above;
}

std::string NameRanks(const std::vector<RankShare>& ranks, size_t most) {
    std::string text;
    for (size_t i = 0; i < ranks.size() && i < most; ++i)
        text += (i ? ", " : "") + std::string("rank ") + std::to_string(ranks[i].rankId) + " " +
                FormatPercent(ranks[i].share);
    if (ranks.size() > most) text += " and " + std::to_string(ranks.size() - most) + " more";
    return text;
}

}  // namespace

std::vector<ClusterFinding> FindGroupProblems(const Cluster& cluster,
                                              const std::vector<int>& rankIds,
                                              const std::string& groupName) {
    std::vector<RankShare> computing, free, comm;
    for (const ClusterRank& rank : cluster.ranks) {
        if (!rank.overview.valid) continue;
        if (!rankIds.empty() && !std::binary_search(rankIds.begin(), rankIds.end(), rank.rankId))
            continue;
        const OverviewFigures& f = rank.overview;
        computing.push_back({rank.rankId, f.Share(f.computingNs)});
        free.push_back({rank.rankId, f.Share(f.freeNs)});
        comm.push_back({rank.rankId, f.Share(f.commNotOverlappedNs)});
    }
    std::vector<ClusterFinding> findings;
    if (computing.size() < 2) return findings;
    auto median = [](const std::vector<RankShare>& shares) {
        std::vector<double> values;
        for (const RankShare& s : shares) values.push_back(s.share);
        return MedianAndMad(values).median;
    };
    const size_t n = computing.size();
    const std::string over = groupName == "all ranks"
                                 ? " over all " + std::to_string(n) + " ranks"
                                 : " over the " + std::to_string(n) + " ranks of " + groupName;
    // A spread of one share across the cards: the ranks far above the median, named.
    auto spread = [&](AdviceKind kind, const std::vector<RankShare>& shares, const char* what,
                      const char* advice) {
        const double middle = median(shares);
        const std::vector<RankShare> above = Above(shares, middle, kShareSpreadPoints);
        if (above.empty()) return;
        ClusterFinding f{kind, groupName, "", {}};
        f.text = std::string(what) + over + ": " + NameRanks(above, 5) + " against a median of " +
                 FormatPercent(middle) + ". " + advice;
        for (const RankShare& s : above) f.ranks.push_back(s.rankId);
        findings.push_back(std::move(f));
    };
    spread(
        AdviceKind::kCompute, computing,
        "Computing problem: the computing share spreads across cards",
        "Look at these ranks' operators: a slow card, a slower kernel or more work given to it.");
    spread(AdviceKind::kScheduling, free, "Scheduling problem: the free share spreads across cards",
           "The host does not keep these devices fed: look for Python or data-loading work between "
           "their kernels.");
    const double commMedian = median(comm);
    if (commMedian > kCommunicationShare) {
        std::vector<RankShare> most = comm;
        std::sort(most.begin(), most.end(),
                  [](const RankShare& a, const RankShare& b) { return a.share > b.share; });
        ClusterFinding f{AdviceKind::kCommunication, groupName, "", {}};
        f.text = "Communication problem: communication not overlapped takes " +
                 FormatPercent(commMedian) + " of the median rank's time" + over +
                 " (most: " + NameRanks(most, 3) +
                 "). Compare wait and transit in Communication across ranks: long waits point at a "
                 "slow rank, long "
                 "transit at a slow link or too little overlap.";
        for (size_t i = 0; i < most.size() && i < 8; ++i) f.ranks.push_back(most[i].rankId);
        findings.push_back(std::move(f));
    }
    return findings;
}

std::vector<ClusterFinding> FindClusterProblems(const Cluster& cluster) {
    std::vector<ClusterFinding> findings = FindGroupProblems(cluster, {}, "all ranks");
    // Communication not overlapped over the whole cluster is said once, not again for each group.
    const bool communicationSaid =
        std::any_of(findings.begin(), findings.end(),
                    [](const ClusterFinding& f) { return f.kind == AdviceKind::kCommunication; });
    for (const ClusterGroup& group : cluster.groups) {
        if (group.kind == "p2p" || group.ranks.size() < 3 ||
            group.ranks.size() >= cluster.ranks.size())
            continue;
        for (ClusterFinding& finding :
             FindGroupProblems(cluster, group.ranks, "group " + group.name)) {
            if (communicationSaid && finding.kind == AdviceKind::kCommunication) continue;
            const bool repeated =
                std::any_of(findings.begin(), findings.end(), [&](const ClusterFinding& other) {
                    return other.kind == finding.kind && other.ranks == finding.ranks;
                });
            if (!repeated) findings.push_back(std::move(finding));
        }
    }
    return findings;
}

}  // namespace marey
