#include "App.hpp"

#include <epoxy/gl.h>
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include <time.h>

#include "render/Screenshot.hpp"
#include "stats/TraceSummary.hpp"

namespace tracelens {
namespace {

constexpr float kScriptedFrameDt = 1.0f / 60.0f;
constexpr float kSidePanelWidth = 430.0f;
constexpr int kMaxScriptedFrames = 20000;

std::string RecentFile() {
    const char* home = std::getenv("HOME");
    return std::string(home ? home : ".") + "/.config/tracelens/recent.txt";
}

App* g_app = nullptr;

void DropCallback(GLFWwindow*, int count, const char** paths) {
    if (g_app && count > 0) g_app->Open(paths[0]);
}

void ApplyStyle() {
    ImGui::StyleColorsDark();
    ImGuiStyle& style = ImGui::GetStyle();
    style.WindowRounding = 0;
    style.FrameRounding = 3;
    style.ScrollbarRounding = 3;
    style.WindowBorderSize = 0;
    style.ItemSpacing = ImVec2(8, 5);
    style.Colors[ImGuiCol_WindowBg] = ImVec4(0.11f, 0.12f, 0.14f, 1.0f);
    style.Colors[ImGuiCol_ChildBg] = ImVec4(0.11f, 0.12f, 0.14f, 1.0f);
    style.Colors[ImGuiCol_Header] = ImVec4(0.22f, 0.30f, 0.42f, 1.0f);
    style.Colors[ImGuiCol_TableRowBgAlt] = ImVec4(1, 1, 1, 0.03f);
}

}  // namespace

bool App::Init(std::string* error) {
    if (!glfwInit()) {
        *error = "cannot start GLFW: no display? (run under an X server, or xvfb-run)";
        return false;
    }
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GL_TRUE);
    glfwWindowHint(GLFW_DOUBLEBUFFER, GL_TRUE);
    m_window = glfwCreateWindow(m_options.width, m_options.height, "tracelens", nullptr, nullptr);
    if (!m_window) {
        *error = "cannot open an OpenGL 3.3 core window";
        glfwTerminate();
        return false;
    }
    glfwMakeContextCurrent(m_window);
    glfwSwapInterval(m_options.screenshotPath.empty() ? 1 : 0);
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;  // the layout is fixed; nothing to remember between runs
    ApplyStyle();
    m_fonts = LoadFonts(15.0f);
    ImGui_ImplGlfw_InitForOpenGL(m_window, true);
    ImGui_ImplOpenGL3_Init("#version 330 core");
    g_app = this;
    glfwSetDropCallback(m_window, DropCallback);
    if (!m_boxes.Init(error)) return false;
    std::ifstream recent(RecentFile());
    for (std::string line; std::getline(recent, line);)
        if (!line.empty()) m_recent.push_back(line);
    return true;
}

void App::Shutdown() {
    m_boxes.Release();
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    glfwDestroyWindow(m_window);
    glfwTerminate();
    g_app = nullptr;
}

void App::RememberRecent(const std::string& path) {
    std::error_code ignored;
    const std::string absolute = std::filesystem::absolute(path, ignored).string();
    m_recent.erase(std::remove(m_recent.begin(), m_recent.end(), absolute), m_recent.end());
    m_recent.insert(m_recent.begin(), absolute);
    if (m_recent.size() > 10) m_recent.resize(10);
    if (!m_options.screenshotPath.empty()) return;  // headless runs leave no trace behind
    std::filesystem::create_directories(std::filesystem::path(RecentFile()).parent_path(), ignored);
    std::ofstream out(RecentFile());
    for (const std::string& recent : m_recent) out << recent << "\n";
}

void App::Open(const std::string& path) {
    if (m_load.Running()) return;
    m_timeline.reset();
    m_analysis.reset();
    m_model.reset();
    m_loadError.clear();
    m_load.Start(path);
    glfwSetWindowTitle(m_window, ("tracelens — " + path).c_str());
}

void App::TakeLoadedModel() {
    m_model = m_load.Take(&m_loadError);
    m_analysis = m_load.TakeAnalysis();
    if (m_model) {
        m_timeline = std::make_unique<TimelineView>(*m_model);
        RememberRecent(m_load.Path());
        if (m_model->report.problemCount > 0) m_sideTab = 3;
        ApplyCommandLineSelection();
    }
}

