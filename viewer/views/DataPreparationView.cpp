#include "views/DataPreparationView.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "core/TextFormat.hpp"
#include "rank/DataPreparation.hpp"
#include "views/DataPreparationDraw.hpp"
#include "views/StepChart.hpp"
#include "viewkit/ViewCommon.hpp"
#include "viewkit/ViewContext.hpp"
#include "workspace/Document.hpp"

namespace marey {
namespace {

constexpr ImU32 kGrid = IM_COL32(60, 64, 74, 255);

// A notice for a rank without any MindData file, framed as a missing file is.
void DrawNoRecord() {
    ImGui::PushStyleColor(ImGuiCol_ChildBg, ImVec4(0.20f, 0.17f, 0.10f, 1.0f));
    ImGui::BeginChild("no data preparation",
                      ImVec2(0, ImGui::GetTextLineHeightWithSpacing() * 4.4f), true);
    ImGui::TextColored(ImVec4(1.0f, 0.78f, 0.35f, 1.0f),
                       "This view needs a record of data preparation");
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(
        "The trace holds no enumerate(DataLoader) call (PyTorch records one per batch), the step "
        "table has no Preparing column (the step interval), and "
        "minddata_pipeline_raw_N.csv, device_queue_profiling_N.txt and minddata_aicpu_N.txt are "
        "not in this folder (MindSpore's profiler writes them with data_process=True when the "
        "script reads its data through mindspore.dataset).");
    ImGui::PopTextWrapPos();
    ImGui::EndChild();
    ImGui::PopStyleColor();
}

// Every problem of the files, each with its file, line and column.
void DrawProblems(const DataPreparation& preparation, const char* title) {
    SectionTitle(title);
    for (const std::string& problem : preparation.problems)
        ImGui::TextColored(ImVec4(1, 0.6f, 0.5f, 1), "%s", problem.c_str());
}

std::string Count(int value) {
    return value < 0 ? std::string("not recorded") : std::to_string(value);
}

std::string Duration(TimeNs ns) {
    return ns < 0 ? std::string("not recorded") : FormatDuration(ns);
}

}  // namespace

void DataPreparationView::Draw(ViewContext& context) {
    Draw(context.document->analysis());
}

void DataPreparationView::Draw(const RankAnalysis& analysis) {
    const DataPreparation* preparation = analysis.dataPreparation.get();
    if (!preparation || !preparation->HasRecord()) {
        SectionTitle("Data preparation");
        if (preparation)  // the files are there, but no row of them could be read
            DrawProblems(*preparation, "The data-preparation files hold no row that could be read");
        else
            DrawNoRecord();
        return;
    }
    if (preparation->loader.Found()) DrawLoader(preparation->loader, 170);
    if (preparation->files.Any() || !preparation->steps.empty()) DrawMindData(*preparation);
    if (!preparation->problems.empty()) DrawProblems(*preparation, "Problems in these files");
}

void DataPreparationView::DrawMindData(const DataPreparation& preparation) {
    const DataPreparationFiles& files = preparation.files;
    std::string sources;
    for (const std::string* path : {&files.hostQueue, &files.deviceQueue})
        if (!path->empty()) sources += (sources.empty() ? "" : ", ") + DataFileName(*path);
    if (sources.empty())
        sources = preparation.intervalSource.empty() ? "no queue file" : preparation.intervalSource;
    SectionTitle(("Step interval (" + sources + ")").c_str());
    DrawVerdict(preparation);
    if (!preparation.steps.empty()) {
        if (files.hostQueue.empty() && files.deviceQueue.empty())
            ImGui::TextDisabled(
                "MindSpore's device_queue_profiling_N.txt and minddata_aicpu_N.txt "
                "(data_process=True) "
                "would say whether a long interval waited for data.");
        else
            DrawQueues(preparation, 180);
        DrawIntervals(preparation, 110);
    }
    if (!files.Any()) return;  // no MindData files: no pipeline to draw
    // The pipeline's file: the CSV, else the JSON it is made from.
    const std::string& pipelineFile = !files.pipelineRaw.empty()         ? files.pipelineRaw
                                      : !files.pipelineProfiling.empty() ? files.pipelineProfiling
                                                                         : files.summary;
    std::string sourcesOfPipeline =
        pipelineFile.empty() ? std::string("no pipeline file") : DataFileName(pipelineFile);
    if (!files.cpuUtilization.empty())
        sourcesOfPipeline += ", " + DataFileName(files.cpuUtilization);
    const std::string pipelineTitle =
        "Data processing (" + sourcesOfPipeline +
        "; the pipeline left to right, each queue coloured by its average usage; click a queue)";
    SectionTitle(pipelineTitle.c_str());
    if (preparation.processCpuPercent >= 0)
        ImGui::Text("The process used %.1f %% of a core on average (user and system).",
                    preparation.processCpuPercent);
    const DataPipeline& pipeline = preparation.pipeline;
    if (pipeline.operators.empty()) {
        ImGui::TextDisabled(
            "No pipeline recorded: none of minddata_pipeline_raw_N.csv, pipeline_profiling_N.json "
            "and minddata_pipeline_summary_N.json is in this folder.");
        DrawStageTables(preparation);
        return;
    }
    // The first bottleneck's queue is shown over time until a person clicks another.
    if (m_selected == SIZE_MAX && !pipeline.bottlenecks.empty())
        for (size_t i = 0; i < pipeline.operators.size(); ++i)
            if (pipeline.operators[i].id == pipeline.bottlenecks[0].opId) m_selected = i;
    DrawPipeline(pipeline);
    DrawBottlenecks(pipeline);
    DrawProfilerSummary(preparation);
    DrawSelectedQueue(pipeline);
    DrawStageTables(preparation);
}

void DataPreparationView::DrawVerdict(const DataPreparation& preparation) {
    const DataVerdict& verdict = preparation.verdict;
    const ImVec4 color =
        verdict.HeldUp() ? ImVec4(1.0f, 0.62f, 0.45f, 1.0f) : ImVec4(0.6f, 0.85f, 0.6f, 1.0f);
    ImGui::PushTextWrapPos(0);
    ImGui::TextColored(
        color, "%s",
        verdict.text.empty() ? "No queue was recorded for any step." : verdict.text.c_str());
    ImGui::PopTextWrapPos();
}

void DataPreparationView::DrawQueues(const DataPreparation& preparation, float height) {
    const std::vector<DataPreparationStep>& steps = preparation.steps;
    // Scaled to the sizes seen, not to the capacity: a queue of 2 in 64 must still show.
    int top = 1, capacity = 0;
    for (const DataPreparationStep& step : steps) {
        top = std::max({top, step.deviceQueue, step.hostQueue});
        capacity = std::max(capacity, step.hostCapacity);
    }
    const std::string host =
        capacity > 0 ? "host queue (capacity " + std::to_string(capacity) + ")" : "host queue";
    DrawLegend({{"data queue on the device (when the step took its batch)", 0, SeriesColor(0)},
                {host.c_str(), 0, SeriesColor(1)},
                {"the step waited for data", 0, kDataWarning}});
    const StepChart chart(steps.size(), height);
    const double scale = top * 1.08;  // the largest size just under the top
    // 0, the top and a whole number near the middle when one lies between.
    std::vector<int> marks = {0, top};
    if ((top + 1) / 2 > 0 && (top + 1) / 2 < top) marks.push_back((top + 1) / 2);
    for (const int value : marks) {
        chart.draw()->AddLine(ImVec2(chart.SlotLeft(0), chart.Y(value / scale)),
                              ImVec2(chart.SlotLeft(steps.size()), chart.Y(value / scale)), kGrid);
        chart.AxisLabel(std::to_string(value), value / scale);
    }
    const ImU32 deviceColor = PackColor(SeriesColor(0)), hostColor = PackColor(SeriesColor(1));
    ImVec2 previousHost(-1, -1);
    std::vector<std::string> names;
    for (size_t i = 0; i < steps.size(); ++i) {
        const DataPreparationStep& step = steps[i];
        names.push_back(step.step);
        if (step.deviceQueue >= 0) chart.Bar(i, step.deviceQueue / scale, deviceColor);
        if (step.hostQueue >= 0) {
            const ImVec2 point(chart.SlotLeft(i) + chart.slot() / 2,
                               chart.Y(step.hostQueue / scale));
            if (previousHost.x >= 0) chart.draw()->AddLine(previousHost, point, hostColor, 2.0f);
            chart.draw()->AddCircleFilled(point, 3.5f, hostColor);
            previousHost = point;
        }
        const bool waited = step.verdict == BatchVerdict::kWaitedProcessing ||
                            step.verdict == BatchVerdict::kWaitedSending ||
                            step.verdict == BatchVerdict::kWaited;
        // A red mark on the axis under the step: visible whatever the queues' sizes.
        if (waited)
            chart.draw()->AddRectFilled(
                ImVec2(chart.SlotLeft(i) + chart.slot() * 0.2f, chart.bottom() - 3),
                ImVec2(chart.SlotLeft(i) + chart.slot() * 0.8f, chart.bottom() + 1),
                PackColor(kDataWarning));
    }
    chart.StepLabels(names);
    const size_t hovered = chart.Finish("##queues");
    if (hovered != SIZE_MAX) {
        const DataPreparationStep& step = steps[hovered];
        std::string text = "step " + step.step + ": " + BatchVerdictName(step.verdict) +
                           "\ndata queue on the device: " + Count(step.deviceQueue) +
                           "\nGetNext took " + Duration(step.getNextNs) +
                           "\nhost queue: " + Count(step.hostQueue);
        if (step.hostCapacity > 0) text += " of " + std::to_string(step.hostCapacity);
        text += "\npush to the device: " + Duration(step.pushNs);
        text += "\nstep interval: " + Duration(step.intervalNs);
        ImGui::SetTooltip("%s", text.c_str());
    }
}

void DataPreparationView::DrawIntervals(const DataPreparation& preparation, float height) {
    const std::vector<DataPreparationStep>& steps = preparation.steps;
    TimeNs top = 0;
    for (const DataPreparationStep& step : steps) top = std::max(top, step.intervalNs);
    if (top <= 0) {
        ImGui::TextDisabled("Step interval: %s",
                            preparation.intervalSource.empty()
                                ? "no step table with a Preparing or interval column"
                                : "zero or unknown in every step the queues record");
        return;
    }
    ImGui::Text("Step interval per step (from %s)", preparation.intervalSource.c_str());
    const StepChart chart(steps.size(), height);
    chart.AxisLabel(FormatDuration(top), 1);
    chart.AxisLabel("0", 0);
    std::vector<std::string> names;
    for (size_t i = 0; i < steps.size(); ++i) {
        names.push_back(steps[i].step);
        if (steps[i].intervalNs > 0)
            chart.Bar(i, static_cast<double>(steps[i].intervalNs) / static_cast<double>(top),
                      PackColor(FreeColor()));
    }
    chart.StepLabels(names);
    const size_t hovered = chart.Finish("##intervals");
    if (hovered != SIZE_MAX)
        ImGui::SetTooltip("step %s: step interval %s (%s)", steps[hovered].step.c_str(),
                          Duration(steps[hovered].intervalNs).c_str(),
                          BatchVerdictName(steps[hovered].verdict));
}

}  // namespace marey
