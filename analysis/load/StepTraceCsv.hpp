#pragma once
// step_trace_time.csv: per training step, how the device's time splits into computing,
// communication (overlapped or not), free time, and pipeline stage / bubble.
#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "core/Status.hpp"
#include "core/Time.hpp"

namespace marey {

enum StepPhase : int {
    kStepComputing,
    kStepCommNotOverlapped,
    kStepOverlapped,
    kStepCommunication,
    kStepFree,
    kStepStage,
    kStepBubble,
    kStepCommNotOverlappedExcludeReceive,
    kStepPreparing,
    kStepPhaseCount
};

// The header name of each phase column, as the profiler writes it.
extern const std::array<const char*, kStepPhaseCount> kStepPhaseColumns;
// The key of each phase in the JSON that `marey stats` writes ("free_ns", …).
extern const std::array<const char*, kStepPhaseCount> kStepPhaseJsonKeys;

struct StepRow {
    std::string step;  // the "Step" cell; empty when no schedule step was set
    std::array<TimeNs, kStepPhaseCount> ns{};  // absent columns read 0
    // msprof-analyze's cluster_step_trace_time.csv only: "rank" or "stage", and the rank id or
    // the stage's ranks ("(0, 1, 2, 3)"). Empty in a rank's own file.
    std::string type, index;
};

// A step's wall time as the profiler divides it: computing + communication not overlapped +
// free (what its Stage column holds without pipeline parallelism); Preparing lies before it.
TimeNs StepWallNs(const StepRow& row);

struct StepTrace {
    std::vector<StepRow> rows;
    std::array<bool, kStepPhaseCount> hasColumn{};
    std::vector<ImportProblem> problems;  // with line and column filled in

    // Sum of one phase over every step, ns.
    TimeNs Total(StepPhase phase) const;
};

// Reads the text of a step_trace_time.csv. Columns are found by header name (older files have no
// Preparing column). A row shorter than the header, with a cell that is not a duration (not a
// number, negative) or repeating an earlier row's step (for the same rank) is left out and
// reported with its line (and column). Fails only when the header has neither a Step nor a
// Computing column. O(rows log rows).
Result<StepTrace> ParseStepTraceCsv(std::string_view text, const std::string& name);

// Reads MindSpore's step_trace_raw_N_detail_time.csv (ticks of 10 ns): iteration_interval as
// Free, fp_and_bp as Computing, tail as Communication (Not Overlapped); MindInsight's average row
// ("-") is left out. A row of another width, a cell that is no duration, or a repeated step is
// named and left out. Fails only without a step_num column.
Result<StepTrace> ParseStepTraceRawCsv(std::string_view text, const std::string& name);

}  // namespace marey
