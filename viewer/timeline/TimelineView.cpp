#include "timeline/TimelineView.hpp"

#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "core/TextFormat.hpp"
#include "import/Importer.hpp"
#include "index/RowQuery.hpp"
#include "timeline/ElideText.hpp"

namespace marey {
namespace {
constexpr float kMinimapHeightPx = 30.0f;
constexpr float kRulerHeightPx = 38.0f;
constexpr float kScrollbarWidthPx = 10.0f;
}  // namespace

TimelineView::TimelineView(const TraceModel& model, uint32_t documentId)
    : TimelineView(model, std::make_shared<const TimelineData>(BuildTimelineData(model)),
                   documentId) {}

TimelineView::TimelineView(const TraceModel& model, std::shared_ptr<const TimelineData> data,
                           uint32_t documentId)
    : m_model(model), m_data(std::move(data)), m_documentId(documentId) {
    m_nameColors.resize(model.strings.size());
    m_nameColorKnown.assign(model.strings.size(), 0);
    m_flowCategoryShown.assign(m_data->flowCategories.size(), 1);
    ShowAll();
}

void TimelineView::SetData(std::shared_ptr<const TimelineData> data) {
    if (!data) return;
    m_data = std::move(data);
    m_flowCategoryShown.resize(m_data->flowCategories.size(), 1);
    m_counterSummaries.clear();
    m_layoutDirty = true;
}

TimeNs TimelineView::AbsoluteNs(double relativeNs) const {
    const double clamped = std::max(-9.0e18, std::min(9.0e18, relativeNs));
    return m_model.firstNs + static_cast<TimeNs>(std::floor(clamped));
}

const Rgba& TimelineView::NameColor(StringId name) {
    if (!m_nameColorKnown[name]) {
        const std::string_view text = m_model.strings.Get(name);
        const auto recorded = m_model.recordedColors.empty()
                                  ? m_model.recordedColors.end()
                                  : m_model.recordedColors.find(std::string(text));
        m_nameColors[name] = recorded != m_model.recordedColors.end()
                                 ? ColorFromArgb(recorded->second)
                                 : ColorForName(text);
        m_nameColorKnown[name] = 1;
    }
    return m_nameColors[name];
}

std::string TimelineView::RelativeTime(TimeNs absoluteNs) const {
    // On the ruler's axis: in a comparison's half B that is A's (the ruler's shift), so that a
    // tooltip's time and the ruler under it agree.
    const TimeNs onAxis =
        absoluteNs - m_model.firstNs + static_cast<TimeNs>(std::llround(m_rulerShiftNs));
    return (onAxis < 0 ? "-" : "+") + FormatDuration(onAxis < 0 ? -onAxis : onAxis);
}

void TimelineView::ShowAll() {
    const double span =
        std::max<double>(1000.0, static_cast<double>(m_model.lastNs - m_model.firstNs));
    ShowRange(0, span, true);
}

void TimelineView::ShowRange(double startNs, double endNs, bool withMargin) {
    double width = std::max(endNs - startNs, 20.0);
    double margin = withMargin ? width * 0.03 : 0.0;
    m_state.viewStartNs = startNs - margin;
    m_state.viewEndNs = startNs + width + margin;
    ClampView();
}

void TimelineView::SetViewRange(double startNs, double endNs) {
    m_state.viewStartNs = startNs;
    m_state.viewEndNs = std::max(endNs, startNs + 1.0);
}

void TimelineView::ExpandToTrack(uint32_t track) {
    const uint32_t process = m_model.tracks[track].process;
    const uint32_t group = m_model.processes[process].group;
    if (group < m_layout.collapsedGroup.size() && m_layout.collapsedGroup[group]) {
        m_layout.collapsedGroup[group] = 0;
        m_layoutDirty = true;
    }
    if (process < m_layout.collapsedProcess.size() && m_layout.collapsedProcess[process]) {
        m_layout.collapsedProcess[process] = 0;
        m_layoutDirty = true;
    }
    if (track < m_layout.hiddenTrack.size() && m_layout.hiddenTrack[track]) {
        m_layout.hiddenTrack[track] = 0;
        m_layoutDirty = true;
    }
}

namespace {

// The processes a profiler labels as a device's ("NPU", "GPU"), as the timeline shows them.
bool IsDeviceProcess(const TraceModel& model, uint32_t process) {
    const std::string_view labels = model.Name(model.processes[process].labels);
    return labels.find("NPU") != labels.npos || labels.find("GPU") != labels.npos;
}

}  // namespace

std::optional<std::pair<double, double>> TimelineView::DeviceSpan() const {
    TimeNs first = INT64_MAX, last = INT64_MIN;
    for (const Track& track : m_model.tracks) {
        if (track.kind == TrackKind::kCounter || track.process >= m_model.processes.size() ||
            !IsDeviceProcess(m_model, track.process))
            continue;
        for (const Row& row : track.rows) {
            if (row.size() == 0) continue;
            first = std::min(first, row.start[0]);
            last = std::max(last, row.end[row.size() - 1]);  // ends are sorted as starts are
        }
    }
    if (first >= last) return std::nullopt;
    return std::pair{static_cast<double>(first - m_model.firstNs),
                     static_cast<double>(last - m_model.firstNs)};
}

void TimelineView::UnfoldFirstScreen() {
    for (const uint32_t p : m_firstScreenFolded)
        if (p < m_layout.collapsedProcess.size() && m_layout.collapsedProcess[p])
            m_layout.collapsedProcess[p] = 0, m_layoutDirty = true;
    m_firstScreenFolded.clear();
}

size_t TimelineView::FoldHostProcesses(float maxHeightPx, uint32_t keepProcess, bool firstScreen) {
    if (m_layoutDirty)
        m_layout.Build(m_model, m_metrics, m_data->deviceCounters), m_layoutDirty = false;
    std::vector<float> heights(m_model.processes.size(), 0.0f);
    for (const Lane& lane : m_layout.lanes())
        if (lane.kind == Lane::Kind::kTrack) heights[lane.process] += lane.height;
    std::vector<char> device(m_model.processes.size(), 0);
    bool anyDevice = false;
    for (uint32_t p = 0; p < device.size(); ++p) {
        device[p] = IsDeviceProcess(m_model, p);
        anyDevice |= device[p] && heights[p] > 0;
    }
    size_t shown = 0, folded = 0;
    for (float height : heights) shown += height > 0;
    m_layout.collapsedProcess.resize(m_model.processes.size(), 0);
    for (uint32_t p = 0; p < heights.size(); ++p) {
        if (p == keepProcess || heights[p] == 0 || device[p] || shown - folded < 2) continue;
        if (!anyDevice && heights[p] <= maxHeightPx) continue;
        m_layout.collapsedProcess[p] = 1;
        if (firstScreen) m_firstScreenFolded.push_back(p);
        ++folded;
    }
    m_layoutDirty |= folded > 0;
    return folded;
}

bool TimelineView::TrackOnScreen(uint32_t track) const {
    const Lane* lane = m_layout.FindTrack(track);
    if (!lane || lane->pinned) return lane != nullptr;
    const float visible = m_canvas.bodyBottom - m_canvas.bodyTop - m_layout.pinnedHeight();
    return lane->y + lane->height > m_scrollY && lane->y < m_scrollY + visible;
}

SliceRef TimelineView::FindSliceNear(std::string_view name, TimeNs absoluteNs,
                                     TimeNs toleranceNs) const {
    const StringId id = m_model.strings.Find(name);
    SliceRef best;
    if (id == 0) return best;
    TimeNs bestDistance = toleranceNs + 1;
    for (uint32_t t = 0; t < m_model.tracks.size(); ++t) {
        const std::vector<Row>& rows = m_model.tracks[t].rows;
        for (uint32_t r = 0; r < rows.size(); ++r) {
            const Row& row = rows[r];
            const TimeNs* begin = row.start.data();
            const TimeNs* end = begin + row.size();
            for (const TimeNs* at = std::lower_bound(begin, end, absoluteNs - toleranceNs);
                 at != end && *at <= absoluteNs + toleranceNs; ++at) {
                const uint32_t index = static_cast<uint32_t>(at - begin);
                const TimeNs distance = std::llabs(*at - absoluteNs);
                if (row.name[index] != id || distance >= bestDistance) continue;
                best = SliceRef{t, r, index, m_documentId};
                bestDistance = distance;
            }
        }
    }
    return best;
}

size_t TimelineView::ShowHiddenTracks() {
    size_t count = 0;
    for (char& hidden : m_layout.hiddenTrack) count += hidden, hidden = 0;
    m_layoutDirty = count > 0;
    return count;
}

void TimelineView::SetGroupsCollapsed(bool collapsed) {
    m_layout.collapsedGroup.assign(m_model.groups.size(), collapsed ? 1 : 0);
    m_layoutDirty = true;
}

void TimelineView::TakeLayoutFrom(const TimelineView& other, bool withView) {
    const TrackLayout& from = other.m_layout;
    if (from.collapsedProcess.size() != m_model.processes.size() ||
        from.hiddenTrack.size() != m_model.tracks.size() ||
        from.collapsedGroup.size() != m_model.groups.size())
        return;
    m_layout.collapsedGroup = from.collapsedGroup;
    m_layout.collapsedProcess = from.collapsedProcess;
    m_layout.hiddenTrack = from.hiddenTrack;
    m_layout.pinnedTrack = from.pinnedTrack;
    m_layout.collapsedAnalyses = from.collapsedAnalyses;
    m_layoutDirty = true;
    if (withView)
        m_state.viewStartNs = other.m_state.viewStartNs,
        m_state.viewEndNs = other.m_state.viewEndNs;
    m_scrollY = other.m_scrollY;
}

void TimelineView::SetAllCollapsed(bool collapsed) {
    m_layout.collapsedProcess.assign(m_model.processes.size(), collapsed ? 1 : 0);
    m_layoutDirty = true;
}

void TimelineView::Select(const SliceRef& slice, bool frame) {
    if (slice.valid() && slice.document != m_documentId) return;
    m_state.selected = slice;
    if (!slice.valid()) return;
    if (frame) {
        const double start = static_cast<double>(SliceStart(slice) - m_model.firstNs);
        const double end = static_cast<double>(SliceEnd(slice) - m_model.firstNs);
        ShowRange(start, std::max(end, start + 50.0), true);
    }
    ScrollToRow(slice.track, slice.row);
}

void TimelineView::ScrollToRow(uint32_t track, uint32_t row) {
    if (track >= m_model.tracks.size()) return;
    ExpandToTrack(track);
    if (m_layoutDirty) {
        m_layout.Build(m_model, m_metrics, m_data->deviceCounters);
        m_layoutDirty = false;
    }
    if (const Lane* lane = m_layout.FindTrack(track); lane && !lane->pinned) {
        const float rowY = lane->y + static_cast<float>(row) * m_metrics.rowHeight;
        const float visible = m_canvas.bodyBottom - m_canvas.bodyTop - m_layout.pinnedHeight();
        if (visible <= 0)  // not drawn yet: the row near the top
            m_scrollY = std::max(0.0f, lane->y - 2 * m_metrics.rowHeight);
        else if (rowY < m_scrollY || rowY > m_scrollY + visible - m_metrics.rowHeight)
            m_scrollY = std::max(0.0f, rowY - visible / 3.0f);
    }
}

void TimelineView::Reveal(const SliceRef& slice) {
    Select(slice, false);
    if (!(m_state.selected == slice) || !slice.valid()) return;
    const double start = static_cast<double>(SliceStart(slice) - m_model.firstNs);
    const double end =
        std::max(static_cast<double>(SliceEnd(slice) - m_model.firstNs), start + 50.0);
    const double width = m_state.viewEndNs - m_state.viewStartNs;
    if (end - start <= width * 0.6) {
        const double centre = (start + end) * 0.5;
        ShowRange(centre - width * 0.5, centre + width * 0.5, false);
    } else {
        ShowRange(start - (end - start), end + (end - start), false);
    }
}

const EventDetails& TimelineView::Details(uint32_t track, uint64_t ref) {
    // Offsets are below 2^40 (kMaxTextBytes): the group above them tells the files of several
    // ranks apart.
    const uint64_t key = ref | uint64_t{m_model.GroupOf(track) + 1u} << 40;
    auto it = m_detailsCache.find(key);
    if (it != m_detailsCache.end()) return it->second;
    if (m_detailsCache.size() > 256) m_detailsCache.clear();
    // Read by the importer of the track's source: a trace's event, a CSV row, a database row.
    EventDetails details = ReadRowDetails(m_model.SourceOf(track), ref);
    return m_detailsCache.emplace(key, std::move(details)).first->second;
}

TimeNs TimelineView::SelfTime(const SliceRef& s) const {
    const Track& track = m_model.tracks[s.track];
    const Row& row = track.rows[s.row];
    const TimeNs start = row.start[s.index], end = row.end[s.index];
    TimeNs self = end - start;
    if (row.kind != RowKind::kNested || s.row + 1 >= track.rows.size()) return self;
    const Row& child = track.rows[s.row + 1];
    if (child.kind != RowKind::kNested) return self;
    for (size_t i = FirstEndingAfter(child, start); i < child.size() && child.start[i] < end; ++i)
        if (child.start[i] >= start) self -= std::min(child.end[i], end) - child.start[i];
    return self;
}

SliceRef TimelineView::Parent(const SliceRef& s) const {
    const Track& track = m_model.tracks[s.track];
    if (s.row == 0 || track.rows[s.row].kind != RowKind::kNested) return {};
    const Row& parent = track.rows[s.row - 1];
    const int64_t hit = HitTest(parent, SliceStart(s), 0);
    if (hit < 0) return {};
    return {s.track, s.row - 1, static_cast<uint32_t>(hit), m_documentId};
}

std::vector<SliceRef> TimelineView::Children(const SliceRef& s, size_t limit) const {
    std::vector<SliceRef> children;
    const Track& track = m_model.tracks[s.track];
    if (s.row + 1 >= track.rows.size() || track.rows[s.row + 1].kind != RowKind::kNested)
        return children;
    const Row& child = track.rows[s.row + 1];
    const TimeNs start = SliceStart(s), end = SliceEnd(s);
    for (size_t i = FirstEndingAfter(child, start);
         i < child.size() && child.start[i] < end && children.size() < limit; ++i)
        if (child.start[i] >= start)
            children.push_back({s.track, s.row + 1, static_cast<uint32_t>(i), m_documentId});
    return children;
}

SliceRef TimelineView::EnclosingSlice(uint32_t trackId, TimeNs t) const {
    const SlicePlace place = marey::EnclosingSlice(m_model.tracks[trackId], t);
    if (place.row < 0) return {};
    return {trackId, static_cast<uint32_t>(place.row), place.index, m_documentId};
}

bool TimelineView::FlowEndOn(const SliceRef& slice, uint32_t track, TimeNs t) const {
    if (!slice.valid() || track != slice.track || t < SliceStart(slice) || t > SliceEnd(slice))
        return false;
    return EnclosingSlice(track, t) == slice;
}

// The range selected (blue) and the occurrence marked from another view (amber, with its label)
// over the slice area.
void TimelineView::DrawRangeAndMark(ImDrawList* draw) {
    if (m_state.hasRange) {
        const float rx0 = static_cast<float>(ToX(static_cast<double>(m_state.rangeStartNs)));
        const float rx1 = static_cast<float>(ToX(static_cast<double>(m_state.rangeEndNs)));
        draw->AddRectFilled(ImVec2(rx0, m_canvas.bodyTop), ImVec2(rx1, m_canvas.bodyBottom),
                            IM_COL32(90, 160, 255, 40));
        draw->AddLine(ImVec2(rx0, m_canvas.bodyTop), ImVec2(rx0, m_canvas.bodyBottom),
                      IM_COL32(90, 160, 255, 200));
        draw->AddLine(ImVec2(rx1, m_canvas.bodyTop), ImVec2(rx1, m_canvas.bodyBottom),
                      IM_COL32(90, 160, 255, 200));
    }
    if (m_state.hasMark) {
        const float mx0 = static_cast<float>(ToX(static_cast<double>(m_state.markStartNs)));
        const float mx1 =
            std::max(mx0 + 2.0f, static_cast<float>(ToX(static_cast<double>(m_state.markEndNs))));
        draw->AddRectFilled(ImVec2(mx0, m_canvas.bodyTop), ImVec2(mx1, m_canvas.bodyBottom),
                            IM_COL32(255, 196, 64, 28));
        draw->AddRect(ImVec2(mx0, m_canvas.bodyTop), ImVec2(mx1, m_canvas.bodyBottom),
                      IM_COL32(255, 196, 64, 200), 0, 0, 2.0f);
        // Its name on it, from its start, as wide as the mark or a readable width at least, cut
        // at its end; none while the mark is off screen.
        const bool onScreen = mx1 >= m_canvas.x0 && mx0 <= m_canvas.x1;
        if (!m_state.markLabel.empty() && onScreen) {
            const float room =
                std::min(m_canvas.x1 - m_canvas.x0 - 12, std::max(mx1 - mx0, 320.0f));
            std::string scratch;
            const std::string_view label = ElideToWidth(m_state.markLabel, room, scratch);
            const float width = ImGui::CalcTextSize(label.data(), label.data() + label.size()).x;
            const float x = std::clamp(mx0 + 4, m_canvas.x0 + 2, m_canvas.x1 - width - 8);
            const float textHeight = ImGui::GetFontSize();
            draw->AddRectFilled(ImVec2(x - 3, m_canvas.bodyTop + 2),
                                ImVec2(x + width + 3, m_canvas.bodyTop + 4 + textHeight),
                                IM_COL32(255, 196, 64, 230), 3.0f);
            draw->AddText(ImVec2(x, m_canvas.bodyTop + 3), IM_COL32(30, 30, 30, 255), label.data(),
                          label.data() + label.size());
        }
    }
}

void TimelineView::Draw(BoxRenderer& boxes, float frameDt) {
    const auto started = std::chrono::steady_clock::now();
    if (m_layoutDirty) {
        m_layout.Build(m_model, m_metrics, m_data->deviceCounters);
        m_layoutDirty = false;
    }
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const ImVec2 size = ImGui::GetContentRegionAvail();
    m_canvas.headerX0 = origin.x;
    m_headerWidthPx = std::clamp(m_headerWidthPx, 120.0f, std::max(120.0f, size.x - 200.0f));
    m_canvas.x0 = origin.x + m_headerWidthPx;
    m_canvas.x1 = std::max(m_canvas.x0 + 50.0f, origin.x + size.x - kScrollbarWidthPx);
    m_canvas.minimapY = origin.y;
    m_canvas.rulerY = origin.y + kMinimapHeightPx;
    m_canvas.bodyTop = m_canvas.rulerY + kRulerHeightPx;
    m_canvas.bodyBottom = std::max(m_canvas.bodyTop + 10.0f, origin.y + size.y);
    m_canvas.pxPerNs = (m_canvas.x1 - m_canvas.x0) / (m_state.viewEndNs - m_state.viewStartNs);

    ImGui::InvisibleButton("##timeline", ImVec2(std::max(size.x, 1.0f), std::max(size.y, 1.0f)),
                           ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonRight);
    HandleKeys(frameDt);
    HandleMouse();
    if (m_layoutDirty) {
        m_layout.Build(m_model, m_metrics, m_data->deviceCounters);
        m_layoutDirty = false;
    }
    m_canvas.pxPerNs = (m_canvas.x1 - m_canvas.x0) / (m_state.viewEndNs - m_state.viewStartNs);

    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->AddRectFilled(ImVec2(origin.x, origin.y), ImVec2(origin.x + size.x, origin.y + size.y),
                        IM_COL32(24, 26, 30, 255));
    DrawMinimap(draw);
    DrawRuler(draw);

    // Body: pinned tracks stay on top, the rest scrolls.
    const float pinnedHeight =
        std::min(m_layout.pinnedHeight(), (m_canvas.bodyBottom - m_canvas.bodyTop) * 0.5f);
    const float scrollTop = m_canvas.bodyTop + pinnedHeight;
    m_maxScrollY =
        std::max(0.0f, m_layout.totalHeight() - (m_canvas.bodyBottom - scrollTop) + 40.0f);
    m_scrollY = std::clamp(m_scrollY, 0.0f, m_maxScrollY);
    const float originY = scrollTop - m_scrollY;

    boxes.Clear();
    m_labels.clear();
    m_overlayTexts.clear();
    m_openEnds.clear();
    m_hover = Hover{};
    draw->PushClipRect(ImVec2(origin.x, scrollTop), ImVec2(origin.x + size.x, m_canvas.bodyBottom),
                       true);
    DrawLanes(draw, boxes, m_layout.lanes(), originY, scrollTop, m_canvas.bodyBottom);
    draw->PopClipRect();
    if (pinnedHeight > 0) {
        draw->PushClipRect(ImVec2(origin.x, m_canvas.bodyTop), ImVec2(origin.x + size.x, scrollTop),
                           true);
        draw->AddRectFilled(ImVec2(origin.x, m_canvas.bodyTop),
                            ImVec2(origin.x + size.x, scrollTop), IM_COL32(30, 33, 40, 255));
        DrawLanes(draw, boxes, m_layout.pinnedLanes(), m_canvas.bodyTop, m_canvas.bodyTop,
                  scrollTop);
        draw->PopClipRect();
        draw->AddLine(ImVec2(origin.x, scrollTop), ImVec2(origin.x + size.x, scrollTop),
                      IM_COL32(120, 130, 150, 255), 2.0f);
    }
    // One instanced draw call for every box of the frame, clipped to the slice area.
    draw->PushClipRect(ImVec2(m_canvas.x0, m_canvas.bodyTop),
                       ImVec2(m_canvas.x1, m_canvas.bodyBottom), true);
    boxes.Submit(draw);
    for (const OpenEnd& open : m_openEnds) {
        const float mid = (open.y0 + open.y1) * 0.5f, half = (open.y1 - open.y0) * 0.35f;
        draw->AddLine(ImVec2(open.x - 3, mid - half), ImVec2(open.x + 1, mid),
                      IM_COL32(20, 20, 20, 220), 2.0f);
        draw->AddLine(ImVec2(open.x + 1, mid), ImVec2(open.x - 3, mid + half),
                      IM_COL32(20, 20, 20, 220), 2.0f);
    }
    if (m_state.showFlows) DrawFlows(draw, originY, m_canvas.bodyTop);  // under the labels
    DrawCriticalPath(draw, originY, m_canvas.bodyTop);
    DrawLabels(draw);
    DrawRangeAndMark(draw);
    DrawCriticalPathLegend(draw);  // over the counters' scales and labels
    draw->PopClipRect();
    DrawCursorAndMeasure(draw);

    // Vertical scrollbar.
    if (m_maxScrollY > 0) {
        const float trackTop = scrollTop, trackBottom = m_canvas.bodyBottom;
        const float visible = trackBottom - trackTop;
        const float thumb = std::max(24.0f, visible * visible / (visible + m_maxScrollY));
        const float thumbY = trackTop + (visible - thumb) * (m_scrollY / m_maxScrollY);
        const float sx = origin.x + size.x - kScrollbarWidthPx + 2;
        draw->AddRectFilled(ImVec2(sx, thumbY), ImVec2(sx + kScrollbarWidthPx - 4, thumbY + thumb),
                            IM_COL32(110, 115, 125, 200), 3.0f);
    }
    if (ImGui::IsItemHovered() && !m_dragging && !m_rangeDragging) DrawHoverTooltip();

    m_frameStats.boxes = boxes.Count();
    m_frameStats.labels = m_labels.size();
    m_frameStats.cpuMs =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started)
            .count();
}

}  // namespace marey
