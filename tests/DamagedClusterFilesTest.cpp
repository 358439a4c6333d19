// The damaged-cluster hold-out, in the exact words and behaviour: a value that is no figure (NaN,
// Infinity, a time past range, a negative duration) leaves its operator, link or row out instead
// of being read as 0; a row cut inside a quote or with cells that cannot be told apart is not
// read; a header-only step file says so; a rank named only by the communication files is no
// rank; a summary line that lost its rank id takes its folder's; and a repeated or unnamed rank
// joins no group.
#include <doctest/doctest.h>

#include <simdjson.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "ClusterGenerator.hpp"
#include "TestSupport.hpp"
#include "cluster/AnalysisOutputReader.hpp"
#include "cluster/Cluster.hpp"
#include "cluster/MindInsightReader.hpp"
#include "core/Problem.hpp"
#include "load/CommunicationJson.hpp"
#include "load/KernelTable.hpp"
#include "load/StepTraceCsv.hpp"
#include "loading/ClusterLoader.hpp"

using namespace marey;
namespace fs = std::filesystem;

namespace {

std::string Padded(std::string text) {
    const size_t size = text.size();
    text.resize(size + simdjson::SIMDJSON_PADDING, '\0');
    text.resize(size);
    return text;
}

bool HasProblem(const std::vector<std::string>& problems, const std::string& part) {
    for (const std::string& problem : problems)
        if (problem.find(part) != std::string::npos) return true;
    return false;
}

}  // namespace

TEST_CASE("NaN, Infinity and a time past range leave their operator or link out, never read as 0") {
    struct Case {
        const char* value;
        const char* message;
    };
    const Case cases[] = {
        {"NaN", "\"Transit Time(ms)\" is not a finite number: NaN; link left out"},
        {"Infinity", "\"Transit Time(ms)\" is not a finite number: Infinity; link left out"},
        {"-Infinity", "\"Transit Time(ms)\" is out of range: -Infinity; link left out"},
        {"1e308", "\"Transit Time(ms)\" is out of range: 1e308; link left out"},
    };
    for (const Case& c : cases) {
        CAPTURE(c.value);
        const std::string text =
            Padded(std::string("{\"step1\": {\"collective\": {\"ar@1\": {\"0-1\": "
                               "{\"Transit Time(ms)\": ") +
                   c.value + "\n   }, \"1-2\": {\"Transit Time(ms)\": 4}}}}}");
        CommunicationMatrix links;
        REQUIRE(ParseCommunicationMatrixJson(text, "communication_matrix.json", links).ok());
        REQUIRE(links.links.size() == 1);
        CHECK(links.links[0].srcRank == 1);
        REQUIRE(links.problems.size() == 1);
        CHECK(links.problems[0].message == c.message);
    }
    const std::string ops = Padded(
        "{\"step1\": {\"collective\": {\"hcom_allReduce_1\": {\"Communication Time Info\": "
        "{\"Elapse Time(ms)\": NaN, \"Wait Time(ms)\": 1}}, \"hcom_allReduce_2\": "
        "{\"Communication Time Info\": {\"Elapse Time(ms)\": 2, \"Wait Time(ms)\": 1}}}}}");
    CommunicationOps data;
    REQUIRE(ParseCommunicationJson(ops, "communication.json", data).ok());
    REQUIRE(data.ops.size() == 1);
    CHECK(data.ops[0].name == "hcom_allReduce_2");
    REQUIRE(data.problems.size() == 1);
    CHECK(data.problems[0].message ==
          "\"Elapse Time(ms)\" is not a finite number: NaN; operator left out");
}

TEST_CASE("a size or bandwidth past 10^12, or a ratio past 1, leaves its link or operator out") {
    struct Case {
        const char* field;
        const char* value;
    };
    for (const Case& c : {Case{"Transit Size(MB)", "1e308"}, Case{"Bandwidth(GB/s)", "2e12"}}) {
        CAPTURE(c.field);
        const std::string text =
            Padded(std::string("{\"step1\": {\"collective\": {\"ar@1\": {\"0-1\": {\"") + c.field +
                   "\": " + c.value +
                   ", \"Transit Time(ms)\": 1}, \"1-2\": {\"Transit Time(ms)\": 4}}}}}");
        CommunicationMatrix links;
        REQUIRE(ParseCommunicationMatrixJson(text, "communication_matrix.json", links).ok());
        REQUIRE(links.links.size() == 1);
        CHECK(links.links[0].srcRank == 1);
        REQUIRE(links.problems.size() == 1);
        CHECK(links.problems[0].message ==
              "\"" + std::string(c.field) + "\" is out of range: " + c.value + "; link left out");
    }
    const std::string ops = Padded(
        "{\"step1\": {\"collective\": {\"hcom_allReduce_1\": {\"Communication Time Info\": "
        "{\"Elapse Time(ms)\": 1, \"Wait Time Ratio\": 1.5}}, \"hcom_allReduce_2\": "
        "{\"Communication Time Info\": {\"Elapse Time(ms)\": 2, \"Wait Time Ratio\": 1}}}}}");
    CommunicationOps data;
    REQUIRE(ParseCommunicationJson(ops, "communication.json", data).ok());
    REQUIRE(data.ops.size() == 1);
    CHECK(data.ops[0].name == "hcom_allReduce_2");
    CHECK(data.ops[0].waitRatio == 1);
    REQUIRE(data.problems.size() == 1);
    CHECK(data.problems[0].message ==
          "\"Wait Time Ratio\" is out of range: 1.5; operator left out");
}

