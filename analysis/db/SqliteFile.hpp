#pragma once
// A profiler database opened read-only, and its prepared statements: the one place that talks to
// SQLite. marey never writes to a profiler's files (other tools do, and a viewer must not), so a
// database is opened with SQLite's "mode=ro" and "immutable=1": no lock, no journal, no change to
// the file's bytes or times.
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/Status.hpp"

struct sqlite3;
struct sqlite3_stmt;

namespace marey {

class SqliteStatement;

class SqliteFile {
public:
    // Opens 'path' read-only. Fails, naming the file, when it is missing, not a SQLite database
    // (the header is read at once, so a text file fails here and not at the first query) or so
    // damaged that nothing of it can be read. A file SQLite finds damaged (cut short) is read
    // from a copy in memory (up to 4 GiB) whose tables read up to their damage: Salvaged() says
    // so.
    static Result<std::unique_ptr<SqliteFile>> OpenReadOnly(const std::string& path);
    ~SqliteFile();
    SqliteFile(const SqliteFile&) = delete;
    SqliteFile& operator=(const SqliteFile&) = delete;

    const std::string& Path() const { return m_path; }
    bool HasTable(std::string_view table) const;
    // The column names of 'table' in their order; empty when it is missing.
    std::vector<std::string> Columns(std::string_view table) const;
    // Compiles 'sql'; fails with SQLite's message and the file's name.
    Result<SqliteStatement> Prepare(const std::string& sql) const;
    // "<file>: <what SQLite says>", for a statement that failed while it stepped.
    std::string LastError() const;
    // The same without the file's name, for a problem the import report names the file of.
    std::string LastErrorMessage() const;
    // The names of the files beside it that a writer keeps open (its -wal or -journal): their
    // changes are not read (the database is opened immutable).
    std::vector<std::string> WriterFilesBeside() const;
    // Makes every query on this connection stop, as failed, soon after '*stop' turns true (a
    // person's Cancel); null: never. SQLite asks every kStopCheckSteps of its own steps.
    void StopWhen(const std::atomic<bool>* stop) const;
    static constexpr int kStopCheckSteps = 10000;
    // Why the file is read from a salvaged copy, for the import report; empty when it is not.
    const std::string& Salvaged() const { return m_salvaged; }

private:
    SqliteFile(sqlite3* db, std::string path) : m_db(db), m_path(std::move(path)) {}
    sqlite3* m_db;
    std::string m_path;
    std::string m_salvaged;
};

// A column's value as SQLite stored it: profilers store times as INTEGER in one table and TEXT
// in another (PYTORCH_API.startNs), so readers look at the type.
enum class SqliteType : uint8_t { kInteger, kReal, kText, kBlob, kNull };

class SqliteStatement {
public:
    SqliteStatement(SqliteStatement&& other) noexcept;
    SqliteStatement& operator=(SqliteStatement&& other) noexcept;
    ~SqliteStatement();

    // Moves to the next row: true when there is one. False at the end or on an error
    // (Failed() then says which).
    bool Step();
    bool Failed() const { return m_failed; }
    int ColumnCount() const;
    SqliteType Type(int column) const;
    bool IsNull(int column) const { return Type(column) == SqliteType::kNull; }
    int64_t Int(int column) const;
    double Real(int column) const;
    // Valid until the next Step.
    std::string_view Text(int column) const;
    void BindInt(int parameter, int64_t value);
    // Makes the statement ready to step from its first row again (its bindings stay).
    void Reset();

private:
    friend class SqliteFile;
    explicit SqliteStatement(sqlite3_stmt* statement) : m_statement(statement) {}
    sqlite3_stmt* m_statement = nullptr;
    bool m_failed = false;
};

// Whether 'db' holds any of a profiler database's timeline tables (TASK, PYTORCH_API, CANN_API,
// COMMUNICATION_OP); the error naming them when it holds none.
Status CheckProfilerDatabase(const SqliteFile& db);

// The URI SQLite opens 'path' with, read-only and immutable; characters a URI reserves are
// escaped, so that a folder named "run#3?" still opens.
std::string ReadOnlyUri(const std::string& path);

}  // namespace marey
