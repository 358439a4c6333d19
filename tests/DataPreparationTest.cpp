// Data preparation: MindSpore's MindData files read to the digit, the pipeline's bottleneck by
// the tuning method's three queue rules, each step's verdict, and damaged rows named.
#include <doctest/doctest.h>
#include <simdjson.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "TestSupport.hpp"
#include "ClusterGenerator.hpp"
#include "cluster/ClusterFindings.hpp"
#include "cluster/ClusterRankFile.hpp"
#include "cluster/ClusterSource.hpp"
#include "loading/ClusterLoader.hpp"
#include "import/Importer.hpp"
#include "load/MindDataFiles.hpp"
#include "load/MindDataJson.hpp"
#include "load/RankDirectory.hpp"
#include "rank/DataPreparation.hpp"
#include "report/DataPreparationJson.hpp"

using namespace marey;
namespace fs = std::filesystem;

namespace {

const char* kHeader =
    "op_id,op_type,num_workers,output_queue_size,output_queue_average_size,output_queue_length,"
    "output_queue_usage_rate,sample_interval,parent_id,children_id\n";

// A pipeline of Batch (root) ← Map 4 ← Shuffle 1 ← readers 2 and 3, with the usage of each
// output queue given (out of a capacity of 64).
std::string Pipeline(double map, double shuffle, double readers) {
    const auto row = [](int id, const char* type, double usage, int parent,
                        const std::string& children) {
        const int size = static_cast<int>(usage * 64 + 0.5);
        return std::to_string(id) + "," + type + ",4,\"[" + std::to_string(size) + ", " +
               std::to_string(size) + "]\"," + std::to_string(size) + ".0,64," +
               std::to_string(usage) + ",10," + std::to_string(parent) + "," + children + "\n";
    };
    return std::string(kHeader) + "0,Batch,4,,,,0,10,,[4]\n" + row(4, "MapOp", map, 0, "[1]") +
           row(1, "Shuffle", shuffle, 4, "\"[2, 3]\"") + row(2, "TFReader", readers, 1, "") +
           row(3, "TFReader", readers, 1, "");
}

std::vector<int> BottleneckIds(const std::string& csv) {
    auto table = ParsePipelineRawCsv(csv, "pipeline.csv");
    REQUIRE(table.ok());
    CHECK(table.value().problems.empty());
    const DataPipeline pipeline = AnalyzePipeline(table.value().operators);
    std::vector<int> ids;
    for (const DataBottleneck& bottleneck : pipeline.bottlenecks) ids.push_back(bottleneck.opId);
    return ids;
}

}  // namespace

// [SECTION] The queue rules and the verdicts

TEST_CASE("the pipeline's bottleneck is the operator the three queue rules name") {
    // Full input queues and a nearly empty output queue: the operator between them.
    CHECK(BottleneckIds(Pipeline(0.1, 0.95, 0.5)) == std::vector<int>{4});
    // Every queue full: the last operator, whose input never drains.
    CHECK(BottleneckIds(Pipeline(0.9, 0.95, 0.9)) == std::vector<int>{0});
    // Every queue nearly empty: the sources, which produce too slowly.
    CHECK(BottleneckIds(Pipeline(0.1, 0.1, 0.1)) == std::vector<int>{2, 3});
    // Queues half full: nothing the rules name.
    CHECK(BottleneckIds(Pipeline(0.5, 0.5, 0.5)).empty());

    auto table = ParsePipelineRawCsv(Pipeline(0.1, 0.95, 0.5), "pipeline.csv");
    const DataPipeline pipeline = AnalyzePipeline(table.value().operators);
    REQUIRE(pipeline.bottlenecks.size() == 1);
    CHECK(pipeline.bottlenecks[0].rule ==
          "its input queues are full (95.0 % used) and its output queue is nearly empty (10.0 %)");
    CHECK(pipeline.bottlenecks[0].suggestion ==
          "raise its num_parallel_workers; if it runs a Python operation, make that script "
          "faster");
    // Drawn left to right: the readers first, the root last.
    CHECK(pipeline.column == std::vector<int>{3, 2, 1, 0, 0});
    // A source on a shorter branch is still drawn first: Batch <- Zip <- (Map <- Reader, Reader).
    const std::string branches = std::string(kHeader) + "0,Batch,1,,,,,10,,[1]\n" +
                                 "1,Zip,1,,,,,10,0,\"[2, 4]\"\n2,MapOp,1,,,,,10,1,[3]\n" +
                                 "3,TFReader,1,,,,,10,2,\n4,TFReader,1,,,,,10,1,\n";
    CHECK(AnalyzePipeline(ParsePipelineRawCsv(branches, "b.csv").value().operators).column ==
          std::vector<int>{3, 2, 1, 0, 0});
    const DataPipeline sources =
        AnalyzePipeline(ParsePipelineRawCsv(Pipeline(0.1, 0.1, 0.1), "p.csv").value().operators);
    CHECK(sources.bottlenecks[0].suggestion == "raise the dataset's num_parallel_workers");
}