TEST_CASE("a CSV row cut inside a quote is named and not read, the rows before it are") {
    const std::string text =
        "Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us)\n"
        "1,MatMul,MatMul,AI_CORE,10,5\n"
        "1,\"Add,cut";
    auto table = ParseKernelTable(text, "kernel_details.csv");
    REQUIRE(table.ok());
    CHECK(table.value().rows.size() == 1);
    REQUIRE(table.value().problems.size() == 1);
    CHECK(FormatProblem("kernel_details.csv", table.value().problems[0]) ==
          "kernel_details.csv:3:1: error: a quoted field never closes: the file is truncated "
          "inside this row; row left out");
}

TEST_CASE("a kernel row that lost a cell, or the last row cut without its line end, is left out") {
    // The short row is as a real file has it (msinsight's test_rank_0): its Duration column
    // holds the wait, every cell after its start one to the left.
    const std::string text =
        "Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us)\n"
        "1,MatMul,MatMul,AI_CORE,10,5,0\n"
        "1,FlashAttentionScore,FlashAttentionScore,MIX_AIC,20,1.8\n"
        "1,Add,Add,AI_VECTOR_CORE,30,2,0\n"
        "1,Mul,Mul,AI_VECTOR_CORE,40,3";
    auto table = ParseKernelTable(text, "kernel_details.csv");
    REQUIRE(table.ok());
    REQUIRE(table.value().rows.size() == 2);  // MatMul and Add
    CHECK(table.value().rows[1].startNs == 30000);
    REQUIRE(table.value().problems.size() == 2);
    CHECK(FormatProblem("kernel_details.csv", table.value().problems[0]) ==
          "kernel_details.csv:3:1: error: a row of 6 cells against the header's 7 columns; row "
          "left out");
    CHECK(FormatProblem("kernel_details.csv", table.value().problems[1]) ==
          "kernel_details.csv:5:1: error: the last row has no line end: the file is cut inside "
          "it; row left out");
}

TEST_CASE("a step row with more cells than the header, or a header alone, reads no step") {
    auto shifted = ParseStepTraceCsv(
        "Step,Computing,Communication(Not Overlapped),Free\n"
        "1,74463,123,20,3\n"
        "2,74000,20,3,,\n",
        "step_trace_time.csv");
    REQUIRE(shifted.ok());
    REQUIRE(shifted.value().rows.size() == 1);  // trailing empty cells are harmless
    CHECK(shifted.value().rows[0].step == "2");
    REQUIRE(shifted.value().problems.size() == 1);
    CHECK(FormatProblem("step_trace_time.csv", shifted.value().problems[0]) ==
          "step_trace_time.csv:2:1: error: a row of 5 cells against the header's 4 columns: its "
          "cells cannot be told apart; row left out");

    auto header = ParseStepTraceCsv("Step,Computing,Free\n", "step_trace_time.csv");
    REQUIRE(header.ok());
    CHECK(header.value().rows.empty());
    REQUIRE(header.value().problems.size() == 1);
    CHECK(header.value().problems[0].message == "the file holds its header and no step");
}

TEST_CASE("MindInsight cells that are no duration leave their row out, a long row is not read") {
    const fs::path dir = test::TempDir("mindinsight_damage");
    std::ofstream(dir / "step_trace_raw_1_detail_time.csv")
        << "step_num,iteration_interval,fp_and_bp,tail\n"
           "1,10,20,30\n"
           "2,10,-5,30\n"
           "3,10,NaN,30\n"
           "4,10,20,30,99\n"
           "5,11,21,31\n";
    const ClusterRank rank =
        ReadMindInsightRank((dir / "step_trace_raw_1_detail_time.csv").string());
    REQUIRE(rank.steps.size() == 2);
    CHECK(rank.steps[0].step == "1");
    CHECK(rank.steps[1].step == "5");
    CHECK(rank.steps[1].ns[kStepComputing] == 210);
    CHECK(
        HasProblem(rank.problems,
                   ":3:1: error: column \"fp_and_bp\": a negative duration: \"-5\"; row left out"));
    CHECK(HasProblem(rank.problems, ":4:1: error: column \"fp_and_bp\""));
    CHECK(HasProblem(rank.problems,
                     ":5:1: error: a row of 5 cells against the header's 4 columns; row left out"));
    fs::remove_all(dir);
}

