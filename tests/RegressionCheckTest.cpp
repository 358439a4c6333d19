// `marey check`: generated pairs with planted regressions come out with exactly those at the
// default thresholds, noise-only pairs never fail, rules read from the command line and from a
// file (a mistake named with its line and column), the exit codes and the reports.
#include <doctest/doctest.h>

#include <simdjson.h>
#include <sys/wait.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <string>

#include "ClusterGenerator.hpp"
#include "KinetoTraceGenerator.hpp"
#include "TestSupport.hpp"
#include "TraceGenerator.hpp"
#include "compare/CheckRules.hpp"
#include "compare/RegressionCheck.hpp"
#include "compare/RunDamage.hpp"
#include "loading/RankLoader.hpp"
#include "report/CheckHtml.hpp"
#include "report/CheckReport.hpp"
#include "report/MarkupEscape.hpp"

using namespace marey;
namespace fs = std::filesystem;

namespace {

constexpr uint64_t kEvents = 20000;

// Writes A (the comparison pair's side A for 'seed') and B (A changed by 'plant') under a fresh
// folder; returns the folder.
fs::path WritePair(const std::string& name, uint64_t seed,
                   const std::function<void(GeneratorOptions&)>& plant) {
    const fs::path dir = test::TempDir("check_" + name);
    GeneratorOptions options;
    options.events = kEvents;
    options.seed = seed;
    const GeneratorOptions a = ComparisonSideA(options);
    GeneratorOptions b = a;
    plant(b);
    std::string error;
    REQUIRE_MESSAGE(WriteRankDirectory(a, (dir / "a").string(), &error), error);
    REQUIRE_MESSAGE(WriteRankDirectory(b, (dir / "b").string(), &error), error);
    return dir;
}

CheckResult CheckFolders(const fs::path& dir, const CheckRules& rules = CheckRules::Defaults()) {
    LoadedPair pair = LoadRankPair((dir / "a").string(), (dir / "b").string());
    REQUIRE(pair.a.ok());
    REQUIRE(pair.b.ok());
    Result<CheckResult> result =
        CheckSides(MakeCheckSide(pair.a.value()), MakeCheckSide(pair.b.value()), rules);
    REQUIRE_MESSAGE(result.ok(), (result.ok() ? "" : result.message()));
    return result.value();
}

// "operator MatMul_0", … of each finding, as a set.
std::set<std::string> Described(const std::vector<CheckFinding>& findings) {
    std::set<std::string> out;
    for (const CheckFinding& finding : findings) out.insert(DescribeFinding(finding));
    return out;
}

}  // namespace

TEST_CASE("planted regressions are found, exactly those, at the default thresholds") {
    struct Planted {
        std::string what;
        std::function<void(GeneratorOptions&)> plant;
        std::set<std::string> regressions, improvements;
    };
    const std::vector<Planted> cases = {
        {"MatMul 3 % slower",
         [](GeneratorOptions& b) { b.slowOperatorKind = 0, b.slowOperatorPercent = 3; },
         {},
         {}},
        {"MatMul 10 % slower",
         [](GeneratorOptions& b) { b.slowOperatorKind = 0, b.slowOperatorPercent = 10; },
         {"operator MatMul_0", "operator type MatMul"},
         {}},
        {"MatMul twice as slow",
         [](GeneratorOptions& b) { b.slowOperatorKind = 0, b.slowOperatorPercent = 100; },
         {"operator MatMul_0", "operator type MatMul", "phase computing"},
         {}},
        {"a new operator",
         [](GeneratorOptions& b) { b.extraOperator = true; },
         {"operator DropOutDoMask_20", "operator type DropOutDoMask"},
         {}},
        {"every step 300 µs slower",
         [](GeneratorOptions& b) { b.extraStepNs = 300000; },
         {"step time", "phase free"},
         {}},
        {"a run 20 % faster", [](GeneratorOptions& b) { b.taskScalePercent = -20; }, {}, {}},
    };
    for (const Planted& planted : cases) {
        CAPTURE(planted.what);
        const fs::path dir = WritePair("planted", 1, planted.plant);
        const CheckResult result = CheckFolders(dir);
        CHECK(Described(result.regressions) == planted.regressions);
        CHECK(result.Failed() == !planted.regressions.empty());
        CHECK(result.paired);
        CHECK(result.alignedStep == "1");
        if (planted.what == "a run 20 % faster")
            CHECK(Described(result.improvements).count("step time") == 1);
        fs::remove_all(dir);
    }
}

