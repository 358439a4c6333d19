#include "marey/PipelineJson.hpp"

#include <algorithm>

#include "core/ParallelFor.hpp"
#include "marey/PipelineSchedule.hpp"
#include "report/JsonWriter.hpp"

namespace marey {

namespace {

void WriteSchedule(JsonObject& o, const std::string& step, const PipelineSchedule& schedule,
                   const std::vector<std::string>& problems) {
    o.String("step", step);
    o.Int("microbatches", schedule.microbatches);
    o.String("marked_by", schedule.markedBy);
    o.Int("transfers", static_cast<int64_t>(schedule.transfers.size()));
    o.Int("unpaired", static_cast<int64_t>(schedule.unpaired));
    o.Int("span_ns", schedule.spanEndNs - schedule.spanStartNs);
    o.RealOrNull("ideal_bubble", schedule.microbatches > 0 ? schedule.idealBubble : -1);
    o.Real("mean_bubble", schedule.meanBubble);
    o.IntOrNull("busiest_stage", schedule.busiestStage);
    o.Int("median_computing_ns", schedule.medianComputingNs);
    o.String("verdict", schedule.verdict);
    // Why a stage has no operators in this step, one line a reason.
    JsonArray(o.Key("problems"), problems,
              [](std::string& out, const std::string& p) { AppendJsonString(out, p); });
    size_t index = 0;
    JsonArrayOfObjects(o.Key("stages"), schedule.stages,
                       [&](JsonObject& s, const PipeStageFigures& stage) {
                           s.Int("stage", static_cast<int64_t>(index++));
                           s.Int("rank", stage.rankId.value());
                           s.Int("computing_ns", stage.computingNs);
                           s.Int("receive_ns", stage.receiveNs);
                           s.Int("idle_ns", stage.idleNs);
                           s.RealOrNull("bubble", stage.bubble);
                           s.Int("sends", stage.sends);
                           s.Int("receives", stage.receives);
                           for (const auto& [key, count] :
                                {std::pair{"redistribution", &stage.redistribution},
                                 std::pair{"gradient_aggregation", &stage.aggregation}}) {
                               JsonObject special(s.Key(key));
                               special.Int("operators", count->operators);
                               special.Int("ns", count->ns);
                           }
                       });
}

}  // namespace

std::string PipelineToJson(const Cluster& cluster, unsigned threads) {
    const ParallelLayout& layout = cluster.parallel;
    const std::vector<RankId> ranks =
        layout.stages.empty() || layout.stages.front().ranks.empty()
            ? std::vector<RankId>{}
            : PipelineRanks(layout, RankId(layout.stages.front().ranks.front()));
    if (ranks.empty()) return "null";
    const MareyTables tables = LoadMareyTables(cluster, ranks, threads);
    std::vector<PipelineSchedule> schedules(cluster.steps.size());
    std::vector<std::vector<std::string>> stepProblems(cluster.steps.size());
    ParallelFor(schedules.size(), std::max(1u, threads), std::vector<uint64_t>(schedules.size(), 1),
                [&](size_t s) {
                    const MareyStep step = BuildMareyStep(tables, {cluster.steps[s]});
                    schedules[s] = BuildPipelineSchedule(step);
                    bool noFile = false;
                    stepProblems[s] = SummarizeDeviceProblems(step, 8, &noFile);
                });
    std::string out;
    {
        JsonObject root(out);
        WriteRankIds(root.Key("ranks"), RankNumbers(ranks));
        size_t index = 0;
        JsonArrayOfObjects(
            root.Key("steps"), schedules, [&](JsonObject& o, const PipelineSchedule& schedule) {
                WriteSchedule(o, cluster.steps[index], schedule, stepProblems[index]);
                ++index;
            });
        std::vector<std::string> problems;
        for (size_t i = 0; i < tables.problems.size(); ++i)
            if (!tables.problems[i].empty())
                problems.push_back("rank " + ToString(ranks[i]) + ": " + tables.problems[i]);
        JsonArray(root.Key("problems"), problems,
                  [](std::string& o, const std::string& p) { AppendJsonString(o, p); });
    }
    return out;
}

}  // namespace marey
