// The data-loader half of the data-preparation view: PyTorch's enumerate(DataLoader) calls per
// step, the device's idle time inside them, and the steps that waited on the loader.
#include <imgui.h>

#include <algorithm>

#include "core/TextFormat.hpp"
#include "rank/DataPreparation.hpp"
#include "views/DataPreparationView.hpp"
#include "views/DataPreparationDraw.hpp"
#include "views/StepChart.hpp"
#include "viewkit/ViewCommon.hpp"

namespace marey {
namespace {

std::string Known(TimeNs ns) {
    return ns < 0 ? std::string("not known (no device activity)") : FormatDuration(ns);
}

// One row per step: its time, the loader's, the device's idle time in it, the gap before the
// device's first activity, and whether it waited.
void DrawLoaderTable(const std::vector<LoaderStep>& steps) {
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV |
                                  ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollY;
    const float rows = static_cast<float>(std::min<size_t>(steps.size(), 12) + 1);
    if (!ImGui::BeginTable("loader steps", 6, flags,
                           ImVec2(0, rows * ImGui::GetTextLineHeightWithSpacing() + 8)))
        return;
    ImGui::TableSetupScrollFreeze(0, 1);
    for (const char* column : {"Step", "Step time", "In the loader", "Device idle in it",
                               "Gap to the first activity", "Waited"})
        ImGui::TableSetupColumn(column, 0, 150);
    ImGui::TableHeadersRow();
    for (const LoaderStep& step : steps) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(step.step.c_str());
        for (const TimeNs ns : {step.endNs - step.startNs, step.loaderNs, step.deviceIdleNs,
                                step.firstActivityGapNs}) {
            ImGui::TableNextColumn();
            RightAligned(ns < 0 ? std::string("—") : FormatDuration(ns));
        }
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(step.waited ? "waited on the loader" : "");
    }
    ImGui::EndTable();
}

}  // namespace

void DataPreparationView::DrawLoader(const DataLoaderRecord& loader, float height) {
    SectionTitle(("Data loader (the trace's enumerate(DataLoader)#" + loader.iterator +
                  ".__next__ calls, per ProfilerStep)")
                     .c_str());
    ImGui::PushTextWrapPos(0);
    if (loader.steps.empty())
        ImGui::TextColored(ImVec4(1.0f, 0.78f, 0.35f, 1.0f),
                           "%u loader calls (%s), not judged: the trace marks no ProfilerStep, so "
                           "no step's time is known.",
                           loader.callsOutsideSteps, FormatDuration(loader.callsOutsideNs).c_str());
    else if (loader.inputBound)
        ImGui::TextColored(ImVec4(1.0f, 0.62f, 0.45f, 1.0f), "%s", loader.finding.c_str());
    else
        ImGui::TextColored(ImVec4(0.6f, 0.85f, 0.6f, 1.0f),
                           "Not input-bound: the loader took %s of %s; %u of %zu steps waited on "
                           "it.",
                           FormatDuration(loader.loaderNs).c_str(),
                           FormatDuration(loader.stepsNs).c_str(), loader.waitedSteps,
                           loader.steps.size());
    ImGui::PopTextWrapPos();
    if (loader.callsOutsideSteps > 0)
        ImGui::TextDisabled("%u loader calls lie in no ProfilerStep and are not counted.",
                            loader.callsOutsideSteps);
    const std::vector<LoaderStep>& steps = loader.steps;
    if (steps.empty()) return;
    DrawLegend({{"the step's time in the loader", 0, SeriesColor(2)},
                {"of it, the device idle", 0, kDataWarning}});
    ImGui::SameLine(0, 18);
    ImGui::TextDisabled("(bars: share of the step)");
    const StepChart chart(steps.size(), height);
    for (const auto& [label, share] :
         {std::pair<const char*, double>{"100 %", 1.0}, std::pair<const char*, double>{"50 %", 0.5},
          std::pair<const char*, double>{"0 %", 0.0}})
        chart.AxisLabel(label, share);
    const auto share = [](TimeNs ns, TimeNs stepNs) {
        return stepNs > 0 ? static_cast<double>(ns) / static_cast<double>(stepNs) : 0.0;
    };
    std::vector<std::string> names;
    for (size_t i = 0; i < steps.size(); ++i) {
        const LoaderStep& step = steps[i];
        const TimeNs stepNs = step.endNs - step.startNs;
        names.push_back(step.step);
        chart.Bar(i, share(step.loaderNs, stepNs), PackColor(SeriesColor(2)));
        if (step.deviceIdleNs > 0)
            chart.Bar(i, share(step.deviceIdleNs, stepNs), PackColor(kDataWarning), 0.3f);
    }
    chart.StepLabels(names);
    const size_t hovered = chart.Finish("##loader");
    DrawLoaderTable(steps);
    if (hovered != SIZE_MAX) {
        const LoaderStep& step = steps[hovered];
        ImGui::SetTooltip(
            "step %s (%s)%s\nin the loader: %s in %u call%s\nthe device idle in it: %s\nfrom the "
            "step's start to the device's first activity: %s",
            step.step.c_str(), FormatDuration(step.endNs - step.startNs).c_str(),
            step.waited ? ": waited on the loader" : "", FormatDuration(step.loaderNs).c_str(),
            step.calls, step.calls == 1 ? "" : "s", Known(step.deviceIdleNs).c_str(),
            Known(step.firstActivityGapNs).c_str());
    }
}

}  // namespace marey
