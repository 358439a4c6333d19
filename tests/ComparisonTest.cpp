// Comparison of two ranks: a generated pair with planted differences must come out with exactly
// those differences first, aligned so that B's clock gap disappears; the real two-rank runs must
// compare without problems; `stats --compare --json` keeps its schema.
#include <doctest/doctest.h>
#include <unistd.h>

#include <simdjson.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "TestSupport.hpp"
#include "TraceGenerator.hpp"
#include "compare/Comparison.hpp"
#include "compare/RankSummary.hpp"
#include "compare/TraceDiff.hpp"
#include "loading/RankLoader.hpp"
#include "report/TraceDiffJson.hpp"

using namespace marey;
namespace fs = std::filesystem;

namespace {

// A generated comparison pair (A and B rank folders), written once per test process (ctest runs
// several at once: each has a folder of its own).
const fs::path& GeneratedPair() {
    struct Pair {
        fs::path dir = test::TempDir("compare_pair_test");
        Pair() {
            GeneratorOptions options;
            options.events = 40000;
            std::string error;
            REQUIRE_MESSAGE(
                WriteRankDirectory(ComparisonSideA(options), (dir / "a").string(), &error), error);
            REQUIRE_MESSAGE(
                WriteRankDirectory(ComparisonSideB(options), (dir / "b").string(), &error), error);
        }
        Pair(const Pair&) = delete;
        ~Pair() { fs::remove_all(dir); }
    };
    static const Pair pair;
    return pair.dir;
}

struct LoadedComparison {
    LoadedPair pair;
    Comparison comparison;
};

LoadedComparison CompareFolders(const fs::path& a, const fs::path& b,
                                const ComparisonOptions& options = {}) {
    LoadedComparison result{LoadRankPair(a.string(), b.string()), {}};
    REQUIRE_MESSAGE(result.pair.a.ok(), (result.pair.a.ok() ? "" : result.pair.a.message()));
    REQUIRE_MESSAGE(result.pair.b.ok(), (result.pair.b.ok() ? "" : result.pair.b.message()));
    result.comparison = CompareRanks(result.pair.a.value(), result.pair.b.value(), options);
    return result;
}

const SummaryOperator* FindOperator(const RankSummary& summary, const std::string& name) {
    for (const SummaryOperator& op : summary.operators)
        if (op.name == name) return &op;
    return nullptr;
}

}  // namespace

// [SECTION] The generated pair: planted differences and alignment

TEST_CASE("the diff of the generated pair finds exactly the planted differences first") {
    const LoadedComparison loaded = CompareFolders(GeneratedPair() / "a", GeneratedPair() / "b");
    const TraceDiff& diff = loaded.comparison.diff;
    CHECK(loaded.comparison.a.operatorSource == "kernel_details.csv");
    CHECK(loaded.comparison.a.rankId == RankId(0));
    CHECK(loaded.comparison.b.rankId == RankId(1));

    REQUIRE(diff.operators.size() >= 3);
    // MatMul twice as slow on B, same count.
    CHECK(diff.operators[0].name == "MatMul_0");
    CHECK(diff.operators[0].countA == diff.operators[0].countB);
    CHECK(diff.operators[0].totalB == 2 * diff.operators[0].totalA);
    REQUIRE(diff.operators[0].Ratio().has_value());
    CHECK(*diff.operators[0].Ratio() == doctest::Approx(2.0));
    // DropOutDoMask only on B: count 0 and no ratio on A's side.
    CHECK(diff.operators[1].name == "DropOutDoMask_20");
    CHECK(diff.operators[1].countA == 0);
    CHECK(diff.operators[1].countB > 0);
    CHECK_FALSE(diff.operators[1].Ratio().has_value());
    // Nothing else differs.
    for (size_t i = 2; i < diff.operators.size(); ++i) {
        CAPTURE(diff.operators[i].name);
        CHECK(diff.operators[i].DiffNs() == 0);
        CHECK(diff.operators[i].countA == diff.operators[i].countB);
    }
    REQUIRE(diff.types.size() >= 2);
    CHECK(diff.types[0].name == "MatMul");
    CHECK(diff.types[1].name == "DropOutDoMask");

    // Step 3 waits 3 ms more before its AllReduce: the largest step difference, in free time.
    const auto largest = std::max_element(
        diff.steps.begin(), diff.steps.end(), [](const StepDiff& x, const StepDiff& y) {
            return std::llabs(x.DiffNs()) < std::llabs(y.DiffNs());
        });
    REQUIRE(largest != diff.steps.end());
    CHECK(largest->step == "3");
    REQUIRE(largest->hasPhases);
    CHECK(largest->phasesB[kStepFree] - largest->phasesA[kStepFree] >= 3000000);
    for (const StepDiff& step : diff.steps) {
        CHECK(step.inA);
        CHECK(step.inB);
    }
    // The same communication operators on both sides, with the same durations.
    REQUIRE_FALSE(diff.communication.empty());
    for (const CommunicationDiff& op : diff.communication) {
        CHECK(op.inA);
        CHECK(op.inB);
        CHECK(op.DiffNs() == 0);
    }
    REQUIRE(diff.overviewA.valid);
    REQUIRE(diff.overviewB.valid);
    CHECK(diff.overviewB.freeNs - diff.overviewA.freeNs >= 3000000);
    CHECK(diff.overviewB.computingNs > diff.overviewA.computingNs);
}

