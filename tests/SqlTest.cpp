// `marey sql`'s engine: the model's tables read in place, checked against the model read
// directly, the index against a scan, and the connection's walls.
#include <doctest/doctest.h>
#include <sqlite3.h>

#include <filesystem>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "KinetoTraceGenerator.hpp"
#include "TestSupport.hpp"
#include "sql/AnalysisSqlTables.hpp"
#include "sql/ArgsTable.hpp"
#include "sql/ClusterSqlTables.hpp"
#include "sql/FunctionRows.hpp"
#include "sql/ModelTables.hpp"
#include "sql/RankSqlTables.hpp"
#include "sql/SliceRows.hpp"
#include "sql/SqlRows.hpp"
#include "sql/SqlSession.hpp"
#include "sql/SqlVirtualTable.hpp"

using namespace marey;
namespace fs = std::filesystem;

namespace {

// Every row of every statement as text, cells joined by '|', NULL as "NULL".
class CollectRows final : public SqlResultSink {
public:
    std::vector<std::string> columns;
    std::vector<std::string> rows;
    void Begin(const std::vector<std::string>& names) override { columns = names; }
    void Row(sqlite3_stmt* statement) override {
        std::string row;
        for (int c = 0; c < sqlite3_column_count(statement); ++c) {
            if (c > 0) row += '|';
            const auto* text = sqlite3_column_text(statement, c);
            row += text ? reinterpret_cast<const char*>(text) : "NULL";
        }
        rows.push_back(row);
    }
    void End() override {}
};

std::unique_ptr<TraceModel> GeneratedGpuTrace() {
    KinetoTraceOptions options;
    options.events = 20000;
    return test::LoadJson(
        test::WrittenText([&](std::FILE* out) { GenerateKinetoTrace(options, out); }));
}

std::vector<std::string> Query(SqlSession& session, const std::string& sql) {
    CollectRows rows;
    const Status ran = session.Run(sql, rows);
    REQUIRE_MESSAGE(ran.ok(), ran.message());
    return rows.rows;
}

int64_t QueryNumber(SqlSession& session, const std::string& sql) {
    const std::vector<std::string> rows = Query(session, sql);
    REQUIRE(rows.size() == 1);
    return std::stoll(rows[0]);
}

std::string QueryError(SqlSession& session, const std::string& sql) {
    CollectRows rows;
    const Status ran = session.Run(sql, rows);
    REQUIRE_FALSE(ran.ok());
    return ran.message();
}

}  // namespace

TEST_CASE("the slice table holds every slice and instant with the model's times and names") {
    const auto model = GeneratedGpuTrace();
    auto session = SqlSession::Open(*model);
    REQUIRE(session.ok());
    // The model read directly: count and total duration by name, slices and instants.
    std::map<std::string, std::pair<int64_t, int64_t>> byName;
    int64_t count = 0;
    for (const Track& track : model->tracks) {
        for (const Row& row : track.rows)
            for (size_t i = 0; i < row.size(); ++i) {
                auto& entry = byName[std::string(model->Name(row.name[i]))];
                ++entry.first;
                entry.second += row.end[i] - row.start[i];
                ++count;
            }
        for (size_t i = 0; i < track.instantTs.size(); ++i) {
            ++byName[std::string(model->Name(track.instantName[i]))].first;
            ++count;
        }
    }
    REQUIRE(count > 10000);
    CHECK(QueryNumber(*session.value(), "select count(*) from slice") == count);
    // Grouped by name without a sort (the table groups the rows itself) and with one (a
    // computed key): both as the model says.
    for (const char* key : {"name", "name || ''"}) {
        const std::vector<std::string> rows = Query(
            *session.value(), std::string("select coalesce(name, ''), count(*), sum(dur) from "
                                          "slice group by ") +
                                  key);
        CHECK(rows.size() == byName.size());
        for (const std::string& row : rows) {
            const size_t bar = row.rfind('|', row.rfind('|') - 1);
            const std::string name = row.substr(0, bar);
            REQUIRE(byName.count(name) == 1);
            const auto [expectedCount, expectedSum] = byName[name];
            CHECK(row.substr(bar + 1) ==
                  std::to_string(expectedCount) + "|" + std::to_string(expectedSum));
        }
    }
}

