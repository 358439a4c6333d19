// What the profiler itself says of the data's preparation: MindSpore's analysis of the dataset
// pipeline (minddata_pipeline_summary_N.json and .csv, read by key in either format, its warning
// shown beside the queue rules'), dataset.csv's stages and data_preprocess.csv's AI CPU tasks;
// their damage named with its place.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <cstdlib>
#include <fstream>
#include <iterator>

#include "TestSupport.hpp"
#include "load/AicpuPreprocessCsv.hpp"
#include "load/DatasetStagesCsv.hpp"
#include "load/MindDataFiles.hpp"
#include "load/MindDataSummary.hpp"
#include "load/RankDirectory.hpp"
#include "rank/DataPreparation.hpp"
#include "report/DataPreparationJson.hpp"

using namespace marey;
namespace fs = std::filesystem;

namespace {

// As MindSpore writes it for a pipeline Batch (root) ← Map ← TFReader, Map warned of; the keys in
// another order than the writer's, as another version writes them.
const char* kSummaryJson = R"json({
  "pipeline_ops": ["Batch(id=0)", "Map(id=1)", "TFReader(id=2)"],
  "op_ids": [0, 1, 2],
  "op_names": ["Batch", "Map", "TFReader"],
  "num_workers": [4, 2, 8],
  "queue_average_size": [4.0, 8.0, 120.8],
  "queue_utilization_pct": [6.25, 6.25, 94.375],
  "queue_empty_freq_pct": [50.0, 50.0, 0.0],
  "children_ids": [[1], [2], []],
  "parent_id": [-1, 0, 1],
  "avg_cpu_pct": [20.5, 195.0, 40.0],
  "per_pipeline_time": [-1],
  "per_push_queue_time": [1.25],
  "per_batch_time": [6.0],
  "avg_cpu_pct_per_worker": [5.125, 97.5, 5.0],
  "cpu_analysis_details": ["Map(id=1) uses 97.5 % of each of its workers."],
  "bottleneck_warning": ["Map(id=1)"],
  "bottleneck_suggestion": ["Map(id=1) may be a bottleneck: raise its num_parallel_workers."]
})json";

// The same summary as Python's csv module writes the dict: a row per key, CRLF, lists in cells
// as "[1, 2]", a sentence with a comma quoted.
const char* kSummaryCsv =
    "op_ids,0,1,2\r\n"
    "op_names,Batch,Map,TFReader\r\n"
    "pipeline_ops,Batch(id=0),Map(id=1),TFReader(id=2)\r\n"
    "num_workers,4,2,8\r\n"
    "queue_average_size,4.0,8.0,120.8\r\n"
    "queue_utilization_pct,6.25,6.25,94.375\r\n"
    "queue_empty_freq_pct,50.0,50.0,0.0\r\n"
    "children_ids,[1],[2],[]\r\n"
    "parent_id,-1,0,1\r\n"
    "avg_cpu_pct,20.5,195.0,40.0\r\n"
    "per_pipeline_time,-1\r\n"
    "per_push_queue_time,1.25\r\n"
    "per_batch_time,6.0\r\n"
    "avg_cpu_pct_per_worker,5.125,97.5,5.0\r\n"
    "cpu_analysis_details,Map(id=1) uses 97.5 % of each of its workers.\r\n"
    "bottleneck_warning,Map(id=1)\r\n"
    "bottleneck_suggestion,\"Map(id=1) may be a bottleneck: raise its num_parallel_workers.\"\r\n";

void CheckPlanted(const MindDataSummary& summary) {
    REQUIRE(summary.operators.size() == 3);
    const MindDataSummaryOperator& map = summary.operators[1];
    CHECK(map.id == 1);
    CHECK(map.name == "Map");
    CHECK(map.pipelineName == "Map(id=1)");
    CHECK(map.workers == 2);
    CHECK(map.cpuPercent == doctest::Approx(195.0));
    CHECK(map.cpuPercentPerWorker == doctest::Approx(97.5));
    CHECK(map.queueUtilizationPct == doctest::Approx(6.25));
    CHECK(map.queueEmptyPct == doctest::Approx(50.0));
    CHECK(map.queueAverageSize == doctest::Approx(8.0));
    CHECK(map.parent == 0);
    CHECK(map.children == std::vector<int>{2});
    CHECK(summary.operators[0].parent == -1);
    CHECK(summary.operators[2].children.empty());
    CHECK(summary.perPipelineMs == -1);  // the writer's "none"
    CHECK(summary.perPushQueueMs == doctest::Approx(1.25));
    CHECK(summary.perBatchMs == doctest::Approx(6.0));
    CHECK(summary.bottleneckOperators == std::vector<std::string>{"Map(id=1)"});
    CHECK(summary.suggestion == "Map(id=1) may be a bottleneck: raise its num_parallel_workers.");
    CHECK(summary.cpuAnalysis == "Map(id=1) uses 97.5 % of each of its workers.");
    CHECK(summary.queueAnalysis.empty());
    CHECK(summary.problems.empty());
}

