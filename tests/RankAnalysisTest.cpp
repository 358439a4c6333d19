#include <doctest/doctest.h>
#include <unistd.h>

#include <simdjson.h>
#include <sys/stat.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <vector>

#include "TestSupport.hpp"
#include "TraceGenerator.hpp"
#include "core/FuzzyMatch.hpp"
#include "core/Problem.hpp"
#include "load/CommunicationJson.hpp"
#include "load/KernelTable.hpp"
#include "load/OpStatisticCsv.hpp"
#include "load/MemoryCsv.hpp"
#include "load/RankDirectory.hpp"
#include "load/StepTraceCsv.hpp"
#include "load/TracePath.hpp"
#include "loading/RankLoader.hpp"
#include "rank/LoadedRank.hpp"
#include "rank/OperatorStats.hpp"
#include "rank/ProfilerSteps.hpp"
#include "rank/RankAnalysis.hpp"
#include "rank/RankOverview.hpp"
#include "report/JsonWriter.hpp"
#include "report/OverviewJson.hpp"

using namespace marey;
using namespace marey::test;

namespace {

namespace fs = std::filesystem;

// simdjson reads past the end of its input: keep the padding in the string's capacity.
std::string Padded(std::string text) {
    const size_t size = text.size();
    text.resize(size + simdjson::SIMDJSON_PADDING, '\0');
    text.resize(size);
    return text;
}

// A generated rank folder (trace and every side file) in a fresh temporary folder.
fs::path GeneratedRank(uint32_t rank, uint64_t events) {
    const fs::path root =
        fs::temp_directory_path() / ("marey_rank_test_" + std::to_string(rank) + "_" +
                                     std::to_string(events) + "_" + std::to_string(::getpid()));
    fs::remove_all(root);
    fs::create_directories(root / "ASCEND_PROFILER_OUTPUT");
    std::ofstream(root / ("profiler_info_" + std::to_string(rank) + ".json"))
        << "{\"config\": {\"experimental_config\": {\"_profiler_level\": \"Level1\"}}, "
           "\"rank_id\": "
        << rank << "}";
    GeneratorOptions options;
    options.events = events;
    options.rank = rank;
    GeneratorRecord record;
    std::FILE* file = std::fopen((root / "ASCEND_PROFILER_OUTPUT/trace_view.json").c_str(), "wb");
    REQUIRE(file);
    GenerateTrace(options, file, &record);
    std::fclose(file);
    std::string error;
    REQUIRE_MESSAGE(
        WriteRankSideFiles(record, options, (root / "ASCEND_PROFILER_OUTPUT").string(), &error),
        error);
    return root;
}

RankAnalysis AnalyzeFolder(const fs::path& folder, std::unique_ptr<TraceModel>* model) {
    auto files = FindRankFiles(folder.string());
    REQUIRE_MESSAGE(files.ok(), (files.ok() ? "" : files.message()));
    if (!files.value().traceView.empty() || !files.value().kernelDetails.empty()) {
        auto loaded = LoadTrace(folder.string());
        REQUIRE_MESSAGE(loaded.ok(), (loaded.ok() ? "" : loaded.message()));
        *model = std::move(loaded.value());
    }
    return AnalyzeRank(files.value(), model->get());
}

}  // namespace

// [SECTION] A rank folder's files and their views

TEST_CASE("step_trace_time.csv reads every phase in exact nanoseconds, by header name") {
    SUBCASE("2025 header with float noise and CRLF") {
        auto steps = ParseStepTraceCsv(
            "Step,Computing,Communication(Not "
            "Overlapped),Overlapped,Communication,Free,Stage,Bubble,"
            "Communication(Not Overlapped and Exclude Receive),Preparing\r\n"
            "50,8873.756000000001,101963.203,4028.6750000000175,105991.87800000001,25744."
            "050000000003,136581.0,0,101963.203,17902.5\r\n",
            "step_trace_time.csv");
        REQUIRE(steps.ok());
        REQUIRE(steps.value().rows.size() == 1);
        const StepRow& row = steps.value().rows[0];
        CHECK(row.step == "50");
        CHECK(row.ns[kStepComputing] == 8873756);
        CHECK(row.ns[kStepCommNotOverlapped] == 101963203);
        CHECK(row.ns[kStepOverlapped] == 4028675);
        CHECK(row.ns[kStepFree] == 25744050);
        CHECK(row.ns[kStepStage] == 136581000);
        CHECK(row.ns[kStepPreparing] == 17902500);
        CHECK(steps.value().problems.empty());
    }
    SUBCASE("2023 header without Preparing, columns in another order") {
        auto steps = ParseStepTraceCsv("Free,Step,Computing\n1.5,7,2\n", "old.csv");
        REQUIRE(steps.ok());
        CHECK_FALSE(steps.value().hasColumn[kStepPreparing]);
        CHECK(steps.value().rows[0].step == "7");
        CHECK(steps.value().rows[0].ns[kStepFree] == 1500);
        CHECK(steps.value().rows[0].ns[kStepComputing] == 2000);
    }
    SUBCASE("a bad cell leaves its row out and names its column and place") {
        auto steps = ParseStepTraceCsv("Step,Computing,Free\n1,abc,3\n2,4,5\n", "s.csv");
        REQUIRE(steps.ok());
        REQUIRE(steps.value().rows.size() == 1);
        CHECK(steps.value().rows[0].step == "2");
        REQUIRE(steps.value().problems.size() == 1);
        CHECK(
            FormatProblem("s.csv", steps.value().problems[0]) ==
            "s.csv:2:1: error: column \"Computing\": not a decimal number: \"abc\"; row left out");
    }
    SUBCASE("short, negative and repeated rows are left out, each named with its line") {
        const std::string text =
            "Step,Computing,Communication(Not Overlapped),Free\n"
            "101,8000,2000,500\n"
            "102,8000,2000\n"  // a column lost
            "103,-20500,2000,500\n"
            "101,9000,2000,500\n"  // the same step again
            "104,8063";            // the profiler stopped mid-row
        auto steps = ParseStepTraceCsv(text, "step_trace_time.csv");
        REQUIRE(steps.ok());
        REQUIRE(steps.value().rows.size() == 1);
        CHECK(steps.value().rows[0].ns[kStepComputing] == 8000000);
        std::vector<std::string> messages;
        for (const ImportProblem& problem : steps.value().problems)
            messages.push_back(FormatProblem("step_trace_time.csv", problem));
        CHECK(messages ==
              std::vector<std::string>{"step_trace_time.csv:3:1: error: a row of 3 of the header's "
                                       "4 columns; row left out",
                                       "step_trace_time.csv:4:1: error: column \"Computing\": a "
                                       "negative duration: \"-20500\"; row left out",
                                       "step_trace_time.csv:5:1: error: step \"101\" again; the "
                                       "first row kept, this one left out",
                                       "step_trace_time.csv:6:1: error: a row of 2 of the header's "
                                       "4 columns; row left out"});
    }
    SUBCASE("rows without a step are all kept: a run without schedule steps writes several") {
        auto steps = ParseStepTraceCsv("Step,Computing\n,1\n,2\n", "s.csv");
        REQUIRE(steps.ok());
        CHECK(steps.value().rows.size() == 2);
        CHECK(steps.value().problems.empty());
    }
    SUBCASE("a file that is not a step trace is refused with the reason") {
        auto steps = ParseStepTraceCsv("a,b\n1,2\n", "x.csv");
        REQUIRE_FALSE(steps.ok());
        CHECK(steps.message() ==
              "x.csv:1:1: error: not a step_trace_time.csv: no \"Step\" or \"Computing\" column");
    }
}