TEST_CASE("a rank named only by the communication files, past the step file's ranks, is no rank") {
    const fs::path dir = test::TempDir("analysis_output_rank99");
    std::ofstream(dir / "cluster_step_trace_time.csv")
        << "Step,Type,Index,Computing,Communication(Not Overlapped),Free\n"
           "2,rank,0,100.5,20,3\n"
           "2,rank,1,110,20,3\n";
    std::ofstream(dir / "cluster_communication_matrix.json")
        << "{\"step2\": {\"collective\": {\"ar@1\": {\"0-1\": {\"Transit Time(ms)\": 1}, "
           "\"99-0\": {\"Transit Time(ms)\": 1}}}}}";
    Cluster cluster;
    const Status status = ReadAnalysisOutput(dir.string(), cluster);
    REQUIRE_MESSAGE(status.ok(), status.message());
    REQUIRE(cluster.ranks.size() == 2);
    CHECK(cluster.ranks[1].rankId == RankId(1));
    CHECK(HasProblem(cluster.problems,
                     "cluster_communication_matrix.json: rank 99 is in neither "
                     "cluster_step_trace_time.csv nor communication_group.json; its 1 link left "
                     "out"));
    fs::remove_all(dir);
}

TEST_CASE("a summary line that lost its rank id takes its folder's, and joins its groups as that") {
    const fs::path dir = test::TempDir("summary_lost_id");
    ClusterOptions options;
    options.ranks = 4;
    options.steps = 3;
    std::string error;
    REQUIRE_MESSAGE(WriteCluster(options, (dir / "job").string(), &error), error);
    const std::string summary = (dir / "job.jsonl").string();
    int status = 0;
    test::RunCommand(std::string(MAREY_BINARY) + " summarize " + (dir / "job").string() +
                         " --out " + summary + " 2>&1",
                     &status);
    REQUIRE(status == 0);
    std::ifstream in(summary, std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), {});
    const size_t at = text.find("\"rank\": 2,");
    REQUIRE(at != std::string::npos);
    text.replace(at, 10, "\"rank\": -1,");
    std::ofstream(summary, std::ios::binary) << text;

    auto cluster = LoadCluster(summary, 2);
    REQUIRE_MESSAGE(cluster.ok(), cluster.message());
    REQUIRE(cluster.value().ranks.size() == 4);
    CHECK(cluster.value().ranks[2].rankId == RankId(2));
    CHECK(cluster.value().missingRanks.empty());
    CHECK(HasProblem(cluster.value().problems,
                     "no rank id where it was read; rank 2 from its folder's name"));
    for (const ClusterGroup& group : cluster.value().groups)
        for (const int rank : group.ranks) CHECK((rank >= 0 && rank < 4));
    fs::remove_all(dir);
}

TEST_CASE("summarize of a job refuses a second line of one rank id, as that of rank folders does") {
    const fs::path dir = test::TempDir("summary_repeated_id");
    ClusterOptions options;
    options.ranks = 3;
    options.steps = 2;
    std::string error;
    REQUIRE_MESSAGE(WriteCluster(options, (dir / "job").string(), &error), error);
    // Rank 2's folder claims rank 0 in its profiler_info file.
    for (const auto& entry : fs::recursive_directory_iterator(dir / "job" / "rank_2_ascend_pt"))
        if (entry.path().filename().string().rfind("profiler_info", 0) == 0) {
            fs::remove(entry.path());
            std::ofstream(entry.path().parent_path() / "profiler_info_0.json")
                << R"({"rank_id": 0})";
            break;
        }
    fs::rename(dir / "job" / "rank_2_ascend_pt", dir / "job" / "other_ascend_pt");
    const std::string summary = (dir / "job.jsonl").string();
    int status = 0;
    const std::string output =
        test::RunCommand(std::string(MAREY_BINARY) + " summarize " + (dir / "job").string() +
                             " --out " + summary + " 2>&1",
                         &status);
    CHECK(status != 0);
    CHECK(output.find("error: rank 0 again (also ") != std::string::npos);
    std::ifstream in(summary, std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(in)), {});
    size_t lines = 0;
    for (size_t at = 0; (at = text.find("\"rank\": 0,", at)) != std::string::npos; ++at) ++lines;
    CHECK(lines == 1);
    fs::remove_all(dir);
}

