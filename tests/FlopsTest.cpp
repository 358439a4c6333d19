// MindSpore's FLOPs files: the real summaries of MindInsight's cluster to the digit, the operator
// table and the scope tree with their damage named, a rank's "resources", each rank's FLOPs in
// its cluster (JSON, summary files) and the unbalanced-FLOPs finding on real and generated ranks.
#include <doctest/doctest.h>
#include <simdjson.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "ClusterGenerator.hpp"
#include "FlopsWriter.hpp"
#include "TestSupport.hpp"
#include "cluster/ClusterFindings.hpp"
#include "cluster/ClusterRankFile.hpp"
#include "load/FlopsFiles.hpp"
#include "load/MemoryCsv.hpp"
#include "loading/ClusterLoader.hpp"
#include "loading/RankLoader.hpp"
#include "report/RankJson.hpp"
#include "rank/RankFlops.hpp"
#include "report/ResourcesJson.hpp"

using namespace marey;
namespace fs = std::filesystem;

TEST_CASE("MindInsight's cluster FLOPs summaries, read to the digit, are unbalanced by rank") {
    const std::string fixtures = test::FixturesDir();
    if (fixtures.empty()) {
        MESSAGE("skipped: real fixtures not found");
        return;
    }
    const fs::path dir = fixtures + "/mindinsight/tests/utils/resource/cluster_propose";
    auto cluster = LoadCluster(dir.string(), 1);
    REQUIRE_MESSAGE(cluster.ok(), cluster.message());
    REQUIRE(cluster.value().ranks.size() == 4);
    const double expected[4][3] = {{107146.763, 5385.552, 0.23},
                                   {107145.034, 5386.261, 0.229},
                                   {329608.369, 4859.39, 0.725},
                                   {329612.4, 4897.642, 0.725}};
    for (const ClusterRank& rank : cluster.value().ranks) {
        CAPTURE(rank.rankId);
        REQUIRE(rank.rankId.has_value());
        REQUIRE(rank.Id().value() < 4);
        CHECK(rank.flopsSource == "flops_summary_" + ToString(rank.Id()) + ".json");
        CHECK(rank.flops.mflops == expected[rank.Id().value()][0]);
        CHECK(rank.flops.gflopsPerS == expected[rank.Id().value()][1]);
        CHECK(rank.flops.utilizationPercent == expected[rank.Id().value()][2]);
    }
    int found = 0;
    for (const ClusterFinding& finding : FindClusterProblems(cluster.value())) {
        if (finding.kind != ClusterFindingKind::kFlopsUnbalanced) continue;
        ++found;
        CHECK(finding.ranks == std::vector<int>{2, 3});
        // cluster_propose reads as two pipeline stages: the heavy one is named as the stage.
        CHECK(finding.unitKind == "stage");
        CHECK(finding.text.rfind("Unbalanced FLOPs across the pipeline: stage 1 (ranks 2-3) "
                                 "carries 207.6 % more FLOPs than the other stages' median (329.6 "
                                 "GFLOPs a rank against 107.1 GFLOPs",
                                 0) == 0);
    }
    CHECK(found == 1);
}