TEST_CASE("aligning on the first step removes the 5 s clock gap between the sides") {
    const LoadedComparison loaded = CompareFolders(GeneratedPair() / "a", GeneratedPair() / "b");
    const Alignment& alignment = loaded.comparison.diff.alignment;
    CHECK(alignment.by == AlignBy::kStep);
    CHECK(alignment.step == "1");
    CHECK(alignment.note.empty());
    // B's clock runs 5 s and 1373 ns (the generator's rank skew) ahead of A's.
    CHECK(alignment.offsetNs == -5000001373);
    const RankSummary& a = loaded.comparison.a;
    const RankSummary& b = loaded.comparison.b;
    CHECK(b.FindStep("1")->startNs + alignment.offsetNs == a.FindStep("1")->startNs);
    // Operators that first run before the first planted difference (a slowed MatMul, or B's extra
    // operator) start at the same aligned time.
    const TimeNs firstPlanted =
        std::min(FindOperator(a, "MatMul_0")->firstStartNs,
                 FindOperator(b, "DropOutDoMask_20")->firstStartNs + alignment.offsetNs);
    int compared = 0;
    for (const SummaryOperator& op : a.operators) {
        if (op.firstStartNs >= firstPlanted) continue;
        const SummaryOperator* other = FindOperator(b, op.name);
        REQUIRE(other != nullptr);
        CHECK(other->firstStartNs + alignment.offsetNs == op.firstStartNs);
        ++compared;
    }
    CHECK(compared > 0);
}

TEST_CASE("alignment follows a chosen step, a chosen operator run, or the trace starts") {
    const fs::path& root = GeneratedPair();
    SUBCASE("a chosen step") {
        ComparisonOptions options;
        options.align.step = "2";
        const LoadedComparison loaded = CompareFolders(root / "a", root / "b", options);
        const Alignment& alignment = loaded.comparison.diff.alignment;
        CHECK(alignment.step == "2");
        CHECK(loaded.comparison.b.FindStep("2")->startNs + alignment.offsetNs ==
              loaded.comparison.a.FindStep("2")->startNs);
    }
    SUBCASE("the second run of an operator") {
        ComparisonOptions options;
        options.align = AlignmentRequest{AlignBy::kOperator, "", "", "Adam_19", 1};
        const LoadedComparison loaded = CompareFolders(root / "a", root / "b", options);
        const Alignment& alignment = loaded.comparison.diff.alignment;
        CHECK(alignment.by == AlignBy::kOperator);
        const auto startA = OperatorOccurrenceStart(
            *loaded.pair.a.value().analysis, loaded.pair.a.value().model.get(), "Adam_19", 1);
        const auto startB = OperatorOccurrenceStart(
            *loaded.pair.b.value().analysis, loaded.pair.b.value().model.get(), "Adam_19", 1);
        REQUIRE(startA);
        REQUIRE(startB);
        CHECK(*startA > FindOperator(loaded.comparison.a, "Adam_19")->firstStartNs);
        CHECK(alignment.offsetNs == *startA - *startB);
    }
    SUBCASE("an operator that is not there falls back to the first step, and says so") {
        ComparisonOptions options;
        options.align = AlignmentRequest{AlignBy::kOperator, "", "", "NoSuchOperator", 0};
        const LoadedComparison loaded = CompareFolders(root / "a", root / "b", options);
        CHECK(loaded.comparison.diff.alignment.by == AlignBy::kStep);
        CHECK(loaded.comparison.diff.alignment.note ==
              "operator NoSuchOperator run 1 is not on both sides");
    }
    SUBCASE("the trace starts") {
        ComparisonOptions options;
        options.align.by = AlignBy::kStart;
        const LoadedComparison loaded = CompareFolders(root / "a", root / "b", options);
        CHECK(loaded.comparison.diff.alignment.by == AlignBy::kStart);
        CHECK(loaded.comparison.diff.alignment.offsetNs ==
              loaded.comparison.a.firstNs - loaded.comparison.b.firstNs);
    }
}

