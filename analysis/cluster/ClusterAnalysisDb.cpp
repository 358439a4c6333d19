#include "cluster/ClusterAnalysisDb.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>
#include <string_view>

#include "db/DbRows.hpp"
#include "db/SqliteFile.hpp"
#include "load/MatrixLinkSums.hpp"

namespace marey {
namespace {

// [SECTION] Cells

// What a number cell held.
enum class Cell { kAbsent, kValue, kNotNumber, kNegative };

std::string RowPlace(const SqliteFile& db, const std::string& table, int64_t rowid) {
    return db.Path() + ": error: table " + table + ", row " + std::to_string(rowid) + ": ";
}

// The cell as text, for exact decimal parsing. A REAL is written the way Python writes it into
// the text export (the shortest text that reads back as the same double), so that both exports
// give the same nanoseconds.
std::string NumberText(const SqliteStatement& row, int column) {
    switch (row.Type(column)) {
        case SqliteType::kInteger:
            return std::to_string(row.Int(column));
        case SqliteType::kReal: {
            char text[64];
            const auto result = std::to_chars(text, text + sizeof text, row.Real(column));
            return std::string(text, result.ptr);
        }
        case SqliteType::kText:
            return std::string(row.Text(column));
        case SqliteType::kBlob:
            return "<blob>";
        default:
            return "NULL";
    }
}

// The cell as a message shows it: its first 40 characters.
std::string CellText(const SqliteStatement& row, int column) {
    return column < 0 ? std::string("NULL") : NumberText(row, column).substr(0, 40);
}

// A duration or time stamp: the cell × 10^shift, exactly, into 'out'. NULL and a missing column
// are kAbsent (read as 0, as an empty CSV cell is).
Cell ReadScaled(const SqliteStatement& row, int column, int shift, int64_t* out) {
    if (column < 0 || row.IsNull(column)) return Cell::kAbsent;
    const SqliteType type = row.Type(column);
    if (type == SqliteType::kBlob) return Cell::kNotNumber;
    if (type == SqliteType::kReal && !std::isfinite(row.Real(column))) return Cell::kNotNumber;
    if (ParseScaledDecimal(NumberText(row, column), shift, out) != DecimalError::kNone)
        return Cell::kNotNumber;
    return *out < 0 ? Cell::kNegative : Cell::kValue;
}

// A size, bandwidth or ratio: finite and never negative.
Cell ReadAmount(const SqliteStatement& row, int column, double* out) {
    if (column < 0 || row.IsNull(column)) return Cell::kAbsent;
    if (!ReadDbReal(row, column, out)) return Cell::kNotNumber;
    return *out < 0 ? Cell::kNegative : Cell::kValue;
}

// A rank id: an integer in [0, 2^24), stored as INTEGER or as TEXT of digits.
bool ReadRankId(const SqliteStatement& row, int column, int* rank) {
    int64_t value = -1;
    if (!ReadDbInt(row, column, &value) || value < 0 || value >= 1 << 24) return false;
    *rank = static_cast<int>(value);
    return true;
}

// "column elapsed_time is negative: -1; operator left out", or "" when the cell is usable.
std::string CellProblem(Cell cell, const SqliteStatement& row, int column, const std::string& name,
                        const char* unit, const char* holder) {
    if (cell == Cell::kValue || cell == Cell::kAbsent) return std::string();
    return "column " + name + " is " +
           (cell == Cell::kNegative ? std::string("negative")
                                    : std::string("not a finite number in ") + unit) +
           ": " + CellText(row, column) + "; " + holder + " left out";
}

std::string Text(const SqliteStatement& row, int column) {
    return column < 0 ? std::string() : std::string(row.Text(column));
}

// The first of 'tables' that the file has, or "" (and a problem saying what is lost).
std::string PickTable(const SqliteFile& db, const std::vector<std::string>& tables,
                      const char* lost, std::vector<std::string>& problems) {
    for (const std::string& table : tables)
        if (db.HasTable(table)) return table;
    std::string names = tables.front();
    for (size_t i = 1; i < tables.size(); ++i) names += " (nor " + tables[i] + ")";
    problems.push_back(db.Path() + ": error: no table " + names + ": " + lost);
    return std::string();
}

// Problems for the columns a table cannot be read without; false when one is missing.
bool HasRequired(const DbColumns& columns, const std::vector<size_t>& required,
                 const SqliteFile& db, std::vector<std::string>& problems) {
    bool all = true;
    for (const size_t index : required)
        if (!columns.Has(index)) all = false;
    if (!all)
        for (const std::string& missing : columns.Missing())
            problems.push_back(db.Path() + ": error: " + missing + "; the table is not read");
    return all;
}

// [SECTION] Tables

struct DbCluster {
    const SqliteFile& db;
    std::map<int, ClusterRank> ranks;
    std::vector<ClusterGroup> groups;
    std::map<std::string, std::string> groupTypes;  // group hash → "collective" / "p2p"
    std::vector<std::string>& problems;
    std::vector<NamedRankGroup> parallelGroups = {};  // the groups with the job's own name

