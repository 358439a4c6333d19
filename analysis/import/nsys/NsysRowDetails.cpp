#include "import/nsys/NsysRowDetails.hpp"

#include <string>
#include <string_view>

#include "import/nsys/NsysExport.hpp"

namespace marey {
namespace {

// The columns whose value is a StringIds id.
bool IsStringColumn(std::string_view column) {
    return column == "demangledName" || column == "shortName" || column == "mangledName" ||
           column == "nameId" || column == "textId" || column == "jsonTextId";
}

// The ENUM table that labels a column's values, or null.
const char* EnumTableOf(std::string_view column) {
    if (column == "copyKind") return "ENUM_CUDA_MEMCPY_OPER";
    if (column == "srcKind" || column == "dstKind" || column == "memKind")
        return "ENUM_CUDA_MEM_KIND";
    if (column == "syncType") return "ENUM_CUPTI_SYNC_TYPE";
    if (column == "eventType") return "ENUM_NSYS_EVENT_TYPE";
    if (column == "eventClass") return "ENUM_NSYS_EVENT_CLASS";
    if (column == "launchType") return "ENUM_CUDA_KERNEL_LAUNCH_TYPE";
    return nullptr;
}

// The text of 'value' in 'lookup' ("SELECT x FROM t WHERE id = ?"), or "" when it has none.
std::string LookUp(const SqliteFile& db, const std::string& lookup, int64_t value) {
    auto statement = db.Prepare(lookup);
    if (!statement.ok()) return {};
    statement.value().BindInt(1, value);
    if (!statement.value().Step() || statement.value().Type(0) != SqliteType::kText) return {};
    return std::string(statement.value().Text(0));
}

std::string CellText(const SqliteStatement& row, int column) {
    switch (row.Type(column)) {
        case SqliteType::kNull:
            return "NULL";
        case SqliteType::kInteger:
            return std::to_string(row.Int(column));
        case SqliteType::kBlob:
            return "<binary>";
        default:
            return std::string(row.Text(column));
    }
}

}  // namespace

EventDetails ReadNsysRowDetails(const SqliteFile& db, uint64_t ref) {
    EventDetails details;
    const char* table = NsysTableName(NsysRefTable(ref));
    const int64_t rowid = NsysRefRow(ref);
    if (!table) {
        details.error = db.Path() + ": this slice has no row of its own";
        return details;
    }
    auto statement = db.Prepare(std::string("SELECT * FROM \"") + table + "\" WHERE rowid = ?");
    if (!statement.ok()) {
        details.error = statement.status().message();
        return details;
    }
    SqliteStatement& row = statement.value();
    row.BindInt(1, rowid);
    if (!row.Step()) {
        details.error = db.Path() + ": table " + table + " has no row " + std::to_string(rowid);
        return details;
    }
    details.fields.emplace_back("table", table);
    details.fields.emplace_back("row", std::to_string(rowid));
    const std::vector<std::string> columns = db.Columns(table);
    for (int c = 0; c < row.ColumnCount() && c < static_cast<int>(columns.size()); ++c) {
        const std::string& column = columns[static_cast<size_t>(c)];
        std::string value = CellText(row, c);
        if (row.Type(c) == SqliteType::kInteger) {
            const int64_t number = row.Int(c);
            if (IsStringColumn(column)) {
                const std::string text =
                    LookUp(db, "SELECT value FROM StringIds WHERE id = ?", number);
                value = text.empty() ? "<string " + value + ">" : text;
            } else if (const char* enumTable = EnumTableOf(column);
                       enumTable && db.HasTable(enumTable)) {
                const std::string label =
                    LookUp(db, std::string("SELECT label FROM \"") + enumTable + "\" WHERE id = ?",
                           number);
                if (!label.empty()) value += " (" + label + ")";
            } else if (column == "globalTid") {
                value += " (pid " + std::to_string(NsysPid(number)) + ", tid " +
                         std::to_string(NsysTid(number)) + ")";
            } else if (column == "domainId" && number != 0) {
                const std::string domain =
                    LookUp(db, "SELECT text FROM NVTX_EVENTS WHERE eventType = 75 AND domainId = ?",
                           number);
                if (!domain.empty()) value += " (" + domain + ")";
            } else if (column == "globalPid") {
                value += " (pid " + std::to_string(NsysPid(number)) + ")";
            }
        }
        details.args.emplace_back(column, std::move(value));
    }
    if (row.Type(0) == SqliteType::kInteger && row.Type(1) == SqliteType::kInteger &&
        columns.size() > 1 && columns[0] == "start" && columns[1] == "end")
        details.fields.emplace_back("duration (ns)", std::to_string(row.Int(1) - row.Int(0)));
    return details;
}

}  // namespace marey
