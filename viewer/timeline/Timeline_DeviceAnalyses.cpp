// What the device analyses add to a timeline: each device's "Device analyses" group of derived
// counters (queue length per stream, copy bandwidth per kind) after its process, and the gaps
// where a stream waited for the host, hatched behind its slices with a strip under them that
// stays visible when the slices are folded together.
#include <imgui.h>

#include <algorithm>
#include <string>

#include "core/TextFormat.hpp"
#include "timeline/TimelineView.hpp"
#include "timeline/ValueFormat.hpp"

namespace marey {
namespace {

// The hatching's bright stripes; the shader halves them between. Dark, so that the slices in
// front keep the eye.
constexpr Rgba kHostWaitBand = {0.50f, 0.22f, 0.47f, 1.0f};
constexpr Rgba kHostWaitStrip = {0.86f, 0.34f, 0.78f, 1.0f};
constexpr float kStripHeightPx = 3.0f;

Rgba SeriesColorOf(const DeviceCounterSeries& series) {
    if (series.kind == DeviceCounterKind::kQueueLength) return {0.36f, 0.66f, 0.96f, 1.0f};
    switch (series.memory) {
        case MemoryKind::kCopyHostToDevice:
            return {0.45f, 0.80f, 0.42f, 1.0f};
        case MemoryKind::kCopyDeviceToHost:
            return {0.98f, 0.66f, 0.28f, 1.0f};
        case MemoryKind::kCopyDeviceToDevice:
            return {0.66f, 0.56f, 0.96f, 1.0f};
        case MemoryKind::kCopyPeerToPeer:
            return {0.35f, 0.80f, 0.80f, 1.0f};
        default:
            return {0.70f, 0.72f, 0.76f, 1.0f};
    }
}

// "mean 1.18 · max 7 queued", "peak 5 GB/s · 2 copies, 70 kB": the header's second line.
std::string SeriesSummary(const DeviceCounterSeries& series) {
    char mean[32];
    std::snprintf(mean, sizeof mean, "%.3g", series.meanValue);
    if (series.kind == DeviceCounterKind::kQueueLength)
        return "mean " + std::string(mean) + " · max " +
               CounterValueText(series.maxValue, series.unit);
    return "peak " + CounterValueText(series.maxValue, series.unit) + " · " +
           CountText(series.activities, "copy", "copies") + ", " +
           CounterValueText(static_cast<double>(series.totalBytes), "B");
}

}  // namespace

std::vector<uint32_t> TimelineView::ShownDeviceCounters() {
    if (m_layoutDirty) {
        m_layout.Build(m_model, m_metrics, m_data->deviceCounters);
        m_layoutDirty = false;
    }
    std::vector<uint32_t> shown;
    for (const Lane& lane : m_layout.lanes())
        if (lane.kind == Lane::Kind::kAnalysisTrack) shown.push_back(lane.track);
    return shown;
}

void TimelineView::DrawAnalysesHeader(ImDrawList* draw, const Lane& lane, float laneY, float x0,
                                      bool hovered) {
    const bool collapsed = m_layout.collapsedAnalyses[lane.process];
    draw->AddRectFilled(ImVec2(x0, laneY), ImVec2(m_canvas.x1, laneY + lane.height),
                        IM_COL32(38, 44, 58, 255));
    draw->AddRectFilled(ImVec2(x0, laneY), ImVec2(x0 + 3, laneY + lane.height),
                        IM_COL32(92, 168, 245, 255));
    const std::string label = std::string(collapsed ? "▶ " : "▼ ") + "Device analyses";
    draw->AddText(ImVec2(x0 + 8, laneY + 3), IM_COL32(235, 238, 245, 255), label.c_str());
    const float derivedX = x0 + 14 + ImGui::CalcTextSize(label.c_str()).x;
    draw->AddText(ImVec2(derivedX, laneY + 3), IM_COL32(140, 148, 162, 255), "derived");
    // The legend of the marks on this device's streams, in the time area.
    m_hostWaitLegends.resize(m_model.processes.size());
    std::string& legend = m_hostWaitLegends[lane.process];
    if (legend.empty()) {
        size_t gaps = 0;
        TimeNs totalNs = 0;
        for (const HostWaitMarks& marks : m_data->hostWaits)
            if (m_model.tracks[marks.track].process == lane.process)
                gaps += marks.size(), totalNs += marks.totalNs;
        legend = gaps == 0 ? "no host waits on this device's streams"
                           : "host wait · " + CountText(gaps, "gap", "gaps") + ", " +
                                 FormatDuration(totalNs);
    }
    const bool anyGap = legend[0] == 'h';
    const float legendX = m_canvas.x0 + 8, midY = laneY + lane.height * 0.5f;
    if (anyGap) {
        draw->AddRectFilled(ImVec2(legendX, midY - 6), ImVec2(legendX + 22, midY + 3),
                            PackColor(kHostWaitBand));
        draw->AddRectFilled(ImVec2(legendX, midY + 3), ImVec2(legendX + 22, midY + 6),
                            PackColor(kHostWaitStrip));
    }
    const float textX = legendX + (anyGap ? 30.0f : 0.0f);
    draw->PushClipRect(ImVec2(textX, laneY), ImVec2(m_canvas.x1, laneY + lane.height), true);
    draw->AddText(ImVec2(textX, laneY + 3), IM_COL32(200, 205, 215, 255), legend.c_str());
    if (anyGap && !m_state.showHostWaits)
        draw->AddText(ImVec2(textX + ImGui::CalcTextSize(legend.c_str()).x, laneY + 3),
                      IM_COL32(255, 190, 80, 255), " · hidden (View ▸ Host-wait marks)");
    draw->PopClipRect();
    if (hovered && ImGui::IsMouseReleased(ImGuiMouseButton_Left) && !m_dragging) {
        m_layout.collapsedAnalyses[lane.process] = !collapsed;
        m_layoutDirty = true;
    }
    if (hovered)
        ImGui::SetTooltip(
            "Counters derived from %s's device activities (not in the trace)\n"
            "Host wait (hatched on the streams): the stream ran dry and sat idle until the host\n"
            "launched its next work.\n"
            "click: fold or unfold",
            m_model.ProcessLabel(lane.process).c_str());
}

void TimelineView::DrawAnalysisTrackHeader(ImDrawList* draw, const Lane& lane, float laneY,
                                           float x0, bool hovered) {
    const DeviceCounterSeries& series = m_data->deviceCounters[lane.track];
    const float x1 = m_canvas.x0 - 2;
    draw->AddRectFilled(ImVec2(x0, laneY), ImVec2(x1, laneY + lane.height - 1),
                        hovered ? IM_COL32(48, 52, 62, 255) : IM_COL32(33, 36, 42, 255));
    const Rgba color = SeriesColorOf(series);
    draw->AddRectFilled(ImVec2(x0 + 6, laneY + 6), ImVec2(x0 + 11, laneY + 15), PackColor(color));
    draw->PushClipRect(ImVec2(x0, laneY), ImVec2(x1 - 4, laneY + lane.height), true);
    draw->AddText(ImVec2(x0 + 16, laneY + 2), IM_COL32(210, 214, 222, 255), series.name.c_str());
    if (m_counterSummaries.size() != m_data->deviceCounters.size()) {
        m_counterSummaries.clear();
        for (const DeviceCounterSeries& one : m_data->deviceCounters)
            m_counterSummaries.push_back(SeriesSummary(one));
    }
    const std::string& summary = m_counterSummaries[lane.track];
    draw->AddText(ImVec2(x0 + 16, laneY + 20), IM_COL32(140, 148, 162, 255), summary.c_str());
    draw->PopClipRect();
    if (hovered) {
        ImGui::BeginTooltip();
        ImGui::Text("%s", series.name.c_str());
        ImGui::TextDisabled("derived from %s's device activities",
                            m_model.ProcessLabel(lane.process).c_str());
        ImGui::Text("%s", summary.c_str());
        if (series.withoutBytes)
            ImGui::TextColored(ImVec4(1, 0.75f, 0.3f, 1), "%s without \"bytes\" left out",
                               CountText(series.withoutBytes, "copy", "copies").c_str());
        ImGui::EndTooltip();
    }
}

void TimelineView::DrawAnalysisCounter(BoxRenderer& boxes, const Lane& lane, float laneY) {
    const DeviceCounterSeries& series = m_data->deviceCounters[lane.track];
    // Zoomed out, a pixel covers buckets of the overview: a few thousand samples, not millions.
    const bool overview =
        series.overviewResolutionNs > 0 &&
        static_cast<double>(series.overviewResolutionNs) * m_canvas.pxPerNs <= 1.0;
    const std::vector<TimeNs>& ts = overview ? series.overviewTimeNs : series.timeNs;
    const std::vector<double>& values = overview ? series.overviewValue : series.value;
    DrawCounterBars(boxes, ts.data(), values.data(), ts.size(), 0.0, series.maxValue,
                    SeriesColorOf(series), laneY + 16, laneY + lane.height - 3);
    m_overlayTexts.push_back(
        {m_canvas.x0 + 4, laneY + 1, "max " + CounterValueText(series.maxValue, series.unit)});
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    if (ImGui::IsItemHovered() && mouse.y >= laneY && mouse.y < laneY + lane.height &&
        mouse.x >= m_canvas.x0) {
        m_hover.deviceCounter = lane.track;
        m_hover.timeNs = AbsoluteNs(ToRelativeNs(mouse.x));
    }
}

void TimelineView::DrawHostWaits(BoxRenderer& boxes, const Lane& lane, float laneY) {
    const int32_t index = m_data->hostWaitsOfTrack[lane.track];
    if (index < 0 || !m_state.showHostWaits) return;
    const HostWaitMarks& marks = m_data->hostWaits[static_cast<size_t>(index)];
    const TimeNs viewStart = AbsoluteNs(m_state.viewStartNs);
    const TimeNs viewEnd = AbsoluteNs(m_state.viewEndNs) + 1;
    const TimeNs minVisibleNs = std::max<TimeNs>(1, static_cast<TimeNs>(1.0 / m_canvas.pxPerNs));
    m_hostWaitItems.clear();
    QueryHostWaits(marks, viewStart, viewEnd, minVisibleNs, m_hostWaitItems);
    const float rowsBottom =
        laneY + static_cast<float>(m_model.tracks[lane.track].rows.size()) * m_metrics.rowHeight;
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    const bool mouseInLane = ImGui::IsItemHovered() && mouse.y >= laneY &&
                             mouse.y < laneY + lane.height && mouse.x >= m_canvas.x0;
    // Items that touch on screen (folded runs zoomed out) are drawn as one band and one strip.
    float runX0 = 0, runX1 = -1e9f;
    auto flush = [&] {
        if (runX1 < runX0) return;
        boxes.Add({runX0, laneY + 1, runX1, rowsBottom - 1, kHostWaitBand.r, kHostWaitBand.g,
                   kHostWaitBand.b, 1.0f, static_cast<float>(BoxStyle::kMark)});
        boxes.Add({runX0, rowsBottom, runX1, rowsBottom + kStripHeightPx, kHostWaitStrip.r,
                   kHostWaitStrip.g, kHostWaitStrip.b, 1.0f,
                   static_cast<float>(BoxStyle::kCounter)});
    };
    for (const HostWaitItem& item : m_hostWaitItems) {
        float x0 = static_cast<float>(ToX(static_cast<double>(item.startNs - m_model.firstNs)));
        float x1 = static_cast<float>(ToX(static_cast<double>(item.endNs - m_model.firstNs)));
        x0 = std::max(x0, m_canvas.x0 - 2);
        x1 = std::min(std::max(x1, x0 + 1), m_canvas.x1 + 2);
        if (x0 <= runX1 + 0.5f) {
            runX1 = std::max(runX1, x1);
        } else {
            flush();
            runX0 = x0, runX1 = x1;
        }
        if (mouseInLane && mouse.x >= x0 - 1 && mouse.x <= x1 + 1) {
            m_hover.hostWaits = index;
            m_hover.hostWait = item;
        }
    }
    flush();
}

bool TimelineView::DrawAnalysisTooltip() {
    if (m_hover.deviceCounter != UINT32_MAX) {
        const DeviceCounterSeries& series = m_data->deviceCounters[m_hover.deviceCounter];
        const auto at =
            std::upper_bound(series.timeNs.begin(), series.timeNs.end(), m_hover.timeNs);
        ImGui::BeginTooltip();
        ImGui::Text("%s", series.name.c_str());
        if (at == series.timeNs.begin()) {
            ImGui::Text("0 %s before the first sample", series.unit.c_str());
        } else {
            const size_t i = static_cast<size_t>(at - series.timeNs.begin()) - 1;
            ImGui::Text("%s from %s", CounterValueText(series.value[i], series.unit).c_str(),
                        RelativeTime(series.timeNs[i]).c_str());
        }
        ImGui::TextDisabled("%s", SeriesSummary(series).c_str());
        ImGui::TextDisabled(series.kind == DeviceCounterKind::kQueueLength
                                ? "launched and unfinished: +1 when a launch starts, -1 when its "
                                  "work ends"
                                : "each copy's bytes over its duration, summed over the copies "
                                  "of this kind running at once");
        ImGui::EndTooltip();
        return true;
    }
    if (m_hover.hostWaits < 0 || m_hover.slice.valid() || m_hover.mergedCount > 1) return false;
    const HostWaitMarks& marks = m_data->hostWaits[static_cast<size_t>(m_hover.hostWaits)];
    const HostWaitItem& item = m_hover.hostWait;
    ImGui::BeginTooltip();
    if (item.count == 1) {
        const uint32_t i = item.first;
        ImGui::Text(
            "host wait %s: the next kernel or copy was launched %s after the stream ran "
            "dry",
            FormatDuration(marks.endNs[i] - marks.startNs[i]).c_str(),
            FormatDuration(marks.launchAfterNs[i]).c_str());
        ImGui::TextDisabled("%s .. %s · %s", RelativeTime(marks.startNs[i]).c_str(),
                            RelativeTime(marks.endNs[i]).c_str(),
                            m_model.TrackLabel(marks.track).c_str());
    } else {
        TimeNs totalNs = 0;
        for (uint32_t i = item.first; i < item.first + item.count; ++i)
            totalNs += marks.endNs[i] - marks.startNs[i];
        ImGui::Text("%u host waits at this zoom, %s in all", item.count,
                    FormatDuration(totalNs).c_str());
        ImGui::TextDisabled("%s .. %s; zoom in (W) to see each", RelativeTime(item.startNs).c_str(),
                            RelativeTime(item.endNs).c_str());
    }
    ImGui::TextDisabled("the stream sat idle until the host launched its next work");
    ImGui::EndTooltip();
    return true;
}

}  // namespace marey