TEST_CASE(
    "a kernel table read without names keeps every row's type, times and core class, and the same "
    "problems") {
    const std::string text =
        "Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us)\n"
        "1,MatMul_1,MatMul,AI_CORE,1000\t,10\n"
        "1,hcom_allReduce__1,hcom_allReduce_,HCCL,1015\t,15\n"
        "1,Cast_1,Cast,AI_CPU,n/a,10\n"
        "2,Add_1,Add,AI_VECTOR_CORE,1005\t,-1\n"
        "2,MatMul_2,MatMul,AI_CORE,1040\t,10\n";
    auto full = ParseKernelTable(text, "kernel_details.csv");
    KernelReadOptions typesOnly;
    typesOnly.names = false;
    auto bare = ParseKernelTable(text, "kernel_details.csv", typesOnly);
    REQUIRE(full.ok());
    REQUIRE(bare.ok());
    REQUIRE(bare.value().rows.size() == 3);
    REQUIRE(full.value().rows.size() == 3);
    for (size_t i = 0; i < 3; ++i) {
        const KernelRow &a = full.value().rows[i], &b = bare.value().rows[i];
        CHECK(full.value().strings.Get(a.type) == bare.value().strings.Get(b.type));
        CHECK(a.startNs == b.startNs);
        CHECK(a.durNs == b.durNs);
        CHECK(a.coreClass == b.coreClass);
        CHECK(b.name == 0);
        CHECK(b.core == 0);
        // The step is kept even without names: it tells rows of steps the step file lacks.
        CHECK(bare.value().strings.Get(b.step) == full.value().strings.Get(a.step));
    }
    CHECK(full.value().strings.Get(full.value().rows[2].name) == "MatMul_2");
    REQUIRE(bare.value().problems.size() == 2);
    for (size_t i = 0; i < 2; ++i)
        CHECK(bare.value().problems[i].message == full.value().problems[i].message);
    CHECK(bare.value().problems[1].message ==
          "column \"Duration(us)\": a negative duration: \"-1\"; row skipped");
}

TEST_CASE(
    "a kernel table names the cell at fault: a start before zero, a negative duration, an "
    "end past int64") {
    const std::string text =
        "Name,Type,Accelerator Core,Start Time(us),Duration(us)\n"
        "A,A,AI_CORE,-5,10\n"                             // the start is wrong, not the duration
        "B,B,AI_CORE,5,-10\n"                             // the duration is
        "C,C,AI_CORE,9000000000000000,900000000000000\n"  // each fits, their end does not
        "D,D,AI_CORE,5,10\n";
    auto table = ParseKernelTable(text, "kernel_details.csv");
    REQUIRE(table.ok());
    CHECK(table.value().rows.size() == 1);
    REQUIRE(table.value().problems.size() == 3);
    CHECK(table.value().problems[0].message ==
          "column \"Start Time(us)\": a start before the clock's zero: \"-5\"; row skipped");
    CHECK(table.value().problems[0].line == 2);
    CHECK(table.value().problems[1].message ==
          "column \"Duration(us)\": a negative duration: \"-10\"; row skipped");
    CHECK(table.value().problems[2].message ==
          "column \"Duration(us)\": an end past the int64 range: \"900000000000000\"; row "
          "skipped");
}

TEST_CASE(
    "the overview computed from kernels splits time into compute, overlap, communication alone and "
    "free") {
    // compute [0,10) [5,20) [40,50) µs; communication [15,30) µs; nothing in [30,40).
    auto table = ParseKernelTable(
        "Name,Type,Accelerator Core,Start Time(us),Duration(us)\n"
        "MatMul_1,MatMul,AI_CORE,1000\t,10\n"
        "Add_1,Add,AI_VECTOR_CORE,1005\t,15\n"
        "hcom_allReduce__1,hcom_allReduce_,HCCL,1015\t,15\n"
        "Cast_1,Cast,AI_CPU,1040\t,10\n",
        "kernel_details.csv");
    REQUIRE(table.ok());
    const OverviewFigures figures = OverviewFromKernels(table.value());
    CHECK(figures.valid);
    CHECK(figures.computingNs == 30000);
    CHECK(figures.commOverlappedNs == 5000);
    CHECK(figures.commNotOverlappedNs == 10000);
    CHECK(figures.pureComputingNs == 25000);
    CHECK(figures.freeNs == 10000);
    CHECK(figures.totalNs == 50000);

    const OperatorTables operators = OperatorsFromKernels(table.value());
    REQUIRE(operators.byType.size() == 4);
    CHECK(operators.byType[0].name == "Add");  // 15 µs, ahead of the other 15 µs by name
    CHECK(operators.totalNs == 50000);
    REQUIRE(operators.byCore.size() == 3);
    CHECK(operators.byCore[0].coreClass == CoreClass::kAiCore);
    CHECK(operators.byCore[0].totalNs == 25000);
    CHECK(operators.byCore[1].coreClass == CoreClass::kAiCpu);
    CHECK(operators.byCore[2].coreClass == CoreClass::kCommunication);

    const auto advice = AdviseOnOverview(figures, TopComputeTypes(operators, 3));
    REQUIRE(advice.size() == 2);
    CHECK(advice[0].kind == AdviceKind::kCommunication);
    CHECK(advice[0].text.find("10.000 µs (20.0 % of 50.000 µs)") != std::string::npos);
    CHECK(advice[1].kind == AdviceKind::kScheduling);
}