TEST_CASE("the check keeps each step's time and the worst operator's time per step for plots") {
    const fs::path dir = WritePair("plots", 1, [](GeneratorOptions& b) {
        b.slowOperatorKind = 0, b.slowOperatorPercent = 100;
    });
    const CheckResult result = CheckFolders(dir);
    const CheckSeriesPair& steps = result.stepTimes;
    CHECK(steps.paired);
    CHECK(steps.baselineSteps.size() == result.stepsCompared);
    CHECK(steps.baselineSteps == steps.candidateSteps);
    CHECK(steps.baselineNs.size() == steps.baselineSteps.size());
    CHECK(steps.candidateNs.size() == steps.candidateSteps.size());
    CHECK(steps.baselineSteps.front() == result.alignedStep);
    REQUIRE(result.worstOperator.has_value());
    const CheckSeriesPair& matmul = *result.worstOperator;
    CHECK(matmul.kind == CheckKind::kOperator);
    CHECK(matmul.name == "MatMul_0");
    REQUIRE(matmul.baselineNs.size() == matmul.candidateNs.size());
    // Every run of MatMul takes twice as long: so does each step's sum, to a nanosecond a run.
    size_t stepsWithMatMul = 0;
    for (size_t i = 0; i < matmul.baselineNs.size(); ++i) {
        CAPTURE(matmul.baselineSteps[i]);
        CHECK(std::llabs(matmul.candidateNs[i] - 2 * matmul.baselineNs[i]) <= 1000);
        stepsWithMatMul += matmul.baselineNs[i] > 0;
    }
    CHECK(stepsWithMatMul > matmul.baselineNs.size() / 2);
    fs::remove_all(dir);
}

TEST_CASE("two recordings of one program with 1 % jitter never fail, over 100 seeds") {
    for (uint64_t seed = 1; seed <= 100; ++seed) {
        CAPTURE(seed);
        const fs::path dir = WritePair("noise", seed, [&](GeneratorOptions& b) {
            b.jitterPercent = 1;
            b.jitterSeed = seed + 100;
        });
        const CheckResult result = CheckFolders(dir);
        CHECK_MESSAGE(!result.Failed(), CheckToText(result));
        fs::remove_all(dir);
    }
}

TEST_CASE("collectives numbered differently in two recordings are the same operators") {
    // The generated job names its collectives after a hash of the seed, as the profiler numbers
    // them per run: hcom_allReduce__407_0_1 in one recording is hcom_allReduce__897_0_1 in the
    // next.
    const fs::path dir = test::TempDir("check_hccl_names");
    ClusterOptions options;
    options.ranks = 2;
    options.steps = 10;
    std::string error;
    options.seed = 1;
    REQUIRE_MESSAGE(WriteCluster(options, (dir / "a").string(), &error), error);
    options.seed = 2;
    REQUIRE_MESSAGE(WriteCluster(options, (dir / "b").string(), &error), error);
    LoadedPair pair =
        LoadRankPair((dir / "a/rank_0_ascend_pt").string(), (dir / "b/rank_0_ascend_pt").string());
    REQUIRE(pair.a.ok());
    REQUIRE(pair.b.ok());
    const CheckSide a = MakeCheckSide(pair.a.value()), b = MakeCheckSide(pair.b.value());
    std::set<std::string> hcclA, hcclB;
    for (const auto& [name, series] : a.operators.series)
        if (IsCommunicationOperator(name)) hcclA.insert(name);
    for (const auto& [name, series] : b.operators.series)
        if (IsCommunicationOperator(name)) hcclB.insert(name);
    CHECK(hcclA == std::set<std::string>{"hcom_allGather", "hcom_allReduce"});
    CHECK(hcclA == hcclB);
    const Result<CheckResult> result = CheckSides(a, b, CheckRules::Defaults());
    REQUIRE(result.ok());
    CHECK_MESSAGE(!result.value().Failed(), CheckToText(result.value()));
    CHECK(result.value().improvements.empty());
    fs::remove_all(dir);
}

