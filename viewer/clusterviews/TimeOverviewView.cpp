// The time overview: across steps, every rank's step time on the left axis (a band from the
// fastest to the slowest rank, the median, and each rank's line when there are few) and the
// average communication and wait time on the right axis. Hover a step for its figures; click it
// to show that step in every cluster view.
#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "cluster/StepBuckets.hpp"
#include "clusterviews/ClusterCommon.hpp"
#include "viewkit/ViewCommon.hpp"
#include "clusterviews/TimeOverviewView.hpp"
#include "viewkit/ViewContext.hpp"

namespace marey {
namespace {

constexpr size_t kMostRankLines = 64;
const Rgba kBandColor{0.40f, 0.55f, 0.80f, 0.30f}, kMedianColor{0.55f, 0.75f, 1.0f, 1},
    kCommColor{0.96f, 0.60f, 0.22f, 1}, kWaitColor{0.95f, 0.35f, 0.35f, 1};

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
                       "step time   fastest %s   median %s   slowest %s (rank %s)",
                       Ms(step.minNs).c_str(), Ms(step.medianNs).c_str(), Ms(step.maxNs).c_str(),
                       step.slowestRank ? ToString(*step.slowestRank).c_str() : "none");
    ImGui::TextColored(ImVec4(0.96f, 0.6f, 0.22f, 1), "communication, average over ranks   %s",
                       Ms(step.meanCommunicationNs).c_str());
    ImGui::TextColored(ImVec4(0.95f, 0.35f, 0.35f, 1), "of which waiting                       %s",
                       Ms(step.meanWaitNs).c_str());
    const std::optional<size_t> rank = document.SelectedRankIndex();
    if (rank && step.rankStepNs[*rank] >= 0)
        ImGui::Text("selected rank %d: %s", document.selection.rank->value(),
                    Ms(step.rankStepNs[*rank]).c_str());
    ImGui::TextDisabled("click: show step %s in every cluster view", step.step.c_str());
    ImGui::EndTooltip();
}

}  // namespace