// The problems of a JSON summary whose key 'key' holds 'value' in place of the planted one.
std::vector<std::string> JsonProblemsWith(const std::string& key, const std::string& value) {
    std::string text = kSummaryJson;
    const size_t at = text.find("\"" + key + "\": ");
    REQUIRE(at != std::string::npos);
    const size_t start = at + key.size() + 4;
    const size_t end = text.find('\n', start);
    text.replace(start, end - start, value + ",");
    auto summary = ParseMindDataSummaryJson(text, "s.json");
    REQUIRE_MESSAGE(summary.ok(), summary.message());
    return summary.value().problems;
}

}  // namespace

TEST_CASE("the profiler's pipeline summary reads alike from its JSON and its CSV, by key") {
    auto json = ParseMindDataSummaryJson(kSummaryJson, "minddata_pipeline_summary_0.json");
    REQUIRE_MESSAGE(json.ok(), json.message());
    CheckPlanted(json.value());
    auto csv = ParseMindDataSummaryCsv(kSummaryCsv, "minddata_pipeline_summary_0.csv");
    REQUIRE_MESSAGE(csv.ok(), csv.message());
    CheckPlanted(csv.value());
    CHECK(ProfilerWarningText(json.value()) ==
          "Map(id=1) may be a bottleneck: raise its num_parallel_workers.");
    MindDataSummary quiet;
    CHECK(ProfilerWarningText(quiet) == "no bottleneck warning");
    quiet.bottleneckOperators = {"Batch(id=0)"};
    quiet.suggestion = "raise prefetch_size";
    CHECK(ProfilerWarningText(quiet) == "bottleneck at Batch(id=0): raise prefetch_size");
}

