#include "rank/DataPreparation.hpp"

#include <algorithm>
#include <cstdio>
#include <map>

#include "core/RobustStats.hpp"
#include "core/TextFormat.hpp"
#include "load/AnalysisFile.hpp"
#include "load/MindDataJson.hpp"
#include "load/MindDataSummary.hpp"

namespace marey {

const char* DataVerdictKey(DataVerdictKind kind) {
    switch (kind) {
        case DataVerdictKind::kNotBottleneck:
            return "not_the_bottleneck";
        case DataVerdictKind::kProcessing:
            return "data_processing";
        case DataVerdictKind::kSending:
            return "sending_to_device";
        case DataVerdictKind::kWaiting:
            return "waited_for_data";
        case DataVerdictKind::kNoRecord:
            break;
    }
    return "no_queue_record";
}

bool DataVerdictFromKey(std::string_view key, DataVerdictKind* kind) {
    for (const DataVerdictKind each :
         {DataVerdictKind::kNoRecord, DataVerdictKind::kNotBottleneck, DataVerdictKind::kProcessing,
          DataVerdictKind::kSending, DataVerdictKind::kWaiting})
        if (key == DataVerdictKey(each)) {
            *kind = each;
            return true;
        }
    return false;
}

const char* BatchVerdictName(BatchVerdict verdict) {
    switch (verdict) {
        case BatchVerdict::kReady:
            return "ready";
        case BatchVerdict::kWaitedProcessing:
            return "waited: processing";
        case BatchVerdict::kWaitedSending:
            return "waited: sending";
        case BatchVerdict::kWaited:
            return "waited";
        case BatchVerdict::kUnknown:
            break;
    }
    return "unknown";
}

namespace {

// [SECTION] The pipeline

bool TypeIs(const std::string& type, const char* name) {
    return type == name || type == std::string(name) + "Op";
}

// The tuning method's suggestion for a bottleneck of this type ('source': it reads the data).
std::string SuggestionFor(const PipelineOperator& op, bool source) {
    if (TypeIs(op.type, "Generator"))
        return "raise its num_parallel_workers, and try MindRecordDataset in place of the "
               "generator";
    if (source) return "raise the dataset's num_parallel_workers";
    if (TypeIs(op.type, "Map"))
        return "raise its num_parallel_workers; if it runs a Python operation, make that "
               "script faster";
    if (TypeIs(op.type, "Batch")) return "adjust its prefetch_size";
    if (op.type.empty())
        return "its type is not recorded: look it up in the dataset's code by its id";
    return "it has no worker setting of its own: speed up the operators that feed it";
}

// Each operator's distance from the root along its parents; -1 for one on a loop of parents or
// below one. Each chain is walked once: O(operators log operators).
std::vector<int> DepthsFromRoot(const std::vector<PipelineOperator>& ops,
                                const std::map<int, size_t>& index) {
    constexpr int kUnknown = -2, kWalking = -3;
    std::vector<int> depth(ops.size(), kUnknown);
    std::vector<size_t> chain;
    for (size_t i = 0; i < ops.size(); ++i) {
        chain.clear();
        size_t at = i;
        int base = 0;  // the depth of the first operator above the chain, plus one
        while (true) {
            if (depth[at] == kWalking) {  // came round to the chain itself: a loop
                base = -1;
                break;
            }
            if (depth[at] != kUnknown) {
                base = depth[at] < 0 ? -1 : depth[at] + 1;
                break;
            }
            depth[at] = kWalking;
            chain.push_back(at);
            const auto parent = index.find(ops[at].parent);
            if (ops[at].parent < 0 || parent == index.end()) {
                base = 0;
                break;
            }
            at = parent->second;
        }
        // The chain runs upwards: its last operator sits at 'base'.
        for (size_t k = chain.size(); k-- > 0;)
            depth[chain[k]] = base < 0 ? -1 : base + static_cast<int>(chain.size() - 1 - k);
    }
    return depth;
}

// Each operator's column: the longest run of operators below it along the parent links (0 for a
// source and for an operator on a loop).
std::vector<int> ColumnsFromSources(const std::vector<PipelineOperator>& ops,
                                    const std::map<int, size_t>& index,
                                    const std::vector<int>& depth) {
    std::vector<size_t> order;
    for (size_t i = 0; i < ops.size(); ++i)
        if (depth[i] >= 0) order.push_back(i);
    // The deepest first: an operator's column is final before its parent reads it.
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return depth[a] > depth[b]; });
    std::vector<int> column(ops.size(), 0);
    for (const size_t i : order) {
        const auto parent = index.find(ops[i].parent);
        if (ops[i].parent >= 0 && parent != index.end())
            column[parent->second] = std::max(column[parent->second], column[i] + 1);
    }
    return column;
}

}  // namespace

