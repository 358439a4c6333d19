#pragma once
// Where one rank's device time went: computing, communication hidden behind it or not, and free
// time; with advice for the three problem classes of the tuning method (compute, scheduling,
// communication), each quoting the figures that triggered it.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/Time.hpp"
#include "load/KernelTable.hpp"
#include "load/RankTables.hpp"
#include "load/StepTraceCsv.hpp"
#include "model/TraceModel.hpp"

namespace marey {

// How a rank's overview is made: two ranks' figures compare only when made the same way.
enum class OverviewRule : uint8_t { kNone, kSteps, kTasks, kOverlapTracks };
// "the sum of their steps", "computed from their tasks", "the profiler's overlap tracks"
const char* OverviewRuleText(OverviewRule rule);
// As a JSON value ("steps", "tasks", "overlap_tracks", ""), and back (kNone for any other).
const char* OverviewRuleKey(OverviewRule rule);
OverviewRule OverviewRuleOfKey(std::string_view key);

struct OverviewFigures {
    TimeNs computingNs = 0;          // device busy computing (overlapped or not)
    TimeNs pureComputingNs = 0;      // computing while no communication runs
    TimeNs commOverlappedNs = 0;     // communication hidden behind computing
    TimeNs commNotOverlappedNs = 0;  // communication alone
    TimeNs freeNs = 0;               // neither
    TimeNs totalNs = 0;              // pure computing + overlapped + not overlapped + free
    std::string source;              // where the figures come from, for the view
    OverviewRule rule = OverviewRule::kNone;
    bool valid = false;

    double Share(TimeNs ns) const {
        return totalNs > 0 ? static_cast<double>(ns) / static_cast<double>(totalNs) : 0.0;
    }
};

// From the trace's Overlap Analysis tracks (TrackRole::kOverlapAnalysis: Computing, Communication,
// Communication(Not Overlapped), Free), as the profiler computed it. valid = false without it.
// O(slices of that process).
OverviewFigures OverviewFromOverlapTracks(const TraceModel& model);

// Computed from kernel_details.csv: the union of compute tasks, the union of communication
// tasks, their intersection, and the gaps between the first start and the last end.
// O(n log n).
OverviewFigures OverviewFromKernels(const KernelTable& kernels);

// Where a step file counts a pipeline receive's wait (the Bubble phase): the Ascend profiler's
// step_trace_time.csv in communication not overlapped, MindInsight's step_trace_raw inside
// fp_and_bp (its computing column).
enum class BubbleCountedIn { kCommunication, kComputing };

// The overview from the step phases, summed over the steps. A receive's wait is communication
// not overlapped whatever the file: with kComputing it is taken out of computing and added there.
// source is left empty. O(steps).
OverviewFigures OverviewFromSteps(const std::vector<StepRow>& steps,
                                  BubbleCountedIn bubble = BubbleCountedIn::kCommunication);

// How the overview's source names each input, the same alone and in a cluster.
inline constexpr const char* kStepsOfStepTraceCsv = "step_trace_time.csv (the sum of its steps)";
inline constexpr const char* kStepsOfStepTraceRaw =
    "step_trace_raw (interval as free, forward and backward less the wait on Receive as "
    "computing, tail and the wait on Receive as communication not overlapped)";
inline constexpr const char* kStepsOfDatabase =
    "the database's steps (analysis.db's StepTraceTime, else STEP_TIME and the tasks)";
inline constexpr const char* kKernelsOfCsv = "kernel_details.csv (computed from the tasks)";
inline constexpr const char* kKernelsOfDatabase = "the database's tasks (computed from them)";
inline constexpr const char* kKernelsOfTrace =
    "the trace's device activities (computed from them; no kernel_details.csv)";

// What a rank's overview can be made from, and how to name each in the view.
struct RankOverviewInputs {
    // The steps the profiler wrote (step_trace_time.csv, a database's step table, MindInsight's
    // step_trace_raw): never steps made from a trace's device activities.
    const std::vector<StepRow>* profilerSteps = nullptr;
    BubbleCountedIn bubble = BubbleCountedIn::kCommunication;
    const char* stepsSource = kStepsOfStepTraceCsv;
    // The rank's device tasks: kernel_details.csv, a database's tasks or a trace's activities.
    const KernelTable* kernels = nullptr;
    const char* kernelsSource = kKernelsOfCsv;
};

// The one rule for a rank's overview, wherever it is shown (the Overview view, the cluster's
// Overview by rank and its findings, `stats --json` "overview" and "rank_figures", compare and
// check): the sum of the profiler's steps when they give a total; else the union of the rank's
// device tasks over their span (OverviewFromKernels). A rank opened alone and the same rank in
// its cluster read the same inputs, so they give the same figures. The profiler's own Overlap
// Analysis tracks (OverviewFromOverlapTracks) are another figure, shown under their own name.
OverviewFigures RankOverviewFigures(const RankOverviewInputs& inputs);

// Where a rank's tables came from: what decides which of them its overview is made from and how
// each is named.
struct RankTableOrigin {
    bool database = false;          // a profiler database (and its analysis.db)
    bool stepTraceRaw = false;      // MindSpore's step_trace_raw (its bubble counted in computing)
    bool kernelsFromTrace = false;  // the kernels were made from a trace's device activities
    bool stepsFromTrace = false;    // so were the steps: never used as the profiler's steps
};

// The inputs of RankOverviewFigures for a rank's tables: the one place that says which table a
// rank's overview comes from, for the rank opened alone (RankAnalysis) and inside its cluster
// (ClusterRank). 'tables' must outlive the inputs.
RankOverviewInputs OverviewInputsOf(const RankTables& tables, const RankTableOrigin& origin);

enum class AdviceKind { kCompute, kScheduling, kCommunication, kHealthy };

struct Advice {
    AdviceKind kind;
    std::string title;
    std::string text;  // quotes the figures that triggered it
};

// Thresholds: free time over 10 % of the total is a scheduling hint; communication not overlapped
// over 10 % a communication hint; computing over 60 % (with the other two small) a compute hint.
// 'topOperators' (name and share of compute, largest first) is quoted in the compute advice.
std::vector<Advice> AdviseOnOverview(
    const OverviewFigures& figures,
    const std::vector<std::pair<std::string, double>>& topOperators);

const char* AdviceKindName(AdviceKind kind);

}  // namespace marey
