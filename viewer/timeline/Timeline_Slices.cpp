// Slice tracks: boxes from the level-of-detail query, labels where they fit, track headers,
// instants, and the tooltip of what is under the mouse.
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "core/TextFormat.hpp"
#include "index/RowQuery.hpp"
#include "timeline/ElideText.hpp"
#include "timeline/TimelineView.hpp"
#include "timeline/ValueFormat.hpp"

namespace marey {
namespace {

constexpr float kLabelMinWidthPx = 28.0f;
constexpr float kMinBoxWidthPx = 1.0f;
constexpr float kMinMatchWidthPx = 3.0f;  // a search match is never narrower

std::string CountText(uint64_t count) {
    if (count >= 10000000) return std::to_string(count / 1000000) + "M";
    if (count >= 10000) return std::to_string(count / 1000) + "k";
    return std::to_string(count);
}

}  // namespace

void TimelineView::DrawLanes(ImDrawList* draw, BoxRenderer& boxes, const std::vector<Lane>& lanes,
                             float originY, float clipTop, float clipBottom) {
    // Lanes are sorted by y: binary search the first visible one.
    const float firstY = clipTop - originY;
    auto it = std::lower_bound(lanes.begin(), lanes.end(), firstY,
                               [](const Lane& lane, float y) { return lane.y + lane.height < y; });
    for (; it != lanes.end(); ++it) {
        const float laneY = originY + it->y;
        if (laneY > clipBottom) break;
        DrawHeader(draw, *it, laneY);
        const bool folded =
            it->kind == Lane::Kind::kGroupHeader     ? m_layout.collapsedGroup[it->process] != 0
            : it->kind == Lane::Kind::kProcessHeader ? m_layout.collapsedProcess[it->process] != 0
                                                     : false;
        if (folded) DrawFoldedSummary(boxes, *it, laneY);
        if (it->kind == Lane::Kind::kAnalysisTrack) {
            DrawAnalysisCounter(boxes, *it, laneY);
        } else if (it->kind == Lane::Kind::kTrack) {
            const Track& track = m_model.tracks[it->track];
            if (track.kind == TrackKind::kCounter) {
                DrawCounterTrack(draw, boxes, *it, laneY);
            } else {
                DrawSliceTrack(draw, boxes, *it, laneY);
                DrawInstants(draw, track, laneY);
            }
        } else {
            continue;
        }
        draw->AddLine(ImVec2(m_canvas.headerX0, laneY + it->height - 0.5f),
                      ImVec2(m_canvas.x1, laneY + it->height - 0.5f), IM_COL32(255, 255, 255, 10));
    }
}

void TimelineView::DrawHeader(ImDrawList* draw, const Lane& lane, float laneY) {
    const ImGuiIO& io = ImGui::GetIO();
    const float x1 = m_canvas.x0 - 2;
    // The processes of a group (one rank of several) and their tracks stand in under its header.
    const bool grouped =
        lane.kind != Lane::Kind::kGroupHeader && m_model.processes[lane.process].group != kNoGroup;
    const float x0 = m_canvas.headerX0 + (grouped ? m_metrics.groupIndentPx : 0.0f);
    const bool hovered = ImGui::IsItemHovered() && io.MousePos.x >= m_canvas.headerX0 &&
                         io.MousePos.x < x1 && io.MousePos.y >= laneY &&
                         io.MousePos.y < laneY + lane.height;
    ImGui::PushID(static_cast<int>(lane.kind));
    const bool ofTrack = lane.kind == Lane::Kind::kTrack || lane.kind == Lane::Kind::kAnalysisTrack;
    ImGui::PushID(static_cast<int>(ofTrack ? lane.track : lane.process));
    if (lane.kind == Lane::Kind::kGroupHeader) {
        DrawGroupHeader(draw, lane, laneY, hovered);
        ImGui::PopID();
        ImGui::PopID();
        return;
    }
    if (grouped)  // the group's colour runs down its indent
        draw->AddRectFilled(ImVec2(m_canvas.headerX0, laneY), ImVec2(x0 - 4, laneY + lane.height),
                            PackColor(SeriesColor(m_model.processes[lane.process].group)));
    if (lane.kind == Lane::Kind::kAnalysesHeader || lane.kind == Lane::Kind::kAnalysisTrack) {
        if (lane.kind == Lane::Kind::kAnalysesHeader)
            DrawAnalysesHeader(draw, lane, laneY, x0, hovered);
        else
            DrawAnalysisTrackHeader(draw, lane, laneY, x0, hovered);
        ImGui::PopID();
        ImGui::PopID();
        return;
    }
    if (lane.kind == Lane::Kind::kProcessHeader) {
        const Process& process = m_model.processes[lane.process];
        const bool collapsed = m_layout.collapsedProcess[lane.process];
        draw->AddRectFilled(ImVec2(x0, laneY), ImVec2(m_canvas.x1, laneY + lane.height),
                            IM_COL32(44, 48, 58, 255));
        const std::string label =
            std::string(collapsed ? "▶ " : "▼ ") + m_model.ProcessLabel(lane.process);
        const std::string_view labels = m_model.Name(process.labels);
        const float w = labels.empty()
                            ? 0
                            : ImGui::CalcTextSize(labels.data(), labels.data() + labels.size()).x;
        // The name is cut before the CPU/NPU badge in a narrow column, whole in the tooltip.
        std::string scratch;
        const std::string_view shownLabel =
            ElideToWidth(label, x1 - x0 - 12 - (labels.empty() ? 0 : w + 16), scratch);
        draw->AddText(ImVec2(x0 + 6, laneY + 3), IM_COL32(235, 238, 245, 255), shownLabel.data(),
                      shownLabel.data() + shownLabel.size());
        if (hovered && shownLabel.size() != label.size()) ImGui::SetTooltip("%s", label.c_str());
        if (!labels.empty()) {
            draw->AddRectFilled(ImVec2(x1 - w - 12, laneY + 3),
                                ImVec2(x1 - 4, laneY + lane.height - 3), IM_COL32(70, 90, 120, 255),
                                3.0f);
            draw->AddText(ImVec2(x1 - w - 8, laneY + 3), IM_COL32(220, 230, 245, 255),
                          labels.data(), labels.data() + labels.size());
        }
        if (hovered && ImGui::IsMouseReleased(ImGuiMouseButton_Left) && !m_dragging) {
            m_layout.collapsedProcess[lane.process] = !collapsed;
            m_layoutDirty = true;
        }
        ImGui::PopID();
        ImGui::PopID();
        return;
    }
    const Track& track = m_model.tracks[lane.track];
    draw->AddRectFilled(ImVec2(x0, laneY), ImVec2(x1, laneY + lane.height - 1),
                        hovered ? IM_COL32(48, 52, 62, 255) : IM_COL32(33, 36, 42, 255));
    std::string label = (lane.pinned ? "⚑ " : "") + m_model.TrackLabel(lane.track);
    uint64_t count = track.sliceCount + track.instantTs.size() + track.counterTs.size();
    std::string scratch;
    const std::string countText = CountText(count);
    const float countWidth = ImGui::CalcTextSize(countText.c_str()).x;
    const std::string_view shown = ElideToWidth(label, x1 - x0 - 24 - countWidth, scratch);
    draw->AddText(ImVec2(x0 + 16, laneY + 2), IM_COL32(210, 214, 222, 255), shown.data(),
                  shown.data() + shown.size());
    draw->AddText(ImVec2(x1 - countWidth - 6, laneY + 2), IM_COL32(130, 136, 148, 255),
                  countText.c_str());
    if (hovered) {
        if (ImGui::IsMouseClicked(ImGuiMouseButton_Right)) ImGui::OpenPopup("track menu");
        if (!ImGui::IsPopupOpen("track menu")) {
            ImGui::BeginTooltip();
            ImGui::Text("%s", m_model.TrackLabel(lane.track).c_str());
            ImGui::TextDisabled("%s", m_model.ProcessLabelWithRank(track.process).c_str());
            const std::string counts =
                CountText(track.sliceCount, "slice", "slices") + ", " +
                CountText(track.rows.size(), "row", "rows") + ", " +
                CountText(track.instantTs.size(), "instant", "instants") + ", " +
                CountText(track.counterTs.size(), "counter sample", "counter samples");
            ImGui::TextUnformatted(counts.c_str());
            if (track.overlapSliceCount)
                ImGui::TextColored(ImVec4(1, 0.75f, 0.3f, 1),
                                   "%llu slices overlap without nesting (extra rows)",
                                   static_cast<unsigned long long>(track.overlapSliceCount));
            ImGui::TextDisabled("right-click: pin to top, hide");
            ImGui::EndTooltip();
        }
    }
    if (ImGui::BeginPopup("track menu")) {
        if (ImGui::MenuItem(lane.pinned ? "Unpin" : "Pin to top")) {
            m_layout.pinnedTrack[lane.track] = !lane.pinned;
            m_layoutDirty = true;
        }
        if (ImGui::MenuItem("Hide")) {
            m_layout.hiddenTrack[lane.track] = 1;
            m_layoutDirty = true;
        }
        ImGui::EndPopup();
    }
    ImGui::PopID();
    ImGui::PopID();
}

void TimelineView::DrawSliceTrack(ImDrawList* draw, BoxRenderer& boxes, const Lane& lane,
                                  float laneY) {
    const Track& track = m_model.tracks[lane.track];
    const TimeNs viewStart = AbsoluteNs(m_state.viewStartNs);
    const TimeNs viewEnd = AbsoluteNs(m_state.viewEndNs) + 1;
    const TimeNs minVisibleNs =
        std::max<TimeNs>(1, static_cast<TimeNs>(kMinBoxWidthPx / m_canvas.pxPerNs));
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    const bool mouseInLane = ImGui::IsItemHovered() && mouse.y >= laneY &&
                             mouse.y < laneY + lane.height && mouse.x >= m_canvas.x0 &&
                             mouse.x <= m_canvas.x1;
    const bool searching = m_search.Active();
    const float rowHeight = m_metrics.rowHeight;
    DrawHostWaits(boxes, lane, laneY);  // behind the slices: added first
    for (uint32_t r = 0; r < track.rows.size(); ++r) {
        const Row& row = track.rows[r];
        const float y0 = laneY + r * rowHeight + 1, y1 = y0 + rowHeight - 2;
        if (y1 < m_canvas.bodyTop || y0 > m_canvas.bodyBottom) continue;
        m_items.clear();
        QueryVisible(row, viewStart, viewEnd, minVisibleNs, m_items);
        const bool mouseInRow = mouseInLane && mouse.y >= y0 - 1 && mouse.y < y1 + 1;
        for (const VisibleItem& item : m_items) {
            float x0 = static_cast<float>(ToX(static_cast<double>(item.startNs - m_model.firstNs)));
            float x1 = static_cast<float>(ToX(static_cast<double>(item.endNs - m_model.firstNs)));
            x0 = std::max(x0, m_canvas.x0 - 2);
            x1 = std::min(std::max(x1, x0 + kMinBoxWidthPx), m_canvas.x1 + 2);
            const StringId name = row.name[item.first];
            Rgba color = NameColor(name);
            // A match stays bright and at least 3 px wide, also inside a merged run of sub-pixel
            // slices, so that a highlighted operator can be found at any zoom.
            const bool match =
                searching &&
                (item.count == 1 ? m_search.NameMatches(name)
                                 : m_search.RowHasMatchIn(lane.track, r, item.startNs, item.endNs));
            if (searching && !match) color = Dimmed(color);
            if (match) x1 = std::max(x1, x0 + kMinMatchWidthPx);
            const bool selected = item.count == 1 && m_state.selected.track == lane.track &&
                                  m_state.selected.row == r && m_state.selected.index == item.first;
            const float style = item.count > 1 && !match ? 1.0f : selected ? 2.0f : 0.0f;
            boxes.Add({x0, y0, x1, y1, color.r, color.g, color.b, color.a, style});
            // A slice that never ended (a hang is what a person looks for): an open end of
            // chevrons at the right, where the trace stops.
            if (item.count == 1 && !m_model.unfinished.empty() &&
                m_model.IsUnfinished(lane.track, r, item.first)) {
                const float right = std::min(x1, m_canvas.x1);
                for (float cx = right - 4.0f; cx > std::max(x0, right - 40.0f); cx -= 7.0f)
                    m_openEnds.push_back({cx, y0, y1});
            }
            if (item.count == 1 && x1 - x0 >= kLabelMinWidthPx) {
                const float luminance = 0.299f * color.r + 0.587f * color.g + 0.114f * color.b;
                m_labels.push_back({x0, x1, y0, name, luminance > 0.6f});
            }
            if (mouseInRow && mouse.x >= x0 - 1 && mouse.x <= x1 + 1) {
                if (item.count > 1) {
                    m_hover.mergedCount = item.count;
                    m_hover.mergedStart = item.startNs;
                    m_hover.mergedEnd = item.endNs;
                    m_hover.slice = {};
                } else {
                    m_hover.slice = {lane.track, r, item.first, m_documentId};
                    m_hover.mergedCount = 0;
                }
            }
        }
    }
    (void)draw;
}

void TimelineView::DrawInstants(ImDrawList* draw, const Track& track, float laneY) {
    if (track.instantTs.empty()) return;
    const TimeNs viewStart = AbsoluteNs(m_state.viewStartNs),
                 viewEnd = AbsoluteNs(m_state.viewEndNs);
    const TimeNs* ts = track.instantTs.data();
    const size_t n = track.instantTs.size();
    size_t i = static_cast<size_t>(std::lower_bound(ts, ts + n, viewStart) - ts);
    float lastX = -1e9f;
    const float y = laneY + 1;
    for (int drawn = 0; i < n && ts[i] <= viewEnd && drawn < 20000; ++i) {
        const float x = static_cast<float>(ToX(static_cast<double>(ts[i] - m_model.firstNs)));
        if (x - lastX < 2.0f) continue;  // one marker per couple of pixels
        lastX = x;
        ++drawn;
        draw->AddTriangleFilled(ImVec2(x - 4, y), ImVec2(x + 4, y), ImVec2(x, y + 7),
                                IM_COL32(255, 214, 90, 255));
    }
}

void TimelineView::DrawLabels(ImDrawList* draw) {
    std::string scratch;
    for (const OverlayText& text : m_overlayTexts) {
        const ImVec2 size = ImGui::CalcTextSize(text.text.c_str());
        draw->AddRectFilled(ImVec2(text.x - 2, text.y),
                            ImVec2(text.x + size.x + 2, text.y + size.y), IM_COL32(20, 22, 26, 190),
                            2.0f);
        draw->AddText(ImVec2(text.x, text.y), IM_COL32(210, 214, 222, 255), text.text.c_str());
    }
    const ImU32 light = IM_COL32(255, 255, 255, 235), dark = IM_COL32(15, 15, 20, 255);
    for (const PendingLabel& label : m_labels) {
        const float x0 = std::max(label.x0, m_canvas.x0) + 3,
                    x1 = std::min(label.x1, m_canvas.x1) - 3;
        if (x1 - x0 < kLabelMinWidthPx - 6) continue;
        const std::string_view text = ElideToWidth(m_model.Name(label.name), x1 - x0, scratch);
        if (text.empty()) continue;
        // One pixel above the box's top: an underscore then sits on the fill, clear of the box's
        // bottom edge and of the selection's outline (it was drawn on them, and read as a space).
        draw->AddText(ImVec2(x0, label.y - 1), label.dark ? dark : light, text.data(),
                      text.data() + text.size());
    }
}

void TimelineView::DrawHoverTooltip() {
    if (m_hover.mergedCount > 1) {
        ImGui::BeginTooltip();
        ImGui::Text("%u slices merged at this zoom", m_hover.mergedCount);
        ImGui::TextDisabled("%s .. %s (%s); zoom in (W) to see them",
                            RelativeTime(m_hover.mergedStart).c_str(),
                            RelativeTime(m_hover.mergedEnd).c_str(),
                            FormatDuration(m_hover.mergedEnd - m_hover.mergedStart).c_str());
        ImGui::EndTooltip();
        return;
    }
    if (m_hover.counterTrack != UINT32_MAX) {
        const Track& track = m_model.tracks[m_hover.counterTrack];
        const TimeNs* ts = track.counterTs.data();
        const size_t n = track.counterTs.size();
        const size_t i = static_cast<size_t>(std::upper_bound(ts, ts + n, m_hover.timeNs) - ts);
        if (i == 0) return;
        ImGui::BeginTooltip();
        ImGui::Text("%s", m_model.TrackLabel(m_hover.counterTrack).c_str());
        ImGui::Text(
            "%s at %s (%.10g %s)",
            CounterValueText(track.counterValue[i - 1], m_model.Name(track.counterKey)).c_str(),
            RelativeTime(ts[i - 1]).c_str(), track.counterValue[i - 1],
            std::string(m_model.Name(track.counterKey)).c_str());
        ImGui::EndTooltip();
        return;
    }
    if (DrawAnalysisTooltip()) return;
    const SliceRef& s = m_hover.slice;
    if (!s.valid()) return;
    const Row& row = m_model.tracks[s.track].rows[s.row];
    const TimeNs start = row.start[s.index], end = row.end[s.index];
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 36);
    const std::string_view name = m_model.Name(row.name[s.index]);
    ImGui::TextUnformatted(name.data(), name.data() + name.size());
    ImGui::PopTextWrapPos();
    if (m_model.IsUnfinished(s.track, s.row, s.index))
        ImGui::TextColored(
            ImVec4(1.0f, 0.7f, 0.3f, 1.0f),
            "unfinished: it never ended (no matching end event); drawn to the end of the trace");
    ImGui::Separator();
    ImGui::Text("start     %s", RelativeTime(start).c_str());
    ImGui::Text("duration  %s", FormatDuration(end - start).c_str());
    ImGui::Text("self      %s", FormatDuration(SelfTime(s)).c_str());
    ImGui::TextDisabled("%s · %s",
                        m_model.ProcessLabelWithRank(m_model.tracks[s.track].process).c_str(),
                        m_model.TrackLabel(s.track).c_str());
    const EventDetails& details = Details(s.track, row.Ref(s.index));
    int shown = 0;
    for (const auto& [key, value] : details.args) {
        if (shown++ == 5) {
            ImGui::TextDisabled("… %zu more args: click to see all", details.args.size() - 5);
            break;
        }
        const std::string text = value.size() > 80 ? value.substr(0, 80) + "…" : value;
        ImGui::Text("%s: %s", key.c_str(), text.c_str());
    }
    ImGui::EndTooltip();
}

}  // namespace marey
