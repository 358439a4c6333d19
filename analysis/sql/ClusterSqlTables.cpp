#include "sql/ClusterSqlTables.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <functional>
#include <string>

namespace marey {
namespace {

// Rows 0..count-1 whose cells a function computes.
class FunctionRows final : public SqlRows {
public:
    using CellFunction = std::function<void(int64_t id, int column, sqlite3_context* out)>;
    FunctionRows(const char* name, std::vector<SqlColumn> columns, int64_t count, CellFunction cell)
        : m_name(name), m_columns(std::move(columns)), m_count(count), m_cell(std::move(cell)) {}
    const char* Name() const override { return m_name; }
    const std::vector<SqlColumn>& Columns() const override { return m_columns; }
    int64_t Count() const override { return m_count; }
    void Cell(int64_t id, int column, sqlite3_context* out, CellHint&) const override {
        m_cell(id, column, out);
    }

private:
    const char* m_name;
    std::vector<SqlColumn> m_columns;
    int64_t m_count;
    CellFunction m_cell;
};

void SetText(sqlite3_context* out, std::string_view text) {
    if (text.empty())
        sqlite3_result_null(out);
    else
        sqlite3_result_text(out, text.data(), static_cast<int>(text.size()), SQLITE_STATIC);
}

// The rows of every rank's vector of one kind, rank after rank: (first row, rank index) pairs.
using RankStarts = std::vector<std::pair<int64_t, size_t>>;

template <typename Count>
std::shared_ptr<RankStarts> StartsOf(const Cluster& cluster, const Count& count, int64_t& total) {
    auto starts = std::make_shared<RankStarts>();
    total = 0;
    for (size_t r = 0; r < cluster.ranks.size(); ++r) {
        const int64_t rows = static_cast<int64_t>(count(cluster.ranks[r]));
        if (rows == 0) continue;
        starts->push_back({total, r});
        total += rows;
    }
    return starts;
}

// The rank and the index in its vector of row 'id'. O(log ranks).
std::pair<size_t, size_t> Locate(const RankStarts& starts, int64_t id) {
    const auto after = std::upper_bound(
        starts.begin(), starts.end(), id,
        [](int64_t value, const std::pair<int64_t, size_t>& start) { return value < start.first; });
    const auto& [first, rank] = *(after - 1);
    return {rank, static_cast<size_t>(id - first)};
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
                               {"problems", "INTEGER"}},
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
                    return sqlite3_result_int64(out, rank.rankId);
                case 2:
                    return SetText(out, rank.path);
                case 3:
                    return SetText(out, rank.profilerLevel);
                case 4:
                    return rank.worldSize > 0 ? sqlite3_result_int64(out, rank.worldSize)
                                              : sqlite3_result_null(out);
                case 5:
                    return SetText(out, figures.source);
                case 12:
                    return sqlite3_result_int64(out, static_cast<int64_t>(rank.problems.size()));
                default:
                    // A rank without overview figures has none to give, not zeros.
                    if (!figures.valid) return sqlite3_result_null(out);
                    return sqlite3_result_int64(out, values[column - 6]);
            }
        });
}

std::unique_ptr<SqlRows> RankStepTable(const Cluster& cluster) {
    int64_t total = 0;
    auto starts = StartsOf(
        cluster, [](const ClusterRank& rank) { return rank.steps.size(); }, total);
    std::vector<SqlColumn> columns = {
        {"id", "INTEGER", true}, {"rank_id", "INTEGER"}, {"step", "TEXT"}};
    for (const char* key : kStepPhaseJsonKeys) columns.push_back({key, "INTEGER"});
    columns.push_back({"wall_ns", "INTEGER"});
    return std::make_unique<FunctionRows>(
        "rank_step", std::move(columns), total,
        [&cluster, starts](int64_t id, int column, sqlite3_context* out) {
            const auto [r, index] = Locate(*starts, id);
            const ClusterRank& rank = cluster.ranks[r];
            const StepRow& row = rank.steps[index];
            if (column == 0) return sqlite3_result_int64(out, id);
            if (column == 1) return sqlite3_result_int64(out, rank.rankId);
            if (column == 2) return SetText(out, row.step);
            const int phase = column - 3;
            if (phase == kStepPhaseCount) return sqlite3_result_int64(out, StepWallNs(row));
            if (!rank.hasPhase[static_cast<size_t>(phase)]) return sqlite3_result_null(out);
            sqlite3_result_int64(out, row.ns[static_cast<size_t>(phase)]);
        });
}