TEST_CASE("constraints on id, ts and track_id narrow the slice table to what a scan finds") {
    const auto model = GeneratedGpuTrace();
    auto session = SqlSession::Open(*model);
    REQUIRE(session.ok());
    SqlSession& sql = *session.value();
    const int64_t first = model->firstNs, last = model->lastNs;
    const int64_t tracks = static_cast<int64_t>(model->tracks.size());
    std::mt19937_64 random(7);
    for (int trial = 0; trial < 40; ++trial) {
        const int64_t a = first + static_cast<int64_t>(random() % uint64_t(last - first + 1));
        const int64_t b = a + static_cast<int64_t>(random() % 2000000);
        const int64_t track = static_cast<int64_t>(random() % uint64_t(tracks));
        // "+ 0" hides a column from the planner: the same condition answered by a scan.
        const std::string range = " ts between " + std::to_string(a) + " and " + std::to_string(b);
        const std::string scanned =
            " ts + 0 between " + std::to_string(a) + " and " + std::to_string(b);
        CHECK(QueryNumber(sql, "select count(*) from slice where" + range) ==
              QueryNumber(sql, "select count(*) from slice where" + scanned));
        const std::string onTrack = " and track_id = " + std::to_string(track);
        const std::string onTrackScanned = " and track_id + 0 = " + std::to_string(track);
        CHECK(QueryNumber(sql, "select count(*) from slice where" + range + onTrack) ==
              QueryNumber(sql, "select count(*) from slice where" + scanned + onTrackScanned));
        const int64_t id = static_cast<int64_t>(random() % 20000);
        CHECK(QueryNumber(sql, "select count(*) from slice where id > " + std::to_string(id) +
                                   " and id <= " + std::to_string(id + 500) + " and" + range) ==
              QueryNumber(sql, "select count(*) from slice where id + 0 > " + std::to_string(id) +
                                   " and id + 0 <= " + std::to_string(id + 500) + " and" +
                                   scanned));
    }
    // Reals, text and the ends of the integers: answered as a scan answers them.
    for (const std::string& condition :
         {std::string("ts > ") + std::to_string(first) + ".5", std::string("ts < 'abc'"),
          std::string("id < -9223372036854775808"), std::string("id > 9223372036854775807"),
          std::string("id = 3.5"), std::string("ts >= ") + std::to_string(last) + " + 1"}) {
        const std::string scanned = condition.substr(0, condition.find(' ')) + " + 0" +
                                    condition.substr(condition.find(' '));
        CHECK_MESSAGE(QueryNumber(sql, "select count(*) from slice where " + condition) ==
                          QueryNumber(sql, "select count(*) from slice where " + scanned),
                      condition);
    }
}

TEST_CASE(
    "parents contain their children one level up, and the tracks, threads and processes join") {
    const auto model = GeneratedGpuTrace();
    auto session = SqlSession::Open(*model);
    REQUIRE(session.ok());
    SqlSession& sql = *session.value();
    CHECK(QueryNumber(sql, "select count(*) from slice where parent_id is not null") > 1000);
    CHECK(QueryNumber(sql,
                      "select count(*) from slice c join slice p on c.parent_id = p.id where "
                      "p.ts > c.ts or p.ts + p.dur < c.ts + c.dur or p.depth + 1 != c.depth or "
                      "p.track_id != c.track_id") == 0);
    // Every nested slice below depth 0 has its parent (the generator nests its host calls).
    CHECK(QueryNumber(sql, "select count(*) from slice where depth > 0 and parent_id is null") ==
          0);
    // The tracks the processes list, as `stats` counts them, and every slice's track joins one.
    size_t listed = 0;
    for (const Process& process : model->processes) listed += process.tracks.size();
    CHECK(QueryNumber(sql, "select count(*) from track") == static_cast<int64_t>(listed));
    CHECK(QueryNumber(sql,
                      "select count(*) from slice where track_id not in (select id from "
                      "track)") == 0);
    CHECK(QueryNumber(sql, "select count(*) from process") ==
          static_cast<int64_t>(model->processes.size()));
    // Each slice's thread track leads to its thread and process.
    CHECK(QueryNumber(sql,
                      "select count(*) from slice s join thread_track tt on s.track_id = tt.id "
                      "join thread t using (utid) join process p on t.upid = p.upid") ==
          QueryNumber(sql,
                      "select count(*) from slice s join track t on s.track_id = t.id where "
                      "t.type = 'thread_track'"));
    // The device's kernels, by the category and correlation id their importer kept.
    CHECK(QueryNumber(sql,
                      "select count(*) from slice where category = 'kernel' and "
                      "correlation_id is not null") > 100);
    CHECK(QueryNumber(sql,
                      "select count(*) from slice s join track t on s.track_id = t.id "
                      "where s.category = 'kernel' and t.role != 'device stream'") == 0);
}