TEST_CASE("each step's queues give its verdict, and the record its bottleneck") {
    const fs::path dir = test::TempDir("data_preparation_steps");
    const auto write = [&](const std::string& name, const std::string& text) {
        std::ofstream(dir / name) << text;
        return (dir / name).string();
    };
    DataPreparationFiles files;
    // Steps 1-4 on the host queue: sizes 3, 0, 0, 5 of 64, and push times.
    files.hostQueue = write("device_queue_profiling_0.txt",
                            "1 64 1 3 10\n1 64 2 0 10\n1 64 3 0 10\n1 64 4 5 10\n0 1 1 2.5 10\n");
    // The device's data queue: steps 1, 2 and 4 empty (step 3 holds 2 batches).
    files.deviceQueue = write("minddata_aicpu_0.txt",
                              "GetNext_dequeue_wait 1000 1500 0\nother_op 1 2 3\n"
                              "GetNext_dequeue_wait 2000 2100 0\nGetNext_dequeue_wait 3000 3001 "
                              "2\nGetNext_dequeue_wait 4000 4900 0\n");
    StepTrace steps;
    for (int i = 1; i <= 4; ++i) {
        StepRow row;
        row.step = std::to_string(i);
        row.ns[kStepPreparing] = i * 1000;
        steps.rows.push_back(row);
    }
    steps.hasColumn[kStepPreparing] = true;
    const DataPreparation preparation = AnalyzeDataPreparation(files, &steps);
    CHECK(preparation.problems.empty());
    REQUIRE(preparation.steps.size() == 4);
    CHECK(preparation.steps[0].verdict == BatchVerdict::kWaitedSending);     // device 0, host 3
    CHECK(preparation.steps[1].verdict == BatchVerdict::kWaitedProcessing);  // both 0
    CHECK(preparation.steps[2].verdict == BatchVerdict::kReady);
    CHECK(preparation.steps[3].verdict == BatchVerdict::kWaitedSending);
    CHECK(preparation.steps[0].getNextNs == 500000);  // microseconds on Ascend
    CHECK(preparation.steps[0].pushNs == 2500000);
    CHECK(preparation.steps[3].intervalNs == 4000);
    CHECK(preparation.intervalSource == "Preparing in the steps");
    // MindInsight's rule: the host queue empty in over 30 % of the steps (2 of 4).
    CHECK(preparation.verdict.kind == DataVerdictKind::kProcessing);
    CHECK(preparation.verdict.text ==
          "the host queue was empty in 2 of 4 steps (the device's data queue was empty in 3 of 4 "
          "steps): the dataset pipeline does not keep up; data processing is the bottleneck");
    // The host queue never empty while the device's is: sending is slow.
    files.hostQueue =
        write("device_queue_profiling_0.txt", "1 64 1 3\n1 64 2 4\n1 64 3 1\n1 64 4 9\n");
    CHECK(AnalyzeDataPreparation(files, &steps).verdict.kind == DataVerdictKind::kSending);
    // Neither queue ever empty: not the bottleneck.
    files.deviceQueue = write("minddata_aicpu_0.txt",
                              "GetNext 1 2 4\nGetNext 3 4 4\nGetNext 5 6 2\nGetNext 7 8 1\n");
    CHECK(AnalyzeDataPreparation(files, &steps).verdict.kind == DataVerdictKind::kNotBottleneck);
    // Only the device's queue recorded, empty in 2 of 4 steps: the steps waited, cause unknown.
    files.hostQueue.clear();
    files.deviceQueue = write("minddata_aicpu_0.txt",
                              "GetNext 1 2 0\nGetNext 3 4 4\nGetNext 5 6 0\nGetNext 7 8 1\n");
    const DataPreparation waiting = AnalyzeDataPreparation(files, &steps);
    CHECK(waiting.verdict.kind == DataVerdictKind::kWaiting);
    CHECK(DataPreparationToJson(&waiting).find("\"kind\": \"waited_for_data\"") !=
          std::string::npos);
    const std::string json = DataPreparationToJson(&preparation);
    CHECK(
        json.find("{\"step\": \"1\", \"interval_ns\": 1000, \"device_queue\": 0, \"get_next_ns\": "
                  "500000, \"host_queue\": 3, \"host_queue_capacity\": 64, \"push_ns\": "
                  "2500000, \"batch\": \"waited: sending\"}") != std::string::npos);
    CHECK(json.find("\"verdict\": {\"kind\": \"data_processing\", \"device_queue_steps\": 4, "
                    "\"empty_device_queue_steps\": 3, \"host_queue_steps\": 4, "
                    "\"empty_host_queue_steps\": 2") != std::string::npos);
    fs::remove_all(dir);
}

