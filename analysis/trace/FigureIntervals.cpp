#include "trace/FigureIntervals.hpp"

#include <algorithm>

namespace marey {
namespace {

struct Edge {
    TimeNs time;
    ClassSet bit;
    bool opens;
};

// The ranges where the set of classes running at once passes 'test', joined where they touch:
// the same sweep over the unions as MeasureDeviceTime's, so the ranges add up to its figures.
template <class Test>
std::vector<TimeRange> SweepRanges(const DeviceTime& time, Test test) {
    std::vector<Edge> edges;
    for (int c = 0; c < kActivityClassCount; ++c) {
        const ClassSet bit = ClassBit(static_cast<ActivityClass>(c));
        for (const TimeRange& range : time.unions[static_cast<size_t>(c)]) {
            edges.push_back({range.startNs, bit, true});
            edges.push_back({range.endNs, bit, false});
        }
    }
    std::sort(edges.begin(), edges.end(),
              [](const Edge& a, const Edge& b) { return a.time < b.time; });
    std::vector<TimeRange> ranges;
    ClassSet running = 0;
    for (size_t i = 0; i < edges.size();) {
        const TimeNs start = edges[i].time;
        ClassSet opened = 0, closed = 0;
        for (; i < edges.size() && edges[i].time == start; ++i)
            (edges[i].opens ? opened : closed) |= edges[i].bit;
        running = static_cast<ClassSet>((running | opened) & ~closed);
        if (i == edges.size() || !test(running)) continue;
        const TimeNs end = edges[i].time;
        if (!ranges.empty() && ranges.back().endNs == start)
            ranges.back().endNs = end;
        else
            ranges.push_back({start, end});
    }
    return ranges;
}

}  // namespace

std::vector<uint32_t> StepsOfGroup(const TraceAnalyses& analyses, uint32_t group) {
    std::vector<uint32_t> steps;
    for (uint32_t s = 0; s < analyses.steps.size(); ++s)
        if (analyses.steps[s].group == group) steps.push_back(s);
    return steps;
}

std::vector<uint32_t> ActivitiesOf(const TraceAnalyses& analyses, const FigureScope& scope) {
    const DeviceActivities& activities = analyses.activities;
    std::vector<uint32_t> indices;
    for (uint32_t i = 0; i < activities.activities.size(); ++i) {
        const DeviceActivity& activity = activities.activities[i];
        if (activities.streams[activity.stream].group != scope.group) continue;
        if (scope.step != kNoStep && activity.step != scope.step) continue;
        indices.push_back(i);
    }
    return indices;
}

std::vector<IdleGap> GapsOf(const TraceAnalyses& analyses, const FigureScope& scope,
                            uint32_t stream, GapKind kind) {
    // The gaps of a stream depend on its activities only: the others are left out first.
    std::vector<uint32_t> indices = ActivitiesOf(analyses, scope);
    std::erase_if(indices, [&](uint32_t index) {
        return analyses.activities.activities[index].stream != stream;
    });
    std::vector<IdleGap> gaps;
    BreakDownIdle(analyses.activities, indices, analyses.options.kernelWaitBelowNs, &gaps);
    std::erase_if(gaps, [&](const IdleGap& gap) { return gap.kind != kind; });
    return gaps;
}

std::vector<LaunchOutlier> LaunchOutliersOf(const TraceAnalyses& analyses, const FigureScope& scope,
                                            LaunchOutlierKind kind) {
    const LaunchCutoffs& cutoffs = analyses.options.cutoffs;
    std::vector<LaunchOutlier> outliers;
    for (uint32_t index : ActivitiesOf(analyses, scope)) {
        const DeviceActivity& activity = analyses.activities.activities[index];
        if (activity.launch == kNoLaunch) continue;
        const LaunchFigures figures = FiguresOfLaunch(analyses.activities, activity);
        if (kind == LaunchOutlierKind::kRuntime && figures.cpuNs > cutoffs.runtimeNs)
            outliers.push_back({index, figures.cpuNs});
        if (kind == LaunchOutlierKind::kLaunchDelay && figures.delayNs > cutoffs.launchDelayNs)
            outliers.push_back({index, figures.delayNs});
    }
    std::stable_sort(
        outliers.begin(), outliers.end(),
        [](const LaunchOutlier& a, const LaunchOutlier& b) { return a.valueNs > b.valueNs; });
    return outliers;
}

std::vector<TimeRange> RangesOf(const DeviceTime& time, TimeFigure figure) {
    const ClassSet computation = ClassBit(ActivityClass::kComputation);
    const ClassSet communication = ClassBit(ActivityClass::kCommunication);
    switch (figure) {
        case TimeFigure::kIdle:
            return SweepRanges(time, [](ClassSet running) { return running == 0; });
        case TimeFigure::kComputation:
            return SweepRanges(time,
                               [&](ClassSet running) { return (running & computation) != 0; });
        case TimeFigure::kNonCompute:
            return SweepRanges(time, [&](ClassSet running) {
                return running != 0 && (running & computation) == 0;
            });
        case TimeFigure::kOverlap:
            return SweepRanges(time, [&](ClassSet running) {
                return (running & computation) != 0 && (running & communication) != 0;
            });
    }
    return {};
}

std::vector<TimeRange> RangesOfClassSet(const DeviceTime& time, ClassSet classes) {
    return SweepRanges(time, [&](ClassSet running) { return running == classes; });
}

}  // namespace marey
