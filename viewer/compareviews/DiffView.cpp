// The diff of two documents: operators by name or type (count, total and average in A and B, the
// difference and the ratio, largest difference first, the sign in colour), the overview figures,
// per-step times and communication operators side by side. Selecting an operator highlights it
// in both timelines and brings them to its first run. Step pickers compare one step of A with
// one step of B and align on them.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

#include "core/TextFormat.hpp"
#include "rank/TraceSummary.hpp"
#include "compareviews/DiffView.hpp"
#include "timeline/TimelineView.hpp"
#include "viewkit/ViewCommon.hpp"
#include "viewkit/ViewContext.hpp"
#include "compareviews/CompareTimelines.hpp"
#include "workspace/Workspace.hpp"

namespace marey {
namespace {

const ImVec4 kSlower(1.0f, 0.50f, 0.42f, 1.0f);   // B takes longer
const ImVec4 kFaster(0.45f, 0.82f, 0.50f, 1.0f);  // B takes less

std::string Signed(TimeNs ns) {
    return (ns > 0 ? "+" : ns < 0 ? "-" : "") + FormatDuration(std::llabs(ns));
}

void DiffCell(TimeNs diff) {
    const std::string text = Signed(diff);
    if (diff == 0) return RightAligned(text);
    ImGui::PushStyleColor(ImGuiCol_Text, diff > 0 ? kSlower : kFaster);
    RightAligned(text);
    ImGui::PopStyleColor();
}

void RatioCell(std::optional<double> ratio) {
    if (!ratio) return RightAligned("only B");
    char text[32];
    std::snprintf(text, sizeof text, "%.2f×", *ratio);
    if (std::fabs(*ratio - 1.0) < 0.005) return RightAligned(text);
    ImGui::PushStyleColor(ImGuiCol_Text, *ratio > 1.0 ? kSlower : kFaster);
    RightAligned(text);
    ImGui::PopStyleColor();
}

// Brings a run of the operator into view: its track unfolded and scrolled to near the top (a
// host stack taller than the half folded), the run selected and, unless 'keepTime', framed in the
// middle half of the view. False when no slice of the trace starts at the run.
bool ShowRun(TimelineView& timeline, const std::vector<std::string>& names, TimeNs firstNs,
             float halfHeightPx, bool keepTime) {
    constexpr TimeNs kToleranceNs = 10000;  // kernel_details.csv and the trace round alike
    SliceRef slice;
    for (const std::string& name : names) {
        const SliceRef found = timeline.FindSliceNear(name, firstNs, kToleranceNs);
        if (found.valid() &&
            (!slice.valid() || std::llabs(timeline.SliceStart(found) - firstNs) <
                                   std::llabs(timeline.SliceStart(slice) - firstNs)))
            slice = found;
    }
    if (!slice.valid()) return false;
    timeline.FoldHostProcesses(halfHeightPx * 0.5f, timeline.model().tracks[slice.track].process);
    timeline.Select(slice, false);
    if (keepTime) return true;
    const double start = static_cast<double>(timeline.SliceStart(slice) - timeline.model().firstNs);
    const double end = static_cast<double>(timeline.SliceEnd(slice) - timeline.model().firstNs);
    const double room = std::max(end - start, 1000.0) * 0.5;
    timeline.ShowRange(start - room, end + room, false);
    return true;
}

// Highlights the operator (or every operator of the type) in both timelines and shows its first
// run in each: A's, with B following on the aligned axis, or each its own when sync is off.
void SelectOperator(ViewContext& context, DiffChoices& choices, const Comparison& comparison,
                    const OperatorDiff& row) {
    ComparisonPair& pair = *context.comparison;
    const bool again = choices.selected == row.name &&
                       ImGui::GetTime() - choices.clickedAt < ImGui::GetIO().MouseDoubleClickTime;
    context.request.switchToTimeline = ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left) || again;
    choices.clickedAt = ImGui::GetTime();
    choices.clickSettling = true;
    if (context.request.switchToTimeline && again) return;  // shown by the first click
    choices.selected = row.name;
    CompareTimelinesView* timelines = FindView<CompareTimelinesView>(pair.views);
    const bool sync = !timelines || timelines->Synced();
    const float halfHeightPx = timelines ? timelines->HalfHeightPx() : 360.0f;
    std::vector<std::string> names;
    if (choices.byType) {
        for (const RankSummary* side : {&comparison.a, &comparison.b})
            for (const SummaryOperator& op : side->operators)
                if (op.type == row.name) names.push_back(op.name);
    } else {
        names.push_back(row.name);
    }
    const TimeNs durationNs = row.countA ? row.AverageA() : row.AverageB();
    for (const auto& [id, first] :
         {std::pair{pair.a, row.firstStartA}, std::pair{pair.b, row.firstStartB}}) {
        Document* document = context.workspace.Find(id);
        TimelineRequest highlight;
        highlight.kind = TimelineRequest::kHighlightNames;
        highlight.document = id;
        highlight.names = names;
        highlight.label = row.name;
        highlight.goToFirst = false;
        SendTo(document->views, highlight);
        TimelineView* timeline = TimelineIn(document->views);
        if (first < 0 || !timeline) continue;
        const bool follows = sync && id == pair.b && row.firstStartA >= 0;
        if (ShowRun(*timeline, names, first, halfHeightPx, follows) || follows) continue;
        const double start = static_cast<double>(first - document->model().firstNs);
        timeline->ShowRange(start - 0.5 * durationNs, start + 1.5 * durationNs, false);
    }
    if (timelines) timelines->PlaceBFromA(sync && row.firstStartA >= 0);  // B follows A's view
}

// A table's inner width: the space there is beside its vertical scroll bar, but never under
// 'least' pixels, below which its columns would be crushed; the table then scrolls sideways
// (with ImGuiTableFlags_ScrollX).
float InnerWidth(float least) {
    return std::max(ImGui::GetContentRegionAvail().x - ImGui::GetStyle().ScrollbarSize, least);
}

void DrawOperatorTable(ViewContext& context, DiffChoices& view, const Comparison& comparison,
                       float height) {
    const std::vector<OperatorDiff>& rows =
        view.byType ? comparison.diff.types : comparison.diff.operators;
    constexpr ImGuiTableFlags kFlags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH |
                                       ImGuiTableFlags_ScrollY | ImGuiTableFlags_ScrollX |
                                       ImGuiTableFlags_Resizable | ImGuiTableFlags_SizingFixedFit;
    if (!ImGui::BeginTable("operators", 9, kFlags, ImVec2(0, height), InnerWidth(760))) return;
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn(view.byType ? "Type" : "Operator", ImGuiTableColumnFlags_WidthStretch);
    for (const char* title :
         {"Count A", "Count B", "Total A", "Total B", "Avg A", "Avg B", "B − A", "B / A"})
        ImGui::TableSetupColumn(title);
    ImGui::TableHeadersRow();
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(rows.size()));
    while (clipper.Step()) {
        for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
            const OperatorDiff& row = rows[static_cast<size_t>(i)];
            ImGui::PushID(i);
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            if (ImGui::Selectable(
                    ElidedCellLabel(row.name, "name").c_str(), view.selected == row.name,
                    ImGuiSelectableFlags_SpanAllColumns | ImGuiSelectableFlags_AllowDoubleClick))
                SelectOperator(context, view, comparison, row);
            if (ImGui::IsItemHovered() && !view.byType)
                ImGui::SetTooltip("%s\ntype %s\nright-click: align the timelines on its first run",
                                  row.name.c_str(), row.type.c_str());
            if (!view.byType && row.countA && row.countB && ImGui::BeginPopupContextItem("align")) {
                if (ImGui::MenuItem("Align A and B on its first run")) {
                    ComparisonOptions options;
                    options.align.by = AlignBy::kOperator;
                    options.align.operatorName = row.name;
                    context.recompare = options;
                    // An operator's run aligns the whole runs: the steps chosen no longer hold,
                    // and the step controls say so.
                    view.stepA.reset(), view.stepB.reset(), view.onlySteps = false;
                }
                if (ImGui::IsItemHovered())
                    ImGui::SetTooltip(
                        "Compares the whole runs, aligned on this operator's first "
                        "run (the steps chosen above are let go)");
                ImGui::EndPopup();
            }
            ImGui::TableNextColumn();
            RightAligned(std::to_string(row.countA));
            ImGui::TableNextColumn();
            RightAligned(std::to_string(row.countB));
            ImGui::TableNextColumn();
            RightAligned(FormatDuration(row.totalA));
            ImGui::TableNextColumn();
            RightAligned(FormatDuration(row.totalB));
            ImGui::TableNextColumn();
            RightAligned(row.countA ? FormatDuration(row.AverageA()) : "-");
            ImGui::TableNextColumn();
            RightAligned(row.countB ? FormatDuration(row.AverageB()) : "-");
            ImGui::TableNextColumn();
            DiffCell(row.DiffNs());
            ImGui::TableNextColumn();
            RatioCell(row.Ratio());
            ImGui::PopID();
        }
    }
    ImGui::EndTable();
}

