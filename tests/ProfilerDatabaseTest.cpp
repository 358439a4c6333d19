// Profiler databases: the real sample read into the model, read-only opening, and damaged files.
#include <sys/stat.h>

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "TestSupport.hpp"
#include "core/LoadProgress.hpp"
#include "TraceGenerator.hpp"
#include "core/TimeRanges.hpp"
#include "db/DbOverlap.hpp"
#include "db/DbReadProgress.hpp"
#include "db/DbRankTables.hpp"
#include "db/DbRowDetails.hpp"
#include "db/DbRows.hpp"
#include "db/DbTimeline.hpp"
#include "db/DbTimelineReader.hpp"
#include "db/SqliteFile.hpp"
#include "load/RankTables.hpp"
#include "loading/ClusterLoader.hpp"
#include "import/ascend_db/DatabaseLoader.hpp"
#include "loading/RankLoader.hpp"
#include "marey/Marey.hpp"
#include "rank/TraceSummary.hpp"
#include "report/RankJson.hpp"
#include "report/SummaryJson.hpp"
#include "report/TraceAnalysesJson.hpp"
#include "trace/DeviceActivities.hpp"
#include "trace/HtaCompatible.hpp"
#include "trace/TraceAnalyses.hpp"

namespace fs = std::filesystem;
using namespace marey;

namespace {

constexpr const char* kSampleRank = "msinsight/test/data/pytorch/db/level1/rank0_ascend_pt";

std::string ReadBytes(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    return bytes.str();
}

// A writable copy of the real sample's rank 0, or "" when the fixtures are not here.
fs::path CopyOfSample(const std::string& name) {
    const std::string fixtures = test::FixturesDir();
    if (fixtures.empty()) return {};
    const fs::path dir = test::TempDir(name) / "rank0_ascend_pt";
    fs::copy(fs::path(fixtures) / kSampleRank, dir, fs::copy_options::recursive);
    for (const auto& entry : fs::recursive_directory_iterator(dir))
        fs::permissions(entry.path(), fs::perms::owner_write, fs::perm_options::add);
    fs::permissions(dir, fs::perms::owner_write, fs::perm_options::add);
    return dir;
}

fs::path SampleDb(const fs::path& rank) {
    return rank / "ASCEND_PROFILER_OUTPUT" / "ascend_pytorch_profiler_0.db";
}

std::string Problems(const TraceModel& model) {
    std::string text;
    for (const ImportProblem& p : model.report.problems) text += p.message + "\n";
    return text;
}

// Slices per process name.
std::map<std::string, uint64_t> SlicesByProcess(const TraceModel& model) {
    std::map<std::string, uint64_t> counts;
    for (const Track& track : model.tracks)
        counts[std::string(model.Name(model.processes[track.process].name))] += track.sliceCount;
    return counts;
}

}  // namespace

// [SECTION] Reading the tables: the real sample and damaged values

TEST_CASE(
    "a profiler database path becomes a read-only immutable URI with reserved bytes escaped") {
    CHECK(ReadOnlyUri("/a/b.db") == "file:/a/b.db?mode=ro&immutable=1");
    CHECK(ReadOnlyUri("/run#3?/x%.db") == "file:/run%233%3F/x%25.db?mode=ro&immutable=1");
    CHECK(ReadOnlyUri("/with space/x.db") == "file:/with%20space/x.db?mode=ro&immutable=1");
}

TEST_CASE("overlap analysis: free time lies between a step's first and last device activity") {
    const OverlapAnalysis overlap =
        AnalyzeOverlap({{100, 200}, {150, 260}, {400, 500}}, {{250, 450}}, {{0, 1000}});
    REQUIRE(overlap.computing.size() == 2);
    CHECK(overlap.computing[0].startNs == 100);
    CHECK(overlap.computing[0].endNs == 260);
    REQUIRE(overlap.notOverlapped.size() == 1);
    CHECK(overlap.notOverlapped[0].startNs == 260);
    CHECK(overlap.notOverlapped[0].endNs == 400);
    // Busy from 100 to 500 without a gap: no free time, and none before 100 or after 500.
    CHECK(overlap.free.empty());
    const std::vector<TimeRange> united = UniteRanges({{5, 9}, {1, 3}, {3, 4}, {6, 7}});
    REQUIRE(united.size() == 2);
    CHECK(united[0].startNs == 1);
    CHECK(united[0].endNs == 4);  // touching ranges join
    CHECK(united[1].endNs == 9);
    CHECK(RangesLength(united) == 7);
    CHECK(RangesLength({{INT64_MIN, 0}, {0, INT64_MAX}}) == INT64_MAX);  // saturates
    const OverlapAnalysis gaps = AnalyzeOverlap({{100, 200}, {300, 400}}, {}, {});
    REQUIRE(gaps.free.size() == 1);
    CHECK(gaps.free[0].startNs == 200);
    CHECK(gaps.free[0].endNs == 300);
}