TEST_CASE(
    "communication.json keeps its times exact, its bandwidth per transport and its packet sizes") {
    const std::string text = Padded(R"json({"step50": {"p2p": {}, "collective": {
      "hcom_allReduce__586_0_1@17522688603477080586": {
        "Communication Time Info": {"Start Timestamp(us)": 1736408883732241.5, "Elapse Time(ms)": 79.08952021875,
          "Transit Time(ms)": 0.23918478124999998, "Wait Time(ms)": 5.64663284375, "Synchronization Time(ms)": 5.61569221875,
          "Idle Time(ms)": 73.20370259375, "Wait Time Ratio": 0.9594, "Synchronization Time Ratio": 0.9591},
        "Communication Bandwidth Info": {
          "HCCS": {"Transit Size(MB)": 28.647232000000002, "Transit Time(ms)": 1.8168363437500001, "Bandwidth(GB/s)": 15.7676,
                   "Large Packet Ratio": 0.0, "Size Distribution": {"2.064384": [12, 1.578891625], "1.937312": [2, 0.23794471875]}}}},
      "Total Op Info": {"Communication Time Info": {"Elapse Time(ms)": 79.1},
        "Communication Bandwidth Info": {"HCCS": {"Transit Time(ms)": 1.8, "Transit Size(MB)": 28.6, "Size Distribution": {}}}}}}})json");
    CommunicationOps data;
    REQUIRE(ParseCommunicationJson(text, "communication.json", data).ok());
    CHECK(data.problems.empty());
    REQUIRE(data.ops.size() == 2);
    const CommunicationOp& op = data.ops[0];
    CHECK(op.step == "step50");
    CHECK(op.kind == "collective");
    CHECK(op.name == "hcom_allReduce__586_0_1");
    CHECK(op.group == "17522688603477080586");
    CHECK(op.hasStart);
    CHECK(op.startNs == 1736408883732241500);
    CHECK(op.elapseNs == 79089520);  // 79.08952021875 ms rounded to the ns
    CHECK(op.waitNs == 5646633);
    CHECK(op.idleNs == 73203703);
    CHECK(op.waitRatio == doctest::Approx(0.9594));
    REQUIRE(op.bandwidth.size() == 1);
    CHECK(op.bandwidth[0].transport == "HCCS");
    CHECK(op.bandwidth[0].bandwidthGBps == doctest::Approx(15.7676));
    REQUIRE(op.bandwidth[0].sizes.size() == 2);
    CHECK(op.bandwidth[0].sizes[0].sizeMb == doctest::Approx(2.064384));
    CHECK(op.bandwidth[0].sizes[0].count == 12);
    CHECK(op.bandwidth[0].sizes[0].totalNs == 1578892);
    CHECK(data.ops[1].isTotal);
    CHECK(data.ops[1].bandwidth[0].bandwidthGBps < 0);  // absent in the summary

    const CommunicationTotals totals = SumCommunication(data.ops);
    CHECK(totals.operators == 1);
    CHECK(totals.elapseNs == 79089520);
    CHECK(totals.transports[0].transport == "HCCS");
    CHECK(totals.transports[0].bandwidthGBps == doctest::Approx(28.647232 / 1.8168363));
}

