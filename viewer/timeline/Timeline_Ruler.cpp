// The time ruler (ticks and labels from RulerTicks), the absolute (wall clock) time of the
// view's left edge, the time under the mouse and the length of a selected range.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/TextFormat.hpp"
#include "timeline/RulerTicks.hpp"
#include "timeline/TimelineView.hpp"
#include "timeline/ValueFormat.hpp"

namespace marey {
namespace {

constexpr float kMinTickSpacingPx = 90.0f;

}  // namespace

void TimelineView::DrawRuler(ImDrawList* draw) {
    const float y0 = m_canvas.rulerY, y1 = m_canvas.bodyTop;
    draw->AddRectFilled(ImVec2(m_canvas.headerX0, y0), ImVec2(m_canvas.x1 + 12, y1),
                        IM_COL32(34, 37, 43, 255));
    // Labels count on the ruler's axis: the trace's own, or another timeline's it is aligned to.
    const RulerLayout ruler =
        LayoutRuler(m_state.viewStartNs + m_rulerShiftNs, m_state.viewEndNs + m_rulerShiftNs,
                    m_canvas.x1 - m_canvas.x0, kMinTickSpacingPx,
                    [](const std::string& text) { return ImGui::CalcTextSize(text.c_str()).x; });
    draw->PushClipRect(ImVec2(m_canvas.x0, y0), ImVec2(m_canvas.x1, m_canvas.bodyBottom), true);
    for (const RulerTick& tick : ruler.ticks) {
        const float x = m_canvas.x0 + tick.x;
        if (tick.label.empty()) {
            draw->AddLine(ImVec2(x, y1 - 4), ImVec2(x, y1), IM_COL32(120, 125, 135, 255));
            continue;
        }
        draw->AddLine(ImVec2(x, y1 - 10), ImVec2(x, y1), IM_COL32(170, 175, 185, 255));
        draw->AddLine(ImVec2(x, y1), ImVec2(x, m_canvas.bodyBottom),
                      IM_COL32(255, 255, 255, 14));  // faint grid
        const bool anchor = ruler.fromAnchor && tick.label == "0";
        if (tick.labelled)
            draw->AddText(ImVec2(x + 3, y1 - 24),
                          anchor ? IM_COL32(150, 200, 255, 255) : IM_COL32(215, 218, 225, 255),
                          tick.label.c_str());
    }
    draw->PopClipRect();
    // Left: the absolute time at the view's start, and the width of the view (or, deep in a long
    // trace, where the ruler's 0 is).
    const std::string absolute =
        ClockText(AbsoluteNs(m_state.viewStartNs), m_state.viewStartNs + m_rulerShiftNs,
                  1.0 / m_canvas.pxPerNs);
    // The view's width to three significant digits, whatever the ruler's step.
    const std::string width =
        "view " + CompactDuration(std::llround(m_state.viewEndNs - m_state.viewStartNs));
    const std::string second = ruler.fromAnchor ? "0 = " + ruler.anchorLabel + ", " + width : width;
    draw->AddText(ImVec2(m_canvas.headerX0 + 6, y0 + 3), IM_COL32(150, 200, 255, 255),
                  absolute.c_str());
    draw->AddText(ImVec2(m_canvas.headerX0 + 6, y0 + 19), IM_COL32(170, 175, 185, 255),
                  second.c_str());
    draw->AddLine(ImVec2(m_canvas.headerX0, y1 - 1), ImVec2(m_canvas.x1 + 12, y1 - 1),
                  IM_COL32(70, 75, 85, 255));
}

void TimelineView::DrawCursorAndMeasure(ImDrawList* draw) {
    const float y0 = m_canvas.rulerY, y1 = m_canvas.bodyTop;
    draw->PushClipRect(ImVec2(m_canvas.x0, y0), ImVec2(m_canvas.x1, m_canvas.bodyBottom), true);
    if (m_state.hasRange) {
        const float rx0 = static_cast<float>(ToX(static_cast<double>(m_state.rangeStartNs)));
        const float rx1 = static_cast<float>(ToX(static_cast<double>(m_state.rangeEndNs)));
        const std::string length = FormatDuration(m_state.rangeEndNs - m_state.rangeStartNs);
        const float textWidth = ImGui::CalcTextSize(length.c_str()).x;
        // The middle of the part in view, so that a range wider than the view still shows its
        // length.
        const float mid = (std::max(rx0, m_canvas.x0) + std::min(rx1, m_canvas.x1)) * 0.5f;
        draw->AddLine(ImVec2(rx0, y1 - 6), ImVec2(rx1, y1 - 6), IM_COL32(90, 160, 255, 255), 2.0f);
        draw->AddRectFilled(ImVec2(mid - textWidth * 0.5f - 4, y0 + 1),
                            ImVec2(mid + textWidth * 0.5f + 4, y0 + 17), IM_COL32(40, 70, 120, 255),
                            3.0f);
        draw->AddText(ImVec2(mid - textWidth * 0.5f, y0 + 1), IM_COL32(235, 240, 250, 255),
                      length.c_str());
    }
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    const bool overCanvas = ImGui::IsItemHovered() && mouse.x >= m_canvas.x0 &&
                            mouse.x <= m_canvas.x1 && mouse.y >= m_canvas.rulerY &&
                            mouse.y <= m_canvas.bodyBottom;
    if (overCanvas && !m_dragging) {
        draw->AddLine(ImVec2(mouse.x, y0), ImVec2(mouse.x, m_canvas.bodyBottom),
                      IM_COL32(255, 255, 255, 70));
        const std::string time =
            CursorLabel(ToRelativeNs(mouse.x) + m_rulerShiftNs, 1.0 / m_canvas.pxPerNs);
        const float textWidth = ImGui::CalcTextSize(time.c_str()).x;
        const float x = std::min(mouse.x + 4, m_canvas.x1 - textWidth - 6);
        // Just under the ruler, so that the tick labels next to the cursor stay readable.
        draw->AddRectFilled(ImVec2(x - 2, y1 + 2), ImVec2(x + textWidth + 4, y1 + 19),
                            IM_COL32(60, 64, 74, 235), 3.0f);
        draw->AddText(ImVec2(x + 1, y1 + 2), IM_COL32(255, 255, 255, 255), time.c_str());
    }
    draw->PopClipRect();
}

}  // namespace marey