void FigureRow(const char* label, TimeNs a, TimeNs b) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(label);
    ImGui::TableNextColumn();
    RightAligned(FormatDuration(a));
    ImGui::TableNextColumn();
    RightAligned(FormatDuration(b));
    ImGui::TableNextColumn();
    DiffCell(b - a);
}

void DrawOverview(const Comparison& comparison) {
    const OverviewFigures& a = comparison.diff.overviewA;
    const OverviewFigures& b = comparison.diff.overviewB;
    if (!a.valid || !b.valid) {
        ImGui::TextDisabled(
            "No overview on %s: neither Overlap Analysis tracks nor kernel_details.csv.",
            !a.valid ? "A" : "B");
        return;
    }
    if (!ImGui::BeginTable(
            "overview", 4,
            ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_ScrollX,
            ImVec2(0, ImGui::GetTextLineHeightWithSpacing() * 7.6f), InnerWidth(480)))
        return;
    for (const char* title : {"", "A", "B", "B − A"}) ImGui::TableSetupColumn(title);
    ImGui::TableHeadersRow();
    FigureRow("Computing", a.computingNs, b.computingNs);
    FigureRow("Pure computing", a.pureComputingNs, b.pureComputingNs);
    FigureRow("Communication, overlapped", a.commOverlappedNs, b.commOverlappedNs);
    FigureRow("Communication, not overlapped", a.commNotOverlappedNs, b.commNotOverlappedNs);
    FigureRow("Free", a.freeNs, b.freeNs);
    FigureRow("Total", a.totalNs, b.totalNs);
    ImGui::EndTable();
}