TEST_CASE("a FLOPs summary is read, and one that holds no FLOPs or damaged values is named") {
    auto summary = ParseFlopsSummaryJson(
        "\xEF\xBB\xBF{\"FLOPs\": 8167.743, \"FLOPS\": 9868, \"FLOPS_Utilization\": 3.765}",
        "s.json");
    REQUIRE_MESSAGE(summary.ok(), summary.message());
    const FlopsSummary& read = summary.value().summary;
    CHECK(read.mflops == 8167.743);
    CHECK(read.gflopsPerS == 9868);
    CHECK(read.Flops() == doctest::Approx(8167.743e6));
    CHECK(read.UtilizationShare() == doctest::Approx(0.03765));
    CHECK(summary.value().problems.empty());
    // A damaged key leaves its figure unknown, named; the others are read.
    const struct {
        const char* text;
        const char* problem;
    } damaged[] = {
        {"{\"FLOPs\": -1, \"FLOPS\": 2}",
         "s.json: error: \"FLOPs\": expected a number from 0 to 1e+12, got -1; left unknown"},
        {"{\"FLOPs\": 1e308, \"FLOPS\": 2}",
         "s.json: error: \"FLOPs\": expected a number from 0 to 1e+12, got 1e+308; left unknown"},
        {"{\"FLOPS_Utilization\": 5000, \"FLOPS\": 2}",
         "s.json: error: \"FLOPS_Utilization\": expected a number from 0 to 100, got 5000; left "
         "unknown"},
        {"{\"FLOPS\": \"fast\", \"FLOPs\": 3}",
         "s.json: error: \"FLOPS\": expected a number from 0 to 1e+09, got \"fast\"; left "
         "unknown"},
    };
    for (const auto& [text, problem] : damaged) {
        CAPTURE(text);
        auto partly = ParseFlopsSummaryJson(text, "s.json");
        REQUIRE(partly.ok());
        CHECK(partly.value().problems == std::vector<std::string>{problem});
        const FlopsSummary& kept = partly.value().summary;
        CHECK((kept.mflops == 3 || kept.gflopsPerS == 2));
        CHECK(std::min({kept.mflops, kept.gflopsPerS, kept.utilizationPercent}) == -1);
    }
    CHECK(ParseFlopsSummaryJson("{\"flops\": 1}", "s.json").message() ==
          "s.json: error: none of \"FLOPs\", \"FLOPS\" and \"FLOPS_Utilization\": not a FLOPs "
          "summary");
    CHECK(ParseFlopsSummaryJson("{\"FLOPs\": 1", "s.json")
              .message()
              .rfind("s.json: error: not a JSON object", 0) == 0);
    // Only the utilisation: the rest stays unknown.
    summary = ParseFlopsSummaryJson("{\"FLOPS_Utilization\": 1.5}", "s.json");
    REQUIRE(summary.ok());
    CHECK(summary.value().summary.mflops == -1);
    CHECK(summary.value().summary.Flops() == -1);
}

TEST_CASE("the operators' FLOPs: both headers read, damaged rows named with their line") {
    // MindSpore's header and the one MindInsight's tests use.
    for (const char* header : {"op_full_name, MFLOPs(10^6), GFLOPS(10^9), FLOPS utilization(%) \n",
                               "full_kernel_name, FLOPs, FLOPS, FLOPS utilization\n"}) {
        const std::string text = std::string(header) +
                                 "Default/net/Conv2D-op1, 300.5, 20.25, 6.3\n"
                                 "Default/net/MatMul-op2, 900, 40, 12.5\n"
                                 "Default/net/Add-op3, -1, 1, 1\n"
                                 "Default/net/Mul-op4, 1, nan, 1\n"
                                 "Default/net/Short-op5, 1\n"
                                 ", 1, 1, 1\n"
                                 "Default/net/Hex-op6, 0x10, 1, 1\n"
                                 "Default/net/Over-op7, 1, 1, 9999\n"
                                 "Default/net/MatMul-op2, 900, 40, 12.5\n"
                                 "Default/net/Cut-op8, 1, 1, 5";
        auto table = ParseOperatorFlopsText(text, "flops_0.txt");
        REQUIRE(table.ok());
        REQUIRE(table.value().operators.size() == 2);
        CHECK(table.value().operators[1].name == "Default/net/MatMul-op2");
        CHECK(table.value().operators[1].mflops == 900);
        CHECK(table.value().operators[0].utilizationPercent == 6.3);
        CHECK(test::ProblemsOf(table.value().problems) ==
              "4:1: column \"MFLOPs\": not a number from 0 to 1e+12: \" -1\"; row left out\n"
              "5:1: column \"GFLOPS\": not a number from 0 to 1e+09: \" nan\"; row left out\n"
              "6:1: a row of 2 cells against the header's 4 columns; row left out\n"
              "7:1: no operator name; row left out\n"
              "8:1: column \"MFLOPs\": not a number from 0 to 1e+12: \" 0x10\"; row left out\n"
              "9:1: column \"utilisation (%)\": not a number from 0 to 100: \" 9999\"; row left "
              "out\n"
              "10:1: operator Default/net/MatMul-op2 again; row left out\n"
              "11:1: the last row has no line end: the file is cut inside it; row left out\n");
        const FlopsSummary summary = SummarizeOperatorFlops(table.value().operators);
        CHECK(summary.mflops == doctest::Approx(1200.5));
        CHECK(summary.gflopsPerS == doctest::Approx(30.125));
        CHECK(summary.utilizationPercent == doctest::Approx(9.4));
    }
    CHECK(ParseOperatorFlopsText("", "flops_0.txt").message() ==
          "flops_0.txt: error: the file is empty");
    CHECK(ParseOperatorFlopsText("name, FLOPs\nx, 1\n", "flops_0.txt").message() ==
          "flops_0.txt:1:1: error: expected four columns (the operator's name, MFLOPs, GFLOPS, "
          "utilisation %); the file is not read");
}

