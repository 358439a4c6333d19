#pragma once
// PyTorch's data loader in a trace (Kineto, torch_npu): the time each step spends in the
// loader's __next__ calls ("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", or the
// multi-process iterator's), how much of it the device sat idle, and the gap before each step's
// first device activity. A step waited on the loader when the device was idle through most of it;
// the trace is input-bound when that idle time is a large share of the steps.
#include <cstdint>
#include <string>
#include <vector>

#include "core/Time.hpp"
#include "model/TraceModel.hpp"
#include "trace/TraceAnalyses.hpp"

namespace marey {

struct LoaderStep {
    std::string step;               // "5" of ProfilerStep#5
    TimeNs startNs = 0, endNs = 0;  // the step's ProfilerStep slice, absolute
    // The loader's calls that start in the step (their union), each counted up to the step's end
    // and in this step only (the latest step that starts at or before it).
    TimeNs loaderNs = 0;
    uint32_t calls = 0;
    // Of loaderNs, the time no device activity ran; -1 when the trace has no device activity.
    TimeNs deviceIdleNs = -1;
    // From the step's start to the device's first activity after it (0 when the device was busy
    // at the start); -1 when no activity follows or the trace has none.
    TimeNs firstActivityGapNs = -1;
    bool waited = false;  // the device waited on the loader in this step (see kWaitShare)
};

// A step waited on the loader when the device was idle for at least half of its loader time and
// that idle time is at least 5 % of the step; without device activity, when the loader took at
// least 10 % of the step.
inline constexpr double kWaitShare = 0.5, kWaitOfStep = 0.05, kLoaderOfStep = 0.10;
// The trace is input-bound when the device's idle time in the loader (or the loader's time,
// without device activity) is at least this share of the steps' time: the tuning method's
// threshold for free time.
inline constexpr double kInputBoundShare = 0.10;

struct DataLoaderRecord {
    std::string iterator;  // "_SingleProcessDataLoaderIter", "_MultiProcessingDataLoaderIter"
    std::vector<LoaderStep> steps;
    uint32_t callsOutsideSteps = 0;  // loader calls that start in no ProfilerStep
    TimeNs callsOutsideNs = 0;       // their time (their union)
    TimeNs stepsNs = 0, loaderNs = 0;
    TimeNs deviceIdleNs = -1;  // the steps' deviceIdleNs summed; -1 without device activity
    uint32_t waitedSteps = 0;
    bool inputBound = false;
    std::string finding;  // the sentence with the figures and what to change; empty when fine

    bool Found() const { return !steps.empty() || callsOutsideSteps > 0; }
};

// The loader's record of 'model'; 'analyses' (may be null) gives the steps and device activities,
// else the ProfilerStep slices are found here and no device figure is given. Returns an empty
// record at once when no slice name is a loader call. O(strings + slices + activities).
DataLoaderRecord AnalyzeDataLoader(const TraceModel& model, const TraceAnalyses* analyses);

}  // namespace marey
