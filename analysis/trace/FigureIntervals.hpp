#pragma once
// Where each figure of the trace analyses comes from: the idle gaps, launch outliers and time
// ranges behind a number, listed when a person asks so that a view can show them and zoom the
// timeline to them. Each list is counted exactly as its figure is (docs/trace-analyses.md).
#include <cstdint>
#include <vector>

#include "core/TimeRanges.hpp"
#include "trace/TraceAnalyses.hpp"

namespace marey {

// The activities a rank's figures cover: all of the rank's, or one step's.
struct FigureScope {
    uint32_t group = kNoGroup;  // RankTraceAnalysis::group
    uint32_t step = kNoStep;    // index into TraceAnalyses::steps; kNoStep: the whole rank
};

// The indices into analyses.steps of the steps of 'group', in the order RankTraceAnalysis::steps
// lists them. O(steps).
std::vector<uint32_t> StepsOfGroup(const TraceAnalyses& analyses, uint32_t group);

// The activities 'scope' covers, as indices into analyses.activities.activities, ascending (the
// order every figure is counted in). O(activities).
std::vector<uint32_t> ActivitiesOf(const TraceAnalyses& analyses, const FigureScope& scope);

// The idle gaps of kind 'kind' on stream 'stream' (an index into activities.streams) over the
// activities of 'scope', by time, with the threshold of analyses.options. O(activities).
std::vector<IdleGap> GapsOf(const TraceAnalyses& analyses, const FigureScope& scope,
                            uint32_t stream, GapKind kind);

enum class LaunchOutlierKind : uint8_t { kRuntime, kLaunchDelay };

struct LaunchOutlier {
    uint32_t activity = 0;  // index into activities.activities; its launch is always found
    TimeNs valueNs = 0;     // the CPU time (runtime) or the launch delay that passed the cut-off
};

// The activities of 'scope' that SummarizeLaunches counts as outliers of 'kind' with the cut-offs
// of analyses.options, the largest value first (then by time). O(activities + k log k).
std::vector<LaunchOutlier> LaunchOutliersOf(const TraceAnalyses& analyses, const FigureScope& scope,
                                            LaunchOutlierKind kind);

// The time behind a figure of DeviceTime.
enum class TimeFigure : uint8_t {
    kIdle,         // nothing runs, between the span's ends: temporal.idleNs
    kComputation,  // computation runs: temporal.computeNs
    kNonCompute,   // only communication or memory runs: temporal.nonComputeNs
    kOverlap,      // communication runs while computation does: overlappedNs
};

// The sorted, disjoint ranges (absolute ns) whose lengths add up to 'figure' of 'time', from its
// unions of each class. O(ranges log ranges).
std::vector<TimeRange> RangesOf(const DeviceTime& time, TimeFigure figure);

// The sorted, disjoint ranges where exactly the classes of 'classes' run: they add up to that
// set's ClassSetTime. O(ranges log ranges).
std::vector<TimeRange> RangesOfClassSet(const DeviceTime& time, ClassSet classes);

}  // namespace marey
