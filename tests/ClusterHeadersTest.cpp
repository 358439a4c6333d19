// Each cluster header on a small input of its own: a rank's links and names, the cluster's JSON
// and text, msprof-analyze's output, step buckets, missing rank ids as runs, problems by file, the
// median rank, and links too small to judge in the tables and the bandwidth grid.
#include <doctest/doctest.h>

#include <simdjson.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <tuple>
#include <vector>

#include "ClusterGenerator.hpp"
#include "TestSupport.hpp"
#include "cluster/AnalysisOutputReader.hpp"
#include "cluster/Cluster.hpp"
#include "cluster/ClusterCommunication.hpp"
#include "cluster/ClusterFindings.hpp"
#include "cluster/ClusterJson.hpp"
#include "cluster/ClusterLinks.hpp"
#include "cluster/ClusterRank.hpp"
#include "cluster/ClusterReport.hpp"
#include "cluster/ClusterSteps.hpp"
#include "cluster/MatrixGrid.hpp"
#include "cluster/MindInsightReader.hpp"
#include "cluster/StepBuckets.hpp"
#include "core/RobustStats.hpp"
#include "load/MatrixLinkSums.hpp"
#include "loading/ClusterLoader.hpp"

using namespace marey;
namespace fs = std::filesystem;

// [SECTION] Each cluster header on a small input of its own

TEST_CASE(
    "a rank's links are summed per operator, group, ends and transport, ordered by their text, "
    "names in the order read") {
    ClusterRank rank;
    rank.names = {"hcom_x"};  // already there from communication.json
    MatrixLinkSums sums;
    const auto add = [&](const char* group, int dst, const char* transport, double mb, TimeNs ns) {
        CommunicationLinkView view;
        view.group = group, view.srcRank = 3, view.dstRank = dst, view.transport = transport;
        view.transitSizeMb = mb, view.transitNs = ns;
        sums.Add(view);
    };
    add("broadcast@7", 1, "HCCS", 1.0, 100);
    add("allreduce@9", 2, "RDMA", 2.0, 200);
    add("Total Op Info@9", 2, "RDMA", 99.0, 9900);  // the file's own sum: left out
    add("allreduce@9", 2, "RDMA", 0.5, 50);
    add("allreduce@9", 2, "HCCS", 4.0, 400);
    add("allreduce", 0, "HCCS", 8.0, 800);  // a 2023 file: no group hash
    add("broadcast@7", 1, "HCCS", 1.0, 100);
    const std::vector<CommunicationLink> summed = sums.Finish();
    CHECK(summed.size() == 5);
    CHECK(summed[0].opName == "broadcast");
    // Summed links summed again are the same links.
    CHECK(SumMatrixLinks(summed).size() == 5);
    CHECK(SumMatrixLinks(summed)[1].entries == 2);
    AddRankLinks(summed, rank);
    CHECK(rank.names == std::vector<std::string>{"hcom_x", "broadcast", "7", "allreduce", "9", ""});
    REQUIRE(rank.links.size() == 4);
    auto link = [&](size_t i) {
        const RankLink& l = rank.links[i];
        return std::make_tuple(rank.Name(l.op), rank.Name(l.group), l.dstRank, l.transport,
                               l.transitSizeMb, l.transitNs, l.count);
    };
    CHECK(link(0) == std::make_tuple("allreduce", "", 0, "HCCS", 8.0, TimeNs{800}, 1u));
    CHECK(link(1) == std::make_tuple("allreduce", "9", 2, "HCCS", 4.0, TimeNs{400}, 1u));
    CHECK(link(2) == std::make_tuple("allreduce", "9", 2, "RDMA", 2.5, TimeNs{250}, 2u));
    CHECK(link(3) == std::make_tuple("broadcast", "7", 1, "HCCS", 2.0, TimeNs{200}, 2u));
}

TEST_CASE(
    "a step key loses its 'step' prefix, names are interned once, and the overview adds the step "
    "phases") {
    CHECK(StepFromKey("step50") == "50");
    CHECK(StepFromKey("step") == "step");
    CHECK(StepFromKey("50") == "50");
    CHECK(StepFromKey("Step7") == "Step7");

    ClusterRank rank;
    CHECK(rank.Intern("hcom_allReduce__1") == 0);
    CHECK(rank.Intern("group") == 1);
    CHECK(rank.Intern("hcom_allReduce__1") == 0);
    CHECK(rank.names.size() == 2);
    CHECK(rank.FindStep("1") == nullptr);

    CHECK_FALSE(OverviewFromSteps({}).valid);
    StepRow row;
    row.ns[kStepComputing] = 100, row.ns[kStepOverlapped] = 30, row.ns[kStepCommNotOverlapped] = 20,
    row.ns[kStepFree] = 10;
    const OverviewFigures figures = OverviewFromSteps({row, row});
    CHECK(figures.valid);
    CHECK(figures.computingNs == 200);
    CHECK(figures.pureComputingNs == 140);
    CHECK(figures.commOverlappedNs == 60);
    CHECK(figures.totalNs == 260);
    RankOverviewInputs inputs;
    const std::vector<StepRow> steps{row, row};
    inputs.profilerSteps = &steps;
    CHECK(RankOverviewFigures(inputs).source == kStepsOfStepTraceCsv);
}

