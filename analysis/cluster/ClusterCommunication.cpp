#include "cluster/ClusterCommunication.hpp"
#include "core/RobustStats.hpp"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace marey {

std::vector<CollectiveKey> ListCollectives(const Cluster& cluster) {
    std::map<std::pair<int, std::string>, size_t> index;  // (step index, name) → position in 'keys'
    std::vector<std::pair<int, CollectiveKey>> keys;      // step index, key; in first-seen order
    std::unordered_map<std::string, int> stepIndex;
    for (size_t i = 0; i < cluster.steps.size(); ++i)
        stepIndex.emplace(cluster.steps[i], static_cast<int>(i));
    for (const ClusterRank& rank : cluster.ranks) {
        std::vector<std::pair<int, uint32_t>> seen;  // one count per rank
        for (const RankCollective& c : rank.collectives) {
            const auto step = stepIndex.find(c.step);
            const int s =
                step == stepIndex.end() ? static_cast<int>(cluster.steps.size()) : step->second;
            const std::string& name = rank.Name(c.name);
            auto [it, added] = index.emplace(std::make_pair(s, name), keys.size());
            if (added) keys.push_back({s, {c.step, name, 0, 0}});
            CollectiveKey& key = keys[it->second].second;
            key.maxElapseNs = std::max(key.maxElapseNs, c.elapseNs);
            if (std::find(seen.begin(), seen.end(), std::make_pair(s, c.name)) == seen.end()) {
                seen.emplace_back(s, c.name);
                ++key.ranks;
            }
        }
    }
    std::stable_sort(keys.begin(), keys.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<CollectiveKey> out;
    out.reserve(keys.size());
    for (auto& [s, key] : keys) out.push_back(std::move(key));
    return out;
}

std::vector<CollectiveOnRank> CollectiveAcrossRanks(const Cluster& cluster, const std::string& step,
                                                    const std::string& name) {
    std::vector<CollectiveOnRank> out;
    for (const ClusterRank& rank : cluster.ranks) {
        for (const RankCollective& c : rank.collectives) {
            if (c.step != step || rank.Name(c.name) != name) continue;
            out.push_back(
                {rank.Id(), c.startNs, c.elapseNs, c.transitNs, c.waitNs, c.syncNs, c.idleNs});
            break;
        }
    }
    return out;
}

std::optional<RankId> RankEveryoneWaitsFor(const std::vector<CollectiveOnRank>& ranks) {
    if (ranks.size() < 2) return std::nullopt;
    std::vector<TimeNs> waits;
    for (const CollectiveOnRank& rank : ranks) waits.push_back(rank.waitNs);
    const TimeNs median = Median(waits);
    const auto least = std::min_element(
        ranks.begin(), ranks.end(),
        [](const CollectiveOnRank& a, const CollectiveOnRank& b) { return a.waitNs < b.waitNs; });
    if (median <= 0 || least->waitNs * 10 > median) return std::nullopt;
    return least->rankId;
}

RankStepCommunication SumCommunicationByRankStep(const Cluster& cluster) {
    std::unordered_map<std::string, size_t> stepIndex;
    for (size_t i = 0; i < cluster.steps.size(); ++i) stepIndex.emplace(cluster.steps[i], i);
    RankStepCommunication sums;
    sums.elapseNs.assign(cluster.ranks.size(), std::vector<TimeNs>(cluster.steps.size(), -1));
    sums.waitNs = sums.elapseNs;
    for (size_t r = 0; r < cluster.ranks.size(); ++r)
        for (const RankCollective& c : cluster.ranks[r].collectives) {
            const auto it = stepIndex.find(c.step);
            if (it == stepIndex.end()) continue;
            TimeNs& elapse = sums.elapseNs[r][it->second];
            TimeNs& wait = sums.waitNs[r][it->second];
            elapse = SaturatingAdd(std::max<TimeNs>(elapse, 0), c.elapseNs);
            wait = SaturatingAdd(std::max<TimeNs>(wait, 0), c.waitNs);
        }
    return sums;
}

TimeNs RankWaitNs(const RankStepCommunication& sums, size_t rank, std::optional<size_t> step) {
    if (rank >= sums.waitNs.size()) return -1;
    const std::vector<TimeNs>& steps = sums.waitNs[rank];
    if (step) return *step < steps.size() ? steps[*step] : -1;
    TimeNs total = 0;
    int64_t counted = 0;
    for (const TimeNs wait : steps)
        if (wait >= 0) total = SaturatingAdd(total, wait), ++counted;
    return counted ? total / counted : -1;
}

std::vector<StepOverview> BuildTimeOverview(const Cluster& cluster) {
    std::unordered_map<std::string, size_t> stepIndex;
    for (size_t i = 0; i < cluster.steps.size(); ++i) stepIndex.emplace(cluster.steps[i], i);
    const RankStepCommunication communication = SumCommunicationByRankStep(cluster);
    std::vector<StepOverview> steps(cluster.steps.size());
    std::vector<TimeNs> commSum(steps.size(), 0), waitSum(steps.size(), 0);
    std::vector<uint32_t> commRanks(steps.size(), 0);
    for (size_t s = 0; s < steps.size(); ++s) {
        steps[s].step = cluster.steps[s];
        steps[s].rankStepNs.assign(cluster.ranks.size(), -1);
    }
    for (size_t r = 0; r < cluster.ranks.size(); ++r) {
        const ClusterRank& rank = cluster.ranks[r];
        for (const StepRow& row : rank.steps) {
            const auto it = stepIndex.find(row.step);
            if (it != stepIndex.end()) steps[it->second].rankStepNs[r] = StepWallNs(row);
        }
        for (size_t s = 0; s < steps.size(); ++s)
            if (communication.elapseNs[r][s] >= 0)
                commSum[s] += communication.elapseNs[r][s],
                    waitSum[s] += communication.waitNs[r][s], ++commRanks[s];
    }
    for (size_t s = 0; s < steps.size(); ++s) {
        StepOverview& step = steps[s];
        std::vector<TimeNs> present;
        for (size_t r = 0; r < step.rankStepNs.size(); ++r) {
            if (step.rankStepNs[r] < 0) continue;
            present.push_back(step.rankStepNs[r]);
            if (!step.slowestRank || step.rankStepNs[r] > step.maxNs)
                step.maxNs = step.rankStepNs[r], step.slowestRank = cluster.ranks[r].Id();
        }
        if (!present.empty()) {
            step.minNs = *std::min_element(present.begin(), present.end());
            step.medianNs = Median(present);
        }
        if (commRanks[s]) {
            step.meanCommunicationNs = commSum[s] / commRanks[s];
            step.meanWaitNs = waitSum[s] / commRanks[s];
        }
    }
    return steps;
}

}  // namespace marey