TEST_CASE("one step of A compared with one step of B counts only that step's operators") {
    ComparisonOptions options;
    options.stepA = "3";
    options.stepB = "3";
    const LoadedComparison loaded =
        CompareFolders(GeneratedPair() / "a", GeneratedPair() / "b", options);
    CHECK(loaded.comparison.note.empty());
    const SummaryStep* step = loaded.comparison.a.FindStep("3");
    REQUIRE(step != nullptr);
    // Counted independently: kernel rows of A that start inside step 3.
    const KernelTable& kernels = *loaded.pair.a.value().analysis->kernels;
    uint64_t expected = 0;
    for (const KernelRow& row : kernels.rows)
        expected += row.startNs >= step->startNs && row.startNs < step->endNs;
    uint64_t counted = 0;
    for (const OperatorDiff& op : loaded.comparison.diff.operators) counted += op.countA;
    CHECK(counted == expected);
    CHECK(counted < kernels.rows.size() / 10);
    CHECK(loaded.comparison.diff.alignment.step == "3");
    CHECK(loaded.comparison.diff.operators[0].name == "MatMul_0");
}

TEST_CASE(
    "two traces without steps or rank folders are aligned on their starts and compared by slice "
    "names") {
    const fs::path dir =
        fs::temp_directory_path() / ("marey_compare_plain_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const std::string a =
        R"([{"ph":"X","name":"gemm","pid":1,"tid":1,"ts":10,"dur":5},{"ph":"X","name":"gemm","pid":1,"tid":1,"ts":20,"dur":5}])";
    const std::string b =
        R"([{"ph":"X","name":"gemm","pid":1,"tid":1,"ts":1000010,"dur":9},{"ph":"X","name":"relu","pid":1,"tid":1,"ts":1000030,"dur":1}])";
    for (const auto& [name, text] : {std::pair{"a.json", a}, std::pair{"b.json", b}}) {
        std::FILE* file = std::fopen((dir / name).c_str(), "wb");
        REQUIRE(file);
        std::fwrite(text.data(), 1, text.size(), file);
        std::fclose(file);
    }
    const LoadedComparison loaded = CompareFolders(dir / "a.json", dir / "b.json");
    const TraceDiff& diff = loaded.comparison.diff;
    CHECK(loaded.comparison.a.operatorSource == "all slices");
    CHECK(diff.alignment.by == AlignBy::kStart);
    CHECK(diff.alignment.note == "no ProfilerStep#N slice is in both traces");
    CHECK(diff.alignment.offsetNs == -1000000000);
    REQUIRE(diff.operators.size() == 2);
    CHECK(diff.operators[0].name == "gemm");
    CHECK(diff.operators[0].totalA == 10000);
    CHECK(diff.operators[0].totalB == 9000);
    CHECK(diff.operators[1].name == "relu");
    CHECK(diff.operators[1].countA == 0);
    CHECK(loaded.comparison.a.rankId == std::nullopt);
}

TEST_CASE("stats --compare --json writes the documented keys") {
    const std::string command = std::string(MAREY_BINARY) + " stats --compare " +
                                (GeneratedPair() / "a").string() + " " +
                                (GeneratedPair() / "b").string() + " --json";
    int status = -1;
    const std::string json = test::RunCommand(command, &status);
    CHECK(status == 0);
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    REQUIRE(parser.parse(json).get(root) == simdjson::SUCCESS);
    CHECK(std::string_view(root["a"]["path"]) == (GeneratedPair() / "a").string());
    CHECK(int64_t(root["a"]["rank_id"]) == 0);
    CHECK(int64_t(root["b"]["rank_id"]) == 1);
    CHECK(std::string_view(root["alignment"]["by"]) == "step");
    CHECK(std::string_view(root["alignment"]["step"]) == "1");
    CHECK(int64_t(root["alignment"]["offset_ns"]) == -5000001373);
    simdjson::dom::array operators = root["operators"];
    REQUIRE(operators.size() > 2);
    simdjson::dom::element first = operators.at(0);
    CHECK(std::string_view(first["name"]) == "MatMul_0");
    CHECK(int64_t(first["diff_ns"]) == int64_t(first["total_ns_b"]) - int64_t(first["total_ns_a"]));
    CHECK(double(first["ratio"]) == doctest::Approx(2.0));
    simdjson::dom::element second = operators.at(1);
    CHECK(uint64_t(second["count_a"]) == 0);
    CHECK(second["ratio"].is_null());
    int64_t previous = INT64_MAX;
    for (simdjson::dom::element op : operators) {
        const int64_t size = std::llabs(int64_t(op["diff_ns"]));
        CHECK(size <= previous);
        previous = size;
    }
    CHECK(std::string_view(root["types"].at(0)["type"]) == "MatMul");
    CHECK(root["overview"]["a"]["free_ns"].is_int64());
    CHECK(root["overview"]["diff"]["free_ns"].is_int64());
    simdjson::dom::array steps = root["steps"];
    REQUIRE(steps.size() > 3);
    CHECK(std::string_view(steps.at(0)["step"]) == "1");
    CHECK(steps.at(0)["a_ns"].is_int64());
    CHECK(steps.at(0)["b_ns"].is_int64());
    CHECK(steps.at(0)["diff_ns"].is_int64());
}

// [SECTION] Real runs and the text and JSON outputs

TEST_CASE("the real two-rank runs compare rank 0 with rank 1 without problems") {
    const std::string fixtures = test::FixturesDir();
    if (fixtures.empty()) return;
    for (const char* level : {"level0", "level1", "level2"}) {
        CAPTURE(level);
        const fs::path root = fs::path(fixtures) / "msinsight/test/data/pytorch/text" / level;
        const LoadedComparison loaded =
            CompareFolders(root / "rank0_ascend_pt", root / "rank1_ascend_pt");
        for (const Result<LoadedRank>* side : {&loaded.pair.a, &loaded.pair.b}) {
            CHECK(side->value().model->report.problemCount == 0);
            CHECK(side->value().analysis->problems.empty());
        }
        const Comparison& comparison = loaded.comparison;
        CHECK(comparison.a.rankId == RankId(0));
        CHECK(comparison.b.rankId == RankId(1));
        CHECK(comparison.diff.alignment.by == AlignBy::kStep);
        CHECK(comparison.diff.alignment.step == "50");
        // Every kernel row is counted once, on its side.
        uint64_t countA = 0, countB = 0;
        for (const OperatorDiff& op : comparison.diff.operators)
            countA += op.countA, countB += op.countB;
        CHECK(countA == loaded.pair.a.value().analysis->kernels->rows.size());
        CHECK(countB == loaded.pair.b.value().analysis->kernels->rows.size());
        // Both ranks ran the same program: the same operator names on both sides.
        for (const OperatorDiff& op : comparison.diff.operators) {
            CAPTURE(op.name);
            CHECK(op.countA == op.countB);
        }
        // The AllReduce that waits for the other rank differs most.
        CHECK(comparison.diff.operators[0].name.rfind("hcom_allReduce_", 0) == 0);
    }
}

namespace {

SummaryStep PlacedStep(const std::string& name, TimeNs startNs, TimeNs endNs) {
    SummaryStep step;
    step.step = name;
    step.placed = true;
    step.startNs = startNs, step.endNs = endNs;
    return step;
}

// A: MatMul 100 ns in two runs, Add 50 ns; steps 1 and 2 placed. B: MatMul three times as long,
// the same Add, a Relu A lacks; step 2 placed 7 µs later on its clock, step 3 only in its CSV.
std::pair<RankSummary, RankSummary> SmallSummaries() {
    RankSummary a, b;
    a.path = "a", b.path = "b";
    a.rankId = RankId(0);
    a.operatorSource = b.operatorSource = "all slices";
    a.firstNs = 500, b.firstNs = 8000;
    a.operators = {{"MatMul", "MatMul", 2, 100, 40, 60, 1000}, {"Add", "Add", 1, 50, 50, 50, 1200}};
    b.operators = {{"MatMul", "MatMul", 2, 300, 100, 200, 9000},
                   {"Add", "Add", 1, 50, 50, 50, 9200},
                   {"Relu", "Relu", 1, 10, 10, 10, 9300}};
    a.steps = {PlacedStep("1", 1000, 2000), PlacedStep("2", 2000, 3500)};
    SummaryStep fromCsv;
    fromCsv.step = "3";
    fromCsv.hasPhases = true;
    fromCsv.phases[kStepComputing] = 400, fromCsv.phases[kStepCommNotOverlapped] = 50,
    fromCsv.phases[kStepFree] = 25;
    b.steps = {PlacedStep("2", 9000, 10000), fromCsv};
    return {a, b};
}

}  // namespace

TEST_CASE(
    "a summary step lasts its slice when placed, else its phases, its trace window is half open") {
    const auto [a, b] = SmallSummaries();
    REQUIRE(b.FindStep("3") != nullptr);
    CHECK(b.FindStep("3")->DurationNs() == 475);
    CHECK(b.FindStep("2")->DurationNs() == 1000);
    CHECK(b.FindStep("4") == nullptr);
    const TimeWindow window{100, 200, ""};
    CHECK(window.Contains(100));
    CHECK(window.Contains(199));
    CHECK_FALSE(window.Contains(200));
    CHECK_FALSE(window.Contains(99));
}

TEST_CASE("a trace's summary orders numeric steps by value and keeps only the window's operators") {
    const auto model =
        test::LoadJson(R"([{"ph":"X","name":"ProfilerStep#10","pid":1,"tid":1,"ts":100,"dur":50},
        {"ph":"X","name":"ProfilerStep#2","pid":1,"tid":1,"ts":0,"dur":100},
        {"ph":"X","name":"MatMul","pid":1,"tid":2,"ts":10,"dur":5},
        {"ph":"X","name":"MatMul","pid":1,"tid":2,"ts":110,"dur":7}])");
    const RankAnalysis analysis;
    const RankSummary summary = SummarizeRank(analysis, model.get(), "t.json");
    CHECK(summary.path == "t.json");
    CHECK(summary.rankId == std::nullopt);
    CHECK(summary.operatorSource == "all slices");
    REQUIRE(summary.steps.size() == 2);
    CHECK(summary.steps[0].step == "2");
    CHECK(summary.steps[1].step == "10");
    CHECK(summary.steps[1].startNs == 100000);
    CHECK(summary.steps[1].endNs == 150000);
    const SummaryOperator* matMul = FindOperator(summary, "MatMul");
    REQUIRE(matMul != nullptr);
    CHECK(matMul->count == 2);
    CHECK(matMul->totalNs == 12000);
    CHECK(matMul->minNs == 5000);
    CHECK(matMul->maxNs == 7000);
    CHECK(matMul->firstStartNs == 10000);

    const RankSummary step10 =
        SummarizeRank(analysis, model.get(), "t.json", TimeWindow{100000, 150000, "10"});
    matMul = FindOperator(step10, "MatMul");
    REQUIRE(matMul != nullptr);
    CHECK(matMul->count == 1);
    CHECK(matMul->firstStartNs == 110000);
    CHECK(FindOperator(step10, "ProfilerStep#2") == nullptr);

    CHECK(OperatorOccurrenceStart(analysis, model.get(), "MatMul", 1) == TimeNs{110000});
    CHECK_FALSE(OperatorOccurrenceStart(analysis, model.get(), "MatMul", 2).has_value());
    CHECK_FALSE(OperatorOccurrenceStart(analysis, model.get(), "Relu", 0).has_value());
}

