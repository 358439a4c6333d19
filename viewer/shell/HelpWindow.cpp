#include "shell/HelpWindow.hpp"

#include <imgui.h>

#include <algorithm>

namespace marey {
namespace {

struct Binding {
    const char* input;
    const char* action;
};

// Every key and mouse action, by where it acts. Keep in step with the table of docs/using.md.
const Binding kTimeline[] = {
    {"W / S", "zoom in / out at the mouse (held: up to 1.6 times faster)"},
    {"A / D", "pan left / right (held: faster)"},
    {"wheel", "zoom at the mouse"},
    {"Shift+wheel, wheel on names", "scroll the tracks"},
    {"drag", "pan, both directions"},
    {"double-click", "zoom out"},
    {"click", "select a slice: Details shows its args, flows, parent and children"},
    {"Shift+drag", "select a time range on the tracks under it: Range statistics"},
    {"drag on the ruler", "select a time range on every track; its length shows over the ruler"},
    {"F", "frame the selection (or the range)"},
    {"Home", "show everything"},
    {"Esc", "clear the selection, the range and the search"},
    {"V", "every flow, or only those of the selected and hovered slices"},
    {"right-click a track name", "pin it to the top, or hide it"},
    {"drag a name column's or the side panel's edge", "resize it"},
    {"minimap: click or drag", "move the view"},
    {"several ranks: click a rank's header",
     "fold or unfold it (folded: how busy its threads are); right-click: fold the others"},
    {"several ranks: Align",
     "line the ranks up on the start of another step, or show each on its own clock"},
};
const Binding kEverywhere[] = {
    {"Ctrl+F", "search names; Enter / Shift+Enter: next / previous match, wherever the focus is"},
    {"Ctrl+1 … Ctrl+9",
     "the first nine views of a rank: Timeline, Overview, Operators, Steps, Device, Critical "
     "path, Communication, Memory, Data preparation (of a cluster or a comparison, its own)"},
    {"Ctrl+B", "hide or show the side panel"},
    {"Ctrl+O",
     "open a trace, a rank folder, a cluster folder or a kernel_details.csv (or drop it on the "
     "window)"},
    {"Ctrl+Q", "quit"},
    {"? or F1", "this window"},
};
const Binding kCompare[] = {
    {"Ctrl+1 / Ctrl+2", "the two timelines / the diff"},
    {"L", "sync the two time axes on or off"},
    {"Tab", "pick the half the keys move (the mouse over a half picks it too)"},
    {"click a diff row",
     "highlight the operator in both timelines, at its first run; right-click: align on it"},
};

const Binding kCluster[] = {
    {"Ctrl+1 … Ctrl+8",
     "Step trace, Overview by rank, Communication matrix, Communication across ranks, Time "
     "overview, Marey, Parallel layout, Pipeline"},
    {"click a rank", "select it in every cluster view (a row, a bar, a matrix row)"},
    {"Enter", "open the selected rank's timeline (the buttons: its overview, its operators)"},
    {"C", "compare the selected rank with the one selected before it, or with the median rank"},
    {"right-click a rank", "the same, as a menu"},
    {"T",
     "add the selected rank to the ranks to open in one timeline (or type them: 0-3,7), then Open"},
    {"click a step (Time overview)", "show that step in every cluster view"},
    {"matrix: wheel, drag, W/S, A/D, Up/Down",
     "zoom at the mouse, pan both ways; double-click shows the whole matrix"},
    {"Marey: drag, double-click, wheel, W/A/S/D",
     "zoom into the range dragged, show the whole step, zoom, pan"},
    {"Marey: click an operator",
     "open that rank's timeline at it; click a row's name: its memory below"},
};

void Section(const char* title, const Binding* bindings, int count) {
    ImGui::TextColored(ImVec4(0.6f, 0.78f, 1.0f, 1.0f), "%s", title);
    if (!ImGui::BeginTable(title, 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit))
        return;
    // The actions take the rest of the window and wrap in it, however narrow.
    ImGui::TableSetupColumn("input", ImGuiTableColumnFlags_WidthFixed);
    ImGui::TableSetupColumn("action", ImGuiTableColumnFlags_WidthStretch);
    for (int i = 0; i < count; ++i) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(bindings[i].input);
        ImGui::TableNextColumn();
        ImGui::TextWrapped("%s", bindings[i].action);
    }
    ImGui::EndTable();
    ImGui::Dummy(ImVec2(0, 6));
}

}  // namespace

void DrawHelp(bool* open) {
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    ImGui::SetNextWindowSize(ImVec2(std::min(760.0f, display.x - 40), 0), ImGuiCond_Appearing);
    ImGui::SetNextWindowSizeConstraints(ImVec2(0, 0), ImVec2(display.x - 20, display.y - 40));
    ImGui::SetNextWindowPos(ImGui::GetMainViewport()->GetCenter(), ImGuiCond_Appearing,
                            ImVec2(0.5f, 0.5f));
    if (!ImGui::Begin("Keys and mouse", open, ImGuiWindowFlags_NoCollapse)) {
        ImGui::End();
        return;
    }
    Section("Timeline", kTimeline, IM_ARRAYSIZE(kTimeline));
    Section("Everywhere", kEverywhere, IM_ARRAYSIZE(kEverywhere));
    Section("Comparison", kCompare, IM_ARRAYSIZE(kCompare));
    Section("Cluster", kCluster, IM_ARRAYSIZE(kCluster));
    ImGui::End();
}

}  // namespace marey
