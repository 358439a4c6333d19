// The critical path over the timeline: each stretch's part of its slice outlined in the colour
// of what bounds it, a launch's wait or a wait behind other work drawn as an arrow from where it
// began, and the path's jumps from one thread or stream to another as dashed white arrows (the
// flows' arrows are solid).
#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "core/TextFormat.hpp"
#include "timeline/TimelineView.hpp"

namespace marey {
namespace {

constexpr size_t kMostStretchesDrawn = 20000;  // more cannot be told apart; zooming in shows all

void Arrow(ImDrawList* draw, ImVec2 from, ImVec2 to, ImU32 color, float thickness) {
    draw->AddLine(from, to, color, thickness);
    const float dx = to.x - from.x, dy = to.y - from.y;
    const float length = std::sqrt(dx * dx + dy * dy);
    if (length < 8.0f) return;
    const float ux = dx / length, uy = dy / length;
    draw->AddTriangleFilled(to, ImVec2(to.x - 7 * ux + 3.5f * uy, to.y - 7 * uy - 3.5f * ux),
                            ImVec2(to.x - 7 * ux - 3.5f * uy, to.y - 7 * uy + 3.5f * ux), color);
}

// A jump of the path: dashed, so that it is never taken for a flow's arrow.
void DashedArrow(ImDrawList* draw, ImVec2 from, ImVec2 to, ImU32 color) {
    const float dx = to.x - from.x, dy = to.y - from.y;
    const float length = std::sqrt(dx * dx + dy * dy);
    if (length < 1.0f) return;
    constexpr float kDashPx = 5.0f;
    for (float at = 0; at < length; at += 2 * kDashPx) {
        const float a = at / length, b = std::min(length, at + kDashPx) / length;
        draw->AddLine(ImVec2(from.x + dx * a, from.y + dy * a),
                      ImVec2(from.x + dx * b, from.y + dy * b), color, 1.5f);
    }
    Arrow(draw, ImVec2(to.x - dx / length * 8, to.y - dy / length * 8), to, color, 1.5f);
}

bool SameRow(const SliceAddress& a, const SliceAddress& b) {
    return a.track == b.track && a.row == b.row;
}

}  // namespace

float TimelineView::RowMiddleY(uint32_t track, uint32_t row, float originY,
                               float pinnedOriginY) const {
    const Lane* lane = m_layout.FindTrack(track);
    if (!lane) return -1.0f;
    return (lane->pinned ? pinnedOriginY : originY) + lane->y +
           (static_cast<float>(row) + 0.5f) * m_metrics.rowHeight;
}

void TimelineView::DrawCriticalPath(ImDrawList* draw, float originY, float pinnedOriginY) {
    if (!m_criticalPath || m_criticalPath->stretches.empty()) return;
    const std::vector<PathStretch>& stretches = m_criticalPath->stretches;
    const TimeNs viewStart = AbsoluteNs(m_state.viewStartNs);
    const TimeNs viewEnd = AbsoluteNs(m_state.viewEndNs);
    const float half = m_metrics.rowHeight * 0.5f;
    auto x = [&](TimeNs absoluteNs) {
        return static_cast<float>(ToX(static_cast<double>(absoluteNs - m_model.firstNs)));
    };
    // The path's device times run later by its clock shift (CriticalPath::deviceShiftNs); the
    // slices are drawn at their own.
    const TimeNs shiftNs = m_criticalPath->deviceShiftNs;
    auto startsOnDevice = [](const PathStretch& s) {
        return s.bound != BoundKind::kCpu && s.bound != BoundKind::kLaunch;
    };
    auto endsOnDevice = [](const PathStretch& s) { return s.bound != BoundKind::kCpu; };
    auto startX = [&](const PathStretch& s) {
        return x(s.startNs - (startsOnDevice(s) ? shiftNs : 0));
    };
    auto endX = [&](const PathStretch& s) { return x(s.endNs - (endsOnDevice(s) ? shiftNs : 0)); };
    // The path runs forward in time: the first stretch that ends in view, by a search.
    size_t first = static_cast<size_t>(
        std::lower_bound(stretches.begin(), stretches.end(), viewStart,
                         [](const PathStretch& s, TimeNs t) { return s.endNs < t; }) -
        stretches.begin());
    if (first > 0) --first;  // its jump into the view
    size_t drawn = 0;
    for (size_t i = first; i < stretches.size() && stretches[i].startNs <= viewEnd; ++i) {
        if (drawn++ == kMostStretchesDrawn) break;
        const PathStretch& stretch = stretches[i];
        const ImU32 color = PackColor(BoundKindColor(stretch.bound));
        const float y = RowMiddleY(stretch.slice.track, stretch.slice.row, originY, pinnedOriginY);
        const float x0 = startX(stretch), x1 = std::max(endX(stretch), x0 + 1.0f);
        const bool wait =
            stretch.bound == BoundKind::kLaunch || stretch.bound == BoundKind::kKernelKernel;
        if (wait) {
            const float fromY =
                RowMiddleY(stretch.fromSlice.track, stretch.fromSlice.row, originY, pinnedOriginY);
            if (y >= 0 && fromY >= 0) Arrow(draw, ImVec2(x0, fromY), ImVec2(x1, y), color, 2.0f);
        } else if (y >= 0) {
            // A dark rim under the colour: a green outline stays visible on a green kernel.
            draw->AddRect(ImVec2(x0 - 2, y - half - 1), ImVec2(x1 + 2, y + half + 1),
                          IM_COL32(10, 10, 14, 230), 0.0f, 0, 4.0f);
            draw->AddRect(ImVec2(x0 - 1, y - half), ImVec2(x1 + 1, y + half), color, 0.0f, 0, 2.0f);
            // A collective's end on a rank that waited: the arrow from the rank that came last.
            if (!SameRow(stretch.fromSlice, stretch.slice)) {
                const float fromY = RowMiddleY(stretch.fromSlice.track, stretch.fromSlice.row,
                                               originY, pinnedOriginY);
                if (fromY >= 0) Arrow(draw, ImVec2(x0, fromY), ImVec2(x1, y), color, 2.0f);
            }
        }
        // A jump: the path left the previous stretch's row for another without time.
        if (i + 1 < stretches.size()) {
            const PathStretch& next = stretches[i + 1];
            if (SameRow(stretch.slice, next.fromSlice)) continue;
            const float toY =
                RowMiddleY(next.fromSlice.track, next.fromSlice.row, originY, pinnedOriginY);
            if (y >= 0 && toY >= 0)
                DashedArrow(draw, ImVec2(endX(stretch), y), ImVec2(startX(next), toY),
                            IM_COL32(235, 238, 245, 220));
        }
    }
}

// The path's name and length, and the colour of each bound kind, bottom left of the slice area,
// over everything else drawn there: the kinds wrap onto as many lines as the width needs.
void TimelineView::DrawCriticalPathLegend(ImDrawList* draw) {
    if (!m_criticalPath || m_criticalPath->stretches.empty()) return;
    const CriticalPath& path = *m_criticalPath;
    const bool whole = path.fromNs <= m_model.firstNs && path.toNs > m_model.lastNs;
    // Across ranks the title says so, with the ranks the path visits in the order it reaches them.
    const bool acrossRanks = !path.groups.empty();
    std::string visits;
    for (const uint32_t group : path.groups)
        if (group < m_model.groups.size())
            visits += (visits.empty() ? "" : " → ") + m_model.groups[group].label;
    const std::string title =
        std::string(acrossRanks ? "critical path across the ranks, " : "critical path of ") +
        (!path.step.empty() ? "step " + path.step
         : whole            ? "the whole trace"
                            : "a range") +
        ": " + FormatDuration(path.lengthNs) + (visits.empty() ? "" : " (" + visits + ")");
    const float room = std::max(120.0f, m_canvas.x1 - m_canvas.x0 - 16);
    const float lineHeight = ImGui::GetTextLineHeight() + 4;
    // Lay the kinds out in lines first, then draw from the top of the box down.
    std::vector<std::vector<int>> lines(1);
    float lineWidth = 0, widest = ImGui::CalcTextSize(title.c_str()).x;
    for (int k = 0; k < kBoundKindCount; ++k) {
        const float width = ImGui::CalcTextSize(BoundKindName(static_cast<BoundKind>(k))).x + 26;
        if (lineWidth > 0 && lineWidth + width > room) lines.emplace_back(), lineWidth = 0;
        lines.back().push_back(k);
        lineWidth += width;
        widest = std::max(widest, lineWidth);
    }
    const float x0 = m_canvas.x0 + 8, bottom = m_canvas.bodyBottom - 4;
    const float top = bottom - static_cast<float>(lines.size() + 1) * lineHeight;
    draw->AddRectFilled(ImVec2(x0 - 4, top - 2), ImVec2(x0 + std::min(widest, room) + 4, bottom),
                        IM_COL32(24, 27, 34, 235), 3.0f);
    float y = top;
    for (const std::vector<int>& line : lines) {
        float x = x0;
        for (const int k : line) {
            const BoundKind kind = static_cast<BoundKind>(k);
            draw->AddRect(ImVec2(x, y + 3), ImVec2(x + 12, y + 15), PackColor(BoundKindColor(kind)),
                          0.0f, 0, 2.0f);
            draw->AddText(ImVec2(x + 16, y), IM_COL32(200, 205, 215, 255), BoundKindName(kind));
            x += ImGui::CalcTextSize(BoundKindName(kind)).x + 26;
        }
        y += lineHeight;
    }
    draw->AddText(ImVec2(x0, y), IM_COL32(235, 238, 245, 255), title.c_str());
}

}  // namespace marey
