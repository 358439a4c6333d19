#include "timeline/TimelineData.hpp"

#include <algorithm>
#include <cstdlib>

namespace marey {
namespace {

constexpr size_t kMinimapBuckets = 1024;

// Busy time of top-level slices per bucket, over all tracks, scaled to the busiest bucket.
std::vector<float> BuildMinimap(const TraceModel& model) {
    std::vector<float> minimap(kMinimapBuckets, 0.0f);
    const double span = std::max<double>(1.0, static_cast<double>(model.lastNs - model.firstNs));
    const double bucketNs = span / kMinimapBuckets;
    for (const Track& track : model.tracks) {
        if (track.rows.empty() || track.rows[0].kind != RowKind::kNested) continue;
        const Row& row = track.rows[0];
        for (size_t i = 0; i < row.size(); ++i) {
            const double a = static_cast<double>(row.start[i] - model.firstNs) / bucketNs;
            const double b = static_cast<double>(row.end[i] - model.firstNs) / bucketNs;
            size_t first = static_cast<size_t>(std::max(0.0, a));
            const size_t last =
                std::min(kMinimapBuckets - 1, static_cast<size_t>(std::max(0.0, b)));
            for (size_t k = first; k <= last; ++k)
                minimap[k] +=
                    static_cast<float>(std::min<double>(b, k + 1) - std::max<double>(a, k));
        }
    }
    const float peak = *std::max_element(minimap.begin(), minimap.end());
    if (peak > 0)
        for (float& value : minimap) value /= peak;
    return minimap;
}

}  // namespace

TimelineData BuildTimelineData(const TraceModel& model, const TraceAnalyses* analyses) {
    TimelineData data;
    data.counterMax.assign(model.tracks.size(), 0.0);
    data.counterMin.assign(model.tracks.size(), 0.0);
    for (uint32_t t = 0; t < model.tracks.size(); ++t) {
        for (const double value : model.tracks[t].counterValue) {
            data.counterMax[t] = std::max(data.counterMax[t], value);
            data.counterMin[t] = std::min(data.counterMin[t], value);
        }
    }
    data.flowCategoryIndex.assign(model.strings.size(), -1);
    for (const Flow& flow : model.flows) {
        const StringId category = model.FlowCategory(flow);
        if (data.flowCategoryIndex[category] < 0) {
            data.flowCategoryIndex[category] = static_cast<int32_t>(data.flowCategories.size());
            data.flowCategories.push_back(category);
        }
        data.maxFlowSpanNs = std::max(data.maxFlowSpanNs, std::abs(flow.toTs - flow.fromTs));
    }
    data.minimap = BuildMinimap(model);
    data.hostWaitsOfTrack.assign(model.tracks.size(), -1);
    return analyses ? WithDeviceAnalyses(std::move(data), model, *analyses) : data;
}

TimelineData WithDeviceAnalyses(TimelineData data, const TraceModel& model,
                                const TraceAnalyses& analyses) {
    data.deviceCounters = BuildDeviceCounters(model, analyses);
    data.hostWaits = CollectHostWaits(analyses);
    data.hostWaitsOfTrack.assign(model.tracks.size(), -1);
    for (size_t i = 0; i < data.hostWaits.size(); ++i)
        data.hostWaitsOfTrack[data.hostWaits[i].track] = static_cast<int32_t>(i);
    return data;
}

}  // namespace marey