// Each recorded phase of the step on both sides, and where its difference lies.
void DrawStepPhasesTooltip(const StepDiff& row, const StepDifferencePlace& place) {
    ImGui::BeginTooltip();
    ImGui::Text(
        "Step %s: %s", row.step.c_str(),
        place.kind == StepDifferencePlace::kNone ? "no difference to place" : place.text.c_str());
    if (row.hasPhases &&
        ImGui::BeginTable("phases", 4, ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_RowBg)) {
        for (const char* title : {"Phase", "A", "B", "B − A"}) ImGui::TableSetupColumn(title);
        ImGui::TableHeadersRow();
        for (const StepPhase phase :
             {kStepComputing, kStepCommNotOverlapped, kStepFree, kStepPreparing}) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(kStepPhaseColumns[phase]);
            ImGui::TableNextColumn();
            RightAligned(FormatDuration(row.phasesA[phase]));
            ImGui::TableNextColumn();
            RightAligned(FormatDuration(row.phasesB[phase]));
            ImGui::TableNextColumn();
            DiffCell(row.phasesB[phase] - row.phasesA[phase]);
        }
        ImGui::EndTable();
    }
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 28);
    ImGui::TextDisabled(
        "The phase of the profiler's step rows that changes by at least half of the step's "
        "difference, the same way; else whether the phases together hold most of it, or that "
        "no recorded phase does.");
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
}

