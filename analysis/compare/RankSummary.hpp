#pragma once
// The small summary of one rank or trace that comparison (and later the cluster views) works on:
// operator totals by name and by type, the overview, every step with its place on the trace's
// clock and its phases, and the communication operators. Kilobytes, not the trace: a plain value
// that outlives the model it was made from.
#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/Ids.hpp"
#include "core/Time.hpp"
#include "load/StepTraceCsv.hpp"
#include "model/TraceModel.hpp"
#include "rank/RankAnalysis.hpp"
#include "rank/RankOverview.hpp"

namespace marey {

struct SummaryOperator {
    std::string name;  // operator name, or type in the by-type list
    std::string type;
    uint64_t count = 0;
    TimeNs totalNs = 0, minNs = 0, maxNs = 0;
    TimeNs firstStartNs = 0;  // absolute, on the rank's clock: where it first ran
};

struct SummaryStep {
    std::string step;               // "50" as in "ProfilerStep#50" and step_trace_time.csv
    bool placed = false;            // the trace has its ProfilerStep#N slice
    TimeNs startNs = 0, endNs = 0;  // absolute, when placed
    bool hasPhases = false;         // step_trace_time.csv has a row for it
    std::array<TimeNs, kStepPhaseCount> phases{};

    // The step's wall time: its ProfilerStep slice when placed, else computing + communication
    // not overlapped + free of step_trace_time.csv.
    TimeNs DurationNs() const;
};

struct SummaryCommunicationOp {
    std::string step, name;
    TimeNs startNs = 0;  // absolute; 0 when the file has no start
    TimeNs elapseNs = 0, transitNs = 0, waitNs = 0, syncNs = 0, idleNs = 0;
};

// An absolute time window on the rank's clock; operators and communication starting in
// [startNs, endNs) are kept.
struct TimeWindow {
    TimeNs startNs = 0, endNs = 0;
    std::string step;  // the step whose span it is, when it is one
    bool Contains(TimeNs t) const { return t >= startNs && t < endNs; }
};

struct RankSummary {
    std::string path;
    std::optional<RankId> rankId;  // none when neither profiler_info_N.json nor the folder says
    std::string operatorSource;    // "kernel_details.csv", "device activities" (made from the
                                   // trace), "Ascend Hardware slices", "all slices"
    std::vector<SummaryOperator> operators;  // by name, largest total first
    std::vector<SummaryOperator> types;      // by type, largest total first
    OverviewFigures overview;
    std::vector<SummaryStep> steps;  // in step order (numeric when the names are numbers)
    std::vector<SummaryCommunicationOp> communication;  // in file order, "Total Op Info" left out
    TimeNs firstNs = 0, lastNs = 0;                     // the trace's span; 0, 0 without a trace
    // Rows of the rank's step file that were damaged and left out (each one of its problems):
    // those steps are missing from what is compared.
    size_t stepRowsLeftOut = 0;

    // The step named 'step', or null.
    const SummaryStep* FindStep(const std::string& step) const;
    // What a comparison says of the rows left out: "its step file had 3 damaged rows, left out:
    // the steps compared are those read"; empty when none were.
    std::string StepRowsNote() const;
};

// Summarises a loaded rank. Operators come from kernel_details.csv when the folder has one, else
// from the trace's "Ascend Hardware" slices, else from every slice of the trace (a GPU or CPU
// trace). 'window' restricts operators and communication to one step's time, and the overview
// to that step (OverviewOfStep). 'model' may be null (a folder with no trace). O(slices + kernel
// rows).
RankSummary SummarizeRank(const RankAnalysis& analysis, const TraceModel* model,
                          const std::string& path,
                          const std::optional<TimeWindow>& window = std::nullopt);

// The rank's overview over the step of 'window', by the rule of its whole overview (the same
// inputs, OverviewInputsOf): the profiler's row for that step where the rank's overview comes
// from its steps, else its device tasks that start within the step. O(kernel rows + steps).
OverviewFigures OverviewOfStep(const RankAnalysis& analysis, const TimeWindow& window);

// Every operator's total in each of the placed 'steps' (SummaryStep::placed), by name and by
// type: byName[name][i] is its time in steps[i] (0 for a step that is not placed). A run counts in
// the step its start lies in; runs outside every step are left out. O(runs × log steps).
struct StepOperatorTotals {
    std::map<std::string, std::vector<TimeNs>> byName, byType;
};
StepOperatorTotals OperatorTotalsPerStep(const RankAnalysis& analysis, const TraceModel* model,
                                         const std::vector<SummaryStep>& steps);

// The absolute start of the 'occurrence'-th (0-based) run of operator 'name', in the same source
// SummarizeRank takes operators from; nullopt when there is none. O(n).
std::optional<TimeNs> OperatorOccurrenceStart(const RankAnalysis& analysis, const TraceModel* model,
                                              const std::string& name, uint64_t occurrence);

}  // namespace marey
