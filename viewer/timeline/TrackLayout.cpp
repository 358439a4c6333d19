#include "timeline/TrackLayout.hpp"

#include <algorithm>

namespace marey {

float TrackHeight(const Track& track, const LayoutMetrics& metrics) {
    if (track.kind == TrackKind::kCounter) return metrics.counterHeight;
    const size_t rows = std::max<size_t>(1, track.rows.size());
    return static_cast<float>(rows) * metrics.rowHeight + metrics.trackGap;
}

void TrackLayout::Build(const TraceModel& model, const LayoutMetrics& metrics,
                        const std::vector<DeviceCounterSeries>& deviceCounters) {
    collapsedGroup.resize(model.groups.size(), 0);
    collapsedProcess.resize(model.processes.size(), 0);
    collapsedAnalyses.resize(model.processes.size(), 0);
    hiddenTrack.resize(model.tracks.size(), 0);
    pinnedTrack.resize(model.tracks.size(), 0);
    m_lanes.clear();
    m_pinned.clear();
    m_laneOfTrack.assign(model.tracks.size(), -1);
    float pinnedY = 0;
    for (uint32_t p = 0; p < model.processes.size(); ++p)
        for (uint32_t t : model.processes[p].tracks)
            if (pinnedTrack[t] && !hiddenTrack[t]) {
                const float height = TrackHeight(model.tracks[t], metrics);
                m_laneOfTrack[t] = -2 - static_cast<int32_t>(m_pinned.size());
                m_pinned.push_back({Lane::Kind::kTrack, p, t, pinnedY, height, true});
                pinnedY += height;
            }
    m_pinnedHeight = pinnedY;
    float y = 0;
    uint32_t lastGroup = kNoGroup;
    size_t nextCounter = 0;  // the counters are by process: one pass takes each process's run
    for (uint32_t p = 0; p < model.processes.size(); ++p) {
        // A merged model keeps each group's processes together: the header goes before the first.
        const uint32_t group = model.processes[p].group;
        if (group != kNoGroup && group != lastGroup) {
            m_lanes.push_back(
                {Lane::Kind::kGroupHeader, group, 0, y, metrics.groupHeaderHeight, false});
            y += metrics.groupHeaderHeight;
        }
        lastGroup = group;
        if (group != kNoGroup && collapsedGroup[group]) continue;
        m_lanes.push_back(
            {Lane::Kind::kProcessHeader, p, 0, y, metrics.processHeaderHeight, false});
        y += metrics.processHeaderHeight;
        if (!collapsedProcess[p])
            for (uint32_t t : model.processes[p].tracks) {
                if (hiddenTrack[t] || pinnedTrack[t]) continue;
                const float height = TrackHeight(model.tracks[t], metrics);
                m_laneOfTrack[t] = static_cast<int32_t>(m_lanes.size());
                m_lanes.push_back({Lane::Kind::kTrack, p, t, y, height, false});
                y += height;
            }
        while (nextCounter < deviceCounters.size() && deviceCounters[nextCounter].process < p)
            ++nextCounter;
        if (nextCounter == deviceCounters.size() || deviceCounters[nextCounter].process != p)
            continue;
        // The device's analyses stay apart from its own tracks, and stay when it is folded.
        m_lanes.push_back(
            {Lane::Kind::kAnalysesHeader, p, 0, y, metrics.processHeaderHeight, false});
        y += metrics.processHeaderHeight;
        for (; nextCounter < deviceCounters.size() && deviceCounters[nextCounter].process == p;
             ++nextCounter) {
            if (collapsedAnalyses[p]) continue;
            m_lanes.push_back({Lane::Kind::kAnalysisTrack, p, static_cast<uint32_t>(nextCounter), y,
                               metrics.analysisCounterHeight, false});
            y += metrics.analysisCounterHeight;
        }
    }
    m_totalHeight = y;
}

const Lane* TrackLayout::FindTrack(uint32_t track) const {
    if (track >= m_laneOfTrack.size()) return nullptr;
    const int32_t index = m_laneOfTrack[track];
    if (index >= 0) return &m_lanes[static_cast<size_t>(index)];
    if (index <= -2) return &m_pinned[static_cast<size_t>(-2 - index)];
    return nullptr;
}

}  // namespace marey