TEST_CASE("without MindData files the step table's Preparing column is the step interval") {
    StepTrace steps;
    for (const int ns : {3000, 1000, 2000}) {
        StepRow row;
        row.step = std::to_string(steps.rows.size() + 5);
        row.ns[kStepPreparing] = ns;
        row.ns[kStepFree] = 7;
        steps.rows.push_back(row);
    }
    StepRow unnumbered;
    unnumbered.step = "";  // a table written without a schedule step: not a step to judge
    steps.rows.push_back(unnumbered);
    steps.hasColumn[kStepPreparing] = steps.hasColumn[kStepFree] = true;
    DataPreparation preparation = AnalyzeDataPreparation({}, &steps, "step_trace_time.csv");
    REQUIRE(preparation.steps.size() == 3);
    CHECK(preparation.steps[0].step == "5");
    CHECK(preparation.steps[0].intervalNs == 3000);
    CHECK(preparation.steps[2].intervalNs == 2000);
    CHECK(preparation.steps[1].verdict == BatchVerdict::kUnknown);
    CHECK(preparation.intervalSource == "Preparing in step_trace_time.csv");
    CHECK(preparation.verdict.kind == DataVerdictKind::kNoRecord);
    CHECK(preparation.verdict.text ==
          "no data queue recorded; the step interval (Preparing in step_trace_time.csv) totals "
          "6.000 µs over 3 steps: median 2.000 µs, longest 3.000 µs in step 5");
    // Free is the interval only in MindInsight's layout, which comes with its queue files.
    steps.hasColumn[kStepPreparing] = false;
    preparation = AnalyzeDataPreparation({}, &steps, "step_trace_time.csv");
    CHECK(preparation.steps.empty());
    CHECK(preparation.verdict.text.empty());
}

// [SECTION] Damaged files