TEST_CASE("the real db sample: every table's rows end up in the model and the rank tables") {
    const std::string fixtures = test::FixturesDir();
    if (fixtures.empty()) return;
    const fs::path rank = fs::path(fixtures) / kSampleRank;
    auto loaded = LoadRank(rank.string());
    REQUIRE(loaded.ok());
    const LoadedRank& result = loaded.value();
    CHECK(result.source == "database ascend_pytorch_profiler_0.db");
    CHECK(result.otherSource.empty());
    const TraceModel& model = *result.model;
    CHECK(Problems(model).empty());
    CHECK(model.sources.front().format == SourceFormat::kDatabase);
    const std::map<std::string, uint64_t> slices = SlicesByProcess(model);
    CHECK(slices.at("Python") == 2460);             // PYTORCH_API
    CHECK(slices.at("CANN") == 710);                // CANN_API
    CHECK(slices.at("Ascend Hardware") == 552);     // TASK
    CHECK(slices.at("HCCL") == 4 + 296);            // COMMUNICATION_OP and its tasks
    CHECK(model.counterSampleCount == 3 + 28 * 2);  // AICORE_FREQ, NPU_MEM (DDR and HBM)
    std::map<std::string, uint64_t> flowsByCategory;
    for (const Flow& flow : model.flows)
        ++flowsByCategory[std::string(model.Name(model.FlowCategory(flow)))];
    CHECK(flowsByCategory["HostToDevice"] ==
          550 + 4);  // TASK and COMMUNICATION_OP rows with a CANN API
    CHECK(flowsByCategory["async_npu"] == 500 + 4);
    CHECK(flowsByCategory["async_task_queue"] == 159);
    CHECK(flowsByCategory["fwdbwd"] == 27);
    const RankAnalysis& analysis = *result.analysis;
    REQUIRE(analysis.kernels);
    CHECK(analysis.kernels->rows.size() == 187 + 4);  // COMPUTE_TASK_INFO rows and the HCCL ops
    REQUIRE(analysis.steps);
    REQUIRE(analysis.steps->rows.size() == 1);
    CHECK(analysis.steps->rows[0].ns[kStepFree] == 25258144);
    REQUIRE(analysis.communication);
    CHECK(analysis.communication->ops.size() == 4);
    REQUIRE(analysis.matrix);
    CHECK(analysis.matrix->links.size() == 48);
    REQUIRE(analysis.operatorMemory);
    CHECK(analysis.operatorMemory->allocations.size() == 184);
    REQUIRE(analysis.memoryRecord);
    CHECK_FALSE(analysis.memoryRecord->series.empty());
    CHECK(analysis.problems.empty());
}

TEST_CASE("the real db sample: steps computed from its tasks equal analysis.db's to the ns") {
    const std::string fixtures = test::FixturesDir();
    if (fixtures.empty()) return;
    const fs::path output = fs::path(fixtures) / kSampleRank / "ASCEND_PROFILER_OUTPUT";
    auto withAnalysis = LoadProfilerDatabase(SampleDb(fs::path(fixtures) / kSampleRank).string(),
                                             (output / "analysis.db").string());
    auto computed = LoadProfilerDatabase(SampleDb(fs::path(fixtures) / kSampleRank).string(), "");
    REQUIRE(withAnalysis.ok());
    REQUIRE(computed.ok());
    REQUIRE(withAnalysis.value().tables.steps);
    REQUIRE(computed.value().tables.steps);
    const StepRow& profiler = withAnalysis.value().tables.steps->rows.at(0);
    const StepRow& ours = computed.value().tables.steps->rows.at(0);
    for (int phase : {kStepComputing, kStepCommNotOverlapped, kStepOverlapped, kStepCommunication,
                      kStepFree, kStepStage, kStepPreparing}) {
        CAPTURE(kStepPhaseColumns[phase]);
        CHECK(ours.ns[phase] == profiler.ns[phase]);
    }
}

TEST_CASE("the real db sample: each device task is paired with its CANN call by connection id") {
    const std::string fixtures = test::FixturesDir();
    if (fixtures.empty()) return;
    const fs::path rank = fs::path(fixtures) / kSampleRank;
    auto loaded = LoadRank(rank.string());
    REQUIRE(loaded.ok());
    const DeviceActivities found = FindDeviceActivities(*loaded.value().model, 2);
    CHECK(found.unavailable.empty());
    // The same from SQL: tasks that are not synchronisation, and those with a CANN call.
    auto db = SqliteFile::OpenReadOnly(SampleDb(rank).string());
    REQUIRE(db.ok());
    const std::string working =
        "FROM TASK t JOIN STRING_IDS s ON s.id = t.taskType WHERE s.value NOT IN "
        "('EVENT_RECORD_SQE', 'EVENT_WAIT_SQE', 'PLACE_HOLDER_SQE', 'EVENT_RECORD', 'EVENT_WAIT', "
        "'PROFILING_ENABLE', 'PROFILING_DISABLE')";
    auto count = [&](const std::string& sql) {
        auto statement = db.value()->Prepare(sql);
        REQUIRE(statement.ok());
        REQUIRE(statement.value().Step());
        return static_cast<size_t>(statement.value().Int(0));
    };
    CHECK(found.streams.size() == count("SELECT count(DISTINCT streamId) FROM TASK"));
    CHECK(found.activities.size() == count("SELECT count(*) " + working));
    CHECK(found.activities.size() == 524);
    size_t launched = 0, communication = 0;
    for (const DeviceActivity& activity : found.activities) {
        launched += activity.launch != kNoLaunch;
        communication += activity.kind.activityClass == ActivityClass::kCommunication;
    }
    CHECK(launched == count("SELECT count(*) " + working +
                            " AND t.connectionId IN (SELECT connectionId FROM CANN_API)"));
    CHECK(found.launches.size() ==
          count("SELECT count(DISTINCT c.rowid) FROM CANN_API c WHERE c.connectionId IN "
                "(SELECT t.connectionId " +
                working + ")"));
    // HTA reads JSON only: asked for its figures, the database says so rather than giving none.
    CHECK(AnalyzeTraceAsHta(*loaded.value().model).unavailable.find("Chrome JSON") !=
          std::string::npos);
    // HCCL's tasks on the device's streams: told by their task type, as in the text export;
    // and each operator's own task (typed AI_CORE, no info row, the operator's connection id).
    CHECK(communication == count("SELECT count(*) " + working +
                                 " AND (s.value IN ('Notify Wait', 'Write Value', 'SDMA') OR "
                                 "(t.connectionId IN (SELECT connectionId FROM COMMUNICATION_OP) "
                                 "AND t.globalTaskId NOT IN (SELECT globalTaskId FROM "
                                 "COMPUTE_TASK_INFO) AND t.globalTaskId NOT IN (SELECT "
                                 "globalTaskId FROM COMMUNICATION_TASK_INFO)))"));
    CHECK(communication == count("SELECT count(*) " + working +
                                 " AND s.value IN ('Notify Wait', 'Write Value', 'SDMA')") +
                               4);
}