TEST_CASE(
    "summaries align on the first common placed step, and a request that cannot be met says why") {
    const auto [a, b] = SmallSummaries();
    CHECK(std::string(AlignByName(AlignBy::kOperator)) == "operator");

    const Alignment first = AlignSummaries(a, b, {});
    CHECK(first.by == AlignBy::kStep);
    CHECK(first.step == "2");
    CHECK(first.offsetNs == -7000);
    CHECK(first.note.empty());

    AlignmentRequest step1;
    step1.step = "1";
    const Alignment fallback = AlignSummaries(a, b, step1);
    CHECK(fallback.step == "2");
    CHECK(fallback.note == "step 1 is not placed in both traces");

    AlignmentRequest byOperator;
    byOperator.by = AlignBy::kOperator;
    byOperator.operatorName = "Relu";
    CHECK(AlignSummaries(a, b, byOperator, std::nullopt, TimeNs{9300}).note ==
          "operator Relu run 1 is not on both sides");
    const Alignment matMul = AlignSummaries(a, b, byOperator, TimeNs{1000}, TimeNs{9000});
    CHECK(matMul.by == AlignBy::kOperator);
    CHECK(matMul.offsetNs == -8000);

    AlignmentRequest starts;
    starts.by = AlignBy::kStart;
    const Alignment byStart = AlignSummaries(a, b, starts);
    CHECK(byStart.by == AlignBy::kStart);
    CHECK(byStart.offsetNs == -7500);
    CHECK(byStart.note.empty());
}

