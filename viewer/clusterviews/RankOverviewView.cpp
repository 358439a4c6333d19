// The per-rank overview across a communication group: each rank's time as shares of computing,
// communication (overlapped or not) and free, side by side, with the findings of the tuning
// method's rules above them.
#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "clusterviews/ClusterCommon.hpp"
#include "viewkit/ViewCommon.hpp"
#include "clusterviews/RankOverviewView.hpp"
#include "viewkit/ViewContext.hpp"

namespace marey {
namespace {

std::vector<BarSegment> Shares(const OverviewFigures& f) {
    return {{"Pure computing", f.Share(f.pureComputingNs), ComputingColor()},
            {"Communication, overlapped", f.Share(f.commOverlappedNs), OverlappedColor()},
            {"Communication, not overlapped", f.Share(f.commNotOverlappedNs), NotOverlappedColor()},
            {"Free", f.Share(f.freeNs), FreeColor()}};
}

ImVec4 FindingColor(ClusterFindingKind kind) {
    switch (kind) {
        case ClusterFindingKind::kCompute:
            return ImVec4(0.45f, 0.75f, 1, 1);
        case ClusterFindingKind::kScheduling:
        case ClusterFindingKind::kInput:
            return ImVec4(0.85f, 0.85f, 0.5f, 1);
        case ClusterFindingKind::kRanksDiffer:
        case ClusterFindingKind::kStepDominates:
        case ClusterFindingKind::kFlopsUnbalanced:
        case ClusterFindingKind::kMemoryPeak:
            return ImVec4(1, 0.8f, 0.35f, 1);
        default:
            return ImVec4(1, 0.65f, 0.35f, 1);
    }
}

void DrawFindings(ClusterDocument& document, const std::vector<ClusterFinding>& findings) {
    SectionTitle("Findings");
    if (findings.empty()) {
        ImGui::TextColored(ImVec4(0.55f, 0.85f, 0.55f, 1),
                           "Healthy: no spread of computing or free share over %.0f points, "
                           "communication not overlapped under %.0f %%.",
                           kShareSpreadPoints * 100, kCommunicationShare * 100);
        return;
    }
    for (size_t i = 0; i < findings.size(); ++i) {
        const ClusterFinding& finding = findings[i];
        const ImVec4 color = FindingColor(finding.kind);
        ImGui::PushID(static_cast<int>(i));
        ImGui::Bullet();
        ImGui::PushTextWrapPos(ImGui::GetContentRegionAvail().x - 10);
        ImGui::TextColored(color, "%s", finding.text.c_str());
        ImGui::PopTextWrapPos();
        if (!finding.ranks.empty() && ImGui::IsItemClicked())
            SelectRank(document, RankId(finding.ranks.front()));
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("click: select rank %d", finding.ranks.front());
        ImGui::PopID();
    }
}

// One column per rank of the group, its shares stacked to 100 %.
void DrawShareChart(ClusterDocument& document, ClusterRequest& request) {
    std::vector<const ClusterRank*> ranks;
    for (const ClusterRank& rank : document.cluster.ranks)
        if (document.InGroup(rank.Id()) && rank.overview.valid) ranks.push_back(&rank);
    if (ranks.empty()) {
        DrawNoClusterData(document, kStepTraceFile, "The overview across ranks");
        return;
    }
    const float axis = 44, height = std::max(180.0f, ImGui::GetContentRegionAvail().y - 60);
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const float width = ImGui::GetContentRegionAvail().x - axis - 8;
    const float plotTop = origin.y + 4, plotBottom = origin.y + height - 22;
    ImDrawList* draw = ImGui::GetWindowDrawList();
    for (int percent = 0; percent <= 100; percent += 25) {
        const float y = plotBottom - (plotBottom - plotTop) * static_cast<float>(percent) / 100;
        draw->AddLine(ImVec2(origin.x + axis, y), ImVec2(origin.x + axis + width, y),
                      IM_COL32(255, 255, 255, 25));
        const std::string label = std::to_string(percent) + " %";
        draw->AddText(ImVec2(origin.x + axis - 6 - ImGui::CalcTextSize(label.c_str()).x, y - 7),
                      IM_COL32(160, 165, 175, 255), label.c_str());
    }
    const float slot = width / static_cast<float>(ranks.size());
    const float barWidth = std::max(1.0f, slot * (slot > 6 ? 0.8f : 1.0f));
    const float labelEvery = std::max(1.0f, std::ceil(36 / slot));
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    int hovered = -1;
    for (size_t i = 0; i < ranks.size(); ++i) {
        const float x = origin.x + axis + slot * static_cast<float>(i);
        float y = plotBottom;
        for (const BarSegment& segment : Shares(ranks[i]->overview)) {
            const float h = (plotBottom - plotTop) * static_cast<float>(segment.value);
            draw->AddRectFilled(ImVec2(x, y - h), ImVec2(x + barWidth, y),
                                PackColor(segment.color));
            y -= h;
        }
        if (document.selection.rank == ranks[i]->rankId)
            draw->AddRect(ImVec2(x - 1, plotTop - 1), ImVec2(x + barWidth + 1, plotBottom + 1),
                          IM_COL32(255, 255, 255, 255), 0, 0, 2);
        if (static_cast<float>(i) - labelEvery * std::floor(static_cast<float>(i) / labelEvery) <
            0.5f) {
            const std::string label = ToString(ranks[i]->Id());
            draw->AddText(
                ImVec2(x + barWidth / 2 - ImGui::CalcTextSize(label.c_str()).x / 2, plotBottom + 4),
                IM_COL32(160, 165, 175, 255), label.c_str());
        }
        if (mouse.x >= x && mouse.x < x + slot && mouse.y >= plotTop && mouse.y <= plotBottom)
            hovered = static_cast<int>(i);
    }
    ImGui::InvisibleButton("shares", ImVec2(axis + width, height));
    if (hovered >= 0 && ImGui::IsItemHovered()) {
        const ClusterRank& rank = *ranks[hovered];
        ImGui::BeginTooltip();
        ImGui::Text("rank %d (%s)", rank.Id().value(), rank.overview.source.c_str());
        for (const BarSegment& segment : Shares(rank.overview))
            ImGui::Text("%-30s %s", segment.label, Percent(segment.value).c_str());
        // Ranks of summaries or MindInsight files have no trace to open: only selection then.
        ImGui::TextDisabled(document.CanOpenRanks() ? "click: select · right-click: open or compare"
                                                    : "click: select");
        ImGui::EndTooltip();
        if (ImGui::IsItemClicked(ImGuiMouseButton_Left)) SelectRank(document, rank.Id());
        RankRightClick(document, rank.Id());
    }
    DrawRankMenu(document, request);
    DrawLegend(Shares(ranks.front()->overview));
}

}  // namespace

void RankOverviewView::Draw(ViewContext& context) {
    ClusterDocument& document = *context.cluster;
    DrawStepAndGroupPickers(document, false);
    const ClusterGroup* group = document.ChosenGroup();
    const std::string groupName = !group ? "all ranks" : "group " + group->name;
    // A group's findings are computed once per group chosen, not every frame.
    const std::optional<GroupIndex> chosen = document.selection.group;
    if (chosen && (!m_findingsFor || *m_findingsFor != *chosen)) {
        m_groupFindings = FindGroupProblems(document.cluster, document.report.averagedSteps,
                                            document.GroupRanks(), groupName);
        m_findingsFor = chosen;
    }
    DrawFindings(document, !group ? document.report.findings : m_groupFindings);
    ImGui::Spacing();
    SectionTitle("Time of each rank, as shares (over every step the rank has)");
    DrawSelectedRankActions(document, context.clusterRequest);
    DrawShareChart(document, context.clusterRequest);
}

}  // namespace marey