TEST_CASE("damaged MindData rows are named with their line and left out, the rest is read") {
    SUBCASE("a pipeline cut inside its last row, without a line end") {
        // "2,TFReader,8" cut from "2,TFReader,80,…": its workers would read as 8.
        const std::string csv = std::string(kHeader) + "0,Batch,4,,,,0,10,,[2]\n2,TFReader,8";
        auto table = ParsePipelineRawCsv(csv, "pipeline.csv");
        REQUIRE(table.ok());
        CHECK(table.value().operators.size() == 1);
        // Batch's child is then no operator of the file: its link is dropped and named too.
        REQUIRE(table.value().problems.size() == 2);
        CHECK(table.value().problems[0].message ==
              "operator 0: child 2 names no operator; link dropped");
        CHECK(table.value().problems[1].message ==
              "the last row has no line end: the file is cut inside it; row left out");
        CHECK(table.value().problems[1].line == 3);
    }
    SUBCASE("the pipeline") {
        const std::string csv = std::string(kHeader) +
                                "0,Batch,4,,,,0,10,,[4]\n"
                                "x,MapOp,4,,,,0,10,0,\n"
                                "4,MapOp,-2,,,,0,10,0,[9]\n"
                                "4,MapOp,2,\"[1, 70]\",,64,0.5,10,0,[9]\n"
                                "4,MapOp,2,\"[1, 2]\",,64,1.5,10,0,[9]\n"
                                "4,MapOp,2,\"[1, 2]\",,64,0.5,10,0,[9]\n"
                                "4,MapOp,2,\"[1, 2]\",,64,0.5,10,0,[9]\n"
                                "5,Shuffle,1,\"[1,\",,64,0.5,10,77,\n"
                                "6,Shuffle,1,\"[1]";
        auto table = ParsePipelineRawCsv(csv, "pipeline.csv");
        REQUIRE(table.ok());
        CHECK(table.value().operators.size() == 2);
        CHECK(test::ProblemsOf(table.value().problems) ==
              "3:1: column \"op_id\": expected an operator id (a count): \"x\"; row left out\n"
              "4:1: column \"num_workers\": expected a count: \"-2\"; row left out\n"
              "5:1: column \"output_queue_size\": a size above the queue's length (64): \"[1, "
              "70]\"; row left out\n"
              "6:1: column \"output_queue_usage_rate\": expected a share from 0 to 1: \"1.5\"; row "
              "left out\n"
              "7:1: operator 4: child 9 names no operator; link dropped\n"
              "8:1: op_id 4 repeats an earlier row's; row left out\n"
              "9:1: column \"output_queue_size\": expected a list of counts such as [1, 2]: "
              "\"[1,\"; row left out\n"
              "10:1: a quoted field never closes: the file is truncated inside this row; row "
              "left out\n");
        CHECK_FALSE(ParsePipelineRawCsv("", "empty.csv").ok());
        CHECK(ParsePipelineRawCsv("a,b\n1,2\n", "other.csv").message() ==
              "other.csv:1:1: error: not a minddata_pipeline_raw csv: no \"op_id\" column");
    }
    SUBCASE("a loop of parents, a self-parent, a contradicting child: each named and dropped") {
        const std::string csv = std::string(kHeader) + "1,MapOp,4,\"[0]\",,64,0.0,10,2,[2]\n" +
                                "2,MapOp,4,\"[64]\",,64,1.0,10,1,[1]\n" +
                                "3,Batch,4,\"[1]\",,64,0.5,10,3,\n";
        auto table = ParsePipelineRawCsv(csv, "loop.csv");
        REQUIRE(table.ok());
        CHECK(test::ProblemsOf(table.value().problems) ==
              "2:1: operator 1: child 2 has no parent_id of its own; link dropped\n"
              "3:1: operator 2: parent_id 1 closes a loop of parents; drawn as a root\n"
              "4:1: operator 3: parent_id is the operator itself; drawn as a root\n");
        const DataPipeline pipeline = AnalyzePipeline(table.value().operators);
        // Operator 1, whose input link was dropped, is judged by no rule, not as a source.
        CHECK(pipeline.bottlenecks.empty());
        CHECK(pipeline.column == std::vector<int>{0, 1, 0});
    }
    SUBCASE("a chain of 50,000 operators is laid out in one pass") {
        std::string csv = kHeader;
        for (int i = 0; i < 50000; ++i)
            csv += std::to_string(i) + ",MapOp,1,\"[1]\",,64,0.01,10," +
                   (i ? std::to_string(i - 1) : std::string()) + "," +
                   (i + 1 < 50000 ? "[" + std::to_string(i + 1) + "]" : std::string()) + "\n";
        const DataPipeline pipeline =
            AnalyzePipeline(ParsePipelineRawCsv(csv, "chain.csv").value().operators);
        CHECK(pipeline.column.front() == 49999);
        CHECK(pipeline.column.back() == 0);
    }
    SUBCASE("the queue files") {
        const HostQueueRecord host = ParseHostQueueText(
            "1 64 1 3\n1 64 1 4\n1 64 2 65\n1 64 x 1\n0 7 3 1\n0 1 3 -4\n2 1 1 1\n1 64 4\n"
            "0 1 5 nan\n0 2 5 1e300\n1 64 6 6\n");
        CHECK(host.steps.size() == 2);  // steps 1 and 6
        CHECK(test::ProblemsOf(host.problems) ==
              "2:1: step 1's queue size recorded twice; line left out\n"
              "3:1: a queue size of 65 above its capacity 64; line left out\n"
              "4:1: expected \"0 KIND STEP MILLISECONDS\" or \"1 CAPACITY STEP SIZE\" with "
              "counts; line left out\n"
              "5:1: a time of kind 7 (expected 0 get, 1 push or 2 total); line left out\n"
              "6:1: the time is not a duration in milliseconds; line left out\n"
              "7:1: expected \"0 KIND STEP MILLISECONDS\" or \"1 CAPACITY STEP SIZE\" with "
              "counts; line left out\n"
              "8:1: expected \"0 KIND STEP MILLISECONDS\" or \"1 CAPACITY STEP SIZE\" with "
              "counts; line left out\n"
              "9:1: the time is not a duration in milliseconds; line left out\n"
              "10:1: the time is not a duration in milliseconds; line left out\n");
        const DeviceQueueRecord device = ParseDeviceQueueText(
            "GetNext 5 3 1\nGetNext a 3 1\nGetNext 1 2 -1\nGetNext 1 2 7\n", false);
        REQUIRE(device.batches.size() == 1);
        CHECK(device.batches[0].step == 4);  // lines left out shift no later step
        CHECK(test::ProblemsOf(device.problems) ==
              "1:1: the batch ends before it starts; batch 1 left out\n"
              "2:1: expected \"GetNext… START END SIZE\" with times and a count; batch 2 left out\n"
              "3:1: expected \"GetNext… START END SIZE\" with times and a count; batch 3 left "
              "out\n");
    }
}

// [SECTION] Real samples and clusters