TEST_CASE("a damaged summary value is named with its key and place and left out, the rest read") {
    SUBCASE("a percentage out of range, a negative count, text for a number") {
        const auto problems = JsonProblemsWith("queue_utilization_pct", "[6.25, 150, 94.375]");
        REQUIRE(problems.size() == 1);
        CHECK(problems[0] ==
              "s.json: error: queue_utilization_pct[1]: expected a percentage, 0 to 100, got "
              "\"150\"; left out");
        CHECK(JsonProblemsWith("num_workers", "[4, -3, 8]").size() == 1);
        CHECK(JsonProblemsWith("avg_cpu_pct", "[20.5, \"lots\", 40.0]").size() == 1);
        CHECK(JsonProblemsWith("per_batch_time", "[1e300]").size() == 1);
    }
    SUBCASE("a list of another length cannot be matched to operators: left out whole") {
        const auto problems = JsonProblemsWith("avg_cpu_pct", "[20.5, 195.0]");
        REQUIRE(problems.size() == 1);
        CHECK(problems[0] ==
              "s.json: error: avg_cpu_pct: 2 values for 3 operators: not matched to operators; "
              "left out");
        std::string text = kSummaryJson;
        text.replace(text.find("[20.5, 195.0, 40.0]"), 19, "[20.5, 195.0]");
        auto summary = ParseMindDataSummaryJson(text, "s.json");
        REQUIRE(summary.ok());
        for (const MindDataSummaryOperator& op : summary.value().operators)
            CHECK(op.cpuPercent == -1);  // none matched by guess
    }
    SUBCASE("links naming no operator, or the operator itself, are dropped") {
        // The link dropped, then what it leaves contradicting (Batch lists Map as its child).
        const auto parent = JsonProblemsWith("parent_id", "[-1, 7, 1]");
        REQUIRE(parent.size() == 2);
        CHECK(parent[0].find("parent_id[1]: expected the id of another operator") !=
              std::string::npos);
        CHECK(parent[1].find("operator 0: child 1") != std::string::npos);
        CHECK(JsonProblemsWith("children_ids", "[[1], [1], []]").size() == 2);
    }
    SUBCASE("a loop of parents is named and broken, as the raw file's") {
        const auto loop = JsonProblemsWith("parent_id", "[2, 0, 1]");
        REQUIRE_FALSE(loop.empty());
        bool named = false;
        for (const std::string& problem : loop)
            named = named || problem.find("loop") != std::string::npos;
        CHECK(named);
    }
    SUBCASE("NaN, Infinity and numbers past a double leave only their value out") {
        const auto nan = JsonProblemsWith("avg_cpu_pct", "[NaN, 195.0, 40.0]");
        REQUIRE(nan.size() == 1);
        CHECK(nan[0] ==
              "s.json: error: avg_cpu_pct[0]: expected a CPU share (% of one core), got "
              "\"null\"; left out");
        CHECK(JsonProblemsWith("avg_cpu_pct", "[Infinity, -Infinity, 1e400]").size() == 3);
        CHECK(JsonProblemsWith("num_workers", "[4, 99999999999999999999, 8]").size() == 1);
    }
    SUBCASE("a key written twice: the repeat is named and left out") {
        std::string text = kSummaryJson;
        text.replace(text.find("\"num_workers\""), 0, "\"num_workers\": [1, 1, 1], ");
        auto summary = ParseMindDataSummaryJson(text, "s.json");
        REQUIRE(summary.ok());
        CHECK(summary.value().operators[1].workers == 1);  // the first, as in the CSV
        REQUIRE_FALSE(summary.value().problems.empty());
        CHECK(summary.value().problems[0] ==
              "s.json: error: the key \"num_workers\" repeats an earlier one; the repeat is left "
              "out");
    }
    SUBCASE("a file cut inside its object says so") {
        const std::string text = std::string(kSummaryJson).substr(0, 420);
        auto cut = ParseMindDataSummaryJson(text, "s.json");
        REQUIRE_FALSE(cut.ok());
        CHECK(cut.message().find("; the text ends at byte 420 before its object closes: the file "
                                 "is cut") != std::string::npos);
    }
    SUBCASE("a repeated op id leaves that operator out, with its other values") {
        std::string text = kSummaryJson;
        text.replace(text.find("\"op_ids\": [0, 1, 2]"), 19, "\"op_ids\": [0, 0, 2]");
        auto summary = ParseMindDataSummaryJson(text, "s.json");
        REQUIRE(summary.ok());
        CHECK(summary.value().operators.size() == 2);
        CHECK(summary.value().problems.size() >= 1);
        CHECK(summary.value().problems[0].find("op_ids[1]") != std::string::npos);
    }
    SUBCASE("without op_ids, or not JSON, the file is refused with its name") {
        auto none = ParseMindDataSummaryJson("{\"op_names\": [\"Batch\"]}", "s.json");
        REQUIRE_FALSE(none.ok());
        CHECK(none.message() ==
              "s.json: error: no \"op_ids\" list of operator ids: not a minddata_pipeline_summary "
              "file");
        CHECK_FALSE(ParseMindDataSummaryJson("{\"op_ids\": [0, 1", "s.json").ok());
        CHECK_FALSE(ParseMindDataSummaryJson("", "s.json").ok());
        CHECK_FALSE(ParseMindDataSummaryCsv("", "s.csv").ok());
        CHECK_FALSE(ParseMindDataSummaryCsv("\x01\x02garbage\xff", "s.csv").ok());
    }
    SUBCASE("a CSV row repeated, and a last row cut without its line end") {
        std::string text = kSummaryCsv;
        text += "num_workers,9,9,9\r\n";
        text += "bottleneck_suggestion_extra,Map(id=1) may be a bottle";  // cut
        auto summary = ParseMindDataSummaryCsv(text, "s.csv");
        REQUIRE(summary.ok());
        CHECK(summary.value().operators[1].workers == 2);  // the first row's
        const auto& problems = summary.value().problems;
        REQUIRE(problems.size() == 2);
        CHECK(problems[0] ==
              "s.csv:18:1: error: the key \"num_workers\" repeats an earlier row's; row left out");
        CHECK(problems[1] ==
              "s.csv:19:1: error: the last row has no line end: the file is cut "
              "inside it; row left out");
    }
}

