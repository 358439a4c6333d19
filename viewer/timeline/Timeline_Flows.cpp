// Flows drawn as straight arrows from source to destination, so that their slant is faithful:
// a tilted HostToDevice line is a healthy launch-ahead pipeline, a vertical one a device that
// waits for the host (seed 004). By default only the arrows of the selected and hovered slices
// and the chains they start are drawn, so that arrows never hide the data; V draws every flow of
// the shown categories, as a wall of lines shows where launches cluster.
#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "timeline/TimelineView.hpp"

namespace marey {
namespace {
constexpr int kMaxFlowsPerFrame = 5000;  // more cannot be told apart; zooming in shows them all
constexpr int kChainHops = 6;  // a launch chain: host op → enqueue → dequeue → device, and back
constexpr size_t kMaxFocusSlices = 64;
}  // namespace

bool TimelineView::OnFlowFocus(uint32_t track, TimeNs t) const {
    for (const SliceRef& slice : m_flowFocus)
        if (FlowEndOn(slice, track, t)) return true;
    return false;
}

void TimelineView::CollectFlowFocus(const Flow* begin, TimeNs viewStart, TimeNs viewEnd) {
    m_flowFocus.clear();
    if (m_state.selected.valid()) m_flowFocus.push_back(m_state.selected);
    if (m_hover.slice.valid() && !(m_hover.slice == m_state.selected))
        m_flowFocus.push_back(m_hover.slice);
    const PodArray<Flow>& flows = m_model.flows;
    auto addSlice = [&](uint32_t track, TimeNs t) {
        const SliceRef slice = EnclosingSlice(track, t);
        if (!slice.valid() || m_flowFocus.size() >= kMaxFocusSlices) return false;
        if (std::find(m_flowFocus.begin(), m_flowFocus.end(), slice) != m_flowFocus.end())
            return false;
        m_flowFocus.push_back(slice);
        return true;
    };
    for (int hop = 0; hop < kChainHops && !m_flowFocus.empty(); ++hop) {
        bool grew = false;
        for (const Flow* f = begin;
             f != flows.end() && f->fromTs <= viewEnd + m_data->maxFlowSpanNs; ++f) {
            if (std::max(f->fromTs, f->toTs) < viewStart || std::min(f->fromTs, f->toTs) > viewEnd)
                continue;
            const uint32_t fromTrack = m_model.FlowFromTrack(*f), toTrack = m_model.FlowToTrack(*f);
            if (OnFlowFocus(fromTrack, f->fromTs))
                grew |= addSlice(toTrack, f->toTs);
            else if (OnFlowFocus(toTrack, f->toTs))
                grew |= addSlice(fromTrack, f->fromTs);
        }
        if (!grew) break;
    }
}

float TimelineView::FlowEndY(uint32_t track, TimeNs t, float originY, float pinnedOriginY,
                             bool exactDepth) const {
    const Lane* lane = m_layout.FindTrack(track);
    if (!lane) return -1.0f;
    const SliceRef slice = exactDepth ? EnclosingSlice(track, t) : SliceRef{};
    const float row = slice.valid() ? static_cast<float>(slice.row) : 0.0f;
    return (lane->pinned ? pinnedOriginY : originY) + lane->y + (row + 0.5f) * m_metrics.rowHeight;
}

void TimelineView::DrawFlows(ImDrawList* draw, float originY, float pinnedOriginY) {
    m_frameStats.flows = 0;
    const PodArray<Flow>& flows = m_model.flows;
    if (flows.empty()) return;
    const TimeNs viewStart = AbsoluteNs(m_state.viewStartNs),
                 viewEnd = AbsoluteNs(m_state.viewEndNs);
    // Flows are sorted by source time; none spans more than m_data->maxFlowSpanNs.
    const TimeNs from = viewStart > INT64_MIN + m_data->maxFlowSpanNs
                            ? viewStart - m_data->maxFlowSpanNs
                            : INT64_MIN;
    const Flow* begin = std::lower_bound(flows.begin(), flows.end(), from,
                                         [](const Flow& f, TimeNs t) { return f.fromTs < t; });
    const bool all = m_state.showAllFlows;
    if (!all) {
        CollectFlowFocus(begin, viewStart, viewEnd);
        if (m_flowFocus.empty()) return;
    }
    // Count first: many arrows at once are drawn fainter so the slices stay readable.
    int visible = 0;
    for (const Flow* f = begin;
         all && f != flows.end() && f->fromTs <= viewEnd + m_data->maxFlowSpanNs &&
         visible < kMaxFlowsPerFrame;
         ++f)
        if (std::max(f->fromTs, f->toTs) >= viewStart && std::min(f->fromTs, f->toTs) <= viewEnd)
            ++visible;
    const float baseAlpha = visible > 2000  ? 0.18f
                            : visible > 300 ? 0.35f
                            : visible > 60  ? 0.6f
                                            : 0.85f;
    // Finding the slice depth of each end costs a search per row; when hundreds of arrows are on
    // screen their ends are drawn at the track's first row instead (level of detail for flows).
    const bool exactDepth = visible <= 500;
    int drawn = 0;
    bool capped = false;
    for (const Flow* f = begin; f != flows.end() && f->fromTs <= viewEnd + m_data->maxFlowSpanNs;
         ++f) {
        if (std::max(f->fromTs, f->toTs) < viewStart || std::min(f->fromTs, f->toTs) > viewEnd)
            continue;
        const StringId categoryName = m_model.FlowCategory(*f);
        const int32_t category = m_data->flowCategoryIndex[categoryName];
        if (category < 0 || !m_flowCategoryShown[static_cast<size_t>(category)]) continue;
        if (!all && !OnFlowFocus(m_model.FlowFromTrack(*f), f->fromTs) &&
            !OnFlowFocus(m_model.FlowToTrack(*f), f->toTs))
            continue;
        if (drawn == kMaxFlowsPerFrame) {
            capped = true;
            break;
        }
        const uint32_t fromTrack = m_model.FlowFromTrack(*f), toTrack = m_model.FlowToTrack(*f);
        const float y0 = FlowEndY(fromTrack, f->fromTs, originY, pinnedOriginY, exactDepth);
        const float y1 = FlowEndY(toTrack, f->toTs, originY, pinnedOriginY, exactDepth);
        if (y0 < 0 || y1 < 0) continue;
        const float x0 = static_cast<float>(ToX(static_cast<double>(f->fromTs - m_model.firstNs)));
        const float x1 = static_cast<float>(ToX(static_cast<double>(f->toTs - m_model.firstNs)));
        const Rgba color = NameColor(categoryName);
        const bool related = !all || (m_state.selected.valid() &&
                                      (FlowEndOn(m_state.selected, fromTrack, f->fromTs) ||
                                       FlowEndOn(m_state.selected, toTrack, f->toTs)));
        const ImU32 packed = PackColor({color.r * 0.5f + 0.5f, color.g * 0.5f + 0.5f,
                                        color.b * 0.5f + 0.5f, related ? 1.0f : baseAlpha});
        draw->AddLine(ImVec2(x0, y0), ImVec2(x1, y1), packed, related ? 2.0f : 1.2f);
        // Arrow head at the destination, and a dot at the source, while few arrows are drawn.
        if (!exactDepth) {
            ++drawn;
            continue;  // many arrows: lines only
        }
        const float dx = x1 - x0, dy = y1 - y0;
        const float length = std::sqrt(dx * dx + dy * dy);
        if (length > 8.0f) {
            const float ux = dx / length, uy = dy / length;
            draw->AddTriangleFilled(
                ImVec2(x1, y1), ImVec2(x1 - 7 * ux + 3.5f * uy, y1 - 7 * uy - 3.5f * ux),
                ImVec2(x1 - 7 * ux - 3.5f * uy, y1 - 7 * uy + 3.5f * ux), packed);
        }
        draw->AddCircleFilled(ImVec2(x0, y0), 2.0f, packed);
        ++drawn;
    }
    m_frameStats.flows = static_cast<size_t>(drawn);
    if (capped) {
        const char* note = "many flows at this zoom: 5000 are drawn; zoom in (W) to see all";
        draw->AddText(ImVec2(m_canvas.x0 + 8, m_canvas.bodyBottom - 20),
                      IM_COL32(255, 200, 120, 255), note);
    }
}

}  // namespace marey