void App::ApplyCommandLineSelection() {
    if (!m_options.search.empty()) {
        m_search.SetQuery(*m_timeline, m_options.search);
        m_search.Step(*m_timeline, true);
        if (m_options.panel.empty()) m_sideTab = 0;
    }
    if (m_options.rangeFromMs >= 0 && m_options.rangeToMs > m_options.rangeFromMs) {
        ViewState& state = m_timeline->state();
        state.hasRange = true;
        state.rangeStartNs = static_cast<TimeNs>(m_options.rangeFromMs * 1e6);
        state.rangeEndNs = static_cast<TimeNs>(m_options.rangeToMs * 1e6);
        state.rangeTracks.clear();
        for (const Process& process : m_model->processes)
            for (uint32_t track : process.tracks) state.rangeTracks.push_back(track);
        m_timeline->ShowRange(static_cast<double>(state.rangeStartNs), static_cast<double>(state.rangeEndNs), true);
        m_sideTab = 1;
    }
}

int App::Run(const ViewerOptions& options) {
    m_options = options;
    std::string error;
    if (!Init(&error)) {
        std::fprintf(stderr, "tracelens: %s\n", error.c_str());
        return 1;
    }
    const char* views[] = {"timeline", "overview", "operators", "steps", "communication", "memory"};
    for (int i = 0; i < 6; ++i)
        if (options.view == views[i]) m_mainTab = i;
    if (options.panel == "range") m_sideTab = 1;
    else if (options.panel == "search") m_sideTab = 2;
    else if (options.panel == "issues") m_sideTab = 3;
    KeyScript script;
    if (!script.Parse(options.keys, &error)) {
        std::fprintf(stderr, "tracelens: %s\n", error.c_str());
        Shutdown();
        return 2;
    }
    Open(options.path);
    if (options.frameBenchmark) {
        const int code = RunFrameBenchmark();
        Shutdown();
        return code;
    }
    const bool scripted = !options.screenshotPath.empty();
    int settleFrames = 3;
    int exitCode = 0;
    auto last = std::chrono::steady_clock::now();
    for (int frame = 0; !glfwWindowShouldClose(m_window); ++frame) {
        glfwPollEvents();
        const auto now = std::chrono::steady_clock::now();
        const float dt = scripted ? kScriptedFrameDt : std::min(0.1f, std::chrono::duration<float>(now - last).count());
        last = now;
        if (m_load.Finished()) TakeLoadedModel();
        const bool ready = !m_load.Running() && !m_load.Finished();
        // Scripted keys play once the trace is on screen, through GLFW's key callback path.
        if (scripted && ready && settleFrames == 0 && !script.Step(m_window)) settleFrames = -1;
        const auto cpuStart = std::chrono::steady_clock::now();
        ImGui_ImplOpenGL3_NewFrame();
        ImGui_ImplGlfw_NewFrame();
        // Headless runs ignore wherever the X server left its pointer: no stray hover.
        if (scripted) ImGui::GetIO().MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
        ImGui::NewFrame();
        Frame(dt);
        ImGui::Render();
        m_lastCpuMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - cpuStart).count();
        int width, height;
        glfwGetFramebufferSize(m_window, &width, &height);
        glViewport(0, 0, width, height);
        glClearColor(0.08f, 0.09f, 0.10f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
        if (scripted) {
            if (ready && settleFrames > 0) --settleFrames;
            // After the keys (settleFrames == -1), two more frames let hover and layout settle.
            if (ready && settleFrames < 0 && --settleFrames < -3) {
                if (!WriteScreenshot(options.screenshotPath, width, height, &error)) {
                    std::fprintf(stderr, "tracelens: %s\n", error.c_str());
                    exitCode = 1;
                }
                if (m_timeline) {
                    const ViewState& view = m_timeline->state();
                    std::printf("view %lld %lld\n", static_cast<long long>(m_model->firstNs + static_cast<TimeNs>(view.viewStartNs)),
                                static_cast<long long>(m_model->firstNs + static_cast<TimeNs>(view.viewEndNs)));
                    std::printf("boxes %zu labels %zu flows %zu cpu_ms %.3f\n", m_timeline->frameStats().boxes,
                                m_timeline->frameStats().labels, m_timeline->frameStats().flows, m_timeline->frameStats().cpuMs);
                } else {
                    std::fprintf(stderr, "%s\n", m_loadError.c_str());
                    exitCode = 1;
                }
                break;
            }
            if (frame > kMaxScriptedFrames) {
                std::fprintf(stderr, "tracelens: gave up waiting for the trace to load\n");
                exitCode = 1;
                break;
            }
        }
        glfwSwapBuffers(m_window);
    }
    Shutdown();
    return exitCode;
}

