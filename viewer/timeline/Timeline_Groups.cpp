// Several ranks in one timeline: the header of each rank's group of processes (fold, unfold,
// fold the others); and in a folded rank's or process's header, a strip of how busy its threads
// are.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "core/TextFormat.hpp"
#include "index/RowQuery.hpp"
#include "timeline/TimelineView.hpp"
#include "timeline/ValueFormat.hpp"

namespace marey {

void TimelineView::DrawGroupHeader(ImDrawList* draw, const Lane& lane, float laneY, bool hovered) {
    const uint32_t group = lane.process;
    const ProcessGroup& rank = m_model.groups[group];
    const bool collapsed = m_layout.collapsedGroup[group];
    const float x0 = m_canvas.headerX0, x1 = m_canvas.x0 - 2;
    const Rgba color = SeriesColor(group);
    draw->AddRectFilled(ImVec2(x0, laneY), ImVec2(m_canvas.x1, laneY + lane.height - 1),
                        IM_COL32(52, 58, 72, 255));
    draw->AddRectFilled(ImVec2(x0, laneY),
                        ImVec2(x0 + m_metrics.groupIndentPx - 4, laneY + lane.height - 1),
                        PackColor(color));
    const std::string label = std::string(collapsed ? "▶ " : "▼ ") + rank.label;
    const float textY = laneY + (lane.height - ImGui::GetFontSize()) * 0.5f;
    draw->AddText(ImVec2(x0 + m_metrics.groupIndentPx + 2, textY), IM_COL32(245, 247, 252, 255),
                  label.c_str());
    const float noteX = x0 + m_metrics.groupIndentPx + 10 + ImGui::CalcTextSize(label.c_str()).x;
    // The note may run into the time area while the rank is unfolded (nothing is drawn there).
    const float noteEnd = collapsed ? x1 - 4 : m_canvas.x1;
    if (noteX < noteEnd - 20) {
        std::string note = rank.note;
        if (rank.shiftNs != 0)
            note += " (" + std::string(rank.shiftNs > 0 ? "+" : "−") +
                    FormatDuration(std::abs(rank.shiftNs)) + ")";
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
        ImGui::TextDisabled("%s", m_model.sources[group].path.c_str());
        if (rank.shiftNs != 0)
            ImGui::Text("its times are moved %s%s to line up with the rank that keeps its clock",
                        rank.shiftNs > 0 ? "+" : "−",
                        FormatDuration(std::abs(rank.shiftNs)).c_str());
        ImGui::Text("%llu events, %llu import problems",
                    static_cast<unsigned long long>(rank.report.eventCount),
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

void TimelineView::CountBusyThreads(const Process& process) {
    // Each thread's busy pixel runs are added as +1 at their start and -1 past their end, then
    // summed once: O(items + width) per thread, whatever the runs' widths. The level-of-detail
    // query of each thread's first row: a folded process costs no more than one row per thread.
    const int width = std::max(1, static_cast<int>(m_canvas.x1 - m_canvas.x0));
    m_foldedBusy.assign(static_cast<size_t>(width) + 1, 0);
    m_foldedThreads = 0;
    const TimeNs viewStart = AbsoluteNs(m_state.viewStartNs);
    const TimeNs viewEnd = AbsoluteNs(m_state.viewEndNs) + 1;
    const TimeNs minVisibleNs = std::max<TimeNs>(1, static_cast<TimeNs>(1.0 / m_canvas.pxPerNs));
    for (const uint32_t t : process.tracks) {
        const Track& track = m_model.tracks[t];
        if (track.kind == TrackKind::kCounter || track.rows.empty()) continue;
        ++m_foldedThreads;
        m_items.clear();
        QueryVisible(track.rows[0], viewStart, viewEnd, minVisibleNs, m_items);
        int lastPixel = -1;  // a pixel counts each thread once
        for (const VisibleItem& item : m_items) {
            const int a = std::max(
                {0, lastPixel + 1,
                 static_cast<int>(ToX(static_cast<double>(item.startNs - m_model.firstNs)) -
                                  m_canvas.x0)});
            const int b = std::min(
                width - 1, static_cast<int>(ToX(static_cast<double>(item.endNs - m_model.firstNs)) -
                                            m_canvas.x0));
            if (a > b) continue;
            ++m_foldedBusy[static_cast<size_t>(a)];
            --m_foldedBusy[static_cast<size_t>(b) + 1];
            lastPixel = b;
        }
    }
    for (size_t x = 1; x < m_foldedBusy.size(); ++x) m_foldedBusy[x] += m_foldedBusy[x - 1];
}

void TimelineView::DrawBusyRuns(BoxRenderer& boxes, const Rgba& color, float top, float bottom,
                                bool profile) {
    // A profile grows with the share of threads busy; a band is drawn where any thread is, more
    // opaque the more are. Runs of equal height or shade are one box each.
    const int width = static_cast<int>(m_foldedBusy.size()) - 1;
    const float threads = static_cast<float>(std::max<uint32_t>(1, m_foldedThreads));
    constexpr int kShades = 4;
    auto level = [&](int x) {
        const int32_t busy = m_foldedBusy[static_cast<size_t>(x)];
        if (busy <= 0) return 0;
        if (profile)
            return std::max(
                2, static_cast<int>((bottom - top) * static_cast<float>(busy) / threads + 0.5f));
        return std::max(1, static_cast<int>(std::ceil(kShades * static_cast<float>(busy) /
                                                      threads)));  // all busy: opaque
    };
    for (int x = 0; x < width;) {
        const int value = level(x);
        int end = x + 1;
        while (end < width && level(end) == value) ++end;
        if (value > 0) {
            const float y0 = profile ? bottom - static_cast<float>(value) : top;
            const float alpha =
                profile ? 0.8f : 0.45f + 0.55f * static_cast<float>(value) / kShades;
            boxes.Add({m_canvas.x0 + x, y0, m_canvas.x0 + end, bottom, color.r, color.g, color.b,
                       alpha, 0.0f});
        }
        x = end;
    }
}

void TimelineView::DrawFoldedSummary(BoxRenderer& boxes, const Lane& lane, float laneY) {
    const float top = laneY + 3, bottom = laneY + lane.height - 2;
    if (lane.kind == Lane::Kind::kProcessHeader) {
        // A folded process: the share of its threads busy, as a profile.
        const Process& process = m_model.processes[lane.process];
        const Rgba color =
            process.group == kNoGroup ? Rgba{0.45f, 0.62f, 0.85f, 1} : SeriesColor(process.group);
        CountBusyThreads(process);
        if (m_foldedThreads > 0) DrawBusyRuns(boxes, color, top, bottom, true);
        return;
    }
    // A folded rank: a thin band per process with threads, in their order, so that a rank's
    // device, communication and host activity stay apart (computing longer, waiting less).
    m_foldedProcesses.clear();  // the group's processes with threads
    for (uint32_t p = 0; p < m_model.processes.size(); ++p) {
        const Process& process = m_model.processes[p];
        if (process.group != lane.process) continue;
        const bool threads =
            std::any_of(process.tracks.begin(), process.tracks.end(), [&](uint32_t t) {
                return m_model.tracks[t].kind != TrackKind::kCounter &&
                       !m_model.tracks[t].rows.empty();
            });
        if (threads) m_foldedProcesses.push_back(p);
    }
    if (m_foldedProcesses.empty()) return;
    const Rgba color = SeriesColor(lane.process);
    const float band = (bottom - top) / static_cast<float>(m_foldedProcesses.size());
    for (size_t i = 0; i < m_foldedProcesses.size(); ++i) {
        CountBusyThreads(m_model.processes[m_foldedProcesses[i]]);
        const float y0 = top + band * static_cast<float>(i);
        DrawBusyRuns(boxes, color, y0, std::max(y0 + 1.0f, y0 + band - (band >= 3 ? 1.0f : 0.0f)),
                     false);
    }
}

}  // namespace marey