TEST_CASE("a link key that is no rank pair, or a link that is no object, is named where it is") {
    const std::string text = Padded(
        "{\"step1\": {\"collective\": {\"ar@1\": {\"1-abc\": {\"Transit Time(ms)\": 1},\n"
        "\"1-3\": 5, \"0-1\": {\"Transit Time(ms)\": 2}}}}}");
    CommunicationMatrix links;
    REQUIRE(ParseCommunicationMatrixJson(text, "communication_matrix.json", links).ok());
    REQUIRE(links.links.size() == 1);
    CHECK(links.links[0].srcRank == 0);
    REQUIRE(links.problems.size() == 2);
    CHECK(links.problems[0].byteOffset == text.find("\"1-abc\"") + 9);  // its figures
    CHECK(links.problems[0].message == "link \"1-abc\" is not \"<src rank>-<dst rank>\"; skipped");
    CHECK(links.problems[1].byteOffset == text.find("\"1-3\"") + 7);
    CHECK(links.problems[1].message == "link \"1-3\" is not an object of figures; skipped");
}

TEST_CASE("a link key repeated in one operator is one link, each repeat named") {
    std::string body = "\"0-1\": {\"Transit Time(ms)\": 2, \"Transit Size(MB)\": 4}";
    for (int i = 0; i < 10000; ++i) body += ", \"0-1\": {\"Transit Time(ms)\": 2}";
    const std::string text = Padded("{\"step1\": {\"collective\": {\"ar@1\": {" + body +
                                    "}, \"ar@2\": {\"0-1\": {\"Transit Time(ms)\": 3}}}}}");
    CommunicationMatrix links;
    REQUIRE(ParseCommunicationMatrixJson(text, "communication_matrix.json", links).ok());
    // The first of ar@1, and ar@2's own (another operator: no repeat).
    REQUIRE(links.links.size() == 2);
    CHECK(links.links[0].transitSizeMb == 4);
    CHECK(links.links[1].transitNs == 3000000);
    REQUIRE(links.problems.size() == 10000);
    CHECK(links.problems[0].message == "link \"0-1\" again in this operator; the first kept");
}

TEST_CASE("a negative start timestamp of an operator is named and not used") {
    const std::string ops = Padded(
        "{\"step1\": {\"collective\": {\"hcom_allReduce_1\": {\"Communication Time Info\": "
        "{\"Start Timestamp(us)\": -5, \"Elapse Time(ms)\": 2}}}}}");
    CommunicationOps data;
    REQUIRE(ParseCommunicationJson(ops, "communication.json", data).ok());
    REQUIRE(data.ops.size() == 1);
    CHECK_FALSE(data.ops[0].hasStart);
    CHECK(data.ops[0].elapseNs == 2000000);
    REQUIRE(data.problems.size() == 1);
    CHECK(data.problems[0].message == "\"Start Timestamp(us)\" is negative: -5; ignored");
}

TEST_CASE("kernel rows of a step the step file does not list are named, not silently dropped") {
    const fs::path dir = test::TempDir("kernel_unknown_step");
    ClusterOptions options;
    options.ranks = 2;
    options.steps = 3;
    std::string error;
    REQUIRE_MESSAGE(WriteCluster(options, (dir / "job").string(), &error), error);
    const fs::path kernels =
        dir / "job" / "rank_1_ascend_pt" / "ASCEND_PROFILER_OUTPUT" / "kernel_details.csv";
    std::ifstream in(kernels, std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), {});
    in.close();
    // The last step's rows say step 99.
    const size_t lastLine = text.rfind('\n', text.size() - 2) + 1;
    const std::string last = text.substr(lastLine, text.find(',', lastLine) - lastLine) + ",";
    size_t moved = 0;
    for (size_t at = 0; (at = text.find("\n" + last, at)) != std::string::npos; ++moved)
        text.replace(at + 1, last.size(), "99,");
    REQUIRE(moved > 0);
    std::ofstream(kernels, std::ios::binary) << text;
    auto cluster = LoadCluster((dir / "job").string(), 2);
    REQUIRE_MESSAGE(cluster.ok(), cluster.message());
    CHECK(HasProblem(cluster.value().problems,
                     "kernel_details.csv: " + std::to_string(moved) +
                         " rows of 1 step (99) that step_trace_time.csv does not list: in no "
                         "step's figures"));
    fs::remove_all(dir);
}
