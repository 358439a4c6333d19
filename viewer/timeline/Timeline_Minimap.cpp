// The minimap: how busy the whole trace is over time, with the visible range marked; click
// or drag to move the view.
#include <imgui.h>

#include <algorithm>

#include "timeline/TimelineView.hpp"

namespace marey {
void TimelineView::DrawMinimap(ImDrawList* draw) {
    const float y0 = m_canvas.minimapY + 2, y1 = m_canvas.rulerY - 2;
    const float x0 = m_canvas.x0, x1 = m_canvas.x1;
    draw->AddRectFilled(ImVec2(m_canvas.headerX0, m_canvas.minimapY),
                        ImVec2(x1 + 12, m_canvas.rulerY), IM_COL32(28, 30, 35, 255));
    draw->AddText(ImVec2(m_canvas.headerX0 + 6, y0 + 4), IM_COL32(150, 155, 165, 255),
                  "whole trace");
    const float width = x1 - x0;
    for (size_t k = 0; k < m_data->minimap.size(); ++k) {
        const float bx0 = x0 + width * static_cast<float>(k) / m_data->minimap.size();
        const float bx1 = x0 + width * static_cast<float>(k + 1) / m_data->minimap.size();
        const float h = (y1 - y0) * m_data->minimap[k];
        if (h > 0.5f)
            draw->AddRectFilled(ImVec2(bx0, y1 - h), ImVec2(bx1, y1), IM_COL32(80, 130, 190, 255));
    }
    const double span =
        std::max<double>(1000.0, static_cast<double>(m_model.lastNs - m_model.firstNs));
    const float vx0 =
        std::clamp(x0 + static_cast<float>(m_state.viewStartNs / span) * width, x0, x1);
    const float vx1 = std::clamp(x0 + static_cast<float>(m_state.viewEndNs / span) * width, x0, x1);
    draw->AddRectFilled(ImVec2(vx0, y0), ImVec2(std::max(vx1, vx0 + 2), y1),
                        IM_COL32(255, 255, 255, 40));
    draw->AddRect(ImVec2(vx0, y0), ImVec2(std::max(vx1, vx0 + 2), y1),
                  IM_COL32(255, 220, 120, 255));
}

}  // namespace marey