TEST_CASE(
    "sql reaches no file: ATTACH, VACUUM INTO and changing pragmas are refused, and said so") {
    const auto model = GeneratedGpuTrace();
    auto session = SqlSession::Open(*model);
    REQUIRE(session.ok());
    const fs::path target = test::TempDir("sql-walls") / "out.db";
    for (const std::string& statement :
         {"attach '" + target.string() + "' as other", "vacuum into '" + target.string() + "'",
          std::string("pragma journal_mode = wal")}) {
        const std::string message = QueryError(*session.value(), statement);
        CHECK_MESSAGE(message.find("marey sql reads only what it opened") != std::string::npos,
                      message);
    }
    CHECK_FALSE(fs::exists(target));
    // Questions about the tables are answered; a table of one's own lives in memory.
    CHECK(Query(*session.value(), "pragma table_info(slice)").size() == 11);
    CHECK(QueryNumber(*session.value(),
                      "create temp table t as select name from slice limit 3; "
                      "select count(*) from t") == 3);
    // The model's tables take no writes.
    CHECK(QueryError(*session.value(), "delete from slice").find("may not be modified") !=
          std::string::npos);
}

TEST_CASE("an error names its line and column in the whole input, as SQLite words it") {
    const auto model = GeneratedGpuTrace();
    auto session = SqlSession::Open(*model);
    REQUIRE(session.ok());
    SqlSession& sql = *session.value();
    CHECK(QueryError(sql, "select 1;\nselect\n  nme from slice") ==
          "3:3: error: no such column: nme");
    // SQLite does not place an unknown table: its statement's first word is named.
    CHECK(QueryError(sql, "select 1;\n-- a comment\n  select * from nowhere") ==
          "3:3: error: no such table: nowhere");
    CHECK(QueryError(sql, "select 1 from slice where") == "1:26: error: incomplete input");
    CHECK(LineAndColumn("ab\ncd", 4) == "2:2");
}

namespace {

// Ten rows whose "key" column is id % 3, grouped by the table itself when asked.
class ModuloRows final : public SqlRows {
public:
    mutable int grouped = 0;  // how many times the engine asked for grouped ids
    const char* Name() const override { return "modulo"; }
    const std::vector<SqlColumn>& Columns() const override {
        static const std::vector<SqlColumn> columns = {{"id", "INTEGER", true}, {"key", "INTEGER"}};
        return columns;
    }
    int64_t Count() const override { return 10; }
    bool CanGroupBy(int column) const override { return column == 1; }
    std::vector<int64_t> GroupedIds(const std::vector<IdSpan>& spans, int) const override {
        ++grouped;
        std::vector<int64_t> ids;
        for (int key = 0; key < 3; ++key)
            for (const IdSpan& span : spans)
                for (int64_t id = span.first; id < span.end; ++id)
                    if (id % 3 == key) ids.push_back(id);
        return ids;
    }
    void Cell(int64_t id, int column, sqlite3_context* out, CellHint&) const override {
        sqlite3_result_int64(out, column == 0 ? id : id % 3);
    }
};

}  // namespace

