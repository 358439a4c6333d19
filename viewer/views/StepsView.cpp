#include "views/StepsView.hpp"
#include "viewkit/ViewContext.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "core/TextFormat.hpp"
#include "timeline/RulerTicks.hpp"
#include "workspace/Document.hpp"

namespace marey {
namespace {

// The stacked parts of a step: they add up to its stage time.
std::vector<BarSegment> StepSegments(const StepRow& row) {
    return {
        {"Pure computing",
         static_cast<double>(std::max<TimeNs>(0, row.ns[kStepComputing] - row.ns[kStepOverlapped])),
         ComputingColor()},
        {"Communication, overlapped", static_cast<double>(row.ns[kStepOverlapped]),
         OverlappedColor()},
        {"Communication, not overlapped", static_cast<double>(row.ns[kStepCommNotOverlapped]),
         NotOverlappedColor()},
        {"Free", static_cast<double>(row.ns[kStepFree]), FreeColor()}};
}

TimeNs StepLength(const StepRow& row) {
    TimeNs total = 0;
    for (const BarSegment& segment : StepSegments(row)) total += static_cast<TimeNs>(segment.value);
    return total;
}

std::string StepLabel(const StepRow& row, size_t index) {
    return row.step.empty() ? "#" + std::to_string(index + 1) : row.step;
}

}  // namespace

void StepsView::Choose(const RankAnalysis& analysis, size_t step, TimelineRequest& request) {
    m_selected = step;
    if (step < analysis.stepSpans.size() && analysis.stepSpans[step].found) {
        request.kind = TimelineRequest::kShowRange;
        request.startNs = analysis.stepSpans[step].startNs;
        request.endNs = analysis.stepSpans[step].endNs;
        request.switchToTimeline = true;
        request.label = "step " + analysis.steps->rows[step].step;
    }
}

void StepsView::DrawBars(const RankAnalysis& analysis, TimelineRequest& request, float height) {
    const std::vector<StepRow>& rows = analysis.steps->rows;
    TimeNs longest = 1;
    for (const StepRow& row : rows) longest = std::max(longest, StepLength(row));
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const float axisWidth = 90;
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const float width = ImGui::GetContentRegionAvail().x - axisWidth;
    const float plotHeight = height - 22;
    // y axis: gridlines at round times (1, 2 or 5 × a power of ten), about four of them.
    double tick = 1;
    while (tick * 10 <= static_cast<double>(longest) / 4) tick *= 10;
    if (tick * 5 <= static_cast<double>(longest) / 4)
        tick *= 5;
    else if (tick * 2 <= static_cast<double>(longest) / 4)
        tick *= 2;
    for (double value = 0; value <= static_cast<double>(longest); value += tick) {
        const float y = origin.y + plotHeight -
                        plotHeight * static_cast<float>(value / static_cast<double>(longest));
        draw->AddLine(ImVec2(origin.x + axisWidth, y), ImVec2(origin.x + axisWidth + width, y),
                      IM_COL32(60, 64, 74, 255));
        // One unit for the axis, the decimals the tick needs: "120 ms", "20 ms", "0 ms".
        const std::string label = TickLabel(value, tick, static_cast<double>(longest));
        draw->AddText(
            ImVec2(origin.x + axisWidth - 6 - ImGui::CalcTextSize(label.c_str()).x, y - 8),
            IM_COL32(160, 165, 175, 255), label.c_str());
    }
    const float slot = width / static_cast<float>(rows.size());
    const float barWidth = std::max(2.0f, std::min(48.0f, slot * 0.7f));
    const int labelEvery = std::max(1, static_cast<int>(std::ceil(44.0f / slot)));
    for (size_t i = 0; i < rows.size(); ++i) {
        const float x = origin.x + axisWidth + slot * (static_cast<float>(i) + 0.5f) - barWidth / 2;
        float y = origin.y + plotHeight;
        const std::vector<BarSegment> segments = StepSegments(rows[i]);
        for (const BarSegment& segment : segments) {
            const float h =
                static_cast<float>(segment.value / static_cast<double>(longest)) * plotHeight;
            draw->AddRectFilled(ImVec2(x, y - h), ImVec2(x + barWidth, y),
                                PackColor(segment.color));
            y -= h;
        }
        const bool hovered = ImGui::IsMouseHoveringRect(
            ImVec2(x - 2, origin.y), ImVec2(x + barWidth + 2, origin.y + plotHeight));
        if (i == m_selected || hovered)
            draw->AddRect(
                ImVec2(x - 2, y - 2), ImVec2(x + barWidth + 2, origin.y + plotHeight + 1),
                i == m_selected ? IM_COL32(255, 255, 255, 230) : IM_COL32(200, 200, 200, 140), 2.0f,
                0, 2.0f);
        if (static_cast<int>(i) % labelEvery == 0) {
            const std::string label = StepLabel(rows[i], i);
            const float labelWidth = ImGui::CalcTextSize(label.c_str()).x;
            draw->AddText(ImVec2(x + barWidth / 2 - labelWidth / 2, origin.y + plotHeight + 4),
                          IM_COL32(170, 175, 185, 255), label.c_str());
        }
        if (hovered) {
            std::string text =
                "Step " + StepLabel(rows[i], i) + ": " + FormatDuration(StepLength(rows[i]));
            for (const BarSegment& segment : segments)
                text += std::string("\n  ") + segment.label + "  " +
                        FormatDuration(static_cast<TimeNs>(segment.value));
            text += "\nclick: zoom the timeline to this step";
            ImGui::SetTooltip("%s", text.c_str());
            if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) Choose(analysis, i, request);
        }
    }
    ImGui::Dummy(ImVec2(axisWidth + width, height));
}

