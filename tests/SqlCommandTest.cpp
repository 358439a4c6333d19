// `marey sql` through the real binary: its three outputs, statements from standard input, exit
// statuses, and figures that agree with `marey stats --json` on the bundled sample.
#include <doctest/doctest.h>
#include <simdjson.h>
#include <sys/wait.h>

#include <algorithm>
#include <filesystem>
#include <vector>
#include <string>

#include "TestSupport.hpp"

namespace fs = std::filesystem;

namespace {

struct Outcome {
    std::string output;  // standard output, then standard error when 'withErrors'
    int status = -1;
};

std::string Sample() {
    return (fs::path(MAREY_ASSETS_DIR) / "sample_rank0_ascend_pt").string();
}

// 'arguments' after "marey sql", with 'input' on standard input (none: an empty one).
Outcome Sql(const std::string& arguments, const std::string& input = "", bool withErrors = false) {
    const fs::path in = marey::test::TempDir("sql-command") / "input.sql";
    {
        std::FILE* file = std::fopen(in.c_str(), "wb");
        REQUIRE(file);
        std::fwrite(input.data(), 1, input.size(), file);
        std::fclose(file);
    }
    Outcome outcome;
    int status = -1;
    outcome.output =
        marey::test::RunCommand("timeout 60 " + std::string(MAREY_BINARY) + " sql " + arguments +
                                    " < " + in.string() + (withErrors ? " 2>&1" : " 2>/dev/null"),
                                &status);
    outcome.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return outcome;
}

}  // namespace

TEST_CASE("sql prints an aligned table, CSV or JSON, one result per statement") {
    const Outcome table = Sql(Sample() + " \"select 'MatMul' as name, 42 as n, 1.5 as x\"");
    CHECK(table.status == 0);
    CHECK(table.output ==
          "name     n    x\n"
          "------  --  ---\n"
          "MatMul  42  1.5\n"
          "(1 row)\n\n");
    const Outcome csv =
        Sql(Sample() + " --csv \"select 'a,b' as t, 'say \\\"hi\\\"' as u, null as v\"");
    CHECK(csv.status == 0);
    CHECK(csv.output == "t,u,v\r\n\"a,b\",\"say \"\"hi\"\"\",\r\n\n");
    // From standard input: each statement's result in turn, comments and blanks skipped.
    const Outcome json = Sql(Sample() + " --json",
                             "select 1 as one;\n-- nothing\nselect name from "
                             "process order by upid limit 2;\n");
    CHECK(json.status == 0);
    CHECK(json.output == "[{\"one\": 1}]\n[{\"name\": \"Python\"},\n {\"name\": \"CANN\"}]\n");
}

TEST_CASE(
    "sql's figures are stats --json's: slices, instants, counters, tracks and the top names") {
    int status = -1;
    const std::string stats = marey::test::RunCommand(
        std::string(MAREY_BINARY) + " stats " + Sample() + " --json 2>/dev/null", &status);
    REQUIRE(status == 0);
    simdjson::dom::parser parser;
    const simdjson::dom::element summary = parser.parse(stats);
    const int64_t slices = summary["slices"].get_int64().value();
    const int64_t instants = summary["instants"].get_int64().value();
    const Outcome counts = Sql(Sample() +
                               " --csv \"select (select count(*) from slice), (select "
                               "count(*) from counter), (select count(*) from track), "
                               "(select count(*) from process)\"");
    REQUIRE(counts.status == 0);
    CHECK(counts.output.substr(counts.output.find("\r\n") + 2) ==
          std::to_string(slices + instants) + "," +
              std::to_string(summary["counter_samples"].get_int64().value()) + "," +
              std::to_string(summary["tracks"].get_int64().value()) + "," +
              std::to_string(summary["processes"].get_int64().value()) + "\r\n\n");
    int checked = 0;
    for (simdjson::dom::element top : summary["top"].get_array()) {
        const std::string name(top["name"].get_string().value());
        const Outcome row = Sql(Sample() +
                                " --csv \"select count(*), sum(dur) from slice where "
                                "name = '" +
                                name + "'\"");
        REQUIRE(row.status == 0);
        CHECK_MESSAGE(row.output.substr(row.output.find("\r\n") + 2) ==
                          std::to_string(top["count"].get_int64().value()) + "," +
                              std::to_string(top["total_ns"].get_int64().value()) + "\r\n\n",
                      name);
        if (++checked == 5) break;
    }
    CHECK(checked == 5);
}