TEST_CASE("a rank with the summary alone draws its pipeline and judges it by the queue rules") {
    const fs::path dir = test::TempDir("minddata_summary_only");
    std::ofstream(dir / "minddata_pipeline_summary_3.csv") << kSummaryCsv;
    const DataPreparationFiles files = FindDataPreparationFiles(dir.string(), std::nullopt);
    CHECK(fs::path(files.summary).filename() == "minddata_pipeline_summary_3.csv");
    const DataPreparation preparation = AnalyzeDataPreparation(files, nullptr);
    CHECK(preparation.problems.empty());
    REQUIRE(preparation.hasProfilerSummary);
    CHECK(preparation.HasRecord());
    REQUIRE(preparation.pipeline.operators.size() == 3);
    // TFReader's queue 94 % full, Map's 6 %: Map, by the queue rules as by the profiler.
    REQUIRE(preparation.pipeline.bottlenecks.size() == 1);
    CHECK(preparation.pipeline.bottlenecks[0].opId == 1);
    const std::string json = DataPreparationToJson(&preparation);
    CHECK(json.find("\"profiler_summary\": {\"file\": ") != std::string::npos);
    CHECK(json.find("\"bottleneck_operators\": [\"Map(id=1)\"]") != std::string::npos);
    CHECK(DataPreparationToText(&preparation).find("profiler's own analysis: Map(id=1) may be") !=
          std::string::npos);
    // With the JSON beside it, the JSON is read.
    std::ofstream(dir / "minddata_pipeline_summary_3.json") << kSummaryJson;
    CHECK(fs::path(FindDataPreparationFiles(dir.string(), RankId(3)).summary).extension() ==
          ".json");
    fs::remove_all(dir);
}

TEST_CASE("marey-gen's MindData files carry the summary: its warning on the planted operator") {
    const fs::path dir = test::TempDir("minddata_summary_gen");
    const std::string command = std::string(MAREY_GEN) + " --events 2000 --rank 0 --rank-dir " +
                                (dir / "rank").string() + " --data-preparation > /dev/null 2>&1";
    REQUIRE(std::system(command.c_str()) == 0);
    const fs::path output = dir / "rank" / "ASCEND_PROFILER_OUTPUT";
    const DataPreparation preparation =
        AnalyzeDataPreparation(FindDataPreparationFiles(output.string(), RankId(0)), nullptr);
    CHECK(preparation.problems.empty());
    REQUIRE(preparation.hasProfilerSummary);
    CHECK(preparation.profilerSummary.bottleneckOperators == std::vector<std::string>{"Map(id=1)"});
    // Its CSV twin says the same.
    std::ifstream csvFile(output / "minddata_pipeline_summary_0.csv");
    const std::string csv((std::istreambuf_iterator<char>(csvFile)), {});
    auto fromCsv = ParseMindDataSummaryCsv(csv, "csv");
    REQUIRE_MESSAGE(fromCsv.ok(), fromCsv.message());
    CHECK(fromCsv.value().problems.empty());
    CHECK(fromCsv.value().operators.size() == preparation.profilerSummary.operators.size());
    CHECK(fromCsv.value().suggestion == preparation.profilerSummary.suggestion);
    CHECK(fromCsv.value().operators[1].cpuPercent ==
          doctest::Approx(preparation.profilerSummary.operators[1].cpuPercent));
    // Without minddata_cpu_utilization_0.json, the pipeline's boxes take the summary's CPU share.
    for (const PipelineOperator& op : preparation.pipeline.operators)
        if (op.id == 1) CHECK(op.cpuPercent == doctest::Approx(195.0));
    fs::remove_all(dir);
}