TEST_CASE("broken communication JSON keeps the operators before the break and says where it is") {
    SUBCASE("cut in the middle of the second operator") {
        const std::string text = Padded(
            "{\"step1\": {\"collective\": {\"a@1\": {\"Communication Time Info\": {\"Elapse "
            "Time(ms)\": 2}},\n"
            "\"b@1\": {\"Communication Time Info\": {\"Elapse Time(ms)\": 3, \"Wait");
        CommunicationOps data;
        const Status status = ParseCommunicationJson(text, "communication.json", data);
        CHECK(status.ok());
        REQUIRE(data.ops.size() >= 1);
        CHECK(data.ops[0].name == "a");
        CHECK(data.ops[0].elapseNs == 2000000);
        REQUIRE_FALSE(data.problems.empty());
        CHECK(data.problems.back().message ==
              "the file is cut short or malformed after here (A string is opened, but never "
              "closed.); everything "
              "before was read");
        CHECK(data.problems.back().line == 1);
        CHECK(data.problems.back().column == 85);
    }
    SUBCASE("cut between operators, every string whole: read up to the cut, not refused") {
        const std::string text = Padded(
            "{\"step1\": {\"collective\": {\"a@1\": {\"Communication Time Info\": {\"Elapse "
            "Time(ms)\": 2}},\n"
            "\"b@1\": {\"Communication Time Info\": {\"Elapse Time(ms)\": 3}},\n");
        CommunicationOps data;
        const Status status = ParseCommunicationJson(text, "communication.json", data);
        REQUIRE(status.ok());  // it was "the top level is not an object of steps"
        REQUIRE(data.ops.size() == 2);
        CHECK(data.ops[1].name == "b");
        REQUIRE(data.problems.size() == 1);
        CHECK(data.problems[0].message.rfind("the file is cut short or malformed after here (",
                                             0) == 0);
        CHECK(data.problems[0].line == 2);
    }
    SUBCASE("a value of the wrong type reads 0 and is reported at its place") {
        const std::string text = Padded(
            "{\"step1\": {\"p2p\": {\"send@9\": {\"Communication Time Info\": {\"Elapse "
            "Time(ms)\": \"n/a\", \"Wait Time(ms)\": 1}}}}}");
        CommunicationOps data;
        REQUIRE(ParseCommunicationJson(text, "communication.json", data).ok());
        REQUIRE(data.ops.size() == 1);
        CHECK(data.ops[0].elapseNs == 0);
        CHECK(data.ops[0].waitNs == 1000000);
        REQUIRE(data.problems.size() == 1);
        CHECK(FormatProblem("communication.json", data.problems[0]) ==
              "communication.json:1:78: error: \"Elapse Time(ms)\" is not a number: \"n/a\"; read "
              "as 0");
    }
    SUBCASE("a negative time, size or bandwidth leaves its operator or link out, with its place") {
        const std::string text = Padded(
            "{\"step1\": {\"p2p\": {\"send@9\": {\"Communication Time Info\": {\"Wait Time(ms)\": "
            "-20.5}},\n"
            "\"recv@9\": {\"Communication Time Info\": {\"Wait Time(ms)\": 1}, \"Communication "
            "Bandwidth Info\": "
            "{\"HCCS\": {\"Transit Size(MB)\": 2}}},\n"
            "\"bcast@9\": {\"Communication Bandwidth Info\": {\"HCCS\": {\"Bandwidth(GB/s)\": "
            "-3}}}}}}");
        CommunicationOps data;
        REQUIRE(ParseCommunicationJson(text, "communication.json", data).ok());
        REQUIRE(data.ops.size() == 1);
        CHECK(data.ops[0].name == "recv");
        REQUIRE(data.problems.size() == 2);
        CHECK(FormatProblem("communication.json", data.problems[0]) ==
              "communication.json:1:76: error: \"Wait Time(ms)\" is negative: -20.5; operator left "
              "out");
        CHECK(FormatProblem("communication.json", data.problems[1]) ==
              "communication.json:3:74: error: \"Bandwidth(GB/s)\" is negative: -3; operator left "
              "out");
        const std::string matrix = Padded(
            "{\"step1\": {\"collective\": {\"ar@1\": {\"0-1\": {\"Transit Time(ms)\": -1}, "
            "\"1-0\": {\"Transit Size(MB)\": 1e999},"
            " \"1-2\": {\"Transit Size(MB)\": 4}}}}}");
        CommunicationMatrix links;
        REQUIRE(ParseCommunicationMatrixJson(matrix, "communication_matrix.json", links).ok());
        REQUIRE(links.links.size() == 1);
        CHECK(links.links[0].srcRank == 1);
        CHECK(links.links[0].dstRank == 2);
        REQUIRE(links.problems.size() == 2);
        CHECK(links.problems[0].message == "\"Transit Time(ms)\" is negative: -1; link left out");
        CHECK(links.problems[1].message ==
              "\"Transit Size(MB)\" is out of range: 1e999; link left out");
    }
    SUBCASE("not JSON at all is refused") {
        CommunicationOps data;
        const Status status = ParseCommunicationJson(Padded("[1, 2]"), "communication.json", data);
        REQUIRE_FALSE(status.ok());
        CHECK(status.message() ==
              "communication.json:1:1: error: the top level is not an object of steps");
    }
}

TEST_CASE(
    "communication numbers read as strtod reads them, long mantissas and odd packet size keys "
    "included") {
    // simdjson reads the values where it is exact (up to 19 digits); the rest, and the packet
    // size keys that are not plain decimals, are read by strtod as they always were.
    const char* sizes[] = {"0.39105313830368432256",         "32.0000", "1E2", "4.9e-324", "1e-400",
                           "12345678901.234567890123456789", "0.1"};
    for (const char* size : sizes) {
        CAPTURE(size);
        const std::string text =
            Padded("{\"step1\": {\"collective\": {\"ar@1\": {\"0-1\": {\"Transit Size(MB)\": " +
                   std::string(size) + "}}}}}");
        CommunicationMatrix links;
        REQUIRE(ParseCommunicationMatrixJson(text, "communication_matrix.json", links).ok());
        REQUIRE(links.links.size() == 1);
        CHECK(links.links[0].transitSizeMb == std::strtod(size, nullptr));
        CHECK(links.problems.empty());
    }
    const char* keys[] = {"2.064384", "+1.5", " 2", "0x10", "inf",
                          "nan",      "3abc", ".5", "7.",   "0.39105313830368432256",
                          "-1"};
    for (const char* key : keys) {
        CAPTURE(key);
        const std::string text = Padded(
            "{\"step1\": {\"collective\": {\"ar@1\": {\"Communication Bandwidth Info\": "
            "{\"HCCS\": {\"Size Distribution\": {\"" +
            std::string(key) + "\": [1, 0.5]}}}}}}}");
        CommunicationOps data;
        REQUIRE(ParseCommunicationJson(text, "communication.json", data).ok());
        REQUIRE(data.ops.size() == 1);
        REQUIRE(data.ops[0].bandwidth.size() == 1);
        REQUIRE(data.ops[0].bandwidth[0].sizes.size() == 1);
        const double expected = std::strtod(key, nullptr),
                     read = data.ops[0].bandwidth[0].sizes[0].sizeMb;
        CHECK(((read == expected) || (std::isnan(read) && std::isnan(expected))));
    }
    // Not a number, out of range or negative: reported and left out as before.
    const std::string text = Padded(
        "{\"step1\": {\"collective\": {\"ar@1\": {\"0-1\": {\"Bandwidth(GB/s)\": -0.5}, "
        "\"1-0\": {\"Transit Size(MB)\": -1e999}, \"1-2\": {\"Transit Size(MB)\": \"1\"}}}}}");
    CommunicationMatrix links;
    REQUIRE(ParseCommunicationMatrixJson(text, "communication_matrix.json", links).ok());
    REQUIRE(links.links.size() == 1);
    CHECK(links.links[0].srcRank == 1);
    CHECK(links.links[0].transitSizeMb == 0);
    REQUIRE(links.problems.size() == 3);
    CHECK(links.problems[0].message == "\"Bandwidth(GB/s)\" is negative: -0.5; link left out");
    CHECK(links.problems[1].message ==
          "\"Transit Size(MB)\" is out of range: -1e999; link left out");
    CHECK(links.problems[2].message == "\"Transit Size(MB)\" is not a number: \"1\"; read as 0");
}

