#include "cluster/Cluster.hpp"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <map>
#include <set>

#include "cluster/ClusterFolder.hpp"
#include "cluster/ClusterRankFile.hpp"
#include "load/RankDirectory.hpp"
#include "core/TextFormat.hpp"

namespace marey {
namespace {

bool IsNumber(const std::string& text) {
    return !text.empty() && text.size() < 12 &&
           std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Takes the ranks whose summary file could not be read out of the cluster: their problems come
// first, and the id in the file's name (rank_summary_N.json) is missing, not invented.
std::vector<RankId> LeaveOutUnreadable(Cluster& cluster) {
    std::vector<RankId> ids;
    std::vector<std::string> problems;
    std::vector<ClusterRank> kept;
    for (ClusterRank& rank : cluster.ranks) {
        if (!rank.unreadable) {
            kept.push_back(std::move(rank));
            continue;
        }
        for (const std::string& problem : rank.problems) problems.push_back(problem);
        const std::string name = std::filesystem::path(rank.path).filename().string();
        int id = -1;
        const char* digits = name.c_str() + 13;  // after "rank_summary_"
        if (IsRankSummaryFileName(name) &&
            std::from_chars(digits, digits + name.size() - 18, id).ec == std::errc() &&
            id <= 1 << 24) {
            ids.push_back(RankId(id));
            problems.push_back(name + ": rank " + std::to_string(id) +
                               " left out: its summary cannot be read");
        } else {
            problems.push_back(rank.path + ": left out: its summary cannot be read");
        }
    }
    cluster.ranks = std::move(kept);
    cluster.problems.insert(cluster.problems.begin(), problems.begin(), problems.end());
    return ids;
}

// Orders the ranks by id, keeps the first of each id, numbers those without one after the
// largest, and reports each of these decisions.
void SettleRankIds(Cluster& cluster) {
    // A rank of no id whose folder's name gives one (a summary line that lost its id) takes it.
    for (ClusterRank& rank : cluster.ranks) {
        if (rank.rankId) continue;
        const std::optional<RankId> fromName =
            RankIdFromFolderName(std::filesystem::path(rank.path).filename().string());
        if (!fromName) continue;
        rank.rankId = fromName;
        rank.rankSource = "its folder's name";
        cluster.problems.push_back(rank.path + ": no rank id where it was read; rank " +
                                   ToString(*fromName) + " from its folder's name");
    }
    std::stable_sort(
        cluster.ranks.begin(), cluster.ranks.end(),
        [](const ClusterRank& a, const ClusterRank& b) { return a.rankId < b.rankId; });
    // Sorted, the ranks of no id come first; the others are numbered after the largest.
    int next = cluster.ranks.empty() || !cluster.ranks.back().rankId
                   ? 0
                   : cluster.ranks.back().Id().value() + 1;
    std::vector<ClusterRank> kept;
    kept.reserve(cluster.ranks.size());
    for (ClusterRank& rank : cluster.ranks) {
        if (!rank.rankId) {
            rank.rankId = RankId(next++);
            cluster.problems.push_back(rank.path +
                                       ": no rank id (no profiler_info_N.json, no rank in the "
                                       "folder name); shown as rank " +
                                       ToString(rank.Id()));
            rank.rankSource = "numbered after the others";
        } else if (!kept.empty() && kept.back().rankId == rank.rankId) {
            if (cluster.duplicateRanks.empty() || cluster.duplicateRanks.back() != rank.Id())
                cluster.duplicateRanks.push_back(rank.Id());
            cluster.problems.push_back("rank " + ToString(rank.Id()) +
                                       " appears twice: " + kept.back().path + " and " + rank.path +
                                       "; the second is left out");
            continue;
        }
        kept.push_back(std::move(rank));
    }
    std::sort(kept.begin(), kept.end(),
              [](const ClusterRank& a, const ClusterRank& b) { return a.rankId < b.rankId; });
    cluster.ranks = std::move(kept);
}

// The ids missing below the largest rank id, and 'absent' (ids known to exist whatever the
// largest is), as one problem.
void ReportMissingRanks(Cluster& cluster, const std::vector<RankId>& absent) {
    int expected = 0;
    for (const ClusterRank& rank : cluster.ranks) {
        for (; expected < rank.Id().value(); ++expected)
            cluster.missingRanks.push_back(RankId(expected));
        expected = rank.Id().value() + 1;
    }
    const size_t belowLargest = cluster.missingRanks.size();
    for (const RankId id : absent)
        if (!cluster.IndexOfRank(id)) cluster.missingRanks.push_back(id);
    std::sort(cluster.missingRanks.begin(), cluster.missingRanks.end());
    cluster.missingRanks.erase(
        std::unique(cluster.missingRanks.begin(), cluster.missingRanks.end()),
        cluster.missingRanks.end());
    if (cluster.missingRanks.empty()) return;
    const bool allBelow = belowLargest == cluster.missingRanks.size();
    cluster.problems.push_back(
        CountText(cluster.missingRanks.size(), "rank id", "rank ids") + " missing" +
        (allBelow ? " below the largest (" + ToString(cluster.ranks.back().Id()) + ")" : "") +
        ": " + FormatRankList(cluster.missingRanks));
}

// The job's rank count as the ranks' metadata says (0: unknown); ranks that disagree are said.
int SettleWorldSize(Cluster& cluster) {
    // More ranks than any job this reads is damage: a million missing ids would say nothing.
    constexpr int kMaxWorldSize = 1 << 20;
    int worldSize = 0;
    const ClusterRank* largest = nullptr;
    for (const ClusterRank& rank : cluster.ranks)
        if (rank.worldSize > worldSize) worldSize = rank.worldSize, largest = &rank;
    if (worldSize > kMaxWorldSize) {
        cluster.problems.push_back("rank " + ToString(largest->Id()) + " (" + largest->path +
                                   "): world_size " + std::to_string(worldSize) +
                                   " in profiler_metadata.json is past " +
                                   std::to_string(kMaxWorldSize) + " ranks; ignored");
        return 0;
    }
    for (const ClusterRank& rank : cluster.ranks)
        if (rank.worldSize > 0 && rank.worldSize != worldSize) {
            cluster.problems.push_back(
                "rank " + ToString(rank.Id()) + " says the job has " +
                std::to_string(rank.worldSize) + " ranks, others " + std::to_string(worldSize) +
                " (world_size in profiler_metadata.json); " + std::to_string(worldSize) + " used");
            break;
        }
    return worldSize;
}

// Links to a rank past the job's rank count are damage, not traffic: left out of the matrix and
// its findings, and said with the first few of them.
void LeaveOutLinksOutsideTheJob(Cluster& cluster, int worldSize) {
    if (worldSize <= 0) return;
    size_t count = 0;
    std::string examples;
    for (ClusterRank& rank : cluster.ranks) {
        auto outside = [&](const RankLink& link) {
            return link.srcRank >= worldSize || link.dstRank >= worldSize;
        };
        for (const RankLink& link : rank.links)
            if (outside(link) && count++ < 5)
                examples += (examples.empty() ? "" : ", ") + std::to_string(link.srcRank) + "-" +
                            std::to_string(link.dstRank) + " (rank " + ToString(rank.Id()) + ")";
        rank.links.erase(std::remove_if(rank.links.begin(), rank.links.end(), outside),
                         rank.links.end());
    }
    if (count > 0)
        cluster.problems.push_back(CountText(count, "link names", "links name") +
                                   " a rank outside the job's " + std::to_string(worldSize) +
                                   " ranks (world_size in profiler_metadata.json): " + examples +
                                   (count > 5 ? ", …" : "") +
                                   "; left out of the matrix and its findings");
}

// Rank ids that another file names (a link's end, the job's rank count) and no rank has.
// O((links + world size) log).
std::vector<RankId> NamedRanks(const Cluster& cluster, int worldSize) {
    // A flag per id (ids are at most 2^24): a full mesh of a thousand ranks names each id a
    // thousand times, and sorting two million ids would cost more than reading the cluster.
    std::vector<char> named(static_cast<size_t>(std::max(worldSize, 0)), 1);
    for (const ClusterRank& rank : cluster.ranks)
        for (const RankLink& link : rank.links)
            for (const int id : {link.srcRank, link.dstRank}) {
                if (id < 0 || (worldSize > 0 && id >= worldSize) || id > 1 << 24) continue;
                if (static_cast<size_t>(id) >= named.size())
                    named.resize(static_cast<size_t>(id) + 1, 0);
                named[static_cast<size_t>(id)] = 1;
            }
    std::vector<RankId> absent;
    for (size_t id = 0; id < named.size(); ++id)
        if (named[id] && !cluster.IndexOfRank(RankId(static_cast<int>(id))))
            absent.push_back(RankId(static_cast<int>(id)));
    return absent;
}

// Why each missing rank has no data, where the folder walk or the links tell: ranks with the
// same reason share a line, the first twenty lines are kept.
void ExplainMissingRanks(Cluster& cluster, const std::vector<SkippedFolder>& skipped,
                         int worldSize) {
    constexpr size_t kMaxLines = 20;
    if (cluster.missingRanks.empty()) return;
    // Who names each id, built once: a million missing ids must not each scan every link.
    std::map<RankId, std::string> folderOf;
    for (const SkippedFolder& folder : skipped)
        if (folder.rankId) folderOf[*folder.rankId] = folder.path + ": " + folder.reason;
    std::map<RankId, std::set<RankId>> linkedBy;
    for (const ClusterRank& rank : cluster.ranks)
        for (const RankLink& link : rank.links)
            for (const int end : {link.srcRank, link.dstRank})
                if (const RankId id(end);
                    id != rank.Id() && std::binary_search(cluster.missingRanks.begin(),
                                                          cluster.missingRanks.end(), id))
                    linkedBy[id].insert(rank.Id());
    std::vector<std::pair<std::string, std::vector<RankId>>> reasons;  // in the order first met
    std::map<std::string, size_t> reasonIndex;
    for (const RankId id : cluster.missingRanks) {
        std::string why;
        if (const auto folder = folderOf.find(id); folder != folderOf.end()) {
            why = folder->second;
        } else if (const auto by = linkedBy.find(id); by != linkedBy.end()) {
            why = "named by the links of " +
                  std::string(by->second.size() == 1 ? "rank " : "ranks ") +
                  FormatRankList(std::vector<RankId>(by->second.begin(), by->second.end())) +
                  "; no folder found";
        } else if (worldSize > 0) {
            why = "of the job's " + std::to_string(worldSize) +
                  " ranks (world_size); no folder found";
        }
        if (why.empty()) continue;
        const auto [it, added] = reasonIndex.try_emplace(why, reasons.size());
        if (added) reasons.push_back({why, {}});
        reasons[it->second].second.push_back(id);
    }
    for (size_t i = 0; i < reasons.size() && i < kMaxLines; ++i) {
        const std::vector<RankId>& ids = reasons[i].second;
        cluster.problems.push_back((ids.size() == 1 ? "rank " : "ranks ") + FormatRankList(ids) +
                                   " missing: " + reasons[i].first);
    }
    if (reasons.size() > kMaxLines)
        cluster.problems.push_back("… and " + std::to_string(reasons.size() - kMaxLines) +
                                   " more reasons for missing ranks");
}

void CollectSteps(Cluster& cluster) {
    std::set<std::string> steps;
    for (const ClusterRank& rank : cluster.ranks)
        for (const StepRow& row : rank.steps) steps.insert(row.step);
    cluster.steps.assign(steps.begin(), steps.end());
    SortSteps(cluster.steps);
}

}  // namespace

std::optional<size_t> Cluster::IndexOfRank(RankId rankId) const {
    const auto it =
        std::lower_bound(ranks.begin(), ranks.end(), rankId,
                         [](const ClusterRank& rank, RankId id) { return rank.rankId < id; });
    if (it == ranks.end() || it->rankId != rankId) return std::nullopt;
    return static_cast<size_t>(it - ranks.begin());
}

std::optional<StepIndex> Cluster::IndexOfStep(const std::string& step) const {
    for (size_t i = 0; i < steps.size(); ++i)
        if (steps[i] == step) return StepIndex(static_cast<int>(i));
    return std::nullopt;
}

void SortSteps(std::vector<std::string>& steps) {
    std::sort(steps.begin(), steps.end(), [](const std::string& a, const std::string& b) {
        const bool na = IsNumber(a), nb = IsNumber(b);
        if (na != nb) return na;
        if (na) return std::stoll(a) < std::stoll(b);
        return a < b;
    });
}

FileProblems ProblemsNamingFile(const Cluster& cluster, std::string_view fileName, size_t most) {
    FileProblems found;
    for (const std::string& problem : cluster.problems) {
        if (problem.find(fileName) == std::string::npos) continue;
        if (found.count++ < most) found.first.push_back(problem);
    }
    return found;
}

std::vector<std::pair<int, int>> RankRuns(const std::vector<int>& ranks) {
    std::vector<std::pair<int, int>> runs;
    for (const int id : ranks) {
        if (!runs.empty() && id == runs.back().second + 1)
            runs.back().second = id;
        else
            runs.push_back({id, id});
    }
    return runs;
}

std::string FormatRankList(const std::vector<RankId>& ranks) {
    return FormatRankList(RankNumbers(ranks));
}

std::string FormatRankList(const std::vector<int>& ranks) {
    std::string text;
    for (size_t i = 0; i < ranks.size();) {
        size_t j = i;
        while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1) ++j;
        if (!text.empty()) text += ", ";
        text += std::to_string(ranks[i]);
        if (j > i) text += "-" + std::to_string(ranks[j]);
        i = j + 1;
    }
    return text;
}

std::vector<int> RanksInText(const std::string& text) {
    std::vector<int> ranks;
    int value = -1;
    for (const char c : text) {
        if (c >= '0' && c <= '9')
            value = (value < 0 ? 0 : value * 10) + (c - '0');
        else if (value >= 0)
            ranks.push_back(value), value = -1;
        if (value > 1 << 24) return {};
    }
    if (value >= 0) ranks.push_back(value);
    return ranks;
}

void AddAnalysisOutputRanks(std::map<int, ClusterRank>& ranks, Cluster& cluster) {
    for (auto& [id, rank] : ranks) {
        RankOverviewInputs inputs;
        inputs.profilerSteps = &rank.steps;
        inputs.stepsSource = "cluster_step_trace_time.csv (the sum of the rank's steps)";
        rank.overview = RankOverviewFigures(inputs);
        cluster.ranks.push_back(std::move(rank));
    }
    if (cluster.groups.empty()) cluster.groups = GroupsFromCollectives(cluster.ranks);
    std::stable_sort(cluster.groups.begin(), cluster.groups.end(),
                     [](const ClusterGroup& a, const ClusterGroup& b) {
                         return a.ranks.size() > b.ranks.size();
                     });
}

std::vector<ClusterGroup> GroupsFromCollectives(const std::vector<ClusterRank>& ranks) {
    std::map<std::string, std::pair<bool, std::set<int>>> byHash;  // hash → (p2p, ranks)
    for (const ClusterRank& rank : ranks) {
        std::vector<bool> seen(rank.names.size(), false);
        for (const RankCollective& collective : rank.collectives) {
            if (seen[collective.group]) continue;
            seen[collective.group] = true;
            const std::string& hash = rank.Name(collective.group);
            if (hash.empty()) continue;
            auto& entry = byHash[hash];
            entry.first = entry.first || collective.p2p;
            entry.second.insert(rank.Id().value());
        }
    }
    std::vector<ClusterGroup> groups;
    for (auto& [hash, entry] : byHash)
        groups.push_back({hash, entry.first ? "p2p" : "collective",
                          std::vector<int>(entry.second.begin(), entry.second.end())});
    std::stable_sort(groups.begin(), groups.end(),
                     [](const ClusterGroup& a, const ClusterGroup& b) {
                         return a.ranks.size() > b.ranks.size();
                     });
    return groups;
}

OverviewRule CommonOverviewRule(const Cluster& cluster) {
    std::map<OverviewRule, size_t> ranksOf;
    for (const ClusterRank& rank : cluster.ranks)
        if (rank.overview.valid) ++ranksOf[rank.overview.rule];
    OverviewRule common = OverviewRule::kNone;
    size_t most = 0;
    for (const auto& [rule, count] : ranksOf)
        if (count > most) common = rule, most = count;
    return common;
}

namespace {

// Ranks whose overview is made another way than most ranks' are named: the findings that compare
// ranks' shares leave them out (see CommonOverviewRule).
void NameRanksOfAnotherSource(Cluster& cluster) {
    const OverviewRule common = CommonOverviewRule(cluster);
    for (const ClusterRank& rank : cluster.ranks)
        if (rank.overview.valid && rank.overview.rule != common)
            cluster.problems.push_back("rank " + ToString(rank.Id()) + ": its figures come from " +
                                       rank.overview.source + ", while most ranks' are " +
                                       OverviewRuleText(common) +
                                       "; it is left out of the comparisons of ranks' shares");
}

}  // namespace

void SettleCluster(Cluster& cluster, const std::vector<SkippedFolder>& skipped) {
    for (const SkippedFolder& folder : skipped)
        cluster.problems.push_back(folder.path + ": " + folder.reason);
    std::vector<RankId> absent = LeaveOutUnreadable(cluster);
    SettleRankIds(cluster);
    const int worldSize = SettleWorldSize(cluster);
    LeaveOutLinksOutsideTheJob(cluster, worldSize);
    for (const RankId id : NamedRanks(cluster, worldSize)) absent.push_back(id);
    ReportMissingRanks(cluster, absent);
    ExplainMissingRanks(cluster, skipped, worldSize);
    CollectSteps(cluster);
    NameRanksOfAnotherSource(cluster);
    for (const ClusterRank& rank : cluster.ranks)
        for (const std::string& problem : rank.problems)
            cluster.problems.push_back("rank " + ToString(rank.Id()) + ": " + problem);
}

void AddNamedParallelGroups(const std::vector<NamedRankGroup>& groups, const std::string& source,
                            const std::string& path, std::map<int, ClusterRank>& ranks,
                            std::vector<std::string>& problems) {
    for (const NamedRankGroup& group : groups) {
        if (group.kind == "world") continue;
        const auto outside = std::find_if(group.ranks.begin(), group.ranks.end(),
                                          [&](int id) { return ranks.count(id) == 0; });
        if (outside != group.ranks.end()) {
            problems.push_back(path + ": the group " + QuoteForMessage(group.name, 80) +
                               " names rank " + std::to_string(*outside) +
                               ", which the job does not have: the group left out of the layout");
            continue;
        }
        for (const int id : group.ranks) {
            auto rank = ranks.find(id);
            if (rank == ranks.end()) continue;
            RankParallelInfo& info = rank->second.parallel;
            info.source = source;
            if (std::find(info.groups.begin(), info.groups.end(), group) == info.groups.end())
                info.groups.push_back(group);
        }
    }
}

}  // namespace marey
