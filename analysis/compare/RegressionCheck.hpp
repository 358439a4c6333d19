#pragma once
// `marey check`: is the candidate run slower than the baseline? Each figure (step time, the
// overview phases, every operator by name and by type, every communication operator, the step
// interval and the data loader's time) is taken as a series of per-step values on each side, and
// a change counts only when it passes the rule's threshold and the runs' own step-to-step spread:
//   value     the median per step (the mean per step when a side's median is 0: an operator that
//             runs in fewer than half of the steps)
//   change    candidate value - baseline value, and in percent of the baseline value
//   noise     3 robust standard errors of that change: with steps of the same names on both
//             sides, 1.4826 × MAD(per-step differences) / √n; else
//             1.4826 × √(MAD(a)² / na + MAD(b)² / nb)
//   counts    change ≥ threshold % (rounded to 0.1 %) and change > noise; operators only when they
//             take at least the minimum time per step on one side (default 1 % of the baseline's
//             median step), phases and input figures only when their change is at least that. A
//             figure only the candidate has is a regression of its whole value; one only the
//             baseline has is an improvement. Improvements mirror regressions. A new or vanished
//             operator under the minimum time is listed as not judged.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "compare/CheckRules.hpp"
#include "compare/RankSummary.hpp"
#include "core/Status.hpp"
#include "rank/LoadedRank.hpp"

namespace marey {

// Per-step values of one group of figures: series[name][i] is for steps[i].
struct CheckSeriesGroup {
    std::vector<std::string> steps;
    std::map<std::string, std::vector<TimeNs>> series;
};

// One run as the check reads it. A group without steps (a trace with no ProfilerStep slices, no
// step_trace_time.csv) has one pseudo-step "run" holding the whole run's totals.
struct CheckSide {
    std::string path;
    CheckSeriesGroup stepTime;  // one series, "step time"
    CheckSeriesGroup phases;    // computing, communication_not_overlapped, overlapped, free
    CheckSeriesGroup operators, types, communication;
    // The input's figures per step (rank/DataPreparation.hpp): "step_interval", the time the
    // device waited between steps for its batch (MindSpore), and "data_loader", the time in
    // PyTorch's loader calls (rank/DataLoaderWait.hpp); each only where the rank records it.
    CheckSeriesGroup input;
    // The critical path of each step by what bounds it (path/CriticalPath.hpp): "cpu",
    // "compute", "communication", "launch", "kernel_kernel". Filled only when asked for.
    CheckSeriesGroup criticalPath;
};

// The series of a loaded rank: steps and phases from its summary, operators per placed step,
// communication operators per step with their instance numbers dropped ("hcom_allReduce__586_0_1"
// is "hcom_allReduce"), and HCCL's kernels among the operators by name likewise, since the
// profiler numbers them differently in each recording. 'withCriticalPath': each step's critical
// path too (a rule names one of its figures), where the rank has a timeline. O(slices + kernel
// rows).
CheckSide MakeCheckSide(const LoadedRank& rank, bool withCriticalPath = false);

// True for HCCL's kernels and their types ("hcom_allReduce__586_0_1", "hcom_allReduce_"): their
// time includes waiting for the other ranks.
bool IsCommunicationOperator(const std::string& name);

// The names of the input figures (CheckSide::input), as rules and reports write them.
inline constexpr const char* kStepIntervalFigure = "step_interval";
inline constexpr const char* kDataLoaderFigure = "data_loader";

struct CheckFinding {
    CheckKind kind = CheckKind::kStep;
    std::string name;                        // "step time", a phase, an operator's name or type
    TimeNs baselineNs = 0, candidateNs = 0;  // value per step of each side
    TimeNs changeNs = 0;                     // candidate - baseline
    double changePercent = 0;                // NaN when the baseline has none (a new figure)
    bool added = false, removed = false;     // only on the candidate's side, only on the baseline's
    double maxPercent = 0;                   // the threshold that applied
    TimeNs noiseNs = 0;                      // what the change had to exceed
};

// One figure's per-step values on both sides as they were compared, for plots. Paired: the steps
// both sides have, in the baseline's order, the same names on both sides; else each side's own
// steps in order.
struct CheckSeriesPair {
    CheckKind kind = CheckKind::kStep;
    std::string name;  // "step time", an operator's name
    bool paired = false;
    std::vector<std::string> baselineSteps, candidateSteps;
    std::vector<TimeNs> baselineNs, candidateNs;  // one per step of the same side
};

struct CheckResult {
    std::string baselinePath, candidatePath;
    std::vector<CheckFinding> regressions;   // largest change first
    std::vector<CheckFinding> improvements;  // largest saving first
    // Operators (by name, and communication operators) only one side has that were left out only
    // because they take less than the minimum time per step: said, never judged. Largest first.
    std::vector<CheckFinding> notJudged;
    size_t stepsCompared = 0;    // steps of the step-time series compared (paired, or baseline's)
    bool paired = false;         // the step times were paired by step name
    std::string alignedStep;     // the first step both sides have; empty when none
    TimeNs baselineStepNs = 0;   // the baseline's median step time; 0 without steps
    TimeNs candidateStepNs = 0;  // the candidate's, over the same steps when paired
    TimeNs minTimeNs = 0;        // the minimum change that applied
    size_t figuresCompared = 0;
    bool criticalPathCompared = false;  // a rule named a figure of the critical path, compared
    CheckSeriesPair stepTimes;          // the step-time series compared; empty without steps
    // The largest regression of one operator by name (else of a communication operator): its
    // per-step times. Unset when no operator regressed.
    std::optional<CheckSeriesPair> worstOperator;
    // What is wrong with either input (compare/RunDamage.hpp), when it was checked anyway: set
    // by the caller. A damaged input fails the check whatever its figures say.
    std::vector<std::string> damage;
    bool Failed() const { return !regressions.empty() || !damage.empty(); }
};

// Compares the two sides under 'rules'. Fails, saying which, when the sides have nothing in common
// to compare. O(figures × steps).
Result<CheckResult> CheckSides(const CheckSide& baseline, const CheckSide& candidate,
                               const CheckRules& rules);

}  // namespace marey