namespace {
// CPU time of this thread in ms: with a software rasterizer on the same cores, wall time would
// count the rasterizer's threads too.
double ThreadCpuMs() {
    timespec now{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return static_cast<double>(now.tv_sec) * 1e3 + static_cast<double>(now.tv_nsec) / 1e6;
}
}  // namespace

double App::RenderFrame(float dt, double* presentMs) {
    const double cpuStart = ThreadCpuMs();
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::GetIO().MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
    ImGui::NewFrame();
    Frame(dt);
    ImGui::Render();
    const double cpuMs = ThreadCpuMs() - cpuStart;
    const auto built = std::chrono::steady_clock::now();
    int width, height;
    glfwGetFramebufferSize(m_window, &width, &height);
    glViewport(0, 0, width, height);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    glfwSwapBuffers(m_window);
    glFinish();
    *presentMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - built).count();
    return cpuMs;
}

int App::RunFrameBenchmark() {
    while (m_load.Running()) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    TakeLoadedModel();
    if (!m_timeline) {
        std::fprintf(stderr, "%s\n", m_loadError.c_str());
        return 1;
    }
    std::printf("frame benchmark: %s, %llu events, %d x %d px, GL renderer: %s\n", m_model->path.c_str(),
                static_cast<unsigned long long>(m_model->report.eventCount), m_options.width, m_options.height,
                reinterpret_cast<const char*>(glGetString(GL_RENDERER)));
    std::printf("  frame CPU: this thread's CPU time for input, level-of-detail queries, instance buffer and ImGui\n"
                "  GL draw + present: submission, swap and glFinish (with llvmpipe this is rasterizing on the CPU);\n"
                "  boxes GPU: the instanced draw call, by timer query. 40 random windows per zoom.\n");
    double presentMs = 0;
    for (int i = 0; i < 5; ++i) RenderFrame(kScriptedFrameDt, &presentMs);  // warm up: fonts, buffers
    const double span = std::max<double>(1000.0, static_cast<double>(m_model->lastNs - m_model->firstNs));
    uint64_t seed = 12345;
    std::printf("  %-14s %28s %26s %12s %8s\n", "window", "frame CPU median / p95", "GL draw + present median",
                "boxes GPU", "boxes");
    for (double window = span; window >= 999.0; window /= 10.0) {
        std::vector<double> cpu, present, gpu;
        size_t boxes = 0;
        constexpr int kFrames = 40;
        for (int f = 0; f < kFrames; ++f) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            const double start = window >= span ? 0.0 : static_cast<double>(seed >> 11) / 9007199254740992.0 * (span - window);
            m_timeline->ShowRange(start, start + window, false);
            cpu.push_back(RenderFrame(kScriptedFrameDt, &presentMs));
            present.push_back(presentMs);
            boxes = std::max(boxes, m_timeline->frameStats().boxes);
            if (m_boxes.LastGpuMs() >= 0) gpu.push_back(m_boxes.LastGpuMs());
        }
        std::sort(cpu.begin(), cpu.end());
        std::sort(present.begin(), present.end());
        std::sort(gpu.begin(), gpu.end());
        char gpuText[32] = "n/a";
        if (!gpu.empty()) std::snprintf(gpuText, sizeof gpuText, "%.3f ms", gpu[gpu.size() / 2]);
        std::printf("  %-14s %12.2f ms / %8.2f ms %23.2f ms %12s %8zu\n", FormatDuration(static_cast<TimeNs>(window)).c_str(),
                    cpu[cpu.size() / 2], cpu[cpu.size() * 95 / 100], present[present.size() / 2], gpuText, boxes);
        std::fflush(stdout);
        if (window < 1999.0) break;
    }
    return 0;
}

