#include "views/MemoryView.hpp"
#include "viewkit/ViewContext.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/TextFormat.hpp"
#include "load/MemoryCsv.hpp"
#include "workspace/Document.hpp"

namespace marey {
namespace {

enum Column { kName, kSize, kAllocated, kReleased, kHeld, kColumnCount };

std::string Megabytes(double mb) {
    return FormatBytes(static_cast<int64_t>(std::llround(mb * kBytesPerMemoryMb)));
}

std::string AxisLabel(double mb, double top) {
    char text[40];
    if (top >= 10240)
        std::snprintf(text, sizeof text, "%.0f GB", mb / 1024);
    else
        std::snprintf(text, sizeof text, top >= 10 ? "%.0f MB" : "%.2f MB", mb);
    return text;
}

// Value of a step curve at 't': the last sample at or before it, or none.
bool ValueAt(const MemorySeries& series, TimeNs t, double* value) {
    const auto it = std::upper_bound(series.timeNs.begin(), series.timeNs.end(), t);
    if (it == series.timeNs.begin()) return false;
    *value = series.megabytes[static_cast<size_t>(it - series.timeNs.begin()) - 1];
    return true;
}

}  // namespace

void MemoryView::DrawCurves(const MemoryRecord& record, float height, TimeNs originNs) {
    if (m_shown.size() != record.series.size()) {
        // "Active" mostly repeats "Allocated": off at first.
        m_shown.clear();
        for (const MemorySeries& series : record.series)
            m_shown.push_back(series.metric != "Active");
    }
    // Which curves: one checkbox each, in the curve's colour.
    // On as many lines as the width needs: a toggle goes beside the last only when it fits whole.
    const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    for (size_t i = 0; i < record.series.size(); ++i) {
        const MemorySeries& series = record.series[i];
        const std::string text = series.component + " " + series.metric;
        const float width = ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x +
                            ImGui::CalcTextSize(text.c_str()).x;
        if (i && ImGui::GetItemRectMax().x + 14 + width <= right) ImGui::SameLine(0, 14);
        const Rgba color = SeriesColor(i);
        ImGui::PushStyleColor(ImGuiCol_CheckMark, ImVec4(color.r, color.g, color.b, 1));
        bool shown = m_shown[i];
        const std::string label = text + "##" + std::to_string(i);
        if (ImGui::Checkbox(label.c_str(), &shown)) m_shown[i] = shown;
        ImGui::PopStyleColor();
    }
    TimeNs first = INT64_MAX, last = INT64_MIN;
    double top = 1;
    for (size_t i = 0; i < record.series.size(); ++i) {
        const MemorySeries& series = record.series[i];
        if (!m_shown[i] || series.timeNs.empty()) continue;
        first = std::min(first, series.timeNs.front());
        last = std::max(last, series.timeNs.back());
        top = std::max(top, series.peakMb);
    }
    if (first >= last) {
        ImGui::TextDisabled("No curve to draw: tick one above.");
        return;
    }
    top *= 1.08;  // headroom above the highest peak
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const float axisWidth = 80;
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const float width = ImGui::GetContentRegionAvail().x - axisWidth - 8;
    const float plotHeight = height - 22;
    const float x0 = origin.x + axisWidth;
    auto toX = [&](TimeNs t) {
        return x0 + static_cast<float>(static_cast<double>(t - first) /
                                       static_cast<double>(last - first)) *
                        width;
    };
    auto toY = [&](double mb) {
        return origin.y + plotHeight - static_cast<float>(mb / top) * plotHeight;
    };
    draw->AddRectFilled(ImVec2(x0, origin.y), ImVec2(x0 + width, origin.y + plotHeight),
                        IM_COL32(30, 33, 38, 255));
    // Gridlines at round sizes, and the time axis at both ends.
    double tick = 1;
    while (tick * 10 <= top / 4) tick *= 10;
    if (tick * 5 <= top / 4)
        tick *= 5;
    else if (tick * 2 <= top / 4)
        tick *= 2;
    for (double mb = 0; mb <= top; mb += tick) {
        const float y = toY(mb);
        draw->AddLine(ImVec2(x0, y), ImVec2(x0 + width, y), IM_COL32(60, 64, 74, 255));
        const std::string label = AxisLabel(mb, top);
        draw->AddText(ImVec2(x0 - 6 - ImGui::CalcTextSize(label.c_str()).x, y - 8),
                      IM_COL32(160, 165, 175, 255), label.c_str());
    }
    const std::string span = "+" + FormatDuration(last - originNs);
    const std::string begin = "+" + FormatDuration(first - originNs);
    draw->AddText(ImVec2(x0, origin.y + plotHeight + 4), IM_COL32(160, 165, 175, 255),
                  begin.c_str());
    draw->AddText(
        ImVec2(x0 + width - ImGui::CalcTextSize(span.c_str()).x, origin.y + plotHeight + 4),
        IM_COL32(160, 165, 175, 255), span.c_str());
    for (size_t i = 0; i < record.series.size(); ++i) {
        const MemorySeries& series = record.series[i];
        if (!m_shown[i] || series.timeNs.empty()) continue;
        const ImU32 color = PackColor(SeriesColor(i));
        // A step curve: memory stays at a value until the next sample.
        for (size_t k = 0; k + 1 < series.timeNs.size(); ++k) {
            const float xa = toX(series.timeNs[k]), xb = toX(series.timeNs[k + 1]);
            draw->AddLine(ImVec2(xa, toY(series.megabytes[k])),
                          ImVec2(xb, toY(series.megabytes[k])), color, 1.5f);
            draw->AddLine(ImVec2(xb, toY(series.megabytes[k])),
                          ImVec2(xb, toY(series.megabytes[k + 1])), color, 1.5f);
        }
        const float peakX = toX(series.peakNs), peakY = toY(series.peakMb);
        draw->AddCircleFilled(ImVec2(peakX, peakY), 3.5f, color);
    }
    ImGui::SetCursorScreenPos(origin);
    ImGui::InvisibleButton("##curves", ImVec2(axisWidth + width, height));
    if (ImGui::IsItemHovered()) {
        const float mouseX = std::clamp(ImGui::GetIO().MousePos.x, x0, x0 + width);
        const TimeNs t = first + static_cast<TimeNs>(static_cast<double>(mouseX - x0) / width *
                                                     static_cast<double>(last - first));
        draw->AddLine(ImVec2(mouseX, origin.y), ImVec2(mouseX, origin.y + plotHeight),
                      IM_COL32(255, 255, 255, 120));
        std::string text = "+" + FormatDuration(t - originNs);
        for (size_t i = 0; i < record.series.size(); ++i) {
            double value = 0;
            if (m_shown[i] && ValueAt(record.series[i], t, &value))
                text += "\n" + record.series[i].component + " " + record.series[i].metric + ": " +
                        Megabytes(value);
        }
        ImGui::SetTooltip("%s", text.c_str());
    }
}

void MemoryView::DrawAllocations(const OperatorMemory& memory, TimelineRequest& request,
                                 TimeNs originNs) {
    const std::vector<OperatorAllocation>& allocations = memory.allocations;
    const ImGuiTableFlags flags = ImGuiTableFlags_Sortable | ImGuiTableFlags_RowBg |
                                  ImGuiTableFlags_ScrollY | ImGuiTableFlags_BordersInnerV |
                                  ImGuiTableFlags_Resizable | ImGuiTableFlags_SizingFixedFit;
    if (!ImGui::BeginTable("allocations", kColumnCount, flags)) return;
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("Operator", ImGuiTableColumnFlags_WidthStretch, 0, kName);
    ImGui::TableSetupColumn(
        "Size", ImGuiTableColumnFlags_PreferSortDescending | ImGuiTableColumnFlags_DefaultSort, 100,
        kSize);
    ImGui::TableSetupColumn("Allocated at", 0, 110, kAllocated);
    ImGui::TableSetupColumn("Released at", 0, 110, kReleased);
    ImGui::TableSetupColumn("Held for", ImGuiTableColumnFlags_PreferSortDescending, 110, kHeld);
    ImGui::TableHeadersRow();
    if (TakeSortSpecs(&m_sortColumn, &m_sortAscending)) m_orderValid = false;  // re-sort
    TimeNs first = INT64_MAX, last = INT64_MIN;
    for (const OperatorAllocation& a : allocations) {
        first = std::min(first, a.allocationNs);
        last = std::max(last, a.released ? a.releaseNs : a.allocationNs);
    }
    // Memory never released is held until the end of the profile.
    auto held = [&](const OperatorAllocation& a) {
        return (a.released ? a.releaseNs : last) - a.allocationNs;
    };
    if (!m_orderValid) {
        m_order.resize(allocations.size());
        for (size_t i = 0; i < m_order.size(); ++i) m_order[i] = i;
        std::stable_sort(m_order.begin(), m_order.end(), [&](size_t a, size_t b) {
            const OperatorAllocation& x = allocations[a];
            const OperatorAllocation& y = allocations[b];
            double p = 0, q = 0;
            switch (m_sortColumn) {
                case kName:
                    return m_sortAscending ? x.name < y.name : y.name < x.name;
                case kSize:
                    p = x.sizeKb, q = y.sizeKb;
                    break;
                case kAllocated:
                    p = static_cast<double>(x.allocationNs),
                    q = static_cast<double>(y.allocationNs);
                    break;
                case kReleased:
                    p = static_cast<double>(x.released ? x.releaseNs : INT64_MAX),
                    q = static_cast<double>(y.released ? y.releaseNs : INT64_MAX);
                    break;
                default:
                    p = static_cast<double>(held(x)), q = static_cast<double>(held(y));
                    break;
            }
            return m_sortAscending ? p < q : p > q;
        });
        m_orderValid = true;
    }
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(m_order.size()));
    while (clipper.Step()) {
        for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
            const size_t index = m_order[static_cast<size_t>(i)];
            const OperatorAllocation& a = allocations[index];
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::PushID(i);
            if (ImGui::Selectable(a.name.c_str(), index == m_selected,
                                  ImGuiSelectableFlags_SpanAllColumns)) {
                m_selected = index;
                request.kind = TimelineRequest::kShowRange;
                request.startNs = a.allocationNs;
                request.endNs = a.allocationNs + std::max<TimeNs>(held(a), 1000);
                request.switchToTimeline = true;
                request.label = a.name + " holds " + Megabytes(a.sizeKb / 1024);
                request.selectName = a.name;  // the operator that allocated it
            }
            if (ImGui::IsItemHovered())
                ImGui::SetTooltip("click: show the time this memory was held in the timeline");
            ImGui::PopID();
            ImGui::TableNextColumn();
            RightAligned(Megabytes(a.sizeKb / 1024));
            ImGui::TableNextColumn();
            RightAligned("+" + FormatDuration(a.allocationNs - originNs));
            ImGui::TableNextColumn();
            RightAligned(a.released ? "+" + FormatDuration(a.releaseNs - originNs)
                                    : std::string("not released"));
            ImGui::TableNextColumn();
            RightAligned(FormatDuration(held(a)) + (a.released ? "" : "+"));
        }
    }
    ImGui::EndTable();
}

