#include "rank/RankAnalysis.hpp"

#include <algorithm>
#include <filesystem>
#include <thread>
#include <unordered_map>

#include "load/RankTableFiles.hpp"
#include "load/TraceText.hpp"
#include "rank/DataPreparation.hpp"
#include "rank/RankFlops.hpp"
#include "rank/ProfilerSteps.hpp"
#include "trace/TraceRankTables.hpp"

namespace marey {
namespace {

std::vector<StepSpan> PlaceSteps(const StepTrace& steps, const TraceModel& model) {
    std::vector<StepSpan> spans(steps.rows.size());
    std::unordered_map<std::string, const ProfilerStepSpan*> byStep;
    const std::vector<ProfilerStepSpan> placed = FindProfilerSteps(model);
    for (const ProfilerStepSpan& span : placed) byStep.emplace(span.step, &span);
    for (size_t i = 0; i < steps.rows.size(); ++i) {
        const auto it = byStep.find(steps.rows[i].step);
        if (it != byStep.end()) spans[i] = {true, it->second->startNs, it->second->endNs};
    }
    return spans;
}

}  // namespace

RankAnalysis AnalyzeRank(const RankFiles& files, const TraceModel* model, LoadProgress* progress,
                         std::shared_ptr<TraceAnalyses> cached) {
    RankAnalysis analysis;
    ReportAnalysis(progress, "reading the rank folder's tables");
    RankTables tables = ReadRankTableFiles(files);
    std::vector<std::string> problems = files.problems;  // finding the files, then reading them
    problems.insert(problems.end(), tables.problems.begin(), tables.problems.end());
    static_cast<RankTables&>(analysis) = std::move(tables);
    analysis.problems = std::move(problems);
    analysis.files = files;
    if (model)
        AnalyzeDeviceActivities(analysis, *model, std::max(1u, std::thread::hardware_concurrency()),
                                progress, std::move(cached));
    ReportAnalysis(progress, "summarising the overview, operators and data preparation");
    SummarizeRank(analysis, model);
    return analysis;
}

void AnalyzeDeviceActivities(RankAnalysis& analysis, const TraceModel& model, unsigned threads,
                             LoadProgress* progress, std::shared_ptr<TraceAnalyses> cached) {
    TraceAnalysisOptions options;
    options.threads = threads;
    std::shared_ptr<TraceAnalyses> analyses =
        cached ? std::move(cached)
               : std::make_shared<TraceAnalyses>(AnalyzeTrace(model, options, progress));
    ReportAnalysis(progress, "making the kernel, step and communication tables");
    if (!analysis.kernels && !analyses->activities.activities.empty()) {
        analysis.kernels = KernelTableFromActivities(model, *analyses);
        analysis.kernelsFromTrace = true;
    }
    // A trace that came alone (its operators made from it too): its collectives as operators. A
    // rank folder's own files say more, and a folder without communication.json keeps its notice.
    if (!analysis.communication && analysis.kernelsFromTrace) {
        CommunicationOps ops = CommunicationFromTrace(model, *analyses);
        if (!ops.ops.empty()) analysis.communication = std::move(ops);
    }
    if (!analysis.steps && !analyses->ranks.empty() && !analyses->ranks.front().steps.empty()) {
        analysis.steps = StepTraceFromAnalyses(*analyses);
        analysis.stepsFromTrace = true;
    }
    analysis.trace = std::move(analyses);
}

void SummarizeRank(RankAnalysis& analysis, const TraceModel* model) {
    if (model) analysis.hasTrace = true, analysis.traceStartNs = model->firstNs;
    if (analysis.kernels) {
        analysis.operators = OperatorsFromKernels(*analysis.kernels);
        if (analysis.kernelsFromTrace) analysis.operators.source = "the trace's device activities";
    } else if (analysis.opStatistic)
        analysis.operators = OperatorsFromOpStatistic(*analysis.opStatistic);
    const bool database = !analysis.database.empty();
    // MindSpore's step_trace_raw is read as its cluster reads it (cluster/MindInsightReader).
    const bool raw =
        !database && analysis.files.stepTrace.empty() && !analysis.files.stepTraceRaw.empty();
    analysis.origin = {database, raw, analysis.kernelsFromTrace, analysis.stepsFromTrace};
    analysis.overview = RankOverviewFigures(OverviewInputsOf(analysis, analysis.origin));
    if (model) analysis.overlapTracks = OverviewFromOverlapTracks(*model);
    analysis.advice = AdviseOnOverview(analysis.overview, TopComputeTypes(analysis.operators, 3));
    if (analysis.communication)
        analysis.communicationTotals = SumCommunication(analysis.communication->ops);
    if (analysis.steps) {
        analysis.stepSpans = model ? PlaceSteps(*analysis.steps, *model)
                                   : std::vector<StepSpan>(analysis.steps->rows.size());
    }
    DataLoaderRecord loader =
        model ? AnalyzeDataLoader(*model, analysis.trace.get()) : DataLoaderRecord{};
    // The step table's Preparing column is the step interval itself, the first figure of the
    // tuning method, with or without the files that say why it is long.
    const bool intervals = analysis.steps && analysis.steps->hasColumn[kStepPreparing];
    if (analysis.files.dataPreparation.Any() || loader.Found() || intervals) {
        const char* table = database                  ? "the database's steps"
                            : analysis.stepsFromTrace ? "the trace's ProfilerSteps (from each "
                                                        "step's start to its first device activity)"
                            : raw                     ? "step_trace_raw"
                                                      : "step_trace_time.csv";
        auto preparation = std::make_shared<DataPreparation>(AnalyzeDataPreparation(
            analysis.files.dataPreparation, analysis.steps ? &*analysis.steps : nullptr, table));
        preparation->loader = std::move(loader);
        analysis.problems.insert(analysis.problems.end(), preparation->problems.begin(),
                                 preparation->problems.end());
        analysis.dataPreparation = std::move(preparation);
    }
    if (analysis.files.flops.Any()) {
        auto flops = std::make_shared<RankFlops>(ReadRankFlops(analysis.files.flops));
        analysis.problems.insert(analysis.problems.end(), flops->problems.begin(),
                                 flops->problems.end());
        analysis.flops = std::move(flops);
    }
}

}  // namespace marey
