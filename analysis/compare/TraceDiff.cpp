#include "compare/TraceDiff.hpp"

#include <algorithm>
#include <cstdlib>
#include <unordered_map>

#include "core/TextFormat.hpp"

namespace marey {
namespace {

// Joins two lists by name: entries of A in order, then B's that A lacks.
std::vector<OperatorDiff> JoinOperators(const std::vector<SummaryOperator>& a,
                                        const std::vector<SummaryOperator>& b) {
    std::vector<OperatorDiff> rows;
    std::unordered_map<std::string, size_t> index;
    rows.reserve(a.size() + b.size());
    for (const SummaryOperator& op : a) {
        index.emplace(op.name, rows.size());
        OperatorDiff row;
        row.name = op.name;
        row.type = op.type;
        row.countA = op.count;
        row.totalA = op.totalNs;
        row.firstStartA = op.firstStartNs;
        rows.push_back(std::move(row));
    }
    for (const SummaryOperator& op : b) {
        auto [it, inserted] = index.emplace(op.name, rows.size());
        if (inserted) {
            OperatorDiff row;
            row.name = op.name;
            row.type = op.type;
            rows.push_back(std::move(row));
        }
        OperatorDiff& row = rows[it->second];
        row.countB = op.count;
        row.totalB = op.totalNs;
        row.firstStartB = op.firstStartNs;
    }
    // Largest difference first; ties by name so that the order never depends on the input's.
    std::sort(rows.begin(), rows.end(), [](const OperatorDiff& x, const OperatorDiff& y) {
        const TimeNs dx = std::llabs(x.DiffNs()), dy = std::llabs(y.DiffNs());
        return dx != dy ? dx > dy : x.name < y.name;
    });
    return rows;
}

std::vector<StepDiff> JoinSteps(const RankSummary& a, const RankSummary& b) {
    std::vector<StepDiff> rows;
    std::unordered_map<std::string, size_t> index;
    for (const SummaryStep& step : a.steps) {
        index.emplace(step.step, rows.size());
        StepDiff row;
        row.step = step.step;
        row.inA = true;
        row.aNs = step.DurationNs();
        row.phasesA = step.phases;
        row.hasPhases = step.hasPhases;
        rows.push_back(std::move(row));
    }
    for (const SummaryStep& step : b.steps) {
        auto [it, inserted] = index.emplace(step.step, rows.size());
        if (inserted) rows.push_back(StepDiff{step.step});
        StepDiff& row = rows[it->second];
        row.inB = true;
        row.bNs = step.DurationNs();
        row.phasesB = step.phases;
        row.hasPhases = row.hasPhases && row.inA && step.hasPhases;
    }
    return rows;
}

std::vector<CommunicationDiff> JoinCommunication(const RankSummary& a, const RankSummary& b) {
    std::vector<CommunicationDiff> rows;
    std::unordered_map<std::string, size_t> index;
    auto key = [](const SummaryCommunicationOp& op) { return op.step + '\n' + op.name; };
    for (const SummaryCommunicationOp& op : a.communication) {
        auto [it, inserted] = index.emplace(key(op), rows.size());
        if (!inserted) continue;  // the same operator twice in one step: the first is compared
        CommunicationDiff row;
        row.step = op.step;
        row.name = op.name;
        row.inA = true;
        row.elapseA = op.elapseNs, row.transitA = op.transitNs, row.waitA = op.waitNs,
        row.idleA = op.idleNs;
        rows.push_back(std::move(row));
    }
    for (const SummaryCommunicationOp& op : b.communication) {
        auto [it, inserted] = index.emplace(key(op), rows.size());
        if (inserted) rows.push_back(CommunicationDiff{op.step, op.name});
        CommunicationDiff& row = rows[it->second];
        if (row.inB) continue;
        row.inB = true;
        row.elapseB = op.elapseNs, row.transitB = op.transitNs, row.waitB = op.waitNs,
        row.idleB = op.idleNs;
    }
    std::stable_sort(rows.begin(), rows.end(),
                     [](const CommunicationDiff& x, const CommunicationDiff& y) {
                         return std::llabs(x.DiffNs()) > std::llabs(y.DiffNs());
                     });
    return rows;
}

const SummaryStep* FirstCommonPlacedStep(const RankSummary& a, const RankSummary& b) {
    for (const SummaryStep& step : a.steps) {
        if (!step.placed) continue;
        const SummaryStep* other = b.FindStep(step.step);
        if (other && other->placed) return &step;
    }
    return nullptr;
}

}  // namespace

const char* AlignByName(AlignBy by) {
    switch (by) {
        case AlignBy::kStep:
            return "step";
        case AlignBy::kOperator:
            return "operator";
        default:
            return "start";
    }
}

std::optional<double> OperatorDiff::Ratio() const {
    if (totalA == 0) return std::nullopt;
    return static_cast<double>(totalB) / static_cast<double>(totalA);
}

Alignment AlignSummaries(const RankSummary& a, const RankSummary& b,
                         const AlignmentRequest& request, std::optional<TimeNs> operatorStartA,
                         std::optional<TimeNs> operatorStartB) {
    Alignment alignment;
    if (request.by == AlignBy::kOperator) {
        if (operatorStartA && operatorStartB) {
            alignment.by = AlignBy::kOperator;
            alignment.operatorName = request.operatorName;
            alignment.occurrence = request.occurrence;
            alignment.offsetNs = *operatorStartA - *operatorStartB;
            return alignment;
        }
        alignment.note = "operator " + request.operatorName + " run " +
                         std::to_string(request.occurrence + 1) + " is not on both sides";
    }
    if (request.by == AlignBy::kStep && !request.step.empty()) {
        const std::string& nameB = request.stepB.empty() ? request.step : request.stepB;
        const SummaryStep* stepA = a.FindStep(request.step);
        const SummaryStep* stepB = b.FindStep(nameB);
        if (stepA && stepB && stepA->placed && stepB->placed) {
            alignment.by = AlignBy::kStep;
            alignment.step = request.step;
            alignment.stepB = nameB;
            alignment.offsetNs = stepA->startNs - stepB->startNs;
            return alignment;
        }
        alignment.note =
            nameB == request.step
                ? "step " + request.step + " is not placed in both traces"
                : "step " + request.step + " of A or step " + nameB + " of B is not placed";
    }
    if (request.by != AlignBy::kStart) {
        if (const SummaryStep* step = FirstCommonPlacedStep(a, b)) {
            alignment.by = AlignBy::kStep;
            alignment.step = step->step;
            alignment.stepB = step->step;
            alignment.offsetNs = step->startNs - b.FindStep(step->step)->startNs;
            return alignment;
        }
        if (alignment.note.empty()) alignment.note = "no ProfilerStep#N slice is in both traces";
    }
    alignment.by = AlignBy::kStart;
    alignment.offsetNs = a.firstNs - b.firstNs;
    return alignment;
}

namespace {

// "+3.000 ms", "-46.000 µs".
std::string Signed(TimeNs ns) {
    return (ns < 0 ? "-" : "+") + FormatDuration(std::llabs(ns));
}

}  // namespace

StepDifferencePlace PlaceStepDifference(const StepDiff& step) {
    StepDifferencePlace place;
    if (!step.inA || !step.inB) return place;
    const TimeNs difference = step.DiffNs();
    if (std::llabs(difference) * 100 < step.aNs && std::llabs(difference) < 10'000) return place;
    if (!step.hasPhases) {
        place.kind = StepDifferencePlace::kNoPhases;
        place.text = "no recorded phase: the profiler's step rows are not on both sides";
        return place;
    }
    // The phases that add up to the step's time (StepWallNs) and the wait before it.
    constexpr StepPhase kPlaces[] = {kStepComputing, kStepCommNotOverlapped, kStepFree,
                                     kStepPreparing};
    const char* const kNames[] = {"computing", "communication not overlapped", "free", "preparing"};
    size_t largest = std::size(kPlaces);  // the largest change the same way as the step's
    for (size_t i = 0; i < std::size(kPlaces); ++i) {
        const TimeNs change = step.phasesB[kPlaces[i]] - step.phasesA[kPlaces[i]];
        place.phasesNs += change;
        if (change != 0 && (change > 0) == (difference > 0) &&
            std::llabs(change) > std::llabs(place.phaseNs))
            largest = i, place.phaseNs = change;
    }
    const std::string of = " of " + Signed(difference);
    if (largest == std::size(kPlaces)) {
        place.kind = StepDifferencePlace::kUnrecorded;
        place.text =
            "no recorded phase holds it: the phases change by " + Signed(place.phasesNs) + of;
        return place;
    }
    place.phase = kPlaces[largest];
    if (std::llabs(place.phaseNs) * 2 >= std::llabs(difference)) {
        place.kind = StepDifferencePlace::kOnePhase;
        place.text = std::string(kNames[largest]) + " " + Signed(place.phaseNs) + of;
        place.shortText = Signed(place.phaseNs) + " " + kNames[largest];
    } else if ((place.phasesNs > 0) == (difference > 0) &&
               std::llabs(place.phasesNs) * 2 >= std::llabs(difference)) {
        place.kind = StepDifferencePlace::kSpread;
        place.text = "spread over the phases (" + Signed(place.phasesNs) + of + "; largest " +
                     kNames[largest] + " " + Signed(place.phaseNs) + ")";
    } else {
        place.kind = StepDifferencePlace::kUnrecorded;
        place.text =
            "no recorded phase holds it: the phases change by " + Signed(place.phasesNs) + of;
    }
    return place;
}

TraceDiff DiffSummaries(const RankSummary& a, const RankSummary& b, const Alignment& alignment) {
    TraceDiff diff;
    diff.alignment = alignment;
    diff.operators = JoinOperators(a.operators, b.operators);
    diff.types = JoinOperators(a.types, b.types);
    diff.overviewA = a.overview;
    diff.overviewB = b.overview;
    diff.steps = JoinSteps(a, b);
    diff.communication = JoinCommunication(a, b);
    return diff;
}

}  // namespace marey
