#include "rank/RankOverview.hpp"

#include <algorithm>
#include <cstdio>

#include "core/TextFormat.hpp"
#include "core/TimeRanges.hpp"

namespace marey {
namespace {

// Length of the intersection of two sorted disjoint sets. O(a + b).
TimeNs IntersectionLength(const std::vector<TimeRange>& a, const std::vector<TimeRange>& b) {
    TimeNs total = 0;
    size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        const TimeNs start = std::max(a[i].startNs, b[j].startNs);
        const TimeNs end = std::min(a[i].endNs, b[j].endNs);
        if (end > start) total = SaturatingAdd(total, SaturatingSpan(start, end));
        (a[i].endNs < b[j].endNs) ? ++i : ++j;
    }
    return total;
}

TimeNs TrackTotal(const Track& track) {
    TimeNs total = 0;
    for (const Row& row : track.rows)
        if (row.kind == RowKind::kNested && row.depth == 0)
            for (size_t i = 0; i < row.size(); ++i)
                total = SaturatingAdd(total, SaturatingSpan(row.start[i], row.end[i]));
    return total;
}

}  // namespace

OverviewFigures OverviewFromOverlapTracks(const TraceModel& model) {
    OverviewFigures figures;
    for (const Process& process : model.processes) {
        TimeNs communication = 0;
        bool found = false;
        for (uint32_t trackIndex : process.tracks) {
            const Track& track = model.tracks[trackIndex];
            if (track.role != TrackRole::kOverlapAnalysis) continue;
            const std::string_view name = model.Name(track.name);
            if (name == "Computing")
                figures.computingNs = SaturatingAdd(figures.computingNs, TrackTotal(track)),
                found = true;
            else if (name == "Communication")
                communication = SaturatingAdd(communication, TrackTotal(track)), found = true;
            else if (name == "Communication(Not Overlapped)")
                figures.commNotOverlappedNs =
                    SaturatingAdd(figures.commNotOverlappedNs, TrackTotal(track)),
                found = true;
            else if (name == "Free")
                figures.freeNs = SaturatingAdd(figures.freeNs, TrackTotal(track)), found = true;
        }
        if (!found) continue;
        figures.commOverlappedNs = std::max<TimeNs>(0, communication - figures.commNotOverlappedNs);
        figures.pureComputingNs =
            std::max<TimeNs>(0, figures.computingNs - figures.commOverlappedNs);
        figures.totalNs = SaturatingAdd(
            SaturatingAdd(figures.computingNs, figures.commNotOverlappedNs), figures.freeNs);
        figures.source = "the trace's Overlap Analysis tracks";
        figures.rule = OverviewRule::kOverlapTracks;
        figures.valid = figures.totalNs > 0;
        break;
    }
    return figures;
}

OverviewFigures OverviewFromKernels(const KernelTable& kernels) {
    OverviewFigures figures;
    std::vector<TimeRange> compute, communication;
    TimeNs first = INT64_MAX, last = INT64_MIN;
    for (const KernelRow& row : kernels.rows) {
        const TimeRange range{row.startNs, row.startNs + row.durNs};
        (row.coreClass == CoreClass::kCommunication ? communication : compute).push_back(range);
        first = std::min(first, range.startNs);
        last = std::max(last, range.endNs);
    }
    if (kernels.rows.empty()) return figures;
    const std::vector<TimeRange> computeUnion = UniteRanges(std::move(compute));
    const std::vector<TimeRange> commUnion = UniteRanges(std::move(communication));
    figures.computingNs = RangesLength(computeUnion);
    figures.commOverlappedNs = IntersectionLength(computeUnion, commUnion);
    figures.commNotOverlappedNs = RangesLength(commUnion) - figures.commOverlappedNs;
    figures.pureComputingNs = figures.computingNs - figures.commOverlappedNs;
    figures.totalNs = SaturatingSpan(first, last);
    figures.freeNs =
        std::max<TimeNs>(0, figures.totalNs - figures.computingNs - figures.commNotOverlappedNs);
    figures.source = "kernel_details.csv (computed from the tasks)";
    figures.rule = OverviewRule::kTasks;
    figures.valid = figures.totalNs > 0;
    return figures;
}

OverviewFigures OverviewFromSteps(const std::vector<StepRow>& steps, BubbleCountedIn bubble) {
    OverviewFigures figures;
    for (const StepRow& row : steps) {
        TimeNs computing = row.ns[kStepComputing], notOverlapped = row.ns[kStepCommNotOverlapped];
        if (bubble == BubbleCountedIn::kComputing) {
            const TimeNs wait = std::clamp<TimeNs>(row.ns[kStepBubble], 0, computing);
            computing -= wait;
            notOverlapped = SaturatingAdd(notOverlapped, wait);
        }
        figures.computingNs = SaturatingAdd(figures.computingNs, computing);
        figures.commOverlappedNs = SaturatingAdd(figures.commOverlappedNs, row.ns[kStepOverlapped]);
        figures.commNotOverlappedNs = SaturatingAdd(figures.commNotOverlappedNs, notOverlapped);
        figures.freeNs = SaturatingAdd(figures.freeNs, row.ns[kStepFree]);
    }
    figures.pureComputingNs = std::max<TimeNs>(0, figures.computingNs - figures.commOverlappedNs);
    figures.totalNs =
        SaturatingAdd(SaturatingAdd(figures.pureComputingNs, figures.commOverlappedNs),
                      SaturatingAdd(figures.commNotOverlappedNs, figures.freeNs));
    figures.rule = OverviewRule::kSteps;
    figures.valid = figures.totalNs > 0;
    return figures;
}

