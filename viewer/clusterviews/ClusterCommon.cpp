#include "clusterviews/ClusterCommon.hpp"

#include "cluster/ParallelCommunication.hpp"
#include "core/TextFormat.hpp"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "loading/RanksTimeline.hpp"
#include "viewkit/ViewCommon.hpp"
#include "core/TextFormat.hpp"

namespace marey {

void DrawStepAndGroupPickers(ClusterDocument& document, bool withStep) {
    const Cluster& cluster = document.cluster;
    ClusterSelection& selection = document.selection;
    if (withStep) {
        ImGui::AlignTextToFramePadding();
        ImGui::TextUnformatted("Step");
        ImGui::SameLine();
        ImGui::SetNextItemWidth(190);
        const size_t steps = cluster.steps.size();
        const std::string current =
            selection.step ? "step " + cluster.steps[static_cast<size_t>(selection.step->value())]
            : steps == 0   ? "no profiler steps"
            : steps == 1   ? "the only step"
                           : "average of " + std::to_string(steps) + " steps";
        if (ImGui::BeginCombo("##step", current.c_str())) {
            if (ImGui::Selectable("average over steps", !selection.step)) selection.step.reset();
            for (size_t i = 0; i < cluster.steps.size(); ++i)
                if (ImGui::Selectable(cluster.steps[i].c_str(),
                                      Holds(selection.step, static_cast<int>(i))))
                    selection.step = StepIndex(static_cast<int>(i));
            ImGui::EndCombo();
        }
        ImGui::SameLine(0, 20);
    }
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("Group");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(300);
    auto groupLabel = [&](std::optional<GroupIndex> index) {
        if (!index)
            return cluster.ranks.size() == 1
                       ? std::string("the only rank")
                       : "all " + std::to_string(cluster.ranks.size()) + " ranks";
        const ClusterGroup& group = cluster.groups[static_cast<size_t>(index->value())];
        std::string name = group.name.size() > 24 ? group.name.substr(0, 21) + "…" : group.name;
        // Which group of the parallel layout it is, where the layout knows ("TP · collective …").
        const std::string kind = ParallelKindLabel(LayoutKindHolding(cluster, group.ranks));
        const std::string prefix =
            kind.empty() || kind == "outside" || kind == "world" ? "" : kind + " · ";
        return prefix + group.kind + " " + name + " (" +
               CountText(group.ranks.size(), "rank", "ranks") + ")";
    };
    if (ImGui::BeginCombo("##group", groupLabel(selection.group).c_str())) {
        if (ImGui::Selectable(groupLabel(std::nullopt).c_str(), !selection.group))
            selection.group.reset();
        for (size_t i = 0; i < cluster.groups.size(); ++i) {
            ImGui::PushID(static_cast<int>(i));
            const GroupIndex index(static_cast<int>(i));
            if (ImGui::Selectable(groupLabel(index).c_str(), selection.group == index))
                selection.group = index;
            if (ImGui::IsItemHovered())
                ImGui::SetTooltip("ranks %s", FormatRankList(cluster.groups[i].ranks).c_str());
            ImGui::PopID();
        }
        ImGui::EndCombo();
    }
    // What is wrong with the folder is said where every cluster view starts, not only in stats.
    if (!cluster.problems.empty()) {
        ImGui::SameLine(0, 20);
        ImGui::AlignTextToFramePadding();
        const std::string& first = cluster.problems.front();
        ImGui::TextColored(ImVec4(1, 0.75f, 0.35f, 1), "%zu problem%s: %s%s",
                           cluster.problems.size(), cluster.problems.size() == 1 ? "" : "s",
                           first.size() > 90 ? (first.substr(0, 87) + "…").c_str() : first.c_str(),
                           cluster.problems.size() > 1 ? "  (hover for all)" : "");
        if (ImGui::IsItemHovered()) {
            ImGui::BeginTooltip();
            for (size_t i = 0; i < cluster.problems.size() && i < 30; ++i)
                ImGui::TextUnformatted(cluster.problems[i].c_str());
            if (cluster.problems.size() > 30)
                ImGui::TextDisabled("and %zu more: marey stats %s lists them",
                                    cluster.problems.size() - 30, cluster.root.c_str());
            ImGui::EndTooltip();
        }
    }
}

void SelectRank(ClusterDocument& cluster, RankId rankId) {
    if (cluster.selection.rank == rankId) return;
    cluster.selection.previousRank = cluster.selection.rank;
    cluster.selection.rank = rankId;
}

std::optional<RankId> MedianRank(const ClusterDocument& cluster) {
    if (const std::optional<RankId> median = MedianRankOf(cluster.report.averagedSteps))
        return median;
    if (cluster.cluster.ranks.empty()) return std::nullopt;
    return cluster.cluster.ranks.front().Id();
}

void RankRightClick(ClusterDocument& cluster, RankId rankId) {
    if (!ImGui::IsItemClicked(ImGuiMouseButton_Right)) return;
    SelectRank(cluster, rankId);
    cluster.selection.rankMenuAsked = true;
}

void DrawRankMenu(ClusterDocument& cluster, ClusterRequest& request) {
    if (cluster.selection.rankMenuAsked) ImGui::OpenPopup("rank menu");
    cluster.selection.rankMenuAsked = false;
    if (!cluster.selection.rank || !ImGui::BeginPopup("rank menu")) return;
    const RankId rankId = *cluster.selection.rank;
    ImGui::TextDisabled("rank %d", rankId.value());
    const bool can = cluster.CanOpenRanks();
    request.cluster = cluster.id;
    if (ImGui::MenuItem("Open timeline", "Enter", false, can))
        request.kind = ClusterRequest::kOpenRank, request.rankA = rankId, request.view = "timeline";
    if (ImGui::MenuItem("Open overview", nullptr, false, can))
        request.kind = ClusterRequest::kOpenRank, request.rankA = rankId, request.view = "overview";
    if (ImGui::MenuItem("Open operators", nullptr, false, can))
        request.kind = ClusterRequest::kOpenRank, request.rankA = rankId,
        request.view = "operators";
    const std::optional<RankId> previous = cluster.selection.previousRank;
    if (previous && previous != rankId) {
        const std::string label =
            "Compare with rank " + std::to_string(previous->value()) + " (selected before)";
        if (ImGui::MenuItem(label.c_str(), nullptr, false, can))
            request.kind = ClusterRequest::kCompareRanks, request.rankA = rankId,
            request.rankB = previous;
    }
    const std::optional<RankId> median = MedianRank(cluster);
    if (median && median != rankId) {
        const std::string label =
            "Compare with rank " + std::to_string(median->value()) + " (median step time)";
        if (ImGui::MenuItem(label.c_str(), nullptr, false, can))
            request.kind = ClusterRequest::kCompareRanks, request.rankA = rankId,
            request.rankB = median;
    }
    if (ImGui::MenuItem("Add to one timeline", "T", false, can)) AddToOneTimeline(cluster, rankId);
    if (!can)
        ImGui::TextDisabled("this cluster came from %s: no rank folders to open",
                            ClusterSourceName(cluster.cluster.source));
    ImGui::EndPopup();
}

void AddToOneTimeline(ClusterDocument& cluster, RankId rankId) {
    char* text = cluster.selection.oneTimelineRanks;
    auto listed = ParseRankList(text);
    if (listed.ok() && std::find(listed.value().begin(), listed.value().end(), rankId.value()) !=
                           listed.value().end())
        return;
    std::string more = text;
    more += (more.empty() ? "" : ",") + std::to_string(rankId.value());
    if (more.size() >= sizeof cluster.selection.oneTimelineRanks) return;
    std::snprintf(text, sizeof cluster.selection.oneTimelineRanks, "%s", more.c_str());
    cluster.selection.oneTimelineError.clear();
}

void DrawOneTimelinePicker(ClusterDocument& cluster, ClusterRequest& request) {
    ClusterSelection& views = cluster.selection;
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("Ranks in one timeline");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(150);
    const bool entered = ImGui::InputTextWithHint("##oneTimeline", "0-3,7", views.oneTimelineRanks,
                                                  sizeof views.oneTimelineRanks,
                                                  ImGuiInputTextFlags_EnterReturnsTrue);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "Rank ids and ranges, or T on a selected rank to add it. They open as one timeline, "
            "one\n"
            "foldable group per rank, lined up on the start of the step shown (or the first they "
            "share).");
    ImGui::SameLine();
    ImGui::BeginDisabled(!cluster.CanOpenRanks() || views.oneTimelineRanks[0] == 0);
    const bool open = ImGui::SmallButton("Open") || entered;
    ImGui::EndDisabled();
    if (views.oneTimelineRanks[0] != 0) {
        ImGui::SameLine();
        if (ImGui::SmallButton("Clear"))
            views.oneTimelineRanks[0] = 0, views.oneTimelineError.clear();
    }
    if (!views.oneTimelineError.empty()) {
        ImGui::SameLine();
        ImGui::TextColored(ImVec4(1, 0.5f, 0.4f, 1), "%s", views.oneTimelineError.c_str());
    }
    if (!open || !cluster.CanOpenRanks()) return;
    auto ranks = ParseRankList(views.oneTimelineRanks);
    if (!ranks.ok()) {
        views.oneTimelineError = ranks.message();
        return;
    }
    for (const int rank : ranks.value())
        if (!cluster.cluster.IndexOfRank(RankId(rank))) {
            views.oneTimelineError = "the cluster has no rank " + std::to_string(rank);
            return;
        }
    views.oneTimelineError.clear();
    request.cluster = cluster.id;
    request.kind = ClusterRequest::kOpenRanksInOneTimeline;
    request.ranks.clear();
    for (const int rank : ranks.value()) request.ranks.push_back(RankId(rank));
    const std::optional<StepIndex> step = cluster.selection.step;
    request.alignStep =
        step ? cluster.cluster.steps[static_cast<size_t>(step->value())] : std::string();
}

