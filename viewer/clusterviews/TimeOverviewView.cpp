// The time overview: across steps, every rank's step time on the left axis (a band from the
// fastest to the slowest rank, the median, and each rank's line when there are few) and the
// average communication and wait time on the right axis. Hover a step for its figures; click it
// to show that step in every cluster view.
#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "clusterviews/ClusterCommon.hpp"
#include "views/ViewCommon.hpp"
#include "clusterviews/TimeOverviewView.hpp"
#include "views/ViewContext.hpp"

namespace marey {
namespace {

constexpr size_t kMostRankLines = 64;
const Rgba kBandColor{0.40f, 0.55f, 0.80f, 0.30f}, kMedianColor{0.55f, 0.75f, 1.0f, 1}, kCommColor{0.96f, 0.60f, 0.22f, 1},
    kWaitColor{0.95f, 0.35f, 0.35f, 1};

struct Axis {
    double max = 1, tick = 1;
};

Axis AxisFor(double largest) {
    Axis axis;
    axis.tick = NiceTickStep(std::max(largest, 1.0), 4);
    axis.max = std::ceil(std::max(largest, 1.0) * 1.05 / axis.tick) * axis.tick;
    return axis;
}

// The figures of one step, and the selected rank's step time in it.
void DrawStepTooltip(const ClusterDocument& document, const StepOverview& step) {
    ImGui::BeginTooltip();
    ImGui::Text("step %s", step.step.c_str());
    ImGui::TextColored(ImVec4(0.55f, 0.75f, 1, 1),
                       "step time   fastest %s   median %s   slowest %s (rank %d)",
                       Ms(step.minNs).c_str(), Ms(step.medianNs).c_str(), Ms(step.maxNs).c_str(),
                       step.slowestRank);
    ImGui::TextColored(ImVec4(0.96f, 0.6f, 0.22f, 1), "communication, average over ranks   %s",
                       Ms(step.meanCommunicationNs).c_str());
    ImGui::TextColored(ImVec4(0.95f, 0.35f, 0.35f, 1), "of which waiting                       %s",
                       Ms(step.meanWaitNs).c_str());
    const int rank = document.selection.rank
                         ? document.cluster.IndexOfRank(document.selection.rank->value())
                         : -1;
    if (rank >= 0 && step.rankStepNs[rank] >= 0)
        ImGui::Text("selected rank %d: %s", document.selection.rank->value(),
                    Ms(step.rankStepNs[rank]).c_str());
    ImGui::TextDisabled("click: show step %s in every cluster view", step.step.c_str());
    ImGui::EndTooltip();
}

}  // namespace

void TimeOverviewView::Draw(ViewContext& context) {
    ClusterDocument& document = *context.cluster;
    const std::vector<StepOverview>& steps = document.report.timeOverview;
    DrawStepAndGroupPickers(document);
    if (steps.empty()) {
        DrawMissingFile(kStepTraceFile, "The time overview");
        return;
    }
    const Cluster& cluster = document.cluster;
    TimeNs largestStep = 1, largestComm = 1;
    for (const StepOverview& step : steps) largestStep = std::max(largestStep, step.maxNs), largestComm = std::max(largestComm, step.meanCommunicationNs);
    const Axis left = AxisFor(static_cast<double>(largestStep)), right = AxisFor(static_cast<double>(largestComm));
    const float leftAxis = 70, rightAxis = 70;
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const float width = ImGui::GetContentRegionAvail().x - leftAxis - rightAxis;
    const float height = std::max(220.0f, ImGui::GetContentRegionAvail().y - 70);
    const float top = origin.y + 26, bottom = origin.y + height - 24;
    const float x0 = origin.x + leftAxis;
    ImDrawList* draw = ImGui::GetWindowDrawList();
    auto xOf = [&](size_t s) { return x0 + (steps.size() == 1 ? width / 2 : width * static_cast<float>(s) / static_cast<float>(steps.size() - 1)); };
    auto yLeft = [&](double ns) { return bottom - (bottom - top) * static_cast<float>(ns / left.max); };
    auto yRight = [&](double ns) { return bottom - (bottom - top) * static_cast<float>(ns / right.max); };
    for (double v = 0; v <= left.max * 1.0001; v += left.tick) {
        draw->AddLine(ImVec2(x0, yLeft(v)), ImVec2(x0 + width, yLeft(v)), IM_COL32(255, 255, 255, 22));
        const std::string text = Ms(static_cast<TimeNs>(v));
        draw->AddText(ImVec2(x0 - 6 - ImGui::CalcTextSize(text.c_str()).x, yLeft(v) - 7), PackColor(kMedianColor), text.c_str());
    }
    for (double v = 0; v <= right.max * 1.0001; v += right.tick) {
        const std::string text = Ms(static_cast<TimeNs>(v));
        draw->AddText(ImVec2(x0 + width + 6, yRight(v) - 7), PackColor(kCommColor), text.c_str());
    }
    draw->AddText(ImVec2(origin.x + 4, origin.y + 2), PackColor(kMedianColor), "step time");
    const char* rightCaption = "comm., wait";
    draw->AddText(ImVec2(x0 + width + rightAxis - 4 - ImGui::CalcTextSize(rightCaption).x, origin.y + 2), PackColor(kCommColor), rightCaption);
    // The band between the fastest and the slowest rank, then each rank's line when few.
    for (size_t s = 0; s + 1 < steps.size(); ++s) {
        const ImVec2 quad[4] = {ImVec2(xOf(s), yLeft(static_cast<double>(steps[s].maxNs))), ImVec2(xOf(s + 1), yLeft(static_cast<double>(steps[s + 1].maxNs))),
                                ImVec2(xOf(s + 1), yLeft(static_cast<double>(steps[s + 1].minNs))), ImVec2(xOf(s), yLeft(static_cast<double>(steps[s].minNs)))};
        draw->AddConvexPolyFilled(quad, 4, PackColor(kBandColor));
    }
    if (cluster.ranks.size() <= kMostRankLines) {
        for (size_t r = 0; r < cluster.ranks.size(); ++r) {
            if (!document.InGroup(cluster.ranks[r].rankId)) continue;
            std::vector<ImVec2> line;
            for (size_t s = 0; s < steps.size(); ++s)
                if (steps[s].rankStepNs[r] >= 0) line.push_back(ImVec2(xOf(s), yLeft(static_cast<double>(steps[s].rankStepNs[r]))));
            const bool selected = Holds(document.selection.rank, cluster.ranks[r].rankId);
            draw->AddPolyline(line.data(), static_cast<int>(line.size()), selected ? IM_COL32(255, 255, 255, 255) : IM_COL32(140, 170, 230, 70), 0,
                              selected ? 2.0f : 1.0f);
        }
    }
    // Each step's spread as a bar too, so that one step alone still shows it.
    for (size_t s = 0; s < steps.size(); ++s) {
        draw->AddLine(ImVec2(xOf(s), yLeft(static_cast<double>(steps[s].minNs))), ImVec2(xOf(s), yLeft(static_cast<double>(steps[s].maxNs))),
                      PackColor(Rgba{0.40f, 0.55f, 0.80f, 0.8f}), 3);
        if (cluster.ranks.size() <= kMostRankLines)
            for (size_t r = 0; r < cluster.ranks.size(); ++r)
                if (steps[s].rankStepNs[r] >= 0 && document.InGroup(cluster.ranks[r].rankId))
                    draw->AddCircle(ImVec2(xOf(s), yLeft(static_cast<double>(steps[s].rankStepNs[r]))), 3, IM_COL32(170, 195, 240, 140));
    }
    std::vector<ImVec2> median, comm, wait;
    for (size_t s = 0; s < steps.size(); ++s) {
        median.push_back(ImVec2(xOf(s), yLeft(static_cast<double>(steps[s].medianNs))));
        comm.push_back(ImVec2(xOf(s), yRight(static_cast<double>(steps[s].meanCommunicationNs))));
        wait.push_back(ImVec2(xOf(s), yRight(static_cast<double>(steps[s].meanWaitNs))));
    }
    draw->AddPolyline(median.data(), static_cast<int>(median.size()), PackColor(kMedianColor), 0, 2);
    draw->AddPolyline(comm.data(), static_cast<int>(comm.size()), PackColor(kCommColor), 0, 2);
    draw->AddPolyline(wait.data(), static_cast<int>(wait.size()), PackColor(kWaitColor), 0, 2);
    for (const ImVec2& p : median) draw->AddCircleFilled(p, 3.5f, PackColor(kMedianColor));
    for (const ImVec2& p : comm) draw->AddCircleFilled(p, 3, PackColor(kCommColor));
    for (const ImVec2& p : wait) draw->AddCircleFilled(p, 3, PackColor(kWaitColor));
    // Step labels along the bottom, as dense as they fit.
    const float labelWidth = ImGui::CalcTextSize(steps.back().step.c_str()).x + 12;
    const size_t every = std::max<size_t>(1, static_cast<size_t>(std::ceil(labelWidth / std::max(1.0f, width / static_cast<float>(steps.size())))));
    for (size_t s = 0; s < steps.size(); s += every) {
        const float w = ImGui::CalcTextSize(steps[s].step.c_str()).x;
        draw->AddText(ImVec2(xOf(s) - w / 2, bottom + 4), IM_COL32(160, 165, 175, 255), steps[s].step.c_str());
    }
    if (const std::optional<StepIndex> chosen = document.selection.step) {
        const float x = xOf(static_cast<size_t>(chosen->value()));
        draw->AddLine(ImVec2(x, top), ImVec2(x, bottom), IM_COL32(255, 255, 255, 160), 1.5f);
    }
    ImGui::SetCursorScreenPos(ImVec2(x0, top));
    ImGui::InvisibleButton("steps", ImVec2(width, bottom - top));
    if (ImGui::IsItemHovered()) {
        const float mouse = ImGui::GetIO().MousePos.x;
        size_t nearest = 0;
        for (size_t s = 1; s < steps.size(); ++s)
            if (std::fabs(xOf(s) - mouse) < std::fabs(xOf(nearest) - mouse)) nearest = s;
        draw->AddLine(ImVec2(xOf(nearest), top), ImVec2(xOf(nearest), bottom), IM_COL32(255, 255, 255, 60));
        DrawStepTooltip(document, steps[nearest]);
        if (ImGui::IsItemClicked(ImGuiMouseButton_Left))
            document.selection.step = StepIndex(static_cast<int>(nearest));
    }
    ImGui::SetCursorScreenPos(ImVec2(origin.x, origin.y + height));
    DrawLegend({{"Step time: fastest to slowest rank", 0, Rgba{0.40f, 0.55f, 0.80f, 0.6f}}, {"Median step time", 0, kMedianColor},
                {"Communication (right axis)", 0, kCommColor}, {"Waiting (right axis)", 0, kWaitColor}});
    if (cluster.ranks.size() <= kMostRankLines) {
        ImGui::SameLine(0, 20);
        ImGui::TextDisabled("faint lines and rings: each rank; white: the selected rank");
    }
}

}  // namespace marey
