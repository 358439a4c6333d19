// What the profiler itself says of the data's preparation, shown as it wrote it: its analysis of
// the dataset pipeline (minddata_pipeline_summary_N.json or .csv) beside the queue rules'
// bottlenecks, each dataset operation's stages (dataset.csv) and the AI CPU tasks that prepared
// data on the device (data_preprocess.csv).
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "core/TextFormat.hpp"
#include "rank/DataPreparation.hpp"
#include "views/DataPreparationDraw.hpp"
#include "views/DataPreparationView.hpp"
#include "viewkit/ViewCommon.hpp"

namespace marey {
namespace {

// "12.5 %" of a percentage, or "-" where the summary holds no value.
std::string Percent(double value) {
    return value < 0 ? "-" : FormatPercent(value / 100);
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
        const std::string id = "op " + std::to_string(op.id);
        const std::string name = !op.pipelineName.empty() ? op.pipelineName
                                 : op.name.empty()        ? id
                                                          : op.name + " (" + id + ")";
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

void DrawDatasetStages(const std::vector<DatasetStage>& stages) {
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV |
                                  ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollY;
    const float rows = static_cast<float>(std::min<size_t>(stages.size(), 12) + 1);
    if (!ImGui::BeginTable("dataset stages", 6, flags,
                           ImVec2(0, rows * ImGui::GetTextLineHeightWithSpacing() + 6)))
        return;
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("Operation");
    ImGui::TableSetupColumn("Stage");
    for (const char* title : {"Runs", "Mean", "In all"}) ImGui::TableSetupColumn(title);
    ImGui::TableSetupColumn("Custom info", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableHeadersRow();
    for (const DatasetStage& stage : stages) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(stage.operation.c_str());
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(stage.stage.c_str());
        ImGui::TableNextColumn();
        RightAligned(std::to_string(stage.occurrences));
        ImGui::TableNextColumn();
        RightAligned(FormatDuration(stage.averageNs));
        ImGui::TableNextColumn();
        RightAligned(FormatDuration(stage.totalNs));
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(stage.customInfo.c_str());
    }
    ImGui::EndTable();
}

void DrawAicpuNodes(const AicpuPreprocessTable& table) {
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV |
                                  ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollY;
    const float rows = static_cast<float>(std::min<size_t>(table.nodes.size(), 12) + 1);
    if (!ImGui::BeginTable("aicpu nodes", 8, flags,
                           ImVec2(0, rows * ImGui::GetTextLineHeightWithSpacing() + 6)))
        return;
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("Node", ImGuiTableColumnFlags_WidthStretch);
    for (const char* title :
         {"Tasks", "Compute", "Memcpy", "Task", "Dispatch", "Total", "Longest task"})
        ImGui::TableSetupColumn(title);
    ImGui::TableHeadersRow();
    const auto time = [](bool has, TimeNs ns) {
        RightAligned(has ? FormatDuration(ns) : std::string("-"));
    };
    for (const AicpuNodeTimes& node : table.nodes) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(node.node.c_str());
        ImGui::TableNextColumn();
        RightAligned(std::to_string(node.count));
        ImGui::TableNextColumn();
        time(table.hasCompute, node.computeNs);
        ImGui::TableNextColumn();
        time(table.hasMemcpy, node.memcpyNs);
        ImGui::TableNextColumn();
        time(table.hasTask, node.taskNs);
        ImGui::TableNextColumn();
        time(table.hasDispatch, node.dispatchNs);
        ImGui::TableNextColumn();
        time(true, node.totalNs);
        ImGui::TableNextColumn();
        time(true, node.longestNs);
    }
    ImGui::EndTable();
}

}  // namespace

void DataPreparationView::DrawStageTables(const DataPreparation& preparation) {
    if (!preparation.datasetStages.empty()) {
        SectionTitle(("Dataset stages (" + DataFileName(preparation.files.datasetStages) +
                      "; each operation's stages, the longest in all first)")
                         .c_str());
        DrawDatasetStages(preparation.datasetStages);
    }
    if (preparation.hasAicpuPreprocess) {
        SectionTitle(
            ("AI CPU data preprocessing on the device (" +
             DataFileName(preparation.files.aicpuPreprocess) + "; " +
             CountText(static_cast<size_t>(preparation.aicpuPreprocess.tasks), "task", "tasks") +
             ", summed per node)")
                .c_str());
        DrawAicpuNodes(preparation.aicpuPreprocess);
    }
}

void DataPreparationView::DrawProfilerSummary(const DataPreparation& preparation) {
    if (!preparation.hasProfilerSummary) return;
    const MindDataSummary& summary = preparation.profilerSummary;
    const std::string title =
        "The profiler's own analysis (" + DataFileName(preparation.files.summary) + ")";
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