    ClusterRank& RankFor(int id) {
        ClusterRank& rank = ranks[id];
        if (!rank.rankId) {
            rank.rankId = RankId(id);
            rank.path = db.Path();
            rank.rankSource = "cluster_analysis.db";
        }
        return rank;
    }
};

// CommunicationGroupMapping / CommunicationGroup: one row per group hash, its type and its ranks
// "(0,1,2,3)". Groups of one rank say nothing about the cluster and are left out, as
// communication_group.json's are.
void ReadGroups(DbCluster& out) {
    const std::string table = PickTable(out.db, {"CommunicationGroupMapping", "CommunicationGroup"},
                                        "groups are found from the operators", out.problems);
    if (table.empty()) return;
    enum { kType, kRankSet, kGroup, kPgName };
    const DbColumns columns(out.db, table, {"type", "rank_set", "group_name", "pg_name"});
    if (!HasRequired(columns, {kType, kRankSet}, out.db, out.problems)) return;
    auto statement = out.db.Prepare(columns.Select());
    if (!statement.ok()) return out.problems.push_back(statement.status().message());
    SqliteStatement& row = statement.value();
    while (row.Step()) {
        ClusterGroup group;
        group.kind = Text(row, columns.Column(kType));
        group.ranks = RanksInText(Text(row, columns.Column(kRankSet)));
        const std::string hash = Text(row, columns.Column(kGroup));
        if (!hash.empty()) out.groupTypes[hash] = group.kind;
        std::sort(group.ranks.begin(), group.ranks.end());
        group.ranks.erase(std::unique(group.ranks.begin(), group.ranks.end()), group.ranks.end());
        if (group.ranks.size() < 2) continue;
        // The process group's own name ("tp", "dp") says most; the hash is what operators carry.
        group.name = Text(row, columns.Column(kPgName));
        if (!group.name.empty())
            out.parallelGroups.push_back({ParallelGroupKind(group.name), group.name, group.ranks});
        if (group.name.empty()) group.name = hash;
        if (group.name.empty()) group.name = "(" + FormatRankList(group.ranks) + ")";
        out.groups.push_back(std::move(group));
    }
    if (row.Failed()) out.problems.push_back(out.db.LastError());
}

// ClusterStepTraceTime: cluster_step_trace_time.csv as a table, phases in µs. "rank" rows give the
// ranks' steps; "stage" rows name the pipeline stages.
void ReadSteps(DbCluster& out) {
    const std::string table = PickTable(out.db, {"ClusterStepTraceTime"},
                                        "no step times; the other tables still load", out.problems);
    if (table.empty()) return;
    // The table's columns, in the order of kStepPhaseColumns.
    static const char* const kPhases[kStepPhaseCount] = {
        "computing",  "communication_not_overlapped",
        "overlapped", "communication",
        "free",       "stage",
        "bubble",     "communication_not_overlapped_and_exclude_receive",
        "preparing"};
    std::vector<std::string> wanted{"step", "type", "index"};
    for (const char* phase : kPhases) wanted.push_back(phase);
    const DbColumns columns(out.db, table, wanted);
    if (!HasRequired(columns, {1, 2}, out.db, out.problems)) return;
    std::array<bool, kStepPhaseCount> hasPhase{};
    for (int p = 0; p < kStepPhaseCount; ++p) hasPhase[p] = columns.Has(3 + p);
    auto statement = out.db.Prepare(columns.Select());
    if (!statement.ok()) return out.problems.push_back(statement.status().message());
    std::set<std::array<std::string, 3>> seen;  // (type, index, step) of the rows kept
    std::set<std::string> stages;
    SqliteStatement& row = statement.value();
    while (row.Step()) {
        const std::string place = RowPlace(out.db, table, row.Int(0));
        StepRow step;
        step.step = Text(row, columns.Column(0));
        const std::string type = Text(row, columns.Column(1));
        const std::string index = Text(row, columns.Column(2));
        std::string problem;
        for (int p = 0; p < kStepPhaseCount && problem.empty(); ++p) {
            const int column = columns.Column(3 + p);
            problem = CellProblem(ReadScaled(row, column, 3, &step.ns[p]), row, column, kPhases[p],
                                  "µs", "row");
        }
        int rankId = -1;
        if (problem.empty() && type == "rank" && !ReadRankId(row, columns.Column(2), &rankId))
            problem =
                "index " + CellText(row, columns.Column(2)) + " is not a rank id; row left out";
        if (problem.empty() && !step.step.empty() && !seen.insert({type, index, step.step}).second)
            problem = "step \"" + step.step + "\" of " + type + " " + index +
                      " again; the first row kept, this one left out";
        if (!problem.empty()) {
            out.problems.push_back(place + problem);
            continue;
        }
        const std::vector<int> members = RanksInText(index);
        if (type == "stage" && members.size() > 1 && stages.insert(index).second) {
            out.groups.push_back({"stage (" + FormatRankList(members) + ")", "stage", members});
        } else if (type == "rank") {
            ClusterRank& rank = out.RankFor(rankId);
            rank.hasPhase = hasPhase;
            rank.steps.push_back(std::move(step));
        }
    }
    if (row.Failed()) out.problems.push_back(out.db.LastError());
}

// One row of ClusterCommAnalyzerTime / ClusterCommunicationTime as the operator the text export's
// cluster_communication.json holds; false (and a problem) when a value cannot be.
bool ReadOperator(const SqliteStatement& row, const DbColumns& columns, const DbCluster& out,
                  CommunicationOp& op, std::string* problem) {
    enum { kRank, kStep, kName, kGroup, kRankSet, kStart, kElapse };
    static const char* const kTimes[] = {"elapsed_time", "transit_time", "wait_time",
                                         "synchronization_time", "idle_time"};
    if (!ReadRankId(row, columns.Column(kRank), &op.rank)) {
        *problem = "rank_id " + CellText(row, columns.Column(kRank)) +
                   " is not a rank id; operator left out";
        return false;
    }
    op.step = Text(row, columns.Column(kStep));
    op.name = Text(row, columns.Column(kName));
    op.group = Text(row, columns.Column(kGroup));
    op.isTotal = op.name == "Total Op Info";
    // The full analysis writes the group's ranks ("p2p" in older versions); the summing recipe
    // writes none, and the group table says whether the group is point to point.
    op.kind = Text(row, columns.Column(kRankSet));
    const auto type = out.groupTypes.find(op.group);
    if (type != out.groupTypes.end() && type->second == "p2p") op.kind = "p2p";
    op.hasStart = ReadScaled(row, columns.Column(kStart), 3, &op.startNs) == Cell::kValue;
    TimeNs* const times[] = {&op.elapseNs, &op.transitNs, &op.waitNs, &op.syncNs, &op.idleNs};
    for (int t = 0; t < 5; ++t) {
        const int column = columns.Column(kElapse + t);
        *problem = CellProblem(ReadScaled(row, column, 6, times[t]), row, column, kTimes[t], "ms",
                               "operator");
        if (!problem->empty()) return false;
    }
    double* const ratios[] = {&op.syncRatio, &op.waitRatio};
    static const char* const kRatios[] = {"synchronization_time_ratio", "wait_time_ratio"};
    for (int r = 0; r < 2; ++r) {
        const int column = columns.Column(kElapse + 5 + r);
        *problem = CellProblem(ReadAmount(row, column, ratios[r]), row, column, kRatios[r],
                               "a ratio", "operator");
        if (!problem->empty()) return false;
    }
    return true;
}

// ClusterCommAnalyzerTime (the full analysis) or ClusterCommunicationTime (the summing recipe):
// one row per operator and rank, times in ms, start in µs.
void ReadCollectives(DbCluster& out) {
    const std::string table =
        PickTable(out.db, {"ClusterCommAnalyzerTime", "ClusterCommunicationTime"},
                  "no communication operators; the other tables still load", out.problems);
    if (table.empty()) return;
    const DbColumns columns(
        out.db, table,
        {"rank_id", "step", "hccl_op_name", "group_name", "rank_set", "start_timestamp",
         "elapsed_time|elapse_time", "transit_time", "wait_time", "synchronization_time",
         "idle_time", "synchronization_time_ratio", "wait_time_ratio"});
    if (!HasRequired(columns, {0, 2}, out.db, out.problems)) return;
    auto statement = out.db.Prepare(columns.Select());
    if (!statement.ok()) return out.problems.push_back(statement.status().message());
    std::map<int, std::vector<CommunicationOp>> byRank;
    SqliteStatement& row = statement.value();
    while (row.Step()) {
        CommunicationOp op;
        std::string problem;
        if (!ReadOperator(row, columns, out, op, &problem)) {
            out.problems.push_back(RowPlace(out.db, table, row.Int(0)) + problem);
            continue;
        }
        byRank[op.rank].push_back(std::move(op));
    }
    if (row.Failed()) out.problems.push_back(out.db.LastError());
    for (auto& [id, ops] : byRank) AddRankCollectives(ops, out.RankFor(id));
}

// ClusterCommAnalyzerMatrix or ClusterCommunicationMatrix: one row per link, global rank ids,
// sizes in MB, times in ms.
void ReadLinks(DbCluster& out) {
    const std::string table =
        PickTable(out.db, {"ClusterCommAnalyzerMatrix", "ClusterCommunicationMatrix"},
                  "no communication matrix; the other tables still load", out.problems);
    if (table.empty()) return;
    enum { kSrc, kDst, kName, kGroup, kStep, kTransport, kSize, kTime, kBandwidth, kOpName };
    const DbColumns columns(
        out.db, table,
        {"src_rank", "dst_rank", "hccl_op_name", "group_name", "step", "transport_type",
         "transit_size", "transit_time", "bandwidth", "op_name"});
    if (!HasRequired(columns, {kSrc, kDst, kName}, out.db, out.problems)) return;
    auto statement = out.db.Prepare(columns.Select());
    if (!statement.ok()) return out.problems.push_back(statement.status().message());
    std::map<int, std::vector<CommunicationLink>> bySource;
    SqliteStatement& row = statement.value();
    while (row.Step()) {
        const std::string name = Text(row, columns.Column(kName));
        if (name == "Total Op Info") continue;  // the table's own sum of the others
        CommunicationLink link;
        std::string problem;
        if (!ReadRankId(row, columns.Column(kSrc), &link.srcRank) ||
            !ReadRankId(row, columns.Column(kDst), &link.dstRank))
            problem = "src_rank " + CellText(row, columns.Column(kSrc)) + " or dst_rank " +
                      CellText(row, columns.Column(kDst)) + " is not a rank id; link left out";
        const int size = columns.Column(kSize), time = columns.Column(kTime),
                  bandwidth = columns.Column(kBandwidth);
        if (problem.empty())
            problem = CellProblem(ReadAmount(row, size, &link.transitSizeMb), row, size,
                                  "transit_size", "MB", "link");
        if (problem.empty())
            problem = CellProblem(ReadScaled(row, time, 6, &link.transitNs), row, time,
                                  "transit_time", "ms", "link");
        if (problem.empty())
            problem = CellProblem(ReadAmount(row, bandwidth, &link.bandwidthGBps), row, bandwidth,
                                  "bandwidth", "GB/s", "link");
        if (!problem.empty()) {
            out.problems.push_back(RowPlace(out.db, table, row.Int(0)) + problem);
            continue;
        }
        const std::string group = Text(row, columns.Column(kGroup));
        link.group = group.empty() ? name : name + "@" + group;
        link.step = Text(row, columns.Column(kStep));
        link.transport = Text(row, columns.Column(kTransport));
        link.opName = Text(row, columns.Column(kOpName));
        if (link.opName.empty()) link.opName = name;
        bySource[link.srcRank].push_back(std::move(link));
    }
    if (row.Failed()) out.problems.push_back(out.db.LastError());
    for (auto& [id, links] : bySource) AddRankLinks(SumMatrixLinks(links), out.RankFor(id));
}

}  // namespace

std::string ClusterAnalysisDbPath(const std::string& folder) {
    std::error_code error;
    const std::filesystem::path path = std::filesystem::path(folder) / "cluster_analysis.db";
    return std::filesystem::is_regular_file(path, error) ? path.string() : std::string();
}

Status ReadClusterAnalysisDb(const std::string& path, Cluster& cluster) {
    auto opened = SqliteFile::OpenReadOnly(path);
    if (!opened.ok()) return opened.status();
    const SqliteFile& db = *opened.value();
    for (const std::string& file : db.WriterFilesBeside())
        cluster.problems.push_back(file + ": warning: not read (a writer may still have it open)");
    DbCluster out{db, {}, {}, {}, cluster.problems};
    // Groups first: they say which operators are point to point.
    ReadGroups(out);
    ReadSteps(out);
    ReadCollectives(out);
    ReadLinks(out);
    if (out.ranks.empty())
        return Status::Error(path + ": error: cluster_analysis.db without a rank in its tables");
    AddNamedParallelGroups(out.parallelGroups, "cluster_analysis.db", out.db.Path(), out.ranks,
                           out.problems);
    cluster.groups = std::move(out.groups);
    AddAnalysisOutputRanks(out.ranks, cluster);
    return Status();
}

}  // namespace marey
