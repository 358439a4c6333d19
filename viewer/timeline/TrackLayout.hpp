#pragma once
// Vertical layout of the timeline: process headers and track lanes, with collapsed, hidden and
// pinned state. Rebuilt only when that state changes, never per frame.
#include <cstdint>
#include <vector>

#include "model/TraceModel.hpp"
#include "trace/DeviceCounters.hpp"

namespace marey {

struct Lane {
    // kAnalysesHeader and kAnalysisTrack: the "Device analyses" of a device's process, the
    // counters derived from its activities (not tracks of the model).
    enum class Kind : uint8_t {
        kGroupHeader,
        kProcessHeader,
        kTrack,
        kAnalysesHeader,
        kAnalysisTrack
    };
    Kind kind;
    uint32_t process;  // kGroupHeader: the index of the group (a rank of several)
    uint32_t track;    // kTrack: the model track; kAnalysisTrack: index into the device counters
    float y;           // from the top of the scrolled area
    float height;
    bool pinned;
};

struct LayoutMetrics {
    float rowHeight = 18.0f;
    float counterHeight = 40.0f;
    float processHeaderHeight = 22.0f;
    float groupHeaderHeight = 26.0f;
    float groupIndentPx = 12.0f;  // processes of a group are drawn this far in
    float trackGap = 4.0f;
    float analysisCounterHeight = 44.0f;  // a derived counter: its scale and a summary fit
};

class TrackLayout {
public:
    // 'deviceCounters' (by process) go under a "Device analyses" header right after their
    // device's process. O(lanes).
    void Build(const TraceModel& model, const LayoutMetrics& metrics,
               const std::vector<DeviceCounterSeries>& deviceCounters = {});
    const std::vector<Lane>& lanes() const { return m_lanes; }
    const std::vector<Lane>& pinnedLanes() const { return m_pinned; }
    float totalHeight() const { return m_totalHeight; }
    float pinnedHeight() const { return m_pinnedHeight; }
    // The lane of a track, or null when it is collapsed away or hidden.
    const Lane* FindTrack(uint32_t track) const;

    std::vector<char> collapsedGroup;     // by group index (several ranks in one timeline)
    std::vector<char> collapsedProcess;   // by process index
    std::vector<char> collapsedAnalyses;  // by process index: its "Device analyses" group
    std::vector<char> hiddenTrack;        // by track id
    std::vector<char> pinnedTrack;        // by track id

private:
    std::vector<Lane> m_lanes;
    std::vector<Lane> m_pinned;
    std::vector<int32_t> m_laneOfTrack;  // index into m_lanes, -1 none; pinned: -2 - index
    float m_totalHeight = 0;
    float m_pinnedHeight = 0;
};

// Height of a track's lane: one row per nesting depth, or the counter height.
float TrackHeight(const Track& track, const LayoutMetrics& metrics);

}  // namespace marey