TEST_CASE("MindInsight's own MindData samples: read to the digit and judged as its tests judge") {
    const std::string fixtures = test::FixturesDir();
    if (fixtures.empty()) return;
    const std::string ut = fixtures + "/mindinsight/tests/ut/profiler/analyser/resource/";
    // MindInsight's tests expect these operators for these files (with their thresholds).
    const std::pair<const char*, std::vector<int>> expected[] = {
        {"minddata_pipeline_raw_0.csv", {4}},
        {"minddata_pipeline_raw_1.csv", {1}},
        {"minddata_pipeline_raw_2.csv", {0}},
        {"minddata_pipeline_raw_3.csv", {2, 3}},
    };
    for (const auto& [name, ids] : expected) {
        std::ifstream file(ut + name);
        const std::string text((std::istreambuf_iterator<char>(file)), {});
        CAPTURE(name);
        CHECK(BottleneckIds(text) == ids);
    }
    const std::string run =
        fixtures + "/mindinsight/tests/utils/resource/run_2/normal_run/profiler";
    auto chosen = ChooseImporter(run);
    REQUIRE(chosen.ok());
    CHECK(chosen.value()->kind == SourceKind::kAscendText);
    auto files = FindRankFiles(run);
    REQUIRE(files.ok());
    CHECK(files.value().rankId == RankId(1));
    CHECK(fs::path(files.value().traceView).filename() == "ascend_timeline_display_1.json");
    const DataPreparationFiles& data = files.value().dataPreparation;
    CHECK(fs::path(data.pipelineRaw).filename() == "minddata_pipeline_raw_1.csv");
    CHECK(fs::path(data.hostQueue).filename() == "device_queue_profiling_1.txt");
    CHECK(fs::path(data.deviceQueue).filename() == "minddata_aicpu_1.txt");
    auto loaded = chosen.value()->loadRank(run, LoadOptions{}, nullptr);
    REQUIRE(loaded.ok());
    const RankAnalysis& analysis = *loaded.value().analysis;
    REQUIRE(analysis.steps);
    CHECK(analysis.steps->rows.size() == 2);
    REQUIRE(analysis.dataPreparation);
    const DataPreparation& preparation = *analysis.dataPreparation;
    CHECK(preparation.problems.empty());
    // device_queue_profiling_1.txt: step 1's host queue 0 of 64; minddata_aicpu_1.txt: three
    // GetNext batches with queues 3, 2, 1.
    REQUIRE(preparation.steps.size() == 3);
    CHECK(preparation.steps[0].hostQueue == 0);
    CHECK(preparation.steps[0].hostCapacity == 64);
    CHECK(preparation.steps[0].pushNs == 4000000);
    CHECK(preparation.steps[0].deviceQueue == 3);
    CHECK(preparation.steps[0].getNextNs == 1000);
    CHECK(preparation.steps[2].deviceQueue == 1);
    CHECK(preparation.steps[0].intervalNs ==
          0);  // step_trace_raw's iteration_interval of step 1
               // Its one host-queue record is empty: by MindInsight's rule, data processing.
    CHECK(preparation.verdict.kind == DataVerdictKind::kProcessing);
    REQUIRE(preparation.pipeline.operators.size() == 4);
    CHECK(preparation.pipeline.operators[0].type == "BatchOp");
    CHECK(preparation.pipeline.operators[0].queueUsage == 0.015625);
    CHECK(preparation.pipeline.operators[1].workers == 8);
    // minddata_cpu_utilization_1.json: MapOp 1 and the process at 20 % user and 20 % system.
    CHECK(preparation.pipeline.operators[1].cpuPercent == 40);
    CHECK(preparation.pipeline.operators[0].cpuPercent == -1);
    CHECK(preparation.processCpuPercent == 40);
    CHECK(preparation.pipeline.operators[3].queueSizes == std::vector<int>{0, 0});
    // Every queue empty: the source (ImageFolderOp) is what the rules name.
    REQUIRE(preparation.pipeline.bottlenecks.size() == 1);
    CHECK(preparation.pipeline.bottlenecks[0].opType == "ImageFolderOp");
}

TEST_CASE(
    "MindInsight's cluster of rank folders with MindData files stays a cluster of step traces") {
    const std::string fixtures = test::FixturesDir();
    if (fixtures.empty()) return;
    const fs::path source = fixtures + "/mindinsight/tests/utils/resource/cluster_propose";
    const fs::path dir = test::TempDir("mindinsight_nested");
    // MindInsight's own layout: cluster_profiler/N/profiler/ holds rank N's files.
    for (int rank = 0; rank < 2; ++rank) {
        const fs::path profiler = dir / std::to_string(rank) / "profiler";
        fs::create_directories(profiler);
        const std::string n = std::to_string(rank);
        for (const std::string& name :
             {"step_trace_raw_" + n + "_detail_time.csv", "hccl_raw_" + n + ".csv"})
            fs::copy_file(source / name, profiler / name);
        std::ofstream(profiler / ("minddata_pipeline_raw_" + n + ".csv"))
            << kHeader << "0,Batch,4,,,,0,10,,\n";
    }
    auto cluster = LoadCluster(dir.string(), 1);
    REQUIRE_MESSAGE(cluster.ok(), cluster.message());
    CHECK(cluster.value().source == ClusterSource::kMindInsightStepTraceRaw);
    REQUIRE(cluster.value().ranks.size() == 2);
    CHECK(cluster.value().ranks[0].steps.size() == 5);
    CHECK_FALSE(cluster.value().ranks[0].collectives.empty());
    // One rank's folder alone opens as that rank, with its data preparation.
    auto files = FindRankFiles((dir / "1" / "profiler").string());
    REQUIRE(files.ok());
    CHECK(files.value().rankId == RankId(1));
    CHECK_FALSE(files.value().dataPreparation.pipelineRaw.empty());
    fs::remove_all(dir);
}