TEST_CASE(
    "communication.json read without its bandwidth keeps and rejects the same operators, with the "
    "same problems") {
    std::string text = "{\"step1\": {\"collective\": {";
    const char* values[] = {
        "12.5", "-3", "1e999", "0x1p2000", "\"abc\"", "-0", "7", "1.2.3", "0.39105313830368432256",
        "4e2"};
    for (size_t i = 0; i < std::size(values); ++i)
        text +=
            (i ? ", \"op" : "\"op") + std::to_string(i) +
            "@1\": {\"Communication Time Info\": {\"Elapse Time(ms)\": " + std::to_string(i + 1) +
            "}, \"Communication Bandwidth Info\": {\"HCCS\": {\"Bandwidth(GB/s)\": " + values[i] +
            ", \"Size Distribution\": {\"2.5\": [3, 0.5]}}}}";
    text += "}}}";
    text = Padded(text);
    CommunicationOps kept, checked;
    CommunicationReadOptions options;
    options.keepBandwidth = false;
    REQUIRE(ParseCommunicationJson(text, "communication.json", kept).ok());
    REQUIRE(ParseCommunicationJson(text, "communication.json", checked, options).ok());
    REQUIRE(checked.ops.size() == kept.ops.size());
    for (size_t i = 0; i < kept.ops.size(); ++i) {
        CHECK(checked.ops[i].name == kept.ops[i].name);
        CHECK(checked.ops[i].elapseNs == kept.ops[i].elapseNs);
        CHECK(checked.ops[i].bandwidth.empty());
        CHECK(kept.ops[i].bandwidth.size() == 1);
    }
    REQUIRE(checked.problems.size() == kept.problems.size());
    for (size_t i = 0; i < kept.problems.size(); ++i)
        CHECK(FormatProblem("c", checked.problems[i]) == FormatProblem("c", kept.problems[i]));
    // -3, 1e999 and the hexadecimal infinity leave their operators out; "abc" reads as 0.
    CHECK(kept.ops.size() == std::size(values) - 3);
    CHECK(kept.problems.size() == 4);
}

TEST_CASE("communication_matrix.json gives one link per source and destination rank") {
    const std::string text =
        Padded(R"json({"step50": {"p2p": {}, "collective": {"allreduce-top1@175": {
      "0-0": {"Transport Type": "LOCAL", "Transit Size(MB)": 4.128775999999999, "Transit Time(ms)": 0.008220156250000001,
              "Bandwidth(GB/s)": 502.2746, "Op Name": "hcom_allReduce__586_0_1"},
      "0-1": {"Transit Time(ms)": 2.153383, "Bandwidth(GB/s)": 17.5452, "Transport Type": "HCCS", "Transit Size(MB)": 37.781504},
      "zero-one": {"Transport Type": "HCCS"}}}}})json");
    CommunicationMatrix data;
    REQUIRE(ParseCommunicationMatrixJson(text, "communication_matrix.json", data).ok());
    REQUIRE(data.links.size() == 2);
    CHECK(data.links[0].srcRank == 0);
    CHECK(data.links[0].dstRank == 0);
    CHECK(data.links[0].transport == "LOCAL");
    CHECK(data.links[0].opName == "hcom_allReduce__586_0_1");
    CHECK(data.links[1].dstRank == 1);
    CHECK(data.links[1].transitNs == 2153383);
    CHECK(data.links[1].opName == "allreduce-top1");  // no "Op Name" (2023 files): the group key
    REQUIRE(data.problems.size() == 1);
    CHECK(data.problems[0].message ==
          "link \"zero-one\" is not \"<src rank>-<dst rank>\"; skipped");
}

TEST_CASE(
    "memory files give one curve per component and metric, and allocations with their lifetimes") {
    auto record = ParseMemoryRecordCsv(
        "Component,Timestamp(us),Total Allocated(MB),Total Reserved(MB),Device Type\r\n"
        "APP,1000.000\t,,2109.5,NPU:0\r\n"
        "PTA,1002.500\t,900.25,1452.0,NPU:0\r\n"
        "PTA,1001.000\t,950,1452.0,NPU:0\r\n"
        "PTA,bad\t,1,1,NPU:0\r\n",
        "memory_record.csv");
    REQUIRE(record.ok());
    REQUIRE(record.value().series.size() == 3);
    const MemorySeries& allocated = record.value().series[1];
    CHECK(allocated.component == "PTA");
    CHECK(allocated.metric == "Allocated");
    CHECK(allocated.timeNs == std::vector<TimeNs>{1001000, 1002500});  // sorted by time
    CHECK(allocated.peakMb == 950);
    CHECK(allocated.peakNs == 1001000);
    REQUIRE(record.value().problems.size() == 1);
    CHECK(FormatProblem("memory_record.csv", record.value().problems[0]) ==
          "memory_record.csv:5:1: error: column \"Timestamp(us)\": not a decimal number: \"bad\"; "
          "row skipped");

    auto memory = ParseOperatorMemoryCsv(
        "Name,Size(KB),Allocation Time(us),Release Time(us),Duration(us)\n"
        "aten::mm,147456.0,10.5\t,,\n"
        "aten::add,64,11\t,12.25\t,1.25\t\n",
        "operator_memory.csv");
    REQUIRE(memory.ok());
    REQUIRE(memory.value().allocations.size() == 2);
    CHECK_FALSE(memory.value().allocations[0].released);
    CHECK(memory.value().allocations[0].sizeKb == 147456.0);
    CHECK(memory.value().allocations[1].released);
    CHECK(memory.value().allocations[1].releaseNs == 12250);
}

TEST_CASE("fuzzy operator search finds letters in order and ranks whole words first") {
    CHECK(FuzzyScore("fas", "FlashAttentionScore") > 0);
    CHECK(FuzzyScore("xyz", "FlashAttentionScore") == -1);
    CHECK(FuzzyScore("", "Add") == 0);
    CHECK(FuzzyScore("matmul", "MatMulV2") >
          FuzzyScore("matmul", "aten::batch_matmul_backward_fused"));
    CHECK(FuzzyScore("mm", "MatMul") > 0);
    CHECK(FuzzyScore("add", "Add") > FuzzyScore("add", "ApplyDecayed"));
}

