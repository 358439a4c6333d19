// The pipeline view's figures: a generated 1F1B pipeline's sends paired with their receives and
// numbered by microbatch, its bubble against the ideal, a planted slow stage found as the busiest
// and the other stages' bubble grown by it; sends and receives told by name; what is said when a
// step has no transfers, one stage, or clocks that differ; the "pipeline" key of stats --json.
#include <doctest/doctest.h>
#include <simdjson.h>

#include <functional>

#include "ClusterGenerator.hpp"
#include "TestSupport.hpp"
#include "cluster/ClusterCommunication.hpp"
#include "loading/ClusterLoader.hpp"
#include "marey/PipelineJson.hpp"
#include "marey/PipelineSchedule.hpp"

using namespace marey;

namespace {

// A generated TP 2 × PP 4 × DP 2 job of 8 microbatches a step, two steps, read back; 'change'
// plants what a test needs, and the folder of rank 'removed' (when one) is deleted before.
Cluster GeneratedPipeline(const std::string& name, int slowStage,
                          const std::function<void(ClusterOptions&)>& change = {},
                          int removed = -1) {
    const std::filesystem::path dir = test::TempDir(name);
    ClusterOptions options;
    options.tp = 2, options.pp = 4, options.dp = 2, options.ranks = 16;
    options.steps = 2;
    options.microbatches = 8;
    options.slowStage = slowStage;
    if (change) change(options);
    std::string error;
    REQUIRE_MESSAGE(WriteCluster(options, dir.string(), &error), error);
    if (removed >= 0)
        std::filesystem::remove_all(dir / ("rank_" + std::to_string(removed) + "_ascend_pt"));
    auto loaded = LoadCluster(dir.string(), 1);
    REQUIRE_MESSAGE(loaded.ok(), loaded.message());
    return std::move(loaded.value());
}

PipelineSchedule ScheduleOf(const Cluster& cluster, int rank, const std::string& step) {
    const std::vector<RankId> ranks = PipelineRanks(cluster.parallel, RankId(rank));
    const MareyTables tables = LoadMareyTables(cluster, ranks, 1);
    return BuildPipelineSchedule(BuildMareyStep(tables, {step}));
}

// A device of operators named 'names', each [start, end] in µs.
MareyDevice Device(MareyStep& step, int rank,
                   const std::vector<std::tuple<std::string, TimeNs, TimeNs>>& ops) {
    MareyDevice device;
    device.rankId = RankId(rank);
    for (const auto& [name, start, end] : ops) {
        step.names.push_back(name);
        step.keys.push_back(
            {static_cast<uint32_t>(step.names.size() - 1), 0, CoreClass::kAiCore, 0});
        device.ops.push_back(
            {static_cast<uint32_t>(step.keys.size() - 1), start * 1000, end * 1000});
    }
    return device;
}

}  // namespace

TEST_CASE("Sends and receives are told by their names, and a kernel that does both is neither") {
    CHECK(ClassifyPipeOp("hcom_send__811_0_1", CoreClass::kCommunication) == PipeOpKind::kSend);
    CHECK(ClassifyPipeOp("hcom_receive__811_0_1", CoreClass::kCommunication) ==
          PipeOpKind::kReceive);
    CHECK(ClassifyPipeOp("Send-op12", CoreClass::kOther) == PipeOpKind::kSend);
    CHECK(ClassifyPipeOp("Receive-op3", CoreClass::kOther) == PipeOpKind::kReceive);
    CHECK(ClassifyPipeOp("ncclDevKernel_Recv", CoreClass::kGpu) == PipeOpKind::kReceive);
    CHECK(ClassifyPipeOp("ncclDevKernel_SendRecv", CoreClass::kGpu) ==
          PipeOpKind::kOtherCommunication);
    CHECK(ClassifyPipeOp("hcom_allReduce__897_0_1", CoreClass::kCommunication) ==
          PipeOpKind::kOtherCommunication);
    CHECK(ClassifyPipeOp("MatMul_6", CoreClass::kAiCore) == PipeOpKind::kCompute);
    CHECK(ClassifyPipeOp("AllToAll_3", CoreClass::kAiCore) == PipeOpKind::kOtherCommunication);
}