TEST_CASE(
    "the FLOPs by scope as a tree from Total, with loops, second parents and bad values named") {
    const std::string text =
        "{\"data\": {\"nodes\": [], \"links\": ["
        "{\"source\": \"Total\", \"target\": \"Default\", \"value\": 100},"
        "{\"source\": \"Total\", \"target\": \"Gradients\", \"value\": 250},"
        "{\"source\": \"Default\", \"target\": \"net(0_Default)\", \"value\": 90},"
        "{\"source\": \"Gradients\", \"target\": \"net(0_Default)\", \"value\": 5},"
        "{\"source\": \"net(0_Default)\", \"target\": \"Default\", \"value\": 1},"
        "{\"source\": \"Default\", \"target\": \"x\", \"value\": -3},"
        "{\"source\": \"Default\"}"
        "]}, \"max_scope_num\": 2}";
    auto tree = ParseFlopsScopeJson(text, "scope.json");
    REQUIRE_MESSAGE(tree.ok(), tree.message());
    const FlopsScopeTree& t = tree.value();
    REQUIRE(t.nodes.size() == 4);
    CHECK(t.nodes[0].name == "Total");
    CHECK(t.nodes[0].mflops == 350);
    // Largest first: Gradients (250) before Default (100).
    REQUIRE(t.nodes[0].children.size() == 2);
    CHECK(t.nodes[static_cast<size_t>(t.nodes[0].children[0])].name == "Gradients");
    CHECK(t.nodes[static_cast<size_t>(t.nodes[0].children[1])].name == "Default");
    CHECK(t.problems == std::vector<std::string>{
                            "scope.json: error: data.links[3]: \"net(0_Default)\" has a parent "
                            "already; left out",
                            "scope.json: error: data.links[4]: \"Default\" has a parent already; "
                            "left out",
                            "scope.json: error: data.links[5]: \"value\": expected MFLOPs, a "
                            "number from 0 to 1e+12; left out",
                            "scope.json: error: data.links[6]: expected a \"source\" and a "
                            "\"target\" name; left out"});
    // A loop among scopes no link from Total reaches.
    tree = ParseFlopsScopeJson(
        "{\"data\": {\"links\": [{\"source\": \"a\", \"target\": \"b\", \"value\": 1},"
        "{\"source\": \"b\", \"target\": \"a\", \"value\": 1}]}}",
        "scope.json");
    REQUIRE(tree.ok());
    CHECK(tree.value().nodes.empty());
    CHECK(tree.value().problems.front() ==
          "scope.json: error: data.links[1]: \"a\" is above \"b\": a loop; left out");
    // A chain 100,000 scopes deep (a damaged or generated file): read whole, each link once.
    std::string chain =
        "{\"data\": {\"links\": [{\"source\": \"Total\", \"target\": \"s0\", "
        "\"value\": 1}";
    for (int i = 1; i < 100000; ++i)
        chain += ", {\"source\": \"s" + std::to_string(i - 1) + "\", \"target\": \"s" +
                 std::to_string(i) + "\", \"value\": 1}";
    chain += "]}}";
    tree = ParseFlopsScopeJson(chain, "scope.json");
    REQUIRE(tree.ok());
    CHECK(tree.value().nodes.size() == 100001);
    CHECK(tree.value().problems.empty());
    CHECK(tree.value().nodes.back().name == "s99999");
    CHECK(ParseFlopsScopeJson("{\"data\": {}}", "scope.json").message() ==
          "scope.json: error: no \"data.links\" array: not a FLOPs scope file");
}

