// Navigation: W/S zoom at the mouse, A/D pan, both smooth and accelerating while held; wheel
// zoom, drag to pan, shift-drag to select a range, double-click to zoom out, F and Home.
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "index/RowQuery.hpp"
#include "timeline/KeyMotion.hpp"
#include "timeline/TimelineView.hpp"

namespace marey {
namespace {
constexpr double kMinViewNs = 20.0;    // 1 ns is then about 80 px wide
constexpr double kTraceMargin = 0.05;  // the view may show this share of the span past either end
constexpr float kDragThresholdPx = 3.0f;
}  // namespace

void TimelineView::ClampView() {
    const double span =
        std::max<double>(1000.0, static_cast<double>(m_model.lastNs - m_model.firstNs));
    const double margin = span * kTraceMargin;
    double width = m_state.viewEndNs - m_state.viewStartNs;
    // Never wider than the trace and its margins, never narrower than kMinViewNs; never past an
    // end by more than the margin (no empty negative time).
    width = std::clamp(width, kMinViewNs, span + 2.0 * margin);
    double start = m_state.viewStartNs;
    start = std::clamp(start, -margin, std::max(-margin, span + margin - width));
    m_state.viewStartNs = start;
    m_state.viewEndNs = start + width;
}

void TimelineView::ZoomAround(double anchorNs, double factor) {
    m_state.viewStartNs = anchorNs - (anchorNs - m_state.viewStartNs) * factor;
    m_state.viewEndNs = anchorNs + (m_state.viewEndNs - anchorNs) * factor;
    ClampView();
}

void TimelineView::Pan(double deltaNs) {
    m_state.viewStartNs += deltaNs;
    m_state.viewEndNs += deltaNs;
    ClampView();
}

void TimelineView::HandleKeys(float frameDt) {
    const ImGuiIO& io = ImGui::GetIO();
    if (io.WantTextInput || !m_keyboardEnabled) {
        m_zoomHeld = m_panHeld = 0;
        return;
    }
    const ImVec2 mouse = io.MousePos;
    const bool mouseOnCanvas = mouse.x >= m_canvas.x0 && mouse.x <= m_canvas.x1 &&
                               mouse.y >= m_canvas.minimapY && mouse.y <= m_canvas.bodyBottom;
    const double anchor =
        mouseOnCanvas ? ToRelativeNs(mouse.x) : (m_state.viewStartNs + m_state.viewEndNs) * 0.5;
    const double width = m_state.viewEndNs - m_state.viewStartNs;

    const bool zoomIn = ImGui::IsKeyDown(GLFW_KEY_W), zoomOut = ImGui::IsKeyDown(GLFW_KEY_S);
    if (zoomIn != zoomOut) {
        m_zoomHeld += frameDt;
        ZoomAround(anchor, KeyZoomFactor(m_zoomHeld, frameDt, zoomIn));
    } else {
        m_zoomHeld = 0;
    }
    const bool left = ImGui::IsKeyDown(GLFW_KEY_A), right = ImGui::IsKeyDown(GLFW_KEY_D);
    if (left != right) {
        m_panHeld += frameDt;
        Pan((right ? 1.0 : -1.0) * width * KeyPanViews(m_panHeld, frameDt));
    } else {
        m_panHeld = 0;
    }
    if (ImGui::IsKeyPressed(GLFW_KEY_F, false)) {
        if (m_state.selected.valid()) {
            Select(m_state.selected, true);
        } else if (m_state.hasRange) {
            ShowRange(static_cast<double>(m_state.rangeStartNs),
                      static_cast<double>(m_state.rangeEndNs), true);
        }
    }
    if (ImGui::IsKeyPressed(GLFW_KEY_HOME, false)) {
        // Everything: the whole recording, and the host processes the first screen folded.
        ShowAll();
        UnfoldFirstScreen();
    }
    if (ImGui::IsKeyPressed(GLFW_KEY_V, false)) m_state.showAllFlows = !m_state.showAllFlows;
    if (ImGui::IsKeyPressed(GLFW_KEY_ESCAPE, false)) {
        m_state.selected = {};
        m_state.hasRange = false;
        m_state.hasMark = false;
    }
}

void TimelineView::HandleMouse() {
    ImGuiIO& io = ImGui::GetIO();
    const ImVec2 mouse = io.MousePos;
    const bool hovered = ImGui::IsItemHovered();
    const bool inSlices =
        hovered && mouse.x >= m_canvas.x0 && mouse.x <= m_canvas.x1 && mouse.y >= m_canvas.bodyTop;
    const bool inHeaders = hovered && mouse.x < m_canvas.x0 && mouse.y >= m_canvas.bodyTop;
    const bool inMinimap = hovered && mouse.y >= m_canvas.minimapY && mouse.y < m_canvas.rulerY &&
                           mouse.x >= m_canvas.x0;
    const bool inRuler = hovered && mouse.y >= m_canvas.rulerY && mouse.y < m_canvas.bodyTop &&
                         mouse.x >= m_canvas.x0;

    // The track-name column's right edge: drag it to resize the column.
    const bool onHeaderEdge =
        hovered && std::fabs(mouse.x - m_canvas.x0) <= 3.0f && mouse.y >= m_canvas.bodyTop;
    if (onHeaderEdge || m_headerResizing) ImGui::SetMouseCursor(ImGuiMouseCursor_ResizeEW);
    if (onHeaderEdge && ImGui::IsMouseClicked(ImGuiMouseButton_Left)) m_headerResizing = true;
    if (m_headerResizing) {
        if (ImGui::IsMouseDown(ImGuiMouseButton_Left))
            m_headerWidthPx = std::max(120.0f, mouse.x - m_canvas.headerX0);
        else
            m_headerResizing = false;
        return;
    }
    if (hovered && io.MouseWheel != 0.0f) {
        if (inHeaders || io.KeyShift) {
            m_scrollY -= io.MouseWheel * 3.0f * m_metrics.rowHeight;
        } else if (mouse.x >= m_canvas.x0) {
            ZoomAround(ToRelativeNs(mouse.x), std::pow(0.8, io.MouseWheel));
        }
    }
    if (inMinimap && ImGui::IsMouseClicked(ImGuiMouseButton_Left)) m_minimapDragging = true;
    if (m_minimapDragging) {
        if (!ImGui::IsMouseDown(ImGuiMouseButton_Left)) {
            m_minimapDragging = false;
        } else {
            const double span =
                std::max<double>(1000.0, static_cast<double>(m_model.lastNs - m_model.firstNs));
            const double center = (mouse.x - m_canvas.x0) / (m_canvas.x1 - m_canvas.x0) * span;
            const double width = m_state.viewEndNs - m_state.viewStartNs;
            m_state.viewStartNs = center - width * 0.5;
            m_state.viewEndNs = center + width * 0.5;
            ClampView();
        }
        return;
    }
    if ((inSlices || inRuler) && ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
        m_dragStartX = mouse.x;
        m_dragStartY = mouse.y;
        m_dragStartViewNs = m_state.viewStartNs;
        m_dragStartScroll = m_scrollY;
        if (io.KeyShift || inRuler) {
            m_rangeDragging = true;
            m_state.hasRange = false;
        } else {
            m_dragging = true;
        }
    }
    if (m_rangeDragging) {
        const double a = ToRelativeNs(m_dragStartX), b = ToRelativeNs(mouse.x);
        m_state.rangeStartNs = static_cast<TimeNs>(std::floor(std::min(a, b)));
        m_state.rangeEndNs = static_cast<TimeNs>(std::ceil(std::max(a, b)));
        m_state.hasRange = std::fabs(mouse.x - m_dragStartX) > kDragThresholdPx;
        if (!ImGui::IsMouseDown(ImGuiMouseButton_Left)) {
            m_rangeDragging = false;
            // The tracks under the dragged height; a drag on the ruler takes every track.
            m_state.rangeTracks.clear();
            const float y0 = std::min(m_dragStartY, mouse.y), y1 = std::max(m_dragStartY, mouse.y);
            const bool allTracks = m_dragStartY < m_canvas.bodyTop;
            const float scrollTop = m_canvas.bodyTop + m_layout.pinnedHeight();
            auto collect = [&](const std::vector<Lane>& lanes, float originY) {
                for (const Lane& lane : lanes) {
                    if (lane.kind != Lane::Kind::kTrack) continue;
                    const float top = originY + lane.y, bottom = top + lane.height;
                    if (allTracks || (bottom >= y0 && top <= y1))
                        m_state.rangeTracks.push_back(lane.track);
                }
            };
            collect(m_layout.pinnedLanes(), m_canvas.bodyTop);
            collect(m_layout.lanes(), scrollTop - m_scrollY);
        }
        return;
    }
    if (m_dragging) {
        const float dx = mouse.x - m_dragStartX, dy = mouse.y - m_dragStartY;
        const bool moved = std::fabs(dx) > kDragThresholdPx || std::fabs(dy) > kDragThresholdPx;
        if (moved) {
            const double width = m_state.viewEndNs - m_state.viewStartNs;
            m_state.viewStartNs = m_dragStartViewNs - dx / m_canvas.pxPerNs;
            m_state.viewEndNs = m_state.viewStartNs + width;
            ClampView();
            m_scrollY = m_dragStartScroll - dy;
        }
        if (!ImGui::IsMouseDown(ImGuiMouseButton_Left)) {
            m_dragging = false;
            if (!moved) {  // a click: select what was under the mouse
                Select(m_hover.slice, false);
                m_clickSelected = m_hover.slice.valid();
            }
        }
    }
    if (inSlices && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left))
        ZoomAround(ToRelativeNs(mouse.x), 2.0);
}

}  // namespace marey
