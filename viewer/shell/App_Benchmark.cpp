// The frame benchmark (--frame-benchmark): frames from the whole trace down to 1 µs, then a
// search typed and a range dragged, each frame timed on this thread.
#include <epoxy/gl.h>
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <cfloat>
#include <chrono>
#include <cstdio>
#include <thread>

#include <time.h>

#include "shell/App.hpp"
#include "core/TextFormat.hpp"
#include "rank/TraceSummary.hpp"
#include "timeline/TimelineView.hpp"
#include "views/TimelineTab.hpp"

namespace marey {

namespace {
// CPU time of this thread in ms: with a software rasterizer on the same cores, wall time would
// count the rasterizer's threads too.
double ThreadCpuMs() {
    timespec now{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return static_cast<double>(now.tv_sec) * 1e3 + static_cast<double>(now.tv_nsec) / 1e6;
}
}  // namespace

double App::RenderFrame(float dt, double* presentMs, double* buildWallMs) {
    const auto wallStart = std::chrono::steady_clock::now();
    const double cpuStart = ThreadCpuMs();
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::GetIO().MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
    ImGui::NewFrame();
    Frame(dt);
    ImGui::Render();
    const double cpuMs = ThreadCpuMs() - cpuStart;
    const auto built = std::chrono::steady_clock::now();
    if (buildWallMs)
        *buildWallMs = std::chrono::duration<double, std::milli>(built - wallStart).count();
    int width, height;
    glfwGetFramebufferSize(m_window, &width, &height);
    glViewport(0, 0, width, height);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    glfwSwapBuffers(m_window);
    glFinish();
    *presentMs =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - built).count();
    return cpuMs;
}

int App::RunFrameBenchmark() {
    while (m_workspace.loads().Busy()) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        TakeLoadedDocuments();
    }
    if (ActiveCluster()) return RunClusterFrameBenchmark();
    Document* document = ActiveDocument();
    if (!document) {
        for (const std::string& error : m_workspace.errors())
            std::fprintf(stderr, "%s\n", error.c_str());
        return 1;
    }
    const TraceModel* model = &document->model();
    TimelineView* timeline = TimelineOf(*document);
    std::printf("frame benchmark: %s, %llu events, %d x %d px, GL renderer: %s\n",
                document->ranks ? document->Title().c_str() : model->Path().c_str(),
                static_cast<unsigned long long>(model->report.eventCount), m_options.width,
                m_options.height, reinterpret_cast<const char*>(glGetString(GL_RENDERER)));
    std::printf(
        "  frame CPU: this thread's CPU time for input, level-of-detail queries, instance buffer "
        "and ImGui\n"
        "  GL draw + present: submission, swap and glFinish (with llvmpipe this is rasterizing on "
        "the CPU);\n"
        "  boxes GPU: the instanced draw call, by timer query. 40 random windows per zoom.\n");
    double presentMs = 0;
    for (int i = 0; i < 5; ++i)
        RenderFrame(kScriptedFrameDt, &presentMs);  // warm up: fonts, buffers
    const double span =
        std::max<double>(1000.0, static_cast<double>(model->lastNs - model->firstNs));
    uint64_t seed = 12345;
    auto zoomLevels = [&] {
        std::printf("  %-14s %28s %26s %12s %8s\n", "window", "frame CPU median / p95",
                    "GL draw + present median", "boxes GPU", "boxes");
        for (double window = span; window >= 999.0; window /= 10.0) {
            std::vector<double> cpu, present, gpu;
            size_t boxes = 0;
            constexpr int kFrames = 40;
            for (int f = 0; f < kFrames; ++f) {
                seed = seed * 6364136223846793005ull + 1442695040888963407ull;
                const double start = window >= span ? 0.0
                                                    : static_cast<double>(seed >> 11) /
                                                          9007199254740992.0 * (span - window);
                timeline->ShowRange(start, start + window, false);
                cpu.push_back(RenderFrame(kScriptedFrameDt, &presentMs));
                present.push_back(presentMs);
                boxes = std::max(boxes, timeline->frameStats().boxes);
                if (m_boxes.LastGpuMs() >= 0) gpu.push_back(m_boxes.LastGpuMs());
            }
            std::sort(cpu.begin(), cpu.end());
            std::sort(present.begin(), present.end());
            std::sort(gpu.begin(), gpu.end());
            char gpuText[32] = "n/a";
            if (!gpu.empty())
                std::snprintf(gpuText, sizeof gpuText, "%.3f ms", gpu[gpu.size() / 2]);
            std::printf("  %-14s %12.2f ms / %8.2f ms %23.2f ms %12s %8zu\n",
                        FormatDuration(static_cast<TimeNs>(window)).c_str(), cpu[cpu.size() / 2],
                        cpu[cpu.size() * 95 / 100], present[present.size() / 2], gpuText, boxes);
            std::fflush(stdout);
            if (window < 1999.0) break;
        }
    };
    if (document->ranks)
        std::printf("  as opened (folded to each rank's or process's busy strip):\n");
    zoomLevels();
    if (document->ranks) {
        // Several ranks: the same windows with every rank and process unfolded, scrolled to the
        // top.
        timeline->SetGroupsCollapsed(false);
        timeline->SetAllCollapsed(false);
        std::printf("  every rank and process unfolded:\n");
        zoomLevels();
    }
    BenchmarkInteractions(*document);
    return 0;
}

