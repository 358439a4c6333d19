// The Marey view's data, headless: a generated pipeline with a planted slow device and a planted
// slow operator must show both (the slant the slow device adds to every band below it, the
// operator twice as long on every device); operators match by name and run within the step;
// collapsed stages take the union; the real two-rank Level1 run matches its operators.
#include <doctest/doctest.h>

#include <simdjson.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <tuple>

#include "ClusterGenerator.hpp"
#include "TestSupport.hpp"
#include "cluster/Cluster.hpp"
#include "loading/ClusterLoader.hpp"
#include "marey/Marey.hpp"
#include "marey/MareyInput.hpp"
#include "marey/MareyJson.hpp"

using namespace marey;
namespace fs = std::filesystem;

namespace {

struct Generated {
    fs::path dir;
    Cluster cluster;
    ~Generated() { fs::remove_all(dir); }
};

std::unique_ptr<Generated> Generate(const std::string& name, const ClusterOptions& options) {
    auto generated = std::make_unique<Generated>();
    generated->dir =
        fs::temp_directory_path() / ("marey_marey_" + name + "_" + std::to_string(getpid()));
    fs::remove_all(generated->dir);
    std::string error;
    REQUIRE_MESSAGE(WriteCluster(options, generated->dir.string(), &error), error);
    auto cluster = LoadCluster(generated->dir.string(), 2);
    REQUIRE_MESSAGE(cluster.ok(), cluster.message());
    generated->cluster = std::move(cluster.value());
    return generated;
}

// The device's run of 'name' (the first), or null.
const MareyOp* Find(const MareyStep& step, size_t device, const std::string& name) {
    for (const MareyOp& op : step.devices[device].ops)
        if (step.names[step.keys[op.key].name] == name && step.keys[op.key].occurrence == 0)
            return &op;
    return nullptr;
}

}  // namespace

TEST_CASE(
    "a pipeline's slow device adds its slant to every band below it, and a slow operator is wide "
    "on every device") {
    ClusterOptions options;
    options.ranks = 16;
    options.steps = 2;
    options.pipeline = true;
    options.slowRank = 6;
    options.slowOperator =
        10;  // LayerNorm_10: LayerNorm_2 is the same operator in the layer before
    const auto generated = Generate("pipeline", options);
    const std::vector<RankId> order = MareyDeviceOrder(generated->cluster);
    REQUIRE(order.size() == 16);
    CHECK(std::is_sorted(order.begin(), order.end()));
    const MareyStep step = LoadMareyStep(generated->cluster, order, "1", 2);
    REQUIRE(step.devices.size() == 16);
    CHECK(step.sharedClock);
    // 24 compute operators, the allReduce over all ranks and each node's allGather.
    CHECK(step.keys.size() == 27);
    // Every device's operators but the node's allGather have a partner on the device below: the
    // allGather of ranks 0-7 is not the allGather of ranks 8-15.
    const MareyMatchCount count = CountMatches(step);
    CHECK(count.matched == 15 * 26 - 1);
    CHECK(count.unmatched == 1);

    // The slow operator: twice its twin of the layer before, on every device.
    for (size_t d = 0; d < 16; ++d) {
        const MareyOp* slow = Find(step, d, "LayerNorm_10");
        const MareyOp* twin = Find(step, d, "LayerNorm_2");
        REQUIRE(slow != nullptr);
        REQUIRE(twin != nullptr);
        const double ratio = static_cast<double>(slow->endNs - slow->startNs) /
                             static_cast<double>(twin->endNs - twin->startNs);
        CHECK(ratio == doctest::Approx(kSlowOperatorFactor).epsilon(0.02));
    }

    // The bands of the last compute operator: the band into device 6 is shifted by what device 6
    // adds; the bands below it keep the delay and add only their own hop.
    const std::vector<MareyRow> rows = MareyRows(step, {});
    REQUIRE(rows.size() == 16);
    const std::vector<MareyShape> shapes = MareyShapes(step, rows);
    std::vector<TimeNs> shift(16,
                              0);  // shift[d]: the band from device d - 1 to device d, at its end
    for (const MareyShape& shape : shapes)
        if (shape.band && step.names[step.keys[shape.key].name] == "Mul_23")
            shift[shape.row + 1] = shape.bottomEndNs - shape.topEndNs;
    std::vector<TimeNs> others;
    for (size_t d = 1; d < 16; ++d)
        if (d != 6) others.push_back(shift[d]);
    const TimeNs most = *std::max_element(others.begin(), others.end());
    CHECK(shift[6] > most + 3000000);  // the 25 % slower device: over 3 ms more
    // Every device below the slow one ends the operator at least that much later than the ones
    // above.
    const TimeNs added = shift[6] - *std::min_element(others.begin(), others.end());
    for (size_t d = 7; d < 16; ++d) {
        const MareyOp* op = Find(step, d, "Mul_23");
        const MareyOp* above = Find(step, 5, "Mul_23");
        CHECK(op->endNs - above->endNs >= added);
    }
    // The same device is the slowest by the slant it adds.
    TimeNs excess = 0;
    CHECK(SlowestDevice(DeviceSlants(step), &excess) == RankId(6));
    CHECK(excess > 3000000);
}

