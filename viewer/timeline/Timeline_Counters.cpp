// Counter tracks: a filled step chart, one bar per pixel bucket at the bucket's maximum (so
// that spikes survive zooming out), with the scale written on the lane.
#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "index/RowQuery.hpp"
#include "timeline/TimelineView.hpp"
#include "timeline/ValueFormat.hpp"

namespace marey {

void TimelineView::DrawCounterBars(BoxRenderer& boxes, const TimeNs* ts, const double* values,
                                   size_t n, double minValue, double maxValue, const Rgba& color,
                                   float top, float bottom) {
    const double range = maxValue - minValue > 0 ? maxValue - minValue : 1.0;
    const TimeNs viewStart = AbsoluteNs(m_state.viewStartNs),
                 viewEnd = AbsoluteNs(m_state.viewEndNs) + 1;
    const TimeNs bucketNs = std::max<TimeNs>(1, static_cast<TimeNs>(1.0 / m_canvas.pxPerNs));
    m_buckets.clear();
    QueryCounter(ts, values, n, viewStart, viewEnd, bucketNs, m_buckets);
    const TimeNs traceEnd = m_model.lastNs;
    // Neighbouring bars of one height are one box: a step function zoomed out has long runs.
    BoxInstance pending{0, 0, 0, 0, color.r, color.g, color.b, 0.9f, 3.0f};
    bool hasPending = false;
    for (size_t b = 0; b < m_buckets.size(); ++b) {
        const CounterBucket& bucket = m_buckets[b];
        // A sample holds until the next one (or the end of the trace).
        const TimeNs untilNs = b + 1 < m_buckets.size()     ? m_buckets[b + 1].startNs
                               : bucket.firstSample + 1 < n ? ts[bucket.firstSample + 1]
                                                            : traceEnd;
        float x0 = static_cast<float>(ToX(static_cast<double>(bucket.startNs - m_model.firstNs)));
        float x1 = static_cast<float>(ToX(static_cast<double>(untilNs - m_model.firstNs)));
        x0 = std::max(x0, m_canvas.x0 - 2);
        x1 = std::min(std::max(x1, x0 + 1), m_canvas.x1 + 2);
        const float h = static_cast<float>((bucket.maxValue - minValue) / range) * (bottom - top);
        const float y0 = bottom - std::max(h, 0.5f);
        if (hasPending && pending.y0 == y0 && x0 <= pending.x1) {
            pending.x1 = std::max(pending.x1, x1);
            continue;
        }
        if (hasPending) boxes.Add(pending);
        pending.x0 = x0, pending.y0 = y0, pending.x1 = x1, pending.y1 = bottom;
        hasPending = true;
    }
    if (hasPending) boxes.Add(pending);
}

void TimelineView::DrawCounterTrack(ImDrawList* draw, BoxRenderer& boxes, const Lane& lane,
                                    float laneY) {
    const Track& track = m_model.tracks[lane.track];
    const double maxValue = m_data->counterMax[lane.track];
    DrawCounterBars(boxes, track.counterTs.data(), track.counterValue.data(),
                    track.counterTs.size(), m_data->counterMin[lane.track], maxValue,
                    NameColor(track.name), laneY + 4, laneY + lane.height - 3);
    m_overlayTexts.push_back(
        {m_canvas.x0 + 4, laneY + 1, CounterValueText(maxValue, m_model.Name(track.counterKey))});
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    if (ImGui::IsItemHovered() && mouse.y >= laneY && mouse.y < laneY + lane.height &&
        mouse.x >= m_canvas.x0) {
        m_hover.counterTrack = lane.track;
        m_hover.timeNs = AbsoluteNs(ToRelativeNs(mouse.x));
    }
}

}  // namespace marey