namespace {

// Where the chart lies on screen and how values map to it.
struct Chart {
    ImDrawList* draw = nullptr;
    ImVec2 origin;
    float x0 = 0, width = 0, top = 0, bottom = 0, height = 0;
    Axis left, right;
    size_t points = 1;  // buckets across the width
    float X(size_t bucket) const {
        return x0 + (points == 1
                         ? width / 2
                         : width * static_cast<float>(bucket) / static_cast<float>(points - 1));
    }
    float YLeft(TimeNs ns) const {
        return bottom - (bottom - top) * static_cast<float>(static_cast<double>(ns) / left.max);
    }
    float YRight(TimeNs ns) const {
        return bottom - (bottom - top) * static_cast<float>(static_cast<double>(ns) / right.max);
    }
};

constexpr float kLeftAxisPx = 70, kRightAxisPx = 70;

void DrawAxes(const Chart& chart) {
    for (double v = 0; v <= chart.left.max * 1.0001; v += chart.left.tick) {
        const float y = chart.YLeft(static_cast<TimeNs>(v));
        chart.draw->AddLine(ImVec2(chart.x0, y), ImVec2(chart.x0 + chart.width, y),
                            IM_COL32(255, 255, 255, 22));
        const std::string text = Ms(static_cast<TimeNs>(v));
        chart.draw->AddText(ImVec2(chart.x0 - 6 - ImGui::CalcTextSize(text.c_str()).x, y - 7),
                            PackColor(kMedianColor), text.c_str());
    }
    for (double v = 0; v <= chart.right.max * 1.0001; v += chart.right.tick) {
        const std::string text = Ms(static_cast<TimeNs>(v));
        chart.draw->AddText(
            ImVec2(chart.x0 + chart.width + 6, chart.YRight(static_cast<TimeNs>(v)) - 7),
            PackColor(kCommColor), text.c_str());
    }
    chart.draw->AddText(ImVec2(chart.origin.x + 4, chart.origin.y + 2), PackColor(kMedianColor),
                        "step time");
    const char* rightCaption = "comm., wait";
    chart.draw->AddText(
        ImVec2(chart.x0 + chart.width + kRightAxisPx - 4 - ImGui::CalcTextSize(rightCaption).x,
               chart.origin.y + 2),
        PackColor(kCommColor), rightCaption);
}

// The band between the fastest and the slowest rank, and each bucket's spread as a bar too, so
// that one step alone still shows it.
void DrawSpread(const Chart& chart, const std::vector<StepBucket>& buckets) {
    for (size_t b = 0; b + 1 < buckets.size(); ++b) {
        const ImVec2 quad[4] = {ImVec2(chart.X(b), chart.YLeft(buckets[b].maxNs)),
                                ImVec2(chart.X(b + 1), chart.YLeft(buckets[b + 1].maxNs)),
                                ImVec2(chart.X(b + 1), chart.YLeft(buckets[b + 1].minNs)),
                                ImVec2(chart.X(b), chart.YLeft(buckets[b].minNs))};
        chart.draw->AddConvexPolyFilled(quad, 4, PackColor(kBandColor));
    }
    for (size_t b = 0; b < buckets.size(); ++b)
        chart.draw->AddLine(ImVec2(chart.X(b), chart.YLeft(buckets[b].minNs)),
                            ImVec2(chart.X(b), chart.YLeft(buckets[b].maxNs)),
                            PackColor(Rgba{0.40f, 0.55f, 0.80f, 0.8f}), 3);
}

// Each rank's line and rings, only while every step has a point of its own.
void DrawRankLines(const Chart& chart, const ClusterDocument& document,
                   const std::vector<StepOverview>& steps) {
    const Cluster& cluster = document.cluster;
    for (size_t r = 0; r < cluster.ranks.size(); ++r) {
        if (!document.InGroup(cluster.ranks[r].Id())) continue;
        std::vector<ImVec2> line;
        for (size_t s = 0; s < steps.size(); ++s)
            if (steps[s].rankStepNs[r] >= 0)
                line.push_back(ImVec2(chart.X(s), chart.YLeft(steps[s].rankStepNs[r])));
        const bool selected = document.selection.rank == cluster.ranks[r].rankId;
        chart.draw->AddPolyline(
            line.data(), static_cast<int>(line.size()),
            selected ? IM_COL32(255, 255, 255, 255) : IM_COL32(140, 170, 230, 70), 0,
            selected ? 2.0f : 1.0f);
        for (const ImVec2& point : line)
            chart.draw->AddCircle(point, 3, IM_COL32(170, 195, 240, 140));
    }
}

void DrawSeries(const Chart& chart, const std::vector<StepBucket>& buckets) {
    std::vector<ImVec2> median, comm, wait;
    for (size_t b = 0; b < buckets.size(); ++b) {
        median.push_back(ImVec2(chart.X(b), chart.YLeft(buckets[b].medianNs)));
        comm.push_back(ImVec2(chart.X(b), chart.YRight(buckets[b].meanCommunicationNs)));
        wait.push_back(ImVec2(chart.X(b), chart.YRight(buckets[b].meanWaitNs)));
    }
    chart.draw->AddPolyline(median.data(), static_cast<int>(median.size()), PackColor(kMedianColor),
                            0, 2);
    chart.draw->AddPolyline(comm.data(), static_cast<int>(comm.size()), PackColor(kCommColor), 0,
                            2);
    chart.draw->AddPolyline(wait.data(), static_cast<int>(wait.size()), PackColor(kWaitColor), 0,
                            2);
    if (buckets.size() * 6 > static_cast<size_t>(chart.width)) return;  // dots would be a smear
    for (const ImVec2& p : median) chart.draw->AddCircleFilled(p, 3.5f, PackColor(kMedianColor));
    for (const ImVec2& p : comm) chart.draw->AddCircleFilled(p, 3, PackColor(kCommColor));
    for (const ImVec2& p : wait) chart.draw->AddCircleFilled(p, 3, PackColor(kWaitColor));
}

// Step labels along the bottom, as dense as they fit (a bucket is labelled by its first step).
void DrawStepLabels(const Chart& chart, const std::vector<StepOverview>& steps,
                    const std::vector<StepBucket>& buckets) {
    const float labelWidth = ImGui::CalcTextSize(steps.back().step.c_str()).x + 12;
    const size_t every = std::max<size_t>(
        1, static_cast<size_t>(std::ceil(
               labelWidth / std::max(1.0f, chart.width / static_cast<float>(buckets.size())))));
    for (size_t b = 0; b < buckets.size(); b += every) {
        const char* label = steps[buckets[b].first].step.c_str();
        const float w = ImGui::CalcTextSize(label).x;
        chart.draw->AddText(ImVec2(chart.X(b) - w / 2, chart.bottom + 4),
                            IM_COL32(160, 165, 175, 255), label);
    }
}

}  // namespace