TEST_CASE("a rank whose input is late is named for its input, not as a slow-computing rank") {
    const fs::path dir = test::TempDir("slow_input_cluster");
    ClusterOptions options;
    options.ranks = 8;
    options.steps = 5;
    options.slowInputRank = 3;
    std::string error;
    REQUIRE_MESSAGE(WriteCluster(options, dir.string(), &error), error);
    auto cluster = LoadCluster(dir.string(), 1);
    REQUIRE_MESSAGE(cluster.ok(), cluster.message());
    const ClusterRank* late = nullptr;
    for (const ClusterRank& rank : cluster.value().ranks)
        if (rank.rankId == RankId(3)) late = &rank;
    REQUIRE(late != nullptr);
    CHECK(late->steps[0].ns[kStepPreparing] == kSlowInputNs);
    // Every rank has its data queues' verdict; only rank 3's says it waited.
    for (const ClusterRank& rank : cluster.value().ranks) {
        CAPTURE(rank.rankId);
        CHECK(rank.problems.empty());
        CHECK(rank.dataVerdict.kind == (rank.Id().value() == 3 ? DataVerdictKind::kProcessing
                                                               : DataVerdictKind::kNotBottleneck));
    }
    const std::vector<ClusterFinding> findings = FindClusterProblems(cluster.value());
    int spread = 0, queues = 0;
    for (const ClusterFinding& finding : findings) {
        CAPTURE(finding.text);
        if (finding.kind == ClusterFindingKind::kInput) {
            CHECK(finding.ranks == std::vector<int>{3});
            spread += finding.text.rfind("Input problem: the step interval", 0) == 0;
            queues += finding.text.rfind(
                          "Input problem: the data queues of 1 of 8 ranks that "
                          "recorded them say their steps waited for data: data "
                          "processing is slow on rank 3 (rank 3: the host queue was "
                          "empty in 3 of 5 steps",
                          0) == 0;
        }
        if (finding.kind == ClusterFindingKind::kCompute)
            CHECK(std::find(finding.ranks.begin(), finding.ranks.end(), 3) == finding.ranks.end());
    }
    CHECK(spread == 1);
    CHECK(queues == 1);
    // The verdict travels in a rank's summary file and back.
    const std::string written = WriteRankSummary(*late);
    CHECK(written.find("\"data_verdict\": {\"kind\": \"data_processing\"") != std::string::npos);
    const std::string padded = written + std::string(simdjson::SIMDJSON_PADDING, ' ');
    auto read = ReadRankSummary(std::string_view(padded.data(), written.size()), "r.json");
    REQUIRE_MESSAGE(read.ok(), read.message());
    CHECK(read.value().dataVerdict.kind == DataVerdictKind::kProcessing);
    CHECK(read.value().dataVerdict.emptyHostSteps == 3);
    CHECK(read.value().dataVerdict.text == late->dataVerdict.text);
    // A damaged verdict is named, not read.
    std::string damaged = written;
    const std::string count = "\"empty_host_queue_steps\": 3";
    damaged.replace(damaged.find(count), count.size(), "\"empty_host_queue_steps\": 9");
    damaged += std::string(simdjson::SIMDJSON_PADDING, ' ');
    auto refused = ReadRankSummary(
        std::string_view(damaged.data(), damaged.size() - simdjson::SIMDJSON_PADDING), "r.json");
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.message() ==
          "r.json: error: \"data_verdict\": expected a kind of the documented ones, its text, and "
          "step counts with the empty steps among them");
    // A kind its counts do not give ("not the bottleneck" with the host queue empty in 3 steps of
    // the record's few) is refused too: it was not written by marey.
    std::string contradicting = written;
    const std::string kind = "\"kind\": \"data_processing\"";
    contradicting.replace(contradicting.find(kind), kind.size(),
                          "\"kind\": \"not_the_bottleneck\"");
    contradicting += std::string(simdjson::SIMDJSON_PADDING, ' ');
    auto contradicted = ReadRankSummary(
        std::string_view(contradicting.data(), contradicting.size() - simdjson::SIMDJSON_PADDING),
        "r.json");
    REQUIRE_FALSE(contradicted.ok());
    CHECK(contradicted.message() ==
          "r.json: error: \"data_verdict\": its kind \"not_the_bottleneck\" is not the one its "
          "step counts give (\"data_processing\")");
    // Without a late rank, no input finding.
    options.slowInputRank = -1;
    const fs::path even = test::TempDir("even_input_cluster");
    REQUIRE(WriteCluster(options, even.string(), &error));
    for (const ClusterFinding& finding : FindClusterProblems(LoadCluster(even.string(), 1).value()))
        CHECK(finding.kind != ClusterFindingKind::kInput);
    fs::remove_all(dir);
    fs::remove_all(even);
}