namespace {
void DrawActionsOfSelectedRank(ClusterDocument& cluster, ClusterRequest& request);
}  // namespace

void DrawSelectedRankActions(ClusterDocument& cluster, ClusterRequest& request) {
    DrawActionsOfSelectedRank(cluster, request);
    DrawOneTimelinePicker(cluster, request);
}

namespace {

// Buttons acting on the selected rank: open it, compare it, add it to one timeline.
void DrawActionsOfSelectedRank(ClusterDocument& cluster, ClusterRequest& request) {
    if (!cluster.selection.rank) {
        ImGui::TextDisabled(cluster.CanOpenRanks()
                                ? "Click a rank to select it; right-click for its timeline, "
                                  "overview, operators or a comparison."
                                : "Click a rank to select it.");
        return;
    }
    const RankId rank = *cluster.selection.rank;
    ImGui::AlignTextToFramePadding();
    ImGui::Text("Rank %d:", rank.value());
    ImGui::BeginDisabled(!cluster.CanOpenRanks());
    request.cluster = cluster.id;
    ImGui::SameLine();
    if (ImGui::SmallButton("Timeline (Enter)") ||
        (!ImGui::GetIO().WantTextInput && ImGui::IsKeyPressed(GLFW_KEY_ENTER, false) &&
         cluster.CanOpenRanks()))
        request.kind = ClusterRequest::kOpenRank, request.rankA = rank, request.view = "timeline";
    ImGui::SameLine();
    if (ImGui::SmallButton("Overview"))
        request.kind = ClusterRequest::kOpenRank, request.rankA = rank, request.view = "overview";
    ImGui::SameLine();
    if (ImGui::SmallButton("Operators"))
        request.kind = ClusterRequest::kOpenRank, request.rankA = rank, request.view = "operators";
    const std::optional<RankId> previous = cluster.selection.previousRank;
    const std::optional<RankId> other =
        previous && previous != rank ? previous : MedianRank(cluster);
    if (other && other != rank) {
        ImGui::SameLine();
        const std::string label = "Compare with rank " + std::to_string(other->value()) + " (C)";
        if (ImGui::SmallButton(label.c_str()) ||
            (!ImGui::GetIO().WantTextInput && ImGui::IsKeyPressed(GLFW_KEY_C, false) &&
             cluster.CanOpenRanks()))
            request.kind = ClusterRequest::kCompareRanks, request.rankA = rank,
            request.rankB = other;
    }
    ImGui::SameLine();
    if (ImGui::SmallButton("Add to one timeline (T)") ||
        (!ImGui::GetIO().WantTextInput && ImGui::IsKeyPressed(GLFW_KEY_T, false) &&
         cluster.CanOpenRanks()))
        AddToOneTimeline(cluster, rank);
    ImGui::EndDisabled();
    if (!cluster.CanOpenRanks()) {
        ImGui::SameLine();
        ImGui::TextDisabled("(from %s: no rank folders to open)",
                            ClusterSourceName(cluster.cluster.source));
    }
}

}  // namespace