TEST_CASE("in a data-parallel job the slow device's bands slant in and back out") {
    ClusterOptions options;
    options.ranks = 12;
    options.steps = 1;
    options.slowRank = 4;
    const auto generated = Generate("dp", options);
    const MareyStep step =
        LoadMareyStep(generated->cluster, MareyDeviceOrder(generated->cluster), "1", 2);
    const std::vector<DeviceSlant> slants = DeviceSlants(step);
    REQUIRE(slants.size() == 12);
    CHECK(SlowestDevice(slants) == RankId(4));
    CHECK(slants[4].slantNs > 5000000);   // ends its operators later than rank 3
    CHECK(slants[5].slantNs < -5000000);  // rank 5 ends them earlier again
    for (size_t d = 1; d < 12; ++d)
        if (d != 4 && d != 5) CHECK(std::llabs(slants[d].slantNs) < 500000);
}

TEST_CASE("a collapsed stage is one row spanning its devices' runs of each operator") {
    ClusterOptions options;
    options.ranks = 8;
    options.steps = 1;
    options.pipeline = true;
    const auto generated = Generate("stages", options);
    const MareyStep step =
        LoadMareyStep(generated->cluster, MareyDeviceOrder(generated->cluster), "1", 2);
    const std::vector<MareyRow> rows = MareyRows(step, {{0, 1, 2, 3}});
    REQUIRE(rows.size() == 5);
    CHECK(rows[0].label == "ranks 0-3");
    CHECK(rows[1].label == "rank 4");
    for (const MareyShape& shape : MareyShapes(step, rows)) {
        if (shape.row != 0 || shape.band || step.names[step.keys[shape.key].name] != "MatMul_0")
            continue;
        CHECK(shape.topStartNs == Find(step, 0, "MatMul_0")->startNs);
        CHECK(shape.topEndNs == Find(step, 3, "MatMul_0")->endNs);
    }
}

TEST_CASE(
    "a device without kernel_details.csv or without the step is a device with no operators, said "
    "why") {
    ClusterOptions options;
    options.ranks = 4;
    options.steps = 2;
    const auto generated = Generate("missing", options);
    fs::remove(generated->dir / "rank_2_ascend_pt" / "ASCEND_PROFILER_OUTPUT" /
               "kernel_details.csv");
    const MareyStep step = LoadMareyStep(generated->cluster, test::Ranks({0, 1, 2, 3}), "2", 2);
    CHECK(step.devices[2].ops.empty());
    CHECK(step.devices[2].problem.find("kernel_details.csv") != std::string::npos);
    CHECK_FALSE(step.devices[1].ops.empty());
    const MareyStep absent = LoadMareyStep(generated->cluster, test::Ranks({0, 1}), "9", 2);
    CHECK(absent.keys.empty());
    CHECK(absent.devices[0].problem.find("no operator of step 9") != std::string::npos);
}

TEST_CASE(
    "a device without operators is never the slowest, and with none anywhere stats says null") {
    ClusterOptions options;
    options.ranks = 4;
    options.steps = 2;
    const auto generated = Generate("no_operators", options);
    std::vector<DeviceSlant> slants{{RankId(0), 0, 0},
                                    {RankId(1), 500, 30},
                                    {RankId(2), 0, 0},
                                    {RankId(3), 400, 30},
                                    {RankId(4), 410, 30}};
    TimeNs excess = 0;
    CHECK(SlowestDevice(slants, &excess) == RankId(1));  // rank 2, with nothing shared, is left out
    CHECK(excess == 90);
    slants[1].slantNs = 410;
    CHECK(SlowestDevice(slants) == std::nullopt);  // none bends the bands more than the median
    for (int rank = 0; rank < 4; ++rank)
        fs::remove(generated->dir / ("rank_" + std::to_string(rank) + "_ascend_pt") /
                   "ASCEND_PROFILER_OUTPUT" / "kernel_details.csv");
    const std::string json = MareyToJson(generated->cluster, 2);
    CHECK(json.find("\"slowest_device\": null, \"slant_excess_ns\": 0}") != std::string::npos);
    CHECK(json.find("\"slowest_device\": null, \"problems\"") != std::string::npos);
    CHECK(json.find("\"slowest_device\": 0") == std::string::npos);
}