TEST_CASE(
    "a cluster_analysis_output folder gives one rank per rank row and its groups, an empty one "
    "fails") {
    const fs::path dir = test::TempDir("analysis_output");
    Cluster empty;
    const Status none = ReadAnalysisOutput(dir.string(), empty);
    REQUIRE_FALSE(none.ok());
    CHECK(none.message() ==
          dir.string() + ": error: cluster_analysis_output without a rank in its files");

    std::ofstream(dir / "cluster_step_trace_time.csv")
        << "Step,Type,Index,Computing,Communication(Not Overlapped),Free\n"
           "2,rank,0,100.5,20,3\n"
           "2,rank,1,110,20,3\n";
    std::ofstream(dir / "communication_group.json") << R"({"collective": [[1, 0], [0], [1]]})";
    Cluster cluster;
    const Status status = ReadAnalysisOutput(dir.string(), cluster);
    REQUIRE_MESSAGE(status.ok(), status.message());
    CHECK(cluster.problems.empty());
    REQUIRE(cluster.ranks.size() == 2);
    CHECK(cluster.ranks[1].rankId == RankId(1));
    CHECK(cluster.ranks[1].rankSource == "cluster_analysis_output");
    REQUIRE(cluster.ranks[0].steps.size() == 1);
    CHECK(cluster.ranks[0].steps[0].step == "2");
    CHECK(cluster.ranks[0].steps[0].ns[kStepComputing] == 100500);
    CHECK(cluster.ranks[1].steps[0].ns[kStepFree] == 3000);
    // Groups of one rank are left out.
    REQUIRE(cluster.groups.size() == 1);
    CHECK(cluster.groups[0].kind == "collective");
    CHECK(cluster.groups[0].ranks == std::vector<int>{0, 1});
    fs::remove_all(dir);
}

TEST_CASE("a cluster's JSON and text name its ranks, missing ids and only the first 20 problems") {
    Cluster cluster;
    cluster.root = "/job";
    cluster.source = ClusterSource::kRankFolders;
    cluster.ranks.resize(2);
    cluster.ranks[0].rankId = RankId(0);
    cluster.ranks[1].rankId = RankId(2);
    cluster.missingRanks = test::Ranks({1});
    for (int i = 0; i < 25; ++i) cluster.problems.push_back("p" + std::to_string(i));

    const std::string json = ClusterToJson(cluster);
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    REQUIRE_MESSAGE(!parser.parse(json).get(root), json);
    CHECK(std::string_view(root["source"]) == "rank folders");
    CHECK(int64_t(root["ranks"]) == 2);
    simdjson::dom::array ids = root["rank_ids"];
    REQUIRE(ids.size() == 2);
    CHECK(int64_t(ids.at(1)) == 2);
    CHECK(simdjson::dom::array(root["missing_rank_ids"]).size() == 1);
    CHECK(int64_t(root["missing_rank_ids"].at(0).at(0)) == 1);
    CHECK(int64_t(root["missing_rank_ids"].at(0).at(1)) == 1);
    CHECK(simdjson::dom::array(root["slow_ranks"]).size() == 0);
    CHECK(int64_t(root["problems"]["count"]) == 25);
    simdjson::dom::array first = root["problems"]["first"];
    REQUIRE(first.size() == 20);
    CHECK(std::string_view(first.at(19)) == "p19");

    const std::string text = ClusterToText(cluster);
    CHECK(text.rfind("cluster /job (rank folders): 2 ranks, 0 steps, 0 communication groups\nslow "
                     "ranks: none\nslow links: no link data\n",
                     0) == 0);
    CHECK(text.find("25 problems:\n  p0\n") != std::string::npos);
    CHECK(text.find("  p19\n") != std::string::npos);
    CHECK(text.find("p20") == std::string::npos);
}

