// The generator's database export: the same run as its text export, table by table.
#include <doctest/doctest.h>
#include <sqlite3.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "TestSupport.hpp"
#include "TraceGenerator.hpp"

using namespace marey;
namespace fs = std::filesystem;

namespace {

// A read-only connection, as a reader opens the profiler's files.
class Database {
public:
    explicit Database(const fs::path& path) {
        const std::string uri = "file:" + path.string() + "?mode=ro&immutable=1";
        m_ok = sqlite3_open_v2(uri.c_str(), &m_db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI,
                               nullptr) == SQLITE_OK;
    }
    ~Database() { sqlite3_close(m_db); }
    bool ok() const { return m_ok; }

    // The first column of the first row as an integer; -1 when the query fails.
    int64_t Int(const std::string& sql) const {
        sqlite3_stmt* statement = nullptr;
        int64_t value = -1;
        if (sqlite3_prepare_v2(m_db, sql.c_str(), -1, &statement, nullptr) == SQLITE_OK &&
            sqlite3_step(statement) == SQLITE_ROW)
            value = sqlite3_column_int64(statement, 0);
        sqlite3_finalize(statement);
        return value;
    }

private:
    sqlite3* m_db = nullptr;
    bool m_ok = false;
};

// Data rows of a text side file (its header left out).
int64_t DataRows(const fs::path& path) {
    std::ifstream in(path);
    int64_t lines = 0;
    for (std::string line; std::getline(in, line);) ++lines;
    return lines - 1;
}

GeneratorOptions SmallRun() {
    GeneratorOptions options;
    options.events = 20000;
    options.seed = 3;
    options.rank = 2;
    return options;
}

}  // namespace

TEST_CASE("a database rank folder holds the tasks, steps and flows its text export holds") {
    const fs::path dir = test::TempDir("generator_db_both");
    std::string error;
    GeneratorReport report;
    REQUIRE(WriteRankDirectory(SmallRun(), dir.string(), &error, &report, RankExport::kBoth));
    const fs::path output = dir / "ASCEND_PROFILER_OUTPUT";
    Database db(output / "ascend_pytorch_profiler_2.db");
    Database analysis(output / "analysis.db");
    REQUIRE(db.ok());
    REQUIRE(analysis.ok());

    const int64_t computeTasks =
        db.Int("SELECT count(*) FROM TASK JOIN COMPUTE_TASK_INFO USING (globalTaskId)");
    const int64_t steps = db.Int("SELECT count(*) FROM STEP_TIME");
    CHECK(computeTasks > 1000);
    CHECK(computeTasks + db.Int("SELECT count(*) FROM COMMUNICATION_OP") ==
          DataRows(output / "kernel_details.csv"));
    CHECK(steps == DataRows(output / "step_trace_time.csv"));
    CHECK(analysis.Int("SELECT count(*) FROM StepTraceTime") == steps);
    CHECK(db.Int("SELECT count(*) FROM STEP_TIME s JOIN PYTORCH_API p ON p.startNs = s.startNs "
                 "AND p.endNs = s.endNs JOIN STRING_IDS n ON n.id = p.name AND n.value = "
                 "'ProfilerStep#' || s.id") == steps);
    // Preparing runs from the step's start to its first task, the stage from there to the end of
    // the step's last device activity (its AllReduce), as the profiler counts them.
    CHECK(analysis.Int("SELECT sum(CAST(round((stage + preparing) * 1000) AS INTEGER)) FROM "
                       "StepTraceTime") ==
          db.Int("SELECT sum(o.endNs - s.startNs) FROM STEP_TIME s JOIN COMMUNICATION_OP o ON "
                 "o.startNs >= s.startNs AND o.endNs <= s.endNs"));

    // Every AllReduce task is a device task on stream 3 with its plane and name.
    CHECK(db.Int("SELECT count(*) FROM TASK JOIN COMMUNICATION_TASK_INFO USING (globalTaskId) "
                 "WHERE streamId = 3") == 6 * steps);

    // Flows: HostToDevice from Node@launch, torch_to_npu from the aten op, Enqueue to Dequeue.
    const int64_t hostToDevice =
        db.Int("SELECT count(*) FROM CANN_API c JOIN TASK t ON t.connectionId = c.connectionId");
    const int64_t torchToNpu = db.Int(
        "SELECT count(*) FROM PYTORCH_API p JOIN CONNECTION_IDS i ON i.id = p.connectionId JOIN "
        "TASK t ON t.connectionId = i.connectionId WHERE p.type = 50001");
    const int64_t queue = db.Int(
        "SELECT count(*) FROM PYTORCH_API e JOIN CONNECTION_IDS ei ON ei.id = e.connectionId "
        "JOIN STRING_IDS en ON en.id = e.name AND en.value = 'Enqueue' JOIN CONNECTION_IDS di ON "
        "di.connectionId = ei.connectionId AND di.id != ei.id JOIN PYTORCH_API d ON "
        "d.connectionId = di.id AND d.type = 50002");
    CHECK(hostToDevice == torchToNpu);
    CHECK(queue == torchToNpu);
    CHECK(hostToDevice + torchToNpu + queue == static_cast<int64_t>(report.flowArrows));
    auto model = LoadTrace((output / "trace_view.json").string());
    REQUIRE(model.ok());
    CHECK(model.value()->report.matchedFlows == report.flowArrows);

    CHECK(db.Int("SELECT count(*) FROM PYTORCH_API WHERE typeof(startNs) != 'text'") == 0);
    CHECK(db.Int("SELECT count(*) FROM NPU_MEM WHERE ddr IS NOT NULL") == 0);
    CHECK(db.Int("SELECT count(*) FROM MEMORY_RECORD") == DataRows(output / "memory_record.csv"));
    CHECK(db.Int("SELECT count(*) FROM OP_MEMORY") == DataRows(output / "operator_memory.csv"));
    CHECK(db.Int("SELECT count(*) FROM OP_MEMORY WHERE releaseTime IS NULL") ==
          DataRows(output / "operator_memory.csv") / 50);
    CHECK(analysis.Int("SELECT count(*) FROM CommAnalyzerTime") == steps);
    CHECK(analysis.Int("SELECT count(*) FROM CommAnalyzerMatrix") == 3 * steps);
}

TEST_CASE("a database-only rank folder writes the same run without the text files") {
    const fs::path both = test::TempDir("generator_db_pair_both");
    const fs::path only = test::TempDir("generator_db_pair_only");
    std::string error;
    REQUIRE(WriteRankDirectory(SmallRun(), both.string(), &error, nullptr, RankExport::kBoth));
    REQUIRE(WriteRankDirectory(SmallRun(), only.string(), &error, nullptr, RankExport::kDatabase));
    CHECK_FALSE(fs::exists(only / "ASCEND_PROFILER_OUTPUT" / "trace_view.json"));
    CHECK(fs::exists(only / "profiler_info_2.json"));
    Database a(both / "ASCEND_PROFILER_OUTPUT" / "ascend_pytorch_profiler_2.db");
    Database b(only / "ASCEND_PROFILER_OUTPUT" / "ascend_pytorch_profiler_2.db");
    for (const char* sql :
         {"SELECT count(*) FROM TASK", "SELECT sum(startNs % 1000003) FROM TASK",
          "SELECT sum(endNs - startNs) FROM STEP_TIME", "SELECT count(*) FROM PYTORCH_API",
          "SELECT count(*) FROM CANN_API", "SELECT sum(hbm % 1000003) FROM NPU_MEM"})
        CHECK_MESSAGE(a.Int(sql) == b.Int(sql), sql);
}
