#include "db/DbRowDetails.hpp"

#include <optional>
#include <set>

#include "db/DbRows.hpp"
#include "db/DbTimeline.hpp"

namespace marey {
namespace {

// Columns that hold ids into STRING_IDS, in any table marey shows.
const std::set<std::string>& StringColumns() {
    static const std::set<std::string> kColumns{
        "name",         "opName",         "groupName",   "opType",        "algType",
        "inputFormats", "inputDataTypes", "inputShapes", "outputFormats", "outputDataTypes",
        "outputShapes", "attrInfo",       "inputDtypes", "hcclOpName",    "taskType"};
    return kColumns;
}

// Columns whose codes an enum table names.
const char* EnumTableOf(const std::string& table, const std::string& column) {
    if (column == "type" && (table == "PYTORCH_API" || table == "CANN_API")) return "ENUM_API_TYPE";
    if (column == "dataType") return "ENUM_HCCL_DATA_TYPE";
    if (column == "linkType") return "ENUM_HCCL_LINK_TYPE";
    if (column == "transportType") return "ENUM_HCCL_TRANSPORT_TYPE";
    if (column == "rdmaType") return "ENUM_HCCL_RDMA_TYPE";
    return nullptr;
}

std::string EnumName(const SqliteFile& db, const char* table, int64_t code) {
    if (!db.HasTable(table)) return {};
    auto statement = db.Prepare(std::string("SELECT name FROM ") + table + " WHERE id = ?1");
    if (!statement.ok()) return {};
    statement.value().BindInt(1, code);
    return statement.value().Step() ? std::string(statement.value().Text(0)) : std::string();
}

std::string CellText(const SqliteStatement& row, int column) {
    switch (row.Type(column)) {
        case SqliteType::kNull:
            return "NULL";
        case SqliteType::kBlob:
            return "(binary)";
        case SqliteType::kReal: {
            char text[40];
            std::snprintf(text, sizeof text, "%.10g", row.Real(column));
            return text;
        }
        default:
            return std::string(row.Text(column));
    }
}

// The strings of STRING_IDS one id at a time (its primary key): a selection shows a few dozen
// names, and reading the whole table for each would cost a large database's every string.
class StringLookup {
public:
    explicit StringLookup(const SqliteFile& db) {
        if (!db.HasTable("STRING_IDS")) return;
        auto statement = db.Prepare("SELECT value FROM STRING_IDS WHERE id = ?1");
        if (statement.ok()) m_statement.emplace(std::move(statement.value()));
    }
    std::optional<std::string> Find(int64_t id) {
        if (!m_statement) return std::nullopt;
        m_statement->Reset();
        m_statement->BindInt(1, id);
        if (!m_statement->Step() || m_statement->IsNull(0)) return std::nullopt;
        return std::string(m_statement->Text(0));
    }
    std::string Text(int64_t id) {
        return Find(id).value_or("<string " + std::to_string(id) + ">");
    }

private:
    std::optional<SqliteStatement> m_statement;
};

// Appends every column of 'table' row 'where' (a condition on a bound value) to 'details'.
void AddRow(const SqliteFile& db, StringLookup& strings, const std::string& table,
            const std::string& where, int64_t value, const std::string& prefix,
            EventDetails& details) {
    if (!db.HasTable(table)) return;
    const std::vector<std::string> columns = db.Columns(table);
    auto statement = db.Prepare("SELECT * FROM \"" + table + "\" WHERE " + where + " LIMIT 1");
    if (!statement.ok()) return;
    SqliteStatement& row = statement.value();
    row.BindInt(1, value);
    if (!row.Step()) return;
    for (int c = 0; c < row.ColumnCount() && c < static_cast<int>(columns.size()); ++c) {
        const std::string& column = columns[c];
        std::string text = CellText(row, c);
        int64_t code = 0;
        if (row.Type(c) == SqliteType::kInteger && ReadDbInt(row, c, &code)) {
            if (StringColumns().count(column)) {
                if (const auto resolved = strings.Find(code)) text = *resolved;
            } else if (const char* enumTable = EnumTableOf(table, column)) {
                const std::string name = EnumName(db, enumTable, code);
                if (!name.empty()) text = name + " (" + text + ")";
            } else if (column == "globalTid") {
                text = "pid " + std::to_string(code >> 32) + ", tid " +
                       std::to_string(code & 0xFFFFFFFF);
            }
        }
        details.args.emplace_back(prefix + column, std::move(text));
    }
}

void AddCallChain(const SqliteFile& db, StringLookup& strings, int64_t pytorchRow,
                  EventDetails& details) {
    if (!db.HasTable("PYTORCH_CALLCHAINS")) return;
    auto chain = db.Prepare(
        "SELECT c.stack FROM PYTORCH_CALLCHAINS c JOIN PYTORCH_API p ON p.callchainId = c.id "
        "WHERE p.rowid = ?1 ORDER BY c.stackDepth");
    if (!chain.ok()) return;
    chain.value().BindInt(1, pytorchRow);
    std::string stack;
    while (chain.value().Step()) {
        int64_t id = 0;
        if (ReadDbInt(chain.value(), 0, &id))
            stack += (stack.empty() ? "" : "\n") + strings.Text(id);
    }
    if (!stack.empty()) details.args.emplace_back("Call stack", stack);
}

void AddTaskDetails(const SqliteFile& db, StringLookup& strings, int64_t rowid,
                    EventDetails& details) {
    AddRow(db, strings, "TASK", "rowid = ?1", rowid, "", details);
    auto task = db.Prepare("SELECT globalTaskId FROM TASK WHERE rowid = ?1");
    if (!task.ok()) return;
    task.value().BindInt(1, rowid);
    int64_t globalTask = 0;
    if (!task.value().Step() || !ReadDbInt(task.value(), 0, &globalTask)) return;
    AddRow(db, strings, "COMPUTE_TASK_INFO", "globalTaskId = ?1", globalTask, "op.", details);
    AddRow(db, strings, "COMMUNICATION_TASK_INFO", "globalTaskId = ?1", globalTask, "hccl.",
           details);
    if (!db.HasTable("TASK_PMU_INFO")) return;
    auto pmu = db.Prepare("SELECT name, value FROM TASK_PMU_INFO WHERE globalTaskId = ?1");
    if (!pmu.ok()) return;
    pmu.value().BindInt(1, globalTask);
    while (pmu.value().Step()) {
        int64_t name = 0;
        ReadDbInt(pmu.value(), 0, &name);
        details.args.emplace_back("pmu." + strings.Text(name), CellText(pmu.value(), 1));
    }
}

}  // namespace

EventDetails ReadDbRowDetails(const std::string& path, uint64_t ref,
                              const std::vector<std::vector<int64_t>>& farRowids) {
    auto opened = SqliteFile::OpenReadOnly(path);
    if (!opened.ok()) {
        EventDetails details;
        details.error = opened.status().message();
        return details;
    }
    return ReadDbRowDetails(*opened.value(), ref, farRowids);
}

EventDetails ReadDbRowDetails(const SqliteFile& db, uint64_t ref,
                              const std::vector<std::vector<int64_t>>& farRowids) {
    EventDetails details;
    const DbTable table = DbRefTable(ref);
    const int64_t rowid = DbRefRow(ref, farRowids);
    if (table == DbTable::kComputed) {
        details.fields.emplace_back("source",
                                    "computed from the device's tasks (Overlap Analysis)");
        return details;
    }
    StringLookup strings(db);
    details.fields.emplace_back("table", DbTableName(table));
    details.fields.emplace_back("rowid", std::to_string(rowid));
    switch (table) {
        case DbTable::kPytorchApi:
            AddRow(db, strings, "PYTORCH_API", "rowid = ?1", rowid, "", details);
            AddCallChain(db, strings, rowid, details);
            break;
        case DbTable::kCannApi:
            AddRow(db, strings, "CANN_API", "rowid = ?1", rowid, "", details);
            break;
        case DbTable::kCommunicationOp:
            AddRow(db, strings, "COMMUNICATION_OP", "rowid = ?1", rowid, "", details);
            break;
        default:
            AddTaskDetails(db, strings, rowid, details);
            break;
    }
    if (details.args.empty())
        details.error =
            db.Path() + ": no row " + std::to_string(rowid) + " in " + DbTableName(table);
    return details;
}

}  // namespace marey
