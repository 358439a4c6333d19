#include "sql/SqlVirtualTable.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

namespace marey {
namespace {

struct Table {
    sqlite3_vtab base{};
    const SqlRows* rows = nullptr;
};

// Reads the ids of 'spans' in order, or those of 'grouped' when a plan grouped them.
struct Cursor {
    sqlite3_vtab_cursor base{};
    const SqlRows* rows = nullptr;
    std::vector<IdSpan> spans;
    size_t span = 0;
    int64_t id = 0;
    std::vector<int64_t> grouped;
    bool isGrouped = false;
    size_t next = 0;  // in 'grouped'
    CellHint hint;
};

std::string Schema(const SqlRows& rows) {
    std::string schema = "CREATE TABLE x(";
    const std::vector<SqlColumn>& columns = rows.Columns();
    for (size_t i = 0; i < columns.size(); ++i) {
        if (i > 0) schema += ", ";
        schema += std::string(columns[i].name) + " " + columns[i].type;
    }
    return schema + ")";
}

int Connect(sqlite3* db, void* clientData, int, const char* const*, sqlite3_vtab** out, char**) {
    const auto* rows = static_cast<const SqlRows*>(clientData);
    const int declared = sqlite3_declare_vtab(db, Schema(*rows).c_str());
    if (declared != SQLITE_OK) return declared;
    // Reading the model has no side effect: the tables may be used in views and triggers.
    sqlite3_vtab_config(db, SQLITE_VTAB_INNOCUOUS);
    auto* table = new Table;
    table->rows = rows;
    *out = &table->base;
    return SQLITE_OK;
}

int Disconnect(sqlite3_vtab* base) {
    delete reinterpret_cast<Table*>(base);
    return SQLITE_OK;
}

bool CompareOf(unsigned char op, SqlCompare& compare) {
    switch (op) {
        case SQLITE_INDEX_CONSTRAINT_EQ:
            compare = SqlCompare::kEqual;
            return true;
        case SQLITE_INDEX_CONSTRAINT_LT:
            compare = SqlCompare::kLess;
            return true;
        case SQLITE_INDEX_CONSTRAINT_LE:
            compare = SqlCompare::kLessOrEqual;
            return true;
        case SQLITE_INDEX_CONSTRAINT_GT:
            compare = SqlCompare::kGreater;
            return true;
        case SQLITE_INDEX_CONSTRAINT_GE:
            compare = SqlCompare::kGreaterOrEqual;
            return true;
        default:
            return false;
    }
}

// The constraints the table's index answers go to Filter as arguments, their columns and
// comparisons as the plan's text ("c,o;c,o"): the engine keeps checking every row itself
// ('omit' stays 0), so a bound that Filter cannot use (a text value) costs speed, never rows.
int BestIndex(sqlite3_vtab* base, sqlite3_index_info* info) {
    const SqlRows& rows = *reinterpret_cast<Table*>(base)->rows;
    const std::vector<SqlColumn>& columns = rows.Columns();
    std::string plan;
    std::vector<SqlBound> bounds;
    int argument = 0;
    for (int i = 0; i < info->nConstraint; ++i) {
        const auto& constraint = info->aConstraint[i];
        SqlCompare compare;
        if (!constraint.usable || constraint.iColumn < 0 ||
            constraint.iColumn >= static_cast<int>(columns.size()) ||
            !columns[constraint.iColumn].indexed || !CompareOf(constraint.op, compare))
            continue;
        info->aConstraintUsage[i].argvIndex = ++argument;
        plan += std::to_string(constraint.iColumn) + "," +
                std::to_string(static_cast<int>(compare)) + ";";
        bounds.push_back({constraint.iColumn, compare, 0});
    }
    const double estimated = rows.EstimatedRows(bounds);
    info->estimatedRows = static_cast<sqlite3_int64>(std::max(1.0, estimated));
    info->estimatedCost = std::max(1.0, estimated);
    if (!plan.empty()) {
        info->idxStr = sqlite3_mprintf("%s", plan.c_str());
        info->needToFreeIdxStr = 1;
    }
    // Ids come out ascending: "order by id" needs no sort. A GROUP BY or DISTINCT on a column
    // the table can group gets its rows grouped by the table (idxNum: that column + 1), the
    // groups in ascending order of the column, so an ascending ORDER BY on it (which SQLite may
    // fold into the GROUP BY) holds too. A descending order is never claimed: SQLite sorts.
    if (info->nOrderBy == 1 && !info->aOrderBy[0].desc) {
        const int column = info->aOrderBy[0].iColumn;
        const int distinct = sqlite3_vtab_distinct(info);
        const bool grouping = distinct == 1 || distinct == 2;
        if (column >= 0 && rows.SortedById(column)) {
            info->orderByConsumed = 1;
        } else if (column >= 0 && grouping && rows.CanGroupBy(column)) {
            info->idxNum = column + 1;
            info->orderByConsumed = 1;
        }
    }
    return SQLITE_OK;
}

int Open(sqlite3_vtab* base, sqlite3_vtab_cursor** out) {
    auto* cursor = new Cursor;
    cursor->rows = reinterpret_cast<Table*>(base)->rows;
    *out = &cursor->base;
    return SQLITE_OK;
}

int Close(sqlite3_vtab_cursor* base) {
    delete reinterpret_cast<Cursor*>(base);
    return SQLITE_OK;
}

// An argument as an integer bound, or false when it says nothing usable about integers (text,
// NULL: the engine's own check decides those rows). A real is rounded outwards: ts > 1.5 keeps
// ts = 2 as ts > 1 does.
bool IntegerBound(sqlite3_value* value, SqlCompare& compare, int64_t& out) {
    const int type = sqlite3_value_numeric_type(value);
    if (type == SQLITE_INTEGER) {
        out = sqlite3_value_int64(value);
        return true;
    }
    if (type != SQLITE_FLOAT) return false;
    const double real = sqlite3_value_double(value);
    if (!std::isfinite(real) || std::fabs(real) > 9.0e18) return false;
    switch (compare) {
        case SqlCompare::kEqual:
            if (real != std::floor(real)) return false;  // no integer equals it: the engine says so
            out = static_cast<int64_t>(real);
            return true;
        case SqlCompare::kLess:
        case SqlCompare::kLessOrEqual:
            compare = SqlCompare::kLessOrEqual;
            out = static_cast<int64_t>(std::floor(real));
            return true;
        default:
            compare = SqlCompare::kGreaterOrEqual;
            out = static_cast<int64_t>(std::ceil(real));
            return true;
    }
}

void SkipEmptySpans(Cursor& cursor) {
    while (cursor.span < cursor.spans.size() && cursor.id >= cursor.spans[cursor.span].end) {
        if (++cursor.span < cursor.spans.size()) cursor.id = cursor.spans[cursor.span].first;
    }
}

int Filter(sqlite3_vtab_cursor* base, int groupColumn, const char* plan, int argc,
           sqlite3_value** argv) {
    auto* cursor = reinterpret_cast<Cursor*>(base);
    std::vector<SqlBound> bounds;
    const char* at = plan ? plan : "";
    for (int i = 0; i < argc && *at; ++i) {
        int column = 0, compareCode = 0;
        if (std::sscanf(at, "%d,%d;", &column, &compareCode) != 2) break;
        at = std::strchr(at, ';');
        at = at ? at + 1 : "";
        SqlBound bound{column, static_cast<SqlCompare>(compareCode), 0};
        if (IntegerBound(argv[i], bound.compare, bound.value)) bounds.push_back(bound);
    }
    cursor->spans = cursor->rows->Narrow(bounds);
    cursor->span = 0;
    cursor->hint = {};
    cursor->isGrouped = groupColumn > 0;
    if (cursor->isGrouped) {
        cursor->grouped = cursor->rows->GroupedIds(cursor->spans, groupColumn - 1);
        cursor->next = 0;
        if (!cursor->grouped.empty()) cursor->id = cursor->grouped[0];
        return SQLITE_OK;
    }
    cursor->id = cursor->spans.empty() ? 0 : cursor->spans[0].first;
    SkipEmptySpans(*cursor);
    return SQLITE_OK;
}

int Next(sqlite3_vtab_cursor* base) {
    auto* cursor = reinterpret_cast<Cursor*>(base);
    if (cursor->isGrouped) {
        if (++cursor->next < cursor->grouped.size()) cursor->id = cursor->grouped[cursor->next];
        return SQLITE_OK;
    }
    ++cursor->id;
    SkipEmptySpans(*cursor);
    return SQLITE_OK;
}

int Eof(sqlite3_vtab_cursor* base) {
    const auto* cursor = reinterpret_cast<Cursor*>(base);
    if (cursor->isGrouped) return cursor->next >= cursor->grouped.size();
    return cursor->span >= cursor->spans.size();
}

int Column(sqlite3_vtab_cursor* base, sqlite3_context* out, int column) {
    auto* cursor = reinterpret_cast<Cursor*>(base);
    cursor->rows->Cell(cursor->id, column, out, cursor->hint);
    return SQLITE_OK;
}

int RowId(sqlite3_vtab_cursor* base, sqlite3_int64* out) {
    *out = reinterpret_cast<Cursor*>(base)->id;
    return SQLITE_OK;
}

sqlite3_module MakeModule() {
    sqlite3_module module{};
    module.iVersion = 1;
    module.xCreate = nullptr;  // eponymous only: the table exists as soon as its module does
    module.xConnect = Connect;
    module.xBestIndex = BestIndex;
    module.xDisconnect = Disconnect;
    module.xDestroy = Disconnect;
    module.xOpen = Open;
    module.xClose = Close;
    module.xFilter = Filter;
    module.xNext = Next;
    module.xEof = Eof;
    module.xColumn = Column;
    module.xRowid = RowId;
    return module;
}

const sqlite3_module kModule = MakeModule();

}  // namespace

Status RegisterSqlTable(sqlite3* db, const SqlRows& rows) {
    const int result =
        sqlite3_create_module_v2(db, rows.Name(), &kModule, const_cast<SqlRows*>(&rows), nullptr);
    if (result != SQLITE_OK)
        return Status::Error(std::string("cannot make the table ") + rows.Name() + ": " +
                             sqlite3_errmsg(db));
    return {};
}

}  // namespace marey
