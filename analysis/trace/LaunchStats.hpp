#pragma once
// How the host fed the device: per launched activity its CPU launch time, GPU time and launch
// delay, the outliers of each, and each stream's queue of launched, unfinished activities.
#include <cstdint>
#include <vector>

#include "trace/DeviceActivities.hpp"

namespace marey {

struct LaunchCutoffs {
    TimeNs runtimeNs = 50'000;       // a launch call longer than this is a runtime outlier
    TimeNs launchDelayNs = 100'000;  // a delay longer than this is a launch-delay outlier
};

struct LaunchSummary {
    uint64_t count = 0;  // activities whose launch was found
    uint64_t shortKernels = 0;
    uint64_t runtimeOutliers = 0;
    uint64_t launchDelayOutliers = 0;
    TimeNs cpuNs = 0, gpuNs = 0, delayNs = 0;  // sums, for means
    TimeNs maxDelayNs = 0;
};

// A launched activity's figures: delay = its start - the launch's end, 0 when negative.
struct LaunchFigures {
    TimeNs cpuNs = 0, gpuNs = 0, delayNs = 0;
};
LaunchFigures FiguresOfLaunch(const DeviceActivities& activities, const DeviceActivity& activity);

// Over the launched activities among 'indices'. O(n).
LaunchSummary SummarizeLaunches(const DeviceActivities& activities,
                                const std::vector<uint32_t>& indices, const LaunchCutoffs& cutoffs);

struct QueueSample {
    TimeNs time = 0;
    uint32_t depth = 0;  // from 'time' until the next sample
};

struct StreamQueue {
    uint32_t stream = 0;
    double mean = 0;  // weighted by time, from the first launch to the last end
    uint32_t max = 0;
    std::vector<QueueSample> samples;  // only when asked for
};

// Per stream that ran any of 'indices' (mean and max 0 when none was launched): +1 at a launch's
// start, -1 at its activity's end (ends first when both fall on one ns: a finished activity is not
// queued). O(n log n).
std::vector<StreamQueue> MeasureQueues(const DeviceActivities& activities,
                                       const std::vector<uint32_t>& indices, bool keepSamples);

}  // namespace marey