TEST_CASE(
    "a MindInsight step_trace_raw file gives its rank from the name and its steps in 10 ns ticks") {
    CHECK(RankOfStepTraceRaw("step_trace_raw_3_detail_time.csv") == 3);
    CHECK(RankOfStepTraceRaw("step_trace_raw_12_detail_time.csv") == 12);
    CHECK(RankOfStepTraceRaw("step_trace_raw__detail_time.csv") == -1);
    CHECK(RankOfStepTraceRaw("step_trace_raw_x_detail_time.csv") == -1);
    CHECK(RankOfStepTraceRaw("hccl_raw_3.csv") == -1);

    const fs::path dir = test::TempDir("mindinsight_rank");
    std::ofstream(dir / "step_trace_raw_3_detail_time.csv")
        << "step_num,iteration_interval,fp_and_bp,tail\n"
           "1,100,2000,30\n"
           "-,100,2000,30\n";
    const ClusterRank rank =
        ReadMindInsightRank((dir / "step_trace_raw_3_detail_time.csv").string());
    CHECK(rank.problems.empty());
    CHECK(rank.rankId == RankId(3));
    CHECK(rank.rankSource == "step_trace_raw_3_detail_time.csv (file name)");
    REQUIRE(rank.steps.size() == 1);
    CHECK(rank.steps[0].ns[kStepFree] == 1000);
    CHECK(rank.steps[0].ns[kStepComputing] == 20000);
    CHECK(rank.steps[0].ns[kStepCommNotOverlapped] == 300);
    CHECK(rank.collectives.empty());

    // A file that is not there is one problem, and no steps.
    const ClusterRank missing =
        ReadMindInsightRank((dir / "step_trace_raw_4_detail_time.csv").string());
    CHECK(missing.rankId == RankId(4));
    CHECK(missing.steps.empty());
    REQUIRE(missing.problems.size() == 1);
    CHECK(missing.problems[0] == (dir / "step_trace_raw_4_detail_time.csv").string() +
                                     ": error: cannot open the file: No such file or directory");
    fs::remove_all(dir);
}

TEST_CASE("steps fold into buckets of consecutive steps that keep the range, median and averages") {
    std::vector<StepOverview> steps(10);
    for (size_t s = 0; s < steps.size(); ++s) {
        steps[s].step = std::to_string(s + 1);
        steps[s].minNs = 100 - static_cast<TimeNs>(s);
        steps[s].maxNs = 200 + static_cast<TimeNs>(s) * 10;
        steps[s].medianNs = 150 + static_cast<TimeNs>(s);
        steps[s].meanCommunicationNs = static_cast<TimeNs>(s) * 2;
        steps[s].meanWaitNs = static_cast<TimeNs>(s);
    }
    const std::vector<StepBucket> three = BucketSteps(steps, 3);
    REQUIRE(three.size() == 3);
    CHECK(three[0].first == 0);
    CHECK(three[0].last == 2);
    CHECK(three[1].first == 3);
    CHECK(three[1].last == 5);
    CHECK(three[2].first == 6);
    CHECK(three[2].last == 9);
    CHECK(three[2].minNs == 91);
    CHECK(three[2].maxNs == 290);
    CHECK(three[2].medianNs == 157);  // of 156 157 158 159: 157.5, rounded down to the ns
    CHECK(three[2].meanCommunicationNs == (12 + 14 + 16 + 18) / 4);
    CHECK(three[2].meanWaitNs == (6 + 7 + 8 + 9) / 4);
    CHECK(BucketOfStep(three, 0) == 0);
    CHECK(BucketOfStep(three, 5) == 1);
    CHECK(BucketOfStep(three, 9) == 2);
    // Steps that fit keep a bucket each, with their own figures.
    const std::vector<StepBucket> each = BucketSteps(steps, 50);
    REQUIRE(each.size() == 10);
    CHECK(each[4].first == 4);
    CHECK(each[4].last == 4);
    CHECK(each[4].maxNs == 240);
    CHECK(BucketSteps({}, 5).empty());
    CHECK(BucketSteps(steps, 0).empty());
}

TEST_CASE("a rank id of 999999 in a small job gives missing ids as runs, not a million numbers") {
    const fs::path dir = test::TempDir("cluster_far_rank");
    ClusterOptions options;
    options.ranks = 4;
    options.steps = 2;
    std::string error;
    REQUIRE(WriteCluster(options, dir.string(), &error));
    std::ofstream(dir / "rank_3_ascend_pt" / "profiler_info_3.json") << "{\"rank_id\": 999999}";
    fs::remove(dir / "rank_3_ascend_pt" / "profiler_metadata.json");  // no world size to bound it
    for (int rank = 0; rank < 3; ++rank)
        fs::remove(dir / ("rank_" + std::to_string(rank) + "_ascend_pt") /
                   "profiler_metadata.json");
    auto cluster = LoadCluster(dir.string(), 2);
    REQUIRE(cluster.ok());
    CHECK(cluster.value().IndexOfRank(RankId(999999)).has_value());
    CHECK(RankRuns(RankNumbers(cluster.value().missingRanks)) ==
          std::vector<std::pair<int, int>>{{3, 999998}});
    const std::string json = ClusterToJson(cluster.value());
    CHECK(json.size() < 4000);
    CHECK(json.find("\"missing_rank_ids\": [[3, 999998]]") != std::string::npos);
    fs::remove_all(dir);
}