TEST_CASE("a data loader slow in most steps is an input regression, one slow step is not") {
    const fs::path dir = test::TempDir("check_loader");
    auto write = [&](const char* name, std::vector<uint64_t> slowSteps) {
        KinetoTraceOptions options;
        options.steps = 10;
        options.events = 20000;
        options.slowLoaderSteps = std::move(slowSteps);
        std::ofstream((dir / name).string(), std::ios::binary)
            << test::WrittenText([&](std::FILE* out) { GenerateKinetoTrace(options, out); });
        return (dir / name).string();
    };
    const std::string base = write("base.json", {3});
    const std::string again = write("again.json", {7});
    const std::string slow = write("slow.json", {1, 2, 3, 4, 5, 6, 7, 8});
    auto check = [](const std::string& a, const std::string& b) {
        LoadedPair pair = LoadRankPair(a, b);
        REQUIRE(pair.a.ok());
        REQUIRE(pair.b.ok());
        const CheckSide baseline = MakeCheckSide(pair.a.value());
        REQUIRE(baseline.input.series.count(kDataLoaderFigure) == 1);
        Result<CheckResult> result =
            CheckSides(baseline, MakeCheckSide(pair.b.value()), CheckRules::Defaults());
        REQUIRE(result.ok());
        return result.value();
    };
    // Another step slow: the median per step stays, nothing regressed.
    CHECK(check(base, again).regressions.empty());
    const CheckResult result = check(base, slow);
    const auto loader =
        std::find_if(result.regressions.begin(), result.regressions.end(),
                     [](const CheckFinding& f) { return f.kind == CheckKind::kInput; });
    REQUIRE(loader != result.regressions.end());
    CHECK(DescribeFinding(*loader) == "input data_loader");
    CHECK(loader->baselineNs == kLoaderNs);
    CHECK(loader->candidateNs == kSlowLoaderNs);
}

TEST_CASE("the step interval is compared step by step under the input rules") {
    auto side = [](std::vector<TimeNs> intervals) {
        CheckSide out;
        out.path = "run";
        for (size_t i = 0; i < intervals.size(); ++i) {
            out.stepTime.steps.push_back(std::to_string(i + 1));
            out.stepTime.series["step time"].push_back(100000000);
        }
        out.input.steps = out.stepTime.steps;
        out.input.series[kStepIntervalFigure] = std::move(intervals);
        return out;
    };
    const CheckSide baseline = side({2000000, 2100000, 1900000, 2000000, 2050000, 1950000});
    const CheckSide candidate = side({6000000, 6100000, 5900000, 6000000, 6050000, 5950000});
    Result<CheckResult> result = CheckSides(baseline, candidate, CheckRules::Defaults());
    REQUIRE(result.ok());
    REQUIRE(result.value().regressions.size() == 1);
    const CheckFinding& found = result.value().regressions[0];
    CHECK(DescribeFinding(found) == "input step_interval");
    CHECK(found.changeNs == 4000000);
    CHECK(found.maxPercent == 10);
    // A rule raises its threshold; a change under the minimum time is not judged.
    CheckRules rules = CheckRules::Defaults();
    REQUIRE(ParseRulesText("max input:step_interval=250%\n", "r", &rules).ok());
    CHECK(CheckSides(baseline, candidate, rules).value().regressions.empty());
    rules = CheckRules::Defaults();
    rules.minTimeNs = 5000000;
    CHECK(CheckSides(baseline, candidate, rules).value().regressions.empty());
}