TEST_CASE("opening a profiler database changes neither its bytes nor its times") {
    const fs::path rank = CopyOfSample("db_readonly");
    if (rank.empty()) return;
    const fs::path db = SampleDb(rank);
    const fs::path analysis = rank / "ASCEND_PROFILER_OUTPUT" / "analysis.db";
    const std::string bytesBefore = ReadBytes(db), analysisBefore = ReadBytes(analysis);
    struct stat before {
    }, after{};
    REQUIRE(stat(db.c_str(), &before) == 0);
    {
        auto loaded = LoadRank(rank.string());
        REQUIRE(loaded.ok());
    }
    REQUIRE(stat(db.c_str(), &after) == 0);
    CHECK(ReadBytes(db) == bytesBefore);
    CHECK(ReadBytes(analysis) == analysisBefore);
    CHECK(after.st_mtim.tv_sec == before.st_mtim.tv_sec);
    CHECK(after.st_mtim.tv_nsec == before.st_mtim.tv_nsec);
    for (const char* suffix : {"-wal", "-shm", "-journal"})
        CHECK_FALSE(fs::exists(db.string() + suffix));
}

TEST_CASE("a folder with text and db opens the database unless the text is asked for") {
    const fs::path rank = CopyOfSample("db_both");
    if (rank.empty()) return;
    std::ofstream(rank / "ASCEND_PROFILER_OUTPUT" / "trace_view.json")
        << "[{\"ph\": \"X\", \"name\": \"a\", \"pid\": 1, \"tid\": 1, \"ts\": 1, \"dur\": 2}]";
    auto automatic = LoadRank(rank.string());
    REQUIRE(automatic.ok());
    CHECK(automatic.value().source == "database ascend_pytorch_profiler_0.db");
    CHECK(automatic.value().otherSource == "text");
    LoadOptions text;
    text.source = RankSource::kText;
    auto asText = LoadRank(rank.string(), text);
    REQUIRE(asText.ok());
    CHECK(asText.value().source == "text trace_view.json");
    CHECK(asText.value().otherSource == "database");
    CHECK(asText.value().model->sliceCount == 1);
}