TEST_CASE(
    "the diff of two summaries puts the largest operator difference first and B's extra steps "
    "last") {
    const auto [a, b] = SmallSummaries();
    const TraceDiff diff = DiffSummaries(a, b, AlignSummaries(a, b, {}));
    REQUIRE(diff.operators.size() == 3);
    CHECK(diff.operators[0].name == "MatMul");
    CHECK(diff.operators[0].DiffNs() == 200);
    CHECK(diff.operators[0].Ratio() == doctest::Approx(3.0));
    CHECK(diff.operators[0].AverageB() == 150);
    CHECK(diff.operators[1].name == "Relu");
    CHECK(diff.operators[1].firstStartA == -1);
    CHECK_FALSE(diff.operators[1].Ratio().has_value());
    CHECK(diff.operators[2].name == "Add");
    CHECK(diff.operators[2].DiffNs() == 0);
    REQUIRE(diff.steps.size() == 3);
    CHECK(diff.steps[0].step == "1");
    CHECK(diff.steps[0].inA);
    CHECK_FALSE(diff.steps[0].inB);
    CHECK(diff.steps[1].DiffNs() == 1000 - 1500);
    CHECK(diff.steps[2].step == "3");
    CHECK_FALSE(diff.steps[2].inA);
    CHECK(diff.steps[2].bNs == 475);
}