DataPipeline AnalyzePipeline(std::vector<PipelineOperator> operators) {
    DataPipeline pipeline;
    pipeline.operators = std::move(operators);
    const std::vector<PipelineOperator>& ops = pipeline.operators;
    std::map<int, size_t> index;
    for (size_t i = 0; i < ops.size(); ++i) index[ops[i].id] = i;
    const std::vector<int> depth = DepthsFromRoot(ops, index);
    pipeline.column = ColumnsFromSources(ops, index, depth);
    // The rules read queues: an operator's input queues are its children's output queues.
    for (size_t i = 0; i < ops.size(); ++i) {
        const PipelineOperator& op = ops[i];
        if (depth[i] < 0) continue;  // on a loop of parents: no left or right to speak of
        // An operator that lost a child link to damage has inputs no rule can judge.
        bool inputsKnown = !op.children.empty() && !op.lostChildren, inputsFull = inputsKnown;
        std::string inputs;
        for (const int child : op.children) {
            const auto found = index.find(child);
            if (found == index.end()) continue;
            const PipelineOperator& input = ops[found->second];
            inputsKnown = inputsKnown && input.hasQueue;
            inputsFull = inputsFull && input.hasQueue && input.queueUsage >= kHighQueueUsage;
            inputs += (inputs.empty() ? "" : ", ") + FormatPercent(input.queueUsage);
        }
        const bool outputEmpty = op.hasQueue && op.queueUsage < kLowQueueUsage;
        std::string rule;
        if (op.children.empty() && !op.lostChildren && op.parent >= 0 && outputEmpty)
            rule = "a source whose output queue is nearly empty (" + FormatPercent(op.queueUsage) +
                   " used on average)";
        else if (op.parent < 0 && inputsKnown && inputsFull)
            rule = "the last operator, and its input queues are full (" + inputs + " used)";
        else if (op.parent >= 0 && inputsKnown && inputsFull && outputEmpty)
            rule = "its input queues are full (" + inputs +
                   " used) and its output queue is "
                   "nearly empty (" +
                   FormatPercent(op.queueUsage) + ")";
        if (!rule.empty())
            pipeline.bottlenecks.push_back(
                {op.id, op.type, rule, SuggestionFor(op, op.children.empty())});
    }
    return pipeline;
}

namespace {

// [SECTION] The steps and the verdict

// 'deviceRecord': the device's data queue was recorded, so a step it lacks is not judged.
BatchVerdict VerdictOf(const DataPreparationStep& step, bool deviceRecord) {
    if (deviceRecord && step.deviceQueue < 0) return BatchVerdict::kUnknown;
    if (step.deviceQueue < 0 && step.hostQueue < 0) return BatchVerdict::kUnknown;
    // Without the device's own queue (feed mode), the host queue is the one the step reads.
    const int queue = step.deviceQueue >= 0 ? step.deviceQueue : step.hostQueue;
    if (queue > 0) return BatchVerdict::kReady;
    if (step.deviceQueue < 0) return BatchVerdict::kWaitedProcessing;
    if (step.hostQueue < 0) return BatchVerdict::kWaited;
    return step.hostQueue == 0 ? BatchVerdict::kWaitedProcessing : BatchVerdict::kWaitedSending;
}

std::string EmptyIn(const char* queue, int empty, int steps) {
    return std::string(queue) + " was empty in " + std::to_string(empty) + " of " +
           std::to_string(steps) + (steps == 1 ? " step" : " steps");
}

// MindInsight's analyse_queue_summary: the host queue decides first, then the device's.
}  // namespace

DataVerdictKind VerdictKindOf(const DataVerdict& counts) {
    if (counts.hostSteps > 0) {
        if (counts.emptyHostSteps > kEmptyQueueShare * counts.hostSteps)
            return DataVerdictKind::kProcessing;
        return counts.emptyDeviceSteps > 0 ? DataVerdictKind::kSending
                                           : DataVerdictKind::kNotBottleneck;
    }
    if (counts.deviceSteps > 0)
        return counts.emptyDeviceSteps > kEmptyQueueShare * counts.deviceSteps
                   ? DataVerdictKind::kWaiting
                   : DataVerdictKind::kNotBottleneck;
    return DataVerdictKind::kNoRecord;
}

