// The minimap: how busy the whole trace is over time, with the visible range marked; click
// or drag to move the view.
#include <imgui.h>

#include <algorithm>

#include "timeline/TimelineView.hpp"

namespace marey {
namespace {
constexpr size_t kMinimapBuckets = 1024;
}

void TimelineView::BuildMinimap() {
    // Busy time of top-level slices per bucket, over all tracks: one pass at load.
    m_minimap.assign(kMinimapBuckets, 0.0f);
    const double span = std::max<double>(1.0, static_cast<double>(m_model.lastNs - m_model.firstNs));
    const double bucketNs = span / kMinimapBuckets;
    for (const Track& track : m_model.tracks) {
        if (track.rows.empty() || track.rows[0].kind != RowKind::kNested) continue;
        const Row& row = track.rows[0];
        for (size_t i = 0; i < row.size(); ++i) {
            const double a = static_cast<double>(row.start[i] - m_model.firstNs) / bucketNs;
            const double b = static_cast<double>(row.end[i] - m_model.firstNs) / bucketNs;
            size_t first = static_cast<size_t>(std::max(0.0, a));
            const size_t last = std::min(kMinimapBuckets - 1, static_cast<size_t>(std::max(0.0, b)));
            for (size_t k = first; k <= last; ++k)
                m_minimap[k] += static_cast<float>(std::min<double>(b, k + 1) - std::max<double>(a, k));
        }
    }
    const float peak = *std::max_element(m_minimap.begin(), m_minimap.end());
    if (peak > 0)
        for (float& value : m_minimap) value /= peak;
}

void TimelineView::DrawMinimap(ImDrawList* draw) {
    const float y0 = m_canvas.minimapY + 2, y1 = m_canvas.rulerY - 2;
    const float x0 = m_canvas.x0, x1 = m_canvas.x1;
    draw->AddRectFilled(ImVec2(m_canvas.headerX0, m_canvas.minimapY), ImVec2(x1 + 12, m_canvas.rulerY), IM_COL32(28, 30, 35, 255));
    draw->AddText(ImVec2(m_canvas.headerX0 + 6, y0 + 4), IM_COL32(150, 155, 165, 255), "whole trace");
    const float width = x1 - x0;
    for (size_t k = 0; k < m_minimap.size(); ++k) {
        const float bx0 = x0 + width * static_cast<float>(k) / m_minimap.size();
        const float bx1 = x0 + width * static_cast<float>(k + 1) / m_minimap.size();
        const float h = (y1 - y0) * m_minimap[k];
        if (h > 0.5f) draw->AddRectFilled(ImVec2(bx0, y1 - h), ImVec2(bx1, y1), IM_COL32(80, 130, 190, 255));
    }
    const double span = std::max<double>(1000.0, static_cast<double>(m_model.lastNs - m_model.firstNs));
    const float vx0 = std::clamp(x0 + static_cast<float>(m_state.viewStartNs / span) * width, x0, x1);
    const float vx1 = std::clamp(x0 + static_cast<float>(m_state.viewEndNs / span) * width, x0, x1);
    draw->AddRectFilled(ImVec2(vx0, y0), ImVec2(std::max(vx1, vx0 + 2), y1), IM_COL32(255, 255, 255, 40));
    draw->AddRect(ImVec2(vx0, y0), ImVec2(std::max(vx1, vx0 + 2), y1), IM_COL32(255, 220, 120, 255));
}

}  // namespace marey