double NiceTickStep(double range, int count) {
    if (range <= 0 || count <= 0) return 1;
    const double raw = range / count;
    const double power = std::pow(10.0, std::floor(std::log10(raw)));
    for (const double factor : {1.0, 2.0, 5.0, 10.0})
        if (power * factor >= raw) return power * factor;
    return power * 10;
}

Rgba StepColumnColor(int column) {
    switch (column) {
        case kStepComputing:
            return ComputingColor();
        case kStepCommNotOverlapped:
            return NotOverlappedColor();
        case kStepOverlapped:
            return OverlappedColor();
        case kStepFree:
            return FreeColor();
        case kStepBubble:
            return Rgba{0.62f, 0.45f, 0.80f, 1};
        case kStepPreparing:
            return Rgba{0.55f, 0.60f, 0.65f, 1};
        default:
            return Rgba{0.80f, 0.82f, 0.86f, 1};
    }
}

std::string Ms(TimeNs ns) {
    char text[32];
    const double ms = static_cast<double>(ns) / 1e6;
    std::snprintf(text, sizeof text, ms >= 100 ? "%.1f ms" : ms >= 10 ? "%.2f ms" : "%.3f ms", ms);
    return text;
}

void DrawNoClusterData(const ClusterDocument& cluster, const RankFileKind& kind,
                       const char* whatNeedsIt) {
    const FileProblems problems = ProblemsNamingFile(cluster.cluster, kind.fileName, 3);
    if (problems.count == 0) return DrawMissingFile(kind, whatNeedsIt);
    ImGui::TextColored(ImVec4(1.0f, 0.78f, 0.35f, 1.0f),
                       "%s needs %s: it is there but no rank's could be read (%s)", whatNeedsIt,
                       kind.fileName, CountText(problems.count, "problem", "problems").c_str());
    ImGui::PushTextWrapPos(0);
    for (const std::string& problem : problems.first) ImGui::TextDisabled("%s", problem.c_str());
    ImGui::PopTextWrapPos();
}

}  // namespace marey