const char* OverviewRuleText(OverviewRule rule) {
    switch (rule) {
        case OverviewRule::kSteps:
            return "the sum of their steps";
        case OverviewRule::kTasks:
            return "computed from their tasks";
        case OverviewRule::kOverlapTracks:
            return "the profiler's overlap tracks";
        case OverviewRule::kNone:
            break;
    }
    return "unknown";
}

const char* OverviewRuleKey(OverviewRule rule) {
    switch (rule) {
        case OverviewRule::kSteps:
            return "steps";
        case OverviewRule::kTasks:
            return "tasks";
        case OverviewRule::kOverlapTracks:
            return "overlap_tracks";
        case OverviewRule::kNone:
            break;
    }
    return "";
}

OverviewRule OverviewRuleOfKey(std::string_view key) {
    for (const OverviewRule rule :
         {OverviewRule::kSteps, OverviewRule::kTasks, OverviewRule::kOverlapTracks})
        if (key == OverviewRuleKey(rule)) return rule;
    return OverviewRule::kNone;
}

OverviewFigures RankOverviewFigures(const RankOverviewInputs& inputs) {
    if (inputs.profilerSteps) {
        OverviewFigures figures = OverviewFromSteps(*inputs.profilerSteps, inputs.bubble);
        if (figures.valid) {
            figures.source = inputs.stepsSource;
            return figures;
        }
    }
    if (!inputs.kernels) return {};
    OverviewFigures figures = OverviewFromKernels(*inputs.kernels);
    figures.source = inputs.kernelsSource;
    return figures;
}

const char* AdviceKindName(AdviceKind kind) {
    switch (kind) {
        case AdviceKind::kCompute:
            return "compute";
        case AdviceKind::kScheduling:
            return "scheduling";
        case AdviceKind::kCommunication:
            return "communication";
        default:
            return "healthy";
    }
}

std::vector<Advice> AdviseOnOverview(
    const OverviewFigures& figures,
    const std::vector<std::pair<std::string, double>>& topOperators) {
    std::vector<Advice> advice;
    if (!figures.valid) return advice;
    const double free = figures.Share(figures.freeNs);
    const double notOverlapped = figures.Share(figures.commNotOverlappedNs);
    const double computing = figures.Share(figures.computingNs);
    if (notOverlapped > 0.10) {
        advice.push_back(
            {AdviceKind::kCommunication, "Communication is not hidden behind computation",
             "Communication not overlapped takes " + FormatDuration(figures.commNotOverlappedNs) +
                 " (" + FormatPercent(notOverlapped) + " of " + FormatDuration(figures.totalNs) +
                 "), against " + FormatDuration(figures.commOverlappedNs) +
                 " overlapped. Look at the Communication view: a high wait or synchronisation "
                 "ratio means "
                 "this rank waits for slower peers; a low bandwidth points at the link."});
    }
    if (free > 0.10) {
        advice.push_back({AdviceKind::kScheduling, "The device waits for work",
                          "Free time is " + FormatDuration(figures.freeNs) + " (" +
                              FormatPercent(free) +
                              "). In the timeline, vertical launch arrows (HostToDevice, ac2g) "
                              "mean the device ran "
                              "each task as soon as "
                              "the host launched it: the host is too slow to keep it busy "
                              "(operator launch, data loading, "
                              "synchronisation)."});
    }
    if (computing > 0.60 && notOverlapped <= 0.10 && free <= 0.10) {
        std::string top;
        for (size_t i = 0; i < topOperators.size() && i < 3; ++i)
            top += (i ? ", " : "") + topOperators[i].first + " (" +
                   FormatPercent(topOperators[i].second) + ")";
        advice.push_back({AdviceKind::kCompute, "Computation bounds the step",
                          "Computing takes " + FormatDuration(figures.computingNs) + " (" +
                              FormatPercent(computing) + ")" +
                              (top.empty() ? std::string(".")
                                           : "; the largest operator types are " + top + ".") +
                              " Compare these operators with a healthy rank, and look for fusion "
                              "or a faster kernel."});
    }
    if (advice.empty()) {
        advice.push_back({AdviceKind::kHealthy, "No dominant problem",
                          "Computing " + FormatPercent(computing) +
                              ", communication not overlapped " + FormatPercent(notOverlapped) +
                              ", free " + FormatPercent(free) + ": each is under its threshold."});
    }
    return advice;
}

RankOverviewInputs OverviewInputsOf(const RankTables& tables, const RankTableOrigin& origin) {
    RankOverviewInputs inputs;
    if (tables.steps && !origin.stepsFromTrace) inputs.profilerSteps = &tables.steps->rows;
    inputs.stepsSource = origin.database       ? kStepsOfDatabase
                         : origin.stepTraceRaw ? kStepsOfStepTraceRaw
                                               : kStepsOfStepTraceCsv;
    if (origin.stepTraceRaw) inputs.bubble = BubbleCountedIn::kComputing;
    if (tables.kernels) inputs.kernels = &*tables.kernels;
    inputs.kernelsSource = origin.kernelsFromTrace ? kKernelsOfTrace
                           : origin.database       ? kKernelsOfDatabase
                                                   : kKernelsOfCsv;
    return inputs;
}

}  // namespace marey