void App::Frame(float dt) {
    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(viewport->WorkPos);
    ImGui::SetNextWindowSize(viewport->WorkSize);
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0, 0));
    ImGui::Begin("tracelens", nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_MenuBar |
                     ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_NoScrollWithMouse);
    ImGui::PopStyleVar();
    DrawMenuBar();
    if (!m_timeline) DrawLoading();
    else DrawViewTabs(dt);
    ImGui::End();
    DrawOpenDialog();
}

void App::DrawTimelineTab(float dt) {
    DrawToolbar();
    const float height = ImGui::GetContentRegionAvail().y;
    const float timelineWidth = ImGui::GetContentRegionAvail().x - kSidePanelWidth;
    ImGui::BeginChild("timeline", ImVec2(timelineWidth, height), false, ImGuiWindowFlags_NoScrollWithMouse | ImGuiWindowFlags_NoScrollbar);
    m_timeline->Draw(m_boxes, dt);
    ImGui::EndChild();
    ImGui::SameLine(0, 0);
    ImGui::BeginChild("side", ImVec2(kSidePanelWidth, height), true);
    DrawSidePanel();
    ImGui::EndChild();
    if (m_timeline->state().showFrameOverlay) DrawFrameOverlay();
}

// The views as tabs of one window; Ctrl+1 … Ctrl+6 switch between them.
void App::DrawViewTabs(float dt) {
    const ImGuiIO& io = ImGui::GetIO();
    constexpr int kViews = 6;
    for (int i = 0; i < kViews; ++i)
        if (io.KeyCtrl && ImGui::IsKeyPressed(GLFW_KEY_1 + i, false)) m_mainTab = i;
    static const char* const kTabs[kViews] = {"Timeline", "Overview", "Operators", "Steps", "Communication", "Memory"};
    TimelineRequest request;
    ImGui::SetCursorPosX(ImGui::GetCursorPosX() + 6);
    if (ImGui::BeginTabBar("views")) {
        for (int i = 0; i < kViews; ++i) {
            const std::string label = std::string(kTabs[i]) + "  (Ctrl+" + std::to_string(i + 1) + ")###view" + std::to_string(i);
            if (!ImGui::BeginTabItem(label.c_str(), nullptr, m_mainTab == i ? ImGuiTabItemFlags_SetSelected : 0)) continue;
            if (i == 0) {
                DrawTimelineTab(dt);
            } else {
                ImGui::BeginChild("view", ImVec2(0, 0), false, ImGuiWindowFlags_AlwaysUseWindowPadding);
                switch (i) {
                    case 1: m_overview.Draw(*m_analysis, request); break;
                    case 2: m_operators.Draw(*m_analysis, request); break;
                    case 3: m_steps.Draw(*m_analysis, request); break;
                    case 4: m_communication.Draw(*m_analysis, request); break;
                    default: m_memory.Draw(*m_analysis, request); break;
                }
                ImGui::EndChild();
            }
            ImGui::EndTabItem();
        }
        m_mainTab = -1;
        ImGui::EndTabBar();
    }
    ApplyRequest(request);
}

void App::ApplyRequest(const TimelineRequest& request) {
    if (request.kind == TimelineRequest::kShowRange) {
        m_timeline->ShowRange(static_cast<double>(request.startNs - m_model->firstNs),
                              static_cast<double>(request.endNs - m_model->firstNs), true);
    } else if (request.kind == TimelineRequest::kHighlightNames) {
        m_search.SetNames(*m_timeline, request.names, request.label);
        m_sideTab = 2;
    }
    if (request.switchToTimeline) m_mainTab = 0;
}

