// The Device view's per-stream and launch sections, and the list of what lies behind a figure.
#include "views/DeviceView.hpp"
#include "viewkit/ViewContext.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "core/TextFormat.hpp"
#include "viewkit/TableHeaders.hpp"
#include "workspace/Document.hpp"

namespace marey {
namespace {

bool BeginStreamTable(const char* id, int columns) {
    return ImGui::BeginTable(id, columns,
                             ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH |
                                 ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit);
}

// Device and stream of one row.
// The Device column fits the widest device id: Ascend's pids run to ten digits.
float DeviceColumnWidth(const DeviceActivities& activities) {
    float width = ImGui::CalcTextSize("Device").x;
    for (const DeviceStream& stream : activities.streams)
        width = std::max(width, ImGui::CalcTextSize(std::to_string(stream.device).c_str()).x);
    return width + ImGui::GetStyle().CellPadding.x * 2;
}

void StreamCells(const DeviceStream& stream) {
    ImGui::TableNextColumn();
    RightAligned(std::to_string(stream.device));
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(stream.label.c_str());
}

std::string GapTooltip(const GapStats& stats, GapKind kind) {
    return std::string(GapKindName(kind)) + ": " + CountText(stats.count, "gap", "gaps") +
           "\nmean " + FormatDuration(static_cast<TimeNs>(stats.MeanNs())) + "\nmin  " +
           FormatDuration(stats.minNs) + "\nmax  " + FormatDuration(stats.maxNs) +
           "\nclick: list these gaps below";
}

void LaunchRow(const char* label, const std::string& value) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(label);
    ImGui::TableNextColumn();
    RightAligned(value);
}

}  // namespace

void DeviceView::DrawIdle(const std::vector<StreamIdle>& idle) {
    const DeviceActivities& activities = m_document.analysis().trace->activities;
    SectionTitle("Idle per stream  (gaps between a stream's activities)");
    constexpr const char* kHeaders[kGapKindCount][2] = {{"Host waits", "Host wait time"},
                                                        {"Kernel waits", "Kernel wait time"},
                                                        {"Other gaps", "Other gap time"}};
    if (!BeginStreamTable("idle", 2 + 2 * kGapKindCount)) return;
    ImGui::TableSetupColumn("Device", ImGuiTableColumnFlags_WidthFixed,
                            DeviceColumnWidth(activities));
    ImGui::TableSetupColumn("Stream", ImGuiTableColumnFlags_WidthFixed, 130);
    for (const auto& headers : kHeaders) {
        ImGui::TableSetupColumn(headers[0], ImGuiTableColumnFlags_WidthFixed, 96);
        ImGui::TableSetupColumn(headers[1], ImGuiTableColumnFlags_WidthFixed, 120);
    }
    HeadersRowAligned(0b11111101);  // all but the stream's name
    for (const StreamIdle& stream : idle) {
        ImGui::TableNextRow();
        StreamCells(activities.streams[stream.stream]);
        for (int kind = 0; kind < kGapKindCount; ++kind) {
            const GapStats& stats = stream.gaps[static_cast<size_t>(kind)];
            FigureSource source;
            source.kind = FigureSource::kGaps;
            source.stream = stream.stream;
            source.gap = static_cast<GapKind>(kind);
            const std::string tooltip = GapTooltip(stats, source.gap);
            ImGui::TableNextColumn();
            FigureCell(std::to_string(stats.count), source, stats.count > 0, tooltip.c_str());
            ImGui::TableNextColumn();
            FigureCell(FormatDuration(stats.totalNs), source, stats.count > 0, tooltip.c_str());
        }
    }
    ImGui::EndTable();
}