TEST_CASE("short rows, missing columns, byte-order marks, repeated and empty files are named") {
    const std::string shortRow = std::string(kHeader) + "0,Batch,4,,,,0,10,,[1]\n1,MapOp,2\n";
    auto table = ParsePipelineRawCsv(shortRow, "short.csv");
    REQUIRE(table.ok());
    CHECK(table.value().operators.size() == 1);
    CHECK(test::ProblemsOf(table.value().problems) ==
          "2:1: operator 0: child 1 names no operator; link dropped\n"
          "3:1: a row of 3 cells against the header's 10 columns; row left out\n");
    auto noUsage = ParsePipelineRawCsv("op_id,op_type,parent_id,children_id\n0,Batch,,\n", "n.csv");
    REQUIRE(noUsage.ok());
    CHECK(test::ProblemsOf(noUsage.value().problems) ==
          "1:1: no column num_workers, output_queue_usage_rate: the pipeline is read without it\n");
    // A byte-order mark is not a field; a line written twice is one batch, not the next step's.
    const DeviceQueueRecord device =
        ParseDeviceQueueText("\xEF\xBB\xBFGetNext 1 2 3\nGetNext 1 2 3\nGetNext 5 6 0\n", false);
    REQUIRE(device.batches.size() == 2);
    CHECK(device.batches[1].step == 2);
    CHECK(test::ProblemsOf(device.problems) ==
          "2:1: repeats an earlier batch (the same start and end); line left out\n");
    CHECK(ParseHostQueueText("\xEF\xBB\xBF"
                             "1 64 1 3\n")
              .steps.size() == 1);
    CHECK(test::ProblemsOf(ParseHostQueueText("").problems) ==
          "1:1: the file holds no line: no step of the host queue\n");
    CHECK(test::ProblemsOf(ParseDeviceQueueText("other 1 2 3\n", false).problems) ==
          "1:1: no GetNext line: the device's data queue is not known\n");
}

TEST_CASE(
    "another rank's MindData file beside a rank's own is named, and the folder stays a rank") {
    const std::string fixtures = test::FixturesDir();
    if (fixtures.empty()) return;
    const fs::path source =
        fixtures + "/mindinsight/tests/utils/resource/run_2/normal_run/profiler";
    const fs::path dir = test::TempDir("mindspore_stray_rank");
    for (const fs::directory_entry& entry : fs::directory_iterator(source))
        fs::copy_file(entry.path(), dir / entry.path().filename());
    std::ofstream(dir / "minddata_pipeline_raw_0.csv") << kHeader << "0,Batch,4,,,,0,10,,\n";
    auto files = FindRankFiles(dir.string());
    REQUIRE(files.ok());
    CHECK(files.value().rankId == RankId(1));
    CHECK(fs::path(files.value().dataPreparation.pipelineRaw).filename() ==
          "minddata_pipeline_raw_1.csv");
    REQUIRE(files.value().problems.size() == 1);
    CHECK(files.value().problems[0] ==
          (dir / "minddata_pipeline_raw_0.csv").string() +
              ": error: names rank 0, not this folder's rank 1; not read");
    fs::remove_all(dir);
}

