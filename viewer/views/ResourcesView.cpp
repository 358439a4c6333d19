#include "views/ResourcesView.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "core/TextFormat.hpp"
#include "load/MemoryCsv.hpp"
#include "rank/RankFlops.hpp"
#include "timeline/ElideText.hpp"
#include "viewkit/TableHeaders.hpp"
#include "viewkit/ViewCommon.hpp"
#include "viewkit/ViewContext.hpp"
#include "workspace/Document.hpp"

namespace marey {
namespace {

const ImVec4 kNotice(1.0f, 0.78f, 0.35f, 1.0f);

// "329.6 GFLOPs" from MFLOPs.
std::string Gflops(double mflops) {
    char text[48];
    std::snprintf(text, sizeof text, "%.1f GFLOPs", mflops / 1e3);
    return text;
}

// A bar of 'share' (0 to 1) in the current cell, as wide as the cell.
void ShareBar(double share) {
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const float width = ImGui::GetContentRegionAvail().x;
    const float height = ImGui::GetTextLineHeight() * 0.7f;
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const float top = at.y + ImGui::GetTextLineHeight() * 0.15f;
    draw->AddRectFilled(ImVec2(at.x, top), ImVec2(at.x + width, top + height),
                        IM_COL32(150, 90, 210, 50));
    draw->AddRectFilled(
        ImVec2(at.x, top),
        ImVec2(at.x + width * static_cast<float>(std::clamp(share, 0.0, 1.0)), top + height),
        IM_COL32(150, 90, 210, 255));
    ImGui::Dummy(ImVec2(width, ImGui::GetTextLineHeight()));
}

void DrawPeakMemory(const RankAnalysis& analysis) {
    SectionTitle("Peak memory (memory_record.csv)");
    const MemorySeries* allocated =
        analysis.memoryRecord ? ChooseAllocatedSeries(*analysis.memoryRecord) : nullptr;
    if (!allocated) {
        ImGui::TextDisabled(
            "No allocated memory recorded: the Ascend profiler writes memory_record.csv with "
            "profile_memory=True.");
        return;
    }
    ImGui::Text(
        "%.1f MB allocated at most (%s %s), %s into the record.", allocated->peakMb,
        allocated->component.c_str(), allocated->metric.c_str(),
        FormatDuration(allocated->peakNs -
                       (allocated->timeNs.empty() ? allocated->peakNs : allocated->timeNs.front()))
            .c_str());
}

}  // namespace

void ResourcesView::Draw(ViewContext& context) {
    Draw(context.document->analysis());
}

void ResourcesView::Draw(const RankAnalysis& analysis) {
    DrawPeakMemory(analysis);
    const RankFlops* flops = analysis.flops.get();
    if (!flops) {
        SectionTitle("FLOPs");
        ImGui::PushTextWrapPos(0);
        ImGui::TextColored(kNotice,
                           "No FLOPs files: MindSpore's profiler writes flops_summary_N.json, "
                           "flops_N.txt and flops_scope_N.json on Ascend (its FLOPs analysis of "
                           "the AI Core operators).");
        ImGui::PopTextWrapPos();
        return;
    }
    DrawSummary(*flops);
    DrawOperators(*flops);
    DrawScopes(*flops);
    if (!flops->problems.empty()) {
        SectionTitle("Problems in these files");
        for (size_t i = 0; i < flops->problems.size() && i < 20; ++i)
            ImGui::TextColored(kNotice, "%s", flops->problems[i].c_str());
    }
}

void ResourcesView::DrawSummary(const RankFlops& flops) {
    SectionTitle(
        ("FLOPs (" + (flops.Known() ? flops.summarySource : std::string("no summary")) + ")")
            .c_str());
    if (!flops.Known()) {
        ImGui::TextDisabled("Neither flops_summary_N.json nor a readable flops_N.txt.");
        return;
    }
    const FlopsSummary& s = flops.summary;
    std::string line;
    if (s.mflops >= 0) line += Gflops(s.mflops) + " in the AI Core operators";
    char part[96];
    if (s.gflopsPerS >= 0) {
        std::snprintf(part, sizeof part, "%s%.1f GFLOPS per operator on average",
                      line.empty() ? "" : ", ", s.gflopsPerS);
        line += part;
    }
    if (s.utilizationPercent >= 0) {
        std::snprintf(part, sizeof part, "%s%.2f %% of the device's peak on average",
                      line.empty() ? "" : ", ", s.utilizationPercent);
        line += part;
    }
    ImGui::TextUnformatted(line.c_str());
}

void ResourcesView::DrawOperators(const RankFlops& flops) {
    SectionTitle(("Operators by FLOPs (" + std::to_string(flops.operators.size()) + ")").c_str());
    if (flops.operators.empty()) {
        ImGui::TextDisabled("No flops_N.txt: the operators' FLOPs are not recorded.");
        return;
    }
    double total = 0;
    for (const OperatorFlops& op : flops.operators) total += op.mflops;
    const ImGuiTableFlags tableFlags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV |
                                       ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingFixedFit;
    const float rows = static_cast<float>(std::min<size_t>(flops.operators.size(), 12) + 1);
    if (!ImGui::BeginTable("operators by flops", 5, tableFlags,
                           ImVec2(0, rows * ImGui::GetTextLineHeightWithSpacing() + 8)))
        return;
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("Operator", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableSetupColumn("GFLOPs", 0, 100);
    ImGui::TableSetupColumn("Share", 0, 120);
    ImGui::TableSetupColumn("GFLOPS", 0, 90);
    ImGui::TableSetupColumn("Utilisation", 0, 90);
    HeadersRowAligned(0b11010);
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(flops.operators.size()));
    std::string scratch;
    while (clipper.Step())
        for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
            const OperatorFlops& op = flops.operators[static_cast<size_t>(i)];
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            // The end of a scope name tells operators apart: cut in the middle.
            const std::string_view name =
                ElideToWidth(op.name, ImGui::GetContentRegionAvail().x, scratch);
            ImGui::TextUnformatted(name.data(), name.data() + name.size());
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", op.name.c_str());
            char cell[48];
            ImGui::TableNextColumn();
            std::snprintf(cell, sizeof cell, "%.3f", op.mflops / 1e3);
            RightAligned(cell);
            ImGui::TableNextColumn();
            ShareBar(total > 0 ? op.mflops / total : 0);
            ImGui::TableNextColumn();
            std::snprintf(cell, sizeof cell, "%.1f", op.gflopsPerS);
            RightAligned(cell);
            ImGui::TableNextColumn();
            std::snprintf(cell, sizeof cell, "%.2f %%", op.utilizationPercent);
            RightAligned(cell);
        }
    ImGui::EndTable();
}