void App::DrawMenuBar() {
    if (!ImGui::BeginMenuBar()) return;
    if (ImGui::BeginMenu("File")) {
        if (ImGui::MenuItem("Open…", "Ctrl+O")) m_openDialog = true;
        if (ImGui::BeginMenu("Open recent", !m_recent.empty())) {
            for (const std::string& recent : m_recent)
                if (ImGui::MenuItem(recent.c_str())) Open(recent);
            ImGui::EndMenu();
        }
        if (ImGui::MenuItem("Quit", "Ctrl+Q")) glfwSetWindowShouldClose(m_window, 1);
        ImGui::EndMenu();
    }
    if (m_timeline && ImGui::BeginMenu("View")) {
        ViewState& state = m_timeline->state();
        if (ImGui::MenuItem("Show everything", "Home")) m_timeline->ShowAll();
        if (ImGui::MenuItem("Expand all processes")) m_timeline->SetAllCollapsed(false);
        if (ImGui::MenuItem("Collapse all processes")) m_timeline->SetAllCollapsed(true);
        if (ImGui::MenuItem("Show hidden tracks")) m_timeline->ShowHiddenTracks();
        ImGui::Separator();
        ImGui::MenuItem("Flows", nullptr, &state.showFlows);
        if (ImGui::BeginMenu("Flow categories")) {
            auto& shown = m_timeline->flowCategoryShown();
            const auto& categories = m_timeline->flowCategories();
            for (size_t i = 0; i < categories.size(); ++i) {
                bool on = shown[i];
                const std::string label(m_model->Name(categories[i]).empty() ? "(no category)" : m_model->Name(categories[i]));
                if (ImGui::MenuItem(label.c_str(), nullptr, &on)) shown[i] = on;
            }
            if (categories.empty()) ImGui::TextDisabled("this trace has no flows");
            ImGui::EndMenu();
        }
        ImGui::MenuItem("Frame time overlay", nullptr, &state.showFrameOverlay);
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("Help")) {
        ImGui::Text("W / S    zoom in / out at the mouse (hold: faster)");
        ImGui::Text("A / D    pan left / right");
        ImGui::Text("wheel    zoom; Shift+wheel or wheel on names: scroll");
        ImGui::Text("drag     pan; Shift+drag: range statistics");
        ImGui::Text("click    select; F: frame selection; Home: everything");
        ImGui::Text("Ctrl+F   search; Enter / Shift+Enter: next / previous");
        ImGui::EndMenu();
    }
    if (m_model) {
        const std::string summary = m_model->path + "  ·  " + std::to_string(m_model->report.eventCount) + " events  ·  " +
                                    FormatDuration(m_model->lastNs - m_model->firstNs);
        ImGui::SameLine(ImGui::GetWindowWidth() - ImGui::CalcTextSize(summary.c_str()).x - 16);
        ImGui::TextDisabled("%s", summary.c_str());
    }
    ImGui::EndMenuBar();
    const ImGuiIO& io = ImGui::GetIO();
    if (io.KeyCtrl && ImGui::IsKeyPressed(GLFW_KEY_O, false)) m_openDialog = true;
    if (io.KeyCtrl && ImGui::IsKeyPressed(GLFW_KEY_Q, false)) glfwSetWindowShouldClose(m_window, 1);
    if (io.KeyCtrl && ImGui::IsKeyPressed(GLFW_KEY_F, false)) m_search.FocusInput();
}

void App::DrawToolbar() {
    ImGui::SetCursorPos(ImVec2(ImGui::GetCursorPosX() + 8, ImGui::GetCursorPosY() + 4));
    m_search.DrawToolbar(*m_timeline);
    ImGui::SameLine(0, 30);
    const ImVec2 legendAt = ImGui::GetCursorScreenPos();
    float x = legendAt.x;
    ImDrawList* draw = ImGui::GetWindowDrawList();
    for (const LegendEntry& entry : kTimeClassLegend) {
        draw->AddRectFilled(ImVec2(x, legendAt.y + 4), ImVec2(x + 12, legendAt.y + 16), PackColor(entry.color), 2.0f);
        draw->AddText(ImVec2(x + 16, legendAt.y + 1), IM_COL32(205, 208, 215, 255), entry.label);
        x += 28 + ImGui::CalcTextSize(entry.label).x;
    }
    draw->AddRectFilled(ImVec2(x, legendAt.y + 4), ImVec2(x + 12, legendAt.y + 16), IM_COL32(120, 120, 130, 255), 2.0f);
    for (float s = 0; s < 12; s += 4)
        draw->AddLine(ImVec2(x + s, legendAt.y + 16), ImVec2(x + s + 4, legendAt.y + 4), IM_COL32(60, 60, 66, 255), 1.5f);
    draw->AddText(ImVec2(x + 16, legendAt.y + 1), IM_COL32(205, 208, 215, 255), "merged slices (zoom in)");
    ImGui::NewLine();
    ImGui::Dummy(ImVec2(0, 2));
}