TEST_CASE("a table of rows: id bounds narrow it, a group by on a groupable column sorts nothing") {
    int64_t low = 0, high = 0;
    IntersectBounds({{0, SqlCompare::kGreater, 2}, {0, SqlCompare::kLessOrEqual, 7}}, 0, low, high);
    CHECK(low == 3);
    CHECK(high == 7);
    IntersectBounds({{0, SqlCompare::kLess, INT64_MIN}}, 0, low, high);
    CHECK(low > high);
    ModuloRows rows;
    CHECK(rows.Narrow({{0, SqlCompare::kGreaterOrEqual, 8}}).size() == 1);
    CHECK(rows.Narrow({{0, SqlCompare::kGreater, 20}}).empty());
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open(":memory:", &db) == SQLITE_OK);
    REQUIRE(RegisterSqlTable(db, rows).ok());
    std::vector<std::string> answers;
    auto query = [&](const char* sql) {
        answers.clear();
        char* error = nullptr;
        const int result = sqlite3_exec(
            db, sql,
            [](void* out, int count, char** values, char**) {
                std::string row;
                for (int i = 0; i < count; ++i) row += std::string(i ? "|" : "") + values[i];
                static_cast<std::vector<std::string>*>(out)->push_back(row);
                return 0;
            },
            &answers, &error);
        CHECK_MESSAGE(result == SQLITE_OK, (error ? error : ""));
        sqlite3_free(error);
    };
    query("select key, count(*), sum(id) from modulo where id >= 1 group by key");
    CHECK(answers == std::vector<std::string>{"0|3|18", "1|3|12", "2|3|15"});
    CHECK(rows.grouped == 1);
    query("select id from modulo where id > 6 order by id");
    CHECK(answers == std::vector<std::string>{"7", "8", "9"});
    sqlite3_close(db);
}

TEST_CASE("the model's tables are the slice table and Perfetto's structure tables") {
    const auto model = GeneratedGpuTrace();
    std::vector<std::string> names;
    for (const auto& table : MakeModelTables(*model)) names.push_back(table->Name());
    CHECK(names == std::vector<std::string>{"slice", "process", "thread", "track", "thread_track",
                                            "process_track", "counter_track", "counter", "flow"});
    const SliceRows slices(*model);
    // Spans of a window are ascending and disjoint, and every id in them starts in the window.
    const TimeNs from = model->firstNs + (model->lastNs - model->firstNs) / 3;
    const std::vector<IdSpan> spans = slices.Narrow(
        {{1, SqlCompare::kGreaterOrEqual, from}, {1, SqlCompare::kLess, from + 1000000}});
    REQUIRE_FALSE(spans.empty());
    for (size_t i = 1; i < spans.size(); ++i) CHECK(spans[i - 1].end < spans[i].first);
}

TEST_CASE("a rank's tables become kernel, step and communication_op, only those that were read") {
    RankAnalysis rank;
    CHECK(MakeRankSqlTables(rank).empty());
    StepTrace steps;
    steps.rows.resize(2);
    steps.rows[0].step = "1";
    steps.rows[0].ns[kStepComputing] = 700;
    steps.rows[0].ns[kStepFree] = 300;
    steps.hasColumn[kStepComputing] = steps.hasColumn[kStepFree] = true;
    rank.steps = steps;
    rank.stepSpans = {{true, 1000, 2000}, {false, 0, 0}};
    const auto tables = MakeRankSqlTables(rank);
    REQUIRE(tables.size() == 1);
    CHECK(std::string(tables[0]->Name()) == "step");
    auto session = SqlSession::Open(nullptr, &rank);
    REQUIRE(session.ok());
    // A phase the file lacks is NULL, the wall time is the profiler's sum, an unplaced step has
    // no start.
    CHECK(Query(*session.value(),
                "select step, computing_ns, bubble_ns, wall_ns, start_ns, "
                "end_ns from step") ==
          std::vector<std::string>{"1|700|NULL|1000|1000|2000", "NULL|0|NULL|0|NULL|NULL"});
}

TEST_CASE("a cluster's tables: a rank without overview figures has NULLs, not zeros") {
    Cluster cluster;
    ClusterRank first, second;
    first.rankId = RankId(0);
    first.overview.valid = true;
    first.overview.computingNs = 500;
    first.overview.totalNs = 800;
    second.rankId = RankId(3);
    second.problems = {"a: error: b"};
    cluster.ranks = {first, second};
    cluster.groups = {{"g", "collective", {0, 3}}};
    std::vector<std::string> names;
    for (const auto& table : MakeClusterSqlTables(cluster)) names.push_back(table->Name());
    CHECK(names ==
          std::vector<std::string>{"rank", "rank_step", "collective", "link", "cluster_group"});
    auto session = SqlSession::OpenCluster(cluster);
    REQUIRE(session.ok());
    CHECK(Query(*session.value(), "select rank_id, computing_ns, total_ns, problems from rank") ==
          std::vector<std::string>{"0|500|800|0", "3|NULL|NULL|1"});
    CHECK(Query(*session.value(), "select count(*) from rank_step") ==
          std::vector<std::string>{"0"});
    CHECK(Query(*session.value(), "select group_concat(rank_id) from cluster_group") ==
          std::vector<std::string>{"0,3"});
}

