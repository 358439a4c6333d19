#include "sql/SqlSession.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <cstring>

#include "sql/AnalysisSqlTables.hpp"
#include "sql/ArgsTable.hpp"
#include "sql/ClusterSqlTables.hpp"
#include "sql/ModelTables.hpp"
#include "sql/RankSqlTables.hpp"
#include "sql/SliceRows.hpp"
#include "sql/SqlVirtualTable.hpp"

namespace marey {
namespace {

// Pragmas that only describe tables and functions; any other could change the connection or
// name a file.
bool IsQuestionPragma(const char* name) {
    for (const char* allowed : {"table_info", "table_xinfo", "table_list", "function_list",
                                "module_list", "pragma_list", "collation_list"})
        if (name && sqlite3_stricmp(name, allowed) == 0) return true;
    return false;
}

// ATTACH, DETACH (VACUUM INTO attaches its target) and the pragmas that are not questions are
// refused; 'refused' tells the error text why.
int Authorize(void* refused, int action, const char* first, const char* second, const char*,
              const char*) {
    // fts3_tokenizer hands out and takes raw code addresses: no query may call it. (For a
    // function, SQLite passes its name second.)
    const bool addressFunction =
        action == SQLITE_FUNCTION && second && sqlite3_stricmp(second, "fts3_tokenizer") == 0;
    const bool allowed =
        !addressFunction &&
        ((action != SQLITE_ATTACH && action != SQLITE_DETACH && action != SQLITE_PRAGMA) ||
         (action == SQLITE_PRAGMA && IsQuestionPragma(first)));
    if (!allowed) *static_cast<bool*>(refused) = true;
    return allowed ? SQLITE_OK : SQLITE_DENY;
}

// The start of the statement at 'at': past blanks and comments.
const char* SkipBlanksAndComments(const char* at, const char* end) {
    static constexpr std::string_view kClose = "*/";
    while (at < end) {
        if (std::strchr(" \t\r\n", *at)) {
            ++at;
        } else if (end - at >= 2 && at[0] == '-' && at[1] == '-') {
            while (at < end && *at != '\n') ++at;
        } else if (end - at >= 2 && at[0] == '/' && at[1] == '*') {
            const char* close = std::search(at + 2, end, kClose.begin(), kClose.end());
            at = close == end ? end : close + 2;
        } else {
            break;
        }
    }
    return at;
}

}  // namespace

std::string LineAndColumn(std::string_view text, size_t offset) {
    offset = std::min(offset, text.size());
    size_t line = 1, lineStart = 0;
    for (size_t i = 0; i < offset; ++i)
        if (text[i] == '\n') ++line, lineStart = i + 1;
    return std::to_string(line) + ":" + std::to_string(offset - lineStart + 1);
}

Result<std::unique_ptr<SqlSession>> SqlSession::WithTables(
    std::vector<std::unique_ptr<SqlRows>> tables) {
    std::unique_ptr<SqlSession> session(new SqlSession);
    // In memory, and nothing else: temporary tables a person makes live and die with the session.
    if (sqlite3_open_v2(":memory:", &session->m_db,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_MEMORY,
                        nullptr) != SQLITE_OK)
        return Status::Error(
            "cannot open an SQL engine: " +
            std::string(session->m_db ? sqlite3_errmsg(session->m_db) : "no memory"));
    sqlite3* db = session->m_db;
    sqlite3_limit(db, SQLITE_LIMIT_ATTACHED, 0);
    sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, nullptr);
    sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
    sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, nullptr);
    sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_FTS3_TOKENIZER, 0, nullptr);
    session->m_tables = std::move(tables);
    for (const auto& table : session->m_tables) {
        Status registered = RegisterSqlTable(db, *table);
        if (!registered.ok()) return registered;
    }
    // A timeline's slices bring their arguments, read when asked for.
    for (const auto& table : session->m_tables)
        if (const auto* slices = dynamic_cast<const SliceRows*>(table.get())) {
            Status registered = RegisterArgs(db, *slices);
            if (!registered.ok()) return registered;
        }
    sqlite3_set_authorizer(db, Authorize, &session->m_refused);
    // Every few thousand steps of a statement: past its deadline, it stops.
    sqlite3_progress_handler(
        db, 10000,
        [](void* data) {
            auto* self = static_cast<SqlSession*>(data);
            if (self->m_limitSeconds <= 0 || std::chrono::steady_clock::now() < self->m_deadline)
                return 0;
            self->m_timedOut = true;
            return 1;
        },
        session.get());
    return session;
}

