#include "compare/Comparison.hpp"

#include <algorithm>
#include <thread>

namespace marey {
namespace {

std::optional<TimeWindow> SharedStepWindow(const RankSummary& summary, const std::string& step) {
    const SummaryStep* found = summary.FindStep(step);
    if (!found || !found->placed) return std::nullopt;
    return TimeWindow{found->startNs, found->endNs, step};
}

std::optional<TimeNs> OccurrenceStart(const LoadedRank& side, const AlignmentRequest& request) {
    if (request.by != AlignBy::kOperator) return std::nullopt;
    return OperatorOccurrenceStart(*side.analysis, side.model.get(), request.operatorName,
                                   request.occurrence);
}

}  // namespace

Comparison CompareRanks(const LoadedRank& a, const LoadedRank& b,
                        const ComparisonOptions& options) {
    Comparison comparison;
    comparison.a = SummarizeRank(*a.analysis, a.model.get(), a.path);
    comparison.b = SummarizeRank(*b.analysis, b.model.get(), b.path);
    AlignmentRequest request = options.align;
    if (!options.stepA.empty()) {
        const std::string stepB = options.stepB.empty() ? options.stepA : options.stepB;
        const auto windowA = SharedStepWindow(comparison.a, options.stepA);
        const auto windowB = SharedStepWindow(comparison.b, stepB);
        if (windowA && windowB) {
            comparison.a = SummarizeRank(*a.analysis, a.model.get(), a.path, windowA);
            comparison.b = SummarizeRank(*b.analysis, b.model.get(), b.path, windowB);
            request = AlignmentRequest{};
            request.step = options.stepA;
            request.stepB = stepB;
        } else {
            std::string missing;
            if (!windowA) missing = "step " + options.stepA + " of A (" + a.path + ")";
            if (!windowB)
                missing +=
                    (missing.empty() ? "step " : " and step ") + stepB + " of B (" + b.path + ")";
            comparison.missingSteps = missing;
            comparison.note = missing + " has no ProfilerStep slice: the whole runs are compared";
        }
    }
    const Alignment alignment =
        AlignSummaries(comparison.a, comparison.b, request, OccurrenceStart(a, request),
                       OccurrenceStart(b, request));
    comparison.diff = DiffSummaries(comparison.a, comparison.b, alignment);
    return comparison;
}

}  // namespace marey