TEST_CASE(
    "damaged profiler databases: a clear message naming file, table and row, and the rest loads") {
    const fs::path rank = CopyOfSample("db_damaged");
    if (rank.empty()) return;
    const fs::path db = SampleDb(rank);
    const std::string original = ReadBytes(db);
    auto restore = [&] { std::ofstream(db, std::ios::binary | std::ios::trunc) << original; };

    SUBCASE("not SQLite") {
        std::ofstream(db, std::ios::binary | std::ios::trunc) << "this is not a database\n";
        auto loaded = LoadProfilerDatabase(db.string(), "");
        REQUIRE_FALSE(loaded.ok());
        CHECK(loaded.message().find(db.string()) == 0);
        CHECK(loaded.message().find("not a readable SQLite database") != std::string::npos);
    }
    SUBCASE("empty file") {
        std::ofstream(db, std::ios::binary | std::ios::trunc);
        auto loaded = LoadProfilerDatabase(db.string(), "");
        REQUIRE_FALSE(loaded.ok());
        CHECK(loaded.message().find("not a profiler database") != std::string::npos);
    }
    SUBCASE("truncated to half") {
        std::ofstream(db, std::ios::binary | std::ios::trunc)
            << original.substr(0, original.size() / 2);
        auto loaded = LoadProfilerDatabase(db.string(), "");
        if (loaded.ok()) {
            const std::string problems = Problems(*loaded.value().model);
            CHECK(problems.find("malformed") != std::string::npos);
        } else {
            CHECK(loaded.message().find(db.string()) == 0);
        }
    }
    SUBCASE("a table and a column missing, text times, strings and connections to nothing") {
        restore();
        test::ExecuteSql(
            db,
            "DROP TABLE CANN_API;"
            "ALTER TABLE COMPUTE_TASK_INFO DROP COLUMN opType;"
            "UPDATE PYTORCH_API SET startNs = 'soon' WHERE rowid = 7;"
            "DELETE FROM STRING_IDS WHERE id = (SELECT name FROM TASK_PMU_INFO LIMIT 1) "
            "OR id = (SELECT name FROM PYTORCH_API WHERE rowid = 9);"
            "DELETE FROM CONNECTION_IDS WHERE id = (SELECT connectionId FROM PYTORCH_API "
            "WHERE type = 50001 AND connectionId IS NOT NULL LIMIT 1);"
            "UPDATE META_DATA SET value = '9.1.0' WHERE name = 'SCHEMA_VERSION';"
            "UPDATE TASK SET rowid = 1099511627776 WHERE rowid = 5;"
            "INSERT INTO TASK SELECT * FROM TASK WHERE rowid = 6;"
            "UPDATE TASK SET endNs = 9223372036854775807 WHERE rowid = 8;"
            "UPDATE AICORE_FREQ SET freq = -1 WHERE rowid = 1;"
            "UPDATE COMMUNICATION_TASK_INFO SET planeId = 4294967295 WHERE globalTaskId = "
            "(SELECT min(globalTaskId) FROM COMMUNICATION_TASK_INFO);"
            "UPDATE RANK_DEVICE_MAP SET deviceId = 99999;"
            "INSERT INTO STEP_TIME SELECT * FROM STEP_TIME;"
            "UPDATE TASK SET connectionId = 'abc' WHERE rowid = 10;"
            "UPDATE TASK SET connectionId = -5 WHERE rowid = 11;"
            "UPDATE TASK SET taskType = 'x' WHERE rowid = 12;");
        auto loaded = LoadProfilerDatabase(db.string(), "");
        REQUIRE(loaded.ok());
        const TraceModel& model = *loaded.value().model;
        const std::string problems = Problems(model);
        CHECK(problems.find("no table CANN_API (schema 9.1.0)") != std::string::npos);
        CHECK(problems.find("table COMPUTE_TASK_INFO has no column opType") != std::string::npos);
        CHECK(problems.find("table PYTORCH_API, row 7: startNs/endNs is not an integer time in ns "
                            "(\"soon\"") != std::string::npos);
        CHECK(problems.find("string ids have no row in STRING_IDS") != std::string::npos);
        CHECK(problems.find("connectionId that CONNECTION_IDS does not hold") != std::string::npos);
        CHECK(problems.find("schema version 9.1.0 has not been seen before") != std::string::npos);
        const std::map<std::string, uint64_t> slices = SlicesByProcess(model);
        CHECK(problems.find("a second row of globalTaskId") != std::string::npos);
        CHECK(problems.find("table TASK, row 8: outside the profiling session") !=
              std::string::npos);
        CHECK(problems.find("table AICORE_FREQ, row 1: time or freq unreadable or negative") !=
              std::string::npos);
        CHECK(problems.find("planeId 4294967295 is not a plane: shown on its stream only") !=
              std::string::npos);
        CHECK(problems.find("RANK_DEVICE_MAP names device 99999") != std::string::npos);
        CHECK(problems.find("table STEP_TIME, row 2: a second row of step") != std::string::npos);
        CHECK(problems.find("table TASK, row 10: connectionId \"abc\" is not a connection id") !=
              std::string::npos);
        CHECK(problems.find("table TASK, row 11: connectionId \"-5\" is not a connection id") !=
              std::string::npos);
        CHECK(problems.find("table TASK, row 12: taskType \"x\" is not a string id") !=
              std::string::npos);
        CHECK(loaded.value().tables.steps->rows.size() == 1);
        CHECK(slices.at("Python") == 2459);
        CHECK(slices.at("Ascend Hardware") == 551);  // row 8 left out; the copy of row 6 too
        CHECK(slices.at("HCCL") == 4 + 295);         // one task without a plane
        CHECK(slices.count("CANN") == 0);
        CHECK(test::ProblemText(model).find(":0:0:") == std::string::npos);
        // TASK row 5, moved to rowid 2^40, keeps its slice and shows its row.
        bool farRowShown = false;
        for (const Track& track : model.tracks)
            for (const Row& row : track.rows)
                for (size_t i = 0; i < row.size(); ++i)
                    if (DbRefRow(row.Ref(i), model.sources.front().farRowids) == int64_t{1} << 40) {
                        const EventDetails details = ReadDbRowDetails(
                            db.string(), row.Ref(i), model.sources.front().farRowids);
                        farRowShown = details.error.empty() && !details.args.empty();
                    }
        CHECK(farRowShown);
    }
    SUBCASE("a writer's journal beside it") {
        restore();
        std::ofstream(db.string() + "-wal") << "x";
        auto loaded = LoadProfilerDatabase(db.string(), "");
        REQUIRE(loaded.ok());
        CHECK(Problems(*loaded.value().model).find("-wal is beside it") != std::string::npos);
        fs::remove(db.string() + "-wal");
    }
}

TEST_CASE(
    "a NULL value in STRING_IDS is a problem naming its row, and the names it held read as "
    "<string N>, never as a null string") {
    const fs::path rank = CopyOfSample("db_null_strings");
    if (rank.empty()) return;
    const fs::path db = SampleDb(rank);
    // The name of PYTORCH_API's first row, and the ids below 5 (task types among them).
    test::ExecuteSql(db,
                     "UPDATE STRING_IDS SET value = NULL WHERE id < 5 OR id = "
                     "(SELECT name FROM PYTORCH_API WHERE rowid = 1);");
    auto loaded = LoadProfilerDatabase(db.string(), "");
    REQUIRE(loaded.ok());
    const TraceModel& model = *loaded.value().model;
    const std::string problems = Problems(model);
    CHECK(problems.find("table STRING_IDS, row 0: value is NULL: names with this id read as "
                        "<string 0>\n") != std::string::npos);
    CHECK(problems.find("table STRING_IDS, row 4: value is NULL: names with this id read as "
                        "<string 4>\n") != std::string::npos);
    CHECK(problems.find("have no row in STRING_IDS") == std::string::npos);
    CHECK(model.report.problemCount >= 6);
    // Every name the model hands out is a valid C string, the empty one included.
    CHECK(model.Name(0).data() != nullptr);
    bool renamed = false;
    for (const Track& track : model.tracks)
        for (const Row& row : track.rows)
            for (size_t i = 0; i < row.size(); ++i) {
                REQUIRE(model.Name(row.name[i]).data() != nullptr);
                if (model.Name(row.name[i]) == "<string 4>") renamed = true;
            }
    CHECK(renamed);
}

