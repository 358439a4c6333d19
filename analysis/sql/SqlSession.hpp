#pragma once
// A SQLite connection whose tables are a loaded model's (sql/ModelTables.hpp), for `marey sql`.
// Queries read the model in place; the connection can reach no file: ATTACH, VACUUM INTO,
// extensions and every pragma that is not a question about the tables are refused.
#include <chrono>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/Status.hpp"
#include "rank/RankAnalysis.hpp"
#include "cluster/Cluster.hpp"
#include "model/TraceModel.hpp"
#include "sql/SqlRows.hpp"

struct sqlite3;
struct sqlite3_stmt;

namespace marey {

// What a query's results go to, statement by statement.
class SqlResultSink {
public:
    virtual ~SqlResultSink() = default;
    // A statement begins; its columns' names. Statements without columns are not reported.
    virtual void Begin(const std::vector<std::string>& columns) = 0;
    // One row: read each column of 'statement' with sqlite3_column_*.
    virtual void Row(sqlite3_stmt* statement) = 0;
    virtual void End() = 0;
};

class SqlSession {
public:
    // The tables of 'model' (slice, track, …) and of a rank folder's 'rank' tables (kernel,
    // step, communication_op); either may be null. Both must outlive the session.
    static Result<std::unique_ptr<SqlSession>> Open(const TraceModel* model,
                                                    const RankAnalysis* rank);
    static Result<std::unique_ptr<SqlSession>> Open(const TraceModel& model) {
        return Open(&model, nullptr);
    }
    // The tables of a cluster (rank, rank_step, collective, link, cluster_group), which must
    // outlive the session.
    static Result<std::unique_ptr<SqlSession>> OpenCluster(const Cluster& cluster);
    ~SqlSession();
    SqlSession(const SqlSession&) = delete;
    SqlSession& operator=(const SqlSession&) = delete;

    // Runs every statement of 'sql' in turn, its rows to 'sink'. Stops at the first error, whose
    // message says where it is as "line:column: " (1-based, in 'sql') before SQLite's own words.
    Status Run(std::string_view sql, SqlResultSink& sink);
    // Refuses every statement that would write, even to memory (a temporary table): for an agent,
    // whose queries may only read.
    void SetReadOnly(bool readOnly) { m_readOnly = readOnly; }
    // Stops a statement that runs past 'seconds' (0: no limit) with an error that says so: for a
    // server that answers one request at a time.
    void SetTimeLimit(int seconds) { m_limitSeconds = seconds; }
    // The names of its tables, for a person who asks.
    std::vector<std::string> TableNames() const;

private:
    SqlSession() = default;
    // A connection that reaches no file, with 'tables' registered.
    static Result<std::unique_ptr<SqlSession>> WithTables(
        std::vector<std::unique_ptr<SqlRows>> tables);
    // "line:column: error: " and SQLite's message, with why a refused statement was refused.
    std::string ErrorText(std::string_view sql, size_t place);

    sqlite3* m_db = nullptr;
    bool m_refused = false;
    bool m_readOnly = false;
    int m_limitSeconds = 0;
    std::chrono::steady_clock::time_point m_deadline;
    bool m_timedOut = false;  // the progress handler stopped the statement  // the authorizer
                              // refused something since the last error
    std::vector<std::unique_ptr<SqlRows>> m_tables;
};

// "line:column" of byte 'offset' of 'text', both 1-based.
std::string LineAndColumn(std::string_view text, size_t offset);

}  // namespace marey
