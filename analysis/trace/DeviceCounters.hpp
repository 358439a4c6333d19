#pragma once
// Counters derived from a trace's device activities, for the timeline: the queue of launched,
// unfinished work of each stream, and the bandwidth of each kind of copy of each device. Step
// functions of time, built once off the UI thread; the model is not changed.
#include <cstdint>
#include <string>
#include <vector>

#include "trace/ActivityClass.hpp"
#include "trace/TraceAnalyses.hpp"

namespace marey {

enum class DeviceCounterKind : uint8_t { kQueueLength, kCopyBandwidth };

struct DeviceCounterSeries {
    DeviceCounterKind kind = DeviceCounterKind::kQueueLength;
    std::string name;              // "Queue length · stream 7", "Memcpy bandwidth · HtoD"
    std::string unit;              // "queued", "GB/s"
    uint32_t process = 0;          // the model process of the device: where it is shown
    uint32_t stream = UINT32_MAX;  // kQueueLength: index into DeviceActivities::streams
    MemoryKind memory = MemoryKind::kNone;  // kCopyBandwidth: the kind of copy
    // value[i] holds from timeNs[i] until timeNs[i + 1] (the last until the trace ends); times
    // ascending and distinct, absolute ns.
    std::vector<TimeNs> timeNs;
    std::vector<double> value;
    // The series at a coarse resolution for zoomed-out frames: from overviewTimeNs[k] the
    // largest value in force during its bucket of overviewResolutionNs. Empty (resolution 0) for
    // a series short enough to query whole.
    std::vector<TimeNs> overviewTimeNs;
    std::vector<double> overviewValue;
    TimeNs overviewResolutionNs = 0;
    double maxValue = 0;
    double meanValue = 0;       // weighted by time, from the first sample to the last
    uint64_t activities = 0;    // queued launches, or copies whose bytes were read
    uint64_t totalBytes = 0;    // kCopyBandwidth: what those copies moved
    uint64_t withoutBytes = 0;  // kCopyBandwidth: copies without a readable "bytes"
};

// Fills the series' overview with at most 'buckets' buckets when it has more samples than that.
// O(samples).
void BuildSeriesOverview(DeviceCounterSeries& series, size_t buckets = 4096);

// The value in force at absolute time 't': the last sample at or before it; 0 before the first.
// O(log samples).
double SeriesValueAt(const DeviceCounterSeries& series, TimeNs t);

// One series per stream with launched work (MeasureQueues' samples: +1 at a launch's start, -1
// at its activity's end), by stream. O(activities log activities).
std::vector<DeviceCounterSeries> MeasureQueueSeries(const TraceModel& model,
                                                    const DeviceActivities& activities);

// One series per device and kind of copy (HtoD, DtoH, DtoD, HtoH, PtoP, unknown): each copy
// moves its args "bytes" evenly over its duration, bytes / ns = GB/s, summed over the copies of
// that kind running at once. Copies of no duration or without "bytes" are counted, not drawn.
// Reads each copy's event text. O(copies log copies + their text).
std::vector<DeviceCounterSeries> MeasureCopyBandwidth(const TraceModel& model,
                                                      const DeviceActivities& activities);

// Both, queues first, ordered by the device's process so that each device's series are together,
// each with its overview.
std::vector<DeviceCounterSeries> BuildDeviceCounters(const TraceModel& model,
                                                     const TraceAnalyses& analyses);

}  // namespace marey