TEST_CASE(
    "sql's errors: the statement's place on standard input, a cluster, a missing path, usage") {
    const Outcome failed =
        Sql(Sample(), "select 1;\n\n  select * from nowhere;\nselect 2;\n", true);
    CHECK(failed.status == 1);
    CHECK(failed.output.find("<stdin>:3:3: error: no such table: nowhere") != std::string::npos);
    CHECK(failed.output.find("2\n") == std::string::npos);  // nothing after the error runs
    const Outcome missing = Sql("/nonexistent/trace.json \"select 1\"", "", true);
    CHECK(missing.status == 1);
    CHECK(missing.output.find("/nonexistent/trace.json") != std::string::npos);
    CHECK(Sql("", "", true).status == 2);
    const Outcome unknown = Sql(Sample() + " --tsv \"select 1\"", "", true);
    CHECK(unknown.status == 2);
    CHECK(unknown.output.find("unknown option \"--tsv\"") != std::string::npos);
    const Outcome extra = Sql(Sample() + " select 1", "", true);
    CHECK(extra.status == 2);
    CHECK(extra.output.find("quote the query") != std::string::npos);
}

TEST_CASE("every query of docs/sql.md runs, on the sample and on a generated GPU trace") {
    const fs::path page = fs::path(MAREY_TESTS_DIR) / ".." / "docs" / "sql.md";
    std::FILE* file = std::fopen(page.c_str(), "rb");
    REQUIRE(file);
    std::string text;
    char buffer[4096];
    for (size_t n; (n = std::fread(buffer, 1, sizeof buffer, file)) > 0;) text.append(buffer, n);
    std::fclose(file);
    std::vector<std::string> queries;
    for (size_t at = text.find("```sql\n"); at != std::string::npos;
         at = text.find("```sql\n", at + 1)) {
        const size_t start = at + 7;
        queries.push_back(text.substr(start, text.find("```", start) - start));
    }
    CHECK(queries.size() >= 10);  // the ten questions, and the examples
    const fs::path gpu = marey::test::TempDir("sql-docs") / "gpu.json";
    int status = -1;
    marey::test::RunCommand(
        std::string(MAREY_GEN) + " --gpu-trace " + gpu.string() + " --events 20000 >/dev/null 2>&1",
        &status);
    REQUIRE(status == 0);
    for (const std::string& query : queries) {
        size_t rows = 0;
        for (const std::string& path : {Sample(), gpu.string()}) {
            const Outcome outcome = Sql(path + " --csv", query, true);
            CHECK_MESSAGE(outcome.status == 0, std::string(query + outcome.output));
            // Lines after the header, less the blank line that ends the result.
            const size_t lines =
                static_cast<size_t>(std::count(outcome.output.begin(), outcome.output.end(), '\n'));
            rows += lines >= 2 ? lines - 2 : 0;
        }
        CHECK_MESSAGE(rows > 0, query);  // each answers something on one of the two
    }
}

TEST_CASE("a rank folder's kernel, step and communication_op tables hold the rank views' figures") {
    int status = -1;
    const std::string stats = marey::test::RunCommand(
        std::string(MAREY_BINARY) + " stats " + Sample() + " --json 2>/dev/null", &status);
    REQUIRE(status == 0);
    simdjson::dom::parser parser;
    const simdjson::dom::element rank = parser.parse(stats)["rank"];
    // Each step, phase by phase, and where the trace places it.
    const Outcome steps = Sql(Sample() + " --json \"select * from step order by id\"");
    REQUIRE(steps.status == 0);
    simdjson::dom::parser stepParser;
    const simdjson::dom::array rows = stepParser.parse(steps.output).get_array();
    const simdjson::dom::array expected = rank["steps"].get_array();
    REQUIRE(rows.size() == expected.size());
    REQUIRE(rows.size() > 10);
    for (size_t i = 0; i < rows.size(); ++i)
        for (auto [key, value] : simdjson::dom::object(expected.at(i))) {
            simdjson::dom::element cell;
            REQUIRE_MESSAGE(rows.at(i)[key].get(cell) == simdjson::SUCCESS, std::string(key));
            CHECK_MESSAGE(simdjson::minify(cell) == simdjson::minify(value), std::string(key));
        }
    // The operators by core class and the communication totals.
    for (simdjson::dom::element core : rank["operators"]["by_core"].get_array()) {
        const std::string coreClass(core["core_class"].get_string().value());
        const Outcome row = Sql(Sample() +
                                " --csv \"select count(*), sum(dur) from kernel where "
                                "core_class = '" +
                                coreClass + "'\"");
        CHECK_MESSAGE(row.output.substr(row.output.find("\r\n") + 2) ==
                          std::to_string(core["count"].get_int64().value()) + "," +
                              std::to_string(core["total_ns"].get_int64().value()) + "\r\n\n",
                      coreClass);
    }
    const simdjson::dom::element communication = rank["communication"];
    const Outcome totals = Sql(Sample() +
                               " --csv \"select count(*), sum(elapse_ns), "
                               "sum(transit_ns), sum(wait_ns), sum(sync_ns), "
                               "sum(idle_ns) from communication_op\"");
    CHECK(totals.output.substr(totals.output.find("\r\n") + 2) ==
          std::to_string(communication["operators"].get_int64().value()) + "," +
              std::to_string(communication["elapse_ns"].get_int64().value()) + "," +
              std::to_string(communication["transit_ns"].get_int64().value()) + "," +
              std::to_string(communication["wait_ns"].get_int64().value()) + "," +
              std::to_string(communication["synchronization_ns"].get_int64().value()) + "," +
              std::to_string(communication["idle_ns"].get_int64().value()) + "\r\n\n");
}