Result<std::unique_ptr<SqlSession>> SqlSession::Open(const TraceModel* model,
                                                     const RankAnalysis* rank) {
    std::vector<std::unique_ptr<SqlRows>> tables;
    if (model) {
        tables = MakeModelTables(*model);
        // The analyses read the slice table for slice ids: it is the first of the model's.
        auto analyses =
            MakeAnalysisSqlTables(*model, dynamic_cast<const SliceRows&>(*tables.front()));
        for (auto& table : analyses) tables.push_back(std::move(table));
    }
    if (rank)
        for (auto& table : MakeRankSqlTables(*rank)) tables.push_back(std::move(table));
    return WithTables(std::move(tables));
}

Result<std::unique_ptr<SqlSession>> SqlSession::OpenCluster(const Cluster& cluster) {
    return WithTables(MakeClusterSqlTables(cluster));
}

SqlSession::~SqlSession() {
    sqlite3_close_v2(m_db);
}

std::string SqlSession::ErrorText(std::string_view sql, size_t place) {
    std::string message = LineAndColumn(sql, place) + ": error: " + sqlite3_errmsg(m_db);
    if (m_refused)
        message +=
            " (marey sql reads only what it opened: ATTACH, DETACH, VACUUM INTO, fts3_tokenizer "
            "and pragmas other than table_info and the lists are refused)";
    if (m_timedOut)
        message +=
            " (the statement ran past its limit of " + std::to_string(m_limitSeconds) + " s)";
    m_refused = false;
    return message;
}

std::vector<std::string> SqlSession::TableNames() const {
    std::vector<std::string> names;
    for (const auto& table : m_tables) names.push_back(table->Name());
    return names;
}

Status SqlSession::Run(std::string_view sql, SqlResultSink& sink) {
    const char* const begin = sql.data();
    const char* const end = begin + sql.size();
    const char* at = begin;
    m_refused = false;
    m_timedOut = false;
    m_deadline = std::chrono::steady_clock::now() + std::chrono::seconds(m_limitSeconds);
    while (at < end) {
        sqlite3_stmt* statement = nullptr;
        const char* tail = nullptr;
        const int prepared =
            sqlite3_prepare_v2(m_db, at, static_cast<int>(end - at), &statement, &tail);
        const char* statementStart = SkipBlanksAndComments(at, end);
        if (prepared != SQLITE_OK) {
            // SQLite places a syntax error or an unknown column, not an unknown table: that
            // error is placed at its statement.
            // A statement cut short is placed at the end of the input.
            const int offset = sqlite3_error_offset(m_db);
            size_t place = offset >= 0 ? static_cast<size_t>(at - begin + offset)
                                       : static_cast<size_t>(statementStart - begin);
            if (offset < 0 && std::strcmp(sqlite3_errmsg(m_db), "incomplete input") == 0)
                place = sql.size();
            std::string message = ErrorText(sql, place);
            sqlite3_finalize(statement);
            return Status::Error(std::move(message));
        }
        at = tail ? tail : end;
        if (!statement) continue;  // only blanks or a comment
        if (m_readOnly && !sqlite3_stmt_readonly(statement)) {
            sqlite3_finalize(statement);
            return Status::Error(LineAndColumn(sql, static_cast<size_t>(statementStart - begin)) +
                                 ": error: only statements that read are run here");
        }
        const int columnCount = sqlite3_column_count(statement);
        if (columnCount > 0) {
            std::vector<std::string> columns;
            for (int c = 0; c < columnCount; ++c)
                columns.emplace_back(sqlite3_column_name(statement, c));
            sink.Begin(columns);
        }
        int stepped;
        while ((stepped = sqlite3_step(statement)) == SQLITE_ROW) sink.Row(statement);
        if (columnCount > 0) sink.End();
        if (stepped != SQLITE_DONE) {
            // A statement that failed as it ran: placed at its first character.
            std::string message = ErrorText(sql, static_cast<size_t>(statementStart - begin));
            sqlite3_finalize(statement);
            return Status::Error(std::move(message));
        }
        sqlite3_finalize(statement);
    }
    return {};
}

}  // namespace marey