void DeviceView::DrawLaunches(const LaunchSummary& launch, const std::vector<StreamQueue>& queues) {
    const TraceAnalyses& analyses = *m_document.analysis().trace;
    const LaunchCutoffs& cutoffs = analyses.options.cutoffs;
    SectionTitle("Launches");
    if (BeginStreamTable("launches", 2)) {
        ImGui::TableSetupColumn("Figure", ImGuiTableColumnFlags_WidthFixed, 300);
        ImGui::TableSetupColumn("Value", ImGuiTableColumnFlags_WidthFixed, 110);
        const auto mean = [&](TimeNs sum) {
            return launch.count ? FormatDuration(sum / static_cast<TimeNs>(launch.count))
                                : std::string("–");
        };
        LaunchRow("Kernels with their launch found", std::to_string(launch.count));
        LaunchRow("Short kernels (GPU time < CPU time)", std::to_string(launch.shortKernels));
        const std::string runtime =
            "Runtime outliers (CPU > " + FormatDuration(cutoffs.runtimeNs) + ")";
        const std::string delay =
            "Launch-delay outliers (delay > " + FormatDuration(cutoffs.launchDelayNs) + ")";
        const std::pair<const std::string*, FigureSource::Kind> outliers[] = {
            {&runtime, FigureSource::kRuntimeOutliers}, {&delay, FigureSource::kDelayOutliers}};
        for (const auto& [label, kind] : outliers) {
            const uint64_t count = kind == FigureSource::kRuntimeOutliers
                                       ? launch.runtimeOutliers
                                       : launch.launchDelayOutliers;
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(label->c_str());
            ImGui::TableNextColumn();
            FigureSource source;
            source.kind = kind;
            FigureCell(std::to_string(count), source, count > 0,
                       "click: list these kernels below, largest first");
        }
        LaunchRow("Mean CPU launch time", mean(launch.cpuNs));
        LaunchRow("Mean launch delay", mean(launch.delayNs));
        LaunchRow("Max launch delay", FormatDuration(launch.maxDelayNs));
        ImGui::EndTable();
    }
    ImGui::Dummy(ImVec2(0, 4));
    ImGui::TextUnformatted("Queue per stream");
    ImGui::SameLine();
    ImGui::TextDisabled("(launched, unfinished activities)");
    if (!BeginStreamTable("queues", 4)) return;
    ImGui::TableSetupColumn("Device", ImGuiTableColumnFlags_WidthFixed,
                            DeviceColumnWidth(analyses.activities));
    ImGui::TableSetupColumn("Stream", ImGuiTableColumnFlags_WidthFixed, 130);
    ImGui::TableSetupColumn("Mean", ImGuiTableColumnFlags_WidthFixed, 70);
    ImGui::TableSetupColumn("Max", ImGuiTableColumnFlags_WidthFixed, 70);
    HeadersRowAligned(0b1101);
    for (const StreamQueue& queue : queues) {
        ImGui::TableNextRow();
        StreamCells(analyses.activities.streams[queue.stream]);
        ImGui::TableNextColumn();
        char mean[32];
        std::snprintf(mean, sizeof mean, "%.2f", queue.mean);
        RightAligned(mean);
        ImGui::TableNextColumn();
        RightAligned(std::to_string(queue.max));
    }
    ImGui::EndTable();
}

void DeviceView::DrawSources(const RankAnalysis& analysis, TimelineRequest& request) {
    if (m_sources.source().kind == FigureSource::kNone) {
        ImGui::Dummy(ImVec2(0, 6));
        ImGui::TextDisabled(
            "Click a figure in blue to list the intervals behind it here; click a row of the list "
            "to show it on the timeline.");
        return;
    }
    const FigureSource::Kind kind = m_sources.source().kind;
    const bool kernels =
        kind == FigureSource::kRuntimeOutliers || kind == FigureSource::kDelayOutliers;
    std::string title = m_sources.title() + ", " + StepLabelText() + ": ";
    if (kernels) {
        title += CountText(m_sources.rows().size(), "kernel", "kernels");
    } else {
        TimeNs totalNs = 0;
        for (const FigureSourceRow& row : m_sources.rows()) totalNs += row.valueNs;
        title +=
            CountText(m_sources.rows().size(), kind == FigureSource::kGaps ? "gap" : "interval",
                      kind == FigureSource::kGaps ? "gaps" : "intervals") +
            ", " + FormatDuration(totalNs);
    }
    SectionTitle(title.c_str());
    if (m_scrollToSources) {
        ImGui::SetScrollHereY(0.0f);
        m_scrollToSources = false;
    }
    if (m_sources.rows().empty()) {
        ImGui::TextDisabled("None in this step.");
        return;
    }
    m_sources.Draw(analysis.traceStartNs, request);
}

}  // namespace marey