std::unique_ptr<SqlRows> CollectiveTable(const Cluster& cluster) {
    int64_t total = 0;
    auto starts = StartsOf(
        cluster, [](const ClusterRank& rank) { return rank.collectives.size(); }, total);
    return std::make_unique<FunctionRows>(
        "collective",
        std::vector<SqlColumn>{{"id", "INTEGER", true},
                               {"rank_id", "INTEGER"},
                               {"step", "TEXT"},
                               {"name", "TEXT"},
                               {"group_id", "TEXT"},
                               {"kind", "TEXT"},
                               {"ts", "INTEGER"},
                               {"elapse_ns", "INTEGER"},
                               {"transit_ns", "INTEGER"},
                               {"wait_ns", "INTEGER"},
                               {"sync_ns", "INTEGER"},
                               {"idle_ns", "INTEGER"}},
        total, [&cluster, starts](int64_t id, int column, sqlite3_context* out) {
            const auto [r, index] = Locate(*starts, id);
            const ClusterRank& rank = cluster.ranks[r];
            const RankCollective& op = rank.collectives[index];
            switch (column) {
                case 0:
                    return sqlite3_result_int64(out, id);
                case 1:
                    return sqlite3_result_int64(out, rank.rankId);
                case 2:
                    return SetText(out, op.step);
                case 3:
                    return SetText(out, rank.Name(op.name));
                case 4:
                    return SetText(out, rank.Name(op.group));
                case 5:
                    return sqlite3_result_text(out, op.p2p ? "p2p" : "collective", -1,
                                               SQLITE_STATIC);
                case 6:  // 0: the file gave none
                    return op.startNs ? sqlite3_result_int64(out, op.startNs)
                                      : sqlite3_result_null(out);
                case 7:
                    return sqlite3_result_int64(out, op.elapseNs);
                case 8:
                    return sqlite3_result_int64(out, op.transitNs);
                case 9:
                    return sqlite3_result_int64(out, op.waitNs);
                case 10:
                    return sqlite3_result_int64(out, op.syncNs);
                default:
                    return sqlite3_result_int64(out, op.idleNs);
            }
        });
}

std::unique_ptr<SqlRows> LinkTable(const Cluster& cluster) {
    int64_t total = 0;
    auto starts = StartsOf(
        cluster, [](const ClusterRank& rank) { return rank.links.size(); }, total);
    return std::make_unique<FunctionRows>(
        "link",
        std::vector<SqlColumn>{{"id", "INTEGER", true},
                               {"rank_id", "INTEGER"},
                               {"op", "TEXT"},
                               {"group_id", "TEXT"},
                               {"src_rank", "INTEGER"},
                               {"dst_rank", "INTEGER"},
                               {"transport", "TEXT"},
                               {"transit_size_mb", "REAL"},
                               {"transit_ns", "INTEGER"},
                               {"bandwidth_gbps", "REAL"},
                               {"entries", "INTEGER"}},
        total, [&cluster, starts](int64_t id, int column, sqlite3_context* out) {
            const auto [r, index] = Locate(*starts, id);
            const ClusterRank& rank = cluster.ranks[r];
            const RankLink& link = rank.links[index];
            switch (column) {
                case 0:
                    return sqlite3_result_int64(out, id);
                case 1:
                    return sqlite3_result_int64(out, rank.rankId);
                case 2:
                    return SetText(out, rank.Name(link.op));
                case 3:
                    return SetText(out, rank.Name(link.group));
                case 4:
                    return sqlite3_result_int64(out, link.srcRank);
                case 5:
                    return sqlite3_result_int64(out, link.dstRank);
                case 6:
                    return SetText(out, link.transport);
                case 7:
                    return sqlite3_result_double(out, link.transitSizeMb);
                case 8:
                    return sqlite3_result_int64(out, link.transitNs);
                case 9:
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
                    return SetText(out, group.name);
                case 3:
                    return SetText(out, group.kind);
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
