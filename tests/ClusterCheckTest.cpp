// `marey check` on two clusters, rank by rank: generated jobs with an operator planted slow on one
// rank find that rank the worst (every rank's step is slower: the others wait for it), two
// recordings of one job pass, ranks only one side has are named, and every report says which rank.
#include <doctest/doctest.h>

#include <simdjson.h>
#include <sys/wait.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "ClusterGenerator.hpp"
#include "TestSupport.hpp"
#include "compare/ClusterCheck.hpp"
#include "loading/ClusterCheckLoader.hpp"
#include "report/CheckHtml.hpp"
#include "report/CheckReport.hpp"
#include "report/ClusterCheckReport.hpp"

using namespace marey;
namespace fs = std::filesystem;

namespace {

constexpr int kSlowRank = 2;

// DIR/base (seed 1) and DIR/cand (seed 2), 4 ranks of 10 steps; 'plant' changes the candidate.
fs::path WriteClusters(const std::string& name, void (*plant)(ClusterOptions&)) {
    const fs::path dir = test::TempDir("cluster_check_" + name);
    ClusterOptions options;
    options.ranks = 4;
    options.steps = 10;
    options.seed = 1;
    std::string error;
    REQUIRE_MESSAGE(WriteCluster(options, (dir / "base").string(), &error), error);
    options.seed = 2;
    plant(options);
    REQUIRE_MESSAGE(WriteCluster(options, (dir / "cand").string(), &error), error);
    return dir;
}

void SlowMatMulOnOneRank(ClusterOptions& options) {
    options.slowOperator = 0;  // MatMul_0, 6 ms of a 78 ms step, twice as long
    options.slowOperatorRank = kSlowRank;
}

ClusterCheckResult Check(const fs::path& dir) {
    Result<ClusterCheckResult> result = CheckClusterFolders(
        (dir / "base").string(), (dir / "cand").string(), CheckRules::Defaults());
    REQUIRE_MESSAGE(result.ok(), (result.ok() ? "" : result.message()));
    return std::move(result.value());
}

std::set<std::string> Described(const std::vector<CheckFinding>& findings) {
    std::set<std::string> out;
    for (const CheckFinding& finding : findings) out.insert(DescribeFinding(finding));
    return out;
}

std::string ReadText(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

std::string RunCheck(const std::string& args, int* exitStatus) {
    int status = -1;
    const std::string out =
        test::RunCommand(std::string(MAREY_BINARY) + " check " + args + " 2>&1", &status);
    *exitStatus = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return out;
}

}  // namespace

TEST_CASE("an operator planted slow on one rank makes that rank the worst of the cluster") {
    const fs::path dir = WriteClusters("slow_operator", SlowMatMulOnOneRank);
    const ClusterCheckResult cluster = Check(dir);
    CHECK(cluster.Failed());
    REQUIRE(cluster.ranks.size() == 4);
    CHECK(cluster.onlyInBaseline.empty());
    CHECK(cluster.onlyInCandidate.empty());
    REQUIRE(cluster.Worst());
    CHECK(cluster.Worst()->rank == kSlowRank);
    CHECK(Described(cluster.Worst()->result.regressions) ==
          std::set<std::string>{"operator MatMul_0", "operator type MatMul", "phase computing",
                                "step time"});
    REQUIRE(cluster.Worst()->result.worstOperator.has_value());
    CHECK(cluster.Worst()->result.worstOperator->name == "MatMul_0");
    // The other ranks wait for it in the allReduce: slower steps and longer communication, and
    // nothing of their own work.
    for (size_t i = 1; i < cluster.ranks.size(); ++i) {
        const RankCheck& rank = cluster.ranks[i];
        CAPTURE(rank.rank);
        CHECK(rank.rank != kSlowRank);
        CHECK(rank.result.Failed());
        CHECK(LargestOwnWorkRegression(rank.result) == nullptr);
        const std::set<std::string> found = Described(rank.result.regressions);
        CHECK(found.count("step time") == 1);
        CHECK(found.count("communication hcom_allReduce") == 1);
        CHECK(found.count("operator MatMul_0") == 0);
    }
    // Ranks after the worst come in rank order: their severities are the same.
    CHECK(cluster.ranks[1].rank < cluster.ranks[2].rank);
    CHECK(cluster.ranks[2].rank < cluster.ranks[3].rank);
    fs::remove_all(dir);
}

TEST_CASE("two recordings of one cluster pass rank by rank") {
    const fs::path dir = WriteClusters("noise", [](ClusterOptions&) {});
    const ClusterCheckResult cluster = Check(dir);
    CHECK_MESSAGE(!cluster.Failed(), ClusterCheckToText(cluster));
    CHECK(cluster.ranks.size() == 4);
    for (const RankCheck& rank : cluster.ranks) CHECK(rank.result.regressions.empty());
    // Passing ranks are in rank order.
    for (size_t i = 0; i < cluster.ranks.size(); ++i) CHECK(cluster.ranks[i].rank == int(i));
    CHECK(ClusterCheckToText(cluster).rfind("PASS: no regression in 4 ranks, 0 improvements (rank "
                                            "0: 10 steps paired by name",
                                            0) == 0);
    fs::remove_all(dir);
}

TEST_CASE("ranks only one cluster has are named and the others are still compared") {
    const fs::path dir = test::TempDir("cluster_check_unpaired");
    ClusterOptions options;
    options.ranks = 3;
    options.steps = 10;
    std::string error;
    REQUIRE(WriteCluster(options, (dir / "base").string(), &error));
    options.ranks = 5;
    REQUIRE(WriteCluster(options, (dir / "cand").string(), &error));
    fs::remove_all(dir / "cand/rank_1_ascend_pt");
    const ClusterCheckResult cluster = Check(dir);
    CHECK(cluster.ranks.size() == 2);
    CHECK(cluster.onlyInBaseline == std::vector<int>{1});
    CHECK(cluster.onlyInCandidate == std::vector<int>{3, 4});
    const std::string text = ClusterCheckToText(cluster);
    CHECK(text.find("not compared: rank 1 only in the baseline; ranks 3, 4 only in the "
                    "candidate\n") != std::string::npos);
    CHECK(ClusterCheckToMarkdown(cluster).find(
              "Not compared: rank 1 only in the baseline; ranks 3, 4 only in the candidate.") !=
          std::string::npos);
    const std::string junit = ClusterCheckToJunit(cluster);
    CHECK(junit.find("<testsuite name=\"marey check: ranks not compared\" tests=\"3\" "
                     "failures=\"0\" errors=\"0\" skipped=\"3\">") != std::string::npos);
    CHECK(junit.find("<testcase classname=\"marey.check\" name=\"rank 4\">\n      <skipped "
                     "message=\"only in the candidate\"/>") != std::string::npos);
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    REQUIRE(parser.parse(ClusterCheckToJson(cluster)).get(root) == simdjson::SUCCESS);
    CHECK(simdjson::dom::array(root["only_in_baseline"]).size() == 1);
    CHECK(int64_t(simdjson::dom::array(root["only_in_candidate"]).at(1)) == 4);
    // Nothing in common: an error that says so.
    fs::remove_all(dir / "base");
    options.ranks = 2;
    REQUIRE(WriteCluster(options, (dir / "base").string(), &error));
    for (const char* rank : {"0", "2"})
        fs::remove_all(dir / ("cand/rank_" + std::string(rank) + "_ascend_pt"));
    const Result<ClusterCheckResult> none = CheckClusterFolders(
        (dir / "base").string(), (dir / "cand").string(), CheckRules::Defaults());
    REQUIRE_FALSE(none.ok());
    CHECK(none.message() == "nothing to compare: " + (dir / "base").string() + " and " +
                                (dir / "cand").string() + " have no rank in common");
    fs::remove_all(dir);
}

TEST_CASE("every report of a cluster check says which rank, the worst first") {
    const fs::path dir = WriteClusters("reports", SlowMatMulOnOneRank);
    const std::string base = (dir / "base").string(), cand = (dir / "cand").string();
    const fs::path md = dir / "check.md", html = dir / "check.html", xml = dir / "check.xml";
    int status = -1;
    const std::string text = RunCheck(base + " " + cand + " --markdown " + md.string() +
                                          " --html " + html.string() + " --junit " + xml.string(),
                                      &status);
    CHECK(status == 1);
    CHECK_MESSAGE(text.rfind("regression: rank 2: ", 0) == 0, text);
    CHECK(text.find("regression: rank 2: operator MatMul_0: ") != std::string::npos);
    CHECK(text.find("regression: rank 0: communication hcom_allReduce: ") != std::string::npos);
    CHECK(text.find("FAIL: 4 of 4 ranks regressed; worst rank 2: 4 regressions, 0 improvements "
                    "(rank 2: 10 steps paired by name, aligned on step 1; baseline median step ") !=
          std::string::npos);

    const std::string markdown = ReadText(md);
    CHECK(markdown.rfind("## marey check: **FAIL: 4 of 4 ranks regressed; worst rank 2: ", 0) == 0);
    CHECK(markdown.find("|---:|---|---:|---:|---|---|\n| 2 | FAIL | 4 | 0 | ") !=
          std::string::npos);
    CHECK(markdown.find("| 0 | FAIL | 5 | 0 | ") != std::string::npos);
    CHECK(markdown.find("none: step time and communication only |") != std::string::npos);
    CHECK(markdown.find("### Rank 2: FAIL: 4 regressions, 0 improvements") <
          markdown.find("### Rank 0: FAIL: 5 regressions, 0 improvements"));
    CHECK(markdown.find("#### Regressions\n\n| what |") != std::string::npos);

    const std::string junit = ReadText(xml);
    CHECK(junit.find("<testsuites name=\"marey check ") != std::string::npos);
    CHECK(junit.find("  <testsuite name=\"marey check rank 2\" tests=\"6\" failures=\"4\"") !=
          std::string::npos);
    CHECK(junit.find("regression: operator MatMul_0: ") != std::string::npos);

    const std::string page = ReadText(html);
    CHECK(page.find("<div class=\"verdict fail\">FAIL: 4 of 4 ranks regressed; worst rank 2: ") !=
          std::string::npos);
    CHECK(page.find("<h2>Worst rank: rank 2</h2>") != std::string::npos);
    CHECK(page.find("<tr><td class=\"num\">2</td><td><span class=\"badge fail\">FAIL</span>") <
          page.find("<tr><td class=\"num\">0</td><td><span class=\"badge fail\">FAIL</span>"));
    CHECK(page.find("<summary>Rank 3: FAIL: 5 regressions, 0 improvements</summary>") !=
          std::string::npos);
    CHECK(page.find("<svg class=\"plot\"") != std::string::npos);
    CHECK(page.find("<script") == std::string::npos);

    const std::string json = RunCheck(base + " " + cand + " --json", &status);
    CHECK(status == 1);
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    REQUIRE(parser.parse(json).get(root) == simdjson::SUCCESS);
    CHECK(std::string_view(root["verdict"]) == "fail");
    CHECK(std::string_view(root["baseline"]) == base);
    CHECK(int64_t(root["ranks_compared"]) == 4);
    CHECK(int64_t(root["ranks_regressed"]) == 4);
    CHECK(int64_t(root["worst_rank"]) == kSlowRank);
    simdjson::dom::array ranks = root["ranks"];
    REQUIRE(ranks.size() == 4);
    CHECK(int64_t(ranks.at(0)["rank"]) == kSlowRank);
    CHECK(std::string_view(ranks.at(0)["verdict"]) == "fail");
    CHECK(std::string_view(ranks.at(0)["baseline"]) == base + "/rank_2_ascend_pt");
    CHECK(simdjson::dom::array(ranks.at(0)["regressions"]).size() == 4);
    fs::remove_all(dir);
}

TEST_CASE("check refuses a cluster against one rank and passes two recordings of a cluster") {
    const fs::path dir = WriteClusters("cli", [](ClusterOptions&) {});
    const std::string base = (dir / "base").string(), cand = (dir / "cand").string();
    int status = -1;
    std::string out = RunCheck(base + " " + cand, &status);
    CHECK(status == 0);
    CHECK(out.find("PASS: no regression in 4 ranks") != std::string::npos);
    out = RunCheck(base + " " + cand + "/rank_0_ascend_pt", &status);
    CHECK(status == 2);
    CHECK(out == "marey check: " + base +
                     ": a cluster folder, and the other side is not: check compares two runs or "
                     "two clusters rank by rank\n");
    fs::remove_all(dir);
}

TEST_CASE("the worst rank is the one whose own work regressed most, not one that waited") {
    auto finding = [](CheckKind kind, const std::string& name, TimeNs changeNs) {
        CheckFinding f;
        f.kind = kind;
        f.name = name;
        f.changeNs = changeNs;
        return f;
    };
    std::vector<RankCheck> ranks(4);
    for (int i = 0; i < 4; ++i) ranks[i].rank = i;
    // Rank 0 waits: more regressions, larger ones, all of them step time or communication.
    ranks[0].result.regressions = {
        finding(CheckKind::kStep, "step time", 9000),
        finding(CheckKind::kCommunication, "hcom_allReduce", 8000),
        finding(CheckKind::kOperator, "hcom_allReduce", 8000),
        finding(CheckKind::kType, "hcom_allReduce_", 8000),
        finding(CheckKind::kPhase, "communication_not_overlapped", 8000)};
    // Rank 1's free time grew; rank 3's operator grew more.
    ranks[1].result.regressions = {finding(CheckKind::kPhase, "free", 3000)};
    ranks[3].result.regressions = {finding(CheckKind::kStep, "step time", 9000),
                                   finding(CheckKind::kOperator, "MatMul_0", 5000)};
    // Rank 2 passed.
    OrderWorstFirst(ranks);
    CHECK(ranks[0].rank == 3);
    CHECK(ranks[1].rank == 1);
    CHECK(ranks[2].rank == 0);
    CHECK(ranks[3].rank == 2);
    REQUIRE(LargestOwnWorkRegression(ranks[0].result));
    CHECK(LargestOwnWorkRegression(ranks[0].result)->name == "MatMul_0");
}