TEST_CASE("a generated rank folder is recognised and its views agree with each other") {
    const fs::path root = GeneratedRank(3, 20000);
    CHECK(IsRankDirectory(root.string()));
    CHECK(IsRankDirectory((root / "ASCEND_PROFILER_OUTPUT").string()));
    CHECK_FALSE(IsRankDirectory((root / "profiler_info_3.json").string()));
    std::unique_ptr<TraceModel> model;
    const RankAnalysis analysis = AnalyzeFolder(root, &model);
    CHECK(analysis.problems.empty());
    CHECK(analysis.files.rankId == RankId(3));
    CHECK(analysis.files.profilerLevel == "Level1");
    REQUIRE(analysis.steps);
    REQUIRE(analysis.overview.valid);
    CHECK(analysis.overview.source == std::string(kStepsOfStepTraceCsv));
    REQUIRE(analysis.overlapTracks.valid);
    // The trace's Overlap Analysis, the step trace and the kernels tell the same story.
    CHECK(analysis.overlapTracks.computingNs == analysis.overview.computingNs);
    CHECK(analysis.overlapTracks.freeNs == analysis.overview.freeNs);
    CHECK(analysis.overview.computingNs == analysis.steps->Total(kStepComputing));
    CHECK(analysis.overview.commNotOverlappedNs == analysis.steps->Total(kStepCommNotOverlapped));
    CHECK(analysis.overview.freeNs == analysis.steps->Total(kStepFree));
    REQUIRE(analysis.kernels);
    CHECK(OverviewFromKernels(*analysis.kernels).computingNs == analysis.overview.computingNs);
    // Every step is found on the timeline.
    REQUIRE(analysis.stepSpans.size() == analysis.steps->rows.size());
    for (const StepSpan& span : analysis.stepSpans) CHECK(span.found);
    // op_statistic.csv counts what kernel_details.csv lists.
    REQUIRE(analysis.opStatistic);
    std::map<std::string, uint64_t> fromKernels, fromStatistic;
    for (const OperatorStat& stat : OperatorsFromKernels(*analysis.kernels, false).byType)
        fromKernels[stat.name] = stat.count;
    for (const OpStatisticRow& row : analysis.opStatistic->rows)
        fromStatistic[row.type] = row.count;
    CHECK(fromKernels == fromStatistic);
    REQUIRE(analysis.communication);
    CHECK(analysis.communicationTotals.operators == analysis.steps->rows.size());
    REQUIRE(analysis.matrix);
    CHECK(analysis.matrix->links.size() == 3 * analysis.steps->rows.size());
    CHECK(analysis.matrix->links[1].srcRank == 3);
    CHECK(analysis.matrix->links[1].dstRank == 4);
    REQUIRE(analysis.memoryRecord);
    REQUIRE(analysis.memoryRecord->series.size() ==
            4);  // APP reserved; PTA allocated, reserved, active
    CHECK(analysis.memoryRecord->series[0].component == "APP");
    CHECK(analysis.memoryRecord->series[0].peakMb == doctest::Approx(2109.6015625));
    REQUIRE(analysis.operatorMemory);
    CHECK(analysis.operatorMemory->allocations.size() ==
          std::min<size_t>(analysis.kernels->rows.size() - analysis.steps->rows.size(), 4000));
    CHECK_FALSE(analysis.operatorMemory->allocations[49].released);
    CHECK(analysis.operatorMemory->allocations[0].released);
    fs::remove_all(root);
}

TEST_CASE(
    "a folder or a pipe under a data file's name, and a rank_id that is no rank id, are named, not "
    "taken as absent") {
    const fs::path root = GeneratedRank(5, 2000);
    const fs::path output = root / "ASCEND_PROFILER_OUTPUT";
    fs::remove(output / "kernel_details.csv");
    fs::create_directory(output / "kernel_details.csv");
    fs::remove(output / "step_trace_time.csv");
    REQUIRE(::mkfifo((output / "step_trace_time.csv").c_str(), 0600) == 0);
    for (const std::string value : {"-1", "9223372036854775808", "\"abc\"", "3.5"}) {
        CAPTURE(value);
        std::ofstream(root / "profiler_info_5.json") << "{\"rank_id\": " << value << "}";
        auto files = FindRankFiles(root.string());
        REQUIRE(files.ok());
        CHECK(files.value().rankId == RankId(5));
        CHECK(files.value().rankSource == "profiler_info_5.json (file name)");
        CHECK(files.value().kernelDetails.empty());
        CHECK(files.value().stepTrace.empty());
        REQUIRE(files.value().problems.size() == 3);
        CHECK(files.value().problems[0] ==
              (output / "kernel_details.csv").string() + ": error: a folder, not a file; not read");
        CHECK(files.value().problems[1] ==
              (output / "step_trace_time.csv").string() + ": error: a pipe, not a file; not read");
        CHECK(files.value().problems[2] ==
              (root / "profiler_info_5.json").string() + ": error: \"rank_id\" is " + value +
                  ": expected a rank id from 0 to 999999; the rank id is taken from the "
                  "file's or the folder's name");
    }
    fs::remove_all(root);
}

TEST_CASE(
    "a rank folder without trace_view.json opens its kernel_details.csv, and a missing file is "
    "named with its setting") {
    const fs::path root = GeneratedRank(1, 3000);
    fs::remove(root / "ASCEND_PROFILER_OUTPUT/trace_view.json");
    fs::remove(root / "ASCEND_PROFILER_OUTPUT/communication.json");
    auto resolved = ResolveTraceFile(root.string());
    REQUIRE(resolved.ok());
    CHECK(fs::path(resolved.value()).filename() == "kernel_details.csv");
    std::unique_ptr<TraceModel> model;
    const RankAnalysis analysis = AnalyzeFolder(root, &model);
    CHECK(analysis.overview.source == std::string(kStepsOfStepTraceCsv));
    CHECK_FALSE(analysis.overlapTracks.valid);  // no trace, no Overlap Analysis tracks
    CHECK_FALSE(analysis.communication);
    CHECK(MissingFileMessage(kCommunicationFile) ==
          "communication.json is not in this folder. The Ascend profiler writes it with "
          "profiler_level=ProfilerLevel.Level1 or Level2, on more than one card.");
    fs::remove_all(root);
}