TEST_CASE(
    "a cluster loaded with its kernel tables kept gives the same Marey figures without reading "
    "kernel_details.csv again") {
    ClusterOptions options;
    options.ranks = 6;
    options.steps = 3;
    options.slowRank = 4;
    const auto generated = Generate("kept", options);
    const std::string readTwice = MareyToJson(generated->cluster, 2);
    RankReadOptions keep;
    keep.keepKernelTable = true;
    auto kept = LoadCluster(generated->dir.string(), 2, nullptr, keep);
    REQUIRE_MESSAGE(kept.ok(), kept.message());
    for (const ClusterRank& rank : kept.value().ranks) {
        REQUIRE(rank.kernels != nullptr);
        CHECK(rank.kernels->rows.size() == rank.kernels->rows.capacity());
    }
    CHECK(generated->cluster.ranks.front().kernels == nullptr);  // not kept unless asked
    // The files gone, the kept tables still give every figure, and the same ones.
    for (int rank = 0; rank < 6; ++rank)
        fs::remove(generated->dir / ("rank_" + std::to_string(rank) + "_ascend_pt") /
                   "ASCEND_PROFILER_OUTPUT" / "kernel_details.csv");
    CHECK(MareyToJson(kept.value(), 2) == readTwice);
    CHECK(readTwice.find("\"problems\": []") != std::string::npos);
}

TEST_CASE("the real two-rank Level1 run matches its operators across the two devices") {
    const std::string fixtures = test::FixturesDir();
    if (fixtures.empty()) return;
    auto cluster = LoadCluster(fixtures + "/msinsight/test/data/pytorch/text/level1", 2);
    REQUIRE(cluster.ok());
    const MareyStep step = LoadMareyStep(cluster.value(), test::Ranks({0, 1}), "50", 2);
    REQUIRE(step.devices.size() == 2);
    CHECK(step.devices[0].ops.size() == 191);  // the step's rows of rank 0's kernel_details.csv
    const MareyMatchCount count = CountMatches(step);
    CHECK(count.matched > 150);
    CHECK(count.matched + count.unmatched == step.devices[0].ops.size());
}

TEST_CASE("several steps on one axis: operators match within their own step") {
    ClusterOptions options;
    options.ranks = 6;
    options.steps = 3;
    const auto generated = Generate("steps", options);
    const std::vector<RankId> order = MareyDeviceOrder(generated->cluster);
    const MareyStep one = LoadMareyStep(generated->cluster, order, "2", 2);
    const MareyStep two =
        LoadMareyStep(generated->cluster, order, std::vector<std::string>{"2", "3"}, 2);
    CHECK(two.step == "2-3");
    CHECK(two.keys.size() == 2 * one.keys.size());
    CHECK(two.spanNs > one.spanNs * 3 / 2);
    CHECK(CountMatches(two).matched == 2 * CountMatches(one).matched);
    // The same operator of the second step comes a step later, and says which step it is.
    const auto keyOf = [&](const MareyStep& step, const std::string& label) {
        for (uint32_t k = 0; k < step.keys.size(); ++k)
            if (step.KeyLabel(k) == label) return static_cast<int>(k);
        return -1;
    };
    const int first = keyOf(two, "MatMul_0 · step 2"), second = keyOf(two, "MatMul_0 · step 3");
    REQUIRE(first >= 0);
    REQUIRE(second >= 0);
    const MareyDevice& device = two.devices[0];
    CHECK(device.ops[device.opOfKey[second]].startNs - device.ops[device.opOfKey[first]].startNs >
          70000000);  // a step computes 74 ms
}

