#pragma once
// What a timeline derives from its model once, on the loading thread: the scans of the whole
// trace that no frame may do (counter scales, flow categories, the minimap). Immutable once
// built; the document holds it and its timeline views read it.
#include <cstdint>
#include <vector>

#include "core/Time.hpp"
#include "model/TraceModel.hpp"
#include "trace/DeviceCounters.hpp"
#include "trace/HostWaitMarks.hpp"

namespace marey {

struct TimelineData {
    // Counter scales, per track: fixed, so that bars do not jump while panning.
    std::vector<double> counterMax, counterMin;
    std::vector<StringId> flowCategories;    // in first-seen order
    std::vector<int32_t> flowCategoryIndex;  // by StringId: index into flowCategories, -1 none
    TimeNs maxFlowSpanNs = 0;                // no flow spans more
    std::vector<float> minimap;              // busy time per bucket over the whole trace, 0..1
    // From the rank's device analyses (empty without them): the counters shown under each
    // device's "Device analyses" (queue length per stream, copy bandwidth per kind), by process,
    // and the host-wait gaps marked on the stream tracks.
    std::vector<DeviceCounterSeries> deviceCounters;
    std::vector<HostWaitMarks> hostWaits;
    std::vector<int32_t> hostWaitsOfTrack;  // by track: index into hostWaits, -1 none
};

// Scans 'model' once, and derives the device counters and marks from 'analyses' when given (the
// analyses of the same model). O(events + counter samples + flows + activities log activities).
// Call it off the UI thread.
TimelineData BuildTimelineData(const TraceModel& model, const TraceAnalyses* analyses = nullptr);

// 'data' (built from 'model' without analyses) with the device counters and marks of 'analyses'
// added: what the timeline shows once the analyses of a model on screen arrive. O(activities log
// activities).
TimelineData WithDeviceAnalyses(TimelineData data, const TraceModel& model,
                                const TraceAnalyses& analyses);

}  // namespace marey