namespace {

DataVerdict JudgeSteps(const std::vector<DataPreparationStep>& steps) {
    DataVerdict verdict;
    for (const DataPreparationStep& step : steps) {
        if (step.deviceQueue >= 0)
            ++verdict.deviceSteps, verdict.emptyDeviceSteps += step.deviceQueue == 0;
        if (step.hostQueue >= 0) ++verdict.hostSteps, verdict.emptyHostSteps += step.hostQueue == 0;
    }
    verdict.kind = VerdictKindOf(verdict);
    const std::string host = EmptyIn("the host queue", verdict.emptyHostSteps, verdict.hostSteps);
    const std::string device =
        EmptyIn("the device's data queue", verdict.emptyDeviceSteps, verdict.deviceSteps);
    if (verdict.hostSteps > 0) {
        if (verdict.kind == DataVerdictKind::kProcessing) {
            verdict.text = host + (verdict.deviceSteps > 0 ? " (" + device + ")" : "") +
                           ": the dataset pipeline does not keep up; data processing is the "
                           "bottleneck";
        } else if (verdict.kind == DataVerdictKind::kSending) {
            verdict.text = device + " while " + host +
                           ": sending the batches from host to device is the bottleneck";
        } else {
            verdict.text = host + (verdict.deviceSteps > 0 ? " and " + device : "") +
                           ": data preparation is not what holds the steps up";
        }
    } else if (verdict.deviceSteps > 0) {
        const bool waiting = verdict.kind == DataVerdictKind::kWaiting;
        verdict.text = device + (waiting ? ": the steps waited for data; without the host "
                                           "queue's record, whether processing or sending is "
                                           "slow is not known"
                                         : ": data preparation is not what holds the steps up; "
                                           "if the step interval is long, look at the time of "
                                           "the GetNext operators (AI CPU)");
    }
    return verdict;
}

// The step interval the step table gives: Preparing (torch_npu and MindSpore 2) or, in
// MindInsight's layout, iteration_interval (read as Free).
TimeNs IntervalOf(const StepTrace& steps, const StepRow& row) {
    if (steps.hasColumn[kStepPreparing]) return row.ns[kStepPreparing];
    if (steps.hasColumn[kStepFree]) return row.ns[kStepFree];
    return -1;
}

// Without a queue record, what the intervals alone say: their total, median and longest step.
std::string IntervalSummary(const std::vector<DataPreparationStep>& steps,
                            const std::string& source) {
    std::vector<double> intervals;
    TimeNs total = 0;
    const DataPreparationStep* longest = nullptr;
    for (const DataPreparationStep& step : steps) {
        if (step.intervalNs < 0) continue;
        intervals.push_back(static_cast<double>(step.intervalNs));
        total = SaturatingAdd(total, step.intervalNs);
        if (!longest || step.intervalNs > longest->intervalNs) longest = &step;
    }
    if (!longest) return "";
    const size_t count = intervals.size();
    const TimeNs median = static_cast<TimeNs>(MedianAndMad(intervals).median);
    const std::string head = "no data queue recorded; the step interval (" + source + ")";
    if (count == 1) return head + " is " + FormatDuration(total) + " in step " + longest->step;
    return head + " totals " + FormatDuration(total) + " over " + std::to_string(count) +
           " steps: median " + FormatDuration(median) + ", longest " +
           FormatDuration(longest->intervalNs) + " in step " + longest->step;
}

}  // namespace

std::string ProfilerWarningText(const MindDataSummary& summary) {
    if (summary.bottleneckOperators.empty())
        return summary.suggestion.empty() ? "no bottleneck warning" : summary.suggestion;
    // MindSpore's suggestion usually names the operators itself: then it is the whole line.
    bool named = !summary.suggestion.empty();
    for (const std::string& op : summary.bottleneckOperators)
        named = named && summary.suggestion.find(op) != std::string::npos;
    if (named) return summary.suggestion;
    std::string text = "bottleneck at ";
    for (size_t i = 0; i < summary.bottleneckOperators.size(); ++i)
        text += (i ? ", " : "") + summary.bottleneckOperators[i];
    return summary.suggestion.empty() ? text : text + ": " + summary.suggestion;
}