TEST_CASE("db values: times as INTEGER, REAL or TEXT, and anything else is not a time") {
    const fs::path dir = test::TempDir("db_values");
    const fs::path path = dir / "values.db";
    test::ExecuteSql(path,
                     "CREATE TABLE T (v);"
                     "INSERT INTO T VALUES (1736410576395167660), ('1736410576395167660'), (12.0), "
                     "(12.5), ('12 ns'), (NULL), (' 42 ');");
    auto db = SqliteFile::OpenReadOnly(path.string());
    REQUIRE(db.ok());
    auto statement = db.value()->Prepare("SELECT v FROM T ORDER BY rowid");
    REQUIRE(statement.ok());
    std::vector<std::pair<bool, TimeNs>> read;
    while (statement.value().Step()) {
        TimeNs ns = 0;
        const bool ok = ReadDbNs(statement.value(), 0, &ns);
        read.push_back({ok, ok ? ns : 0});
    }
    REQUIRE(read.size() == 7);
    CHECK(read[0] == std::make_pair(true, TimeNs{1736410576395167660}));
    CHECK(read[1] == std::make_pair(true, TimeNs{1736410576395167660}));
    CHECK(read[2] == std::make_pair(true, TimeNs{12}));
    CHECK_FALSE(read[3].first);
    CHECK_FALSE(read[4].first);
    CHECK_FALSE(read[5].first);
    CHECK(read[6] == std::make_pair(true, TimeNs{42}));
    CHECK(DbTableName(DbRefTable(DbRef(DbTable::kTask, 12345))) == std::string("TASK"));
    CHECK(DbRefRow(DbRef(DbTable::kTask, 12345)) == 12345);
}

TEST_CASE("analysis.db alone: steps, communication and links with their units") {
    const std::string fixtures = test::FixturesDir();
    if (fixtures.empty()) return;
    auto db = SqliteFile::OpenReadOnly(
        (fs::path(fixtures) / kSampleRank / "ASCEND_PROFILER_OUTPUT" / "analysis.db").string());
    REQUIRE(db.ok());
    auto profiler = SqliteFile::OpenReadOnly(SampleDb(fs::path(fixtures) / kSampleRank).string());
    REQUIRE(profiler.ok());
    RankTables tables;
    ReadAnalysisDb(*db.value(), *profiler.value(), tables);
    CHECK(tables.problems.empty());
    REQUIRE(tables.steps);
    CHECK(tables.steps->rows.at(0).ns[kStepStage] == 132233522);  // µs in the table
    REQUIRE(tables.communication);
    const CommunicationOp& first = tables.communication->ops.at(0);
    CHECK(first.name == "hcom_allReduce__210_0_1");
    CHECK(first.elapseNs == 88750993);  // ms in the table
    CHECK_FALSE(first.bandwidth.empty());
    REQUIRE(tables.matrix);
    CHECK(tables.matrix->links.at(0).group == "allreduce-top1@17148521525495523210");
}

TEST_CASE("a database row's details resolve its strings and add its operator and PMU figures") {
    const std::string fixtures = test::FixturesDir();
    if (fixtures.empty()) return;
    const std::string db = SampleDb(fs::path(fixtures) / kSampleRank).string();
    // TASK rowid 4 is trans_TransData_0 (globalTaskId 3) in the sample.
    const EventDetails task = ReadDbRowDetails(db, DbRef(DbTable::kTask, 4));
    CHECK(task.error.empty());
    std::map<std::string, std::string> args(task.args.begin(), task.args.end());
    CHECK(args["op.name"] == "trans_TransData_0");
    CHECK(args["op.opType"] == "TransData");
    CHECK(args["op.taskType"] == "AI_VECTOR_CORE");
    CHECK(args["op.inputShapes"] == "\"32,3,224,224\"");
    CHECK(args.count("pmu.aiv_total_time") == 1);
    const EventDetails missing = ReadDbRowDetails(db, DbRef(DbTable::kCannApi, 999999));
    CHECK(missing.error.find("no row 999999 in CANN_API") != std::string::npos);
    const EventDetails computed = ReadDbRowDetails(db, DbRef(DbTable::kComputed, 3));
    CHECK(computed.error.empty());
}

// [SECTION] Loading: progress, Cancel, a row's details, clusters

TEST_CASE("a database load moves its progress through every table and stops when cancelled") {
    const fs::path dir = test::TempDir("db_progress");
    GeneratorOptions options;
    options.events = 20000;
    std::string error;
    REQUIRE_MESSAGE(
        WriteRankDirectory(options, dir.string(), &error, nullptr, RankExport::kDatabase), error);
    const std::string db = SampleDb(dir).string();
    LoadProgress progress;
    auto loaded = LoadProfilerDatabase(db, "", {}, false, &progress);
    REQUIRE_MESSAGE(loaded.ok(), loaded.message());
    CHECK(progress.bytesTotal == 4 * kProgressPerTable);
    CHECK(progress.bytesDone == progress.bytesTotal);
    CHECK(progress.stage == 3);
    // The model keeps its connection: a selected row's details are read without opening the
    // file again, and read the same as from the file.
    const TraceSource& source = loaded.value().model->sources.front();
    REQUIRE(source.database);
    const EventDetails kept = ReadDbRowDetails(*source.database, DbRef(DbTable::kTask, 1));
    const EventDetails reopened = ReadDbRowDetails(db, DbRef(DbTable::kTask, 1));
    CHECK(kept.error.empty());
    CHECK(kept.args == reopened.args);
    CHECK(kept.fields == reopened.fields);

    LoadProgress cancelled;
    cancelled.cancel = true;
    auto stopped = LoadProfilerDatabase(db, "", {}, false, &cancelled);
    REQUIRE_FALSE(stopped.ok());
    CHECK(stopped.message() == db + ": cancelled");
    fs::remove_all(dir);
}