TEST_CASE("a generated heavy stage: its FLOPs everywhere, the finding names exactly it") {
    const fs::path dir = test::TempDir("flops_cluster");
    ClusterOptions options;
    options.ranks = 6;
    options.steps = 3;
    options.pipeline = true;
    options.heavyFlopsRank = 4;
    std::string error;
    REQUIRE_MESSAGE(WriteCluster(options, dir.string(), &error), error);
    // Another rank's FLOPs file in this rank's folder is named, never read as its own.
    const fs::path output = dir / "rank_4_ascend_pt/ASCEND_PROFILER_OUTPUT";
    fs::copy_file(output / "flops_summary_4.json", output / "flops_summary_7.json");
    // One rank alone: its summary agrees with its operators by the profiler's own rule.
    auto files = FindRankFiles((dir / "rank_4_ascend_pt").string());
    REQUIRE(files.ok());
    REQUIRE(files.value().problems.size() == 1);
    CHECK(files.value().problems[0] ==
          (output / "flops_summary_7.json").string() +
              ": error: names rank 7, not this folder's rank 4; not read");
    fs::remove(output / "flops_summary_7.json");
    const RankFlops flops = ReadRankFlops(files.value().flops);
    CHECK(flops.problems.empty());
    CHECK(flops.summarySource == "flops_summary_4.json");
    CHECK(flops.summary.mflops == doctest::Approx(kGeneratedMflops * kHeavyFlopsFactor));
    const FlopsSummary fromOperators = SummarizeOperatorFlops(flops.operators);
    CHECK(fromOperators.mflops == doctest::Approx(flops.summary.mflops).epsilon(1e-6));
    CHECK(fromOperators.gflopsPerS == doctest::Approx(flops.summary.gflopsPerS).epsilon(1e-6));
    REQUIRE(flops.operators.size() == 4);
    CHECK(flops.operators[0].name ==
          "Default/network-WithLossCell/_backbone-Net/layer1-Dense/MatMul-op1");
    REQUIRE(flops.scopes.nodes.size() == 7);
    CHECK(flops.scopes.nodes[0].mflops == doctest::Approx(flops.summary.mflops));
    // Its "resources" object.
    simdjson::dom::parser parser;
    const std::string json = RankResourcesToJson(&flops, nullptr);
    simdjson::dom::element resources;
    REQUIRE(parser.parse(json).get(resources) == simdjson::SUCCESS);
    CHECK(double(resources["flops"]) ==
          doctest::Approx(kGeneratedMflops * kHeavyFlopsFactor * 1e6));
    CHECK(std::string_view(resources["flops_source"]) == "flops_summary_4.json");
    CHECK(int64_t(resources["operators"]) == 4);
    CHECK(simdjson::dom::array(resources["top_operators"]).size() == 4);
    CHECK(simdjson::dom::array(resources["scopes"]).size() == 7);
    CHECK(resources["peak_memory_bytes"].is_null());
    CHECK(RankResourcesToJson(nullptr, nullptr) == "null");
    // The cluster: every rank's FLOPs, and exactly rank 4 named.
    auto cluster = LoadCluster(dir.string(), 1);
    REQUIRE_MESSAGE(cluster.ok(), cluster.message());
    for (const ClusterRank& rank : cluster.value().ranks) {
        CAPTURE(rank.rankId);
        CHECK(
            rank.flops.mflops ==
            doctest::Approx(kGeneratedMflops * (rank.Id().value() == 4 ? kHeavyFlopsFactor : 1.0)));
    }
    int found = 0;
    for (const ClusterFinding& finding : FindClusterProblems(cluster.value()))
        if (finding.kind == ClusterFindingKind::kFlopsUnbalanced) {
            ++found;
            CHECK(finding.ranks == std::vector<int>{4});
            // Each rank a stage of one pipeline: rank 4 is stage 4.
            CHECK(finding.text.find("stage 4 (rank 4) carries 35.0 % more FLOPs than the other "
                                    "stages' median (162.0 GFLOPs a rank against 120.0 GFLOPs") !=
                  std::string::npos);
        }
    CHECK(found == 1);
    // The summary file keeps the FLOPs; a damaged figure there is named.
    const ClusterRank& heavy = cluster.value().ranks[4];
    const std::string written = WriteRankSummary(heavy);
    const std::string padded = written + std::string(simdjson::SIMDJSON_PADDING, ' ');
    auto read = ReadRankSummary(std::string_view(padded.data(), written.size()), "r.json");
    REQUIRE_MESSAGE(read.ok(), read.message());
    CHECK(read.value().flops.mflops == doctest::Approx(heavy.flops.mflops));
    CHECK(read.value().flopsSource == heavy.flopsSource);
    std::string damaged = written;
    const std::string key = "\"mflops\": ";
    damaged.insert(damaged.find(key) + key.size(), "-");
    damaged += std::string(simdjson::SIMDJSON_PADDING, ' ');
    auto refused = ReadRankSummary(
        std::string_view(damaged.data(), damaged.size() - simdjson::SIMDJSON_PADDING), "r.json");
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.message() ==
          "r.json: error: \"flops\": expected its source and figures in their ranges "
          "(FlopsFiles.hpp)");
    // Equal FLOPs everywhere: no finding.
    options.heavyFlopsRank = -1;
    options.flopsFiles = true;
    const fs::path even = test::TempDir("flops_even");
    REQUIRE(WriteCluster(options, even.string(), &error));
    auto evenCluster = LoadCluster(even.string(), 1);
    REQUIRE(evenCluster.ok());
    CHECK(evenCluster.value().ranks[0].flopsSource == "flops_summary_0.json");
    for (const ClusterFinding& finding : FindClusterProblems(evenCluster.value()))
        CHECK(finding.kind != ClusterFindingKind::kFlopsUnbalanced);
    fs::remove_all(dir);
    fs::remove_all(even);
}

