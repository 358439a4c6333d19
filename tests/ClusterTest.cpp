// Cluster views' analysis: a generated cluster with a planted slow rank and a planted slow link
// must flag exactly those; jitter on a thousand ranks must flag nothing; the per-rank summary
// survives a round trip through its file; duplicate and missing rank ids are reported; the real
// two-rank runs and the real 16-rank cluster_analysis_output open as clusters.
#include <doctest/doctest.h>

#include <simdjson.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <tuple>

#include "ClusterGenerator.hpp"
#include "TestSupport.hpp"
#include "cluster/ClusterSource.hpp"
#include "cluster/AnalysisOutputReader.hpp"
#include "cluster/Cluster.hpp"
#include "loading/ClusterLoader.hpp"
#include "cluster/ClusterCommunication.hpp"
#include "cluster/ClusterFindings.hpp"
#include "cluster/ClusterFolder.hpp"
#include "cluster/ClusterJson.hpp"
#include "cluster/ClusterLinks.hpp"
#include "cluster/MatrixGrid.hpp"
#include "cluster/StepBuckets.hpp"
#include "core/RobustStats.hpp"
#include "cluster/ClusterRank.hpp"
#include "cluster/ClusterRankFile.hpp"
#include "cluster/ClusterReport.hpp"
#include "cluster/ClusterSteps.hpp"
#include "cluster/MindInsightReader.hpp"

using namespace marey;
namespace fs = std::filesystem;