TEST_CASE("problems that name a file are counted and the first few kept") {
    Cluster cluster;
    cluster.problems = {"rank 0: a/step_trace_time.csv:1:1: error: not a step_trace_time.csv",
                        "rank 1: b/communication.json:2:3: error: x",
                        "rank 1: b/step_trace_time.csv:1:1: error: not a step_trace_time.csv",
                        "rank 2: c/step_trace_time.csv:1:1: error: not a step_trace_time.csv"};
    const FileProblems found = ProblemsNamingFile(cluster, "step_trace_time.csv", 2);
    CHECK(found.count == 3);
    REQUIRE(found.first.size() == 2);
    CHECK(found.first[1] == "rank 1: b/step_trace_time.csv:1:1: error: not a step_trace_time.csv");
    CHECK(ProblemsNamingFile(cluster, "kernel_details.csv", 2).count == 0);
}

TEST_CASE("the median rank is the rank of the middle step time among the ranks present") {
    StepTable table;
    for (const auto& [rank, ns, present] : std::vector<std::tuple<int, TimeNs, bool>>{
             {0, 50, true}, {1, 10, true}, {2, 99, false}, {3, 30, true}}) {
        StepTableRow row;
        row.rankId = RankId(rank);
        row.present = present;
        row.ns[kStepTimeColumn] = ns;
        table.rows.push_back(row);
    }
    CHECK(MedianRankOf(table) == RankId(3));  // 10, 30, 50: rank 3's 30; rank 2 is absent
    table.rows[0].ns[kStepTimeColumn] = 20;
    CHECK(MedianRankOf(table) == RankId(0));  // 10, 20, 30
    for (StepTableRow& row : table.rows) row.present = false;
    CHECK(MedianRankOf(table) == std::nullopt);
}

TEST_CASE("a link that carried almost nothing is too small to judge and never slow") {
    // Four HCCS links of 10 MB at about 20 GB/s, one of 0.0004 MB (0.000 MB in the matrix) at
    // a crawl, one of 3 MB (under half the median size) and a rank's link to itself of 0.0001 MB.
    std::vector<MatrixCell> cells;
    for (int dst = 1; dst <= 4; ++dst) cells.push_back({0, dst, "HCCS", 10.0, 500000});
    cells.push_back({1, 0, "HCCS", 0.0004, 2000000});
    cells.push_back({2, 0, "HCCS", 3.0, 150000});
    cells.push_back({3, 3, "LOCAL", 0.0001, 100});
    const std::vector<char> small = TooSmallToJudge(cells);
    REQUIRE(small.size() == cells.size());
    for (int i = 0; i < 4; ++i) CHECK(small[static_cast<size_t>(i)] == 0);
    CHECK(small[4] == 1);
    CHECK(small[5] == 1);
    CHECK(small[6] == 1);  // under 1 KB, whatever its kind
    CHECK(FindSlowLinks(cells).empty());

    // The same crawl with a size like its peers' is slow.
    cells[4].transitSizeMb = 10.0;
    CHECK(TooSmallToJudge(cells)[4] == 0);
    const std::vector<SlowLink> slow = FindSlowLinks(cells);
    REQUIRE(slow.size() == 1);
    CHECK(slow[0].srcRank == 1);
}

TEST_CASE("the bandwidth grid marks cells too small to judge and leaves them off its scale") {
    std::vector<MatrixCell> cells;
    for (int dst = 1; dst <= 4; ++dst) cells.push_back({0, dst, "HCCS", 10.0, 500000});
    cells.push_back({1, 0, "HCCS", 0.0004, 2000000});  // 0.0002 GB/s, carried almost nothing
    MatrixGrid grid;
    grid.Build(cells, {0, 1, 2, 3, 4}, MatrixMetric::kBandwidth);
    const MatrixGrid::Level& base = grid.LevelFor(1e9, 1);
    REQUIRE(base.unjudged.size() == 25);
    CHECK(base.unjudged[1 * 5 + 0] == 1);
    CHECK(base.unjudged[0 * 5 + 1] == 0);
    CHECK(grid.MinValue() == doctest::Approx(20.0));  // the crawl is not the dark end
    // Zoomed out, the block of (1, 0) shows its judged neighbour (0, 1), not the crawl.
    const MatrixGrid::Level& coarse = grid.LevelFor(1, 2);
    REQUIRE(coarse.block == 2);
    CHECK(coarse.unjudged[0] == 0);
    CHECK(coarse.value[0] == doctest::Approx(20.0f));
    grid.Build(cells, {0, 1, 2, 3, 4}, MatrixMetric::kSize);
    CHECK(grid.LevelFor(1e9, 1).unjudged.empty());
}
