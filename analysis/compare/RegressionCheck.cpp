#include "compare/RegressionCheck.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>

#include "core/RobustStats.hpp"
#include "path/CriticalPath.hpp"
#include "rank/DataPreparation.hpp"

namespace marey {
namespace {

// [SECTION] The series of one side

constexpr const char* kRunStep = "run";

struct PhaseColumn {
    const char* name;
    StepPhase column;
    TimeNs OverviewFigures::*overview;
};
constexpr PhaseColumn kPhases[] = {
    {"computing", kStepComputing, &OverviewFigures::computingNs},
    {"communication_not_overlapped", kStepCommNotOverlapped, &OverviewFigures::commNotOverlappedNs},
    {"overlapped", kStepOverlapped, &OverviewFigures::commOverlappedNs},
    {"free", kStepFree, &OverviewFigures::freeNs},
};

// "hcom_allReduce__586_0_1" → "hcom_allReduce": one series for every run of a collective, which
// the profiler numbers per step.
std::string CommunicationKey(const std::string& name) {
    const size_t doubleUnderscore = name.find("__");
    if (doubleUnderscore != std::string::npos && doubleUnderscore > 0)
        return name.substr(0, doubleUnderscore);
    size_t end = name.size();
    while (end > 0 &&
           (std::isdigit(static_cast<unsigned char>(name[end - 1])) || name[end - 1] == '_'))
        --end;
    return end > 0 ? name.substr(0, end) : name;
}

void PhasesOf(const RankSummary& summary, CheckSeriesGroup& phases) {
    for (const SummaryStep& step : summary.steps) {
        if (!step.hasPhases) continue;
        phases.steps.push_back(step.step);
        for (const PhaseColumn& phase : kPhases)
            phases.series[phase.name].push_back(step.phases[phase.column]);
    }
    if (!phases.steps.empty() || !summary.overview.valid) return;
    // No step_trace_time.csv: the overview's totals, one sample.
    phases.steps = {kRunStep};
    for (const PhaseColumn& phase : kPhases)
        phases.series[phase.name] = {summary.overview.*phase.overview};
}

// An operator's series key: HCCL's kernels by their collective, as communication operators are,
// because the profiler numbers them per run ("hcom_allReduce__586_0_1" in one recording is
// "hcom_allReduce__868_0_1" in the next).
std::string OperatorKey(const std::string& name) {
    return IsCommunicationOperator(name) ? CommunicationKey(name) : name;
}

void OperatorsOf(const LoadedRank& rank, const RankSummary& summary, CheckSide& side) {
    std::vector<size_t> placed;
    for (size_t i = 0; i < summary.steps.size(); ++i)
        if (summary.steps[i].placed) placed.push_back(i);
    if (placed.empty()) {
        side.operators.steps = side.types.steps = {kRunStep};
        for (const SummaryOperator& op : summary.operators) {
            std::vector<TimeNs>& series = side.operators.series[OperatorKey(op.name)];
            series.resize(1, 0);
            series[0] += op.totalNs;
        }
        for (const SummaryOperator& op : summary.types) side.types.series[op.name] = {op.totalNs};
        return;
    }
    StepOperatorTotals totals =
        OperatorTotalsPerStep(*rank.analysis, rank.model.get(), summary.steps);
    for (size_t i : placed) side.operators.steps.push_back(summary.steps[i].step);
    side.types.steps = side.operators.steps;
    auto keepPlaced = [&](const std::map<std::string, std::vector<TimeNs>>& all,
                          CheckSeriesGroup& group, bool byName) {
        for (const auto& [name, perStep] : all) {
            std::vector<TimeNs>& out = group.series[byName ? OperatorKey(name) : name];
            out.resize(placed.size(), 0);
            for (size_t k = 0; k < placed.size(); ++k) out[k] += perStep[placed[k]];
        }
    };
    keepPlaced(totals.byName, side.operators, true);
    keepPlaced(totals.byType, side.types, false);
}

void CommunicationOf(const RankSummary& summary, CheckSeriesGroup& group) {
    std::unordered_map<std::string, size_t> stepIndex;
    for (const SummaryCommunicationOp& op : summary.communication) {
        const std::string step = op.step.empty() ? kRunStep : op.step;
        auto [it, inserted] = stepIndex.emplace(step, group.steps.size());
        if (inserted) group.steps.push_back(step);
    }
    for (const SummaryCommunicationOp& op : summary.communication) {
        std::vector<TimeNs>& series = group.series[CommunicationKey(op.name)];
        series.resize(group.steps.size(), 0);
        series[stepIndex.at(op.step.empty() ? kRunStep : op.step)] += op.elapseNs;
    }
}

// The step interval of each step that has one, and the data loader's time in each ProfilerStep:
// read from the rank's data preparation, where they are computed.
void InputOf(const RankAnalysis& analysis, CheckSeriesGroup& group) {
    if (!analysis.dataPreparation) return;
    const DataPreparation& input = *analysis.dataPreparation;
    std::vector<std::pair<std::string, TimeNs>> intervals, loader;
    for (const DataPreparationStep& step : input.steps)
        if (step.intervalNs >= 0) intervals.emplace_back(step.step, step.intervalNs);
    for (const LoaderStep& step : input.loader.steps) loader.emplace_back(step.step, step.loaderNs);
    // One step list for the group: the sources rarely meet (MindSpore's files, PyTorch's trace);
    // when both do, a step missing from one series reads 0 there.
    std::map<std::string, size_t> index;
    for (const auto* series : {&intervals, &loader})
        for (const auto& [step, ns] : *series)
            if (index.emplace(step, group.steps.size()).second) group.steps.push_back(step);
    auto fill = [&](const char* name, const std::vector<std::pair<std::string, TimeNs>>& series) {
        if (series.empty()) return;
        std::vector<TimeNs>& out = group.series[name];
        out.assign(group.steps.size(), 0);
        for (const auto& [step, ns] : series) out[index.at(step)] += ns;
    };
    fill(kStepIntervalFigure, intervals);
    fill(kDataLoaderFigure, loader);
}

// Each step's critical path by bound kind; a trace without steps gives one "run" of its whole.
void CriticalPathOf(const LoadedRank& rank, CheckSeriesGroup& out) {
    if (!rank.model || !rank.analysis->trace || rank.analysis->trace->ranks.empty()) return;
    const TraceAnalyses& analyses = *rank.analysis->trace;
    const uint32_t group = analyses.ranks.front().group;
    std::vector<CriticalPath> paths = CriticalPathsOfSteps(*rank.model, analyses, group);
    if (paths.empty()) {
        paths.push_back(*CriticalPathOfStep(*rank.model, analyses, group));
        paths.back().step = kRunStep;
    }
    for (const CriticalPath& path : paths) {
        out.steps.push_back(path.step);
        for (int k = 0; k < kBoundKindCount; ++k)
            out.series[BoundKindName(static_cast<BoundKind>(k))].push_back(
                path.boundNs[static_cast<size_t>(k)]);
    }
}

}  // namespace

bool IsCommunicationOperator(const std::string& name) {
    return name.rfind("hcom_", 0) == 0;
}

CheckSide MakeCheckSide(const LoadedRank& rank, bool withCriticalPath) {
    const RankSummary summary = SummarizeRank(*rank.analysis, rank.model.get(), rank.path);
    CheckSide side;
    side.path = rank.path;
    for (const SummaryStep& step : summary.steps) {
        side.stepTime.steps.push_back(step.step);
        side.stepTime.series["step time"].push_back(step.DurationNs());
    }
    if (summary.steps.empty() && summary.lastNs > summary.firstNs) {
        side.stepTime.steps = {kRunStep};
        side.stepTime.series["step time"] = {summary.lastNs - summary.firstNs};
    }
    PhasesOf(summary, side.phases);
    OperatorsOf(rank, summary, side);
    CommunicationOf(summary, side.communication);
    InputOf(*rank.analysis, side.input);
    if (withCriticalPath) CriticalPathOf(rank, side.criticalPath);
    return side;
}

namespace {

// [SECTION] Comparing two series

// Which steps of each side are compared: the steps both have, by name, paired; else all of each.
struct StepPairing {
    std::vector<size_t> a, b;
    bool paired = false;
};

StepPairing PairSteps(const CheckSeriesGroup& a, const CheckSeriesGroup& b) {
    StepPairing pairing;
    std::unordered_map<std::string, size_t> inB;
    for (size_t j = 0; j < b.steps.size(); ++j) inB.emplace(b.steps[j], j);
    for (size_t i = 0; i < a.steps.size(); ++i) {
        const auto found = inB.find(a.steps[i]);
        if (found == inB.end()) continue;
        pairing.a.push_back(i);
        pairing.b.push_back(found->second);
    }
    pairing.paired = !pairing.a.empty();
    if (pairing.paired) return pairing;
    for (size_t i = 0; i < a.steps.size(); ++i) pairing.a.push_back(i);
    for (size_t j = 0; j < b.steps.size(); ++j) pairing.b.push_back(j);
    return pairing;
}

std::vector<double> Pick(const std::vector<TimeNs>* series, const std::vector<size_t>& steps) {
    std::vector<double> values;
    for (size_t i : steps) values.push_back(series ? static_cast<double>((*series)[i]) : 0.0);
    return values;
}

double Mean(const std::vector<double>& values) {
    double sum = 0;
    for (double v : values) sum += v;
    return values.empty() ? 0 : sum / static_cast<double>(values.size());
}

struct SeriesChange {
    double baseline = 0, candidate = 0, noise = 0;
    double totalA = 0, totalB = 0;
};

// The values, change and noise of one figure as the header says.
SeriesChange CompareSeries(std::vector<double> a, std::vector<double> b, bool paired) {
    SeriesChange change;
    for (double v : a) change.totalA += v;
    for (double v : b) change.totalB += v;
    std::vector<double> differences;
    if (paired)
        for (size_t i = 0; i < a.size(); ++i) differences.push_back(b[i] - a[i]);
    const double meanA = Mean(a), meanB = Mean(b);
    std::vector<double> sortedA = a, sortedB = b;
    const RobustSpread spreadA = MedianAndMad(sortedA), spreadB = MedianAndMad(sortedB);
    const bool medians = spreadA.median > 0 && spreadB.median > 0;
    change.baseline = medians ? spreadA.median : meanA;
    change.candidate = medians ? spreadB.median : meanB;
    constexpr double kSigmaPerMad = 1.4826, kStandardErrors = 3;
    double standardError = 0;
    if (paired && !differences.empty()) {
        standardError = kSigmaPerMad * MedianAndMad(differences).mad /
                        std::sqrt(static_cast<double>(differences.size()));
    } else if (!a.empty() && !b.empty()) {
        const double sa = kSigmaPerMad * spreadA.mad, sb = kSigmaPerMad * spreadB.mad;
        standardError = std::sqrt(sa * sa / static_cast<double>(a.size()) +
                                  sb * sb / static_cast<double>(b.size()));
    }
    change.noise = kStandardErrors * standardError;
    return change;
}

struct Verdicts {
    std::vector<CheckFinding> regressions, improvements, notJudged;
};

// Compares every series of one group and files what counts.
void CheckGroup(CheckKind kind, const CheckSeriesGroup& a, const CheckSeriesGroup& b,
                const CheckRules& rules, TimeNs minTimeNs, Verdicts& out, size_t* compared) {
    if (a.steps.empty() || b.steps.empty()) return;
    const StepPairing pairing = PairSteps(a, b);
    std::map<std::string, std::pair<const std::vector<TimeNs>*, const std::vector<TimeNs>*>> all;
    for (const auto& [name, series] : a.series) all[name].first = &series;
    for (const auto& [name, series] : b.series) all[name].second = &series;
    for (const auto& [name, sides] : all) {
        // The critical path's figures are checked only where a rule names them.
        if (kind == CheckKind::kCriticalPath && !rules.Names(kind, name)) continue;
        ++*compared;
        const SeriesChange change = CompareSeries(Pick(sides.first, pairing.a),
                                                  Pick(sides.second, pairing.b), pairing.paired);
        CheckFinding finding;
        finding.kind = kind;
        finding.name = name;
        finding.baselineNs = static_cast<TimeNs>(std::llround(change.baseline));
        finding.candidateNs = static_cast<TimeNs>(std::llround(change.candidate));
        finding.changeNs = finding.candidateNs - finding.baselineNs;
        finding.added = change.totalA == 0 && change.totalB > 0;
        finding.removed = change.totalA > 0 && change.totalB == 0;
        finding.changePercent = finding.baselineNs > 0
                                    ? 100.0 * static_cast<double>(finding.changeNs) /
                                          static_cast<double>(finding.baselineNs)
                                    : std::numeric_limits<double>::quiet_NaN();
        finding.maxPercent = rules.MaxPercentFor(kind, name);
        finding.noiseNs = static_cast<TimeNs>(std::llround(change.noise));
        // Small operators are left out whatever their change: a 2 µs operator that doubles does
        // not make a step slower. A phase is a part of the step: its change must be large; so
        // must the input's, which can go from nothing to a few microseconds.
        const TimeNs size = kind == CheckKind::kPhase || kind == CheckKind::kInput
                                ? std::llabs(finding.changeNs)
                                : std::max(finding.baselineNs, finding.candidateNs);
        if (kind != CheckKind::kStep && size < minTimeNs) {
            // A new or vanished operator is a change of the program, however small: named.
            const bool byName = kind == CheckKind::kOperator || kind == CheckKind::kCommunication;
            if (byName && size > 0 && (finding.added || finding.removed))
                out.notJudged.push_back(finding);
            continue;
        }
        const double roundedPercent = std::round(std::fabs(finding.changePercent) * 10) / 10;
        const bool large = finding.added || finding.removed ||
                           (roundedPercent >= finding.maxPercent &&
                            std::fabs(static_cast<double>(finding.changeNs)) > change.noise);
        if (!large || finding.changeNs == 0) continue;
        (finding.changeNs > 0 ? out.regressions : out.improvements).push_back(finding);
    }
}

// The compared values of the series 'name' of one group, for plots; a side without the series
// has zeros in its steps.
CheckSeriesPair SeriesPairOf(CheckKind kind, const std::string& name, const CheckSeriesGroup& a,
                             const CheckSeriesGroup& b) {
    CheckSeriesPair out;
    out.kind = kind;
    out.name = name;
    if (a.steps.empty() || b.steps.empty()) return out;
    const StepPairing pairing = PairSteps(a, b);
    out.paired = pairing.paired;
    const auto inA = a.series.find(name), inB = b.series.find(name);
    for (size_t i : pairing.a) {
        out.baselineSteps.push_back(a.steps[i]);
        out.baselineNs.push_back(inA != a.series.end() ? inA->second[i] : 0);
    }
    for (size_t j : pairing.b) {
        out.candidateSteps.push_back(b.steps[j]);
        out.candidateNs.push_back(inB != b.series.end() ? inB->second[j] : 0);
    }
    return out;
}

// The per-step times of the largest operator regression, else of the largest communication one.
std::optional<CheckSeriesPair> WorstOperatorOf(const std::vector<CheckFinding>& regressions,
                                               const CheckSide& a, const CheckSide& b) {
    for (const CheckKind kind : {CheckKind::kOperator, CheckKind::kCommunication})
        for (const CheckFinding& finding : regressions) {
            if (finding.kind != kind) continue;
            return kind == CheckKind::kOperator
                       ? SeriesPairOf(kind, finding.name, a.operators, b.operators)
                       : SeriesPairOf(kind, finding.name, a.communication, b.communication);
        }
    return std::nullopt;
}

}  // namespace

Result<CheckResult> CheckSides(const CheckSide& baseline, const CheckSide& candidate,
                               const CheckRules& rules) {
    CheckResult result;
    result.baselinePath = baseline.path;
    result.candidatePath = candidate.path;
    if (!baseline.stepTime.steps.empty() && !candidate.stepTime.steps.empty()) {
        const StepPairing pairing = PairSteps(baseline.stepTime, candidate.stepTime);
        result.paired = pairing.paired;
        result.stepsCompared = pairing.a.size();
        if (pairing.paired) result.alignedStep = baseline.stepTime.steps[pairing.a.front()];
        std::vector<double> steps = Pick(&baseline.stepTime.series.at("step time"), pairing.a);
        result.baselineStepNs = static_cast<TimeNs>(std::llround(MedianAndMad(steps).median));
        steps = Pick(&candidate.stepTime.series.at("step time"), pairing.b);
        result.candidateStepNs = static_cast<TimeNs>(std::llround(MedianAndMad(steps).median));
    }
    result.minTimeNs = rules.minTimeNs ? *rules.minTimeNs : result.baselineStepNs / 100;
    Verdicts verdicts;
    const std::pair<CheckKind, CheckSeriesGroup CheckSide::*> groups[] = {
        {CheckKind::kStep, &CheckSide::stepTime},
        {CheckKind::kPhase, &CheckSide::phases},
        {CheckKind::kOperator, &CheckSide::operators},
        {CheckKind::kType, &CheckSide::types},
        {CheckKind::kCommunication, &CheckSide::communication},
        {CheckKind::kInput, &CheckSide::input},
        {CheckKind::kCriticalPath, &CheckSide::criticalPath},
    };
    for (const auto& [kind, group] : groups) {
        const size_t before = result.figuresCompared;
        CheckGroup(kind, baseline.*group, candidate.*group, rules, result.minTimeNs, verdicts,
                   &result.figuresCompared);
        if (kind == CheckKind::kCriticalPath)
            result.criticalPathCompared = result.figuresCompared > before;
    }
    if (result.figuresCompared == 0)
        return Status::Error("nothing to compare: " + baseline.path + " and " + candidate.path +
                             " have no steps, overview phases, operators or communication "
                             "operators in common");
    auto bySize = [](const CheckFinding& x, const CheckFinding& y) {
        if (std::llabs(x.changeNs) != std::llabs(y.changeNs))
            return std::llabs(x.changeNs) > std::llabs(y.changeNs);
        return x.kind != y.kind ? x.kind < y.kind : x.name < y.name;
    };
    std::sort(verdicts.regressions.begin(), verdicts.regressions.end(), bySize);
    std::sort(verdicts.improvements.begin(), verdicts.improvements.end(), bySize);
    std::sort(verdicts.notJudged.begin(), verdicts.notJudged.end(), bySize);
    result.notJudged = std::move(verdicts.notJudged);
    result.regressions = std::move(verdicts.regressions);
    result.improvements = std::move(verdicts.improvements);
    result.stepTimes =
        SeriesPairOf(CheckKind::kStep, "step time", baseline.stepTime, candidate.stepTime);
    result.worstOperator = WorstOperatorOf(result.regressions, baseline, candidate);
    return result;
}

}  // namespace marey