TEST_CASE(
    "the Marey view's memory is the framework's allocations, else the allocated series that peaks "
    "highest") {
    auto series = [](const char* component, const char* metric, double peakMb) {
        MemorySeries s;
        s.component = component, s.metric = metric, s.peakMb = peakMb;
        s.timeNs = {100, 200, 300, 400};
        s.megabytes = {1, 2, 3, 4};
        return s;
    };
    MemoryRecord record;
    record.series = {series("APP", "Allocated", 900), series("GE", "Allocated", 300),
                     series("PTA", "Reserved", 2000)};
    const MemorySeries* chosen = ChooseAllocatedSeries(record);
    REQUIRE(chosen != nullptr);
    CHECK(chosen->component == "APP");  // no PTA allocations: the highest peak
    record.series.push_back(series("PTA", "Allocated", 100));
    chosen = ChooseAllocatedSeries(record);
    REQUIRE(chosen != nullptr);
    CHECK(chosen->component == "PTA");
    CHECK(chosen->metric == "Allocated");
    // Only the samples within the step, from its start.
    const MareyMemory memory = MareyMemoryOf(*chosen, 150, 200);
    CHECK(memory.present);
    CHECK(memory.peakMb == 100);
    CHECK(memory.timeNs == std::vector<TimeNs>{50, 150});
    CHECK(memory.megabytes == std::vector<double>{2, 3});
    MemoryRecord none;
    none.series = {series("PTA", "Reserved", 10)};
    CHECK(ChooseAllocatedSeries(none) == nullptr);
}

TEST_CASE("a rank folder without memory_record.csv gives the Marey view no memory") {
    const MareyMemory memory = LoadMareyMemory(
        (fs::temp_directory_path() / "marey_no_such_rank_folder").string(), 0, 1000);
    CHECK_FALSE(memory.present);
    CHECK(memory.timeNs.empty());
}

TEST_CASE(
    "the Marey JSON lists the devices in order, every step's matches, and a device without kernels "
    "as a problem") {
    ClusterOptions options;
    options.ranks = 4;
    options.steps = 2;
    const auto generated = Generate("json", options);
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    const std::string json = MareyToJson(generated->cluster, 2);
    REQUIRE_MESSAGE(!parser.parse(json).get(root), json);
    simdjson::dom::array devices = root["devices"];
    REQUIRE(devices.size() == 4);
    CHECK(int64_t(devices.at(3)) == 3);
    simdjson::dom::array steps = root["steps"];
    REQUIRE(steps.size() == 2);
    CHECK(std::string_view(steps.at(1)["step"]) == "2");
    // 24 compute operators, the allReduce and the node's allGather, each matched on the device
    // below.
    CHECK(int64_t(steps.at(0)["operators"]) == 26);
    CHECK(int64_t(steps.at(0)["matched"]) == 3 * 26);
    CHECK(int64_t(steps.at(0)["unmatched"]) == 0);
    CHECK(simdjson::dom::array(root["problems"]).size() == 0);

    fs::remove(generated->dir / "rank_2_ascend_pt" / "ASCEND_PROFILER_OUTPUT" /
               "kernel_details.csv");
    const std::string without = MareyToJson(generated->cluster, 2);
    REQUIRE_MESSAGE(!parser.parse(without).get(root), without);
    simdjson::dom::array problems = root["problems"];
    REQUIRE(problems.size() == 1);
    const std::string_view problem = problems.at(0);
    CHECK(problem.substr(0, 8) == "rank 2: ");
    CHECK(problem.find("kernel_details.csv") != std::string_view::npos);
}

