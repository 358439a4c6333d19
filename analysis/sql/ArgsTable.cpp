#include "sql/ArgsTable.hpp"

#include <sqlite3.h>

#include <charconv>
#include <system_error>
#include <string>

namespace marey {
namespace {

enum Column { kArgSetId, kKey, kDisplayValue, kIntValue, kStringValue, kRealValue, kValueType };

struct Table {
    sqlite3_vtab base{};
    const SliceRows* slices = nullptr;
};

// Walks the slices from 'next' to 'end', each one's arguments in turn.
struct Cursor {
    sqlite3_vtab_cursor base{};
    const SliceRows* slices = nullptr;
    int64_t slice = 0, end = 0;
    EventDetails details;
    size_t arg = 0;
    int64_t rowid = 0;
};

// The slice id 'value' names: an integer, or a real with an integral value (SQLite compares
// 0.0 = 0 as equal); -1 for anything else, which names no slice.
int64_t SliceIdOf(sqlite3_value* value) {
    const int type = sqlite3_value_numeric_type(value);
    if (type == SQLITE_INTEGER) return sqlite3_value_int64(value);
    if (type != SQLITE_FLOAT) return -1;
    const double real = sqlite3_value_double(value);
    if (!(real >= 0 && real < 9.0e18) || real != static_cast<double>(static_cast<int64_t>(real)))
        return -1;
    return static_cast<int64_t>(real);
}

// What a value written as text holds: an integer, a real, or text.
enum class ValueKind { kInt, kReal, kText };
ValueKind KindOf(const std::string& text, int64_t& integer, double& real) {
    const char* first = text.data();
    const char* last = first + text.size();
    // A number past the range of its type is text, never a 0 read from it.
    if (text.empty()) return ValueKind::kText;
    const auto asInteger = std::from_chars(first, last, integer);
    if (asInteger.ec == std::errc() && asInteger.ptr == last) return ValueKind::kInt;
    const auto asReal = std::from_chars(first, last, real);
    if (asReal.ec == std::errc() && asReal.ptr == last) return ValueKind::kReal;
    return ValueKind::kText;
}

int Connect(sqlite3* db, void* clientData, int, const char* const*, sqlite3_vtab** out, char**) {
    const int declared = sqlite3_declare_vtab(
        db,
        "CREATE TABLE x(arg_set_id INTEGER, key TEXT, display_value TEXT, int_value INTEGER, "
        "string_value TEXT, real_value REAL, value_type TEXT)");
    if (declared != SQLITE_OK) return declared;
    sqlite3_vtab_config(db, SQLITE_VTAB_INNOCUOUS);
    auto* table = new Table;
    table->slices = static_cast<const SliceRows*>(clientData);
    *out = &table->base;
    return SQLITE_OK;
}

int Disconnect(sqlite3_vtab* base) {
    delete reinterpret_cast<Table*>(base);
    return SQLITE_OK;
}

// "arg_set_id = N" reads one slice (idxNum 1); anything else every slice.
int BestIndex(sqlite3_vtab* base, sqlite3_index_info* info) {
    const double slices = static_cast<double>(reinterpret_cast<Table*>(base)->slices->Count());
    for (int i = 0; i < info->nConstraint; ++i) {
        const auto& constraint = info->aConstraint[i];
        if (constraint.usable && constraint.iColumn == kArgSetId &&
            constraint.op == SQLITE_INDEX_CONSTRAINT_EQ) {
            info->aConstraintUsage[i].argvIndex = 1;
            info->idxNum = 1;
            info->estimatedCost = 10;
            info->estimatedRows = 10;
            return SQLITE_OK;
        }
    }
    // Every event parsed again: costly, so that the planner prefers any other way in.
    info->estimatedCost = slices * 100 + 1;
    info->estimatedRows = static_cast<sqlite3_int64>(slices * 4 + 1);
    return SQLITE_OK;
}

int Open(sqlite3_vtab* base, sqlite3_vtab_cursor** out) {
    auto* cursor = new Cursor;
    cursor->slices = reinterpret_cast<Table*>(base)->slices;
    *out = &cursor->base;
    return SQLITE_OK;
}

int Close(sqlite3_vtab_cursor* base) {
    delete reinterpret_cast<Cursor*>(base);
    return SQLITE_OK;
}

// Past slices without arguments to the next argument, or to the end.
void Settle(Cursor& cursor) {
    while (cursor.slice < cursor.end && cursor.arg >= cursor.details.args.size()) {
        if (++cursor.slice >= cursor.end) break;
        cursor.details = cursor.slices->Details(cursor.slice);
        cursor.arg = 0;
    }
}

int Filter(sqlite3_vtab_cursor* base, int plan, const char*, int argc, sqlite3_value** argv) {
    auto* cursor = reinterpret_cast<Cursor*>(base);
    cursor->slice = 0;
    cursor->end = cursor->slices->Count();
    if (plan == 1 && argc == 1) {
        const int64_t id = SliceIdOf(argv[0]);
        const bool known = id >= 0 && id < cursor->end;
        cursor->slice = known ? id : 0;
        cursor->end = known ? id + 1 : 0;
    }
    cursor->arg = 0;
    cursor->rowid = 0;
    cursor->details =
        cursor->slice < cursor->end ? cursor->slices->Details(cursor->slice) : EventDetails();
    Settle(*cursor);
    return SQLITE_OK;
}

int Next(sqlite3_vtab_cursor* base) {
    auto* cursor = reinterpret_cast<Cursor*>(base);
    ++cursor->arg;
    ++cursor->rowid;
    Settle(*cursor);
    return SQLITE_OK;
}

int Eof(sqlite3_vtab_cursor* base) {
    const auto* cursor = reinterpret_cast<Cursor*>(base);
    return cursor->slice >= cursor->end;
}

void SetValue(sqlite3_context* out, const std::string& value, int column) {
    int64_t integer = 0;
    double real = 0;
    const ValueKind kind = KindOf(value, integer, real);
    switch (column) {
        case kDisplayValue:
            sqlite3_result_text(out, value.data(), static_cast<int>(value.size()),
                                SQLITE_TRANSIENT);
            return;
        case kIntValue:
            if (kind == ValueKind::kInt) return sqlite3_result_int64(out, integer);
            break;
        case kRealValue:
            if (kind == ValueKind::kReal) return sqlite3_result_double(out, real);
            break;
        case kStringValue:
            if (kind == ValueKind::kText)
                return sqlite3_result_text(out, value.data(), static_cast<int>(value.size()),
                                           SQLITE_TRANSIENT);
            break;
        default: {
            const char* type = kind == ValueKind::kInt    ? "int"
                               : kind == ValueKind::kReal ? "real"
                                                          : "string";
            return sqlite3_result_text(out, type, -1, SQLITE_STATIC);
        }
    }
    sqlite3_result_null(out);
}

int ColumnValue(sqlite3_vtab_cursor* base, sqlite3_context* out, int column) {
    const auto* cursor = reinterpret_cast<Cursor*>(base);
    const auto& [key, value] = cursor->details.args[cursor->arg];
    if (column == kArgSetId) {
        sqlite3_result_int64(out, cursor->slice);
    } else if (column == kKey) {
        // Perfetto's keys of a JSON event's arguments: "args." and the argument's name.
        const std::string prefixed = "args." + key;
        sqlite3_result_text(out, prefixed.data(), static_cast<int>(prefixed.size()),
                            SQLITE_TRANSIENT);
    } else {
        SetValue(out, value, column);
    }
    return SQLITE_OK;
}

int RowId(sqlite3_vtab_cursor* base, sqlite3_int64* out) {
    *out = reinterpret_cast<Cursor*>(base)->rowid;
    return SQLITE_OK;
}

sqlite3_module MakeModule() {
    sqlite3_module module{};
    module.iVersion = 1;
    module.xConnect = Connect;
    module.xBestIndex = BestIndex;
    module.xDisconnect = Disconnect;
    module.xDestroy = Disconnect;
    module.xOpen = Open;
    module.xClose = Close;
    module.xFilter = Filter;
    module.xNext = Next;
    module.xEof = Eof;
    module.xColumn = ColumnValue;
    module.xRowid = RowId;
    return module;
}

const sqlite3_module kModule = MakeModule();

// extract_arg(arg_set_id, 'args.name'): that argument's value (an integer, a real or text), or
// NULL when the slice has none of that name.
void ExtractArg(sqlite3_context* context, int, sqlite3_value** argv) {
    const auto* slices = static_cast<const SliceRows*>(sqlite3_user_data(context));
    if (sqlite3_value_type(argv[1]) != SQLITE_TEXT) return sqlite3_result_null(context);
    const int64_t id = SliceIdOf(argv[0]);
    if (id < 0 || id >= slices->Count()) return sqlite3_result_null(context);
    std::string_view key(reinterpret_cast<const char*>(sqlite3_value_text(argv[1])),
                         static_cast<size_t>(sqlite3_value_bytes(argv[1])));
    if (key.substr(0, 5) != "args.") return sqlite3_result_null(context);
    key.remove_prefix(5);
    for (const auto& [name, value] : slices->Details(id).args) {
        if (name != key) continue;
        int64_t integer = 0;
        double real = 0;
        switch (KindOf(value, integer, real)) {
            case ValueKind::kInt:
                return sqlite3_result_int64(context, integer);
            case ValueKind::kReal:
                return sqlite3_result_double(context, real);
            case ValueKind::kText:
                return sqlite3_result_text(context, value.data(), static_cast<int>(value.size()),
                                           SQLITE_TRANSIENT);
        }
    }
    sqlite3_result_null(context);
}

}  // namespace

Status RegisterArgs(sqlite3* db, const SliceRows& slices) {
    auto* data = const_cast<SliceRows*>(&slices);
    if (sqlite3_create_module_v2(db, "args", &kModule, data, nullptr) != SQLITE_OK ||
        sqlite3_create_function_v2(db, "extract_arg", 2,
                                   SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, data,
                                   ExtractArg, nullptr, nullptr, nullptr) != SQLITE_OK)
        return Status::Error(std::string("cannot make the args table: ") + sqlite3_errmsg(db));
    return {};
}

}  // namespace marey
