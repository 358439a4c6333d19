#include "cluster/ClusterFindings.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "cluster/ParallelFindings.hpp"
#include "core/RobustStats.hpp"
#include "core/TextFormat.hpp"

namespace marey {
namespace {

struct RankShare {
    int rankId;
    double share;
    TimeNs ns = 0;  // the time the share is of its rank's total
};

// The ranks whose share lies more than 'margin' above the median share and whose time lies above
// the median time too, highest share first. A rank that spends the same time as the others on a
// phase but waits less has a larger share of a shorter total: it is not named (cluster_propose's
// first pipeline stage computes a larger share than the stage that waits on Receive, in less
// time).
std::vector<RankShare> Above(std::vector<RankShare> shares, double median, double margin) {
    std::vector<TimeNs> times;
    for (const RankShare& s : shares) times.push_back(s.ns);
    const TimeNs medianNs = Median(times);
    std::vector<RankShare> above;
    for (const RankShare& s : shares)
        if (s.share - median > margin && s.ns > medianNs) above.push_back(s);
    std::sort(above.begin(), above.end(),
              [](const RankShare& a, const RankShare& b) { return a.share > b.share; });
    return above;
}

ClusterFinding MakeFinding(ClusterFindingKind kind, const std::string& group, std::string text) {
    ClusterFinding finding;
    finding.kind = kind, finding.group = group, finding.text = std::move(text);
    return finding;
}

std::string NameRanks(const std::vector<RankShare>& ranks, size_t most) {
    std::string text;
    for (size_t i = 0; i < ranks.size() && i < most; ++i)
        text += (i ? ", " : "") + std::string("rank ") + std::to_string(ranks[i].rankId) + " " +
                FormatPercent(ranks[i].share);
    if (ranks.size() > most) text += " and " + std::to_string(ranks.size() - most) + " more";
    return text;
}

// The ranks the others wait for: the slow ranks of the group (in a phase other than
// communication), then those whose share of communication not overlapped lies far below the
// median (they arrive last, so they wait least), by how far. 'comm' is every rank's share.
std::vector<RankShare> WaitedFor(const std::vector<SlowRank>& slow,
                                 const std::vector<RankShare>& comm, std::string* why) {
    std::vector<RankShare> causes;
    for (const SlowRank& s : slow) {
        if (s.column == kStepCommNotOverlapped || s.column == kStepCommNotOverlappedExcludeReceive)
            continue;
        const auto at = std::find_if(comm.begin(), comm.end(), [&](const RankShare& c) {
            return c.rankId == s.rankId.value();
        });
        if (at == comm.end()) continue;
        causes.push_back(*at);
        const std::string said = DescribeSlowRank(s);  // "rank 7: Computing …"
        const size_t colon = said.find(": ");
        *why += (why->empty() ? "" : "; ") + std::string("rank ") + ToString(s.rankId) + " (" +
                (colon == std::string::npos ? said : said.substr(colon + 2)) + ")";
    }
    std::vector<double> values;
    for (const RankShare& c : comm) values.push_back(c.share);
    const RobustSpread spread = MedianAndMad(values);
    std::vector<RankShare> low;
    for (const RankShare& c : comm) {
        const double below = spread.median - c.share;
        const bool outlier = spread.mad <= 0 || below / (1.4826 * spread.mad) > kSlowScore;
        const bool known = std::any_of(causes.begin(), causes.end(),
                                       [&](const RankShare& k) { return k.rankId == c.rankId; });
        if (below > kShareSpreadPoints && outlier && !known) low.push_back(c);
    }
    std::sort(low.begin(), low.end(),
              [](const RankShare& a, const RankShare& b) { return a.share < b.share; });
    for (const RankShare& c : low) {
        causes.push_back(c);
        *why += (why->empty() ? "" : "; ") + std::string("rank ") + std::to_string(c.rankId) +
                " waits least (" + FormatPercent(c.share) + " not overlapped against a median of " +
                FormatPercent(spread.median) + ")";
    }
    return causes;
}

// Communication not overlapped over kCommunicationShare of the median rank's time: the cause
// first (the ranks the others wait for), then the ranks that wait most.
std::optional<ClusterFinding> CommunicationFinding(const std::vector<RankShare>& comm,
                                                   const std::vector<SlowRank>& slow,
                                                   double commMedian, const std::string& groupName,
                                                   const std::string& over) {
    if (commMedian <= kCommunicationShare) return std::nullopt;
    std::string why;
    const std::vector<RankShare> causes = WaitedFor(slow, comm, &why);
    std::vector<RankShare> most;
    for (const RankShare& c : comm)
        if (std::none_of(causes.begin(), causes.end(),
                         [&](const RankShare& k) { return k.rankId == c.rankId; }))
            most.push_back(c);
    std::sort(most.begin(), most.end(),
              [](const RankShare& a, const RankShare& b) { return a.share > b.share; });
    ClusterFinding f = MakeFinding(ClusterFindingKind::kCommunication, groupName, "");
    f.text = "Communication problem: communication not overlapped takes " +
             FormatPercent(commMedian) + " of the median rank's time" + over + ". ";
    if (!causes.empty())
        f.text += "Cause first: " + why + "; the others wait for " +
                  (causes.size() == 1 ? "it" : "them") + " (most waiting: " + NameRanks(most, 3) +
                  "). Look at the cause: it waits least because everyone else waits for it.";
    else
        f.text += "(most: " + NameRanks(most, 3) +
                  "). Compare wait and transit in Communication across ranks: long waits point at "
                  "a slow rank, long transit at a slow link or too little overlap.";
    for (const RankShare& c : causes) f.ranks.push_back(c.rankId);
    f.causes = causes.size();
    for (size_t i = 0; i < most.size() && i < 8; ++i) f.ranks.push_back(most[i].rankId);
    return f;
}

// The rank's step interval (its steps' Preparing) as a share of its steps' time, Preparing
// included: the time each step waited before its first operator.
RankShare PreparingShare(const ClusterRank& rank) {
    TimeNs preparing = 0, total = 0;
    for (const StepRow& row : rank.steps) {
        preparing = SaturatingAdd(preparing, row.ns[kStepPreparing]);
        total = SaturatingAdd(total, SaturatingAdd(StepWallNs(row), row.ns[kStepPreparing]));
    }
    return {rank.Id().value(), total > 0 ? static_cast<double>(preparing) / total : 0, preparing};
}

// The ranks whose MindData queues say their steps waited for data, by the queues' verdict:
// processing, sending or waiting. Said once, over the whole cluster: a slow input holds every
// group that rank is in.
std::optional<ClusterFinding> DataVerdictFinding(const Cluster& cluster) {
    const DataVerdictKind kinds[] = {DataVerdictKind::kProcessing, DataVerdictKind::kSending,
                                     DataVerdictKind::kWaiting};
    const char* words[] = {"data processing is slow", "sending to the device is slow",
                           "the steps waited for data"};
    std::vector<const ClusterRank*> byKind[3];
    size_t recorded = 0;
    for (const ClusterRank& rank : cluster.ranks) {
        if (rank.dataVerdict.kind == DataVerdictKind::kNoRecord) continue;
        ++recorded;
        for (int k = 0; k < 3; ++k)
            if (rank.dataVerdict.kind == kinds[k]) byKind[k].push_back(&rank);
    }
    ClusterFinding f = MakeFinding(ClusterFindingKind::kInput, "all ranks", "");
    std::string parts;
    for (int k = 0; k < 3; ++k) {
        if (byKind[k].empty()) continue;
        parts += std::string(parts.empty() ? "" : "; ") + words[k] + " on ";
        for (size_t i = 0; i < byKind[k].size() && i < 5; ++i)
            parts += (i ? ", " : "") + std::string("rank ") + ToString(byKind[k][i]->Id());
        if (byKind[k].size() > 5) parts += " and " + std::to_string(byKind[k].size() - 5) + " more";
        for (const ClusterRank* rank : byKind[k]) f.ranks.push_back(rank->Id().value());
    }
    if (f.ranks.empty()) return std::nullopt;
    // The first rank of the first verdict said, quoted: what its queues show.
    const ClusterRank* first = nullptr;
    for (int k = 0; k < 3 && !first; ++k)
        if (!byKind[k].empty()) first = byKind[k].front();
    f.text = "Input problem: the data queues of " + std::to_string(f.ranks.size()) + " of " +
             std::to_string(recorded) + (recorded == 1 ? " rank" : " ranks") +
             " that recorded them say their steps waited for data: " + parts + " (rank " +
             ToString(first->Id()) + ": " + first->dataVerdict.text +
             "). Until the input keeps up, no other tuning shortens these steps: look at their "
             "Data preparation view (the pipeline and its bottleneck operator).";
    return f;
}

// With pipeline stages whose every rank has a FLOPs summary: the stage whose ranks carry the most
// FLOPs (its median rank's), named when it passes the other stages' median by kFlopsLevelFactor.
// The tuning method's "stage 2 carries 35 % more FLOPs than the median stage: rebalance the
// layers".
std::optional<ClusterFinding> StageFlopsFinding(const Cluster& cluster) {
    const ParallelLayout& layout = cluster.parallel;
    if (layout.stages.size() < 2) return std::nullopt;
    std::vector<double> stageFlops;  // per stage, its median rank's MFLOPs
    for (const ParallelStage& stage : layout.stages) {
        std::vector<double> ranks;
        for (const int id : stage.ranks) {
            const std::optional<size_t> index = cluster.IndexOfRank(RankId(id));
            if (!index || cluster.ranks[*index].flops.mflops <= 0)
                return std::nullopt;  // a stage without its FLOPs: no stage is judged
            ranks.push_back(cluster.ranks[*index].flops.mflops);
        }
        if (ranks.empty()) return std::nullopt;
        stageFlops.push_back(MedianAndMad(ranks).median);
    }
    const size_t heaviest = static_cast<size_t>(
        std::max_element(stageFlops.begin(), stageFlops.end()) - stageFlops.begin());
    std::vector<double> others;  // the other stages' (MedianAndMad reorders what it is given)
    for (size_t s = 0; s < stageFlops.size(); ++s)
        if (s != heaviest) others.push_back(stageFlops[s]);
    const double median = MedianAndMad(others).median;
    if (median <= 0 || stageFlops[heaviest] <= median * kFlopsLevelFactor) return std::nullopt;
    const ParallelStage& stage = layout.stages[heaviest];
    ClusterFinding f = MakeFinding(ClusterFindingKind::kFlopsUnbalanced, "all ranks", "");
    f.ranks = stage.ranks;
    std::sort(f.ranks.begin(), f.ranks.end());
    f.unitKind = "stage";
    f.unitIndex = stage.stage;
    char amounts[96];
    std::snprintf(amounts, sizeof amounts, "%.1f GFLOPs a rank against %.1f GFLOPs",
                  stageFlops[heaviest] / 1e3, median / 1e3);
    f.text = "Unbalanced FLOPs across the pipeline: stage " + std::to_string(stage.stage) +
             (f.ranks.size() == 1 ? " (rank " : " (ranks ") + FormatRankList(f.ranks) +
             ") carries " + FormatPercent(stageFlops[heaviest] / median - 1) +
             " more FLOPs than the other stages' median (" + amounts +
             ", the ranks' FLOPs summaries); the other stages wait for it: move layers from it "
             "to the others until their FLOPs match.";
    return f;
}

// The ranks' FLOPs in levels: sorted, a new level where a rank carries more than
// kFlopsLevelFactor times the level's first. Unequal FLOPs across the pipeline's stages make the
// later stages wait (the tuning method's "unbalanced FLOPs").
std::optional<ClusterFinding> FlopsFinding(const Cluster& cluster) {
    if (std::optional<ClusterFinding> stage = StageFlopsFinding(cluster)) return stage;
    std::vector<std::pair<double, int>> flops;
    for (const ClusterRank& rank : cluster.ranks)
        if (rank.flops.mflops > 0) flops.emplace_back(rank.flops.mflops, rank.Id().value());
    if (flops.size() < 2) return std::nullopt;
    std::sort(flops.begin(), flops.end());
    std::vector<std::vector<std::pair<double, int>>> levels;
    for (const auto& entry : flops) {
        if (levels.empty() || entry.first > levels.back().front().first * kFlopsLevelFactor)
            levels.emplace_back();
        levels.back().push_back(entry);
    }
    if (levels.size() < 2) return std::nullopt;
    const auto describe = [](const std::vector<std::pair<double, int>>& level) {
        std::vector<int> ids;
        double sum = 0;
        for (const auto& [mflops, id] : level) ids.push_back(id), sum += mflops;
        std::sort(ids.begin(), ids.end());
        char amount[64];
        std::snprintf(amount, sizeof amount, "%.1f GFLOPs",
                      sum / static_cast<double>(level.size()) / 1e3);
        return (ids.size() == 1 ? "rank " : "ranks ") + FormatRankList(ids) + " " + amount;
    };
    const double most = levels.back().front().first, least = levels.front().front().first;
    ClusterFinding f = MakeFinding(ClusterFindingKind::kFlopsUnbalanced, "all ranks", "");
    char factor[32];
    std::snprintf(factor, sizeof factor, "%.2f", most / least);
    f.text = "Unbalanced FLOPs: the ranks carry unequal work (their FLOPs summaries): " +
             describe(levels.back()) + " against " + describe(levels.front()) + " (" + factor +
             "×" + (levels.size() > 2 ? ", " + std::to_string(levels.size()) + " levels" : "") +
             "). Where these are pipeline stages, the lighter stages wait for the heavier: move "
             "layers from them to the others until their FLOPs match.";
    for (const auto& [mflops, id] : levels.back()) f.ranks.push_back(id);
    std::sort(f.ranks.begin(), f.ranks.end());
    return f;
}

// The devices whose peak allocated memory passes the median device's by kMemoryPeakFactor,
// when fewer than half of the devices with a memory record do.
std::optional<ClusterFinding> MemoryPeakFinding(const Cluster& cluster) {
    std::vector<std::pair<int64_t, int>> peaks;  // (bytes, rank id)
    for (const ClusterRank& rank : cluster.ranks)
        if (rank.peakMemory.bytes > 0) peaks.emplace_back(rank.peakMemory.bytes, rank.Id().value());
    if (peaks.size() < 3) return std::nullopt;
    std::vector<double> values;
    for (const auto& [bytes, id] : peaks) values.push_back(static_cast<double>(bytes));
    const double median = MedianAndMad(values).median;
    std::vector<std::pair<int64_t, int>> high;
    for (const auto& peak : peaks)
        if (static_cast<double>(peak.first) > median * kMemoryPeakFactor) high.push_back(peak);
    if (high.empty() || high.size() * 2 >= peaks.size()) return std::nullopt;
    std::sort(high.rbegin(), high.rend());  // the highest first
    ClusterFinding f = MakeFinding(ClusterFindingKind::kMemoryPeak, "all ranks", "");
    std::vector<int> ids;
    for (const auto& [bytes, id] : high) f.ranks.push_back(id), ids.push_back(id);
    std::sort(ids.begin(), ids.end());
    const int64_t medianBytes = static_cast<int64_t>(median);
    f.text = "Memory peak: " + std::string(ids.size() == 1 ? "rank " : "ranks ") +
             FormatRankList(ids) + (ids.size() == 1 ? " peaks at " : " peak up to ") +
             FormatBytes(high.front().first) + " against a median of " + FormatBytes(medianBytes) +
             " over " + std::to_string(peaks.size()) + " devices (+" +
             FormatPercent(static_cast<double>(high.front().first) / median - 1) +
             ", memory_record.csv). A device that holds more than its peers is the first to run "
             "out: look at its Memory view (what is allocated at its peak) for work split "
             "unevenly or memory not released.";
    return f;
}

// Ranks that differ in groups, and a step that dominates the average, over 'rankIds'.
void StepTableFindings(const Cluster& cluster, const StepTable& averaged,
                       const std::vector<SlowRank>& slow, const std::vector<int>& rankIds,
                       const std::string& groupName, std::vector<ClusterFinding>& findings) {
    const std::optional<GroupDifference> difference =
        FindGroupDifference(cluster, averaged, slow, rankIds);
    if (difference) {
        ClusterFinding f = MakeFinding(ClusterFindingKind::kRanksDiffer, groupName,
                                       DescribeGroupDifference(*difference));
        f.ranks = DifferingRanks(*difference);
        f.steps = difference->steps;
        f.difference = difference;
        findings.push_back(std::move(f));
    }
    const std::optional<DominantStep> dominant = FindDominantStep(cluster, rankIds);
    // Said already when the groups' difference lies in that one step.
    if (dominant &&
        !(difference && difference->steps == std::vector<std::string>{dominant->step})) {
        ClusterFinding f = MakeFinding(ClusterFindingKind::kStepDominates, groupName,
                                       DescribeDominantStep(*dominant));
        f.steps = {dominant->step};
        f.dominant = dominant;
        findings.push_back(std::move(f));
    }
}

}  // namespace

const char* ClusterFindingKindName(ClusterFindingKind kind) {
    switch (kind) {
        case ClusterFindingKind::kCompute:
            return "compute";
        case ClusterFindingKind::kScheduling:
            return "scheduling";
        case ClusterFindingKind::kInput:
            return "input";
        case ClusterFindingKind::kCommunication:
            return "communication";
        case ClusterFindingKind::kRanksDiffer:
            return "ranks_differ";
        case ClusterFindingKind::kStepDominates:
            return "step_dominates";
        case ClusterFindingKind::kFlopsUnbalanced:
            return "flops_unbalanced";
        case ClusterFindingKind::kMemoryPeak:
            return "memory_peak";
    }
    return "compute";
}

std::vector<ClusterFinding> FindGroupProblems(const Cluster& cluster, const StepTable& averaged,
                                              const std::vector<int>& rankIds,
                                              const std::string& groupName) {
    std::vector<RankShare> computing, free, comm, input;
    const OverviewRule common = CommonOverviewRule(cluster);
    for (const ClusterRank& rank : cluster.ranks) {
        if (!rank.overview.valid || rank.overview.rule != common) continue;
        if (!rankIds.empty() &&
            !std::binary_search(rankIds.begin(), rankIds.end(), rank.Id().value()))
            continue;
        const OverviewFigures& f = rank.overview;
        computing.push_back({rank.Id().value(), f.Share(f.computingNs), f.computingNs});
        free.push_back({rank.Id().value(), f.Share(f.freeNs), f.freeNs});
        comm.push_back({rank.Id().value(), f.Share(f.commNotOverlappedNs), f.commNotOverlappedNs});
        if (rank.hasPhase[kStepPreparing]) input.push_back(PreparingShare(rank));
    }
    std::vector<ClusterFinding> findings;
    const std::vector<SlowRank> slow = FindSlowRanks(averaged, rankIds);
    StepTableFindings(cluster, averaged, slow, rankIds, groupName, findings);
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
    // A rank whose input is late computes as long as the others but waits less in the
    // collectives (they wait for it): its larger computing share is not a slow card.
    std::vector<int> lateInput;
    if (input.size() == computing.size())
        for (const RankShare& s : Above(input, median(input), kShareSpreadPoints))
            lateInput.push_back(s.rankId);
    auto spread = [&](ClusterFindingKind kind, const std::vector<RankShare>& shares,
                      const char* what, const char* advice, const std::vector<int>& except = {}) {
        const double middle = median(shares);
        std::vector<RankShare> above = Above(shares, middle, kShareSpreadPoints);
        above.erase(std::remove_if(above.begin(), above.end(),
                                   [&](const RankShare& r) {
                                       return std::find(except.begin(), except.end(), r.rankId) !=
                                              except.end();
                                   }),
                    above.end());
        if (above.empty()) return;
        ClusterFinding f = MakeFinding(kind, groupName, "");
        f.text = std::string(what) + over + ": " + NameRanks(above, 5) + " against a median of " +
                 FormatPercent(middle) + ". " + advice;
        for (const RankShare& s : above) f.ranks.push_back(s.rankId);
        findings.push_back(std::move(f));
    };
    spread(ClusterFindingKind::kCompute, computing,
           "Computing problem: the computing share spreads across cards",
           "Look at these ranks' operators: a slow card, a slower kernel or more work given to it.",
           lateInput);
    spread(ClusterFindingKind::kScheduling, free,
           "Scheduling problem: the free share spreads across cards",
           "The host does not keep these devices fed: look for Python or data-loading work between "
           "their kernels.");
    // Only over ranks that all record the step interval: a rank without it is not 0.
    if (input.size() == computing.size())
        spread(ClusterFindingKind::kInput, input,
               "Input problem: the step interval (the time before each step, waiting for its "
               "data) spreads across cards",
               "These ranks start each step late because their next batch is not ready, and the "
               "others wait for them in the collectives: look at their Data preparation view "
               "(the data loader or the input pipeline), not at their operators.");
    if (std::optional<ClusterFinding> f =
            CommunicationFinding(comm, slow, median(comm), groupName, over))
        findings.push_back(std::move(*f));
    return findings;
}

std::vector<ClusterFinding> FindClusterProblems(const Cluster& cluster) {
    return FindClusterProblems(cluster, BuildStepTable(cluster, std::nullopt));
}

std::vector<ClusterFinding> FindClusterProblems(const Cluster& cluster, const StepTable& averaged) {
    std::vector<ClusterFinding> findings = FindGroupProblems(cluster, averaged, {}, "all ranks");
    if (std::optional<ClusterFinding> input = DataVerdictFinding(cluster))
        findings.push_back(std::move(*input));
    if (std::optional<ClusterFinding> flops = FlopsFinding(cluster))
        findings.push_back(std::move(*flops));
    if (std::optional<ClusterFinding> memory = MemoryPeakFinding(cluster))
        findings.push_back(std::move(*memory));
    // Communication not overlapped over the whole cluster is said once, not again for each group;
    // so is a step that dominates the average.
    auto said = [&](ClusterFindingKind kind) {
        return std::any_of(findings.begin(), findings.end(),
                           [&](const ClusterFinding& f) { return f.kind == kind; });
    };
    const bool communicationSaid = said(ClusterFindingKind::kCommunication);
    const bool dominantSaid = said(ClusterFindingKind::kStepDominates);
    for (const ClusterGroup& group : cluster.groups) {
        if (group.kind == "p2p" || group.ranks.size() < 3 ||
            group.ranks.size() >= cluster.ranks.size())
            continue;
        for (ClusterFinding& finding :
             FindGroupProblems(cluster, averaged, group.ranks, "group " + group.name)) {
            if (communicationSaid && finding.kind == ClusterFindingKind::kCommunication) continue;
            if (dominantSaid && finding.kind == ClusterFindingKind::kStepDominates) continue;
            const bool repeated =
                std::any_of(findings.begin(), findings.end(), [&](const ClusterFinding& other) {
                    return other.kind == finding.kind && other.ranks == finding.ranks;
                });
            if (!repeated) findings.push_back(std::move(finding));
        }
    }
    // A unit of the layout named as such replaces the findings that name its ranks one by one.
    std::vector<ClusterFinding> units = FindParallelUnitProblems(cluster, averaged);
    for (const ClusterFinding& unit : units)
        findings.erase(std::remove_if(findings.begin(), findings.end(),
                                      [&](const ClusterFinding& f) {
                                          if (f.kind != unit.kind) return false;
                                          std::vector<int> ranks = f.ranks;
                                          std::sort(ranks.begin(), ranks.end());
                                          return ranks == unit.ranks;
                                      }),
                       findings.end());
    findings.insert(findings.begin(), std::make_move_iterator(units.begin()),
                    std::make_move_iterator(units.end()));
    return findings;
}

}  // namespace marey