void StepsView::DrawTable(const RankAnalysis& analysis, TimelineRequest& request) {
    const StepTrace& steps = *analysis.steps;
    std::vector<int> phases;
    for (int phase = 0; phase < kStepPhaseCount; ++phase)
        if (steps.hasColumn[phase]) phases.push_back(phase);
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY |
                                  ImGuiTableFlags_ScrollX | ImGuiTableFlags_BordersInnerV |
                                  ImGuiTableFlags_SizingFixedFit;
    if (!ImGui::BeginTable("steps", static_cast<int>(phases.size()) + 2, flags)) return;
    ImGui::TableSetupScrollFreeze(1, 1);
    ImGui::TableSetupColumn("Step", 0, 60);
    // Wide enough for the header and for "123.456 ms".
    for (int phase : phases)
        ImGui::TableSetupColumn(kStepPhaseColumns[phase], ImGuiTableColumnFlags_WidthFixed,
                                std::max(90.0f, ImGui::CalcTextSize(kStepPhaseColumns[phase]).x));
    ImGui::TableSetupColumn("On the timeline");
    ImGui::TableHeadersRow();
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(steps.rows.size()));
    while (clipper.Step()) {
        for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
            const size_t index = static_cast<size_t>(i);
            const StepRow& row = steps.rows[index];
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::PushID(i);
            if (ImGui::Selectable(StepLabel(row, index).c_str(), index == m_selected,
                                  ImGuiSelectableFlags_SpanAllColumns))
                Choose(analysis, index, request);
            ImGui::PopID();
            for (int phase : phases) {
                ImGui::TableNextColumn();
                const std::string text = FormatDuration(row.ns[phase]);
                ImGui::SetCursorPosX(ImGui::GetCursorPosX() + ImGui::GetColumnWidth() -
                                     ImGui::CalcTextSize(text.c_str()).x);
                ImGui::TextUnformatted(text.c_str());
            }
            ImGui::TableNextColumn();
            const StepSpan span =
                index < analysis.stepSpans.size() ? analysis.stepSpans[index] : StepSpan{};
            if (span.found)
                ImGui::TextDisabled("ProfilerStep#%s", row.step.c_str());
            else
                ImGui::TextDisabled("not found");
        }
    }
    ImGui::EndTable();
}

void StepsView::Draw(const RankAnalysis& analysis, TimelineRequest& request) {
    if (!analysis.steps) {
        DrawMissingFile(kStepTraceFile, "The step view");
        return;
    }
    const std::vector<StepRow>& rows = analysis.steps->rows;
    if (rows.empty()) {
        ImGui::TextDisabled("step_trace_time.csv has a header but no steps.");
        return;
    }
    m_selected = std::min(m_selected, rows.size() - 1);
    ImGui::SetNextItemWidth(160);
    if (ImGui::BeginCombo("step", StepLabel(rows[m_selected], m_selected).c_str())) {
        for (size_t i = 0; i < rows.size(); ++i) {
            ImGui::PushID(static_cast<int>(i));
            if (ImGui::Selectable(StepLabel(rows[i], i).c_str(), i == m_selected))
                Choose(analysis, i, request);
            ImGui::PopID();
        }
        ImGui::EndCombo();
    }
    ImGui::SameLine(0, 20);
    const StepRow& selected = rows[m_selected];
    ImGui::Text("%s", FormatDuration(StepLength(selected)).c_str());
    ImGui::SameLine(0, 20);
    const bool placed =
        m_selected < analysis.stepSpans.size() && analysis.stepSpans[m_selected].found;
    if (!placed) ImGui::BeginDisabled();
    if (ImGui::Button("Zoom the timeline to this step")) Choose(analysis, m_selected, request);
    if (!placed) ImGui::EndDisabled();
    if (analysis.steps->hasColumn[kStepStage] || analysis.steps->hasColumn[kStepBubble]) {
        ImGui::SameLine(0, 20);
        ImGui::TextDisabled("stage %s, bubble %s", FormatDuration(selected.ns[kStepStage]).c_str(),
                            FormatDuration(selected.ns[kStepBubble]).c_str());
    }
    const std::vector<BarSegment> segments = StepSegments(selected);
    DrawStackedBar(segments, ImGui::GetContentRegionAvail().x, 26);
    DrawLegend(segments);
    SectionTitle("Every step (click a bar to zoom the timeline to it)");
    const float available = ImGui::GetContentRegionAvail().y;
    DrawBars(analysis, request, std::max(160.0f, available * 0.45f));
    DrawTable(analysis, request);
}

void StepsView::Draw(ViewContext& context) {
    Draw(context.document->analysis(), context.request);
}

}  // namespace marey