TEST_CASE("A generated 1F1B pipeline: every send paired, 8 microbatches, the ideal bubble") {
    const Cluster cluster = GeneratedPipeline("pipeline_1f1b", -1);
    CHECK(RankNumbers(PipelineRanks(cluster.parallel, RankId(5))) == std::vector<int>{1, 5, 9, 13});
    const PipelineSchedule schedule = ScheduleOf(cluster, 0, "1");
    REQUIRE(schedule.stages.size() == 4);
    CHECK(schedule.markedBy == "inferred from the send/receive order");
    CHECK(schedule.microbatches == 8);
    // Three links between four stages, each way, eight microbatches.
    CHECK(schedule.transfers.size() == 48);
    CHECK(schedule.unpaired == 0);
    for (const PipeTransfer& transfer : schedule.transfers) {
        CHECK(transfer.forward == (transfer.toStage == transfer.fromStage + 1));
        CHECK((transfer.toStage == transfer.fromStage + 1 ||
               transfer.fromStage == transfer.toStage + 1));
    }
    // Stage 1's k-th forward receive carries microbatch k, from stage 0.
    uint32_t expected = 0;
    for (size_t i = 0; i < schedule.stages[1].kinds.size(); ++i) {
        const int32_t t = schedule.stages[1].transferOf[i];
        if (t < 0) continue;
        const PipeTransfer& transfer = schedule.transfers[static_cast<size_t>(t)];
        if (transfer.toStage != 1 || !transfer.forward) continue;
        CHECK(transfer.fromStage == 0);
        CHECK(transfer.microbatch == expected++);
    }
    CHECK(expected == 8);
    CHECK(TransferLabel(schedule.transfers.front()) == "F1");
    CHECK(schedule.namedStage == -1);
    CHECK(schedule.verdict.rfind("No stage holds the others up and the bubble, ", 0) == 0);
    // (4 − 1) / (8 + 4 − 1): balanced stages come within a point of it.
    CHECK(schedule.idealBubble == doctest::Approx(3.0 / 11));
    for (const PipeStageFigures& stage : schedule.stages) {
        CHECK(stage.bubble == doctest::Approx(schedule.idealBubble).epsilon(0.05));
        // The step's AllReduce after the last computation aggregates the gradients; the
        // AllGather in the node redistributes.
        CHECK(stage.aggregation.operators == 1);
        CHECK(stage.redistribution.operators == 1);
        CHECK(stage.aggregation.ns > 0);
    }
}

TEST_CASE("A slow stage computes longest and widens every other stage's bubble") {
    const Cluster cluster = GeneratedPipeline("pipeline_slow_stage", 2);
    const PipelineSchedule schedule = ScheduleOf(cluster, 1, "2");
    REQUIRE(schedule.stages.size() == 4);
    CHECK(schedule.busiestStage == 2);
    CHECK(schedule.stages[2].rankId == RankId(9));
    // 25 % more computing than the median stage.
    CHECK(static_cast<double>(schedule.stages[2].computingNs) /
              static_cast<double>(schedule.medianComputingNs) ==
          doctest::Approx(1.25).epsilon(0.01));
    for (size_t s = 0; s < 4; ++s)
        if (s != 2) CHECK(schedule.stages[s].bubble > schedule.idealBubble + 0.05);
    CHECK(schedule.meanBubble > schedule.idealBubble + 0.03);
    CHECK(schedule.namedStage == 2);
    CHECK(schedule.verdict.rfind("Stage 2 (rank 9) computes ", 0) == 0);
    CHECK(schedule.verdict.find("25.0 % longer than the median stage") != std::string::npos);
}

