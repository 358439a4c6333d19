#include "db/SqliteFile.hpp"

#include <sqlite3.h>

#include <cstdio>
#include <cstring>
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

namespace {

// The most of a damaged database read into memory to salvage its rows.
constexpr uint64_t kMaxSalvagedBytes = uint64_t{4} << 30;

// The schema, asked for at once: SQLite reads the header only at the first query.
int CheckSchema(sqlite3* db, std::string& message) {
    char* text = nullptr;
    const int checked =
        sqlite3_exec(db, "SELECT count(*) FROM sqlite_master", nullptr, nullptr, &text);
    if (checked != SQLITE_OK) message = text ? text : sqlite3_errstr(checked);
    sqlite3_free(text);
    return checked;
}

uint32_t BigEndian32(const unsigned char* bytes) {
    return uint32_t{bytes[0]} << 24 | uint32_t{bytes[1]} << 16 | uint32_t{bytes[2]} << 8 | bytes[3];
}

// Why the SQLite file 'path' is cut short, from its header and size; empty when it is whole (or
// not SQLite: SQLite says so). SQLite itself reads a page past the end as zeros: rows of nothing.
std::string CutShortReason(const std::string& path) {
    unsigned char header[100] = {};
    std::FILE* file = std::fopen(path.c_str(), "rb");
    const size_t read = file ? std::fread(header, 1, sizeof header, file) : 0;
    if (file) std::fclose(file);
    if (read < sizeof header || std::memcmp(header, "SQLite format 3", 16) != 0) return "";
    std::error_code error;
    const uint64_t bytes = std::filesystem::file_size(path, error);
    const uint32_t pageField = uint32_t{header[16]} << 8 | header[17];
    const uint64_t page = pageField == 1 ? 65536 : pageField;
    if (error || page < 512 || (page & (page - 1)) != 0) return "";
    if (bytes % page != 0)
        return "it ends inside a page: " + std::to_string(bytes) +
               " bytes is not a whole number "
               "of " +
               std::to_string(page) + "-byte pages";
    // The page count at byte 28 holds while byte 92's counter equals byte 24's.
    const uint64_t pages = BigEndian32(header + 28);
    if (BigEndian32(header + 24) == BigEndian32(header + 92) && pages * page > bytes)
        return "it holds " + std::to_string(bytes / page) + " of its " + std::to_string(pages) +
               " pages";
    return "";
}

// A database cut short or damaged keeps what can be read: its bytes copied into memory (the file
// is never written), the header's page count marked stale so that SQLite counts the pages that
// are there, and the schema's checks of pages past the end relaxed (writable_schema, on a
// read-only copy), so that every table whose pages are there reads up to its damage. Null when
// even that copy cannot be read.
sqlite3* OpenSalvaged(const std::string& path, std::string& why) {
    std::error_code error;
    const uint64_t bytes = std::filesystem::file_size(path, error);
    if (error || bytes < 100 || bytes > kMaxSalvagedBytes) {
        why = error ? error.message() : bytes < 100 ? "shorter than a header" : "too large to copy";
        return nullptr;
    }
    auto* copy = static_cast<unsigned char*>(sqlite3_malloc64(bytes));
    std::FILE* file = copy ? std::fopen(path.c_str(), "rb") : nullptr;
    const bool read = file && std::fread(copy, 1, bytes, file) == bytes;
    if (file) std::fclose(file);
    if (!read) {
        sqlite3_free(copy);
        why = "cannot be read into memory";
        return nullptr;
    }
    // A page cut inside reads as garbage rows: only whole pages are kept (the page size, at
    // byte 16, big-endian; 1 stands for 65536).
    const uint32_t pageBytes = copy[16] << 8 | copy[17];
    const uint64_t page = pageBytes == 1 ? 65536 : pageBytes;
    const uint64_t kept = page >= 512 && (page & (page - 1)) == 0 ? bytes / page * page : bytes;
    if (kept == 0) {  // an empty database would open, and say nothing of what was lost
        sqlite3_free(copy);
        why = "not one whole page is there";
        return nullptr;
    }
    // The page count at byte 28 holds only while byte 92's counter equals byte 24's.
    copy[95] = static_cast<unsigned char>(copy[27] + 1);
    // A copy in memory has no write-ahead log to share: read as a rollback-journal file.
    copy[18] = copy[19] = 1;
    // Read-only twice over: the connection and the deserialised copy; no file is ever opened.
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nullptr) !=
            SQLITE_OK ||
        sqlite3_deserialize(
            db, "main", copy, static_cast<sqlite3_int64>(kept), static_cast<sqlite3_int64>(kept),
            SQLITE_DESERIALIZE_READONLY | SQLITE_DESERIALIZE_FREEONCLOSE) != SQLITE_OK) {
        why = db ? sqlite3_errmsg(db) : "no memory";
        sqlite3_close(db);
        return nullptr;
    }
    sqlite3_exec(db, "PRAGMA writable_schema = ON", nullptr, nullptr, nullptr);
    if (CheckSchema(db, why) != SQLITE_OK) {
        sqlite3_close(db);
        return nullptr;
    }
    return db;
}

}  // namespace

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
    std::string text;
    const std::string cut = CutShortReason(path);
    const int checked = cut.empty() ? CheckSchema(db, text) : SQLITE_CORRUPT;
    if (!cut.empty()) text = cut;
    if (checked == SQLITE_CORRUPT) {
        sqlite3_close(db);
        std::string why;
        if (sqlite3* salvaged = OpenSalvaged(path, why)) {
            std::unique_ptr<SqliteFile> file(new SqliteFile(salvaged, path));
            file->m_salvaged = "the file is damaged (" + text +
                               "): read from a copy in memory, each table up to its damage; "
                               "what lies past it is not shown";
            return file;
        }
        return Status::Error(path + ": error: not a readable SQLite database (" + text +
                             "; nothing could be salvaged: " + why + ")");
    }
    if (checked != SQLITE_OK) {
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

Status CheckProfilerDatabase(const SqliteFile& db) {
    for (const char* table : {"TASK", "PYTORCH_API", "CANN_API", "COMMUNICATION_OP"})
        if (db.HasTable(table)) return Status();
    return Status::Error(db.Path() +
                         ": error: not a profiler database: none of the tables TASK, "
                         "PYTORCH_API, CANN_API, COMMUNICATION_OP is in it");
}

std::string SqliteFile::LastError() const {
    return m_path + ": error: " + LastErrorMessage();
}

std::string SqliteFile::LastErrorMessage() const {
    return sqlite3_errmsg(m_db);
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