TEST_CASE("args holds each slice's arguments as its event says, read only for the slices asked") {
    const auto model = GeneratedGpuTrace();
    auto session = SqlSession::Open(*model);
    REQUIRE(session.ok());
    SqlSession& sql = *session.value();
    const SliceRows slices(*model);
    // A launch's arguments, as the details panel reads them.
    const int64_t launch =
        QueryNumber(sql, "select id from slice where name = 'cudaLaunchKernel' limit 1");
    const EventDetails details = slices.Details(launch);
    REQUIRE(details.args.size() >= 2);
    const std::vector<std::string> rows = Query(
        sql, "select key, display_value from args where arg_set_id = " + std::to_string(launch));
    REQUIRE(rows.size() == details.args.size());
    for (size_t i = 0; i < rows.size(); ++i)
        CHECK(rows[i] == "args." + details.args[i].first + "|" + details.args[i].second);
    // extract_arg reads the same value the importer kept as the correlation id.
    CHECK(QueryNumber(sql,
                      "select count(*) from slice where category = 'kernel' and "
                      "extract_arg(arg_set_id, 'args.correlation') is not correlation_id") == 0);
    CHECK(QueryNumber(sql, "select count(*) from slice where category = 'kernel'") > 100);
    // Typed columns: an integer in int_value only.
    CHECK(Query(sql,
                "select int_value is not null, real_value is null, string_value is null, "
                "value_type from args where arg_set_id = " +
                    std::to_string(launch) + " and key = 'args.correlation'") ==
          std::vector<std::string>{"1|1|1|int"});
    // Ids that are no slice's read nothing.
    for (const char* id : {"-1", "99999999", "'abc'", "1.5"})
        CHECK(QueryNumber(sql, std::string("select count(*) from args where arg_set_id = ") + id) ==
              0);
    CHECK(Query(sql, "select extract_arg(-5, 'args.x'), extract_arg(0, 'name')") ==
          std::vector<std::string>{"NULL|NULL"});
}

TEST_CASE("a table of rows a function computes: empty text reads as NULL") {
    const std::vector<std::string> names = {"Computing", ""};
    FunctionRows rows("names", {{"id", "INTEGER", true}, {"name", "TEXT"}}, 2,
                      [&names](int64_t id, int column, sqlite3_context* out) {
                          if (column == 0) return sqlite3_result_int64(out, id);
                          SetSqlText(out, names[static_cast<size_t>(id)]);
                      });
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open(":memory:", &db) == SQLITE_OK);
    REQUIRE(RegisterSqlTable(db, rows).ok());
    sqlite3_stmt* statement = nullptr;
    REQUIRE(sqlite3_prepare_v2(db, "select count(*), count(name) from names", -1, &statement,
                               nullptr) == SQLITE_OK);
    REQUIRE(sqlite3_step(statement) == SQLITE_ROW);
    CHECK(sqlite3_column_int64(statement, 0) == 2);
    CHECK(sqlite3_column_int64(statement, 1) == 1);
    sqlite3_finalize(statement);
    sqlite3_close(db);
}

TEST_CASE("the analyses' tables, and a slice's id from its place in the model") {
    const auto model = GeneratedGpuTrace();
    const SliceRows slices(*model);
    std::vector<std::string> names;
    for (const auto& table : MakeAnalysisSqlTables(*model, slices)) names.push_back(table->Name());
    CHECK(names ==
          std::vector<std::string>{"device_activity", "launch", "idle_gap", "queue_sample"});
    auto session = SqlSession::Open(*model);
    REQUIRE(session.ok());
    // Every slice of every row: IdOf gives the id whose ts and track are its own.
    int checked = 0;
    for (uint32_t t = 0; t < model->tracks.size(); ++t)
        for (uint32_t r = 0; r < model->tracks[t].rows.size(); ++r) {
            const Row& row = model->tracks[t].rows[r];
            if (row.size() == 0) continue;
            const uint32_t index = static_cast<uint32_t>(row.size() / 2);
            const int64_t id = slices.IdOf(t, r, index);
            CHECK(Query(*session.value(),
                        "select ts, track_id from slice where id = " + std::to_string(id)) ==
                  std::vector<std::string>{std::to_string(row.start[index]) + "|" +
                                           std::to_string(t)});
            ++checked;
        }
    CHECK(checked > 5);
    // Launch delays are never negative; every activity lies on a device stream.
    CHECK(QueryNumber(*session.value(),
                      "select count(*) from device_activity where launch_delay_ns < 0") == 0);
    CHECK(QueryNumber(*session.value(),
                      "select count(*) from device_activity a join track t on "
                      "a.track_id = t.id where t.role != 'device stream'") == 0);
}