TEST_CASE("a rule on the command line or in a file changes the threshold of what it matches") {
    CheckRules rules = CheckRules::Defaults();
    CheckRule rule;
    REQUIRE_FALSE(ParseMaxRule("op:aclnnMatMul*=8%", &rule));
    CHECK(rule.kind == CheckKind::kOperator);
    CHECK(rule.pattern == "aclnnMatMul*");
    CHECK(rule.maxPercent == 8);
    rules.rules.push_back(rule);
    CHECK(rules.MaxPercentFor(CheckKind::kOperator, "aclnnMatMul_7") == 8);
    CHECK(rules.MaxPercentFor(CheckKind::kOperator, "Add") == 10);
    CHECK(rules.MaxPercentFor(CheckKind::kType, "aclnnMatMul") == 10);
    CHECK(rules.MaxPercentFor(CheckKind::kStep, "step time") == 5);
    const Status status = ParseRulesText(
        "# thresholds of this repository\n\nmax step=3%  # tighter\n  min-time 50us\n", "rules.txt",
        &rules);
    REQUIRE(status.ok());
    CHECK(rules.MaxPercentFor(CheckKind::kStep, "step time") == 3);
    CHECK(rules.minTimeNs == 50000);
    CHECK(GlobMatches("hcom_*_?", "hcom_allReduce_1"));
    CHECK_FALSE(GlobMatches("hcom_*_?", "hcom_allReduce_12"));
}

TEST_CASE("a mistake in a rules file is named with its file, line and column") {
    CheckRules rules;
    SUBCASE("a percentage without its sign") {
        const Status status =
            ParseRulesText("max step=3%\nmax op:MatMul*=8\n", "ci/rules.txt", &rules);
        CHECK(status.message() ==
              "ci/rules.txt:2:16: error: expected a percentage such as 8% after '=', got \"8\"");
    }
    SUBCASE("an unknown keyword") {
        const Status status = ParseRulesText("  limit step=3%\n", "r", &rules);
        CHECK(status.message() ==
              "r:1:3: error: expected 'max' or 'min-time' at the start of a rule, got \"limit\"");
    }
    SUBCASE("an unknown figure") {
        const Status status = ParseRulesText("max kernel:X=3%\n", "r", &rules);
        CHECK(status.message() ==
              "r:1:5: error: expected step, phase:NAME, op:NAME, type:NAME, comm:NAME, "
              "input:NAME or cp:KIND before '='");
    }
    SUBCASE("a duration without a unit") {
        const Status status = ParseRulesText("min-time 50\n", "r", &rules);
        CHECK(status.message() ==
              "r:1:10: error: expected a duration such as 50us (ns, us, ms or s), got \"50\"");
    }
}

namespace {

// Runs `marey check ARGS`; returns standard output and sets the exit status.
std::string RunCheck(const std::string& args, int* exitStatus) {
    int status = -1;
    const std::string out =
        test::RunCommand(std::string(MAREY_BINARY) + " check " + args + " 2>&1", &status);
    *exitStatus = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return out;
}

}  // namespace

