#include "SqliteWriter.hpp"

#include <cstdio>

namespace marey {

SqliteWriter::SqliteWriter(const std::string& path) : m_path(path) {
    std::remove(path.c_str());
    if (sqlite3_open_v2(path.c_str(), &m_db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) !=
        SQLITE_OK) {
        Fail("cannot create");
        return;
    }
    // A generated file is written once, from start to end: a journal or fsync buys nothing.
    Exec(
        "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA locking_mode=EXCLUSIVE; "
        "PRAGMA cache_size=-65536; BEGIN");
}

// close_v2: statements still open keep the connection until they are finalized.
SqliteWriter::~SqliteWriter() {
    if (m_db) sqlite3_close_v2(m_db);
}

void SqliteWriter::Fail(const std::string& message) {
    if (!m_error.empty()) return;
    m_error = m_path + ": " + message;
    if (m_db) m_error += std::string(": ") + sqlite3_errmsg(m_db);
}

void SqliteWriter::Exec(const std::string& sql) {
    if (!m_db || !ok()) return;
    if (sqlite3_exec(m_db, sql.c_str(), nullptr, nullptr, nullptr) != SQLITE_OK)
        Fail("cannot write");
}

bool SqliteWriter::Finish() {
    Exec("COMMIT");
    if (m_db && sqlite3_close_v2(m_db) != SQLITE_OK) Fail("cannot close");
    m_db = nullptr;
    return ok();
}

SqliteInsert::SqliteInsert(SqliteWriter& db, const std::string& sql) : m_db(db) {
    if (db.handle() &&
        sqlite3_prepare_v2(db.handle(), sql.c_str(), -1, &m_statement, nullptr) != SQLITE_OK)
        db.Fail("cannot prepare \"" + sql + "\"");
}

SqliteInsert::~SqliteInsert() {
    sqlite3_finalize(m_statement);
}

void SqliteInsert::Row() {
    if (!m_statement) return;
    if (sqlite3_step(m_statement) != SQLITE_DONE) m_db.Fail("cannot insert");
    sqlite3_reset(m_statement);
    sqlite3_clear_bindings(m_statement);
}

}  // namespace marey