TEST_CASE("a real rank's peak memory in its resources: the framework's allocated series") {
    const std::string fixtures = test::FixturesDir();
    if (fixtures.empty()) {
        MESSAGE("skipped: real fixtures not found");
        return;
    }
    const std::string path = fixtures + "/msinsight/server/src/test/test_data/test_rank_1";
    auto loaded = LoadRank(path, LoadOptions{});
    REQUIRE_MESSAGE(loaded.ok(), loaded.message());
    const std::string json = RankAnalysisToJson(*loaded.value().analysis);
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    REQUIRE(parser.parse(json).get(root) == simdjson::SUCCESS);
    simdjson::dom::element resources = root["resources"];
    // memory_record.csv's PTA Allocated peaks at 4599.740723 MB (of 1024 × 1024 bytes).
    CHECK(int64_t(resources["peak_memory_bytes"]) == std::llround(4599.740723 * 1048576));
    CHECK(std::string_view(resources["peak_memory_source"]) == "memory_record.csv (PTA Allocated)");
    CHECK(resources["flops"].is_null());
}

TEST_CASE("a generated device with a memory peak: the peak in every place, the finding names it") {
    const fs::path dir = test::TempDir("memory_peak_cluster");
    ClusterOptions options;
    options.ranks = 8;
    options.steps = 3;
    options.memoryPeakRank = 6;
    std::string error;
    REQUIRE_MESSAGE(WriteCluster(options, dir.string(), &error), error);
    auto cluster = LoadCluster(dir.string(), 1);
    REQUIRE_MESSAGE(cluster.ok(), cluster.message());
    // Each rank's peak inside its cluster is the one the rank's own resources give.
    const int64_t others = std::llround(24576.0 * 1048576),
                  heavy = std::llround(24576.0 * 1.4 * 1048576);
    for (const ClusterRank& rank : cluster.value().ranks) {
        CAPTURE(rank.rankId);
        CHECK(rank.peakMemory.bytes == (rank.Id().value() == 6 ? heavy : others));
        CHECK(rank.peakMemory.source == "memory_record.csv (PTA Allocated)");
    }
    auto alone = LoadRank((dir / "rank_6_ascend_pt").string(), LoadOptions{});
    REQUIRE_MESSAGE(alone.ok(), alone.message());
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    const std::string json = RankAnalysisToJson(*alone.value().analysis);
    REQUIRE(parser.parse(json).get(root) == simdjson::SUCCESS);
    CHECK(int64_t(root["resources"]["peak_memory_bytes"]) == heavy);
    int found = 0;
    for (const ClusterFinding& finding : FindClusterProblems(cluster.value()))
        if (finding.kind == ClusterFindingKind::kMemoryPeak) {
            ++found;
            CHECK(finding.ranks == std::vector<int>{6});
            CHECK(finding.text.rfind("Memory peak: rank 6 peaks at 33.60 GB against a median of "
                                     "24.00 GB over 8 devices (+40.0 %",
                                     0) == 0);
        }
    CHECK(found == 1);
    // The summary file keeps the peak; a damaged one there is named.
    const std::string written = WriteRankSummary(cluster.value().ranks[6]);
    CHECK(written.find("\"peak_memory\": {\"bytes\": " + std::to_string(heavy)) !=
          std::string::npos);
    const std::string padded = written + std::string(simdjson::SIMDJSON_PADDING, ' ');
    auto read = ReadRankSummary(std::string_view(padded.data(), written.size()), "r.json");
    REQUIRE_MESSAGE(read.ok(), read.message());
    CHECK(read.value().peakMemory.bytes == heavy);
    std::string damaged = written;
    damaged.replace(damaged.find(std::to_string(heavy)), std::to_string(heavy).size(),
                    "4503599627370497");  // 2^52 + 1: past a pebibyte
    damaged += std::string(simdjson::SIMDJSON_PADDING, ' ');
    auto refused = ReadRankSummary(
        std::string_view(damaged.data(), damaged.size() - simdjson::SIMDJSON_PADDING), "r.json");
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.message() ==
          "r.json: error: \"peak_memory\": expected its bytes (from 0 to "
          "2^50) and the file they came from");
    // Equal peaks: no finding.
    options.memoryPeakRank = 8;  // no such rank: every rank writes its record, none heavier
    const fs::path even = test::TempDir("memory_even");
    REQUIRE(WriteCluster(options, even.string(), &error));
    auto evenCluster = LoadCluster(even.string(), 1);
    REQUIRE(evenCluster.ok());
    CHECK(evenCluster.value().ranks[0].peakMemory.bytes == others);
    for (const ClusterFinding& finding : FindClusterProblems(evenCluster.value()))
        CHECK(finding.kind != ClusterFindingKind::kMemoryPeak);
    fs::remove_all(dir);
    fs::remove_all(even);
}