void DrawSteps(const Comparison& comparison, float height) {
    constexpr ImGuiTableFlags kFlags = ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY |
                                       ImGuiTableFlags_ScrollX | ImGuiTableFlags_SizingStretchProp;
    if (!ImGui::BeginTable("steps", 5, kFlags, ImVec2(0, height), InnerWidth(520))) return;
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("Step", ImGuiTableColumnFlags_None, 0.6f);
    for (const char* title : {"A", "B", "B − A"}) ImGui::TableSetupColumn(title);
    // The widest column: where the step's difference lies among its recorded phases (each
    // phase of both sides in its tooltip).
    ImGui::TableSetupColumn("Where", ImGuiTableColumnFlags_None, 1.9f);
    ImGui::TableHeadersRow();
    if (ImGui::IsItemHovered())  // the last header: "Where"
        ImGui::SetTooltip(
            "Where each step's difference lies: the phase of the profiler's step rows\n"
            "(computing, communication not overlapped, free, preparing) that changes by at\n"
            "least half of it the same way; else whether the phases together hold most of it,\n"
            "or that no recorded phase does. Hover a step for its phases.");
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(comparison.diff.steps.size()));
    while (clipper.Step()) {
        for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
            const StepDiff& row = comparison.diff.steps[static_cast<size_t>(i)];
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            // The whole row answers the mouse: its phases in a tooltip.
            ImGui::Selectable(
                row.step.c_str(), false,
                ImGuiSelectableFlags_SpanAllColumns | ImGuiSelectableFlags_AllowItemOverlap);
            const bool rowHovered = ImGui::IsItemHovered();
            ImGui::TableNextColumn();
            RightAligned(row.inA ? FormatDuration(row.aNs) : "-");
            ImGui::TableNextColumn();
            RightAligned(row.inB ? FormatDuration(row.bNs) : "-");
            ImGui::TableNextColumn();
            if (row.inA && row.inB) DiffCell(row.DiffNs());
            ImGui::TableNextColumn();
            // In short: the change and its phase, or what kind of place; the tooltip says all.
            const StepDifferencePlace place = PlaceStepDifference(row);
            if (place.kind == StepDifferencePlace::kOnePhase)
                ImGui::TextUnformatted(place.shortText.c_str());
            else if (place.kind == StepDifferencePlace::kSpread)
                ImGui::TextUnformatted("spread over phases");
            else if (place.kind == StepDifferencePlace::kUnrecorded)
                ImGui::TextDisabled("in no phase");
            else if (place.kind == StepDifferencePlace::kNoPhases)
                ImGui::TextDisabled("no phases");
            if (rowHovered) DrawStepPhasesTooltip(row, place);
        }
    }
    ImGui::EndTable();
}

void DrawCommunication(const Comparison& comparison, float height) {
    if (comparison.diff.communication.empty()) {
        ImGui::TextDisabled("No communication.json on either side.");
        return;
    }
    constexpr ImGuiTableFlags kFlags = ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY |
                                       ImGuiTableFlags_ScrollX | ImGuiTableFlags_SizingStretchProp;
    if (!ImGui::BeginTable("communication", 6, kFlags, ImVec2(0, height), InnerWidth(620))) return;
    ImGui::TableSetupScrollFreeze(0, 1);
    for (const char* title : {"Operator", "Elapse A", "Elapse B", "B − A", "Wait A", "Wait B"})
        ImGui::TableSetupColumn(title);
    ImGui::TableHeadersRow();
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(comparison.diff.communication.size()));
    while (clipper.Step()) {
        for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
            const CommunicationDiff& row = comparison.diff.communication[static_cast<size_t>(i)];
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::Text("%s  %s", row.step.c_str(), row.name.c_str());
            ImGui::TableNextColumn();
            RightAligned(row.inA ? FormatDuration(row.elapseA) : "-");
            ImGui::TableNextColumn();
            RightAligned(row.inB ? FormatDuration(row.elapseB) : "-");
            ImGui::TableNextColumn();
            DiffCell(row.DiffNs());
            ImGui::TableNextColumn();
            RightAligned(FormatDuration(row.waitA));
            ImGui::TableNextColumn();
            RightAligned(FormatDuration(row.waitB));
        }
    }
    ImGui::EndTable();
}

// A combo of a summary's placed steps; returns true when the choice changed.
bool StepPicker(const char* label, const RankSummary& summary, std::optional<size_t>* index) {
    const std::string preview = *index && **index < summary.steps.size()
                                    ? "step " + summary.steps[**index].step
                                    : "first common step";
    bool changed = false;
    ImGui::SetNextItemWidth(170);
    if (ImGui::BeginCombo(label, preview.c_str())) {
        if (ImGui::Selectable("first common step", !*index))
            changed = index->has_value(), index->reset();
        for (size_t i = 0; i < summary.steps.size(); ++i) {
            if (!summary.steps[i].placed) continue;
            const std::string name = "step " + summary.steps[i].step;
            if (ImGui::Selectable(name.c_str(), *index == i)) *index = i, changed = true;
        }
        ImGui::EndCombo();
    }
    return changed;
}

