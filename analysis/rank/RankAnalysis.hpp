#pragma once
// Everything the single-rank views show, read from a rank folder's files and its loaded trace:
// overview with advice, operators, steps and communication. Built once, off the UI thread; the
// views only read it.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "load/CommunicationJson.hpp"
#include "load/KernelTable.hpp"
#include "load/MemoryCsv.hpp"
#include "load/OpStatisticCsv.hpp"
#include "load/RankDirectory.hpp"
#include "load/RankTables.hpp"
#include "load/StepTraceCsv.hpp"
#include "model/TraceModel.hpp"
#include "rank/CommunicationStats.hpp"
#include "rank/OperatorStats.hpp"
#include "rank/RankOverview.hpp"
#include "trace/TraceAnalyses.hpp"

namespace marey {

struct DataPreparation;  // rank/DataPreparation.hpp
struct RankFlops;        // rank/RankFlops.hpp

// Where a step of step_trace_time.csv lies on the trace's clock: the host's "ProfilerStep#N" slice.
struct StepSpan {
    bool found = false;
    TimeNs startNs = 0, endNs = 0;  // absolute, as in the trace
};

// The rank's tables (RankTables: kernels, steps, communication, …, problems) as its importer
// filled them, and what is computed from them.
struct RankAnalysis : RankTables {
    RankFiles files;
    // The profiler database its tables were read from (files.profilerDb); empty when they were
    // read from the text export's files.
    std::string database;

    // The rank's overview by the one rule (RankOverviewFigures), and the profiler's own Overlap
    // Analysis tracks of its trace (another figure, named apart; valid = false without them).
    OverviewFigures overview;
    OverviewFigures overlapTracks;
    // Where its tables came from, which chose the overview's inputs (OverviewInputsOf): a part
    // of the run (one step) is summarised by the same rule.
    RankTableOrigin origin;
    std::vector<Advice> advice;
    OperatorTables operators;
    CommunicationTotals communicationTotals;
    std::vector<StepSpan> stepSpans;  // one per steps->rows
    // The analyses of the trace's device activities (docs/trace-analyses.md); null without a
    // Chrome JSON trace. When the folder has no kernel_details.csv (or step_trace_time.csv),
    // 'kernels' ('steps') were made from them, and the flags say so.
    std::shared_ptr<const TraceAnalyses> trace;
    bool kernelsFromTrace = false, stepsFromTrace = false;
    // The data preparation (MindSpore's MindData files); null when the folder holds none.
    std::shared_ptr<const DataPreparation> dataPreparation;
    // MindSpore's FLOPs files (flops_summary_N.json, flops_N.txt, flops_scope_N.json); null
    // when the folder holds none.
    std::shared_ptr<const RankFlops> flops;
    // The trace's first timestamp, where the timeline counts from: every view shows its times
    // from the same origin. traceStartNs is 0 without a trace.
    bool hasTrace = false;
    TimeNs traceStartNs = 0;
};

// Reads every analysis file 'files' names, then computes the summaries. 'model' (may be null) is
// the rank's loaded trace: its Overlap Analysis tracks are preferred for the overview, and its
// ProfilerStep slices place the steps. Never fails: what cannot be read is in 'problems', and the
// views say which file is missing. 'progress' (may be null) hears which part runs.
// 'cached' (may be null): the model's device analyses as the index cache kept them, used instead
// of computing them again.
RankAnalysis AnalyzeRank(const RankFiles& files, const TraceModel* model,
                         LoadProgress* progress = nullptr,
                         std::shared_ptr<TraceAnalyses> cached = nullptr);

// Analyses the device activities of 'model' into analysis.trace and, where the folder lacks
// them, makes the kernel, step and communication tables from them. AnalyzeRank calls it before
// SummarizeRank.
void AnalyzeDeviceActivities(RankAnalysis& analysis, const TraceModel& model, unsigned threads,
                             LoadProgress* progress = nullptr,
                             std::shared_ptr<TraceAnalyses> cached = nullptr);

// The summaries of an analysis whose tables are filled (from files or a database): operators,
// overview with advice, communication totals, step places. AnalyzeRank ends with it.
void SummarizeRank(RankAnalysis& analysis, const TraceModel* model);

}  // namespace marey