TEST_CASE("the pipeline's JSON and the CPU use per operator: MindInsight's samples to the digit") {
    const std::string fixtures = test::FixturesDir();
    if (fixtures.empty()) return;
    const auto read = [](const std::string& path) {
        std::ifstream file(path);
        return std::string((std::istreambuf_iterator<char>(file)), {});
    };
    const std::string resources = fixtures + "/mindinsight/tests/utils/resource/";
    auto json = ParsePipelineProfilingJson(read(resources + "JOB1/pipeline_profiling_0.json"),
                                           "pipeline_profiling_0.json");
    REQUIRE(json.ok());
    CHECK(json.value().problems.empty());
    const std::vector<PipelineOperator>& ops = json.value().operators;
    REQUIRE(ops.size() == 5);  // TFReader 4, TFReader 3, TFReader 2, Shuffle 1, Batch 0
    CHECK(ops[0].id == 4);
    CHECK(ops[0].parent == 1);  // Shuffle 1 lists it among its children
    CHECK(ops[1].parent == 4);
    CHECK_FALSE(ops[0].hasQueue);  // "metrics": null
    CHECK(ops[1].queueSizes == std::vector<int>{10, 20, 30});
    CHECK(ops[1].queueUsage == 20.0 / 64);
    CHECK(ops[4].parent == -1);
    CHECK(AnalyzePipeline(ops).column == std::vector<int>{1, 0, 0, 2, 3});
    auto cpu = ParseCpuUtilizationJson(
        read(resources + "run_2/normal_run/profiler/minddata_cpu_utilization_1.json"), "cpu.json");
    REQUIRE(cpu.ok());
    CHECK(cpu.value().problems.empty());
    CHECK(cpu.value().processPercent == 40);  // user 10, 20, 30 and system 10, 20, 30
    CHECK(cpu.value().operatorPercent.at(1) == 40);
    // Damaged entries are named with their path and left out.
    auto damaged = ParsePipelineProfilingJson(
        "{\"op_info\": [{\"op_id\": -1}, {\"op_id\": 2, \"num_workers\": \"x\"}, {\"op_id\": 3, "
        "\"metrics\": {\"output_queue\": {\"size\": [70], \"length\": 64}}}, 5, {\"op_id\": 6}]}",
        "p.json");
    REQUIRE(damaged.ok());
    CHECK(damaged.value().operators.size() == 1);
    CHECK(damaged.value().problems ==
          std::vector<std::string>{
              "p.json: error: op_info[0]: op_id: expected an operator id (a count); operator left "
              "out",
              "p.json: error: op_info[1]: num_workers: expected a count, got \"x\"; operator left "
              "out",
              "p.json: error: op_info[2]: metrics.output_queue.size: a size above the queue's "
              "length (64); operator left out",
              "p.json: error: op_info[3]: expected an object; operator left out"});
    CHECK_FALSE(ParsePipelineProfilingJson("{\"op_info\": [", "cut.json").ok());
    CHECK_FALSE(ParseCpuUtilizationJson("", "empty.json").ok());
}

TEST_CASE(
    "a parent that does not list its child, a CPU figure past reason, a JSON byte-order mark") {
    // Operator 2 names 1 as its parent, which lists no child: 1 is judged by no rule, not as a
    // source with the dataset's advice.
    const std::string csv = std::string(kHeader) + "0,Batch,4,\"[60]\",60,64,0.94,10,,[1]\n" +
                            "1,MapOp,2,\"[5]\",5,128,0.04,10,0,\n" +
                            "2,TFReader,8,\"[120]\",120,128,0.94,10,1,\n";
    auto table = ParsePipelineRawCsv(csv, "one-sided.csv");
    REQUIRE(table.ok());
    CHECK(test::ProblemsOf(table.value().problems) ==
          "4:1: operator 2: parent_id 1 does not list it among its children; that operator is "
          "judged by no rule\n");
    CHECK(AnalyzePipeline(table.value().operators).bottlenecks.empty());
    auto cpu = ParseCpuUtilizationJson(
        "\xEF\xBB\xBF{\"op_info\": [{\"op_id\": 1, \"metrics\": {\"user_utilization\": [1e308, "
        "1e308], \"sys_utilization\": [1]}}, {\"op_id\": 2, \"metrics\": {\"user_utilization\": "
        "[10], \"sys_utilization\": [5]}}]}",
        "cpu.json");
    REQUIRE(cpu.ok());
    CHECK(cpu.value().operatorPercent.size() == 1);
    CHECK(cpu.value().operatorPercent.at(2) == 15);
    CHECK(cpu.value().problems ==
          std::vector<std::string>{"cpu.json: error: op_info[0].metrics: user_utilization and "
                                   "sys_utilization: expected lists of percentages; left out"});
}

TEST_CASE("an operator whose file does not record its workers has none, never 0 workers") {
    auto table = ParsePipelineRawCsv(std::string(kHeader) + "0,Batch,,,,,0,10,,[4]\n" +
                                         "4,MapOp,3,\"[8, 8]\",8.0,64,0.125,10,0,\n",
                                     "pipeline.csv");
    REQUIRE(table.ok());
    CHECK(table.value().problems.empty());
    REQUIRE(table.value().operators.size() == 2);
    CHECK_FALSE(table.value().operators[0].workers.has_value());
    CHECK(table.value().operators[1].workers == 3);
}