namespace {

// The summary's operators as a pipeline, for a rank whose raw pipeline files are absent: the
// queue rules then judge what the summary says of each queue (its utilisation, in %). Links that
// contradict one another are dropped and named in 'problems', as the raw file's are.
std::vector<PipelineOperator> PipelineFromSummary(const MindDataSummary& summary,
                                                  const std::string& name,
                                                  std::vector<std::string>& problems) {
    std::vector<PipelineOperator> operators;
    for (const MindDataSummaryOperator& from : summary.operators) {
        PipelineOperator& op = operators.emplace_back();
        op.id = from.id;
        op.type = from.name;
        if (from.workers >= 0) op.workers = from.workers;  // -1: the summary does not say
        op.hasQueue = from.queueUtilizationPct >= 0;
        op.queueUsage = op.hasQueue ? from.queueUtilizationPct / 100 : 0;
        op.parent = from.parent;
        op.children = from.children;
        op.cpuPercent = from.cpuPercent;
    }
    for (const LinkProblem& problem : CheckPipelineLinks(operators))
        problems.push_back(name + ": error: " + problem.message);
    return operators;
}

// Reads the profiler's own summary into 'preparation'; its pipeline stands in for the raw
// files' when they are absent.
void ReadProfilerSummary(const DataPreparationFiles& files, DataPreparation& preparation) {
    ReadAnalysisFile(files.summary, preparation.problems, [&](std::string_view text) {
        const bool csv = files.summary.size() >= 4 &&
                         files.summary.compare(files.summary.size() - 4, 4, ".csv") == 0;
        auto summary = csv ? ParseMindDataSummaryCsv(text, files.summary)
                           : ParseMindDataSummaryJson(text, files.summary);
        if (!summary.ok()) return preparation.problems.push_back(summary.message());
        preparation.problems.insert(preparation.problems.end(), summary.value().problems.begin(),
                                    summary.value().problems.end());
        preparation.profilerSummary = std::move(summary.value());
        preparation.hasProfilerSummary = true;
    });
    if (!preparation.hasProfilerSummary) return;
    if (preparation.pipeline.operators.empty()) {
        preparation.pipeline = AnalyzePipeline(
            PipelineFromSummary(preparation.profilerSummary, files.summary, preparation.problems));
        return;
    }
    // Each operator's CPU share where minddata_cpu_utilization_N.json did not give it.
    std::map<int, double> cpuById;
    for (const MindDataSummaryOperator& from : preparation.profilerSummary.operators)
        cpuById.emplace(from.id, from.cpuPercent);
    for (PipelineOperator& op : preparation.pipeline.operators)
        if (const auto found = cpuById.find(op.id); op.cpuPercent < 0 && found != cpuById.end())
            op.cpuPercent = found->second;
}

// Reads the profiler's tables of the data's stages: dataset.csv and data_preprocess.csv.
void ReadStageTables(const DataPreparationFiles& files, DataPreparation& preparation) {
    ReadAnalysisFile(files.datasetStages, preparation.problems, [&](std::string_view text) {
        auto table = ParseDatasetStagesCsv(text, files.datasetStages);
        if (!table.ok()) return preparation.problems.push_back(table.message());
        AddFileProblems(files.datasetStages, table.value().problems, preparation.problems);
        preparation.datasetStages = std::move(table.value().stages);
        std::stable_sort(
            preparation.datasetStages.begin(), preparation.datasetStages.end(),
            [](const DatasetStage& a, const DatasetStage& b) { return a.totalNs > b.totalNs; });
    });
    ReadAnalysisFile(files.aicpuPreprocess, preparation.problems, [&](std::string_view text) {
        auto table = ParseAicpuPreprocessCsv(text, files.aicpuPreprocess);
        if (!table.ok()) return preparation.problems.push_back(table.message());
        AddFileProblems(files.aicpuPreprocess, table.value().problems, preparation.problems);
        preparation.aicpuPreprocess = std::move(table.value());
        preparation.aicpuPreprocess.problems.clear();  // named above
        preparation.hasAicpuPreprocess = true;
    });
}

}  // namespace

