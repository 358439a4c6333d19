// Nsight Systems exports: the real samples read into the model (counts equal SQL over the file),
// a job in one file as ranks, and damaged copies of a small export each named, nothing invented.
#include <sys/wait.h>

#include <doctest/doctest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>

#include <simdjson.h>

#include "KinetoTraceGenerator.hpp"
#include "NsysTwinWriter.hpp"
#include "TestSupport.hpp"
#include "db/SqliteFile.hpp"
#include "import/Importer.hpp"
#include "import/RowArrows.hpp"
#include "import/nsys/NsysExport.hpp"
#include "import/nsys/NsysImporter.hpp"
#include "import/nsys/NsysLoader.hpp"
#include "import/nsys/NsysRowDetails.hpp"
#include "load/CopyBytesTable.hpp"
#include "compare/Comparison.hpp"
#include "loading/ClusterLoader.hpp"
#include "loading/RankLoader.hpp"
#include "trace/DeviceActivities.hpp"
#include "trace/TraceAnalyses.hpp"

namespace fs = std::filesystem;
using namespace marey;

namespace {

// The first column of the first row of 'sql' over 'path' (opened read-only), or -1.
int64_t SqlInt(const std::string& path, const std::string& sql) {
    auto db = SqliteFile::OpenReadOnly(path);
    if (!db.ok()) return -1;
    auto statement = db.value()->Prepare(sql);
    if (!statement.ok() || !statement.value().Step()) return -1;
    return statement.value().Int(0);
}

// The slices of 'model' per (process name, thread name), over every row.
std::map<std::pair<std::string, std::string>, uint64_t> SlicesByThread(const TraceModel& model) {
    std::map<std::pair<std::string, std::string>, uint64_t> counts;
    for (const Track& track : model.tracks)
        if (track.kind == TrackKind::kThread && track.process < model.processes.size())
            counts[{std::string(model.Name(model.processes[track.process].name)),
                    std::string(model.Name(track.name))}] += track.sliceCount;
    return counts;
}

// Every slice name of 'model'.
std::multiset<std::string> SliceNames(const TraceModel& model) {
    std::multiset<std::string> names;
    for (const Track& track : model.tracks)
        for (const Row& row : track.rows)
            for (size_t i = 0; i < row.size(); ++i)
                names.insert(std::string(model.Name(row.name[i])));
    return names;
}

// A small export of one process (pid 42, thread 43) on device 0: three kernels launched by
// three cudaLaunchKernel calls, a copy, an NVTX range around them; names in StringIds.
fs::path WriteSmallExport(const fs::path& dir) {
    const fs::path path = dir / "small.sqlite";
    const int64_t globalPid = int64_t{42} << 24, globalTid = globalPid | 43;
    const std::string pid = std::to_string(globalPid), tid = std::to_string(globalTid);
    test::ExecuteSql(
        path,
        "CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL);"
        "INSERT INTO StringIds VALUES (1, 'gemm'), (2, 'void gemm<float>(float*)'),"
        " (3, 'cudaLaunchKernel_v7000'), (4, 'cudaMemcpyAsync_v3020'), (5, 'python3');"
        "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL, end INTEGER NOT NULL,"
        " deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, streamId INTEGER NOT NULL,"
        " correlationId INTEGER, globalPid INTEGER, demangledName INTEGER NOT NULL,"
        " shortName INTEGER NOT NULL, gridX INTEGER, blockX INTEGER);"
        "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES"
        " (2000, 3000, 0, 1, 7, 11, " +
            pid +
            ", 2, 1, 64, 256),"
            " (3500, 4500, 0, 1, 7, 12, " +
            pid +
            ", 2, 1, 64, 256),"
            " (5000, 6000, 0, 1, 7, 13, " +
            pid +
            ", 2, 1, 64, 256);"
            "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INTEGER NOT NULL, end INTEGER NOT NULL,"
            " deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, streamId INTEGER NOT NULL,"
            " correlationId INTEGER, globalPid INTEGER, bytes INTEGER NOT NULL,"
            " copyKind INTEGER NOT NULL, srcKind INTEGER, dstKind INTEGER);"
            "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES"
            " (7000, 8000, 0, 1, 7, 14, " +
            pid +
            ", 4096, 1, 0, 2);"
            "CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER NOT NULL, end INTEGER NOT "
            "NULL,"
            " eventClass INTEGER NOT NULL, globalTid INTEGER, correlationId INTEGER,"
            " nameId INTEGER NOT NULL, returnValue INTEGER NOT NULL);"
            "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES"
            " (1000, 1200, 0, " +
            tid + ", 11, 3, 0), (1300, 1500, 0, " + tid +
            ", 12, 3, 0),"
            " (1600, 1800, 0, " +
            tid + ", 13, 3, 0), (1900, 2100, 0, " + tid +
            ", 14, 4, 0);"
            "CREATE TABLE NVTX_EVENTS (start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT "
            "NULL,"
            " text TEXT, globalTid INTEGER, textId INTEGER, domainId INTEGER);"
            "INSERT INTO NVTX_EVENTS VALUES (900, 2200, 59, 'aten::mm, op_id = 17', " +
            tid +
            ", NULL, 0);"
            "CREATE TABLE PROCESSES (globalPid INTEGER, pid INTEGER, name TEXT);"
            "INSERT INTO PROCESSES VALUES (" +
            pid +
            ", 42, 'python3');"
            "CREATE TABLE ThreadNames (nameId INTEGER NOT NULL, priority INTEGER, globalTid "
            "INTEGER);"
            "INSERT INTO ThreadNames VALUES (5, 0, " +
            tid + ");");
    return path;
}

std::unique_ptr<TraceModel> LoadModel(const fs::path& path) {
    auto loaded = LoadNsysExport(path.string());
    REQUIRE_MESSAGE(loaded.ok(), loaded.message());
    return std::move(loaded.value().model);
}

}  // namespace

