// The application's menus, the Open dialog and the frame-time overlay (App.hpp): what a person
// opens, closes and turns on from the menu bar.
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "shell/App.hpp"
#include "core/TextFormat.hpp"
#include "panels/TextWrap.hpp"
#include "timeline/TimelineView.hpp"

namespace marey {

namespace {

// What the Open dialog lists besides folders (unless "every file" is ticked).
bool IsTraceFileName(const std::string& name) {
    auto endsWith = [&](const char* suffix) {
        const size_t n = std::strlen(suffix);
        return name.size() >= n && name.compare(name.size() - n, n, suffix) == 0;
    };
    return endsWith(".json") || endsWith(".json.gz") || endsWith(".csv") || endsWith(".gz") ||
           endsWith(".db") ||   // a profiler database
           endsWith(".jsonl");  // a job's cluster summary (marey summarize --out FILE.jsonl)
}

// 'path' then 'figures' right-aligned in the menu bar, the path cut in its middle to fit right of
// 'leftPx' (window coordinates), so that its end (the rank folder, the file) and the figures stay;
// shown whole in a tooltip when cut ('callerTooltip': the caller draws the tooltip). Returns
// whether it is hovered.
bool DrawMenuSummary(const std::string& path, const std::string& figures, float leftPx,
                     bool callerTooltip) {
    const auto measure = [](std::string_view text) {
        return ImGui::CalcTextSize(text.data(), text.data() + text.size()).x;
    };
    const float right = ImGui::GetWindowWidth() - 16;
    const std::string summary = path + figures;
    const std::string shown =
        ElideMiddle(path, std::max(0.0f, right - leftPx - measure(figures)), measure) + figures;
    ImGui::SameLine(std::max(leftPx, right - ImGui::CalcTextSize(shown.c_str()).x));
    ImGui::TextDisabled("%s", shown.c_str());
    const bool hovered = ImGui::IsItemHovered();
    if (hovered && shown != summary && !callerTooltip) ImGui::SetTooltip("%s", summary.c_str());
    return hovered;
}

}  // namespace

void App::DrawMenuBar() {
    if (!ImGui::BeginMenuBar()) return;
    Document* active = ShowingComparison() ? nullptr : ActiveDocument();
    if (ImGui::BeginMenu("File")) {
        if (ImGui::MenuItem("Open…", "Ctrl+O")) m_openDialog = true, m_openToCompare = false;
        // A comparison is of two ranks: a timeline of several is not one side of it.
        const bool canCompare = active && !active->ranks;
        if (ImGui::MenuItem("Compare with…", nullptr, false, canCompare))
            m_openDialog = true, m_openToCompare = true;
        if (ImGui::BeginMenu("Compare with open document",
                             canCompare && m_workspace.documents().size() > 1)) {
            for (const auto& document : m_workspace.documents()) {
                if (document.get() == active || document->ranks) continue;
                if (ImGui::MenuItem(document->Title().c_str())) {
                    m_workspace.Compare(active->id, document->id);
                    m_comparisonTab = true, m_selectDocumentTab = 2;
                    m_mainTab = 0;
                }
            }
            ImGui::EndMenu();
        }
        // A folder holds the text export and the database both: open the one not shown.
        if (active && !active->ranks && !active->rank.otherSource.empty()) {
            const RankFiles& files = active->analysis().files;
            const bool text = active->rank.otherSource == "text";
            const std::string other =
                text ? files.traceView.empty() ? files.kernelDetails : files.traceView
                     : files.profilerDb;
            if (ImGui::MenuItem(text ? "Open its text export" : "Open its database", nullptr, false,
                                !other.empty()))
                Open(other);
        }
        if (ImGui::BeginMenu("Open recent", !m_recent.empty())) {
            for (const std::string& recent : m_recent)
                if (ImGui::MenuItem(recent.c_str())) Open(recent);
            ImGui::EndMenu();
        }
        if (ImGui::MenuItem("Close document", nullptr, false,
                            active != nullptr || ActiveCluster() != nullptr)) {
            m_workspace.Close(active ? active->id : ActiveCluster()->id);
            m_active = FirstOpen();
            active = nullptr;
        }
        if (ImGui::MenuItem("Quit", "Ctrl+Q")) glfwSetWindowShouldClose(m_window, 1);
        ImGui::EndMenu();
    }
    if (active && ImGui::BeginMenu("View")) {
        TimelineView& timeline = *TimelineOf(*active);
        ViewState& state = timeline.state();
        if (ImGui::MenuItem("Show everything", "Home")) timeline.ShowAll();
        if (ImGui::MenuItem("Expand all processes")) timeline.SetAllCollapsed(false);
        if (ImGui::MenuItem("Collapse all processes")) timeline.SetAllCollapsed(true);
        if (ImGui::MenuItem("Show hidden tracks")) timeline.ShowHiddenTracks();
        if (active->ranks) {
            if (ImGui::MenuItem("Unfold every rank")) timeline.SetGroupsCollapsed(false);
            if (ImGui::MenuItem("Fold every rank")) timeline.SetGroupsCollapsed(true);
        }
        ImGui::Separator();
        ImGui::MenuItem("Flows", nullptr, &state.showFlows);
        ImGui::MenuItem("Every flow, not only the selection's", "V", &state.showAllFlows,
                        state.showFlows);
        if (ImGui::BeginMenu("Flow categories")) {
            auto& shown = timeline.flowCategoryShown();
            const auto& categories = timeline.flowCategories();
            for (size_t i = 0; i < categories.size(); ++i) {
                bool on = shown[i];
                const std::string_view name = active->model().Name(categories[i]);
                const std::string label(name.empty() ? "(no category)" : name);
                if (ImGui::MenuItem(label.c_str(), nullptr, &on)) shown[i] = on;
            }
            if (categories.empty()) ImGui::TextDisabled("this trace has no flows");
            ImGui::EndMenu();
        }
        ImGui::MenuItem("Host-wait marks on device streams", nullptr, &state.showHostWaits);
        ImGui::MenuItem("Frame time overlay", nullptr, &state.showFrameOverlay);
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("Help")) {
        if (ImGui::MenuItem("Keys and mouse", "? or F1")) m_showHelp = true;
        ImGui::EndMenu();
    }
    const float menusEnd = ImGui::GetItemRectMax().x - ImGui::GetWindowPos().x + 24;
    if (active) {
        const TraceModel& model = active->model();
        // A rank folder by its folder (its rank in the name), not by the trace file inside it.
        const std::string source = active->ranks ? CountText(model.groups.size(), "rank", "ranks")
                                   : !active->rank.path.empty() ? active->rank.path
                                                                : model.Path();
        const std::string figures = "  ·  " +
                                    CountText(model.report.eventCount, "event", "events") +
                                    "  ·  " + FormatDuration(model.lastNs - model.firstNs);
        DrawMenuSummary(source, figures, menusEnd, false);
    } else if (const ClusterDocument* cluster = ActiveCluster()) {
        const std::string figures =
            "  ·  " + CountText(cluster->cluster.ranks.size(), "rank", "ranks") + "  ·  " +
            CountText(cluster->cluster.steps.size(), "step", "steps") + "  ·  " +
            // The job's shape, where the layout says one ("TP 2 × PP 4 × DP 2").
            (cluster->cluster.parallel.SizesText().empty()
                 ? ""
                 : cluster->cluster.parallel.SizesText() + "  ·  ") +
            ClusterSourceName(cluster->cluster.source) +
            (cluster->cluster.problems.empty()
                 ? ""
                 : "  ·  " + CountText(cluster->cluster.problems.size(), "problem", "problems"));
        const bool problems = !cluster->cluster.problems.empty();
        if (DrawMenuSummary(cluster->cluster.root, figures, menusEnd, problems) && problems) {
            ImGui::BeginTooltip();
            ImGui::TextUnformatted((cluster->cluster.root + figures).c_str());
            ImGui::Separator();
            for (size_t i = 0; i < cluster->cluster.problems.size() && i < 20; ++i)
                ImGui::TextUnformatted(cluster->cluster.problems[i].c_str());
            if (cluster->cluster.problems.size() > 20)
                ImGui::TextDisabled("and %zu more (marey stats CLUSTER lists them)",
                                    cluster->cluster.problems.size() - 20);
            ImGui::EndTooltip();
        }
    }
    ImGui::EndMenuBar();
    HandleWindowKeys(active);
}

// Keys of the whole window: open, Help, quit, search.
void App::HandleWindowKeys(Document* active) {
    const ImGuiIO& io = ImGui::GetIO();
    if (io.KeyCtrl && ImGui::IsKeyPressed(GLFW_KEY_O, false))
        m_openDialog = true, m_openToCompare = false;
    if (ImGui::IsKeyPressed(GLFW_KEY_F1, false)) m_showHelp = !m_showHelp;
    if (m_showHelp && ImGui::IsKeyPressed(GLFW_KEY_ESCAPE, false)) {
        m_showHelp = false;
        // The Esc that closes Help goes no further: it does not also clear the selection or the
        // search drawn after this (ImGui 1.86 reads a press as a key down for 0 s).
        ImGui::GetIO().KeysDownDuration[GLFW_KEY_ESCAPE] = 0.1f;
    }
    if (!io.WantTextInput)
        for (const ImWchar c : io.InputQueueCharacters)
            if (c == '?') m_showHelp = !m_showHelp;
    if (io.KeyCtrl && ImGui::IsKeyPressed(GLFW_KEY_Q, false)) glfwSetWindowShouldClose(m_window, 1);
    if (active && io.KeyCtrl && ImGui::IsKeyPressed(GLFW_KEY_F, false)) {
        TimelineRequest focus;
        focus.kind = TimelineRequest::kFocusSearch;
        focus.document = active->id;
        SendToViews(*active, focus);
    }
}

void App::DrawOpenDialog() {
    if (m_openDialog) {
        ImGui::OpenPopup("Open a trace");
        m_openDialog = false;
    }
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    ImGui::SetNextWindowSize(
        ImVec2(std::min(720.0f, display.x - 40), std::min(460.0f, display.y - 40)),
        ImGuiCond_Appearing);
    if (!ImGui::BeginPopupModal("Open a trace")) return;
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped(
        "%s", m_openToCompare ? "Compare the shown document (A) with this trace or rank folder (B)."
                              : "A Chrome trace (.json, .json.gz), a kernel_details.csv, a "
                                "profiler folder or a cluster folder; or drop it on the window.");
    ImGui::PopStyleColor();
    ImGui::SetNextItemWidth(-90);
    if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();  // type the path at once
    const bool enter = ImGui::InputText("##path", m_openPath, sizeof m_openPath,
                                        ImGuiInputTextFlags_EnterReturnsTrue);
    ImGui::SameLine();
    if ((ImGui::Button(m_openToCompare ? "Compare" : "Open") || enter) && m_openPath[0]) {
        Open(m_openPath);
        ImGui::CloseCurrentPopup();
    }
    // A small browser of the typed folder.
    std::error_code ignored;
    std::filesystem::path folder =
        m_openPath[0] ? std::filesystem::path(m_openPath) : std::filesystem::current_path(ignored);
    if (!std::filesystem::is_directory(folder, ignored)) folder = folder.parent_path();
    ImGui::Text("in %s", folder.string().c_str());
    ImGui::SameLine();
    ImGui::Checkbox("every file", &m_openShowAll);
    ImGui::BeginChild("entries", ImVec2(0, -30), true);
    if (ImGui::Selectable(".."))
        std::snprintf(m_openPath, sizeof m_openPath, "%s", folder.parent_path().string().c_str());
    std::vector<std::filesystem::directory_entry> entries;
    for (std::filesystem::directory_iterator
             it(folder, std::filesystem::directory_options::skip_permission_denied, ignored),
         end;
         !ignored && it != end; it.increment(ignored))
        if (m_openShowAll || it->is_directory(ignored) ||
            IsTraceFileName(it->path().filename().string()))
            entries.push_back(*it);
    std::sort(entries.begin(), entries.end());
    for (const auto& entry : entries) {
        const bool isFolder = entry.is_directory(ignored);
        const std::string name = entry.path().filename().string() + (isFolder ? "/" : "");
        if (ImGui::Selectable(name.c_str(), false, ImGuiSelectableFlags_AllowDoubleClick)) {
            std::snprintf(m_openPath, sizeof m_openPath, "%s", entry.path().string().c_str());
            if (!isFolder && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) {
                Open(m_openPath);
                ImGui::CloseCurrentPopup();
            }
        }
    }
    ImGui::EndChild();
    if (ImGui::Button("Cancel")) ImGui::CloseCurrentPopup();
    ImGui::EndPopup();
}

void App::DrawFrameOverlay() {
    const FrameStats& stats = TimelineOf(*ActiveDocument())->frameStats();
    // Bottom right of the timeline, clear of the ruler and the side panel.
    const float width = ImGui::GetIO().DisplaySize.x;
    const float right =
        width - (m_layout.sidePanelShown ? m_layout.SidePanelWidthFor(width - 16) + 6 : 0) - 16;
    ImGui::SetNextWindowPos(ImVec2(right, ImGui::GetIO().DisplaySize.y - 16), ImGuiCond_Always,
                            ImVec2(1, 1));
    ImGui::SetNextWindowBgAlpha(0.8f);
    ImGui::Begin("frame", nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                     ImGuiWindowFlags_NoInputs);
    ImGui::Text("frame CPU %.2f ms (timeline %.2f ms)", m_lastCpuMs, stats.cpuMs);
    if (m_boxes.LastGpuMs() >= 0)
        ImGui::Text("boxes GPU %.3f ms", m_boxes.LastGpuMs());
    else
        ImGui::TextDisabled("GPU timer queries unavailable");
    ImGui::Text("%zu boxes, %zu labels, %zu flows", stats.boxes, stats.labels, stats.flows);
    ImGui::End();
}

}  // namespace marey