TEST_CASE("each rank's communication wait per step: the slow stage's ranks wait least") {
    const Cluster cluster = GeneratedPipeline("pipeline_wait", 2);
    const RankStepCommunication sums = SumCommunicationByRankStep(cluster);
    REQUIRE(sums.waitNs.size() == cluster.ranks.size());
    REQUIRE(sums.waitNs[0].size() == cluster.steps.size());
    // Over the averaged steps and in each step, the least waiting ranks are stage 2's (8-11).
    for (const std::optional<size_t> step :
         {std::optional<size_t>(), std::optional<size_t>(0), std::optional<size_t>(1)}) {
        TimeNs slowest = INT64_MAX, others = INT64_MAX;
        for (size_t r = 0; r < cluster.ranks.size(); ++r) {
            const TimeNs wait = RankWaitNs(sums, r, step);
            REQUIRE(wait >= 0);
            const int id = cluster.ranks[r].Id().value();
            (id >= 8 && id <= 11 ? slowest : others) =
                std::min(id >= 8 && id <= 11 ? slowest : others, wait);
        }
        CHECK(slowest < others);
    }
    // The time overview's mean wait is the same sums, averaged over the ranks.
    const std::vector<StepOverview> overview = BuildTimeOverview(cluster);
    TimeNs sum = 0;
    for (size_t r = 0; r < cluster.ranks.size(); ++r) sum += sums.waitNs[r][0];
    CHECK(overview[0].meanWaitNs == sum / static_cast<TimeNs>(cluster.ranks.size()));
    CHECK(RankWaitNs(sums, cluster.ranks.size(), std::nullopt) == -1);  // no such rank
    CHECK(RankWaitNs(sums, 0, cluster.steps.size()) == -1);             // no such step
}

TEST_CASE("A first stage late with every microbatch widens the bubble, and is named for it") {
    const Cluster cluster = GeneratedPipeline(
        "pipeline_stall", -1, [](ClusterOptions& o) { o.microbatchStallNs = 3000000; });
    const PipelineSchedule schedule = ScheduleOf(cluster, 0, "1");
    CHECK(schedule.meanBubble > schedule.idealBubble + 0.05);
    CHECK(schedule.namedStage == 0);
    // Eight stalls of 3 ms: the first stage idles 24 ms with no operator running, less the
    // three hops of 50 µs in which a send it posted was still crossing.
    CHECK(schedule.stages[0].idleNs == 23850000);
    CHECK(schedule.verdict.rfind("No stage computes longer, yet the bubble is ", 0) == 0);
    CHECK(schedule.verdict.find("stage 0 (rank 0) idles 23.850 ms") != std::string::npos);
}

TEST_CASE("Without transfers, with one stage or with clocks that differ, nothing is paired") {
    MareyStep step;
    step.sharedClock = true;
    step.devices.push_back(Device(step, 0, {{"MatMul_1", 0, 10}, {"Add_2", 10, 12}}));
    step.devices.push_back(Device(step, 1, {{"MatMul_1", 5, 15}}));
    PipelineSchedule none = BuildPipelineSchedule(step);
    CHECK(none.markedBy == "no Send or Receive operator in the step");
    CHECK(none.transfers.empty());
    CHECK(none.microbatches == 0);
    CHECK(none.idealBubble == 0);
    // The span is 0 to 15 µs: stage 0 computes 12 of it, stage 1 10.
    CHECK(none.stages[0].bubble == doctest::Approx(3.0 / 15));
    CHECK(none.stages[1].bubble == doctest::Approx(5.0 / 15));
    CHECK(none.meanBubble == doctest::Approx(4.0 / 15));
    // A stage without operators (its file missing) has no bubble and counts in no figure.
    step.devices.push_back(Device(step, 2, {}));
    const PipelineSchedule missing = BuildPipelineSchedule(step);
    CHECK(missing.stages[2].bubble == -1);
    CHECK(missing.meanBubble == doctest::Approx(4.0 / 15));
    CHECK(missing.busiestStage == 0);
    CHECK(missing.medianComputingNs == 11000);  // the mean of 10 and 12 µs

    MareyStep pair;
    pair.sharedClock = true;
    pair.devices.push_back(Device(pair, 0, {{"MatMul_1", 0, 10}, {"hcom_send__1", 10, 14}}));
    pair.devices.push_back(Device(pair, 1, {{"hcom_receive__1", 2, 14}, {"MatMul_1", 14, 24}}));
    const PipelineSchedule paired = BuildPipelineSchedule(pair);
    REQUIRE(paired.transfers.size() == 1);
    CHECK(paired.transfers[0].forward);
    CHECK(paired.microbatches == 1);
    CHECK(paired.stages[1].receiveNs == 12000);
    // An AllReduce between computations reduces a split result; one after them aggregates.
    MareyStep collectives;
    collectives.devices.push_back(Device(collectives, 0,
                                         {{"MatMul_1", 0, 10},
                                          {"hcom_allReduce__1", 10, 12},
                                          {"MatMul_2", 12, 20},
                                          {"hcom_allReduce__2", 20, 25},
                                          {"AllToAll_3", 25, 26}}));
    const PipelineSchedule special = BuildPipelineSchedule(collectives);
    CHECK(special.stages[0].special[1] == PipeSpecial::kRedistribution);
    CHECK(special.stages[0].special[3] == PipeSpecial::kGradientAggregation);
    CHECK(special.stages[0].redistribution.operators == 2);
    CHECK(special.stages[0].aggregation.ns == 5000);
    // A receive that ended before the send began cannot have taken it.
    pair.devices[1].ops[0].endNs = 9000;
    CHECK(BuildPipelineSchedule(pair).unpaired == 2);

    pair.devices[1].ops[0].endNs = 14000;
    pair.sharedClock = false;
    const PipelineSchedule apart = BuildPipelineSchedule(pair);
    CHECK(apart.markedBy == "the stages' clocks differ: sends and receives not paired");
    CHECK(apart.unpaired == 2);

    pair.devices.pop_back();
    CHECK(BuildPipelineSchedule(pair).markedBy == "one stage: nothing to pair");
}