TEST_CASE("a cluster's tables: each rank's figures as stats --json's rank_figures, the slow link") {
    const fs::path job = marey::test::TempDir("sql-cluster") / "job";
    int status = -1;
    marey::test::RunCommand(std::string(MAREY_GEN) + " --cluster " + job.string() +
                                " --ranks 8 --slow-rank 5 --slow-link 2-3 >/dev/null 2>&1",
                            &status);
    REQUIRE(status == 0);
    const std::string stats = marey::test::RunCommand(
        std::string(MAREY_BINARY) + " stats " + job.string() + " --json 2>/dev/null", &status);
    REQUIRE(status == 0);
    simdjson::dom::parser parser;
    const simdjson::dom::element cluster = parser.parse(stats)["cluster"];
    const Outcome ranks = Sql(job.string() + " --json \"select * from rank order by rank_id\"");
    REQUIRE(ranks.status == 0);
    simdjson::dom::parser rankParser;
    const simdjson::dom::array rows = rankParser.parse(ranks.output).get_array();
    const simdjson::dom::array figures = cluster["rank_figures"].get_array();
    REQUIRE(rows.size() == 8);
    REQUIRE(figures.size() == 8);
    for (size_t i = 0; i < rows.size(); ++i)
        for (auto [key, value] : simdjson::dom::object(figures.at(i))) {
            const std::string column = key == "rank" ? "rank_id" : std::string(key);
            simdjson::dom::element cell;
            REQUIRE_MESSAGE(rows.at(i)[column].get(cell) == simdjson::SUCCESS, column);
            CHECK_MESSAGE(simdjson::minify(cell) == simdjson::minify(value), column);
        }
    // The slowest link by bandwidth is the planted one; the steps are every rank's.
    const Outcome link = Sql(job.string() +
                             " --csv \"select src_rank, dst_rank from link order "
                             "by bandwidth_gbps limit 1\"");
    CHECK(link.output == "src_rank,dst_rank\r\n2,3\r\n\n");
    // The same job summarised to one file: the same ranks and figures.
    const fs::path summary = job.parent_path() / "summary.jsonl";
    marey::test::RunCommand(std::string(MAREY_BINARY) + " summarize " + job.string() + " --out " +
                                summary.string() + " >/dev/null 2>&1",
                            &status);
    REQUIRE(status == 0);
    const Outcome fromSummary =
        Sql(summary.string() + " --json \"select * from rank order by rank_id\"");
    CHECK(fromSummary.status == 0);
    CHECK(fromSummary.output == ranks.output);
    const Outcome steps = Sql(job.string() +
                              " --csv \"select count(distinct step), count(distinct "
                              "rank_id) from rank_step\"");
    CHECK(steps.output.substr(steps.output.find("\r\n") + 2) ==
          std::to_string(cluster["steps"].get_int64().value()) + ",8\r\n\n");
}