TEST_CASE(
    "a folder under a numbered MindData or FLOPs file's name is named, never taken as absent") {
    const fs::path dir = test::TempDir("minddata_not_a_file");
    fs::create_directories(dir / "minddata_pipeline_summary_3.json");
    std::ofstream(dir / "minddata_pipeline_summary_3.csv") << kSummaryCsv;
    fs::create_directories(dir / "flops_summary_3.json");
    const DataPreparationFiles files = FindDataPreparationFiles(dir.string(), RankId(3));
    CHECK(fs::path(files.summary).extension() == ".csv");  // its twin is read
    const DataPreparation preparation = AnalyzeDataPreparation(files, nullptr);
    REQUIRE(preparation.problems.size() == 1);
    CHECK(preparation.problems[0] == (dir / "minddata_pipeline_summary_3.json").string() +
                                         ": error: a folder, not a file; not read");
    CHECK(preparation.hasProfilerSummary);
    const FlopsFiles flops = FindFlopsFiles(dir.string(), RankId(3));
    CHECK(flops.summary.empty());
    REQUIRE(flops.problems.size() == 1);
    CHECK(flops.problems[0].find("flops_summary_3.json: error: a folder, not a file") !=
          std::string::npos);
    fs::remove_all(dir);
}

TEST_CASE(
    "dataset.csv: each operation's stages, their runs and times, and its damaged rows named") {
    const std::string csv =
        "Operation,Stage,Occurrences,Avg. time (us),Custom Info\r\n"
        "Pipeline,Build,1,1520.5,\r\n"
        "MapOp(ID:3),WorkerProcess,640,5980.25,\"{'num_workers': 2, 'python': True}\"\r\n"
        "MapOp(ID:3),WorkerGet,-4,12.5,\r\n"
        "MapOp(ID:3),WorkerIdle,1.5,12.5,\r\n"
        "Batch(ID:0),GetFromPreviousOp,80,abc,\r\n"
        "Pipeline,Build,2,10.0,\r\n"
        "Batch(ID:0),Build,1\r\n"
        "TFReader(ID:4),WorkerProcess,640,31";
    auto table = ParseDatasetStagesCsv(csv, "dataset.csv");
    REQUIRE_MESSAGE(table.ok(), table.message());
    const auto& stages = table.value().stages;
    REQUIRE(stages.size() == 2);
    CHECK(stages[1].operation == "MapOp(ID:3)");
    CHECK(stages[1].stage == "WorkerProcess");
    CHECK(stages[1].occurrences == 640);
    CHECK(stages[1].averageNs == 5980250);
    CHECK(stages[1].totalNs == 640 * int64_t{5980250});
    CHECK(stages[1].customInfo == "{'num_workers': 2, 'python': True}");
    std::vector<std::string> messages;
    for (const ImportProblem& problem : table.value().problems)
        messages.push_back(std::to_string(problem.line) + ": " + problem.message);
    REQUIRE(messages.size() == 6);
    CHECK(messages[0] ==
          "4: column \"Occurrences\": expected a whole count from 0 to 2^40: \"-4\"; row left "
          "out");
    CHECK(messages[1].rfind("5: column \"Occurrences\"", 0) == 0);
    CHECK(messages[2].rfind("6: column \"Avg. time (us)\"", 0) == 0);
    CHECK(messages[3] == "7: Pipeline Build repeats an earlier row's; row left out");
    CHECK(messages[4] == "8: a row of 3 cells against the header's 5 columns; row left out");
    CHECK(messages[5] ==
          "9: the last row has no line end: the file is cut inside it; row left out");
    auto other = ParseDatasetStagesCsv("op_id,op_type\n0,Batch\n", "dataset.csv");
    REQUIRE_FALSE(other.ok());
    CHECK(other.message() ==
          "dataset.csv:1:1: error: not a dataset.csv: expected the columns Operation, Stage, "
          "Occurrences and Avg. time (us)");
}

TEST_CASE(
    "a dataset stage whose total passes 292 years, an AI CPU task of an hour and more, a "
    "task written twice: named and left out") {
    const std::string stages =
        "Operation,Stage,Occurrences,Avg. time (us),Custom Info\n"
        "MapOp(ID:1),WorkerProcess,999999999,999999999,\n"
        "MapOp(ID:1),WorkerGet,80,12.5,\n";
    auto table = ParseDatasetStagesCsv(stages, "dataset.csv");
    REQUIRE(table.ok());
    CHECK(table.value().stages.size() == 1);
    REQUIRE(table.value().problems.size() == 1);
    CHECK(table.value().problems[0].message ==
          "its runs times its mean pass 292 years; row left out");
    const std::string tasks =
        "Device_id,Timestamp(us),Node,Compute_time(us),Memcpy_time(us),Task_time(us),"
        "Dispatch_time(us),Total_time(us),Stream ID,Task ID\n"
        "0,100,GetNext,1e15,1,1,1,1,3,1\n"
        "0,200,GetNext,5,1,6,2,8,3,2\n"
        "0,200,GetNext,5,1,6,2,8,3,2\n";
    auto aicpu = ParseAicpuPreprocessCsv(tasks, "data_preprocess.csv");
    REQUIRE(aicpu.ok());
    CHECK(aicpu.value().tasks == 1);
    REQUIRE(aicpu.value().problems.size() == 2);
    CHECK(aicpu.value().problems[0].message.find("expected a duration from 0 to an hour") !=
          std::string::npos);
    CHECK(aicpu.value().problems[1].message ==
          "repeats an earlier task (its stream, task id, node and start); row left out");
}