TEST_CASE(
    "a summaries' diff as JSON has nulls for what a side lacks, and as text its largest rows") {
    const auto [a, b] = SmallSummaries();
    const TraceDiff diff = DiffSummaries(a, b, AlignSummaries(a, b, {}));
    const std::string json = TraceDiffToJson(a, b, diff);
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    REQUIRE_MESSAGE(!parser.parse(json).get(root), json);
    CHECK(int64_t(root["a"]["rank_id"]) == 0);
    CHECK(root["b"]["rank_id"].is_null());
    CHECK(std::string_view(root["alignment"]["by"]) == "step");
    CHECK(std::string_view(root["alignment"]["step"]) == "2");
    CHECK(int64_t(root["alignment"]["offset_ns"]) == -7000);
    simdjson::dom::array operators = root["operators"];
    REQUIRE(operators.size() == 3);
    CHECK(double(operators.at(0)["ratio"]) == doctest::Approx(3.0));
    CHECK(int64_t(operators.at(0)["avg_ns_a"]) == 50);
    CHECK(operators.at(1)["ratio"].is_null());
    CHECK(root["overview"]["a"].is_null());
    CHECK(root["overview"]["diff"].is_null());
    simdjson::dom::array steps = root["steps"];
    REQUIRE(steps.size() == 3);
    CHECK(steps.at(0)["b_ns"].is_null());
    CHECK(steps.at(2)["a_ns"].is_null());
    CHECK(int64_t(steps.at(2)["b_ns"]) == 475);

    const std::string text = TraceDiffToText(a, b, diff, 1);
    CHECK(text.rfind("A: a\nB: b\naligned by step 2: B's clock -7.000 µs\n\noperators (all slices "
                     "/ all slices)",
                     0) == 0);
    CHECK(text.find("MatMul") != std::string::npos);
    CHECK(text.find("Relu") == std::string::npos);
    // Only steps both sides have.
    CHECK(text.find("\n  2 ") != std::string::npos);
    CHECK(text.find("\n  3 ") == std::string::npos);
}