// Every cluster view in turn, 60 frames each: the step table sorted by another column every 10
// frames, the matrix zoomed from the whole matrix into a corner and panned, the other views as
// they are drawn.
int App::RunClusterFrameBenchmark() {
    ClusterDocument& cluster = *ActiveCluster();
    std::printf(
        "cluster frame benchmark: %s, %zu ranks, %zu steps, %zu links, %d x %d px, GL renderer: "
        "%s\n",
        cluster.cluster.root.c_str(), cluster.cluster.ranks.size(), cluster.cluster.steps.size(),
        cluster.report.matrix.size(), m_options.width, m_options.height,
        reinterpret_cast<const char*>(glGetString(GL_RENDERER)));
    std::printf(
        "  frame CPU: this thread's CPU time to build the frame (ImGui, tables, charts, the "
        "matrix's instances);\n"
        "  the matrix of another metric or operator is built off this thread and shown when "
        "ready\n");
    const std::vector<const ViewEntry*> views = ViewsOf(ViewScope::kCluster);
    double presentMs = 0;
    for (size_t v = 0; v < views.size(); ++v) {
        m_mainTab = static_cast<int>(v);
        for (int i = 0; i < 4; ++i)
            RenderFrame(kScriptedFrameDt, &presentMs);  // the tab switches, caches fill
        // The first matrix and the Marey view's step are built off this thread: wait, then measure.
        View& view = *cluster.views[v];
        view.Wait();
        std::vector<double> cpu, present;
        size_t instances = 0;
        constexpr int kFrames = 60;
        for (int f = 0; f < kFrames; ++f) {
            view.BenchmarkFrame(f, kFrames);
            if (std::string(views[v]->name) != "steps" && std::string(views[v]->name) != "marey" &&
                f % 20 == 10)
                cluster.selection.step =
                    StepIndex((ValueOr(cluster.selection.step, -1) + 2) %
                              std::max<int>(1, static_cast<int>(cluster.cluster.steps.size())));
            cpu.push_back(RenderFrame(kScriptedFrameDt, &presentMs));
            present.push_back(presentMs);
            instances = std::max(instances, m_boxes.Count());
        }
        std::sort(cpu.begin(), cpu.end());
        std::sort(present.begin(), present.end());
        std::printf(
            "  %-28s frame CPU median %6.2f ms, p95 %6.2f ms, max %6.2f ms; GL draw + present "
            "median %6.2f ms%s\n",
            views[v]->title, cpu[cpu.size() / 2], cpu[cpu.size() * 95 / 100], cpu.back(),
            present[present.size() / 2],
            std::string(views[v]->name) == "matrix"
                ? (", up to " + std::to_string(instances) + " cell instances").c_str()
            : std::string(views[v]->name) == "marey"
                ? (", " + std::to_string(m_marey.Count()) + " bar and band instances").c_str()
                : "");
        std::fflush(stdout);
        cluster.selection.step.reset();
    }
    return 0;
}

// Frames while a person types a search and drags a range over the whole trace: both run off
// the UI thread, so no frame may wait for a whole-trace scan.
void App::BenchmarkInteractions(Document& document) {
    TimelineView& timeline = *TimelineOf(document);
    TimelineTab* tab = nullptr;
    for (const auto& view : document.views)
        if (!tab) tab = dynamic_cast<TimelineTab*>(view.get());
    if (!tab) return;
    timeline.ShowAll();
    // CPU time, and wall time too: a frame that waited for the background would show only there.
    std::vector<double> cpu, wall;
    auto frame = [&] {
        double presentMs = 0, wallMs = 0;
        cpu.push_back(RenderFrame(kScriptedFrameDt, &presentMs, &wallMs));
        wall.push_back(wallMs);
    };
    auto report = [&](const char* what) {
        std::sort(cpu.begin(), cpu.end());
        std::sort(wall.begin(), wall.end());
        std::printf("  %-34s frame CPU median %.2f ms, max %.2f ms; wall max %.2f ms; %zu frames\n",
                    what, cpu[cpu.size() / 2], cpu.back(), wall.back(), cpu.size());
        cpu.clear();
        wall.clear();
    };
    const std::string query = "aten::matmul";
    for (size_t typed = 1; typed <= query.size(); ++typed) {
        tab->search().TypeQuery(query.substr(0, typed));
        for (int i = 0; i < 3; ++i) frame();
    }
    while (tab->search().Searching()) frame();
    report("typing a search (12 keys)");
    std::printf("  %-34s %llu matches\n", "",
                static_cast<unsigned long long>(timeline.search().Count()));

    ViewState& state = timeline.state();
    state.rangeTracks.clear();
    for (const Process& process : document.model().processes)
        for (uint32_t track : process.tracks) state.rangeTracks.push_back(track);
    state.hasRange = true;
    tab->ShowPanel(1);
    const TimeNs span = document.model().lastNs - document.model().firstNs;
    constexpr int kDragFrames = 60;
    for (int i = 1; i <= kDragFrames; ++i) {
        state.rangeStartNs = 0;
        state.rangeEndNs = span * i / kDragFrames;
        frame();
    }
    while (tab->range().Computing()) frame();
    report("dragging a range over every track");
}

}  // namespace marey