TEST_CASE("a trace asked of a folder that holds only the profiler's database says to open it") {
    const fs::path root =
        fs::temp_directory_path() / ("marey_db_only_" + std::to_string(::getpid()));
    fs::remove_all(root);
    fs::create_directories(root / "ASCEND_PROFILER_OUTPUT");
    std::ofstream(root / "ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db")
        << "SQLite format 3";
    auto resolved = ResolveTraceFile(root.string());
    REQUIRE_FALSE(resolved.ok());
    CHECK(resolved.message().find("no trace in this folder, only its profiler database "
                                  "(ascend_pytorch_profiler_0.db): open the folder itself") !=
          std::string::npos);
    // Something that is not a file under a database's name is named as such.
    fs::remove(root / "ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db");
    fs::create_directory(root / "ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db");
    auto folder = ResolveTraceFile(root.string());
    REQUIRE_FALSE(folder.ok());
    CHECK(folder.message() ==
          (root / "ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db").string() +
              ": error: a folder, not a file; not read (and no trace is in " + root.string() + ")");
    fs::remove_all(root);
}

TEST_CASE(
    "real rank folders: the overview matches step_trace_time.csv and op_statistic.csv matches the "
    "kernels") {
    const std::string fixtures = FixturesDir();
    if (fixtures.empty()) return;
    for (const char* level : {"level0", "level1", "level2"}) {
        for (const char* rank : {"rank0_ascend_pt", "rank1_ascend_pt"}) {
            const fs::path folder =
                fs::path(fixtures) / "msinsight/test/data/pytorch/text" / level / rank;
            CAPTURE(folder.string());
            std::unique_ptr<TraceModel> model;
            const RankAnalysis analysis = AnalyzeFolder(folder, &model);
            CHECK(analysis.problems.empty());
            CHECK(analysis.files.rankId == RankId(rank[4] - '0'));
            REQUIRE(analysis.steps);
            REQUIRE(analysis.steps->rows.size() == 1);
            REQUIRE(analysis.overview.valid);
            // The overview is the steps' sum; the trace's own Overlap Analysis tracks (another
            // figure) agree within a µs: the CSV and the trace round their floats separately.
            CHECK(analysis.overview.computingNs == analysis.steps->Total(kStepComputing));
            REQUIRE(analysis.overlapTracks.valid);
            const OverviewFigures& tracks = analysis.overlapTracks;
            CHECK(std::llabs(tracks.computingNs - analysis.steps->Total(kStepComputing)) <= 1000);
            CHECK(std::llabs(tracks.commNotOverlappedNs -
                             analysis.steps->Total(kStepCommNotOverlapped)) <= 1000);
            CHECK(std::llabs(tracks.commOverlappedNs - analysis.steps->Total(kStepOverlapped)) <=
                  1000);
            CHECK(std::llabs(tracks.freeNs - analysis.steps->Total(kStepFree)) <= 1000);
            REQUIRE(analysis.stepSpans.size() == 1);
            CHECK(analysis.stepSpans[0].found);
            if (analysis.opStatistic) {
                std::map<std::string, uint64_t> fromKernels, fromStatistic;
                for (const OperatorStat& stat :
                     OperatorsFromKernels(*analysis.kernels, false).byType)
                    fromKernels[stat.name] = stat.count;
                for (const OpStatisticRow& row : analysis.opStatistic->rows)
                    fromStatistic[row.type] = row.count;
                CHECK(fromKernels == fromStatistic);
            }
            if (std::string(level) != "level0") {
                REQUIRE(analysis.communication);
                CHECK(analysis.communicationTotals.operators == 4);
                REQUIRE(analysis.matrix);
                CHECK(analysis.matrix->links.size() == 48);
            }
        }
    }
    // The 2023 folder: no trace_view.json, a short row in kernel_details.csv, 28 operators.
    const fs::path old = fs::path(fixtures) / "msinsight/server/src/test/test_data/test_rank_0";
    std::unique_ptr<TraceModel> model;
    const RankAnalysis analysis = AnalyzeFolder(old, &model);
    CHECK(analysis.files.rankId == RankId(0));
    REQUIRE(analysis.communication);
    CHECK(analysis.communicationTotals.operators == 28);
    CHECK(analysis.overview.source == std::string(kStepsOfStepTraceCsv));
}

TEST_CASE("marey stats DIR --json adds the rank's summaries") {
    const fs::path root = GeneratedRank(2, 5000);
    const std::string command = std::string(MAREY_BINARY) + " stats " + root.string() + " --json";
    int status = -1;
    const std::string out = test::RunCommand(command, &status);
    CHECK(status == 0);
    simdjson::dom::parser parser;
    simdjson::dom::element document;
    REQUIRE(parser.parse(out).get(document) == simdjson::SUCCESS);
    simdjson::dom::object rank;
    REQUIRE(document["rank"].get(rank) == simdjson::SUCCESS);
    CHECK(int64_t(rank["rank_id"]) == 2);
    CHECK(bool(rank["files"]["communication.json"]));
    CHECK(int64_t(rank["overview"]["total_ns"]) > 0);
    CHECK(std::string_view(rank["advice"].at(0)["kind"]).size() > 0);
    CHECK(simdjson::dom::array(rank["operators"]["by_type"]).size() == 20);
    CHECK(simdjson::dom::array(rank["steps"]).size() > 0);
    CHECK(int64_t(rank["steps"].at(0)["start_ns"]) > 0);
    CHECK(int64_t(rank["communication"]["operators"]) > 0);
    CHECK(simdjson::dom::array(rank["links"]).size() > 0);
    CHECK(int64_t(rank["memory"]["allocations"]) > 0);
    CHECK(simdjson::dom::array(rank["memory"]["series"]).size() == 4);
    CHECK(int64_t(document["slices"]) > 0);  // the trace summary is still there
    fs::remove_all(root);
}

// [SECTION] Steps of a trace, a loaded rank, and the JSON the stats commands write

