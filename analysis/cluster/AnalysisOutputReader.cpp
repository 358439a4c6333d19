#include "cluster/AnalysisOutputReader.hpp"

#include <simdjson.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "core/TextFormat.hpp"
#include "load/MatrixLinkSums.hpp"
#include "load/AnalysisFile.hpp"
#include "load/CommunicationJson.hpp"
#include "load/ParallelMetadata.hpp"
#include "load/StepTraceCsv.hpp"

namespace marey {
namespace {

// communication_group.json: {"collective": [[0, 1, …], …], "p2p": [[…], …]}; groups of one rank
// say nothing about the cluster and are left out.
void ReadGroups(const std::string& path, Cluster& cluster) {
    ReadAnalysisFile(path, cluster.problems, [&](std::string_view text) {
        simdjson::dom::parser parser;
        simdjson::dom::object root;
        if (auto error = parser.parse(text.data(), text.size(), false).get_object().get(root)) {
            cluster.problems.push_back(
                path + ": error: not a JSON object of groups: " + simdjson::error_message(error));
            return;
        }
        for (auto [kind, value] : root) {
            simdjson::dom::array groups;
            if (value.get(groups)) continue;
            for (auto group : groups) {
                simdjson::dom::array members;
                if (group.get(members)) continue;
                ClusterGroup out;
                out.kind = std::string(kind);
                for (auto member : members) {
                    int64_t rank = -1;
                    if (!member.get(rank) && rank >= 0 && rank < 1 << 24)
                        out.ranks.push_back(static_cast<int>(rank));
                }
                std::sort(out.ranks.begin(), out.ranks.end());
                if (out.ranks.size() < 2) continue;
                out.name = "(" + FormatRankList(out.ranks) + ")";
                cluster.groups.push_back(std::move(out));
            }
        }
    });
}

// communication_group.json's "comm_group_parallel_info" (newer msprof-analyze): each group's
// ranks with the name the job gave it ("pg_name": "tp", "pp", "dp_cp", …), the parallel layout's
// groups: each rank read gets those it is in. Absent: nothing.
void ReadParallelGroups(const std::string& path, std::map<int, ClusterRank>& ranks,
                        std::vector<std::string>& problems) {
    std::vector<NamedRankGroup> named;
    ReadAnalysisFile(path, problems, [&](std::string_view text) {
        named = ReadCommGroupParallelInfo(text, path, problems);
    });
    AddNamedParallelGroups(named, "communication_group.json", path, ranks, problems);
}

}  // namespace

Status ReadAnalysisOutput(const std::string& folder, Cluster& cluster) {
    std::map<int, ClusterRank> ranks;
    auto rankFor = [&](int id) -> ClusterRank& {
        ClusterRank& rank = ranks[id];
        if (!rank.rankId) {
            rank.rankId = RankId(id);
            rank.path = folder;
            rank.rankSource = "cluster_analysis_output";
        }
        return rank;
    };
    const std::string stepPath = folder + "/cluster_step_trace_time.csv";
    std::set<std::string> stageNames;
    ReadAnalysisFile(std::filesystem::exists(stepPath) ? stepPath : std::string(), cluster.problems,
                     [&](std::string_view text) {
                         auto steps = ParseStepTraceCsv(text, stepPath);
                         if (!steps.ok()) return cluster.problems.push_back(steps.message());
                         AddFileProblems(stepPath, steps.value().problems, cluster.problems);
                         for (StepRow& row : steps.value().rows) {
                             const std::vector<int> members = RanksInText(row.index);
                             if (row.type == "stage" && members.size() > 1 &&
                                 stageNames.insert(row.index).second) {
                                 cluster.groups.push_back(
                                     {"stage (" + FormatRankList(members) + ")", "stage", members});
                             } else if (row.type == "rank" && members.size() == 1) {
                                 ClusterRank& rank = rankFor(members.front());
                                 rank.hasPhase = steps.value().hasColumn;
                                 row.type.clear(), row.index.clear();
                                 rank.steps.push_back(std::move(row));
                             }
                         }
                     });
    const std::string groupPath = folder + "/communication_group.json";
    if (std::filesystem::exists(groupPath)) {
        ReadGroups(groupPath, cluster);
        ReadParallelGroups(groupPath, ranks, cluster.problems);
    }
    // The step file and the group file name the job's ranks: a rank id that only the
    // communication files name is a damaged entry, not a rank.
    std::set<int> jobRanks;
    for (const auto& entry : ranks) jobRanks.insert(entry.first);
    for (const ClusterGroup& group : cluster.groups)
        jobRanks.insert(group.ranks.begin(), group.ranks.end());
    auto outsideJob = [&](int id, const std::string& path, size_t entries, const char* one,
                          const char* many) {
        if (jobRanks.empty() || jobRanks.count(id)) return false;
        cluster.problems.push_back(path + ": rank " + std::to_string(id) +
                                   " is in neither cluster_step_trace_time.csv nor "
                                   "communication_group.json; its " +
                                   CountText(entries, one, many) + " left out");
        return true;
    };
    const std::string commPath = folder + "/cluster_communication.json";
    ReadAnalysisFile(std::filesystem::exists(commPath) ? commPath : std::string(), cluster.problems,
                     [&](std::string_view text) {
                         CommunicationOps ops;
                         const Status status = ParseClusterCommunicationJson(text, commPath, ops);
                         AddFileProblems(commPath, ops.problems, cluster.problems);
                         if (!status.ok()) return cluster.problems.push_back(status.message());
                         std::map<int, std::vector<CommunicationOp>> byRank;
                         for (CommunicationOp& op : ops.ops)
                             byRank[op.rank].push_back(std::move(op));
                         for (auto& [id, rankOps] : byRank)
                             if (!outsideJob(id, commPath, rankOps.size(), "operator", "operators"))
                                 AddRankCollectives(rankOps, rankFor(id));
                     });
    const std::string matrixPath = folder + "/cluster_communication_matrix.json";
    ReadAnalysisFile(std::filesystem::exists(matrixPath) ? matrixPath : std::string(),
                     cluster.problems, [&](std::string_view text) {
                         CommunicationMatrix matrix;
                         const Status status =
                             ParseCommunicationMatrixJson(text, matrixPath, matrix);
                         AddFileProblems(matrixPath, matrix.problems, cluster.problems);
                         if (!status.ok()) return cluster.problems.push_back(status.message());
                         std::map<int, std::vector<CommunicationLink>> bySource;
                         for (CommunicationLink& link : matrix.links)
                             bySource[link.srcRank].push_back(std::move(link));
                         for (auto& [id, links] : bySource)
                             if (!outsideJob(id, matrixPath, links.size(), "link", "links"))
                                 AddRankLinks(SumMatrixLinks(links), rankFor(id));
                     });
    if (ranks.empty())
        return Status::Error(folder +
                             ": error: cluster_analysis_output without a rank in its files");
    AddAnalysisOutputRanks(ranks, cluster);
    return Status();
}

}  // namespace marey
