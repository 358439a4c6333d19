#pragma once
// Two ranks or two traces compared: operators by name and by type, the overview, per-step times
// and communication operators side by side, and the offset that puts B's clock on A's (clocks of
// different machines do not agree, so the two are aligned on a step or an operator occurrence).
// Works on summaries only: headless, and as fast as the summaries are small.
#include <optional>
#include <string>
#include <vector>

#include "compare/RankSummary.hpp"

namespace marey {

enum class AlignBy { kStep, kOperator, kStart };
const char* AlignByName(AlignBy by);

// What a person asked to align on; an empty step means the first step both sides have.
struct AlignmentRequest {
    AlignBy by = AlignBy::kStep;
    std::string step;          // kStep
    std::string stepB;         // kStep: B's step, when B's step N is compared with A's step M
    std::string operatorName;  // kOperator
    uint64_t occurrence = 0;   // kOperator: which run of it, 0-based
};

struct Alignment {
    AlignBy by = AlignBy::kStart;  // what was used: kStart when nothing asked for was found
    std::string step;              // kStep: the step used
    std::string stepB;             // kStep: B's step, the same as 'step' unless asked otherwise
    std::string operatorName;      // kOperator
    uint64_t occurrence = 0;
    TimeNs offsetNs = 0;  // added to B's clock, puts it on A's
    std::string note;     // why a request fell back to the trace starts, empty otherwise
};

// Alignment on the request, from the two summaries' steps and the operator starts given (null
// when the request is not by operator or a side has no such occurrence). Falls back to the first
// step both have, then to the two trace starts, and says why in 'note'.
Alignment AlignSummaries(const RankSummary& a, const RankSummary& b,
                         const AlignmentRequest& request,
                         std::optional<TimeNs> operatorStartA = std::nullopt,
                         std::optional<TimeNs> operatorStartB = std::nullopt);

struct OperatorDiff {
    std::string name;  // operator name, or type in the by-type table
    std::string type;
    uint64_t countA = 0, countB = 0;
    TimeNs totalA = 0, totalB = 0;
    TimeNs firstStartA = -1, firstStartB = -1;  // absolute on each side's clock; -1 when absent
    TimeNs DiffNs() const { return totalB - totalA; }
    // total B / total A; nullopt when A has none.
    std::optional<double> Ratio() const;
    TimeNs AverageA() const { return countA ? totalA / static_cast<TimeNs>(countA) : 0; }
    TimeNs AverageB() const { return countB ? totalB / static_cast<TimeNs>(countB) : 0; }
};

struct StepDiff {
    std::string step;
    bool inA = false, inB = false;
    TimeNs aNs = 0, bNs = 0;  // SummaryStep::DurationNs of each side
    bool hasPhases = false;   // both sides have step_trace_time.csv rows for it
    std::array<TimeNs, kStepPhaseCount> phasesA{}, phasesB{};
    TimeNs DiffNs() const { return bNs - aNs; }
};

// Where a step's difference lies among the phases the profiler recorded for it on both sides:
// the phases that make up the step's wall time (computing, communication not overlapped, free)
// and the time before it (preparing).
struct StepDifferencePlace {
    enum Kind {
        kNone,       // no difference to place (under 1 % of A's step and under 10 µs)
        kNoPhases,   // a side has no profiler row for the step: nothing recorded to place it in
        kOnePhase,   // one phase changes by at least half of the difference, the same way
        kSpread,     // the phases change by most of it together, none by half
        kUnrecorded  // the phases change by less than half of it: the rest lies outside them
    };
    Kind kind = kNone;
    int phase = -1;       // kOnePhase: the StepPhase; otherwise the largest change's
    TimeNs phaseNs = 0;   // that phase's change, B - A
    TimeNs phasesNs = 0;  // the listed phases' changes summed
    std::string text;     // "free +3.000 ms of +3.551 ms", "no recorded phase: …"
    // kOnePhase, for a narrow table cell: the change first, so that a cut keeps it
    // ("+3.000 ms free", "-5.604 ms communication not overlapped").
    std::string shortText;
};

// The place of 'step''s difference by the rule of StepDifferencePlace. O(phases).
StepDifferencePlace PlaceStepDifference(const StepDiff& step);

struct CommunicationDiff {
    std::string step, name;
    bool inA = false, inB = false;
    TimeNs elapseA = 0, elapseB = 0, transitA = 0, transitB = 0, waitA = 0, waitB = 0, idleA = 0,
           idleB = 0;
    TimeNs DiffNs() const { return elapseB - elapseA; }
};

struct TraceDiff {
    Alignment alignment;
    std::vector<OperatorDiff> operators;  // by |diff|, largest first
    std::vector<OperatorDiff> types;      // by |diff|, largest first
    OverviewFigures overviewA, overviewB;
    std::vector<StepDiff> steps;                   // A's step order, then B's steps A lacks
    std::vector<CommunicationDiff> communication;  // by |elapse diff|, largest first
};

// The diff of two summaries. O(n log n) in operators, steps and communication operators.
TraceDiff DiffSummaries(const RankSummary& a, const RankSummary& b, const Alignment& alignment);

}  // namespace marey