TEST_CASE(
    "a step built from the tables' step index is the step a pass over every row builds, ties and "
    "repeated steps included") {
    // Rank 0: steps 1 and 2 interleaved in the file, two operators starting together, a row
    // without a step. Rank 1: no Step Id at all (one step, whatever is asked).
    auto table = [](const std::vector<std::tuple<const char*, const char*, TimeNs>>& rows) {
        auto kernels = std::make_shared<KernelTable>();
        for (const auto& [step, name, startNs] : rows) {
            KernelRow row;
            row.step = kernels->strings.Intern(step);
            row.name = kernels->strings.Intern(name);
            row.startNs = startNs;
            row.durNs = 10;
            kernels->rows.push_back(row);
        }
        return std::shared_ptr<const KernelTable>(std::move(kernels));
    };
    MareyTables tables;
    tables.rankIds = test::Ranks({0, 1});
    tables.tables = {table({{"2", "B", 500},
                            {"1", "A", 100},
                            {"1", "B", 100},
                            {"", "X", 50},
                            {"2", "A", 100},
                            {"1", "A", 90}}),
                     table({{"", "A", 100}, {"", "B", 100}, {"", "A", 300}})};
    tables.problems = {"", ""};
    for (const auto& kernels : tables.tables)
        tables.stepIndexes.push_back(IndexKernelSteps(*kernels));
    const std::vector<const KernelTable*> pointers{tables.tables[0].get(), tables.tables[1].get()};
    for (const std::vector<std::string>& steps : std::vector<std::vector<std::string>>{
             {"1"}, {"2"}, {"1", "2"}, {"2", "1"}, {"2", "2"}, {"3"}, {}}) {
        CAPTURE(steps.size());
        const MareyStep scanned = BuildMareyStep(pointers, tables.rankIds, steps);
        const MareyStep indexed = BuildMareyStep(tables, steps);
        CHECK(indexed.names == scanned.names);
        REQUIRE(indexed.keys.size() == scanned.keys.size());
        for (size_t k = 0; k < scanned.keys.size(); ++k)
            CHECK(indexed.KeyLabel(k) == scanned.KeyLabel(k));
        for (size_t d = 0; d < 2; ++d) {
            CHECK(indexed.devices[d].problem == scanned.devices[d].problem);
            CHECK(indexed.devices[d].stepStartNs == scanned.devices[d].stepStartNs);
            REQUIRE(indexed.devices[d].ops.size() == scanned.devices[d].ops.size());
            for (size_t i = 0; i < scanned.devices[d].ops.size(); ++i) {
                CHECK(indexed.devices[d].ops[i].key == scanned.devices[d].ops[i].key);
                CHECK(indexed.devices[d].ops[i].startNs == scanned.devices[d].ops[i].startNs);
            }
        }
    }
    // Step 1 of rank 0 by start: A (90), then A and B at 100 in file order.
    const MareyStep one = BuildMareyStep(tables, {"1"});
    REQUIRE(one.devices[0].ops.size() == 3);
    CHECK(one.KeyLabel(one.devices[0].ops[1].key) == "A #2");
    CHECK(one.KeyLabel(one.devices[0].ops[2].key) == "B");
}

TEST_CASE("devices without operators are summed up by reason, with their ranks") {
    MareyStep step;
    step.devices.resize(6);
    for (int d = 0; d < 6; ++d) step.devices[static_cast<size_t>(d)].rankId = RankId(d);
    for (int d : {0, 1, 2})
        step.devices[static_cast<size_t>(d)].problem =
            "no kernel_details.csv in /r" + std::to_string(d);
    step.devices[3].problem = "no operator of step 7 in kernel_details.csv";
    step.devices[4].problem = "kernel_details.csv:3:1: error: the file is cut short";
    bool noFile = true;
    const std::vector<std::string> lines = SummarizeDeviceProblems(step, 8, &noFile);
    CHECK_FALSE(noFile);
    REQUIRE(lines.size() == 3);
    CHECK(lines[0] ==
          "ranks 0-2: no kernel_details.csv (" + MissingFileMessage(kKernelDetailsFile) + ")");
    CHECK(lines[1] == "rank 3: no operator of step 7 in kernel_details.csv");
    CHECK(lines[2] == "rank 4: kernel_details.csv:3:1: error: the file is cut short");
    for (MareyDevice& device : step.devices) device.problem = "no kernel_details.csv in /x";
    CHECK(SummarizeDeviceProblems(step, 8, &noFile).size() == 1);
    CHECK(noFile);
}

TEST_CASE("hovering anywhere on a long collective finds it past the short operators after it") {
    MareyDevice device;
    device.ops.push_back({0, 0, 79'000'000});  // the 79 ms allReduce
    for (TimeNs t = 1000; t < 60'000'000; t += 20'000) device.ops.push_back({1, t, t + 5'000});
    device.ops.push_back({2, 80'000'000, 81'000'000});
    const std::vector<TimeNs> ends = MareyRunningEnds(device);
    CHECK(MareyOpAt(device, ends, 70'000'000, 0) == 0);  // past every short one
    CHECK(MareyOpAt(device, ends, 30'012'000, 0) == 0);  // between two short ones
    CHECK(MareyOpAt(device, ends, 1'002'000, 0) > 0);    // a short one over it is the one shown
    CHECK(MareyOpAt(device, ends, 80'500'000, 0) == static_cast<int64_t>(device.ops.size() - 1));
    CHECK(MareyOpAt(device, ends, 79'500'000, 0) == -1);
    CHECK(MareyOpAt(device, ends, 79'300'000, 400'000) == 0);
}