// [SECTION] One export: its model, its damage

TEST_CASE("an Nsight Systems export: processes, streams, names as Kineto writes them, arrows") {
    const fs::path dir = test::TempDir("nsys_small");
    const fs::path path = WriteSmallExport(dir);
    auto chosen = ChooseImporter(path.string());
    REQUIRE(chosen.ok());
    CHECK(chosen.value()->kind == SourceKind::kNsysExport);

    const auto model = LoadModel(path);
    CHECK(model->report.problems.empty());
    const auto byThread = SlicesByThread(*model);
    CHECK(byThread.at({"python3", "python3"}) == 5);  // 4 calls and the NVTX range
    CHECK(byThread.at({"GPU 0", "stream 7"}) == 4);   // 3 kernels and the copy
    const auto names = SliceNames(*model);
    CHECK(names.count("cudaLaunchKernel") == 3);  // without Nsight's "_v7000"
    CHECK(names.count("void gemm<float>(float*)") == 3);
    CHECK(names.count("Memcpy HtoD (Pageable -> Device)") == 1);
    CHECK(names.count("aten::mm") == 1);  // emit_nvtx's ", op_id = 17" is in the details
    CHECK(model->report.matchedFlows == 4);
    CHECK(model->sources.front().copyBytes.Find(NsysRef(NsysTable::kMemcpy, 1)) == 4096u);

    // The device analyses read it as they read a PyTorch trace: every activity, each launch.
    const DeviceActivities activities = FindDeviceActivities(*model, 1);
    REQUIRE(activities.activities.size() == 4);
    for (const DeviceActivity& activity : activities.activities)
        CHECK(activity.launch != kNoLaunch);
    CHECK(activities.activities.back().kind.memory == MemoryKind::kCopyHostToDevice);

    // A selected kernel's details: its row, names resolved.
    const EventDetails details =
        ReadRowDetails(model->sources.front(), NsysRef(NsysTable::kKernel, 2));
    CHECK(details.error.empty());
    std::map<std::string, std::string> args(details.args.begin(), details.args.end());
    CHECK(args["demangledName"] == "void gemm<float>(float*)");
    CHECK(args["start"] == "3500");
    CHECK(args["globalPid"] == std::to_string(int64_t{42} << 24) + " (pid 42)");
    fs::remove_all(dir);
}