void TimeOverviewView::Draw(ViewContext& context) {
    ClusterDocument& document = *context.cluster;
    const std::vector<StepOverview>& steps = document.report.timeOverview;
    DrawStepAndGroupPickers(document);
    if (steps.empty()) {
        DrawNoClusterData(document, kStepTraceFile, "The time overview");
        return;
    }
    TimeNs largestStep = 1, largestComm = 1;
    for (const StepOverview& step : steps)
        largestStep = std::max(largestStep, step.maxNs),
        largestComm = std::max(largestComm, step.meanCommunicationNs);
    Chart chart;
    chart.draw = ImGui::GetWindowDrawList();
    chart.origin = ImGui::GetCursorScreenPos();
    chart.left = AxisFor(static_cast<double>(largestStep));
    chart.right = AxisFor(static_cast<double>(largestComm));
    chart.width = ImGui::GetContentRegionAvail().x - kLeftAxisPx - kRightAxisPx;
    chart.height = std::max(220.0f, ImGui::GetContentRegionAvail().y - 70);
    chart.top = chart.origin.y + 26, chart.bottom = chart.origin.y + chart.height - 24;
    chart.x0 = chart.origin.x + kLeftAxisPx;
    // At most one point per 2 pixels: 200,000 steps draw as fast as 200.
    const std::vector<StepBucket> buckets =
        BucketSteps(steps, std::max<size_t>(1, static_cast<size_t>(chart.width / 2)));
    const bool folded = buckets.size() < steps.size();
    chart.points = buckets.size();
    DrawAxes(chart);
    DrawSpread(chart, buckets);
    const bool rankLines = !folded && document.cluster.ranks.size() <= kMostRankLines;
    if (rankLines) DrawRankLines(chart, document, steps);
    DrawSeries(chart, buckets);
    DrawStepLabels(chart, steps, buckets);
    if (const std::optional<StepIndex> chosen = document.selection.step) {
        const float x = chart.X(BucketOfStep(buckets, static_cast<size_t>(chosen->value())));
        chart.draw->AddLine(ImVec2(x, chart.top), ImVec2(x, chart.bottom),
                            IM_COL32(255, 255, 255, 160), 1.5f);
    }
    ImGui::SetCursorScreenPos(ImVec2(chart.x0, chart.top));
    ImGui::InvisibleButton("steps", ImVec2(chart.width, chart.bottom - chart.top));
    if (ImGui::IsItemHovered()) {
        // The bucket under the mouse, then its step nearest to it: O(1) whatever the step count.
        const float along = (ImGui::GetIO().MousePos.x - chart.x0) / std::max(1.0f, chart.width);
        const size_t nearest = chart.points == 1
                                   ? 0
                                   : static_cast<size_t>(std::clamp(
                                         std::lround(along * static_cast<float>(chart.points - 1)),
                                         0L, static_cast<long>(chart.points - 1)));
        const StepBucket& bucket = buckets[nearest];
        chart.draw->AddLine(ImVec2(chart.X(nearest), chart.top),
                            ImVec2(chart.X(nearest), chart.bottom), IM_COL32(255, 255, 255, 60));
        DrawStepTooltip(document, steps[bucket.first]);
        if (ImGui::IsItemClicked(ImGuiMouseButton_Left))
            document.selection.step = StepIndex(static_cast<int>(bucket.first));
    }
    ImGui::SetCursorScreenPos(ImVec2(chart.origin.x, chart.origin.y + chart.height));
    DrawLegend({{"Step time: fastest to slowest rank", 0, Rgba{0.40f, 0.55f, 0.80f, 0.6f}},
                {"Median step time", 0, kMedianColor},
                {"Communication (right axis)", 0, kCommColor},
                {"Waiting (right axis)", 0, kWaitColor}});
    if (folded) {
        ImGui::SameLine(0, 20);
        ImGui::TextDisabled(
            "%zu steps in %zu points: each the range, median and averages of %zu+ steps",
            steps.size(), buckets.size(), steps.size() / buckets.size());
    } else if (rankLines) {
        ImGui::SameLine(0, 20);
        ImGui::TextDisabled("faint lines and rings: each rank; white: the selected rank");
    }
}

}  // namespace marey
