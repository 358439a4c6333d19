#include "db/SqliteFile.hpp"

#include <sqlite3.h>

#include <filesystem>

namespace marey {

std::string ReadOnlyUri(const std::string& path) {
    std::string uri = "file:";
    for (const char c : path) {
        const auto byte = static_cast<unsigned char>(c);
        if (c == '%' || c == '?' || c == '#' || byte < 0x21 || byte >= 0x7F) {
            static const char* const kHex = "0123456789ABCDEF";
            uri += '%';
            uri += kHex[byte >> 4];
            uri += kHex[byte & 15];
        } else {
            uri += c;
        }
    }
    return uri + "?mode=ro&immutable=1";
}

Result<std::unique_ptr<SqliteFile>> SqliteFile::OpenReadOnly(const std::string& path) {
    std::error_code error;
    if (!std::filesystem::is_regular_file(path, error))
        return Status::Error(path + ": error: no such file");
    // NOMUTEX: a connection is used by one thread at a time (each loader thread opens its own),
    // so SQLite's locking of every call would be pure cost.
    sqlite3* db = nullptr;
    const int opened =
        sqlite3_open_v2(ReadOnlyUri(path).c_str(), &db,
                        SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, nullptr);
    if (opened != SQLITE_OK) {
        std::string message = db ? sqlite3_errmsg(db) : sqlite3_errstr(opened);
        sqlite3_close(db);
        return Status::Error(path + ": error: cannot open as a SQLite database: " + message);
    }
    // SQLite reads the header only at the first query: ask for the schema now, so that a file
    // that is not a database fails here with its name.
    char* message = nullptr;
    const int checked =
        sqlite3_exec(db, "SELECT count(*) FROM sqlite_master", nullptr, nullptr, &message);
    if (checked != SQLITE_OK) {
        std::string text = message ? message : sqlite3_errstr(checked);
        sqlite3_free(message);
        sqlite3_close(db);
        return Status::Error(path + ": error: not a readable SQLite database (" + text + ")");
    }
    // Pages read through a memory map rather than copied by read() calls (the file is immutable).
    sqlite3_exec(db, "PRAGMA mmap_size = 1099511627776", nullptr, nullptr, nullptr);
    return std::unique_ptr<SqliteFile>(new SqliteFile(db, path));
}

SqliteFile::~SqliteFile() {
    sqlite3_close(m_db);
}

bool SqliteFile::HasTable(std::string_view table) const {
    return !Columns(table).empty();
}

std::vector<std::string> SqliteFile::Columns(std::string_view table) const {
    std::vector<std::string> names;
    // pragma_table_info takes the name as a bound value: no quoting of table names needed.
    auto statement = Prepare("SELECT name FROM pragma_table_info(?1)");
    if (!statement.ok()) return names;
    sqlite3_bind_text(statement.value().m_statement, 1, table.data(),
                      static_cast<int>(table.size()), SQLITE_TRANSIENT);
    while (statement.value().Step()) names.emplace_back(statement.value().Text(0));
    return names;
}

Result<SqliteStatement> SqliteFile::Prepare(const std::string& sql) const {
    sqlite3_stmt* statement = nullptr;
    if (sqlite3_prepare_v2(m_db, sql.c_str(), static_cast<int>(sql.size()), &statement, nullptr) !=
        SQLITE_OK) {
        sqlite3_finalize(statement);
        return Status::Error(LastError());
    }
    return SqliteStatement(statement);
}

std::string SqliteFile::LastError() const {
    return m_path + ": error: " + sqlite3_errmsg(m_db);
}

void SqliteFile::StopWhen(const std::atomic<bool>* stop) const {
    if (!stop) return sqlite3_progress_handler(m_db, 0, nullptr, nullptr);
    // SQLite stops the statement that runs when this returns non-zero; its Step() then fails.
    sqlite3_progress_handler(
        m_db, kStopCheckSteps,
        [](void* flag) -> int { return static_cast<const std::atomic<bool>*>(flag)->load(); },
        const_cast<std::atomic<bool>*>(stop));
}

std::vector<std::string> SqliteFile::WriterFilesBeside() const {
    std::vector<std::string> found;
    std::error_code error;
    for (const char* suffix : {"-wal", "-journal"})
        if (std::filesystem::exists(m_path + suffix, error)) found.push_back(m_path + suffix);
    return found;
}

SqliteStatement::SqliteStatement(SqliteStatement&& other) noexcept
    : m_statement(other.m_statement), m_failed(other.m_failed) {
    other.m_statement = nullptr;
}

SqliteStatement& SqliteStatement::operator=(SqliteStatement&& other) noexcept {
    if (this != &other) {
        sqlite3_finalize(m_statement);
        m_statement = other.m_statement;
        m_failed = other.m_failed;
        other.m_statement = nullptr;
    }
    return *this;
}

SqliteStatement::~SqliteStatement() {
    sqlite3_finalize(m_statement);
}

bool SqliteStatement::Step() {
    const int result = sqlite3_step(m_statement);
    if (result == SQLITE_ROW) return true;
    if (result != SQLITE_DONE) m_failed = true;
    return false;
}

int SqliteStatement::ColumnCount() const {
    return sqlite3_column_count(m_statement);
}

SqliteType SqliteStatement::Type(int column) const {
    switch (sqlite3_column_type(m_statement, column)) {
        case SQLITE_INTEGER:
            return SqliteType::kInteger;
        case SQLITE_FLOAT:
            return SqliteType::kReal;
        case SQLITE_TEXT:
            return SqliteType::kText;
        case SQLITE_BLOB:
            return SqliteType::kBlob;
        default:
            return SqliteType::kNull;
    }
}

int64_t SqliteStatement::Int(int column) const {
    return sqlite3_column_int64(m_statement, column);
}

double SqliteStatement::Real(int column) const {
    return sqlite3_column_double(m_statement, column);
}

std::string_view SqliteStatement::Text(int column) const {
    const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(m_statement, column));
    if (!text) return {};
    return std::string_view(text, static_cast<size_t>(sqlite3_column_bytes(m_statement, column)));
}

void SqliteStatement::Reset() {
    sqlite3_reset(m_statement);
    m_failed = false;
}

void SqliteStatement::BindInt(int parameter, int64_t value) {
    sqlite3_bind_int64(m_statement, parameter, value);
}

}  // namespace marey