void App::DrawLoading() {
    const ImVec2 size = ImGui::GetContentRegionAvail();
    ImGui::SetCursorPos(ImVec2(size.x * 0.25f, size.y * 0.4f));
    ImGui::BeginGroup();
    if (m_load.Running()) {
        ImGui::Text("Loading %s", m_load.Path().c_str());
        ImGui::ProgressBar(m_load.Fraction(), ImVec2(size.x * 0.5f, 0), m_load.StageText());
    } else if (!m_loadError.empty()) {
        ImGui::TextColored(ImVec4(1, 0.45f, 0.4f, 1), "Cannot open the trace:");
        ImGui::PushTextWrapPos(size.x * 0.75f);
        ImGui::TextUnformatted(m_loadError.c_str());
        ImGui::PopTextWrapPos();
        if (ImGui::Button("Open another file…")) m_openDialog = true;
    }
    ImGui::EndGroup();
}

void App::DrawSidePanel() {
    const char* tabs[] = {"Details", "Range", "Search", "Import issues"};
    if (ImGui::BeginTabBar("side")) {
        for (int i = 0; i < 4; ++i) {
            std::string label = tabs[i];
            if (i == 3 && m_model->report.problemCount) label += " (" + std::to_string(m_model->report.problemCount) + ")";
            label += "###tab" + std::to_string(i);
            const bool requested = m_sideTab == i;
            if (ImGui::BeginTabItem(label.c_str(), nullptr, requested ? ImGuiTabItemFlags_SetSelected : 0)) {
                switch (i) {
                    case 0: m_details.DrawContents(*m_timeline); break;
                    case 1: m_range.DrawContents(*m_timeline); break;
                    case 2: m_search.DrawContents(*m_timeline); break;
                    default: m_issues.DrawContents(*m_model); break;
                }
                ImGui::EndTabItem();
            }
        }
        m_sideTab = -1;
        ImGui::EndTabBar();
    }
    // A new range selection or search brings its tab forward.
    static bool hadRange = false;
    const bool hasRange = m_timeline->state().hasRange;
    if (hasRange && !hadRange) m_sideTab = 1;
    hadRange = hasRange;
}

void App::DrawOpenDialog() {
    if (m_openDialog) {
        ImGui::OpenPopup("Open a trace");
        m_openDialog = false;
    }
    ImGui::SetNextWindowSize(ImVec2(720, 460), ImGuiCond_Appearing);
    if (!ImGui::BeginPopupModal("Open a trace")) return;
    ImGui::TextDisabled("A Chrome trace (.json, .json.gz) or a profiler folder; or drop it on the window.");
    ImGui::SetNextItemWidth(-90);
    const bool enter = ImGui::InputText("##path", m_openPath, sizeof m_openPath, ImGuiInputTextFlags_EnterReturnsTrue);
    ImGui::SameLine();
    if ((ImGui::Button("Open") || enter) && m_openPath[0]) {
        Open(m_openPath);
        ImGui::CloseCurrentPopup();
    }
    // A small browser of the typed folder.
    std::error_code ignored;
    std::filesystem::path folder = m_openPath[0] ? std::filesystem::path(m_openPath) : std::filesystem::current_path(ignored);
    if (!std::filesystem::is_directory(folder, ignored)) folder = folder.parent_path();
    ImGui::BeginChild("entries", ImVec2(0, -30), true);
    if (ImGui::Selectable("..")) std::snprintf(m_openPath, sizeof m_openPath, "%s", folder.parent_path().string().c_str());
    std::vector<std::filesystem::directory_entry> entries;
    for (std::filesystem::directory_iterator it(folder, std::filesystem::directory_options::skip_permission_denied, ignored), end;
         !ignored && it != end; it.increment(ignored))
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
    const FrameStats& stats = m_timeline->frameStats();
    ImGui::SetNextWindowPos(ImVec2(ImGui::GetIO().DisplaySize.x - kSidePanelWidth - 290, 70));
    ImGui::SetNextWindowBgAlpha(0.8f);
    ImGui::Begin("frame", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoInputs);
    ImGui::Text("frame CPU %.2f ms (timeline %.2f ms)", m_lastCpuMs, stats.cpuMs);
    if (m_boxes.LastGpuMs() >= 0) ImGui::Text("boxes GPU %.3f ms", m_boxes.LastGpuMs());
    else ImGui::TextDisabled("GPU timer queries unavailable");
    ImGui::Text("%zu boxes, %zu labels, %zu flows", stats.boxes, stats.labels, stats.flows);
    ImGui::End();
}

}  // namespace tracelens