TEST_CASE(
    "flow: each arrow's slices as the timeline binds them, a launch to the kernel it launched") {
    const auto model = GeneratedGpuTrace();
    auto session = SqlSession::Open(*model);
    REQUIRE(session.ok());
    SqlSession& sql = *session.value();
    REQUIRE(model->flows.size() > 100);
    CHECK(QueryNumber(sql, "select count(*) from flow") ==
          static_cast<int64_t>(model->flows.size()));
    // Each bound end lies in its slice, on its track.
    CHECK(QueryNumber(sql,
                      "select count(*) from flow f join slice s on f.slice_out = s.id where "
                      "f.ts_out < s.ts or f.ts_out > s.ts + s.dur or s.track_id != "
                      "f.track_out") == 0);
    CHECK(QueryNumber(sql,
                      "select count(*) from flow f join slice s on f.slice_in = s.id where "
                      "f.ts_in < s.ts or f.ts_in > s.ts + s.dur or s.track_id != f.track_in") == 0);
    // Kineto's launch arrows join a runtime call to its kernel: the same correlation id. (An arrow
    // into a kernel that holds an annotation of its own start binds to the annotation, the
    // deepest slice there, as the timeline draws it.)
    CHECK(QueryNumber(sql,
                      "select count(*) from flow f join slice a on f.slice_out = a.id join "
                      "slice b on f.slice_in = b.id where f.category = 'ac2g' and "
                      "b.category = 'kernel'") > 100);
    CHECK(QueryNumber(sql,
                      "select count(*) from flow f join slice a on f.slice_out = a.id join "
                      "slice b on f.slice_in = b.id where f.category = 'ac2g' and "
                      "b.category = 'kernel' and a.correlation_id is not b.correlation_id") == 0);
}

TEST_CASE(
    "found in review: grouped and ordered by name, a real arg_set_id, escapes, fts3_tokenizer") {
    const auto model = GeneratedGpuTrace();
    auto session = SqlSession::Open(*model);
    REQUIRE(session.ok());
    SqlSession& sql = *session.value();
    // A GROUP BY with an ORDER BY on the same column, both ways: as SQLite's own sort gives it.
    for (const char* order : {"", " desc"})
        CHECK(Query(sql, std::string("select name, count(*) from slice group by name order by "
                                     "name") +
                             order) ==
              Query(sql, std::string("select name, count(*) from slice group by name || '' "
                                     "order by name || ''") +
                             order));
    CHECK(
        Query(sql, "select track_id from slice group by track_id order by track_id desc") ==
        Query(sql, "select track_id from slice group by track_id + 0 order by track_id + 0 desc"));
    // An id written as a real names the same slice.
    CHECK(QueryNumber(sql, "select count(*) from args where arg_set_id = 3.0") ==
          QueryNumber(sql, "select count(*) from args where arg_set_id = 3"));
    // fts3_tokenizer reads and takes code addresses: refused.
    CHECK(QueryError(sql, "select fts3_tokenizer('simple')").find("not authorized") !=
          std::string::npos);
    // A category written with escapes reads decoded, as a name does.
    const auto escaped = test::LoadJson(
        R"({"traceEvents": [{"ph": "X", "name": "n\u0041", "cat": "x\u0041", "pid": 1, "tid": 1,)"
        R"( "ts": 1, "dur": 2, "args": {"big": 18446744073709551615}}]})");
    auto escapedSession = SqlSession::Open(*escaped);
    REQUIRE(escapedSession.ok());
    CHECK(Query(*escapedSession.value(), "select category, name from slice") ==
          std::vector<std::string>{"xA|nA"});
    // A number past the integers is no integer 0.
    CHECK(Query(*escapedSession.value(), "select int_value, value_type from args") ==
          std::vector<std::string>{"NULL|real"});
}