TEST_CASE("a cluster of database ranks has every rank's steps, collectives, links and operators") {
    const std::string fixtures = test::FixturesDir();
    if (fixtures.empty()) return;
    auto cluster =
        LoadCluster((fs::path(fixtures) / "msinsight/test/data/pytorch/db/level1").string(), 2);
    REQUIRE(cluster.ok());
    REQUIRE(cluster.value().ranks.size() == 2);
    for (const ClusterRank& rank : cluster.value().ranks) {
        CAPTURE(rank.rankId);
        CHECK(rank.steps.size() == 1);
        CHECK(rank.collectives.size() == 4);
        CHECK_FALSE(rank.links.empty());
        CHECK_FALSE(rank.operatorTypes.empty());
        CHECK(rank.overview.valid);
    }
    const std::vector<RankId> ids{RankId(0), RankId(1)};
    std::vector<std::string> problems;
    const auto tables = LoadKernelTables(cluster.value(), ids, 2, problems);
    REQUIRE(tables.size() == 2);
    REQUIRE(tables[0] != nullptr);
    CHECK(tables[0]->rows.size() == 187 + 4);
    CHECK(problems[0].empty());
}

// [SECTION] One run as text and as a database

namespace {

// `marey stats --json` of a rank, from the trace's processes on: what a text and a database
// export of one run must agree on (the file name and the count of JSON events differ).
std::string StatsFromProcessesOn(const std::string& folder, RankSource source) {
    LoadOptions options;
    options.source = source;
    auto loaded = LoadRank(folder, options);
    REQUIRE_MESSAGE(loaded.ok(), loaded.message());
    const LoadedRank& rank = loaded.value();
    const std::string summary = SummaryToJson(*rank.model, Summarize(*rank.model, 20));
    const size_t processes = summary.find("\"processes\"");
    REQUIRE(processes != std::string::npos);
    std::string rankJson = RankAnalysisToJson(*rank.analysis);
    // The operators, the overview and the step interval name where they were read from: the
    // fields the two exports differ in.
    const std::pair<std::string, std::string> sources[] = {
        {"the database's TASK and COMMUNICATION_OP", "kernel_details.csv"},
        {kStepsOfDatabase, kStepsOfStepTraceCsv}};
    for (const auto& [database, text] : sources) {
        const size_t at = rankJson.find("\"source\": \"" + database + "\"");
        if (at != std::string::npos) rankJson.replace(at + 11, database.size(), text);
    }
    const std::string intervalOfDatabase = "Preparing in the database's steps";
    for (size_t at = rankJson.find(intervalOfDatabase); at != std::string::npos;
         at = rankJson.find(intervalOfDatabase, at))
        rankJson.replace(at, intervalOfDatabase.size(), "Preparing in step_trace_time.csv");
    // The device analyses of the trace alone: a database's tasks and CANN calls carry the task
    // types and connection ids that the text's args do.
    TraceAnalysisOptions analysisOptions;
    analysisOptions.threads = 2;
    const std::string analyses = TraceAnalysesToJson(AnalyzeTrace(*rank.model, analysisOptions));
    return summary.substr(processes) + rankJson + analyses;
}

}  // namespace

TEST_CASE("one generated run as text and as a database gives the same stats, to the ns") {
    const fs::path dir = test::TempDir("db_same_run");
    for (const bool planted : {false, true}) {
        CAPTURE(planted);
        GeneratorOptions options;
        options.events = 30000;
        options.seed = 7;
        if (planted) options = ComparisonSideB(options);
        const fs::path folder = dir / (planted ? "b" : "a");
        std::string error;
        REQUIRE_MESSAGE(
            WriteRankDirectory(options, folder.string(), &error, nullptr, RankExport::kBoth),
            error);
        const std::string text = StatsFromProcessesOn(folder.string(), RankSource::kText);
        const std::string database = StatsFromProcessesOn(folder.string(), RankSource::kDatabase);
        CHECK(text.size() > 10000);
        if (text != database) {
            size_t at = 0;
            while (at < text.size() && at < database.size() && text[at] == database[at]) ++at;
            const size_t from = at > 120 ? at - 120 : 0;
            FAIL_CHECK("first difference at byte " << at << ":\n  text: " << text.substr(from, 240)
                                                   << "\n  db:   " << database.substr(from, 240));
        }
    }
}

// A generated rank exported as a database, in dir/r: its profiler database.
fs::path GeneratedDatabaseRank(const fs::path& dir) {
    GeneratorOptions options;
    options.events = 20000;
    std::string error;
    REQUIRE_MESSAGE(
        WriteRankDirectory(options, (dir / "r").string(), &error, nullptr, RankExport::kDatabase),
        error);
    return SampleDb(dir / "r");
}