TEST_CASE("stats --json's pipeline key: the first pipeline's steps, null without stages") {
    const Cluster cluster = GeneratedPipeline("pipeline_json", 1);
    const std::string json = PipelineToJson(cluster, 1);
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    REQUIRE_FALSE(parser.parse(json).get(root));
    int64_t microbatches = 0, busiest = -1, rank = -1;
    CHECK_FALSE(root["steps"].at(0)["microbatches"].get(microbatches));
    CHECK(microbatches == 8);
    CHECK_FALSE(root["steps"].at(1)["busiest_stage"].get(busiest));
    CHECK(busiest == 1);
    CHECK_FALSE(root["ranks"].at(3).get(rank));
    CHECK(rank == 12);
    int64_t aggregated = 0;
    CHECK_FALSE(
        root["steps"].at(0)["stages"].at(2)["gradient_aggregation"]["operators"].get(aggregated));
    CHECK(aggregated == 1);
    CHECK(PipelineToJson(Cluster(), 1) == "null");
}

TEST_CASE("A pipeline rank without its folder keeps its stage, and no transfer skips it") {
    const Cluster cluster = GeneratedPipeline("pipeline_missing_rank", -1, {}, 4);
    CHECK(RankNumbers(PipelineRanks(cluster.parallel, RankId(0))) == std::vector<int>{0, 4, 8, 12});
    const PipelineSchedule schedule = ScheduleOf(cluster, 0, "1");
    REQUIRE(schedule.stages.size() == 4);
    CHECK(schedule.stages[1].bubble == -1);
    // Only stages 2 and 3 still meet: 8 microbatches each way, and nothing from 0 to 2.
    CHECK(schedule.transfers.size() == 16);
    for (const PipeTransfer& transfer : schedule.transfers)
        CHECK(std::min(transfer.fromStage, transfer.toStage) == 2);
    CHECK(schedule.microbatches == 8);
    // Stage 0's and stage 2's sends and receives towards stage 1: 8 each way on each.
    CHECK(schedule.unpaired == 32);
}

TEST_CASE("A Send and a Receive of different communicators are not a pair") {
    MareyStep step;
    step.sharedClock = true;
    step.devices.push_back(Device(step, 0, {{"hcom_send__274_0_1", 10, 14}}));
    step.devices.push_back(Device(step, 1, {{"hcom_receive__131_0_1", 2, 14}}));
    const PipelineSchedule apart = BuildPipelineSchedule(step);
    CHECK(apart.transfers.empty());
    CHECK(apart.unpaired == 2);
    CHECK(apart.microbatches == 0);
    CHECK(apart.markedBy == "no Send met a Receive on a neighbouring stage");
    step.names[step.keys[step.devices[1].ops[0].key].name] = "hcom_receive__274_0_1";
    CHECK(BuildPipelineSchedule(step).transfers.size() == 1);
}
