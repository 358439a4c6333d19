#pragma once
// The device activities of a trace (GPU kernels, copies and fills; Ascend tasks), their streams,
// and the host calls that launched them: what every analysis from the trace alone starts from.
#include <cstdint>
#include <string>
#include <vector>

#include "core/Time.hpp"
#include "model/TraceModel.hpp"
#include "trace/ActivityClass.hpp"

namespace marey {

// Where a slice is in the model: what "show it on the timeline" needs.
struct SliceAddress {
    uint32_t track = 0, row = 0, index = 0;
};

struct DeviceStream {
    uint32_t track = 0;
    uint32_t group = kNoGroup;  // the rank in a model of several ranks
    int64_t device = 0;         // the pid of the device's process
    std::string label;          // "stream 7", "Stream 2"
    bool ascend = false;        // a stream of Ascend Hardware (else of a GPU)
};

constexpr int32_t kNoLaunch = -1;
constexpr uint32_t kNoStep = UINT32_MAX;

struct DeviceActivity {
    TimeNs startNs = 0, endNs = 0;
    StringId name = 0;
    uint32_t stream = 0;  // index into DeviceActivities::streams
    ActivityKind kind;
    int32_t launch = kNoLaunch;  // index into DeviceActivities::launches
    uint32_t step = kNoStep;     // index into the steps given to AssignSteps
    SliceAddress slice;
};

// A host call that put work on a device stream (cudaLaunchKernel, an Ascend CANN call, …).
struct HostLaunch {
    TimeNs startNs = 0, endNs = 0;
    StringId name = 0;
    SliceAddress slice;
};

struct DeviceActivities {
    std::vector<DeviceStream> streams;       // by group, device, then timeline order
    std::vector<DeviceActivity> activities;  // by start, then stream
    std::vector<HostLaunch> launches;        // those that launched an activity
    uint64_t activitiesWithCorrelation = 0;
    // Why there are none, when there are none ("no kernels, copies or Ascend tasks: …").
    std::string unavailable;
};

// Finds the device streams of Chrome JSON sources and profiler databases: Kineto threads whose
// events have a device category (kernel, gpu_memcpy, …) and every thread of Ascend's "Ascend
// Hardware" process; reads each of their events' category, task type and correlation id (from
// the text, or as the loader kept them), and pairs them with the launch calls of the same
// correlation (docs/trace-analyses.md lists them). Runs on
// 'threads' threads. O(device events + host events × log) plus the text of those events.
DeviceActivities FindDeviceActivities(const TraceModel& model, unsigned threads);

// A step of the host's schedule ("ProfilerStep#5"), with the rank it belongs to.
struct StepWindow {
    std::string label;  // "5"
    TimeNs startNs = 0, endNs = 0;
    uint32_t group = kNoGroup;
};

// The step windows of one list by rank and start, to find the one that holds a time.
class StepFinder {
public:
    // Keeps a reference to 'steps', which must outlive it. O(steps log steps).
    explicit StepFinder(const std::vector<StepWindow>& steps);
    // The index in 'steps' of the window of 'group' that holds 'time' (start ≤ time < end); of
    // windows that overlap, the one that started last. kNoStep when none. O(log steps).
    uint32_t Holding(uint32_t group, TimeNs time) const;

private:
    const std::vector<StepWindow>& m_steps;
    std::vector<uint32_t> m_order;  // indices of m_steps by group, then start
};

// Gives each activity the step (an index into 'steps') its launch lies in or, without a launch,
// the step holding its start; kNoStep when none. O(activities × log steps), on 'threads' threads.
void AssignSteps(DeviceActivities& activities, const std::vector<StepWindow>& steps,
                 unsigned threads = 1);

}  // namespace marey