void MemoryView::Draw(const RankAnalysis& analysis, TimelineRequest& request) {
    // Times count from the timeline's origin; without a trace, from the first time of the files.
    TimeNs originNs = analysis.traceStartNs;
    if (!analysis.hasTrace) {
        originNs = INT64_MAX;
        if (analysis.memoryRecord)
            for (const MemorySeries& series : analysis.memoryRecord->series)
                if (!series.timeNs.empty()) originNs = std::min(originNs, series.timeNs.front());
        if (analysis.operatorMemory)
            for (const OperatorAllocation& a : analysis.operatorMemory->allocations)
                originNs = std::min(originNs, a.allocationNs);
        if (originNs == INT64_MAX) originNs = 0;
    }
    const bool database = !analysis.database.empty();
    const std::string curvesTitle =
        std::string("Memory over time (") + (database ? "MEMORY_RECORD" : "memory_record.csv") +
        "; dots mark each curve's peak; times " +
        (analysis.hasTrace ? "on the timeline's axis)" : "from the first sample)");
    SectionTitle(curvesTitle.c_str());
    if (analysis.memoryRecord) {
        DrawCurves(*analysis.memoryRecord,
                   std::max(200.0f, ImGui::GetContentRegionAvail().y * 0.42f), originNs);
        if (ImGui::BeginTable("peaks", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) {
            ImGui::TableSetupColumn("Curve", 0, 220);
            ImGui::TableSetupColumn("Peak", 0, 100);
            ImGui::TableSetupColumn("Samples", 0, 80);
            ImGui::TableHeadersRow();
            for (const MemorySeries& series : analysis.memoryRecord->series) {
                ImGui::TableNextRow();
                ImGui::TableNextColumn();
                ImGui::Text("%s %s", series.component.c_str(), series.metric.c_str());
                ImGui::TableNextColumn();
                RightAligned(Megabytes(series.peakMb));
                ImGui::TableNextColumn();
                RightAligned(std::to_string(series.timeNs.size()));
            }
            ImGui::EndTable();
        }
    } else {
        DrawMissingFile(kMemoryRecordFile, "The memory curves");
    }
    const std::string allocationsTitle = std::string("Allocations by operator (") +
                                         (database ? "OP_MEMORY" : "operator_memory.csv") +
                                         "; click one to see it in the timeline)";
    SectionTitle(allocationsTitle.c_str());
    if (analysis.operatorMemory)
        DrawAllocations(*analysis.operatorMemory, request, originNs);
    else
        DrawMissingFile(kOperatorMemoryFile, "The allocation table");
}

void MemoryView::Draw(ViewContext& context) {
    Draw(context.document->analysis(), context.request);
}

}  // namespace marey