TEST_CASE("check exits 0 without a regression, 1 with one and 2 on an error, saying which") {
    const fs::path slow = WritePair("cli_slow", 1, [](GeneratorOptions& b) {
        b.slowOperatorKind = 0, b.slowOperatorPercent = 100;
    });
    const std::string a = (slow / "a").string(), b = (slow / "b").string();
    int status = -1;
    std::string out = RunCheck(a + " " + a, &status);
    CHECK(status == 0);
    CHECK(out.find("PASS: no regression, 0 improvements") == 0);
    out = RunCheck(a + " " + b, &status);
    CHECK(status == 1);
    // Largest first, then the verdict.
    CHECK_MESSAGE(out.find("regression: operator MatMul_0: ") == 0, out);
    CHECK(out.find("regression: phase computing: ") > out.find("operator type MatMul"));
    CHECK(out.find("FAIL: 3 regressions, 0 improvements (") != std::string::npos);
    // Loosened for MatMul and the computing phase: it passes.
    out = RunCheck(a + " " + b + " --max op:MatMul*=150% --max type:MatMul=150% --max phase:*=20%",
                   &status);
    CHECK_MESSAGE(status == 0, out);
    out = RunCheck(a + " " + (slow / "missing").string(), &status);
    CHECK(status == 2);
    CHECK(out.find((slow / "missing").string()) != std::string::npos);
    const fs::path rules = slow / "rules.txt";
    std::ofstream(rules) << "max step=3%\nmax op:*=x%\n";
    out = RunCheck(a + " " + b + " --rules " + rules.string(), &status);
    CHECK(status == 2);
    CHECK(out == rules.string() +
                     ":2:10: error: expected a percentage such as 8% after '=', got \"x%\"\n");
    out = RunCheck(a + " " + b + " --max step=3", &status);
    CHECK(status == 2);
    CHECK(out ==
          "marey check: --max \"step=3\": column 6: expected a percentage such as 8% after "
          "'=', got \"3\"\n");
    fs::remove_all(slow);
}

TEST_CASE("a mistake in a rules file quotes its bytes escaped, and a byte-order mark is read") {
    CheckRules rules;
    CHECK(ParseRulesText("\xEF\xBB\xBFmax step=3%\n", "r", &rules).ok());
    CHECK(rules.MaxPercentFor(CheckKind::kStep, "step time") == 3);
    const Status status = ParseRulesText("max step=\xFF\x01%\n", "r", &rules);
    CHECK(status.message() ==
          "r:1:10: error: expected a percentage such as 8% after '=', got \"\\xFF\\x01%\"");
    const Status keyword = ParseRulesText("m\xC3x step=3%\n", "r", &rules);
    CHECK(keyword.message() ==
          "r:1:1: error: expected 'max' or 'min-time' at the start of a rule, got \"m\\xC3x\"");
}

namespace {

// The trace file under a generated rank folder.
fs::path TraceIn(const fs::path& rank) {
    for (const auto& entry : fs::recursive_directory_iterator(rank))
        if (entry.path().filename() == "trace_view.json") return entry.path();
    return {};
}

}  // namespace

TEST_CASE("check gives a damaged run no verdict: named, exit 2, or exit 1 with --allow-damaged") {
    const fs::path dir = WritePair("damaged", 1, [](GeneratorOptions&) {});
    const std::string a = (dir / "a").string(), b = (dir / "b").string();
    const fs::path trace = TraceIn(dir / "b");
    REQUIRE(!trace.empty());
    fs::resize_file(trace, fs::file_size(trace) / 2);
    const std::string truncated =
        trace.string() +
        ": truncated: the file ends before its events do; only the events before the cut were "
        "loaded\n";
    int status = -1;
    for (const std::string& pair : {a + " " + b, b + " " + a}) {
        const std::string out = RunCheck(pair + " --no-cache", &status);
        CHECK(status == 2);
        CHECK_MESSAGE(out.find("marey check: damaged input, no verdict:\n  " + truncated) == 0,
                      out);
        CHECK(out.find("(--allow-damaged compares what was loaded; the check then fails)\n") !=
              std::string::npos);
    }
    const fs::path markdown = dir / "check.md";
    std::string out = RunCheck(
        a + " " + b + " --no-cache --allow-damaged --markdown " + markdown.string(), &status);
    CHECK(status == 1);
    CHECK_MESSAGE(out.find("damaged: " + truncated) == 0, out);
    CHECK(out.find("FAIL: damaged input, ") != std::string::npos);
    std::ifstream in(markdown);
    const std::string comment((std::istreambuf_iterator<char>(in)), {});
    CHECK(comment.find("## marey check: **FAIL: damaged input, ") == 0);
    CHECK(comment.find("- " + truncated) != std::string::npos);
    out = RunCheck(a + " " + b + " --no-cache --allow-damaged --json", &status);
    CHECK(status == 1);
    CHECK(out.find("\"verdict\": \"fail\"") != std::string::npos);
    CHECK(out.find("\"damage\": [\"" + trace.string() + ": truncated: ") != std::string::npos);
    fs::remove_all(dir);
}