TEST_CASE("a table dropped from a generated database is one line naming what it changes") {
    const fs::path dir = test::TempDir("db_dropped_tables");
    const fs::path db = GeneratedDatabaseRank(dir);
    const std::string original = ReadBytes(db);
    const struct {
        const char* sql;
        const char* line;  // the one problem, after "<db>: error: " as the report gives it
    } cases[] = {
        {"DROP TABLE COMPUTE_TASK_INFO",
         "no table COMPUTE_TASK_INFO (schema 1.0.0): its device tasks are not known as compute "
         "tasks: named by their task type (AI_CORE…), with no operator table and no Computing "
         "rows"},
        {"DROP TABLE COMMUNICATION_OP",
         "no table COMMUNICATION_OP (schema 1.0.0): no communication operators (hcom_…): the "
         "operator table, the overlap rows and the communication figures leave communication "
         "out"},
        {"DROP TABLE COMMUNICATION_TASK_INFO",
         "no table COMMUNICATION_TASK_INFO (schema 1.0.0): communication tasks are shown on their "
         "streams only, named by their task type, not on HCCL's planes"},
        {"DROP TABLE META_DATA",
         "no table META_DATA (schema version unknown): tables and columns are read by name, and "
         "the job's parallel layout is not read from it"},
        {"DROP TABLE ENUM_API_TYPE",
         "no table ENUM_API_TYPE (schema 1.0.0): API types are shown as their numbers "
         "(10000@launch)"},
        // Without the table every name is missing: said once, not again as ids without a row.
        {"DROP TABLE STRING_IDS", "no table STRING_IDS: names read as <string N>"},
        // Both parts of the load (host and device rows) count theirs: one line.
        {"DELETE FROM STRING_IDS WHERE id IN (SELECT name FROM PYTORCH_API LIMIT 1) OR id IN "
         "(SELECT name FROM COMPUTE_TASK_INFO LIMIT 1)",
         nullptr},
        // One card's run has no HCCL tables at all: nothing is missing.
        {"DROP TABLE COMMUNICATION_OP; DROP TABLE COMMUNICATION_TASK_INFO", ""},
    };
    for (const auto& [sql, line] : cases) {
        CAPTURE(sql);
        std::ofstream(db, std::ios::binary | std::ios::trunc) << original;
        test::ExecuteSql(db, sql);
        auto loaded = LoadProfilerDatabase(db.string(), "");
        REQUIRE(loaded.ok());
        const std::vector<ImportProblem>& problems = loaded.value().model->report.problems;
        if (!line) {
            REQUIRE(problems.size() == 1);
            CHECK(problems[0].message.find(" string ids have no row in STRING_IDS: shown as "
                                           "<string N>") != std::string::npos);
        } else if (line[0] == 0) {
            CHECK_MESSAGE(problems.empty(), Problems(*loaded.value().model));
        } else {
            REQUIRE_MESSAGE(problems.size() == 1, Problems(*loaded.value().model));
            CHECK(problems[0].message == line);
        }
    }
    fs::remove_all(dir);
}

TEST_CASE("a generated database cut short reads each table up to its damage, said once") {
    const fs::path dir = test::TempDir("db_cut_short");
    const fs::path db = GeneratedDatabaseRank(dir);
    const std::string original = ReadBytes(db);
    // Cut short: each table reads up to its damage from a copy in memory, said once; a file cut
    // inside its schema gives nothing and is refused with why.
    const uint64_t fullSlices = [&] {
        std::ofstream(db, std::ios::binary | std::ios::trunc) << original;
        auto loaded = LoadProfilerDatabase(db.string(), "");
        REQUIRE(loaded.ok());
        return loaded.value().model->sliceCount;
    }();
    std::ofstream(db, std::ios::binary | std::ios::trunc)
        << original.substr(0, original.size() * 6 / 10);
    auto cut = LoadProfilerDatabase(db.string(), "");
    REQUIRE(cut.ok());
    CHECK(cut.value().model->sliceCount > fullSlices / 4);
    CHECK(cut.value().model->sliceCount < fullSlices);
    const std::string cutProblems = Problems(*cut.value().model);
    CHECK(cutProblems.find("the file is damaged (it holds ") != std::string::npos);
    CHECK(cutProblems.find(" pages): read from a copy in memory, each table up to its damage; "
                           "what lies past it is not shown") != std::string::npos);
    CHECK(cutProblems.find("(while reading ") != std::string::npos);
    CHECK(cutProblems.find(db.string()) == std::string::npos);  // the report adds it once
    CHECK(ReadBytes(db).size() == original.size() * 6 / 10);    // never written
    // Cut inside a page, and a file in write-ahead-log mode (the real sample's): the same, said
    // with where it was cut, and no rows of nothing from the part page.
    for (const bool wal : {false, true}) {
        CAPTURE(wal);
        std::string bytes = original.substr(0, original.size() * 6 / 10 + 1000);
        if (wal) bytes[18] = bytes[19] = 2;
        std::ofstream(db, std::ios::binary | std::ios::trunc) << bytes;
        auto part = LoadProfilerDatabase(db.string(), "");
        REQUIRE(part.ok());
        const std::string partProblems = Problems(*part.value().model);
        CHECK(partProblems.find(
                  "the file is damaged (it ends inside a page: " + std::to_string(bytes.size()) +
                  " bytes is not a whole number of 4096-byte pages)") != std::string::npos);
        CHECK(partProblems.find(", row 0:") == std::string::npos);
        CHECK(part.value().model->sliceCount > fullSlices / 4);
        for (const std::string& problem : part.value().tables.problems)
            CHECK(problem.find(", row 0:") == std::string::npos);
    }
    std::ofstream(db, std::ios::binary | std::ios::trunc) << original.substr(0, 4096);
    auto schemaCut = LoadProfilerDatabase(db.string(), "");
    REQUIRE_FALSE(schemaCut.ok());
    CHECK(schemaCut.message().find(": error: not a readable SQLite database (") ==
          db.string().size());
    CHECK(schemaCut.message().find("nothing could be salvaged") != std::string::npos);
    fs::remove_all(dir);
}