DataPreparation AnalyzeDataPreparation(const DataPreparationFiles& files, const StepTrace* steps,
                                       const std::string& stepTable) {
    DataPreparation preparation;
    preparation.files = files;
    preparation.problems = files.problems;
    std::map<int, DataPreparationStep> byStep;
    const auto stepEntry = [&](int step) -> DataPreparationStep& {
        DataPreparationStep& entry = byStep[step];
        entry.step = std::to_string(step);
        return entry;
    };
    ReadAnalysisFile(files.pipelineRaw, preparation.problems, [&](std::string_view text) {
        auto table = ParsePipelineRawCsv(text, files.pipelineRaw);
        if (!table.ok()) return preparation.problems.push_back(table.message());
        AddFileProblems(files.pipelineRaw, table.value().problems, preparation.problems);
        preparation.pipeline = AnalyzePipeline(std::move(table.value().operators));
    });
    if (files.pipelineRaw.empty())
        ReadAnalysisFile(files.pipelineProfiling, preparation.problems, [&](std::string_view text) {
            auto pipeline = ParsePipelineProfilingJson(text, files.pipelineProfiling);
            if (!pipeline.ok()) return preparation.problems.push_back(pipeline.message());
            preparation.problems.insert(preparation.problems.end(),
                                        pipeline.value().problems.begin(),
                                        pipeline.value().problems.end());
            preparation.pipeline = AnalyzePipeline(std::move(pipeline.value().operators));
        });
    ReadAnalysisFile(files.cpuUtilization, preparation.problems, [&](std::string_view text) {
        auto cpu = ParseCpuUtilizationJson(text, files.cpuUtilization);
        if (!cpu.ok()) return preparation.problems.push_back(cpu.message());
        preparation.problems.insert(preparation.problems.end(), cpu.value().problems.begin(),
                                    cpu.value().problems.end());
        preparation.processCpuPercent = cpu.value().processPercent;
        for (PipelineOperator& op : preparation.pipeline.operators) {
            const auto found = cpu.value().operatorPercent.find(op.id);
            if (found != cpu.value().operatorPercent.end()) op.cpuPercent = found->second;
        }
    });
    ReadProfilerSummary(files, preparation);
    ReadStageTables(files, preparation);
    ReadAnalysisFile(files.hostQueue, preparation.problems, [&](std::string_view text) {
        HostQueueRecord record = ParseHostQueueText(text);
        AddFileProblems(files.hostQueue, record.problems, preparation.problems);
        for (const HostQueueStep& host : record.steps) {
            DataPreparationStep& entry = stepEntry(host.step);
            entry.hostQueue = host.size, entry.hostCapacity = host.capacity;
            entry.pushNs = host.pushNs;
        }
    });
    bool deviceRecord = false;
    ReadAnalysisFile(files.deviceQueue, preparation.problems, [&](std::string_view text) {
        DeviceQueueRecord record = ParseDeviceQueueText(text, files.deviceQueueInNs);
        AddFileProblems(files.deviceQueue, record.problems, preparation.problems);
        for (const DeviceQueueBatch& batch : record.batches) {
            DataPreparationStep& entry = stepEntry(batch.step);
            entry.deviceQueue = batch.size;
            entry.getNextNs = batch.endNs - batch.startNs;
            deviceRecord = deviceRecord || batch.size >= 0;
        }
    });
    if (steps) {
        // With queue files, only the steps they also count: a step table's own numbering may
        // start elsewhere. Without them, every numbered step of the table: its interval alone
        // says whether the device waited between steps.
        const bool queues = !byStep.empty();
        for (const StepRow& row : steps->rows) {
            int number = 0;
            const TimeNs interval = IntervalOf(*steps, row);
            if (interval < 0 || std::sscanf(row.step.c_str(), "%d", &number) != 1 ||
                std::to_string(number) != row.step)
                continue;
            const auto it = byStep.find(number);
            if (it != byStep.end()) it->second.intervalNs = interval;
            // Free is the interval only in MindInsight's layout, which comes with its queues.
            if (!queues && steps->hasColumn[kStepPreparing])
                stepEntry(number).intervalNs = interval;
        }
        const std::string table = stepTable.empty() ? std::string("the steps") : stepTable;
        preparation.intervalSource =
            steps->hasColumn[kStepPreparing] ? "Preparing in " + table
            : steps->hasColumn[kStepFree]
                ? "Free in " + table + " (MindInsight's iteration_interval)"
                : "";
    }
    for (auto& [number, step] : byStep) {
        step.verdict = VerdictOf(step, deviceRecord);
        preparation.steps.push_back(std::move(step));
    }
    preparation.verdict = JudgeSteps(preparation.steps);
    if (preparation.verdict.kind == DataVerdictKind::kNoRecord)
        preparation.verdict.text = IntervalSummary(preparation.steps, preparation.intervalSource);
    return preparation;
}

}  // namespace marey