TEST_CASE(
    "the analyses' tables hold what stats --json counts: idle time by stream and cause, launches") {
    const fs::path gpu = marey::test::TempDir("sql-analyses") / "gpu.json";
    int status = -1;
    marey::test::RunCommand(
        std::string(MAREY_GEN) + " --gpu-trace " + gpu.string() + " --events 20000 >/dev/null 2>&1",
        &status);
    REQUIRE(status == 0);
    const std::string stats = marey::test::RunCommand(
        std::string(MAREY_BINARY) + " stats " + gpu.string() + " --json 2>/dev/null", &status);
    REQUIRE(status == 0);
    simdjson::dom::parser parser;
    const simdjson::dom::element rank = parser.parse(stats)["analyses"]["ranks"].at(0);
    size_t streams = 0;
    for (simdjson::dom::element stream : rank["idle"].get_array()) {
        const std::string name(stream["stream"].get_string().value());
        const Outcome idle = Sql(gpu.string() +
                                 " --csv \"select group_concat(total) from (select "
                                 "g.cause, sum(g.dur) total from idle_gap g join "
                                 "track t on g.track_id = t.id where trim(t.name) = '" +
                                 name + "' group by g.cause order by g.cause)\"");
        // Causes in name order: host wait, kernel wait, other. (Kineto writes "stream 7 ", the
        // analyses label it "stream 7".)
        CHECK_MESSAGE(
            idle.output.find("\"" + std::to_string(stream["host_wait_ns"].get_int64().value()) +
                             "," + std::to_string(stream["kernel_wait_ns"].get_int64().value()) +
                             "," + std::to_string(stream["other_ns"].get_int64().value()) + "\"") !=
                std::string::npos,
            std::string(name + ": " + idle.output));
        ++streams;
    }
    CHECK(streams >= 2);
    // Each stream's launch queue: its largest depth and its mean over time, from the samples.
    for (simdjson::dom::element stream : rank["queue"].get_array()) {
        const std::string name(stream["stream"].get_string().value());
        const Outcome queue =
            Sql(gpu.string() +
                " --csv \"select max(depth), printf('%.3f', sum(depth * (nxt - ts)) * "
                "1.0 / (max(ts) - min(ts))) from (select track_id, ts, depth, lead(ts) "
                "over (partition by track_id order by ts, id) nxt from queue_sample) q "
                "join track t on q.track_id = t.id where trim(t.name) = '" +
                name + "'\"");
        char mean[32];
        std::snprintf(mean, sizeof mean, "%.3f", stream["mean"].get_double().value());
        CHECK_MESSAGE(queue.output.substr(queue.output.find("\r\n") + 2) ==
                          std::to_string(stream["max"].get_int64().value()) + "," + mean + "\r\n\n",
                      std::string(name + ": " + queue.output));
    }
    const Outcome launched = Sql(gpu.string() +
                                 " --csv \"select count(*) from device_activity "
                                 "where launch_id is not null\"");
    CHECK(launched.output.substr(launched.output.find("\r\n") + 2) ==
          std::to_string(rank["launch"]["count"].get_int64().value()) + "\r\n\n");
    // Each activity's slice is the one of its name and start; each launch's too.
    const Outcome joined = Sql(gpu.string() +
                               " --csv \"select count(*) from device_activity a join "
                               "slice s on s.id = a.slice_id where s.ts != a.ts or "
                               "s.name != a.name\"");
    CHECK(joined.output == "count(*)\r\n0\r\n\n");
}

TEST_CASE(
    "at a terminal sql prompts, runs each statement once it ends with a semicolon, lists tables") {
    // `script` (util-linux) gives the command a terminal of its own.
    int status = -1;
    const std::string output = marey::test::RunCommand(
        "printf 'select 6 *\\n 7 as answer;\\n.tables\\n.quit\\n' | timeout 60 script -qec '" +
            std::string(MAREY_BINARY) + " sql " + Sample() + "' /dev/null 2>&1",
        &status);
    CHECK(status == 0);
    CHECK(output.find("marey> ") != std::string::npos);
    CHECK(output.find("  ...> ") != std::string::npos);  // the statement went on past its line
    CHECK(output.find("answer") != std::string::npos);
    CHECK(output.find("42") != std::string::npos);
    CHECK(output.find("counter_track") != std::string::npos);  // .tables
}

TEST_CASE("sql says on standard error how many import problems the source had, and the first") {
    const fs::path dir = marey::test::TempDir("sql-problems");
    const fs::path trace = dir / "damaged.json";
    {
        std::FILE* file = std::fopen(trace.c_str(), "wb");
        REQUIRE(file);
        std::fputs(
            "[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":2},\n"
            "{\"ph\":\"X\",\"name\":\"b\",\"pid\":1,\"tid\":1,\"ts\":\"x\",\"dur\":2},\n"
            "{\"ph\":\"X\",\"name\":\"c\",\"pid\":1,\"tid\":1,\"ts\":5,\"dur\":2}]\n",
            file);
        std::fclose(file);
    }
    const Outcome damaged =
        Sql(trace.string() + " --no-cache --csv \"select count(*) as n from slice\"", "", true);
    CHECK(damaged.status == 0);
    CHECK(damaged.output.find("n\r\n2\r\n") != std::string::npos);  // RFC 4180 line ends
    CHECK(damaged.output.find("marey sql: note: 1 import problem in " + trace.string()) !=
          std::string::npos);
    CHECK(damaged.output.find("the first: " + trace.string() + ":2:") != std::string::npos);
    // A whole file says nothing more than its results.
    const Outcome whole = Sql(Sample() + " --csv \"select 1 as one\"", "", true);
    CHECK(whole.output.find("note:") == std::string::npos);
    fs::remove_all(dir);
}