void DrawStepControls(ViewContext& context, DiffChoices& view) {
    // The pickers list the whole runs' steps, also while the diff covers one step only.
    const Document* a = context.workspace.Find(context.comparison->a);
    const Document* b = context.workspace.Find(context.comparison->b);
    bool changed = StepPicker("Step of A", a->summary, &view.stepA);
    ImGui::SameLine(0, 16);
    changed |= StepPicker("Step of B", b->summary, &view.stepB);
    ImGui::SameLine(0, 16);
    changed |= ImGui::Checkbox("Diff only these steps", &view.onlySteps);
    if (!changed) return;
    if (!view.stepA) {  // back to the whole runs, aligned on their first common step
        view.stepB.reset(), view.onlySteps = false;
        context.recompare = ComparisonOptions{};
        return;
    }
    ComparisonOptions options;
    const std::string stepA = a->summary.steps[*view.stepA].step;
    const std::string stepB = view.stepB ? b->summary.steps[*view.stepB].step : stepA;
    options.align.step = stepA;
    options.align.stepB = stepB;
    if (view.onlySteps) options.stepA = stepA, options.stepB = stepB;
    context.recompare = options;
}

}  // namespace

void DiffView::TakeOver(View& previous) {
    if (const auto* before = dynamic_cast<const DiffView*>(&previous))
        m_choices = before->m_choices;
}

void DiffView::Draw(ViewContext& context) {
    if (std::exchange(m_choices.clickSettling, false)) m_choices.clickedAt = ImGui::GetTime();
    const Comparison* comparison = context.comparison->Ready();
    if (!comparison) {
        ImGui::TextDisabled("computing the diff…");
        return;
    }
    ImGui::BeginChild("diff", ImVec2(0, 0), false, ImGuiWindowFlags_AlwaysUseWindowPadding);
    ImGui::Text("A  %s   (operators from %s)", comparison->a.path.c_str(),
                comparison->a.operatorSource.c_str());
    ImGui::Text("B  %s   (operators from %s)", comparison->b.path.c_str(),
                comparison->b.operatorSource.c_str());
    if (!comparison->note.empty()) ImGui::TextColored(kSlower, "%s", comparison->note.c_str());
    for (const auto& [label, side] :
         {std::pair{"A", &comparison->a}, std::pair{"B", &comparison->b}})
        if (side->stepRowsLeftOut > 0)
            ImGui::TextColored(kSlower, "%s: %s", label, side->StepRowsNote().c_str());
    DrawStepControls(context, m_choices);
    ImGui::Separator();
    const float height = ImGui::GetContentRegionAvail().y;
    const float width = ImGui::GetContentRegionAvail().x;
    // Side by side when both halves have room for their columns; else the operators above the
    // rest, each table scrolling sideways rather than crushing its columns.
    const bool stacked = width < 1100;
    ImGui::BeginChild("left", stacked ? ImVec2(0, height * 0.45f) : ImVec2(width * 0.58f, height));
    SectionTitle("Operators, largest difference first");
    ImGui::SameLine(0, 20);
    if (ImGui::RadioButton("by name", !m_choices.byType)) m_choices.byType = false;
    ImGui::SameLine();
    if (ImGui::RadioButton("by type", m_choices.byType)) m_choices.byType = true;
    DrawOperatorTable(context, m_choices, *comparison, ImGui::GetContentRegionAvail().y);
    ImGui::EndChild();
    if (!stacked) ImGui::SameLine(0, 12);
    ImGui::BeginChild("right", ImVec2(0, stacked ? 0 : height));
    // With the diff restricted to the chosen steps, the overview is of those steps alone.
    const bool ofSteps = m_choices.onlySteps && comparison->note.empty() &&
                         comparison->diff.alignment.by == AlignBy::kStep;
    SectionTitle(ofSteps ? ("Overview of step " + comparison->diff.alignment.step +
                            " of A and step " + comparison->diff.alignment.stepB + " of B")
                               .c_str()
                         : "Overview");
    DrawOverview(*comparison);
    ImGui::Dummy(ImVec2(0, 6));
    SectionTitle("Steps");
    // At least a dozen rows each: in a short window the half scrolls to them instead.
    const float least = ImGui::GetTextLineHeightWithSpacing() * 13;
    const float rest = ImGui::GetContentRegionAvail().y;
    DrawSteps(*comparison, std::max(rest * 0.5f - 30, least));
    ImGui::Dummy(ImVec2(0, 6));
    SectionTitle("Communication operators");
    DrawCommunication(*comparison, std::max(ImGui::GetContentRegionAvail().y, least));
    ImGui::EndChild();
    ImGui::EndChild();
}

}  // namespace marey