namespace {

Cluster Generate(const fs::path& dir, ClusterOptions options) {
    std::string error;
    REQUIRE_MESSAGE(WriteCluster(options, dir.string(), &error), error);
    auto cluster = LoadCluster(dir.string(), 2);
    REQUIRE_MESSAGE(cluster.ok(), cluster.message());
    return std::move(cluster.value());
}

std::string ReadText(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

// [SECTION] Whole clusters: generated, damaged and real

TEST_CASE("a generated cluster flags exactly its planted slow rank and slow link") {
    const fs::path dir = test::TempDir("cluster_planted");
    ClusterOptions options;
    options.ranks = 64;
    options.steps = 12;
    options.slowRank = 37;
    options.slowLinkSrc = 12, options.slowLinkDst = 13;
    const Cluster cluster = Generate(dir, options);
    CHECK(cluster.source == ClusterSource::kRankFolders);
    REQUIRE(cluster.ranks.size() == 64);
    CHECK(cluster.steps.size() == 12);
    CHECK(cluster.steps.front() == "1");
    CHECK(cluster.steps.back() == "12");
    CHECK(cluster.problems.empty());

    const std::vector<SlowRank> slow = FindSlowRanks(BuildStepTable(cluster, std::nullopt));
    REQUIRE(slow.size() == 1);
    CHECK(slow[0].rankId == RankId(37));
    CHECK(slow[0].column == kStepComputing);
    CHECK(slow[0].valueNs > slow[0].medianNs * 6 / 5);
    // Every single step says the same.
    for (int s = 0; s < static_cast<int>(cluster.steps.size()); ++s) {
        const std::vector<SlowRank> inStep = FindSlowRanks(BuildStepTable(cluster, StepIndex(s)));
        REQUIRE(inStep.size() == 1);
        CHECK(inStep[0].rankId == RankId(37));
    }

    const std::vector<SlowLink> links = FindSlowLinks(BuildMatrix(cluster));
    REQUIRE(links.size() == 1);
    CHECK(links[0].srcRank == 12);
    CHECK(links[0].dstRank == 13);
    CHECK(links[0].transport == "HCCS");
    CHECK(links[0].bandwidthGBps ==
          doctest::Approx(links[0].medianGBps / kSlowLinkFactor).epsilon(0.01));

    // The allReduce over all ranks: everyone waits for rank 37, which waits least.
    const std::vector<CollectiveKey> collectives = ListCollectives(cluster);
    // Per step: the allReduce over all ranks and one allGather in each of the 8 nodes.
    REQUIRE(collectives.size() == 12 * 9);
    CHECK(collectives.front().step == "1");
    CHECK(collectives.front().ranks == 64);
    const std::vector<CollectiveOnRank> across =
        CollectiveAcrossRanks(cluster, "1", collectives.front().name);
    REQUIRE(across.size() == 64);
    CHECK(RankEveryoneWaitsFor(across) == RankId(37));

    // One step time for all ranks in every step (a synchronous job).
    const std::vector<StepOverview> overview = BuildTimeOverview(cluster);
    REQUIRE(overview.size() == 12);
    for (const StepOverview& step : overview) {
        CHECK(step.minNs == step.maxNs);
        CHECK(step.meanWaitNs > 0);
        CHECK(step.meanCommunicationNs > step.meanWaitNs);
    }

    // The group reading names rank 37 as the computing problem.
    const std::vector<ClusterFinding> findings = FindClusterProblems(cluster);
    bool computing = false;
    for (const ClusterFinding& finding : findings)
        if (finding.kind == ClusterFindingKind::kCompute)
            computing = finding.ranks == std::vector<int>{37};
    CHECK(computing);
    // Everyone waits for rank 37: the communication finding names it first, then the waiting.
    bool waitedFor = false;
    for (const ClusterFinding& finding : findings)
        if (finding.kind == ClusterFindingKind::kCommunication)
            waitedFor = finding.causes == 1 && finding.ranks.front() == 37 &&
                        std::count(finding.ranks.begin(), finding.ranks.end(), 37) == 1;
    CHECK(waitedFor);
    fs::remove_all(dir);
}

TEST_CASE("a generated cluster without planted faults flags nothing") {
    const fs::path dir = test::TempDir("cluster_healthy");
    ClusterOptions options;
    options.ranks = 48;
    options.steps = 6;
    options.seed = 9;
    const Cluster cluster = Generate(dir, options);
    CHECK(FindSlowRanks(BuildStepTable(cluster, std::nullopt)).empty());
    CHECK(FindSlowLinks(BuildMatrix(cluster)).empty());
    for (const ClusterFinding& finding : FindClusterProblems(cluster))
        CHECK(finding.kind != ClusterFindingKind::kCompute);
    fs::remove_all(dir);
}

TEST_CASE("a slow link between nodes is flagged among the RDMA links") {
    const fs::path dir = test::TempDir("cluster_rdma");
    ClusterOptions options;
    options.ranks = 32;
    options.steps = 4;
    options.slowLinkSrc = 15, options.slowLinkDst = 16;
    const Cluster cluster = Generate(dir, options);
    const std::vector<SlowLink> links = FindSlowLinks(BuildMatrix(cluster));
    REQUIRE(links.size() == 1);
    CHECK(links[0].srcRank == 15);
    CHECK(links[0].dstRank == 16);
    CHECK(links[0].transport == "RDMA");
    CHECK(FindSlowRanks(BuildStepTable(cluster, std::nullopt)).empty());
    fs::remove_all(dir);
}

TEST_CASE("jitter of a fraction of a percent on a thousand ranks raises no flag") {
    Cluster cluster;
    std::mt19937_64 random(42);
    std::uniform_real_distribution<double> jitter(0.994, 1.006);
    for (int r = 0; r < 1000; ++r) {
        ClusterRank rank;
        rank.rankId = RankId(r);
        rank.hasPhase[kStepComputing] = rank.hasPhase[kStepCommNotOverlapped] =
            rank.hasPhase[kStepFree] = true;
        for (int s = 0; s < 5; ++s) {
            StepRow row;
            row.step = std::to_string(s);
            row.ns[kStepComputing] = static_cast<TimeNs>(80e6 * jitter(random));
            row.ns[kStepCommNotOverlapped] = static_cast<TimeNs>(15e6 * jitter(random));
            row.ns[kStepFree] = static_cast<TimeNs>(2e6 * jitter(random));
            rank.steps.push_back(row);
        }
        cluster.ranks.push_back(std::move(rank));
    }
    cluster.steps = {"0", "1", "2", "3", "4"};
    CHECK(FindSlowRanks(BuildStepTable(cluster, std::nullopt)).empty());
    for (int s = 0; s < 5; ++s) CHECK(FindSlowRanks(BuildStepTable(cluster, StepIndex(s))).empty());
    // A rank 2 % slower in computing: far outside the jitter, but under what matters (3 % of
    // the step): still no flag. At 10 % it is flagged.
    for (StepRow& row : cluster.ranks[500].steps)
        row.ns[kStepComputing] = static_cast<TimeNs>(80e6 * 1.02);
    CHECK(FindSlowRanks(BuildStepTable(cluster, std::nullopt)).empty());
    for (StepRow& row : cluster.ranks[500].steps)
        row.ns[kStepComputing] = static_cast<TimeNs>(80e6 * 1.10);
    const std::vector<SlowRank> slow = FindSlowRanks(BuildStepTable(cluster, std::nullopt));
    REQUIRE(slow.size() == 1);
    CHECK(slow[0].rankId == RankId(500));
    CHECK(DescribeSlowRank(slow[0]).find("Computing") != std::string::npos);
}

TEST_CASE(
    "a rank summary survives its file, and a folder of summary files opens as the same cluster") {
    const fs::path dir = test::TempDir("cluster_summaries");
    ClusterOptions options;
    options.ranks = 16;
    options.steps = 5;
    options.slowRank = 3;
    options.slowLinkSrc = 4, options.slowLinkDst = 5;
    const Cluster original = Generate(dir / "job", options);
    fs::create_directories(dir / "summaries");
    for (const ClusterRank& rank : original.ranks) {
        const std::string text = WriteRankSummary(rank);
        std::ofstream(dir / "summaries" / RankSummaryFileName(rank.Id().value())) << text;
        const simdjson::padded_string padded(text);
        auto read = ReadRankSummary(std::string_view(padded.data(), padded.size()), "summary");
        REQUIRE_MESSAGE(read.ok(), read.message());
        CHECK(WriteRankSummary(read.value()) == text);
    }
    auto reopened = LoadCluster((dir / "summaries").string(), 2);
    REQUIRE(reopened.ok());
    CHECK(reopened.value().source == ClusterSource::kRankSummaryFiles);
    CHECK(reopened.value().ranks.size() == 16);
    const std::vector<SlowRank> slow =
        FindSlowRanks(BuildStepTable(reopened.value(), std::nullopt));
    REQUIRE(slow.size() == 1);
    CHECK(slow[0].rankId == RankId(3));
    const std::vector<SlowLink> links = FindSlowLinks(BuildMatrix(reopened.value()));
    REQUIRE(links.size() == 1);
    CHECK(links[0].srcRank == 4);

    // A damaged summary names the file and the item, and the other ranks still open.
    std::string text = ReadText(dir / "summaries" / RankSummaryFileName(7));
    const size_t steps = text.find("\"steps\": [");
    REQUIRE(steps != std::string::npos);
    text.replace(text.find('[', steps + 10), 1, "[\"x\", ");
    std::ofstream(dir / "summaries" / RankSummaryFileName(7)) << text;
    auto damaged = LoadCluster((dir / "summaries").string(), 2);
    REQUIRE(damaged.ok());
    CHECK(damaged.value().ranks.size() == 15);
    CHECK(!damaged.value().IndexOfRank(RankId(7)));
    CHECK(RankNumbers(damaged.value().missingRanks) == std::vector<int>{7});
    REQUIRE(damaged.value().problems.size() >= 3);
    CHECK(damaged.value().problems[0].find(
              "rank_summary_7.json: error: \"steps[0]\": expected an array of 10 values") !=
          std::string::npos);
    CHECK(damaged.value().problems[1] ==
          "rank_summary_7.json: rank 7 left out: its summary cannot be read");
    CHECK(damaged.value().problems[2] == "1 rank id missing below the largest (15): 7");

    // The last rank's summary cut short, or a negative duration in it: the same, and no rank 16.
    for (const std::string& damage : {std::string("truncated"), std::string("negative")}) {
        CAPTURE(damage);
        std::string last = WriteRankSummary(original.ranks[15]);
        if (damage == "truncated") {
            last.resize(last.size() / 2);
        } else {
            const size_t step = last.find("\"steps\": [");
            REQUIRE(step != std::string::npos);
            const size_t firstValue = last.find(", ", step) + 2;
            last.insert(firstValue, "-");
        }
        std::ofstream(dir / "summaries" / RankSummaryFileName(15)) << last;
        auto cut = LoadCluster((dir / "summaries").string(), 2);
        REQUIRE(cut.ok());
        CHECK(!cut.value().IndexOfRank(RankId(15)));
        CHECK(!cut.value().IndexOfRank(RankId(16)));
        CHECK(RankNumbers(cut.value().missingRanks) == std::vector<int>{7, 15});
        // Both files' errors come first, before anything else the folder holds.
        REQUIRE(cut.value().problems.size() >= 5);
        bool named = false;
        for (size_t i = 0; i < 4; ++i)
            named =
                named || cut.value().problems[i].rfind(
                             (dir / "summaries" / RankSummaryFileName(15)).string() + ":", 0) == 0;
        CHECK(named);
        CHECK(cut.value().problems[4] == "2 rank ids missing: 7, 15");
    }
    fs::remove_all(dir);
}

TEST_CASE(
    "summarize refuses a second folder of one rank id, and its summaries read the same from any "
    "folder") {
    const fs::path dir = test::TempDir("summarize_command");
    ClusterOptions options;
    options.ranks = 3;
    options.steps = 2;
    std::string error;
    REQUIRE(WriteCluster(options, (dir / "job").string(), &error));
    fs::copy(dir / "job" / "rank_1_ascend_pt", dir / "copy_of_rank_1", fs::copy_options::recursive);
    int status = 0;
    const std::string output =
        test::RunCommand("cd " + dir.string() + " && " + MAREY_BINARY +
                             " summarize job copy_of_rank_1 --out summaries 2>&1",
                         &status);
    CHECK(status != 0);
    CHECK(output.find("copy_of_rank_1: error: rank 1 again (also job/rank_1_ascend_pt); "
                      "summaries/rank_summary_1.json keeps "
                      "the first, this one is not written\n") != std::string::npos);
    const std::string summary = ReadText(dir / "summaries" / RankSummaryFileName(1));
    CHECK(summary.find("\"path\": \"../job/rank_1_ascend_pt\"") != std::string::npos);
    CHECK(summary.find("\"absolute_path\": \"" + (dir / "job" / "rank_1_ascend_pt").string() +
                       "\"") != std::string::npos);

    // Opened from elsewhere, by a relative path: the rank folders are found beside the summaries.
    const std::string cwd = fs::current_path().string();
    fs::current_path("/");
    auto cluster = LoadCluster(fs::relative(dir / "summaries", "/").string(), 2);
    fs::current_path(cwd);
    REQUIRE(cluster.ok());
    REQUIRE(cluster.value().ranks.size() == 3);
    CAPTURE(cluster.value().ranks[1].path);
    CHECK(fs::equivalent("/" + cluster.value().ranks[1].path, dir / "job" / "rank_1_ascend_pt"));
    // Moved away from the job: the absolute path written beside it still leads there.
    fs::rename(dir / "summaries", dir / "job" / "moved");
    auto moved = LoadCluster((dir / "job" / "moved").string(), 2);
    REQUIRE(moved.ok());
    CHECK(moved.value().ranks[1].path == (dir / "job" / "rank_1_ascend_pt").string());
    fs::remove_all(dir);
}

TEST_CASE("duplicate and missing rank ids are reported, and the first of a duplicate is kept") {
    const fs::path dir = test::TempDir("cluster_ids");
    ClusterOptions options;
    options.ranks = 5;
    options.steps = 2;
    std::string error;
    REQUIRE(WriteCluster(options, dir.string(), &error));
    fs::copy(dir / "rank_1_ascend_pt", dir / "zz_copy_of_rank_1", fs::copy_options::recursive);
    fs::remove_all(dir / "rank_2_ascend_pt");
    auto cluster = LoadCluster(dir.string(), 2);
    REQUIRE(cluster.ok());
    CHECK(cluster.value().ranks.size() == 4);
    CHECK(RankNumbers(cluster.value().duplicateRanks) == std::vector<int>{1});
    CHECK(RankNumbers(cluster.value().missingRanks) == std::vector<int>{2});
    CHECK(cluster.value().ranks[1].path.find("rank_1_ascend_pt") != std::string::npos);
    std::string problems;
    for (const std::string& problem : cluster.value().problems) problems += problem + "\n";
    CHECK(problems.find("rank 1 appears twice") != std::string::npos);
    CHECK(problems.find("missing") != std::string::npos);
    fs::remove_all(dir);
}

TEST_CASE("a rank that other files name and that has no data is missing, with its folder and why") {
    const fs::path dir = test::TempDir("cluster_named_ranks");
    ClusterOptions options;
    options.ranks = 16;
    options.steps = 2;
    std::string error;
    REQUIRE(WriteCluster(options, (dir / "job").string(), &error));
    SUBCASE("the last rank's folder empty: missing although no id above it is there") {
        fs::remove_all(dir / "job" / "rank_15_ascend_pt");
        fs::create_directory(dir / "job" / "rank_15_ascend_pt");
        auto cluster = LoadCluster((dir / "job").string(), 2);
        REQUIRE(cluster.ok());
        CHECK(cluster.value().ranks.size() == 15);
        CHECK(RankNumbers(cluster.value().missingRanks) == std::vector<int>{15});
        const auto& problems = cluster.value().problems;
        CHECK(std::count(
                  problems.begin(), problems.end(),
                  (dir / "job" / "rank_15_ascend_pt").string() + ": no profiler data in it") == 1);
        CHECK(std::count(problems.begin(), problems.end(), "1 rank id missing: 15") == 1);
        CHECK(std::count(problems.begin(), problems.end(),
                         "rank 15 missing: " + (dir / "job" / "rank_15_ascend_pt").string() +
                             ": no profiler data in it") == 1);
    }
    SUBCASE("the last rank behind a link, and another past the depth the walk goes") {
        fs::rename(dir / "job" / "rank_15_ascend_pt", dir / "elsewhere_rank_15");
        fs::create_directory_symlink(dir / "elsewhere_rank_15", dir / "job" / "rank_15_ascend_pt");
        fs::path deep = dir / "job";
        for (int i = 0; i < 8; ++i) deep /= "d";
        fs::create_directories(deep);
        fs::rename(dir / "job" / "rank_14_ascend_pt", deep / "rank_14_ascend_pt");
        auto cluster = LoadCluster((dir / "job").string(), 2);
        REQUIRE(cluster.ok());
        CHECK(RankNumbers(cluster.value().missingRanks) == std::vector<int>{14, 15});
        const auto& problems = cluster.value().problems;
        CHECK(std::count(problems.begin(), problems.end(),
                         "rank 15 missing: " + (dir / "job" / "rank_15_ascend_pt").string() +
                             ": behind a symbolic link, not followed") == 1);
        CHECK(std::count(problems.begin(), problems.end(),
                         "rank 14 missing: " + (deep / "rank_14_ascend_pt").string() +
                             ": more than 8 levels deep, not searched") == 1);
    }
    SUBCASE("a link to a rank outside the job is left out of the matrix, not flagged as slow") {
        const fs::path matrix = dir / "job" / "rank_3_ascend_pt" / "ASCEND_PROFILER_OUTPUT" /
                                "communication_matrix.json";
        std::string text = ReadText(matrix);
        const size_t link = text.find("\"3-");
        REQUIRE(link != std::string::npos);
        const size_t end = text.find('"', link + 1);
        text.replace(link, end - link + 1, "\"3-99\"");
        std::ofstream(matrix) << text;
        auto cluster = LoadCluster((dir / "job").string(), 2);
        REQUIRE(cluster.ok());
        CHECK(cluster.value().missingRanks.empty());
        for (const ClusterRank& rank : cluster.value().ranks)
            for (const RankLink& l : rank.links) CHECK(l.dstRank < 16);
        CHECK(FindSlowLinks(BuildMatrix(cluster.value())).empty());
        bool said = false;
        for (const std::string& problem : cluster.value().problems)
            said = said || problem.find(
                               "a rank outside the job's 16 ranks (world_size in "
                               "profiler_metadata.json): 3-99 (rank 3)") != std::string::npos;
        CHECK(said);
    }
    fs::remove_all(dir);
}

TEST_CASE("whether a folder is a cluster is decided by its first two ranks, without a full walk") {
    const fs::path dir = test::TempDir("cluster_enough");
    ClusterOptions options;
    options.ranks = 6;
    options.steps = 1;
    std::string error;
    REQUIRE_MESSAGE(WriteCluster(options, dir.string(), &error), error);
    CHECK(FindClusterFolders(dir.string()).rankFolders.size() == 6);
    const ClusterFolders first = FindClusterFolders(dir.string(), 2);
    CHECK(first.rankFolders.size() == 2);
    CHECK(first.skipped.empty());
    CHECK(IsClusterPath(dir.string()));
    CHECK_FALSE(IsClusterPath((dir / "rank_0_ascend_pt").string()));  // one rank is not one
    fs::remove_all(dir);
}

TEST_CASE("a folder that is not a cluster says what it lacks") {
    const fs::path dir = test::TempDir("cluster_empty");
    CHECK_FALSE(IsClusterPath(dir.string()));
    auto cluster = LoadCluster(dir.string(), 1);
    REQUIRE_FALSE(cluster.ok());
    CHECK(cluster.message().find("not a cluster folder") != std::string::npos);
    fs::remove_all(dir);
}

TEST_CASE("real two-rank runs open as clusters") {
    const std::string fixtures = test::FixturesDir();
    if (fixtures.empty()) return;
    for (const char* level : {"level0", "level1", "level2"}) {
        CAPTURE(level);
        const std::string path = fixtures + "/msinsight/test/data/pytorch/text/" + level;
        CHECK(IsClusterPath(path));
        auto cluster = LoadCluster(path, 2);
        REQUIRE_MESSAGE(cluster.ok(), cluster.message());
        REQUIRE(cluster.value().ranks.size() == 2);
        CHECK(cluster.value().ranks[0].rankId == RankId(0));
        CHECK(cluster.value().ranks[1].rankId == RankId(1));
        CHECK(cluster.value().steps == std::vector<std::string>{"50"});
        // Two ranks of an 8-rank job: where communication_matrix.json names the other six (Level1,
        // Level2), they are missing.
        if (std::string(level) == "level0")
            CHECK(cluster.value().missingRanks.empty());
        else
            CHECK(RankNumbers(cluster.value().missingRanks) == std::vector<int>{2, 3, 4, 5, 6, 7});
        for (const ClusterRank& rank : cluster.value().ranks) CHECK(rank.overview.valid);
        if (std::string(level) != "level0") {
            // Level1 and Level2 write communication files: both ranks ran the same collectives.
            const std::vector<CollectiveKey> collectives = ListCollectives(cluster.value());
            REQUIRE_FALSE(collectives.empty());
            CHECK(collectives.front().ranks == 2);
            CHECK_FALSE(BuildMatrix(cluster.value()).empty());
            CHECK(cluster.value().groups.size() >= 1);
        }
    }
}

TEST_CASE("the real 16-rank cluster_analysis_output opens as a cluster") {
    const std::string fixtures = test::FixturesDir();
    if (fixtures.empty()) return;
    const std::string path =
        fixtures + "/msinsight/server/src/test/test_data/cluster_analysis_output";
    CHECK(IsClusterPath(path));
    auto loaded = LoadCluster(path, 2);
    REQUIRE_MESSAGE(loaded.ok(), loaded.message());
    const Cluster& cluster = loaded.value();
    CHECK(cluster.source == ClusterSource::kAnalysisOutput);
    REQUIRE(cluster.ranks.size() == 16);
    CHECK(cluster.steps == std::vector<std::string>{"2"});
    CHECK(cluster.problems.empty());
    // Rank 11 of cluster_step_trace_time.csv: Computing 79880.36 µs.
    const StepTable table = BuildStepTable(cluster, StepIndex(0));
    CHECK(table.rows[11].ns[kStepComputing] == 79879360);
    CHECK(table.rows[8].ns[kStepBubble] == 178320265);
    // Two pipeline stages from the file's stage rows, and the groups of communication_group.json.
    int stages = 0;
    for (const ClusterGroup& group : cluster.groups) stages += group.kind == "stage";
    CHECK(stages == 2);
    CHECK(cluster.groups.front().ranks.size() == 16);
    // cluster_communication.json (trimmed in this sample to ranks 0 and 1) gives them their
    // collectives; the matrix its links.
    CHECK(cluster.ranks[0].collectives.size() == 3);  // four entries, one of them "Total Op Info"
    CHECK(cluster.ranks[1].collectives.size() == 3);
    CHECK(cluster.ranks[2].collectives.empty());
    const std::vector<MatrixCell> cells = BuildMatrix(cluster);
    CHECK_FALSE(cells.empty());
    bool rdma = false;
    for (const MatrixCell& cell : cells)
        rdma = rdma || (cell.srcRank == 0 && cell.dstRank == 8 && cell.transport == "RDMA");
    CHECK(rdma);
}

TEST_CASE("stats --json of a cluster whose step ids and folder names are not UTF-8 is still JSON") {
    const fs::path dir = test::TempDir("cluster_not_utf8");
    ClusterOptions options;
    options.ranks = 2;
    options.steps = 2;
    std::string error;
    REQUIRE(WriteCluster(options, dir.string(), &error));
    const fs::path steps =
        dir / "rank_1_ascend_pt" / "ASCEND_PROFILER_OUTPUT" / "step_trace_time.csv";
    std::string text = ReadText(steps);
    const size_t row = text.find("\n1,");
    REQUIRE(row != std::string::npos);
    text.insert(row + 1, "\xff");
    std::ofstream(steps, std::ios::binary) << text;
    fs::rename(dir / "rank_0_ascend_pt", dir / "rank_0_\xe9_ascend_pt");
    int status = -1;
    const std::string json =
        test::RunCommand(std::string(MAREY_BINARY) + " stats " + dir.string() + " --json", &status);
    REQUIRE(status == 0);
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    CHECK_MESSAGE(!parser.parse(json).get(root), json.substr(0, 2000));
    CHECK(json.find("\\ufffd1") != std::string::npos);
    fs::remove_all(dir);
}

TEST_CASE("stats CLUSTER --json has the documented cluster key") {
    const fs::path dir = test::TempDir("cluster_stats");
    ClusterOptions options;
    options.ranks = 16;
    options.steps = 3;
    options.slowRank = 9;
    options.slowLinkSrc = 0, options.slowLinkDst = 1;
    std::string error;
    REQUIRE(WriteCluster(options, dir.string(), &error));
    int status = -1;
    const std::string json =
        test::RunCommand(std::string(MAREY_BINARY) + " stats " + dir.string() + " --json", &status);
    REQUIRE(status == 0);
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    REQUIRE(!parser.parse(json).get(root));
    simdjson::dom::object cluster;
    REQUIRE(!root["cluster"].get(cluster));
    CHECK(int64_t(cluster["ranks"]) == 16);
    CHECK(simdjson::dom::array(cluster["rank_ids"]).size() == 16);
    CHECK(int64_t(cluster["steps"]) == 3);
    simdjson::dom::array slowRanks = cluster["slow_ranks"];
    REQUIRE(slowRanks.size() == 1);
    CHECK(int64_t(slowRanks.at(0)["rank"]) == 9);
    CHECK(std::string_view(slowRanks.at(0)["phase"]) == "computing");
    CHECK(int64_t(slowRanks.at(0)["value_ns"]) > int64_t(slowRanks.at(0)["median_ns"]));
    CHECK(int64_t(slowRanks.at(0)["mad_ns"]) >= 0);
    simdjson::dom::array slowLinks = cluster["slow_links"];
    REQUIRE(slowLinks.size() == 1);
    CHECK(int64_t(slowLinks.at(0)["src"]) == 0);
    CHECK(int64_t(slowLinks.at(0)["dst"]) == 1);
    CHECK(std::string_view(slowLinks.at(0)["transport"]) == "HCCS");
    CHECK(double(slowLinks.at(0)["bandwidth_gbps"]) < double(slowLinks.at(0)["median_gbps"]));
    CHECK(simdjson::dom::array(cluster["groups"]).size() >= 2);
    CHECK(int64_t(cluster["problems"]["count"]) == 0);
    CHECK(simdjson::dom::array(cluster["problems"]["first"]).size() == 0);
    // The Marey view's figures: 16 devices in order, every step matched, rank 9 the slowest.
    simdjson::dom::object marey;
    REQUIRE(!root["marey"].get(marey));
    CHECK(simdjson::dom::array(marey["devices"]).size() == 16);
    simdjson::dom::array steps = marey["steps"];
    REQUIRE(steps.size() == 3);
    CHECK(int64_t(steps.at(0)["operators"]) == 27);
    CHECK(int64_t(steps.at(0)["matched"]) == 15 * 26 - 1);
    CHECK(int64_t(steps.at(0)["unmatched"]) == 1);
    CHECK(int64_t(marey["slowest_device"]["rank"]) == 9);
    CHECK(int64_t(marey["slowest_device"]["slant_excess_ns"]) > 5000000);
    fs::remove_all(dir);
}

TEST_CASE(
    "MindInsight's older cluster layout opens: steps in 10 ns ticks, communication from hccl_raw") {
    const std::string fixtures = test::FixturesDir();
    if (fixtures.empty()) return;
    const std::string path = fixtures + "/mindinsight/tests/utils/resource/cluster_propose";
    CHECK(IsClusterPath(path));
    auto loaded = LoadCluster(path, 2);
    REQUIRE_MESSAGE(loaded.ok(), loaded.message());
    const Cluster& cluster = loaded.value();
    CHECK(cluster.source == ClusterSource::kMindInsightStepTraceRaw);
    CHECK(cluster.layout == StepLayout::kMindInsight);
    REQUIRE(cluster.ranks.size() == 4);
    // Steps 1 to 5; the file's "-" row (MindInsight's own average) is not a step.
    CHECK(cluster.steps == std::vector<std::string>{"1", "2", "3", "4", "5"});
    CHECK(cluster.problems.empty());
    // Rank 1, step 2: iteration_interval 81911, fp_and_bp 17912287, tail 96071 ticks of 10 ns;
    // they add up to the step's total (18090269 ticks).
    const StepRow* step = cluster.ranks[1].FindStep("2");
    REQUIRE(step != nullptr);
    CHECK(step->ns[kStepFree] == 819110);
    CHECK(step->ns[kStepComputing] == 179122870);
    CHECK(step->ns[kStepCommNotOverlapped] == 960710);
    CHECK(StepWallNs(*step) == 180902690);
    CHECK(std::string(StepColumnName(kStepComputing, cluster.layout)) == "Forward and backward");
    // hccl_raw_0.csv, step 1: communication_cost 2.60018 ms, wait_cost 270.25056 ms.
    REQUIRE_FALSE(cluster.ranks[0].collectives.empty());
    CHECK(cluster.ranks[0].collectives[0].step == "1");
    CHECK(cluster.ranks[0].collectives[0].elapseNs == 2600180);
    CHECK(cluster.ranks[0].collectives[0].waitNs == 270250560);
    // The pipeline-parallel file gives stage and bubble (ms): rank 0, step 1: 121.8989 and 56.3973.
    CHECK(cluster.ranks[0].FindStep("1")->ns[kStepStage] == 121898900);
    CHECK(cluster.ranks[0].FindStep("1")->ns[kStepBubble] == 56397300);
}

TEST_CASE(
    "the matrix grid puts every rank on its axis and keeps the slowest link of a block when zoomed "
    "out") {
    // Ranks 0, 1, 2 and 5 (5 only through a link), links 0→1 (10 MB in 10 ms: 1 GB/s) and 2→5
    // (40 MB in 10 ms: 4 GB/s), one copy 1→1 far faster than any link.
    std::vector<MatrixCell> cells(3);
    cells[0].srcRank = 0, cells[0].dstRank = 1, cells[0].transport = "HCCS",
    cells[0].transitSizeMb = 10, cells[0].transitNs = 10000000;
    cells[1].srcRank = 1, cells[1].dstRank = 1, cells[1].transport = "LOCAL",
    cells[1].transitSizeMb = 500, cells[1].transitNs = 1000000;
    cells[2].srcRank = 2, cells[2].dstRank = 5, cells[2].transport = "RDMA",
    cells[2].transitSizeMb = 40, cells[2].transitNs = 10000000;
    MatrixGrid grid;
    grid.Build(cells, {0, 1, 2}, MatrixMetric::kBandwidth);
    REQUIRE(grid.Dim() == 4);
    CHECK(grid.RankIds() == std::vector<int>{0, 1, 2, 5});
    CHECK(grid.IndexOf(5) == 3);
    CHECK(grid.IndexOf(3) == -1);
    // The scale spans the links between ranks: the copy to itself is left out.
    CHECK(grid.MinValue() == doctest::Approx(1.0));
    CHECK(grid.MaxValue() == doctest::Approx(4.0));
    const MatrixGrid::Level& fine = grid.LevelFor(100, 3);
    REQUIRE(fine.dim == 4);
    CHECK(fine.value[0 * 4 + 1] == doctest::Approx(1.0));
    CHECK(fine.value[2 * 4 + 3] == doctest::Approx(4.0));
    CHECK(std::isnan(fine.value[1 * 4 + 0]));
    CHECK(fine.transport[2 * 4 + 3] == TransportIndex("RDMA"));
    // At one pixel per link a 2 × 2 block is still under 3 px: the 1 × 1 level of the whole matrix.
    const MatrixGrid::Level& coarse = grid.LevelFor(1, 3);
    REQUIRE(coarse.dim == 1);
    CHECK(coarse.block == 4);
    CHECK(coarse.value[0] == doctest::Approx(1.0));  // the slowest bandwidth of the block
    MatrixGrid sizes;
    sizes.Build(cells, {0, 1, 2}, MatrixMetric::kSize);
    // The largest size of the block.
    CHECK(sizes.LevelFor(1, 3).value[0] == doctest::Approx(500.0));
    CHECK(TransportIndex("PCIE") == 1);
    CHECK(TransportIndex("something new") == kTransportCount - 1);
}

TEST_CASE("the matrix grid of no links is empty") {
    MatrixGrid grid;
    grid.Build({}, {}, MatrixMetric::kTime);
    CHECK(grid.Dim() == 0);
    CHECK(grid.LevelFor(1, 3).dim == 0);
    CHECK(grid.MinValue() == 0);
    CHECK(grid.MaxValue() == 0);
}

TEST_CASE(
    "a quantile interpolates between its two closest ranks, and the middle one is the median") {
    std::vector<double> values = {9, 1, 5, 3, 7};
    CHECK(Quantile(values, 0) == 1);
    CHECK(Quantile(values, 0.25) == 3);
    CHECK(Quantile(values, 0.5) == 5);
    CHECK(Quantile(values, 1) == 9);
    std::vector<double> even = {4, 1, 3, 2};
    CHECK(Quantile(even, 0.5) == 2.5);  // position 1.5 of 1 2 3 4
    CHECK(Quantile(even, 0.25) == doctest::Approx(1.75));
    std::vector<double> again = {4, 1, 3, 2};
    CHECK(Median(again) == 2.5);
    std::vector<double> box = {4, 1, 3, 2};
    const FiveNumbers five = SummarizeFive(box);
    CHECK(five.count == 4);
    CHECK(five.min == 1);
    CHECK(five.median == 2.5);
    CHECK(five.max == 4);
    std::vector<double> none;
    CHECK(Quantile(none, 0.5) == 0);
}

TEST_CASE(
    "the cluster report finds the planted slow rank and link and sorts every collective's "
    "duration") {
    const fs::path dir = test::TempDir("cluster_report");
    ClusterOptions options;
    options.ranks = 16;
    options.steps = 3;
    options.slowRank = 9;
    options.slowLinkSrc = 2, options.slowLinkDst = 3;
    const Cluster cluster = Generate(dir, options);
    const ClusterReport report = BuildClusterReport(cluster);
    CHECK(report.averagedSteps.rows.size() == 16);
    REQUIRE(report.slowRanks.size() == 1);
    CHECK(report.slowRanks[0].rankId == RankId(9));
    REQUIRE(report.slowLinks.size() == 1);
    CHECK(report.slowLinks[0].srcRank == 2);
    CHECK(report.slowLinks[0].dstRank == 3);
    size_t collectives = 0;
    for (const ClusterRank& rank : cluster.ranks) collectives += rank.collectives.size();
    REQUIRE(collectives > 0);
    CHECK(report.collectiveDurations.size() == collectives);
    CHECK(std::is_sorted(report.collectiveDurations.begin(), report.collectiveDurations.end()));
    fs::remove_all(dir);
}