TEST_CASE(
    "ProfilerStep#N slices give one step each, by start, at the earliest slice of a repeated "
    "name") {
    const auto model =
        LoadJson(R"([{"ph":"X","name":"ProfilerStep#7","pid":1,"tid":1,"ts":300,"dur":100},
        {"ph":"X","name":"ProfilerStep#6","pid":1,"tid":1,"ts":100,"dur":200},
        {"ph":"X","name":"ProfilerStep#6","pid":1,"tid":2,"ts":150,"dur":20},
        {"ph":"X","name":"ProfilerStep#","pid":1,"tid":3,"ts":0,"dur":1},
        {"ph":"X","name":"Step#8","pid":1,"tid":3,"ts":5,"dur":1}])");
    const std::vector<ProfilerStepSpan> steps = FindProfilerSteps(*model);
    REQUIRE(steps.size() == 2);
    CHECK(steps[0].step == "6");
    CHECK(steps[0].startNs == 100000);
    CHECK(steps[0].endNs == 300000);
    CHECK(steps[1].step == "7");
    CHECK(steps[1].startNs == 300000);
    CHECK(FindProfilerSteps(*LoadJson(R"([{"ph":"X","name":"a","pid":1,"tid":1,"ts":0,"dur":1}])"))
              .empty());
}

TEST_CASE(
    "a loaded rank holds the trace and an analysis, or only the analysis of a folder without a "
    "timeline") {
    const fs::path dir = TempDir("loaded_rank");
    std::ofstream(dir / "t.json") << R"([{"ph":"X","name":"a","pid":1,"tid":1,"ts":0,"dur":1}])";
    auto plain = LoadRank((dir / "t.json").string());
    REQUIRE_MESSAGE(plain.ok(), plain.message());
    const LoadedRank& trace = plain.value();
    CHECK(trace.path == (dir / "t.json").string());
    REQUIRE(trace.model != nullptr);
    CHECK(trace.model->sliceCount == 1);
    REQUIRE(trace.analysis != nullptr);
    CHECK(trace.analysis->files.root.empty());
    CHECK_FALSE(trace.analysis->steps.has_value());

    fs::create_directories(dir / "rank" / "ASCEND_PROFILER_OUTPUT");
    std::ofstream(dir / "rank" / "ASCEND_PROFILER_OUTPUT" / "step_trace_time.csv")
        << "Step,Computing,Free\n1,10,2\n";
    auto folder = LoadRank((dir / "rank").string());
    REQUIRE_MESSAGE(folder.ok(), folder.message());
    CHECK(folder.value().model == nullptr);
    REQUIRE(folder.value().analysis != nullptr);
    REQUIRE(folder.value().analysis->steps.has_value());
    REQUIRE(folder.value().analysis->steps->rows.size() == 1);
    CHECK(folder.value().analysis->steps->rows[0].ns[kStepComputing] == 10000);

    CHECK_FALSE(LoadRank((dir / "absent.json").string()).ok());
    fs::remove_all(dir);
}

TEST_CASE(
    "the JSON writer keeps keys in order, escapes strings and writes what is not finite as null") {
    std::string out;
    {
        JsonObject root(out);
        root.Int("n", -5);
        root.Real("third", 1.0 / 3.0);
        root.Real("inf", std::numeric_limits<double>::infinity());
        root.String("s", "a\"b\n");
        root.Null("none");
        JsonArray(root.Key("ids"), std::vector<int>{1, 2},
                  [](std::string& o, int id) { o += std::to_string(id); });
        JsonArray(root.Key("empty"), std::vector<int>{},
                  [](std::string& o, int id) { o += std::to_string(id); });
        JsonArrayOfObjects(root.Key("objects"), std::vector<int>{3},
                           [](JsonObject& o, int v) { o.Int("v", v); });
    }
    CHECK(
        out ==
        R"({"n": -5, "third": 0.333333333, "inf": null, "s": "a\"b\n", "none": null, "ids": [1, 2], "empty": [], )"
        R"("objects": [{"v": 3}]})");
    CHECK(JsonNumber(std::nan("")) == "null");
    CHECK(JsonNumber(2.5) == "2.5");
}

TEST_CASE("the overview figures are written as six integer keys in nanoseconds") {
    OverviewFigures figures;
    figures.computingNs = 100, figures.pureComputingNs = 70, figures.commOverlappedNs = 30;
    figures.commNotOverlappedNs = 20, figures.freeNs = 10, figures.totalNs = 130;
    std::string out;
    {
        JsonObject object(out);
        WriteOverviewFigures(object, figures);
    }
    CHECK(out ==
          R"({"computing_ns": 100, "pure_computing_ns": 70, "communication_overlapped_ns": 30, )"
          R"("communication_not_overlapped_ns": 20, "free_ns": 10, "total_ns": 130})");
}

TEST_CASE(
    "op_statistic.csv gives a row per operator type in exact nanoseconds, a bad count reported") {
    const std::string text =
        "OP Type,Core Type,Count,Total Time(us),Min Time(us),Avg Time(us),Max Time(us),Ratio(%)\n"
        "MatMul,AI_CORE,3,30.001,9.5,10.000333,10.5,75.5\n"
        "Add,AI_VECTOR_CORE,-2,4,2,2,2,24.5\n";
    auto table = ParseOpStatisticCsv(text, "op_statistic.csv");
    REQUIRE(table.ok());
    REQUIRE(table.value().rows.size() == 2);
    const OpStatisticRow& matmul = table.value().rows[0];
    CHECK(matmul.type == "MatMul");
    CHECK(matmul.coreType == "AI_CORE");
    CHECK(matmul.count == 3);
    CHECK(matmul.totalNs == 30001);
    CHECK(matmul.avgNs == 10000);
    CHECK(matmul.ratioPercent == doctest::Approx(75.5));
    CHECK(table.value().rows[1].count == 0);
    REQUIRE(table.value().problems.size() == 1);
    CHECK(FormatProblem("op_statistic.csv", table.value().problems[0])
              .rfind("op_statistic.csv:3:1: error: column \"Count\"", 0) == 0);
    CHECK_FALSE(ParseOpStatisticCsv("a,b\n1,2\n", "x.csv").ok());
}