TEST_CASE("data_preprocess.csv: AI CPU tasks summed per node, in µs or in older CANN's ms") {
    SUBCASE("today's columns, timestamps ending with a tab") {
        const std::string csv =
            "Device_id,Timestamp(us),Node,Compute_time(us),Memcpy_time(us),Task_time(us),"
            "Dispatch_time(us),Total_time(us),Stream ID,Task ID\r\n"
            "0,1736408883100000.000\t,GetNext,5.2,1.1,6.3,2.0,8.3,3,2\r\n"
            "0,1736408883200000.000\t,GetNext,5.0,1.0,6.0,2.0,8.0,3,4\r\n"
            "0,1736408883200000.050\t,Cast,1.5,0.0,1.5,0.5,2.0,3,5\r\n"
            "0,1736408883300000.000\t,Cast,-1.5,0.0,1.5,0.5,2.0,3,7\r\n"
            "0,1736408883300000.000\t,Cast,x,0.0,1.5,0.5,2.0,3,9\r\n";
        auto table = ParseAicpuPreprocessCsv(csv, "data_preprocess.csv");
        REQUIRE_MESSAGE(table.ok(), table.message());
        const AicpuPreprocessTable& read = table.value();
        CHECK(read.tasks == 3);
        REQUIRE(read.nodes.size() == 2);
        CHECK(read.nodes[0].node == "GetNext");  // the longest total first
        CHECK(read.nodes[0].count == 2);
        CHECK(read.nodes[0].computeNs == 10200);
        CHECK(read.nodes[0].totalNs == 16300);
        CHECK(read.nodes[0].longestNs == 8300);
        CHECK(read.firstNs == 1736408883100000000);
        CHECK(read.lastNs == 1736408883200000050);
        REQUIRE(read.problems.size() == 2);
        CHECK(read.problems[0].line == 5);
        CHECK(read.problems[0].message ==
              "column \"Compute_time\": expected a duration from 0 to an hour: \"-1.5\"; row "
              "left out");
    }
    SUBCASE("older CANN: no Device_id, times in ms, no Dispatch_time column") {
        const std::string csv =
            "Timestamp(us),Node,Compute_time(ms),Memcpy_time(ms),Task_time(ms),Total_time(ms)\n"
            "1736408883100000.000,GetNext,0.0052,0.0011,0.0063,0.0083\n";
        auto table = ParseAicpuPreprocessCsv(csv, "data_preprocess.csv");
        REQUIRE_MESSAGE(table.ok(), table.message());
        REQUIRE(table.value().nodes.size() == 1);
        CHECK(table.value().nodes[0].totalNs == 8300);
        CHECK(table.value().nodes[0].computeNs == 5200);
        CHECK_FALSE(table.value().hasDispatch);
        REQUIRE(table.value().problems.size() == 1);
        CHECK(table.value().problems[0].message == "no column Dispatch_time: read without it");
    }
    SUBCASE("another file, an empty one") {
        CHECK_FALSE(ParseAicpuPreprocessCsv("", "d.csv").ok());
        auto other = ParseAicpuPreprocessCsv("Name,Duration(us)\nx,1\n", "d.csv");
        REQUIRE_FALSE(other.ok());
        CHECK(other.message() ==
              "d.csv:1:1: error: not a data_preprocess.csv: expected the columns Node and "
              "Total_time(us)");
    }
}