TEST_CASE("a damaged Nsight Systems export: each damage named by table and row, nothing invented") {
    struct Damage {
        const char* name;
        const char* sql;
        const char* message;  // a part of the problem it must give ("" for none)
        uint64_t slices;      // slices left in the model
    };
    const Damage damages[] = {
        {"end before start", "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET end = 10 WHERE rowid = 2",
         "table CUPTI_ACTIVITY_KIND_KERNEL, row 2: end 10 is before start 3500; left out", 8},
        {"text in an integer column",
         "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start = 'soon' WHERE rowid = 1",
         "table CUPTI_ACTIVITY_KIND_KERNEL, row 1: start is not a time in ns; left out", 8},
        {"a string id pointing nowhere", "UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET nameId = 99",
         "string ids have no row in StringIds: shown as <string N>", 9},
        {"a negative correlation id",
         "UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET correlationId = -5 WHERE rowid = 1",
         "table CUPTI_ACTIVITY_KIND_RUNTIME, row 1: correlationId \"-5\" is not a correlation id",
         9},
        {"a stream id that is not one", "UPDATE CUPTI_ACTIVITY_KIND_MEMCPY SET streamId = 'x'",
         "table CUPTI_ACTIVITY_KIND_MEMCPY, row 1: streamId is not a stream number; left out", 8},
        {"a table dropped", "DROP TABLE CUPTI_ACTIVITY_KIND_RUNTIME", "", 5},
        {"a column dropped", "ALTER TABLE CUPTI_ACTIVITY_KIND_MEMCPY DROP COLUMN bytes",
         "table CUPTI_ACTIVITY_KIND_MEMCPY has no column bytes", 9},
        {"a range never ended", "UPDATE NVTX_EVENTS SET end = NULL",
         "table NVTX_EVENTS: 1 ranges have no end", 8},
        {"the string table dropped", "DROP TABLE StringIds",
         "the export has no table StringIds: every name reads <string N>", 9},
    };
    for (const Damage& damage : damages) {
        CAPTURE(damage.name);
        const fs::path dir = test::TempDir("nsys_damage");
        const fs::path path = WriteSmallExport(dir);
        test::ExecuteSql(path, damage.sql);
        auto loaded = LoadNsysExport(path.string());
        REQUIRE_MESSAGE(loaded.ok(), loaded.message());
        const TraceModel& model = *loaded.value().model;
        CHECK(model.sliceCount == damage.slices);
        if (*damage.message) {
            CHECK_MESSAGE(test::ProblemText(model).find(damage.message) != std::string::npos,
                          test::ProblemText(model));
        } else {
            CHECK(model.report.problems.empty());
            CHECK(loaded.value().note.find("CUPTI_ACTIVITY_KIND_RUNTIME (no CUDA runtime calls)") !=
                  std::string::npos);
        }
        fs::remove_all(dir);
    }
}

TEST_CASE("a .sqlite file of another program is named as not an export, not read as JSON") {
    const fs::path dir = test::TempDir("nsys_other");
    const fs::path path = dir / "notes.sqlite";
    test::ExecuteSql(path, "CREATE TABLE notes (id INTEGER, text TEXT);");
    auto chosen = ChooseImporter(path.string());
    REQUIRE(chosen.ok());
    CHECK(chosen.value()->kind == SourceKind::kNsysExport);
    auto loaded = LoadRank(path.string(), {});
    REQUIRE_FALSE(loaded.ok());
    CHECK(loaded.message() ==
          path.string() +
              ": error: not an Nsight Systems export: it has none of the tables "
              "CUPTI_ACTIVITY_KIND_KERNEL, CUPTI_ACTIVITY_KIND_RUNTIME, NVTX_EVENTS and the "
              "others nsys export writes");
    fs::remove_all(dir);
}

TEST_CASE("an export cut short or of garbage: refused or read up to the damage, never a crash") {
    const fs::path dir = test::TempDir("nsys_cut");
    const fs::path path = WriteSmallExport(dir);
    const uintmax_t size = fs::file_size(path);
    for (const uintmax_t keep : {uintmax_t{0}, uintmax_t{100}, size / 2, size - 1}) {
        CAPTURE(keep);
        const fs::path cut = dir / ("cut" + std::to_string(keep) + ".sqlite");
        fs::copy_file(path, cut);
        fs::resize_file(cut, keep);
        auto loaded = LoadNsysExport(cut.string());
        if (!loaded.ok()) CHECK(loaded.message().find(cut.string()) != std::string::npos);
    }
    fs::remove_all(dir);
}

// [SECTION] The real samples and the generated twin