TEST_CASE("memory amounts that are no memory are named, never a peak") {
    const std::string csv =
        "Component,Timestamp(us),Total Allocated(MB),Total Reserved(MB),Total Active(MB)\n"
        "PTA,100,10.5,20,10.5\n"
        "PTA,200,NaN,20,10.5\n"
        "PTA,300,-4,20,10.5\n"
        "PTA,400,1e300,20,10.5\n"
        "PTA,500,12.5,20,10.5\n";
    auto record = ParseMemoryRecordCsv(csv, "memory_record.csv");
    REQUIRE(record.ok());
    CHECK(record.value().problems.size() == 3);
    const PeakMemory peak = PeakAllocatedMemory(record.value());
    CHECK(peak.bytes == std::llround(12.5 * 1048576));
}

TEST_CASE("a generated heavy pipeline stage is named as the stage, a heavy rank in it as a rank") {
    const fs::path dir = test::TempDir("flops_stage");
    ClusterOptions options;
    options.tp = 2, options.pp = 4, options.dp = 2, options.ranks = 16;
    options.steps = 2;
    options.heavyFlopsStage = 2;
    std::string error;
    REQUIRE_MESSAGE(WriteCluster(options, dir.string(), &error), error);
    auto cluster = LoadCluster(dir.string(), 1);
    REQUIRE_MESSAGE(cluster.ok(), cluster.message());
    int found = 0;
    for (const ClusterFinding& finding : FindClusterProblems(cluster.value()))
        if (finding.kind == ClusterFindingKind::kFlopsUnbalanced) {
            ++found;
            CHECK(finding.unitKind == "stage");
            CHECK(finding.unitIndex == 2);
            CHECK(finding.ranks == std::vector<int>{8, 9, 10, 11});
            CHECK(finding.text ==
                  "Unbalanced FLOPs across the pipeline: stage 2 (ranks 8-11) carries 35.0 % more "
                  "FLOPs than the other stages' median (162.0 GFLOPs a rank against 120.0 GFLOPs, "
                  "the "
                  "ranks' FLOPs summaries); the other stages wait for it: move layers from it to "
                  "the others until their FLOPs match.");
        }
    CHECK(found == 1);
    // One heavy rank of a stage does not make its stage heavy: the rank is named.
    options.heavyFlopsStage = -1;
    options.heavyFlopsRank = 9;
    const fs::path rankDir = test::TempDir("flops_stage_rank");
    REQUIRE(WriteCluster(options, rankDir.string(), &error));
    auto oneRank = LoadCluster(rankDir.string(), 1);
    REQUIRE(oneRank.ok());
    found = 0;
    for (const ClusterFinding& finding : FindClusterProblems(oneRank.value()))
        if (finding.kind == ClusterFindingKind::kFlopsUnbalanced) {
            ++found;
            CHECK(finding.unitKind.empty());
            CHECK(finding.ranks == std::vector<int>{9});
        }
    CHECK(found == 1);
    fs::remove_all(dir);
    fs::remove_all(rankDir);
}