TEST_CASE("a generated input-bound rank's dataset stages and AI CPU tasks reach stats --json") {
    const fs::path dir = test::TempDir("minddata_stage_tables");
    const std::string command = std::string(MAREY_GEN) + " --events 2000 --rank 0 --rank-dir " +
                                (dir / "rank").string() + " --data-preparation > /dev/null 2>&1";
    REQUIRE(std::system(command.c_str()) == 0);
    const fs::path output = dir / "rank" / "ASCEND_PROFILER_OUTPUT";
    const DataPreparation preparation =
        AnalyzeDataPreparation(FindDataPreparationFiles(output.string(), RankId(0)), nullptr);
    CHECK(preparation.problems.empty());
    REQUIRE(preparation.datasetStages.size() == 5);
    CHECK(preparation.datasetStages[0].operation == "MapOp(ID:1)");  // the longest in all
    CHECK(preparation.datasetStages[0].stage == "WorkerProcess");
    REQUIRE(preparation.hasAicpuPreprocess);
    CHECK(preparation.aicpuPreprocess.tasks == 20);
    const std::string json = DataPreparationToJson(&preparation);
    CHECK(json.find("\"dataset_stages\": [{\"operation\": \"MapOp(ID:1)\", \"stage\": "
                    "\"WorkerProcess\", \"occurrences\": 80") != std::string::npos);
    CHECK(json.find("\"aicpu_preprocess\": {\"tasks\": 20") != std::string::npos);
    const std::string text = DataPreparationToText(&preparation);
    CHECK(text.find("dataset stages: 5, the longest in all MapOp(ID:1) WorkerProcess") !=
          std::string::npos);
    CHECK(text.find("AI CPU preprocessing: 20 tasks of 2 nodes, the longest in all GetNext") !=
          std::string::npos);
    fs::remove_all(dir);
}

TEST_CASE(
    "MindData queue files cut at their end, batches repeated out of order, a pipeline "
    "missing a link column") {
    SUBCASE("a host queue cut inside its last line: \"1.25\" read as \"1.2\" no more") {
        const HostQueueRecord record = ParseHostQueueText("1 64 1 2 10\n0 1 1 1.2");
        REQUIRE(record.problems.size() == 1);
        CHECK(record.problems[0].line == 2);
        CHECK(record.problems[0].message ==
              "the last line has no line end: the file is cut inside it; line left out");
        REQUIRE(record.steps.size() == 1);
        CHECK(record.steps[0].pushNs == -1);
    }
    SUBCASE(
        "a device queue: a GetNext line cut to \"GetNe\", a repeat far from its first, no SIZE") {
        const std::string text =
            "GetNext_dequeue_wait 100 140 2\n"
            "GetNext_dequeue_wait 200 240 0\n"
            "GetNext_dequeue_wait 100 140 2\n"
            "GetNext_dequeue_wait 300 340\n"
            "GetNe";
        const DeviceQueueRecord record = ParseDeviceQueueText(text, false);
        REQUIRE(record.batches.size() == 3);
        CHECK(record.batches[2].step == 3);  // the repeat made no phantom step
        CHECK(record.batches[2].size == -1);
        REQUIRE(record.problems.size() == 3);
        CHECK(record.problems[0].message ==
              "repeats an earlier batch (the same start and end); line left out");
        CHECK(record.problems[1].message ==
              "no SIZE: the data queue's size for batch 3 is not known");
        CHECK(record.problems[2].line == 5);
    }
    SUBCASE(
        "without children_id the parents give the links, and no operator is taken for a "
        "source for want of its children") {
        const std::string csv =
            "op_id,op_type,num_workers,output_queue_size,output_queue_average_size,"
            "output_queue_length,output_queue_usage_rate,sample_interval,parent_id\n"
            "0,Batch,4,,,64,0.05,10,\n"
            "1,Map,2,,,64,0.05,10,0\n"
            "2,TFReader,8,,,64,0.95,10,1\n";
        auto table = ParsePipelineRawCsv(csv, "pipeline.csv");
        REQUIRE(table.ok());
        REQUIRE(table.value().problems.size() == 1);  // the missing column, nothing else
        CHECK(table.value().operators[1].children == std::vector<int>{2});
        const DataPipeline pipeline = AnalyzePipeline(table.value().operators);
        REQUIRE(pipeline.bottlenecks.size() == 1);
        CHECK(pipeline.bottlenecks[0].opId == 1);  // Map, not a "source"
    }
}
