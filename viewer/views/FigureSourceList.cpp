#include "views/FigureSourceList.hpp"

#include <imgui.h>

#include <algorithm>
#include <cctype>

#include "core/TextFormat.hpp"
#include "viewkit/TableHeaders.hpp"

namespace marey {
namespace {

const char* TimeFigureName(TimeFigure figure) {
    switch (figure) {
        case TimeFigure::kIdle:
            return "Idle";
        case TimeFigure::kComputation:
            return "Computation";
        case TimeFigure::kNonCompute:
            return "Communication or memory alone";
        case TimeFigure::kOverlap:
            return "Communication while computation ran";
    }
    return "";
}

std::string ClassSetTitle(ClassSet classes) {
    std::string title;
    for (const char* name : ClassSetNames(classes))
        title += (title.empty() ? "" : " + ") + std::string(name);
    return title + " at once";
}

std::vector<FigureSourceRow> RowsOfRanges(const std::vector<TimeRange>& ranges) {
    std::vector<FigureSourceRow> rows;
    rows.reserve(ranges.size());
    for (const TimeRange& range : ranges)
        rows.push_back({range.startNs,
                        range.endNs,
                        range.endNs - range.startNs,
                        range.startNs,
                        range.endNs,
                        {}});
    return rows;
}

}  // namespace

void FigureSourceList::Build(const TraceAnalyses& analyses, const TraceModel& model,
                             const FigureScope& scope, const ActivityFigures& figures,
                             const FigureSource& source) {
    Clear();
    m_source = source;
    const DeviceActivities& activities = analyses.activities;
    switch (source.kind) {
        case FigureSource::kNone:
            return;
        case FigureSource::kTime:
            m_rows = RowsOfRanges(RangesOf(figures.time, source.time));
            m_title = TimeFigureName(source.time);
            return;
        case FigureSource::kClassSet:
            m_rows = RowsOfRanges(RangesOfClassSet(figures.time, source.classes));
            m_title = ClassSetTitle(source.classes);
            return;
        case FigureSource::kGaps: {
            const DeviceStream& stream = activities.streams[source.stream];
            for (const IdleGap& gap : GapsOf(analyses, scope, source.stream, source.gap))
                m_rows.push_back({gap.startNs,
                                  gap.endNs,
                                  gap.endNs - gap.startNs,
                                  gap.startNs,
                                  gap.endNs,
                                  {},
                                  stream.track});
            std::string kind = GapKindName(source.gap);
            kind[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(kind[0])));
            m_title =
                kind + " of " + stream.label + " (device " + std::to_string(stream.device) + ")";
            return;
        }
        case FigureSource::kRuntimeOutliers:
        case FigureSource::kDelayOutliers:
            break;
    }
    const bool runtime = source.kind == FigureSource::kRuntimeOutliers;
    for (const LaunchOutlier& outlier : LaunchOutliersOf(
             analyses, scope,
             runtime ? LaunchOutlierKind::kRuntime : LaunchOutlierKind::kLaunchDelay)) {
        const DeviceActivity& activity = activities.activities[outlier.activity];
        const HostLaunch& launch = activities.launches[static_cast<size_t>(activity.launch)];
        m_rows.push_back({activity.startNs, activity.endNs, outlier.valueNs,
                          std::min(launch.startNs, activity.startNs),
                          std::max(launch.endNs, activity.endNs),
                          std::string(model.Name(activity.name)), activity.slice.track});
    }
    const LaunchCutoffs& cutoffs = analyses.options.cutoffs;
    m_title =
        runtime ? "Runtime outliers: launch calls longer than " + FormatDuration(cutoffs.runtimeNs)
                : "Launch-delay outliers: kernels that started over " +
                      FormatDuration(cutoffs.launchDelayNs) + " after their launch";
}

const char* FigureSourceList::valueHeader() const {
    switch (m_source.kind) {
        case FigureSource::kRuntimeOutliers:
            return "CPU launch time";
        case FigureSource::kDelayOutliers:
            return "Launch delay";
        default:
            return "Duration";
    }
}

void FigureSourceList::ZoomTo(size_t row, TimelineRequest& request) {
    if (row >= m_rows.size()) return;
    m_chosen = row;
    const FigureSourceRow& chosen = m_rows[row];
    request.kind = TimelineRequest::kShowRange;
    request.startNs = chosen.zoomStartNs;
    request.endNs = chosen.zoomEndNs;
    request.switchToTimeline = true;
    if (chosen.track != UINT32_MAX) request.track = chosen.track;
    request.label = chosen.name.empty() ? m_title : "launch → " + chosen.name;
}

void FigureSourceList::Draw(TimeNs traceStartNs, TimelineRequest& request) {
    const bool named = !m_rows.empty() && !m_rows.front().name.empty();
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY |
                                  ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit;
    const float rowHeight = ImGui::GetTextLineHeightWithSpacing();
    const float height = rowHeight * static_cast<float>(std::min<size_t>(m_rows.size(), 12) + 1) +
                         ImGui::GetStyle().CellPadding.y * 2;
    if (!ImGui::BeginTable("sources", named ? 5 : 4, flags, ImVec2(0, height))) return;
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("#", ImGuiTableColumnFlags_WidthFixed, 50);
    ImGui::TableSetupColumn("Start", ImGuiTableColumnFlags_WidthFixed, 130);
    ImGui::TableSetupColumn(valueHeader(), ImGuiTableColumnFlags_WidthFixed, 120);
    if (named) {
        ImGui::TableSetupColumn("GPU time", ImGuiTableColumnFlags_WidthFixed, 100);
        ImGui::TableSetupColumn("Kernel", ImGuiTableColumnFlags_WidthStretch);
    } else {
        ImGui::TableSetupColumn("End", ImGuiTableColumnFlags_WidthFixed, 130);
    }
    HeadersRowAligned(named ? 0b01111 : 0b1111);
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(m_rows.size()));
    while (clipper.Step()) {
        for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
            const size_t index = static_cast<size_t>(i);
            const FigureSourceRow& row = m_rows[index];
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::PushID(i);
            if (ImGui::Selectable(std::to_string(index + 1).c_str(), index == m_chosen,
                                  ImGuiSelectableFlags_SpanAllColumns))
                ZoomTo(index, request);
            if (ImGui::IsItemHovered())
                ImGui::SetTooltip(named ? "click: show the launch and the kernel on the timeline"
                                        : "click: show this interval on the timeline");
            ImGui::PopID();
            ImGui::TableNextColumn();
            RightAligned(FormatInstant(row.startNs - traceStartNs));
            ImGui::TableNextColumn();
            RightAligned(FormatDuration(row.valueNs));
            ImGui::TableNextColumn();
            if (named) {
                RightAligned(FormatDuration(row.endNs - row.startNs));
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(row.name.c_str());
            } else {
                ImGui::PushStyleColor(ImGuiCol_Text,
                                      ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
                RightAligned(FormatInstant(row.endNs - traceStartNs));
                ImGui::PopStyleColor();
            }
        }
    }
    ImGui::EndTable();
}

}  // namespace marey
