// The profiler's own analysis of the dataset pipeline (minddata_pipeline_summary_N.json or .csv),
// shown as MindSpore wrote it, beside the queue rules' bottlenecks: its warning and suggestion,
// its sentences on CPU and queues, and each operator's CPU share and queue figures.
#include <imgui.h>

#include <cstdio>
#include <filesystem>
#include <string>

#include "rank/DataPreparation.hpp"
#include "views/DataPreparationDraw.hpp"
#include "views/DataPreparationView.hpp"
#include "viewkit/ViewCommon.hpp"

namespace marey {
namespace {

// "12.5 %", or "-" where the summary holds no value.
std::string Percent(double value) {
    if (value < 0) return "-";
    char text[32];
    std::snprintf(text, sizeof text, "%.1f %%", value);
    return text;
}

std::string Milliseconds(double value) {
    if (value < 0) return "not recorded";
    char text[32];
    std::snprintf(text, sizeof text, "%.3f ms", value);
    return text;
}

void DrawSummaryOperators(const MindDataSummary& summary) {
    const ImGuiTableFlags flags =
        ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit;
    if (!ImGui::BeginTable("summary operators", 7, flags)) return;
    ImGui::TableSetupColumn("Operator", ImGuiTableColumnFlags_WidthStretch);
    for (const char* title : {"Workers", "CPU (of a core)", "CPU per worker", "Queue used",
                              "Queue empty", "Queue size"})
        ImGui::TableSetupColumn(title);
    ImGui::TableHeadersRow();
    for (const MindDataSummaryOperator& op : summary.operators) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        const std::string name = op.pipelineName.empty()
                                     ? op.name + " (op " + std::to_string(op.id) + ")"
                                     : op.pipelineName;
        ImGui::TextUnformatted(name.c_str());
        ImGui::TableNextColumn();
        RightAligned(op.workers < 0 ? "-" : std::to_string(op.workers));
        ImGui::TableNextColumn();
        RightAligned(Percent(op.cpuPercent));
        ImGui::TableNextColumn();
        RightAligned(Percent(op.cpuPercentPerWorker));
        ImGui::TableNextColumn();
        RightAligned(Percent(op.queueUtilizationPct));
        ImGui::TableNextColumn();
        RightAligned(Percent(op.queueEmptyPct));
        ImGui::TableNextColumn();
        char size[32] = "-";
        if (op.queueAverageSize >= 0) std::snprintf(size, sizeof size, "%.1f", op.queueAverageSize);
        RightAligned(size);
    }
    ImGui::EndTable();
}

}  // namespace

void DataPreparationView::DrawProfilerSummary(const DataPreparation& preparation) {
    if (!preparation.hasProfilerSummary) return;
    const MindDataSummary& summary = preparation.profilerSummary;
    const std::string title = "The profiler's own analysis (" +
                              std::filesystem::path(preparation.files.summary).filename().string() +
                              ")";
    SectionTitle(title.c_str());
    const std::string warning = ProfilerWarningText(summary);
    if (summary.HasWarning()) ImGui::PushStyleColor(ImGuiCol_Text, PackColor(kDataWarning));
    ImGui::TextWrapped("%s", warning.c_str());
    if (summary.HasWarning()) ImGui::PopStyleColor();
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "MindSpore's own judgement, from its CPU and queue figures; the bottleneck above is "
            "found by the queue rules of the tuning method. Two judges: they may differ.");
    for (const std::string* sentence : {&summary.cpuAnalysis, &summary.queueAnalysis})
        if (!sentence->empty()) ImGui::TextWrapped("%s", sentence->c_str());
    ImGui::Text("Per pipeline pass %s   per push to the device queue %s   per batch %s",
                Milliseconds(summary.perPipelineMs).c_str(),
                Milliseconds(summary.perPushQueueMs).c_str(),
                Milliseconds(summary.perBatchMs).c_str());
    DrawSummaryOperators(summary);
}

}  // namespace marey
