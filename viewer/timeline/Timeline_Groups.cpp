// Several ranks in one timeline: the header of each rank's group of processes (fold, unfold,
// fold the others); and in a folded rank's or process's header, a strip of how busy its threads
// are.
#include <imgui.h>

#include <algorithm>
#include <cstdlib>

#include "index/RowQuery.hpp"
#include "stats/TraceSummary.hpp"
#include "timeline/TimelineView.hpp"
#include "timeline/ValueFormat.hpp"

namespace tracelens {

void TimelineView::DrawGroupHeader(ImDrawList* draw, const Lane& lane, float laneY, bool hovered) {
    const uint32_t group = lane.process;
    const ProcessGroup& rank = m_model.groups[group];
    const bool collapsed = m_layout.collapsedGroup[group];
    const float x0 = m_canvas.headerX0, x1 = m_canvas.x0 - 2;
    const Rgba color = SeriesColor(group);
    draw->AddRectFilled(ImVec2(x0, laneY), ImVec2(m_canvas.x1, laneY + lane.height - 1), IM_COL32(52, 58, 72, 255));
    draw->AddRectFilled(ImVec2(x0, laneY), ImVec2(x0 + m_metrics.groupIndentPx - 4, laneY + lane.height - 1), PackColor(color));
    const std::string label = std::string(collapsed ? "▶ " : "▼ ") + rank.label;
    const float textY = laneY + (lane.height - ImGui::GetFontSize()) * 0.5f;
    draw->AddText(ImVec2(x0 + m_metrics.groupIndentPx + 2, textY), IM_COL32(245, 247, 252, 255), label.c_str());
    const float noteX = x0 + m_metrics.groupIndentPx + 10 + ImGui::CalcTextSize(label.c_str()).x;
    // The note may run into the time area while the rank is unfolded (nothing is drawn there).
    const float noteEnd = collapsed ? x1 - 4 : m_canvas.x1;
    if (noteX < noteEnd - 20) {
        std::string note = rank.note;
        if (rank.shiftNs != 0)
            note += " (" + std::string(rank.shiftNs > 0 ? "+" : "−") + FormatDuration(std::abs(rank.shiftNs)) + ")";
        draw->PushClipRect(ImVec2(noteX, laneY), ImVec2(noteEnd, laneY + lane.height), true);
        draw->AddText(ImVec2(noteX, textY), IM_COL32(150, 158, 172, 255), note.c_str());
        draw->PopClipRect();
    }
    if (hovered && ImGui::IsMouseReleased(ImGuiMouseButton_Left) && !m_dragging) {
        m_layout.collapsedGroup[group] = !collapsed;
        m_layoutDirty = true;
    }
    if (hovered && ImGui::IsMouseClicked(ImGuiMouseButton_Right)) ImGui::OpenPopup("rank menu");
    if (hovered && !ImGui::IsPopupOpen("rank menu")) {
        ImGui::BeginTooltip();
        ImGui::Text("%s · %s", rank.label.c_str(), rank.note.c_str());
        ImGui::TextDisabled("%s", rank.source.path.c_str());
        if (rank.shiftNs != 0)
            ImGui::Text("its times are moved %s%s to line up with the rank that keeps its clock", rank.shiftNs > 0 ? "+" : "−",
                        FormatDuration(std::abs(rank.shiftNs)).c_str());
        ImGui::Text("%llu events, %llu import problems", static_cast<unsigned long long>(rank.report.eventCount),
                    static_cast<unsigned long long>(rank.report.problemCount));
        ImGui::TextDisabled("click: fold or unfold · right-click: fold the other ranks");
        ImGui::EndTooltip();
    }
    if (ImGui::BeginPopup("rank menu")) {
        if (ImGui::MenuItem("Fold the other ranks")) {
            m_layout.collapsedGroup.assign(m_model.groups.size(), 1);
            m_layout.collapsedGroup[group] = 0;
            m_layoutDirty = true;
        }
        if (ImGui::MenuItem("Unfold every rank")) SetGroupsCollapsed(false);
        if (ImGui::MenuItem("Fold every rank")) SetGroupsCollapsed(true);
        ImGui::EndPopup();
    }
}

void TimelineView::DrawFoldedSummary(BoxRenderer& boxes, const Lane& lane, float laneY) {
    // Per pixel, how many of the folded threads run a top-level slice: the level-of-detail query
    // of each thread's first row, so a folded rank or process costs no more than one row per thread.
    m_foldedTracks.clear();
    const bool group = lane.kind == Lane::Kind::kGroupHeader;
    auto addThreads = [&](const Process& process) {
        for (const uint32_t t : process.tracks)
            if (m_model.tracks[t].kind != TrackKind::kCounter && !m_model.tracks[t].rows.empty()) m_foldedTracks.push_back(t);
    };
    if (!group) addThreads(m_model.processes[lane.process]);
    for (const Process& process : m_model.processes)
        if (group && process.group == lane.process) addThreads(process);
    if (m_foldedTracks.empty()) return;
    const int width = std::max(1, static_cast<int>(m_canvas.x1 - m_canvas.x0));
    // Each thread's busy pixel runs are added as +1 at their start and -1 past their end, then
    // summed once: O(items + width) per thread, whatever the runs' widths.
    m_foldedBusy.assign(static_cast<size_t>(width) + 1, 0);
    const TimeNs viewStart = AbsoluteNs(m_state.viewStartNs);
    const TimeNs viewEnd = AbsoluteNs(m_state.viewEndNs) + 1;
    const TimeNs minVisibleNs = std::max<TimeNs>(1, static_cast<TimeNs>(1.0 / m_canvas.pxPerNs));
    for (const uint32_t t : m_foldedTracks) {
        m_items.clear();
        QueryVisible(m_model.tracks[t].rows[0], viewStart, viewEnd, minVisibleNs, m_items);
        int lastPixel = -1;  // a pixel counts each thread once
        for (const VisibleItem& item : m_items) {
            const int a = std::max({0, lastPixel + 1, static_cast<int>(ToX(static_cast<double>(item.startNs - m_model.firstNs)) - m_canvas.x0)});
            const int b = std::min(width - 1, static_cast<int>(ToX(static_cast<double>(item.endNs - m_model.firstNs)) - m_canvas.x0));
            if (a > b) continue;
            ++m_foldedBusy[static_cast<size_t>(a)];
            --m_foldedBusy[static_cast<size_t>(b) + 1];
            lastPixel = b;
        }
    }
    for (size_t x = 1; x < m_foldedBusy.size(); ++x) m_foldedBusy[x] += m_foldedBusy[x - 1];
    // A profile: the busier the threads at a pixel, the taller the bar there.
    const size_t threads = m_foldedTracks.size();
    const uint32_t colorIndex = group ? lane.process : m_model.processes[lane.process].group;
    const Rgba color = colorIndex == kNoGroup ? Rgba{0.45f, 0.62f, 0.85f, 1} : SeriesColor(colorIndex);
    const float bottom = laneY + lane.height - 2, tallest = lane.height - 5;
    auto height = [&](int x) {
        const int32_t busy = m_foldedBusy[static_cast<size_t>(x)];
        return busy <= 0 ? 0 : std::max(2, static_cast<int>(tallest * static_cast<float>(busy) / threads + 0.5f));
    };
    for (int x = 0; x < width;) {
        const int h = height(x);
        int end = x + 1;
        while (end < width && height(end) == h) ++end;
        if (h > 0) boxes.Add({m_canvas.x0 + x, bottom - h, m_canvas.x0 + end, bottom, color.r, color.g, color.b, 0.8f, 0.0f});
        x = end;
    }
}

}  // namespace tracelens