TEST_CASE("analysis.db: a table the run had, a NULL step, an empty file, a folder: each said") {
    const fs::path dir = test::TempDir("db_analysis_damaged");
    const fs::path db = GeneratedDatabaseRank(dir);
    const fs::path analysis = dir / "r" / "ASCEND_PROFILER_OUTPUT" / "analysis.db";
    const std::string analysisBytes = ReadBytes(analysis);
    const auto rankProblems = [&] {
        auto loaded = LoadProfilerDatabase(db.string(), analysis.string());
        REQUIRE(loaded.ok());
        return loaded.value().tables.problems;
    };
    const struct {
        const char* sql;
        const char* line;
    } analysisCases[] = {
        {"DROP TABLE CommAnalyzerTime",
         "no table CommAnalyzerTime: no communication operators or their waits"},
        {"DROP TABLE CommAnalyzerMatrix", "no table CommAnalyzerMatrix: no communication links"},
        {"DROP TABLE StepTraceTime",
         "no table StepTraceTime: the steps are computed from the profiler database's tasks"},
        {"UPDATE StepTraceTime SET step = NULL WHERE rowid = 1",
         "table StepTraceTime, row 1: its step is NULL; step left out"},
        {"INSERT INTO StepTraceTime SELECT * FROM StepTraceTime WHERE rowid = 1",
         "table StepTraceTime, row 68: a second row of step \"1\"; left out"},
        {"ALTER TABLE StepTraceTime RENAME COLUMN computing TO computed",
         "table StepTraceTime has no column computing: what it holds is left out"},
        {"UPDATE CommAnalyzerTime SET elapse_time = NULL WHERE rowid = 1",
         "table CommAnalyzerTime, row 1: its step or a time is NULL, or a time is not a duration "
         "in ms; operator left out"},
        {"UPDATE CommAnalyzerBandwidth SET transit_size = 1e300 WHERE rowid = 1",
         "table CommAnalyzerBandwidth, row 1: its transit size, time or bandwidth is NULL, "
         "negative or out of range; row left out"},
    };
    for (const auto& [sql, line] : analysisCases) {
        CAPTURE(sql);
        std::ofstream(analysis, std::ios::binary | std::ios::trunc) << analysisBytes;
        test::ExecuteSql(analysis, sql);
        const std::vector<std::string> problems = rankProblems();
        REQUIRE(problems.size() == 1);
        CHECK(problems[0] == analysis.string() + ": error: " + line);
    }
    // Cut short: salvaged as the profiler's database is, each table named where it broke off.
    std::ofstream(analysis, std::ios::binary | std::ios::trunc) << analysisBytes.substr(0, 50000);
    std::string cutLines;
    for (const std::string& line : rankProblems()) cutLines += line + "\n";
    CHECK(cutLines.find(analysis.string() + ": error: the file is damaged (it ends inside a page: "
                                            "50000 bytes") != std::string::npos);
    CHECK(cutLines.find("(while reading StepTraceTime; the rows before were kept)") !=
          std::string::npos);
    std::ofstream(analysis, std::ios::binary | std::ios::trunc) << analysisBytes.substr(0, 3000);
    const std::vector<std::string> noPage = rankProblems();
    REQUIRE(noPage.size() == 1);
    CHECK(noPage[0].find("nothing could be salvaged: not one whole page is there") !=
          std::string::npos);
    std::ofstream(analysis, std::ios::binary | std::ios::trunc);  // 0 bytes
    const std::vector<std::string> empty = rankProblems();
    REQUIRE(empty.size() == 1);
    CHECK(empty[0] == analysis.string() +
                          ": error: none of analysis.db's tables is in it: the steps are computed "
                          "from the profiler database's tasks, and no communication operators or "
                          "links are shown");
    fs::remove(analysis);
    fs::create_directory(analysis);
    auto files = FindRankFiles((dir / "r").string());
    REQUIRE(files.ok());
    CHECK(files.value().analysisDb.empty());
    REQUIRE(files.value().problems.size() == 1);
    CHECK(files.value().problems[0] ==
          analysis.string() + ": error: a folder, not a file; not read");
    fs::remove_all(dir);
}

TEST_CASE("a cluster of one text rank and one database rank reads both alike") {
    const fs::path dir = test::TempDir("db_mixed_cluster");
    GeneratorOptions options;
    options.events = 20000;
    std::string error;
    options.rank = 0;
    REQUIRE_MESSAGE(WriteRankDirectory(options, (dir / "rank0_ascend_pt").string(), &error, nullptr,
                                       RankExport::kText),
                    error);
    options.rank = 1;
    REQUIRE_MESSAGE(WriteRankDirectory(options, (dir / "rank1_ascend_pt").string(), &error, nullptr,
                                       RankExport::kDatabase),
                    error);
    auto cluster = LoadCluster(dir.string(), 2);
    REQUIRE_MESSAGE(cluster.ok(), cluster.message());
    REQUIRE(cluster.value().ranks.size() == 2);
    const ClusterRank& text = cluster.value().ranks[0];
    const ClusterRank& database = cluster.value().ranks[1];
    CHECK(text.rankId == RankId(0));
    CHECK(database.rankId == RankId(1));
    CHECK(text.steps.size() == database.steps.size());
    CHECK(text.collectives.size() == database.collectives.size());
    CHECK(text.operatorTypes.size() == database.operatorTypes.size());
    CHECK(database.overview.valid);
    CHECK(database.problems.empty());
}

TEST_CASE(
    "the galloping search of the database reader finds the first key not below, from any hint") {
    // Keys with repeats and gaps, searched for growing keys (the reader's usual order) from the
    // previous answer, and for any key from any hint.
    std::vector<int64_t> sorted;
    for (int64_t k = 0; k < 300; ++k)
        for (int64_t r = 0; r < k % 3; ++r) sorted.push_back(k * 2);
    const auto key = [](int64_t value) { return value; };
    size_t hint = 0;
    for (int64_t wanted = -1; wanted < 602; ++wanted) {
        const size_t expected = static_cast<size_t>(
            std::lower_bound(sorted.begin(), sorted.end(), wanted) - sorted.begin());
        hint = LowerBoundFrom(sorted, wanted, hint, key);
        REQUIRE(hint == expected);
        for (const size_t anyHint :
             {size_t{0}, sorted.size() / 2, sorted.size(), sorted.size() + 5})
            CHECK(LowerBoundFrom(sorted, wanted, anyHint, key) == expected);
    }
    CHECK(LowerBoundFrom(std::vector<int64_t>{}, 5, 0, key) == 0);
}
