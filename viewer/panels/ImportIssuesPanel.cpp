#include "panels/ImportIssuesPanel.hpp"

#include <imgui.h>

#include "core/Problem.hpp"
#include "model/TraceModel.hpp"
#include "core/TextFormat.hpp"

namespace marey {

void ImportIssuesPanel::DrawContents(const TraceModel& model) {
    const ImportReport& report = model.report;
    if (report.problemCount == 0) {
        ImGui::TextColored(ImVec4(0.5f, 0.9f, 0.5f, 1), "No import problems: every event loaded.");
    } else if (report.problemCount == 1) {
        ImGui::TextColored(ImVec4(1.0f, 0.75f, 0.3f, 1), "1 problem:");
    } else if (!model.groups.empty()) {
        ImGui::TextColored(ImVec4(1.0f, 0.75f, 0.3f, 1),
                           "%llu problems, by rank; the first ones of each by place in its file:",
                           static_cast<unsigned long long>(report.problemCount));
    } else {
        ImGui::TextColored(
            ImVec4(1.0f, 0.75f, 0.3f, 1), "%llu problems; the first %zu by place in the file:",
            static_cast<unsigned long long>(report.problemCount), report.problems.size());
    }
    ImGui::Text("%llu events read; %llu flow arrows, %llu flow events without a partner",
                static_cast<unsigned long long>(report.eventCount),
                static_cast<unsigned long long>(report.matchedFlows),
                static_cast<unsigned long long>(report.unmatchedFlowEvents));
    ImGui::Separator();
    if (model.groups.empty()) {
        DrawProblems(model.Path(), report);
        return;
    }
    // Several ranks in one timeline: each rank's problems, in its own file's places.
    for (size_t g = 0; g < model.groups.size(); ++g) {
        const ProcessGroup& group = model.groups[g];
        if (group.report.problemCount == 0) continue;
        ImGui::PushID(static_cast<int>(g));
        const std::string header =
            group.label + ": " + CountText(group.report.problemCount, "problem", "problems");
        if (ImGui::CollapsingHeader(header.c_str(), ImGuiTreeNodeFlags_DefaultOpen))
            DrawProblems(model.sources[g].path, group.report);
        ImGui::PopID();
    }
}

void ImportIssuesPanel::DrawProblems(const std::string& path, const ImportReport& report) {
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(report.problems.size()));
    while (clipper.Step()) {
        for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
            const std::string line = FormatProblem(path, report.problems[static_cast<size_t>(i)]);
            ImGui::PushTextWrapPos(0);
            ImGui::TextUnformatted(line.c_str());
            ImGui::PopTextWrapPos();
        }
    }
}

}  // namespace marey
