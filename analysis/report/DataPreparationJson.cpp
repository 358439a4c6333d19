#include "report/DataPreparationJson.hpp"

#include "core/TextFormat.hpp"
#include "report/JsonWriter.hpp"

namespace marey {
namespace {

void WriteIdList(std::string& out, const std::vector<int>& ids) {
    JsonArray(out, ids, [](std::string& o, int id) { o += std::to_string(id); });
}

// The profiler's own analysis, as minddata_pipeline_summary_N says it; null without the file.
void WriteProfilerSummary(std::string& out, const DataPreparation& preparation) {
    if (!preparation.hasProfilerSummary) {
        out += "null";
        return;
    }
    const MindDataSummary& summary = preparation.profilerSummary;
    JsonObject object(out);
    object.String("file", preparation.files.summary);
    JsonArray(object.Key("bottleneck_operators"), summary.bottleneckOperators,
              [](std::string& o, const std::string& name) { AppendJsonString(o, name); });
    object.String("suggestion", summary.suggestion);
    object.String("cpu_analysis", summary.cpuAnalysis);
    object.String("queue_analysis", summary.queueAnalysis);
    object.RealOrNull("per_pipeline_ms", summary.perPipelineMs);
    object.RealOrNull("per_push_queue_ms", summary.perPushQueueMs);
    object.RealOrNull("per_batch_ms", summary.perBatchMs);
    JsonArray(object.Key("operators"), summary.operators,
              [](std::string& o, const MindDataSummaryOperator& op) {
                  JsonObject entry(o);
                  entry.Int("op_id", op.id);
                  entry.String("name", op.name);
                  entry.String("pipeline_name", op.pipelineName);
                  entry.IntOrNull("workers", op.workers);
                  entry.RealOrNull("cpu_percent", op.cpuPercent);
                  entry.RealOrNull("cpu_percent_per_worker", op.cpuPercentPerWorker);
                  entry.RealOrNull("queue_average_size", op.queueAverageSize);
                  entry.RealOrNull("queue_utilization_percent", op.queueUtilizationPct);
                  entry.RealOrNull("queue_empty_percent", op.queueEmptyPct);
                  entry.IntOrNull("parent", op.parent);
                  WriteIdList(entry.Key("children"), op.children);
              });
}

void WriteDatasetStages(std::string& out, const std::vector<DatasetStage>& stages) {
    JsonArray(out, stages, [](std::string& o, const DatasetStage& stage) {
        JsonObject entry(o);
        entry.String("operation", stage.operation);
        entry.String("stage", stage.stage);
        entry.Int("occurrences", stage.occurrences);
        entry.Int("average_ns", stage.averageNs);
        entry.Int("total_ns", stage.totalNs);
        entry.String("custom_info", stage.customInfo);
    });
}

void WriteAicpuPreprocess(std::string& out, const DataPreparation& preparation) {
    if (!preparation.hasAicpuPreprocess) {
        out += "null";
        return;
    }
    const AicpuPreprocessTable& table = preparation.aicpuPreprocess;
    JsonObject object(out);
    object.Int("tasks", table.tasks);
    object.IntOrNull("first_ns", table.firstNs);
    object.IntOrNull("last_ns", table.lastNs);
    JsonArray(object.Key("nodes"), table.nodes, [&](std::string& o, const AicpuNodeTimes& node) {
        JsonObject entry(o);
        entry.String("node", node.node);
        entry.Int("count", node.count);
        entry.IntOrNull("compute_ns", table.hasCompute ? node.computeNs : -1);
        entry.IntOrNull("memcpy_ns", table.hasMemcpy ? node.memcpyNs : -1);
        entry.IntOrNull("task_ns", table.hasTask ? node.taskNs : -1);
        entry.IntOrNull("dispatch_ns", table.hasDispatch ? node.dispatchNs : -1);
        entry.Int("total_ns", node.totalNs);
        entry.Int("longest_ns", node.longestNs);
    });
}

}  // namespace

namespace {

void WriteDataLoader(std::string& out, const DataLoaderRecord& loader) {
    if (!loader.Found()) {
        out += "null";
        return;
    }
    JsonObject object(out);
    object.String("iterator", loader.iterator);
    JsonArray(object.Key("steps"), loader.steps, [](std::string& o, const LoaderStep& step) {
        JsonObject entry(o);
        entry.String("step", step.step);
        entry.Int("start_ns", step.startNs);
        entry.Int("end_ns", step.endNs);
        entry.Int("loader_ns", step.loaderNs);
        entry.Int("calls", step.calls);
        entry.IntOrNull("device_idle_ns", step.deviceIdleNs);
        entry.IntOrNull("first_activity_gap_ns", step.firstActivityGapNs);
        entry.Bool("waited", step.waited);
    });
    object.Int("calls_outside_steps", loader.callsOutsideSteps);
    object.Int("calls_outside_steps_ns", loader.callsOutsideNs);
    object.Int("steps_ns", loader.stepsNs);
    object.Int("loader_ns", loader.loaderNs);
    object.IntOrNull("device_idle_ns", loader.deviceIdleNs);
    object.Int("waited_steps", loader.waitedSteps);
    object.Bool("input_bound", loader.inputBound);
    object.String("finding", loader.finding);
}

void WriteDataPreparation(std::string& out, const DataPreparation* preparation) {
    JsonObject root(out);
    JsonArray(
        root.Key("steps"), preparation->steps, [](std::string& o, const DataPreparationStep& step) {
            JsonObject object(o);
            object.String("step", step.step);
            object.IntOrNull("interval_ns", step.intervalNs);
            object.IntOrNull("device_queue", step.deviceQueue);
            object.IntOrNull("get_next_ns", step.getNextNs);
            object.IntOrNull("host_queue", step.hostQueue);
            object.IntOrNull("host_queue_capacity", step.hostCapacity > 0 ? step.hostCapacity : -1);
            object.IntOrNull("push_ns", step.pushNs);
            object.String("batch", BatchVerdictName(step.verdict));
        });
    root.String("interval_source", preparation->intervalSource);
    const DataPipeline& pipeline = preparation->pipeline;
    std::string& ops = root.Key("pipeline");
    ops += '[';
    for (size_t i = 0; i < pipeline.operators.size(); ++i) {
        if (i) ops += ", ";
        const PipelineOperator& op = pipeline.operators[i];
        JsonObject object(ops);
        object.Int("op_id", op.id);
        object.String("op_type", op.type);
        if (op.workers)
            object.Int("workers", *op.workers);
        else
            object.Null("workers");
        object.Int("column", pipeline.column[i]);
        if (op.hasQueue)
            object.Real("output_queue_usage", op.queueUsage);
        else
            object.Null("output_queue_usage");
        object.IntOrNull("output_queue_capacity", op.queueCapacity > 0 ? op.queueCapacity : -1);
        if (op.cpuPercent >= 0)
            object.Real("cpu_percent", op.cpuPercent);
        else
            object.Null("cpu_percent");
        object.IntOrNull("parent", op.parent);
        WriteIdList(object.Key("children"), op.children);
    }
    ops += ']';
    JsonArray(root.Key("bottlenecks"), pipeline.bottlenecks,
              [](std::string& o, const DataBottleneck& bottleneck) {
                  JsonObject object(o);
                  object.Int("op_id", bottleneck.opId);
                  object.String("op_type", bottleneck.opType);
                  object.String("rule", bottleneck.rule);
                  object.String("suggestion", bottleneck.suggestion);
              });
    if (preparation->processCpuPercent >= 0)
        root.Real("process_cpu_percent", preparation->processCpuPercent);
    else
        root.Null("process_cpu_percent");
    WriteProfilerSummary(root.Key("profiler_summary"), *preparation);
    WriteDatasetStages(root.Key("dataset_stages"), preparation->datasetStages);
    WriteAicpuPreprocess(root.Key("aicpu_preprocess"), *preparation);
    WriteDataLoader(root.Key("data_loader"), preparation->loader);
    JsonObject judged(root.Key("verdict"));
    WriteDataVerdict(judged, preparation->verdict);
}

}  // namespace

void WriteDataVerdict(JsonObject& object, const DataVerdict& verdict) {
    object.String("kind", DataVerdictKey(verdict.kind));
    object.Int("device_queue_steps", verdict.deviceSteps);
    object.Int("empty_device_queue_steps", verdict.emptyDeviceSteps);
    object.Int("host_queue_steps", verdict.hostSteps);
    object.Int("empty_host_queue_steps", verdict.emptyHostSteps);
    object.String("text", verdict.text);
}

std::string DataPreparationToJson(const DataPreparation* preparation) {
    if (!preparation) return "null";
    std::string out;
    WriteDataPreparation(out, preparation);  // its objects close before 'out' is returned
    return out;
}

std::string DataPreparationToText(const DataPreparation* preparation) {
    if (!preparation) return std::string();
    std::string out;
    if (preparation->files.Any())
        out += "  data prep   " +
               (preparation->verdict.text.empty() ? std::string("no queue record")
                                                  : preparation->verdict.text) +
               "\n";
    const DataLoaderRecord& loader = preparation->loader;
    if (loader.Found() && loader.steps.empty())
        out += "  data loader " + loader.iterator + ": " +
               CountText(loader.callsOutsideSteps, "call", "calls") + " (" +
               FormatDuration(loader.callsOutsideNs) +
               "), not judged: the trace marks no ProfilerStep\n";
    else if (loader.Found())
        out += "  data loader " + loader.iterator + ": " + FormatDuration(loader.loaderNs) +
               " in " + CountText(loader.steps.size(), "step", "steps") +
               (loader.inputBound
                    ? "; " + loader.finding
                    : "; not input-bound (" + std::to_string(loader.waitedSteps) + " of " +
                          std::to_string(loader.steps.size()) + " steps waited on it)") +
               "\n";
    const DataPipeline& pipeline = preparation->pipeline;
    if (!pipeline.operators.empty())
        out += "    pipeline of " + CountText(pipeline.operators.size(), "operator", "operators") +
               ", " +
               (pipeline.bottlenecks.empty()
                    ? std::string("no bottleneck by the queue rules")
                    : std::to_string(pipeline.bottlenecks.size()) + " bottleneck" +
                          (pipeline.bottlenecks.size() == 1 ? "" : "s")) +
               "\n";
    for (const DataBottleneck& bottleneck : pipeline.bottlenecks)
        out += "    bottleneck " + (bottleneck.opType.empty() ? "" : bottleneck.opType + " ") +
               "(op " + std::to_string(bottleneck.opId) + "): " + bottleneck.rule + "; " +
               bottleneck.suggestion + "\n";
    if (!preparation->datasetStages.empty()) {
        const DatasetStage& longest = preparation->datasetStages.front();
        out += "    dataset stages: " + std::to_string(preparation->datasetStages.size()) +
               ", the longest in all " + longest.operation + " " + longest.stage + " (" +
               FormatDuration(longest.totalNs) + " over " +
               CountText(static_cast<size_t>(longest.occurrences), "run", "runs") + ")\n";
    }
    if (preparation->hasAicpuPreprocess) {
        const AicpuPreprocessTable& aicpu = preparation->aicpuPreprocess;
        out += "    AI CPU preprocessing: " +
               CountText(static_cast<size_t>(aicpu.tasks), "task", "tasks") + " of " +
               CountText(aicpu.nodes.size(), "node", "nodes") +
               (aicpu.nodes.empty() ? std::string()
                                    : ", the longest in all " + aicpu.nodes.front().node + " (" +
                                          FormatDuration(aicpu.nodes.front().totalNs) + ")") +
               "\n";
    }
    if (preparation->hasProfilerSummary)
        out += "    profiler's own analysis: " + ProfilerWarningText(preparation->profilerSummary) +
               "\n";
    return out;
}

}  // namespace marey
