// The data-processing half of the data-preparation view: the dataset pipeline drawn left to
// right, its bottlenecks, and the size over time of the queue a person clicked.
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <map>

#include "rank/DataPreparation.hpp"
#include "views/DataPreparationView.hpp"
#include "timeline/ElideText.hpp"
#include "views/DataPreparationDraw.hpp"
#include "viewkit/ViewCommon.hpp"

namespace marey {
namespace {

constexpr ImU32 kBoxFill = IM_COL32(44, 50, 62, 255);
constexpr ImU32 kBoxOutline = IM_COL32(96, 104, 122, 255);
constexpr ImU32 kEdge = IM_COL32(120, 128, 145, 255);
constexpr ImU32 kText = IM_COL32(225, 230, 238, 255);
constexpr float kMinBoxWidth = 150, kBoxHeight = 44, kRowGap = 18;
constexpr float kQueueWidth = 44, kQueueHeight = 16;
constexpr size_t kMaxDrawnOperators = 200;

// The same ramp as the step chart's legend: empty queues dark, full ones amber.
ImU32 UsageColor(double usage) {
    const float t = static_cast<float>(std::clamp(usage, 0.0, 1.0));
    const auto mix = [t](float a, float b) { return static_cast<int>(a + (b - a) * t); };
    return IM_COL32(mix(58, 250), mix(68, 196), mix(92, 60), 255);
}

// The usage ramp, labelled, at the cursor.
void DrawUsageLegend() {
    ImDrawList* draw = ImGui::GetWindowDrawList();
    ImGui::TextUnformatted("queue usage  0 %");
    ImGui::SameLine();
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const float width = 120, height = ImGui::GetTextLineHeight() * 0.8f;
    for (int i = 0; i < 24; ++i)
        draw->AddRectFilled(ImVec2(at.x + width * i / 24, at.y + 2),
                            ImVec2(at.x + width * (i + 1) / 24, at.y + 2 + height),
                            UsageColor(i / 23.0));
    ImGui::Dummy(ImVec2(width, ImGui::GetTextLineHeight()));
    ImGui::SameLine();
    ImGui::TextUnformatted("100 %");
    ImGui::SameLine(0, 24);
    const ImVec2 mark = ImGui::GetCursorScreenPos();
    draw->AddRect(ImVec2(mark.x, mark.y + 2), ImVec2(mark.x + 18, mark.y + 2 + height),
                  PackColor(kDataWarning), 2, 0, 2);
    ImGui::Dummy(ImVec2(22, ImGui::GetTextLineHeight()));
    ImGui::SameLine();
    ImGui::TextUnformatted("bottleneck by the queue rules");
}

std::string UsageText(const PipelineOperator& op) {
    if (!op.hasQueue) return "not recorded";
    char text[32];
    std::snprintf(text, sizeof text, "%.1f %%", op.queueUsage * 100);
    return text;
}

}  // namespace

void DataPreparationView::DrawPipeline(const DataPipeline& pipeline) {
    const std::vector<PipelineOperator>& ops = pipeline.operators;
    // A dataset pipeline holds a handful of operators; past this many no drawing is readable
    // (and a damaged file may hold any number).
    if (ops.size() > kMaxDrawnOperators) {
        ImGui::TextDisabled("%zu operators: too many to draw; the bottlenecks are listed below.",
                            ops.size());
        return;
    }
    DrawUsageLegend();
    int columns = 1;
    for (const int column : pipeline.column) columns = std::max(columns, column + 1);
    // Rows inside each column, in the file's order.
    std::vector<int> row(ops.size());
    std::map<int, int> used;
    int rows = 1;
    for (size_t i = 0; i < ops.size(); ++i) {
        row[i] = used[pipeline.column[i]]++;
        rows = std::max(rows, row[i] + 1);
    }
    // Each box's two lines, and a width that fits the widest where the columns leave room.
    std::vector<std::string> titles, workers;
    float widest = 0;
    for (const PipelineOperator& op : ops) {
        titles.push_back(op.type + " (op " + std::to_string(op.id) + ")");
        std::string line = !op.workers        ? std::string("workers not recorded")
                           : *op.workers == 1 ? std::string("1 worker")
                                              : std::to_string(*op.workers) + " workers";
        if (op.cpuPercent >= 0) {
            char cpu[32];
            std::snprintf(cpu, sizeof cpu, ", CPU %.0f %%", op.cpuPercent);
            line += cpu;
        }
        workers.push_back(std::move(line));
        for (const std::string* text : {&titles.back(), &workers.back()})
            widest = std::max(widest, ImGui::CalcTextSize(text->c_str()).x);
    }
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const float width = std::max(ImGui::GetContentRegionAvail().x - 8, 400.0f);
    const float boxWidth = std::max(
        kMinBoxWidth, std::min(widest + 18, width / static_cast<float>(columns + 1) * 0.7f));
    // One more column for the device at the right end.
    const float step = (width - boxWidth) / static_cast<float>(columns);
    const float height = rows * (kBoxHeight + kRowGap) + 8;
    const auto boxAt = [&](size_t i) {
        return ImVec2(origin.x + step * static_cast<float>(pipeline.column[i]),
                      origin.y + 4 + row[i] * (kBoxHeight + kRowGap));
    };
    std::map<int, size_t> index;
    for (size_t i = 0; i < ops.size(); ++i) index[ops[i].id] = i;
    std::vector<char> bottleneck(ops.size(), 0);
    for (const DataBottleneck& b : pipeline.bottlenecks) bottleneck[index.at(b.opId)] = 1;
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImVec2 device(origin.x + step * static_cast<float>(columns), origin.y + 4);
    size_t hoveredQueue = SIZE_MAX;
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    // Each operator's output queue sits on the edge to its parent (the root's, to the device).
    for (size_t i = 0; i < ops.size(); ++i) {
        const ImVec2 from = boxAt(i);
        const ImVec2 start(from.x + boxWidth, from.y + kBoxHeight / 2);
        ImVec2 end(device.x, device.y + kBoxHeight / 2);
        if (ops[i].parent >= 0) {
            const ImVec2 to = boxAt(index.at(ops[i].parent));
            end = ImVec2(to.x, to.y + kBoxHeight / 2);
        }
        draw->AddLine(start, end, kEdge, 1.5f);
        const ImVec2 mid((start.x + end.x) / 2, (start.y + end.y) / 2);
        const ImVec2 q0(mid.x - kQueueWidth / 2, mid.y - kQueueHeight / 2);
        const ImVec2 q1(mid.x + kQueueWidth / 2, mid.y + kQueueHeight / 2);
        draw->AddRectFilled(
            q0, q1, ops[i].hasQueue ? UsageColor(ops[i].queueUsage) : IM_COL32(40, 43, 50, 255), 3);
        const bool hovered = mouse.x >= q0.x && mouse.x < q1.x && mouse.y >= q0.y && mouse.y < q1.y;
        draw->AddRect(q0, q1,
                      i == m_selected || hovered ? IM_COL32(255, 255, 255, 230) : kBoxOutline, 3, 0,
                      i == m_selected ? 2.0f : 1.0f);
        if (hovered) hoveredQueue = i;
    }
    for (size_t i = 0; i < ops.size(); ++i) {
        const ImVec2 at = boxAt(i);
        const ImVec2 end(at.x + boxWidth, at.y + kBoxHeight);
        draw->AddRectFilled(at, end, kBoxFill, 4);
        draw->AddRect(at, end, bottleneck[i] ? PackColor(kDataWarning) : kBoxOutline, 4, 0,
                      bottleneck[i] ? 2.5f : 1.0f);
        // Cut to the box when the columns leave no room; the tooltip has all.
        std::string scratch;
        const std::string_view title = ElideToWidth(titles[i], boxWidth - 14, scratch);
        draw->AddText(ImVec2(at.x + 8, at.y + 5), kText, title.data(), title.data() + title.size());
        const std::string_view line = ElideToWidth(workers[i], boxWidth - 14, scratch);
        draw->AddText(ImVec2(at.x + 8, at.y + 23), kDataAxisText, line.data(),
                      line.data() + line.size());
        if (ImGui::IsWindowHovered() && ImGui::IsMouseHoveringRect(at, end) &&
            hoveredQueue == SIZE_MAX)
            ImGui::SetTooltip("%s\n%s", titles[i].c_str(), workers[i].c_str());
    }
    draw->AddRectFilled(device, ImVec2(device.x + boxWidth * 0.7f, device.y + kBoxHeight), kBoxFill,
                        4);
    draw->AddText(ImVec2(device.x + 8, device.y + 13), kText, "to the device");
    ImGui::SetCursorScreenPos(origin);
    ImGui::InvisibleButton("##pipeline", ImVec2(width, height));
    if (hoveredQueue != SIZE_MAX) {
        const PipelineOperator& op = ops[hoveredQueue];
        ImGui::SetTooltip(
            "output queue of %s (op %d): %s used on average of %d\nclick: its size "
            "over time",
            op.type.c_str(), op.id, UsageText(op).c_str(), op.queueCapacity);
        if (ImGui::IsItemClicked()) m_selected = hoveredQueue;
    }
}

void DataPreparationView::DrawBottlenecks(const DataPipeline& pipeline) {
    if (pipeline.bottlenecks.empty()) {
        ImGui::TextDisabled(
            "No operator is a bottleneck by the queue rules (a full input queue "
            "is at least 80 %% used, a nearly empty output queue under 20 %%).");
        return;
    }
    const ImGuiTableFlags flags =
        ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit;
    if (!ImGui::BeginTable("bottlenecks", 3, flags)) return;
    ImGui::TableSetupColumn("Bottleneck", 0, 170);
    ImGui::TableSetupColumn("Why (the queue rules)", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableSetupColumn("Suggestion", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableHeadersRow();
    for (const DataBottleneck& bottleneck : pipeline.bottlenecks) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::Text("%s (op %d)", bottleneck.opType.c_str(), bottleneck.opId);
        ImGui::TableNextColumn();
        ImGui::TextWrapped("%s", bottleneck.rule.c_str());
        ImGui::TableNextColumn();
        ImGui::TextWrapped("%s", bottleneck.suggestion.c_str());
    }
    ImGui::EndTable();
}

void DataPreparationView::DrawSelectedQueue(const DataPipeline& pipeline) {
    if (m_selected >= pipeline.operators.size()) {
        ImGui::TextDisabled("Click a queue in the pipeline to see its size over time.");
        return;
    }
    const PipelineOperator& op = pipeline.operators[m_selected];
    std::string parent = "the device";
    for (const PipelineOperator& other : pipeline.operators)
        if (other.id == op.parent) parent = other.type + " (op " + std::to_string(other.id) + ")";
    const std::string workers =
        op.workers ? std::to_string(*op.workers) + " workers" : "workers not recorded";
    ImGui::Text("Queue from %s (op %d, %s) to %s: %s used on average", op.type.c_str(), op.id,
                workers.c_str(), parent.c_str(), UsageText(op).c_str());
    if (op.queueSizes.empty()) {
        ImGui::TextDisabled("Its sizes were not sampled.");
        return;
    }
    const int capacity = std::max(op.queueCapacity, 1);
    std::vector<float> sizes(op.queueSizes.begin(), op.queueSizes.end());
    const std::string overlay = "capacity " + std::to_string(op.queueCapacity) +
                                ", a sample every " + std::to_string(op.sampleIntervalMs) + " ms";
    ImGui::PlotLines("##queue", sizes.data(), static_cast<int>(sizes.size()), 0, overlay.c_str(), 0,
                     static_cast<float>(capacity), ImVec2(ImGui::GetContentRegionAvail().x, 120));
}

}  // namespace marey
