#include "sql/RankSqlTables.hpp"

#include <sqlite3.h>

#include <string>

#include "sql/FunctionRows.hpp"

namespace marey {
namespace {

std::unique_ptr<SqlRows> KernelRows(const KernelTable& table) {
    return std::make_unique<FunctionRows>(
        "kernel",
        std::vector<SqlColumn>{{"id", "INTEGER", true},
                               {"ts", "INTEGER"},
                               {"dur", "INTEGER"},
                               {"name", "TEXT"},
                               {"type", "TEXT"},
                               {"core", "TEXT"},
                               {"core_class", "TEXT"},
                               {"step", "TEXT"}},
        static_cast<int64_t>(table.rows.size()),
        [&table](int64_t id, int column, sqlite3_context* out) {
            const KernelRow& row = table.rows[static_cast<size_t>(id)];
            switch (column) {
                case 0:
                    sqlite3_result_int64(out, id);
                    break;
                case 1:
                    sqlite3_result_int64(out, row.startNs);
                    break;
                case 2:
                    sqlite3_result_int64(out, row.durNs);
                    break;
                case 3:
                    SetSqlText(out, table.strings.Get(row.name));
                    break;
                case 4:
                    SetSqlText(out, table.strings.Get(row.type));
                    break;
                case 5:
                    SetSqlText(out, table.strings.Get(row.core));
                    break;
                case 6:
                    sqlite3_result_text(out, CoreClassName(row.coreClass), -1, SQLITE_STATIC);
                    break;
                default:
                    SetSqlText(out, table.strings.Get(row.step));
                    break;
            }
        });
}

// One column per phase, by the names `stats --json` gives them, the step's wall time, and where
// the trace places it (NULL where it does not).
std::unique_ptr<SqlRows> StepRows(const StepTrace& steps, const std::vector<StepSpan>& spans) {
    std::vector<SqlColumn> columns = {{"id", "INTEGER", true}, {"step", "TEXT"}};
    for (const char* key : kStepPhaseJsonKeys) columns.push_back({key, "INTEGER"});
    columns.push_back({"wall_ns", "INTEGER"});
    columns.push_back({"start_ns", "INTEGER"});
    columns.push_back({"end_ns", "INTEGER"});
    return std::make_unique<FunctionRows>(
        "step", std::move(columns), static_cast<int64_t>(steps.rows.size()),
        [&steps, &spans](int64_t id, int column, sqlite3_context* out) {
            const StepRow& row = steps.rows[static_cast<size_t>(id)];
            if (column == 0) return sqlite3_result_int64(out, id);
            if (column == 1) return SetSqlText(out, row.step);
            const int phase = column - 2;
            if (phase == kStepPhaseCount) return sqlite3_result_int64(out, StepWallNs(row));
            if (phase > kStepPhaseCount) {
                const size_t index = static_cast<size_t>(id);
                if (index >= spans.size() || !spans[index].found) return sqlite3_result_null(out);
                return sqlite3_result_int64(
                    out, phase == kStepPhaseCount + 1 ? spans[index].startNs : spans[index].endNs);
            }
            // A column the file does not have is NULL, not 0.
            if (!steps.hasColumn[static_cast<size_t>(phase)]) return sqlite3_result_null(out);
            sqlite3_result_int64(out, row.ns[static_cast<size_t>(phase)]);
        });
}

std::unique_ptr<SqlRows> CommunicationRows(const CommunicationOps& communication) {
    // The per-step "Total Op Info" entries are sums of the others: left out.
    auto ops = std::make_shared<std::vector<const CommunicationOp*>>();
    for (const CommunicationOp& op : communication.ops)
        if (!op.isTotal) ops->push_back(&op);
    const bool elapseOnly = communication.elapseOnly;
    return std::make_unique<FunctionRows>(
        "communication_op",
        std::vector<SqlColumn>{{"id", "INTEGER", true},
                               {"step", "TEXT"},
                               {"name", "TEXT"},
                               {"kind", "TEXT"},
                               {"group_id", "TEXT"},
                               {"ts", "INTEGER"},
                               {"elapse_ns", "INTEGER"},
                               {"transit_ns", "INTEGER"},
                               {"wait_ns", "INTEGER"},
                               {"sync_ns", "INTEGER"},
                               {"idle_ns", "INTEGER"},
                               {"wait_ratio", "REAL"},
                               {"sync_ratio", "REAL"}},
        static_cast<int64_t>(ops->size()),
        [ops, elapseOnly](int64_t id, int column, sqlite3_context* out) {
            const CommunicationOp& op = *(*ops)[static_cast<size_t>(id)];
            switch (column) {
                case 0:
                    return sqlite3_result_int64(out, id);
                case 1:
                    return SetSqlText(out, op.step);
                case 2:
                    return SetSqlText(out, op.name);
                case 3:
                    return SetSqlText(out, op.kind);
                case 4:
                    return SetSqlText(out, op.group);
                case 5:
                    return op.hasStart ? sqlite3_result_int64(out, op.startNs)
                                       : sqlite3_result_null(out);
                case 6:
                    return sqlite3_result_int64(out, op.elapseNs);
                default:
                    break;
            }
            // Made from a trace alone: only the start and elapse are known.
            if (elapseOnly) return sqlite3_result_null(out);
            switch (column) {
                case 7:
                    return sqlite3_result_int64(out, op.transitNs);
                case 8:
                    return sqlite3_result_int64(out, op.waitNs);
                case 9:
                    return sqlite3_result_int64(out, op.syncNs);
                case 10:
                    return sqlite3_result_int64(out, op.idleNs);
                case 11:
                    return sqlite3_result_double(out, op.waitRatio);
                default:
                    return sqlite3_result_double(out, op.syncRatio);
            }
        });
}

}  // namespace

std::vector<std::unique_ptr<SqlRows>> MakeRankSqlTables(const RankAnalysis& rank) {
    std::vector<std::unique_ptr<SqlRows>> made;
    if (rank.kernels) made.push_back(KernelRows(*rank.kernels));
    if (rank.steps) made.push_back(StepRows(*rank.steps, rank.stepSpans));
    if (rank.communication) made.push_back(CommunicationRows(*rank.communication));
    return made;
}

}  // namespace marey