TEST_CASE("check gives no verdict on a run whose import problems pass 1 % of its events") {
    const fs::path dir = test::TempDir("check_problems");
    const fs::path good = dir / "good.json", bad = dir / "bad.json";
    const std::string event = R"({"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":2})";
    std::ofstream(good) << "{\"traceEvents\":[" << event << "," << event << "]}\n";
    std::ofstream(bad) << "{\"traceEvents\":[" << event << ","
                       << R"({"ph":"X","name":"b","pid":1,"tid":1,"ts":"n/a","dur":2})"
                       << "," << event << "," << event << "]}\n";
    int status = -1;
    const std::string out = RunCheck(good.string() + " " + bad.string() + " --no-cache", &status);
    CHECK(status == 2);
    CHECK_MESSAGE(out.find("  " + bad.string() +
                           ": 1 import problem in 4 events (25.0 %), above the 1.0 % a check "
                           "accepts\n") != std::string::npos,
                  out);
    fs::remove_all(dir);
}

TEST_CASE("a whole run has no damage, and the same run cut short is named truncated") {
    const fs::path dir = WritePair("damage_direct", 2, [](GeneratorOptions&) {});
    LoadOptions options;
    options.cache.enabled = false;
    const Result<LoadedRank> whole = LoadRank((dir / "a").string(), options);
    REQUIRE(whole.ok());
    CHECK(FindRunDamage(whole.value()).empty());
    const fs::path trace = TraceIn(dir / "a");
    fs::resize_file(trace, fs::file_size(trace) - 100);
    const Result<LoadedRank> cut = LoadRank((dir / "a").string(), options);
    REQUIRE(cut.ok());
    CHECK(cut.value().model->report.truncated);
    const std::vector<std::string> damage = FindRunDamage(cut.value());
    REQUIRE_FALSE(damage.empty());
    CHECK(damage.front() == trace.string() +
                                ": truncated: the file ends before its events do; only the events "
                                "before the cut were loaded");
    fs::remove_all(dir);
}

TEST_CASE("check never writes a report over an input, and a report it cannot write is an error") {
    const fs::path dir = WritePair("outputs", 1, [](GeneratorOptions&) {});
    const std::string a = (dir / "a").string(), b = (dir / "b").string();
    int status = -1;
    std::string out = RunCheck(a + " " + b + " --markdown " + a, &status);
    CHECK(status == 2);
    CHECK(out == "marey check: --markdown " + a +
                     ": that is the baseline; a report is never written over an input\n");
    out = RunCheck(a + " " + b + " --html " + b + "/", &status);
    CHECK(status == 2);
    CHECK(out == "marey check: --html " + b +
                     "/: that is the candidate; a report is never written over an input\n");
    out = RunCheck(a + " " + b + " --markdown /dev/full", &status);
    CHECK(status == 2);
    CHECK(out ==
          "marey check: /dev/full: cannot write the Markdown report: No space left on "
          "device\n");
    out = RunCheck(a + " " + b + " --rules " + dir.string(), &status);
    CHECK(status == 2);
    CHECK(out == "marey check: " + dir.string() + ": a folder, not a rules file\n");
    fs::remove_all(dir);
}

