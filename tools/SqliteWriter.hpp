#pragma once
// A small writer over SQLite for the generator: one database file created anew, written in one
// transaction through prepared statements. Errors are kept (the first one) rather than thrown, so
// that a writer can go on and report once at the end.
#include <sqlite3.h>

#include <cstdint>
#include <string>

namespace marey {

class SqliteWriter {
public:
    // Creates 'path' (removing what was there) for writing fast: no journal, no syncs; a crash
    // leaves a broken file, which a generated file may be.
    explicit SqliteWriter(const std::string& path);
    ~SqliteWriter();
    SqliteWriter(const SqliteWriter&) = delete;
    SqliteWriter& operator=(const SqliteWriter&) = delete;

    bool ok() const { return m_error.empty(); }
    const std::string& error() const { return m_error; }
    sqlite3* handle() const { return m_db; }

    // Runs statements that return no rows; the first failure is kept.
    void Exec(const std::string& sql);
    // Commits the transaction the constructor began and closes the file.
    bool Finish();
    void Fail(const std::string& message);

private:
    std::string m_path;
    sqlite3* m_db = nullptr;
    std::string m_error;
};

// A prepared INSERT: bind the columns from 1, then Row(). Each Row() costs one b-tree insert.
class SqliteInsert {
public:
    SqliteInsert(SqliteWriter& db, const std::string& sql);
    ~SqliteInsert();
    SqliteInsert(const SqliteInsert&) = delete;
    SqliteInsert& operator=(const SqliteInsert&) = delete;

    SqliteInsert& Int(int column, int64_t value) {
        sqlite3_bind_int64(m_statement, column, value);
        return *this;
    }
    SqliteInsert& Real(int column, double value) {
        sqlite3_bind_double(m_statement, column, value);
        return *this;
    }
    // The text is copied by SQLite: the caller's string may go away before Row().
    SqliteInsert& Text(int column, const std::string& value) {
        sqlite3_bind_text(m_statement, column, value.data(), static_cast<int>(value.size()),
                          SQLITE_TRANSIENT);
        return *this;
    }
    SqliteInsert& Null(int column) {
        sqlite3_bind_null(m_statement, column);
        return *this;
    }
    void Row();

private:
    SqliteWriter& m_db;
    sqlite3_stmt* m_statement = nullptr;
};

}  // namespace marey