// [SECTION] Notes and the places of step differences

TEST_CASE("a side whose step file lost damaged rows is compared with a note saying so") {
    const fs::path dir = test::TempDir("compare_lost_rows");
    fs::copy(GeneratedPair(), dir, fs::copy_options::recursive);
    fs::path stepFile;
    for (const auto& entry : fs::recursive_directory_iterator(dir / "b"))
        if (entry.path().filename() == "step_trace_time.csv") stepFile = entry.path();
    REQUIRE_FALSE(stepFile.empty());
    // Two rows damaged: one cut short, one with a duration that is no number.
    std::ofstream(stepFile, std::ios::app) << "98,1.5\n99,abc,1,1,1,1,1,1,1,1\n";
    const LoadedComparison loaded = CompareFolders(dir / "a", dir / "b");
    CHECK(loaded.comparison.a.stepRowsLeftOut == 0);
    CHECK(loaded.comparison.b.stepRowsLeftOut == 2);
    CHECK(loaded.comparison.b.StepRowsNote() ==
          "its step file had 2 damaged rows, left out: the steps compared are those read");
    const std::string text =
        TraceDiffToText(loaded.comparison.a, loaded.comparison.b, loaded.comparison.diff, 5);
    CHECK(text.find("\nB: its step file had 2 damaged rows, left out") != std::string::npos);
    CHECK(text.find("A: its step file") == std::string::npos);
    const std::string json =
        TraceDiffToJson(loaded.comparison.a, loaded.comparison.b, loaded.comparison.diff);
    CHECK(json.find("\"step_rows_left_out\": 2") != std::string::npos);
    fs::remove_all(dir);
}

