#include "sql/ClusterSqlTables.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <string>

#include "sql/FunctionRows.hpp"

namespace marey {
namespace {

// A table of one vector of every rank ('Items': the vector of a rank), rank after rank: its
// columns start with id and rank_id; 'cell' gives the others of the rank's item 'index'.
template <typename Items, typename Cell>
std::unique_ptr<SqlRows> PerRankRows(const Cluster& cluster, const char* name,
                                     std::vector<SqlColumn> columns, const Items& items,
                                     Cell cell) {
    // (first row, rank index) of each rank with items; a row is found in O(log ranks).
    auto starts = std::make_shared<std::vector<std::pair<int64_t, size_t>>>();
    int64_t total = 0;
    for (size_t r = 0; r < cluster.ranks.size(); ++r) {
        const int64_t rows = static_cast<int64_t>(items(cluster.ranks[r]).size());
        if (rows == 0) continue;
        starts->push_back({total, r});
        total += rows;
    }
    columns.insert(columns.begin(), {{"id", "INTEGER", true}, {"rank_id", "INTEGER"}});
    return std::make_unique<FunctionRows>(
        name, std::move(columns), total,
        [&cluster, starts, cell](int64_t id, int column, sqlite3_context* out) {
            const auto after =
                std::upper_bound(starts->begin(), starts->end(), id,
                                 [](int64_t value, const std::pair<int64_t, size_t>& start) {
                                     return value < start.first;
                                 });
            const ClusterRank& rank = cluster.ranks[(after - 1)->second];
            const size_t index = static_cast<size_t>(id - (after - 1)->first);
            if (column == 0) return sqlite3_result_int64(out, id);
            if (column == 1) return sqlite3_result_int64(out, rank.Id().value());
            cell(rank, index, column - 2, out);
        });
}

std::unique_ptr<SqlRows> RankTable(const Cluster& cluster) {
    return std::make_unique<FunctionRows>(
        "rank",
        std::vector<SqlColumn>{{"id", "INTEGER", true},
                               {"rank_id", "INTEGER"},
                               {"path", "TEXT"},
                               {"profiler_level", "TEXT"},
                               {"world_size", "INTEGER"},
                               {"source", "TEXT"},
                               {"computing_ns", "INTEGER"},
                               {"pure_computing_ns", "INTEGER"},
                               {"communication_overlapped_ns", "INTEGER"},
                               {"communication_not_overlapped_ns", "INTEGER"},
                               {"free_ns", "INTEGER"},
                               {"total_ns", "INTEGER"},
                               {"problems", "INTEGER"},
                               {"data_verdict", "TEXT"},
                               {"flops", "REAL"},
                               {"flops_per_s", "REAL"},
                               {"flops_utilization", "REAL"},
                               {"flops_source", "TEXT"},
                               {"peak_memory_bytes", "INTEGER"},
                               {"peak_memory_source", "TEXT"}},
        static_cast<int64_t>(cluster.ranks.size()),
        [&cluster](int64_t id, int column, sqlite3_context* out) {
            const ClusterRank& rank = cluster.ranks[static_cast<size_t>(id)];
            const OverviewFigures& figures = rank.overview;
            const TimeNs values[] = {figures.computingNs,      figures.pureComputingNs,
                                     figures.commOverlappedNs, figures.commNotOverlappedNs,
                                     figures.freeNs,           figures.totalNs};
            switch (column) {
                case 0:
                    return sqlite3_result_int64(out, id);
                case 1:
                    return sqlite3_result_int64(out, rank.Id().value());
                case 2:
                    return SetSqlText(out, rank.path);
                case 3:
                    return SetSqlText(out, rank.profilerLevel);
                case 4:
                    return rank.worldSize > 0 ? sqlite3_result_int64(out, rank.worldSize)
                                              : sqlite3_result_null(out);
                case 5:
                    return SetSqlText(out, figures.source);
                case 12:
                    return sqlite3_result_int64(out, static_cast<int64_t>(rank.problems.size()));
                case 13:
                    return SetSqlText(out, DataVerdictKey(rank.dataVerdict.kind));
                case 14:
                case 15:
                case 16: {
                    // As stats --json writes them: plain FLOPs, FLOPS, a share; NULL unknown.
                    const double value = column == 14   ? rank.flops.Flops()
                                         : column == 15 ? rank.flops.FlopsPerSecond()
                                                        : rank.flops.UtilizationShare();
                    if (value < 0) return sqlite3_result_null(out);
                    return sqlite3_result_double(out, value);
                }
                case 17:
                    if (rank.flopsSource.empty()) return sqlite3_result_null(out);
                    return SetSqlText(out, rank.flopsSource);
                case 18:
                    if (rank.peakMemory.bytes < 0) return sqlite3_result_null(out);
                    return sqlite3_result_int64(out, rank.peakMemory.bytes);
                case 19:
                    if (rank.peakMemory.source.empty()) return sqlite3_result_null(out);
                    return SetSqlText(out, rank.peakMemory.source);
                default:
                    // A rank without overview figures has none to give, not zeros.
                    if (!figures.valid) return sqlite3_result_null(out);
                    return sqlite3_result_int64(out, values[column - 6]);
            }
        });
}

std::unique_ptr<SqlRows> RankStepTable(const Cluster& cluster) {
    std::vector<SqlColumn> columns = {{"step", "TEXT"}};
    for (const char* key : kStepPhaseJsonKeys) columns.push_back({key, "INTEGER"});
    columns.push_back({"wall_ns", "INTEGER"});
    return PerRankRows(
        cluster, "rank_step", std::move(columns),
        [](const ClusterRank& rank) -> const auto& { return rank.steps; },
        [](const ClusterRank& rank, size_t index, int column, sqlite3_context* out) {
            const StepRow& row = rank.steps[index];
            if (column == 0) return SetSqlText(out, row.step);
            const int phase = column - 1;
            if (phase == kStepPhaseCount) return sqlite3_result_int64(out, StepWallNs(row));
            if (!rank.hasPhase[static_cast<size_t>(phase)]) return sqlite3_result_null(out);
            sqlite3_result_int64(out, row.ns[static_cast<size_t>(phase)]);
        });
}

std::unique_ptr<SqlRows> CollectiveTable(const Cluster& cluster) {
    return PerRankRows(
        cluster, "collective",
        {{"step", "TEXT"},
         {"name", "TEXT"},
         {"group_id", "TEXT"},
         {"kind", "TEXT"},
         {"ts", "INTEGER"},
         {"elapse_ns", "INTEGER"},
         {"transit_ns", "INTEGER"},
         {"wait_ns", "INTEGER"},
         {"sync_ns", "INTEGER"},
         {"idle_ns", "INTEGER"}},
        [](const ClusterRank& rank) -> const auto& { return rank.collectives; },
        [](const ClusterRank& rank, size_t index, int column, sqlite3_context* out) {
            const RankCollective& op = rank.collectives[index];
            const TimeNs times[] = {op.elapseNs, op.transitNs, op.waitNs, op.syncNs, op.idleNs};
            switch (column) {
                case 0:
                    return SetSqlText(out, op.step);
                case 1:
                    return SetSqlText(out, rank.Name(op.name));
                case 2:
                    return SetSqlText(out, rank.Name(op.group));
                case 3:
                    return sqlite3_result_text(out, op.p2p ? "p2p" : "collective", -1,
                                               SQLITE_STATIC);
                case 4:  // 0: the file gave none
                    return op.startNs ? sqlite3_result_int64(out, op.startNs)
                                      : sqlite3_result_null(out);
                default:
                    return sqlite3_result_int64(out, times[column - 5]);
            }
        });
}

std::unique_ptr<SqlRows> LinkTable(const Cluster& cluster) {
    return PerRankRows(
        cluster, "link",
        {{"op", "TEXT"},
         {"group_id", "TEXT"},
         {"src_rank", "INTEGER"},
         {"dst_rank", "INTEGER"},
         {"transport", "TEXT"},
         {"transit_size_mb", "REAL"},
         {"transit_ns", "INTEGER"},
         {"bandwidth_gbps", "REAL"},
         {"entries", "INTEGER"}},
        [](const ClusterRank& rank) -> const auto& { return rank.links; },
        [](const ClusterRank& rank, size_t index, int column, sqlite3_context* out) {
            const RankLink& link = rank.links[index];
            switch (column) {
                case 0:
                    return SetSqlText(out, rank.Name(link.op));
                case 1:
                    return SetSqlText(out, rank.Name(link.group));
                case 2:
                    return sqlite3_result_int64(out, link.srcRank);
                case 3:
                    return sqlite3_result_int64(out, link.dstRank);
                case 4:
                    return SetSqlText(out, link.transport);
                case 5:
                    return sqlite3_result_double(out, link.transitSizeMb);
                case 6:
                    return sqlite3_result_int64(out, link.transitNs);
                case 7:
                    return sqlite3_result_double(out, link.BandwidthGBps());
                default:
                    return sqlite3_result_int64(out, link.count);
            }
        });
}

// One row per (group, rank): the groups as a join table.
std::unique_ptr<SqlRows> GroupTable(const Cluster& cluster) {
    auto rows = std::make_shared<std::vector<std::pair<size_t, int>>>();
    for (size_t g = 0; g < cluster.groups.size(); ++g)
        for (int rank : cluster.groups[g].ranks) rows->push_back({g, rank});
    return std::make_unique<FunctionRows>(
        "cluster_group",
        std::vector<SqlColumn>{{"id", "INTEGER", true},
                               {"group_index", "INTEGER"},
                               {"name", "TEXT"},
                               {"kind", "TEXT"},
                               {"rank_id", "INTEGER"}},
        static_cast<int64_t>(rows->size()),
        [&cluster, rows](int64_t id, int column, sqlite3_context* out) {
            const auto [g, rank] = (*rows)[static_cast<size_t>(id)];
            const ClusterGroup& group = cluster.groups[g];
            switch (column) {
                case 0:
                    return sqlite3_result_int64(out, id);
                case 1:
                    return sqlite3_result_int64(out, static_cast<int64_t>(g));
                case 2:
                    return SetSqlText(out, group.name);
                case 3:
                    return SetSqlText(out, group.kind);
                default:
                    return sqlite3_result_int64(out, rank);
            }
        });
}

}  // namespace

std::vector<std::unique_ptr<SqlRows>> MakeClusterSqlTables(const Cluster& cluster) {
    std::vector<std::unique_ptr<SqlRows>> tables;
    tables.push_back(RankTable(cluster));
    tables.push_back(RankStepTable(cluster));
    tables.push_back(CollectiveTable(cluster));
    tables.push_back(LinkTable(cluster));
    tables.push_back(GroupTable(cluster));
    return tables;
}

}  // namespace marey