TEST_CASE("check writes a Markdown comment, an HTML page and the documented JSON") {
    const fs::path dir = WritePair("cli_reports", 1, [](GeneratorOptions& b) {
        b.slowOperatorKind = 0, b.slowOperatorPercent = 100, b.taskScalePercent = 0;
        b.extraOperator = true;
    });
    const std::string a = (dir / "a").string(), b = (dir / "b").string();
    const fs::path markdown = dir / "check.md", html = dir / "check.html";
    int status = -1;
    const std::string json = RunCheck(
        a + " " + b + " --json --markdown " + markdown.string() + " --html " + html.string(),
        &status);
    CHECK(status == 1);
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    REQUIRE(parser.parse(json).get(root) == simdjson::SUCCESS);
    CHECK(std::string_view(root["verdict"]) == "fail");
    CHECK(std::string_view(root["baseline"]) == a);
    CHECK(std::string_view(root["candidate"]) == b);
    CHECK(uint64_t(root["steps_compared"]) == 78);
    CHECK(bool(root["paired"]));
    CHECK(std::string_view(root["aligned_step"]) == "1");
    CHECK(int64_t(root["min_time_ns"]) == int64_t(root["baseline_step_ns"]) / 100);
    CHECK(int64_t(root["candidate_step_ns"]) > int64_t(root["baseline_step_ns"]));
    simdjson::dom::array regressions = root["regressions"];
    REQUIRE(regressions.size() >= 4);
    int64_t previous = INT64_MAX;
    for (simdjson::dom::element item : regressions) {
        CHECK(std::llabs(int64_t(item["change_ns"])) <= previous);
        previous = std::llabs(int64_t(item["change_ns"]));
    }
    simdjson::dom::element matmul = regressions.at(1);
    CHECK(std::string_view(matmul["kind"]) == "op");
    CHECK(std::string_view(matmul["name"]) == "MatMul_0");
    CHECK(int64_t(matmul["change_ns"]) ==
          int64_t(matmul["candidate_ns"]) - int64_t(matmul["baseline_ns"]));
    CHECK(double(matmul["change_percent"]) == doctest::Approx(100.0).epsilon(0.001));
    CHECK(std::string_view(matmul["status"]) == "changed");
    CHECK(double(matmul["max_percent"]) == 10.0);
    CHECK(matmul["noise_ns"].is_int64());
    bool sawNew = false;
    for (simdjson::dom::element item : regressions) {
        if (std::string_view(item["name"]) != "DropOutDoMask_20") continue;
        sawNew = true;
        CHECK(std::string_view(item["status"]) == "new");
        CHECK(item["change_percent"].is_null());
    }
    CHECK(sawNew);
    CHECK(simdjson::dom::array(root["improvements"]).size() == 0);
    std::ifstream in(markdown);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    CHECK(text.find("## marey check: **FAIL: ") == 0);
    CHECK(text.find("78 steps paired by name, aligned on step 1") != std::string::npos);
    CHECK(text.find("| what | baseline | candidate | change | change % | threshold | noise |") !=
          std::string::npos);
    CHECK(text.find("| operator MatMul_0 | ") != std::string::npos);
    CHECK(text.find("| operator DropOutDoMask_20 | 0 ns | 45.000 µs | +45.000 µs | new |") !=
          std::string::npos);
    CHECK(text.find("### Improvements\n\nNone.\n") != std::string::npos);
    std::ifstream page(html);
    const std::string htmlText((std::istreambuf_iterator<char>(page)),
                               std::istreambuf_iterator<char>());
    CHECK(htmlText.rfind("<!DOCTYPE html>", 0) == 0);
    CHECK(htmlText.find("<div class=\"verdict fail\">FAIL: ") != std::string::npos);
    CHECK(htmlText.find("<code>DropOutDoMask_20</code>") != std::string::npos);
    CHECK(htmlText.find("<h2>Operator that regressed most</h2>\n<p><span class=\"kind\">operator"
                        "</span><code>MatMul_0</code>") != std::string::npos);
    fs::remove_all(dir);
}