TEST_CASE("the diff says which recorded phase holds a step's difference, or that none does") {
    StepDiff step;
    step.step = "3";
    step.inA = step.inB = step.hasPhases = true;
    step.aNs = 3'336'000, step.bNs = 6'887'000;  // +3.551 ms
    step.phasesA[kStepComputing] = 2'000'000, step.phasesB[kStepComputing] = 2'050'000;
    step.phasesA[kStepFree] = 300'000, step.phasesB[kStepFree] = 3'301'000;
    step.phasesA[kStepCommNotOverlapped] = 500'000, step.phasesB[kStepCommNotOverlapped] = 400'000;
    StepDifferencePlace place = PlaceStepDifference(step);
    CHECK(place.kind == StepDifferencePlace::kOnePhase);
    CHECK(place.phase == kStepFree);
    CHECK(place.text == "free +3.001 ms of +3.551 ms");
    CHECK(place.shortText == "+3.001 ms free");  // the Diff's cell: the change first

    // Two phases share it, neither by half.
    step.phasesB[kStepFree] = 1'600'000;             // +1.300 ms
    step.phasesB[kStepComputing] = 3'300'000;        // +1.300 ms
    step.phasesB[kStepCommNotOverlapped] = 500'000;  // 0
    place = PlaceStepDifference(step);
    CHECK(place.kind == StepDifferencePlace::kSpread);
    CHECK(place.text ==
          "spread over the phases (+2.600 ms of +3.551 ms; largest computing +1.300 ms)");

    // The phases hardly change: the difference lies outside them.
    step.phasesB = step.phasesA;
    step.phasesB[kStepFree] += 100'000;
    place = PlaceStepDifference(step);
    CHECK(place.kind == StepDifferencePlace::kUnrecorded);
    CHECK(place.text ==
          "no recorded phase holds it: the phases change by +100.000 µs of +3.551 ms");

    // Faster in B: the largest saving.
    step.phasesB = step.phasesA;
    step.bNs = 2'336'000;
    step.phasesB[kStepCommNotOverlapped] -= 450'000;
    step.phasesB[kStepComputing] -= 550'000;
    place = PlaceStepDifference(step);
    CHECK(place.kind == StepDifferencePlace::kOnePhase);
    CHECK(place.text == "computing -550.000 µs of -1.000 ms");

    // Without the profiler's rows on one side, nothing recorded places it.
    step.hasPhases = false;
    CHECK(PlaceStepDifference(step).kind == StepDifferencePlace::kNoPhases);
    // A difference under 1 % of the step and 10 µs is not placed.
    step.bNs = step.aNs + 5'000;
    CHECK(PlaceStepDifference(step).kind == StepDifferencePlace::kNone);
    step.inB = false;
    CHECK(PlaceStepDifference(step).kind == StepDifferencePlace::kNone);
}

TEST_CASE("a diff of one step each has the overview of those steps, by the whole run's rule") {
    ComparisonOptions options;
    options.stepA = options.stepB = "3";  // B's step 3 has 3 ms more free time
    const LoadedComparison loaded =
        CompareFolders(GeneratedPair() / "a", GeneratedPair() / "b", options);
    const Comparison& comparison = loaded.comparison;
    REQUIRE(comparison.note.empty());
    const RankAnalysis& a = *loaded.pair.a.value().analysis;
    const RankAnalysis& b = *loaded.pair.b.value().analysis;
    REQUIRE(a.steps.has_value());
    const auto rowOf = [](const RankAnalysis& analysis, const std::string& step) {
        for (const StepRow& row : analysis.steps->rows)
            if (row.step == step) return row;
        FAIL("no step " << step);
        return StepRow{};
    };
    // The rank's overview comes from its steps: the step's overview is its own row.
    CHECK(a.overview.source == std::string(kStepsOfStepTraceCsv));
    const OverviewFigures& stepA = comparison.diff.overviewA;
    const OverviewFigures& stepB = comparison.diff.overviewB;
    CHECK(stepA.totalNs == StepWallNs(rowOf(a, "3")));
    CHECK(stepB.totalNs == StepWallNs(rowOf(b, "3")));
    CHECK(stepA.freeNs == rowOf(a, "3").ns[kStepFree]);
    CHECK(stepB.freeNs - stepA.freeNs == rowOf(b, "3").ns[kStepFree] - rowOf(a, "3").ns[kStepFree]);
    CHECK(stepB.freeNs - stepA.freeNs > 2'900'000);  // the planted 3 ms
    CHECK(stepA.totalNs < a.overview.totalNs / 10);  // one step, not the run

    // A window without a step of the profiler's rows: the device tasks that start in it.
    TimeWindow window;
    window.startNs = a.kernels->rows.front().startNs;
    window.endNs = window.startNs + 1'000'000;
    const OverviewFigures tasks = OverviewOfStep(a, window);
    CHECK(tasks.source == std::string(kKernelsOfCsv));
    CHECK(tasks.totalNs > 0);
    CHECK(tasks.totalNs <= 2'000'000);
}