TEST_CASE("the real Nsight Systems samples: counts equal SQL over the file, a rank per process") {
    const std::string fixtures = test::FixturesDir();
    if (fixtures.empty()) return;
    const std::string path = fixtures + "/nsys-ai/tests/fixtures/h100_2gpu_1s.sqlite";
    auto loaded = LoadNsysExport(path);
    REQUIRE_MESSAGE(loaded.ok(), loaded.message());
    const TraceModel& model = *loaded.value().model;
    CHECK(model.report.problems.empty());
    CHECK(loaded.value().note ==
          "schema 3.25.0; capture started 2026-05-24T13:40:14 UTC; not in this export: "
          "CUPTI_ACTIVITY_KIND_DRIVER (no CUDA driver calls)");
    // Two python processes under torchrun, each on its own GPU: two ranks, ids from the device.
    REQUIRE(loaded.value().ranks.size() == 2);
    CHECK(loaded.value().ranks[0].rank == 0);
    CHECK(loaded.value().ranks[1].rank == 1);
    REQUIRE(model.groups.size() == 2);
    CHECK(model.groups[1].label == "rank 1");

    // Per rank (group) the slices of each kind, against SQL over the file.
    for (uint32_t g = 0; g < 2; ++g) {
        CAPTURE(g);
        const int64_t globalPid = loaded.value().ranks[g].process.globalPid;
        const std::string ofPid = " WHERE globalPid = " + std::to_string(globalPid);
        const std::string ofThreads = " WHERE globalTid >= " + std::to_string(globalPid) +
                                      " AND globalTid < " + std::to_string(globalPid + (1 << 24));
        uint64_t device = 0, host = 0;
        for (uint32_t t = 0; t < model.tracks.size(); ++t) {
            if (model.GroupOf(t) != g || model.tracks[t].process >= model.processes.size())
                continue;
            const std::string process(model.Name(model.processes[model.tracks[t].process].name));
            (process.rfind("GPU ", 0) == 0 ? device : host) += model.tracks[t].sliceCount;
        }
        const int64_t kernels =
            SqlInt(path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL" + ofPid);
        CHECK(kernels == 1721);
        CHECK(
            device ==
            static_cast<uint64_t>(
                kernels + SqlInt(path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY" + ofPid) +
                SqlInt(path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMSET" + ofPid) +
                SqlInt(path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION" + ofPid)));
        CHECK(host ==
              static_cast<uint64_t>(
                  SqlInt(path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME" + ofThreads) +
                  SqlInt(path, "SELECT count(*) FROM NVTX_EVENTS" + ofThreads)));
    }
    // Launch arrows: the correlation-id join of each process's calls and its GPU work.
    const int64_t pairs = SqlInt(
        path,
        "SELECT (SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k WHERE EXISTS (SELECT 1 FROM "
        "CUPTI_ACTIVITY_KIND_RUNTIME r WHERE r.correlationId = k.correlationId AND r.globalTid >> "
        "24 = k.globalPid >> 24)) + (SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY k WHERE "
        "EXISTS (SELECT 1 FROM CUPTI_ACTIVITY_KIND_RUNTIME r WHERE r.correlationId = "
        "k.correlationId AND r.globalTid >> 24 = k.globalPid >> 24)) + (SELECT count(*) FROM "
        "CUPTI_ACTIVITY_KIND_MEMSET k WHERE EXISTS (SELECT 1 FROM CUPTI_ACTIVITY_KIND_RUNTIME r "
        "WHERE r.correlationId = k.correlationId AND r.globalTid >> 24 = k.globalPid >> 24))");
    CHECK(pairs == 2092);
    CHECK(model.report.matchedFlows == static_cast<uint64_t>(pairs));

    // The analyses: one rank per process, its id said to come from its CUDA device.
    TraceAnalysisOptions options;
    const TraceAnalyses analyses = AnalyzeTrace(model, options);
    REQUIRE(analyses.ranks.size() == 2);
    CHECK(analyses.ranks[1].rank == 1);
    CHECK(analyses.ranks[1].rankFrom == RankIdSource::kCudaDevice);
    CHECK(analyses.ranks[0].all.launch.count == 1046);

    // The before/after sample: NCCL's SendRecv kernels are communication.
    auto before = LoadRank(fixtures + "/nsys-ai/tests/fixtures/mfu_2gpu_before.sqlite", {});
    REQUIRE_MESSAGE(before.ok(), before.message());
    CHECK(before.value().model->report.problemCount == 0);
    const DeviceActivities activities = FindDeviceActivities(*before.value().model, 1);
    uint64_t sendRecv = 0;
    for (const DeviceActivity& activity : activities.activities)
        if (std::string(before.value().model->Name(activity.name))
                .rfind("ncclDevKernel_SendRecv", 0) == 0) {
            ++sendRecv;
            CHECK(activity.kind.activityClass == ActivityClass::kCommunication);
        }
    CHECK(sendRecv == static_cast<uint64_t>(SqlInt(
                          fixtures + "/nsys-ai/tests/fixtures/mfu_2gpu_before.sqlite",
                          "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON "
                          "s.id = k.demangledName WHERE s.value LIKE 'ncclDevKernel_SendRecv%'")));
}

TEST_CASE("a generated Kineto trace and its export twin: the same analyses in stats --json") {
    const fs::path dir = test::TempDir("nsys_twin");
    const fs::path trace = dir / "gpu.json", twin = dir / "gpu.sqlite";
    KinetoTraceOptions options;
    options.events = 20000;
    const std::string text =
        test::WrittenText([&](std::FILE* out) { GenerateKinetoTrace(options, out); });
    {
        std::FILE* file = std::fopen(trace.c_str(), "wb");
        REQUIRE(file);
        std::fwrite(text.data(), 1, text.size(), file);
        std::fclose(file);
    }
    NsysTwinReport report;
    std::string error;
    REQUIRE_MESSAGE(WriteNsysTwin(text, twin.string(), &report, &error), error);
    CHECK(report.kernels > 1000);
    auto statsOf = [](const fs::path& path) {
        int status = 0;
        const std::string json =
            test::RunCommand(std::string(MAREY_BINARY) + " stats --json " + path.string(), &status);
        CHECK(status == 0);
        return json;
    };
    const std::string jsonA = statsOf(trace), jsonB = statsOf(twin);
    simdjson::dom::parser parserA, parserB;
    simdjson::dom::element a, b;
    REQUIRE(parserA.parse(jsonA).get(a) == simdjson::SUCCESS);
    REQUIRE(parserB.parse(jsonB).get(b) == simdjson::SUCCESS);
    // Every device analysis, to the ns; only where the rank id came from differs (the trace's
    // distributedInfo; the export has none).
    auto analyses = [](simdjson::dom::element root) {
        std::string text = simdjson::minify(root["analyses"]);
        for (const char* from : {"\"rank_from\":\"distributedInfo\"", "\"rank_from\":\"order\""}) {
            const size_t at = text.find(from);
            if (at != std::string::npos) text.replace(at, std::strlen(from), "\"rank_from\":_");
        }
        return text;
    };
    CHECK(analyses(a) == analyses(b));
    for (const char* key : {"overview", "operators", "steps"})
        CHECK_MESSAGE(simdjson::minify(a["rank"][key]) == simdjson::minify(b["rank"][key]), key);
    fs::remove_all(dir);
}

TEST_CASE("an export's timeline is given to the window before its analyses are computed") {
    const fs::path dir = test::TempDir("nsys_timeline_first");
    const fs::path twin = dir / "gpu.sqlite";
    KinetoTraceOptions options;
    options.events = 5000;
    const std::string text =
        test::WrittenText([&](std::FILE* out) { GenerateKinetoTrace(options, out); });
    std::string error;
    REQUIRE_MESSAGE(WriteNsysTwin(text, twin.string(), nullptr, &error), error);
    LoadProgress progress;
    LoadOptions load;
    size_t given = 0, tracks = 0;
    const char* analysisThen = "not called";
    load.timelineReady = [&](const std::shared_ptr<TraceModel>& model) {
        ++given, tracks = model->tracks.size(), analysisThen = progress.analysis.load();
    };
    auto loaded = LoadRank(twin.string(), load, &progress);
    REQUIRE_MESSAGE(loaded.ok(), (loaded.ok() ? "" : loaded.message()));
    CHECK(given == 1);
    CHECK(tracks == loaded.value().model->tracks.size());
    CHECK(analysisThen == nullptr);  // no analysis had started
    CHECK(progress.analysis.load() != nullptr);
    fs::remove_all(dir);
}

// [SECTION] Clusters, comparison, steps and check

TEST_CASE("a folder of per-rank exports opens as a cluster, each rank as it opens alone") {
    const fs::path dir = test::TempDir("nsys_cluster");
    for (uint32_t rank = 0; rank < 2; ++rank) {
        KinetoTraceOptions options;
        options.events = 5000;
        options.rank = rank;
        options.seed = 7 + rank;
        const std::string text =
            test::WrittenText([&](std::FILE* out) { GenerateKinetoTrace(options, out); });
        std::string error;
        REQUIRE_MESSAGE(
            WriteNsysTwin(text, (dir / ("run_rank-" + std::to_string(rank) + ".sqlite")).string(),
                          nullptr, &error),
            error);
    }
    auto cluster = LoadCluster(dir.string(), 2);
    REQUIRE_MESSAGE(cluster.ok(), cluster.message());
    REQUIRE(cluster.value().ranks.size() == 2);
    for (uint32_t r = 0; r < 2; ++r) {
        CAPTURE(r);
        const ClusterRank& rank = cluster.value().ranks[r];
        CHECK(rank.rankId == RankId(static_cast<int>(r)));
        CHECK(rank.problems.empty());
        CHECK_FALSE(rank.steps.empty());  // from the NVTX ranges named ProfilerStep#N
        auto alone = LoadRank(rank.path, {});
        REQUIRE(alone.ok());
        CHECK(alone.value().analysis->overview.computingNs == rank.overview.computingNs);
        CHECK(alone.value().analysis->overview.freeNs == rank.overview.freeNs);
    }
    fs::remove_all(dir);
}

TEST_CASE(
    "comparing exports: an export and its Kineto twin match, a slowed kernel leads the diff") {
    const fs::path dir = test::TempDir("nsys_compare");
    const fs::path trace = dir / "gpu.json", before = dir / "before.sqlite",
                   after = dir / "after.sqlite";
    KinetoTraceOptions options;
    options.events = 10000;
    const std::string text =
        test::WrittenText([&](std::FILE* out) { GenerateKinetoTrace(options, out); });
    {
        std::ofstream file(trace, std::ios::binary);
        file << text;
    }
    std::string error;
    REQUIRE_MESSAGE(WriteNsysTwin(text, before.string(), nullptr, &error), error);
    REQUIRE_MESSAGE(WriteNsysTwin(text, after.string(), nullptr, &error), error);
    // The after side: every run of the busiest kernel takes twice as long.
    const int64_t busiestId = SqlInt(
        before.string(),
        "SELECT demangledName FROM CUPTI_ACTIVITY_KIND_KERNEL GROUP BY demangledName ORDER BY "
        "sum(end - start) DESC LIMIT 1");
    REQUIRE(busiestId >= 0);
    test::ExecuteSql(after,
                     "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET end = end + (end - start) "
                     "WHERE demangledName = " +
                         std::to_string(busiestId));
    auto load = [](const fs::path& path) {
        auto loaded = LoadRank(path.string(), {});
        REQUIRE_MESSAGE(loaded.ok(), loaded.message());
        return std::move(loaded.value());
    };
    const LoadedRank kineto = load(trace), exportA = load(before), exportB = load(after);

    // The same program recorded by both profilers: every kernel matched by name, no difference.
    const Comparison same = CompareRanks(kineto, exportA, {});
    REQUIRE_FALSE(same.diff.operators.empty());
    for (const OperatorDiff& op : same.diff.operators) {
        CAPTURE(op.name);
        CHECK(op.countA == op.countB);
        CHECK(op.DiffNs() == 0);
    }
    // Before against after: the slowed kernel first, twice its time.
    const Comparison changed = CompareRanks(exportA, exportB, {});
    REQUIRE_FALSE(changed.diff.operators.empty());
    const OperatorDiff& first = changed.diff.operators.front();
    CHECK(first.totalB == 2 * first.totalA);
    CHECK(first.countA == first.countB);
    const std::string name = [&] {
        auto db = SqliteFile::OpenReadOnly(before.string());
        auto statement = db.value()->Prepare("SELECT value FROM StringIds WHERE id = " +
                                             std::to_string(busiestId));
        REQUIRE((statement.ok() && statement.value().Step()));
        return std::string(statement.value().Text(0));
    }();
    CHECK(first.name == name);
    fs::remove_all(dir);
}

TEST_CASE("kernels of a CUDA graph are the graph launch's work, not unlaunched") {
    const fs::path dir = test::TempDir("nsys_graph");
    const fs::path path = WriteSmallExport(dir);
    // One cudaGraphLaunch (correlation 20) ran two kernels of a graph (graphId 5, nodes 1 and 2).
    const int64_t globalPid = int64_t{42} << 24, globalTid = globalPid | 43;
    test::ExecuteSql(path,
                     "ALTER TABLE CUPTI_ACTIVITY_KIND_KERNEL ADD COLUMN graphId INTEGER;"
                     "ALTER TABLE CUPTI_ACTIVITY_KIND_KERNEL ADD COLUMN graphNodeId INTEGER;"
                     "INSERT INTO StringIds VALUES (9, 'cudaGraphLaunch_v10000');"
                     "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (9000, 9100, 0, " +
                         std::to_string(globalTid) +
                         ", 20, 9, 0);"
                         "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES"
                         " (9200, 9300, 0, 1, 7, 20, " +
                         std::to_string(globalPid) +
                         ", 2, 1, 64, 256, 5, 1), (9300, 9400, 0, 1, 7, 20, " +
                         std::to_string(globalPid) + ", 2, 1, 64, 256, 5, 2);");
    const auto model = LoadModel(path);
    const DeviceActivities activities = FindDeviceActivities(*model, 1);
    REQUIRE(activities.activities.size() == 6);
    for (const DeviceActivity& activity : activities.activities)
        CHECK(activity.launch != kNoLaunch);
    const DeviceActivity& last = activities.activities.back();
    CHECK(model->Name(activities.launches[static_cast<size_t>(last.launch)].name) ==
          "cudaGraphLaunch");
    CHECK(model->report.matchedFlows == 6);
    fs::remove_all(dir);
}

TEST_CASE("--step-range: an export's NVTX ranges of a given name are its steps") {
    const fs::path dir = test::TempDir("nsys_steps");
    const fs::path path = WriteSmallExport(dir);
    const std::string tid = std::to_string(int64_t{42} << 24 | 43);
    test::ExecuteSql(path, "INSERT INTO NVTX_EVENTS VALUES (800, 4000, 59, 'train_step', " + tid +
                               ", NULL, 0), (4000, 8500, 59, 'train_step', " + tid + ", NULL, 0);");
    LoadOptions options;
    auto without = LoadRank(path.string(), options);
    REQUIRE(without.ok());
    REQUIRE(without.value().analysis->trace);
    CHECK(without.value().analysis->trace->steps.empty());
    options.stepRange = "train_step";
    auto with = LoadRank(path.string(), options);
    REQUIRE(with.ok());
    const TraceAnalyses& analyses = *with.value().analysis->trace;
    REQUIRE(analyses.steps.size() == 2);
    CHECK(analyses.steps[0].label == "1");
    CHECK(analyses.steps[0].startNs == 800);
    CHECK(analyses.steps[1].endNs == 8500);
    CHECK(with.value().model->report.problems.empty());
    // A name no range has is said, and nothing is invented.
    options.stepRange = "no_such_range";
    auto none = LoadRank(path.string(), options);
    REQUIRE(none.ok());
    CHECK(none.value().analysis->trace->steps.empty());
    CHECK(test::ProblemText(*none.value().model).find("no NVTX range is named \"no_such_range\"") !=
          std::string::npos);
    fs::remove_all(dir);
}

TEST_CASE("the real two-process export as a cluster: a rank per process, ids from the devices") {
    const std::string fixtures = test::FixturesDir();
    if (fixtures.empty()) return;
    const std::string path = fixtures + "/nsys-ai/tests/fixtures/h100_2gpu_1s.sqlite";
    CHECK(IsNsysJob(path));
    CHECK_FALSE(IsNsysJob(fixtures + "/nsys-ai/tests/fixtures/healthy_1pct.sqlite"));
    auto cluster = LoadCluster(path, 2);
    REQUIRE_MESSAGE(cluster.ok(), cluster.message());
    CHECK(cluster.value().source == ClusterSource::kExportProcesses);
    REQUIRE(cluster.value().ranks.size() == 2);
    for (int r = 0; r < 2; ++r) {
        CAPTURE(r);
        const ClusterRank& rank = cluster.value().ranks[static_cast<size_t>(r)];
        CHECK(rank.rankId == RankId(r));
        CHECK(rank.rankSource == "the CUDA device of the export's process");
        CHECK(rank.problems.empty());
        REQUIRE(rank.kernels);
        // Its kernels and copies: the rows of its process, as SQL counts them.
        const int64_t globalPid =
            NsysRanks(*SqliteFile::OpenReadOnly(path).value())[r].process.globalPid;
        CHECK(static_cast<int64_t>(rank.kernels->rows.size()) ==
              SqlInt(path,
                     "SELECT (SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE globalPid = " +
                         std::to_string(globalPid) +
                         ") + (SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE globalPid = " +
                         std::to_string(globalPid) +
                         ") + (SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMSET WHERE globalPid = " +
                         std::to_string(globalPid) + ")"));
    }
}

TEST_CASE("opening an export changes none of its bytes, nor its modification time") {
    const fs::path dir = test::TempDir("nsys_readonly");
    const fs::path path = WriteSmallExport(dir);
    auto bytesOf = [](const fs::path& file) {
        std::ifstream in(file, std::ios::binary);
        return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    };
    const std::string before = bytesOf(path);
    const auto time = fs::last_write_time(path);
    {
        auto rank = LoadRank(path.string(), {});
        REQUIRE(rank.ok());
        (void)ReadRowDetails(rank.value().model->sources.front(), NsysRef(NsysTable::kKernel, 1));
    }
    CHECK(bytesOf(path) == before);
    CHECK(fs::last_write_time(path) == time);
    for (const char* beside : {"-wal", "-shm", "-journal"})
        CHECK_FALSE(fs::exists(path.string() + beside));
    fs::remove_all(dir);
}

TEST_CASE("check between two exports: a slowed kernel is a regression, exit status 1") {
    const fs::path dir = test::TempDir("nsys_check");
    KinetoTraceOptions options;
    options.events = 10000;
    const std::string text =
        test::WrittenText([&](std::FILE* out) { GenerateKinetoTrace(options, out); });
    std::string error;
    const fs::path before = dir / "before.sqlite", after = dir / "after.sqlite";
    REQUIRE_MESSAGE(WriteNsysTwin(text, before.string(), nullptr, &error), error);
    REQUIRE_MESSAGE(WriteNsysTwin(text, after.string(), nullptr, &error), error);
    test::ExecuteSql(after,
                     "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET end = end + (end - start) WHERE "
                     "demangledName = (SELECT demangledName FROM CUPTI_ACTIVITY_KIND_KERNEL GROUP "
                     "BY demangledName ORDER BY sum(end - start) DESC LIMIT 1)");
    int status = 0;
    const std::string same = test::RunCommand(
        std::string(MAREY_BINARY) + " check " + before.string() + " " + before.string() + " 2>&1",
        &status);
    CHECK_MESSAGE(status == 0, same);
    const std::string changed = test::RunCommand(
        std::string(MAREY_BINARY) + " check " + before.string() + " " + after.string() + " 2>&1",
        &status);
    CHECK_MESSAGE(WEXITSTATUS(status) == 1, changed);
    CHECK(changed.find("regression: operator ") != std::string::npos);
    fs::remove_all(dir);
}

TEST_CASE("NVTX: a range's recorded colour is its name's, its domain named in Details") {
    const fs::path dir = test::TempDir("nsys_nvtx");
    const fs::path path = WriteSmallExport(dir);
    const std::string tid = std::to_string(int64_t{42} << 24 | 43);
    test::ExecuteSql(path,
                     "ALTER TABLE NVTX_EVENTS ADD COLUMN color INTEGER;"
                     "INSERT INTO NVTX_EVENTS VALUES (100, NULL, 75, 'megatron', NULL, NULL, 3, "
                     "NULL), (300, 700, 59, 'forward', " +
                         tid + ", NULL, 3, 4278255360);");  // 0xFF00FF00: green
    const auto model = LoadModel(path);
    CHECK(model->report.problems.empty());
    REQUIRE(model->recordedColors.count("forward") == 1);
    CHECK(model->recordedColors.at("forward") == 0xFF00FF00u);
    CHECK(model->recordedColors.count("aten::mm") == 0);
    const EventDetails details =
        ReadRowDetails(model->sources.front(), NsysRef(NsysTable::kNvtx, 3));
    std::map<std::string, std::string> args(details.args.begin(), details.args.end());
    CHECK(args["domainId"] == "3 (megatron)");
    CHECK(args["text"] == "forward");
    fs::remove_all(dir);
}

TEST_CASE("copy bytes: found by reference, absent ones none") {
    CopyBytesTable table;
    table.Append(5, 100);
    table.Append(9, 7);
    CHECK(table.Find(9) == 7u);
    CHECK_FALSE(table.Find(6).has_value());
}