void ResourcesView::DrawScopes(const RankFlops& flops) {
    SectionTitle("FLOPs by scope (flops_scope_N.json; the share of each scope's parent)");
    const FlopsScopeTree& tree = flops.scopes;
    if (tree.nodes.empty()) {
        ImGui::TextDisabled("No flops_scope_N.json, or no scope under Total in it.");
        return;
    }
    // Depth first from Total; the first two levels open, and a scope that is its parent's only
    // child (the chain from Default down to the network's layers).
    const auto drawNode = [&](const auto& self, int index, int depth) -> void {
        const FlopsScopeNode& node = tree.nodes[static_cast<size_t>(index)];
        const double parent =
            node.parent >= 0 ? tree.nodes[static_cast<size_t>(node.parent)].mflops : node.mflops;
        char label[512];
        std::snprintf(label, sizeof label, "%s  %s  (%s)###scope%d", node.name.c_str(),
                      Gflops(node.mflops).c_str(),
                      FormatPercent(parent > 0 ? node.mflops / parent : 0).c_str(), index);
        ImGuiTreeNodeFlags nodeFlags = ImGuiTreeNodeFlags_SpanAvailWidth;
        const bool onlyChild =
            node.parent >= 0 && tree.nodes[static_cast<size_t>(node.parent)].children.size() == 1;
        // A chain of single children opens only so far: a damaged file's chain may be a
        // hundred thousand deep, and each open level is a call.
        if (depth < 2 || (onlyChild && depth < 12)) nodeFlags |= ImGuiTreeNodeFlags_DefaultOpen;
        if (node.children.empty()) nodeFlags |= ImGuiTreeNodeFlags_Leaf;
        if (!ImGui::TreeNodeEx(label, nodeFlags)) return;
        for (const int child : node.children) self(self, child, depth + 1);
        ImGui::TreePop();
    };
    drawNode(drawNode, 0, 0);
}

}  // namespace marey