TEST_CASE("check writes JUnit XML with one test case per kind of figure, escaped") {
    CheckResult result;
    result.baselinePath = "a<&>";
    result.candidatePath = "b";
    CheckFinding slower;
    slower.kind = CheckKind::kOperator;
    slower.name = "Matmul<\"fp16\">";
    slower.baselineNs = 1000;
    slower.candidateNs = 2000;
    slower.changeNs = 1000;
    slower.changePercent = 100;
    result.regressions.push_back(slower);
    CheckFinding faster = slower;
    faster.kind = CheckKind::kStep;
    faster.name = "step time";
    faster.changeNs = -500;
    faster.changePercent = -10;
    result.improvements.push_back(faster);
    const std::string xml = CheckToJunit(result);
    CHECK(xml.find("<testsuite name=\"marey check\" tests=\"6\" failures=\"1\" errors=\"0\">") !=
          std::string::npos);
    CHECK(
        xml.find("<testcase classname=\"marey.check\" name=\"operators\">\n    <failure "
                 "message=\"1 regression\">regression: operator Matmul&lt;&quot;fp16&quot;&gt;") !=
        std::string::npos);
    CHECK(xml.find("<testcase classname=\"marey.check\" name=\"step time\">\n  </testcase>") !=
          std::string::npos);
    CHECK(xml.find("baseline a&lt;&amp;&gt;, candidate b") != std::string::npos);
    CHECK(xml.find("improvement: step time") != std::string::npos);
    // No raw markup characters leak from names into the text.
    CHECK(xml.find("Matmul<") == std::string::npos);
}

TEST_CASE("a name written into markup has its five special characters as entities") {
    CHECK(EscapeMarkup("a<b>&\"c'd") == "a&lt;b&gt;&amp;&quot;c&#39;d");
    CHECK(EscapeMarkup("hcom_allReduce__586_0_1") == "hcom_allReduce__586_0_1");
    CHECK(EscapeMarkup("") == "");
}

// [SECTION] What the check leaves out, said

TEST_CASE("check names the new and vanished operators too small to judge, in every report") {
    const std::vector<std::string> steps{"1", "2", "3", "4"};
    auto side = [&](const std::string& path, std::map<std::string, TimeNs> operators) {
        CheckSide out;
        out.path = path;
        out.stepTime.steps = out.operators.steps = steps;
        out.stepTime.series["step time"].assign(steps.size(), 10'000'000);
        for (const auto& [name, ns] : operators)
            out.operators.series[name].assign(steps.size(), ns);
        return out;
    };
    // The minimum time is 1 % of the 10 ms step: 100 µs.
    const CheckSide baseline = side("a", {{"MatMul", 1'000'000}, {"Cast", 30'000}});
    const CheckSide candidate =
        side("b", {{"MatMul", 1'000'000}, {"aclnnSilu", 40'000}, {"Add", 90'000}});
    const Result<CheckResult> checked = CheckSides(baseline, candidate, CheckRules::Defaults());
    REQUIRE(checked.ok());
    const CheckResult& result = checked.value();
    CHECK_FALSE(result.Failed());
    REQUIRE(result.notJudged.size() == 3);
    CHECK(result.notJudged[0].name == "Add");  // largest first
    CHECK(result.notJudged[0].added);
    CHECK(result.notJudged[2].removed);
    const std::string line =
        "not judged: 2 new operators and 1 vanished operator under the minimum time of "
        "100.000 µs (Add, 90.000 µs a step; aclnnSilu, 40.000 µs a step; Cast, 30.000 µs a step)";
    CHECK(CheckNotJudgedText(result) == line);
    CHECK(CheckToText(result).find(line + "\n") != std::string::npos);
    CHECK(CheckToMarkdown(result).find(line) != std::string::npos);
    CHECK(CheckToHtml(result).find("Not judged") != std::string::npos);
    const std::string json = CheckToJson(result);
    CHECK(json.find("\"not_judged\": [{\"kind\": \"op\", \"name\": \"Add\"") != std::string::npos);
    CHECK(json.find("\"not_judged_text\": \"not judged: 2 new operators") != std::string::npos);
    // Nothing too small to judge: no line, and null in the JSON.
    const CheckResult same = CheckSides(baseline, baseline, CheckRules::Defaults()).value();
    CHECK(same.notJudged.empty());
    CHECK(CheckNotJudgedText(same).empty());
    CHECK(CheckToJson(same).find("\"not_judged_text\": null") != std::string::npos);
}
