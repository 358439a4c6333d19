#include "shell/App.hpp"

#include <epoxy/gl.h>
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <algorithm>
#include <atomic>
#include <cfloat>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "base/Colors.hpp"
#include "shell/HelpWindow.hpp"
#include "shell/KeyReleaseHold.hpp"
#include "base/SettingsFolder.hpp"
#include "cluster/ClusterFolder.hpp"
#include "core/TextFormat.hpp"
#include "panels/TextWrap.hpp"
#include "render/Screenshot.hpp"
#include "rank/TraceSummary.hpp"
#include "timeline/TimelineView.hpp"

namespace marey {
// [SECTION] Window callbacks, recent files, style

namespace {

constexpr double kIdleWakeSeconds = 1.0;  // an idle window looks for background work now and then
// While only a load's progress moves, a frame now and then is enough: drawing flat out would take
// a core from the load (all of one under a software renderer).
constexpr double kProgressFrameSeconds = 0.05;
constexpr int kFramesAfterInput = 3;

constexpr int kMaxScriptedFrames = 20000;

std::string RecentFile() {
    return SettingsFilePath("recent.txt");
}

App* g_app = nullptr;

// Counts what wakes the window: input, resizes, exposure. Installed before ImGui's backend,
// which calls them from its own callbacks.
int g_windowEvents = 0;

// Whether GLFW runs: a loading thread that ends after the window closed must not wake it.
std::atomic<bool> g_glfwRunning{false};

void DropCallback(GLFWwindow*, int count, const char** paths) {
    ++g_windowEvents;
    if (g_app && count > 0) g_app->Open(paths[0]);
}

KeyReleaseHold g_keyReleases;

void KeyCallback(GLFWwindow* window, int key, int scancode, int action, int mods) {
    if (g_keyReleases.Hold(key, scancode, action, mods)) {
        ++g_windowEvents;
        return;
    }
    ImGui_ImplGlfw_KeyCallback(window, key, scancode, action, mods);
}

// Before a frame: the releases held back from the frame before reach ImGui now.
void ReleaseHeldKeys(GLFWwindow* window) {
    for (const KeyRelease& r : g_keyReleases.StartFrame())
        ImGui_ImplGlfw_KeyCallback(window, r.key, r.scancode, GLFW_RELEASE, r.mods);
}

void CountEvents(GLFWwindow* window) {
    glfwSetKeyCallback(window, [](GLFWwindow*, int, int, int, int) { ++g_windowEvents; });
    glfwSetCharCallback(window, [](GLFWwindow*, unsigned) { ++g_windowEvents; });
    glfwSetMouseButtonCallback(window, [](GLFWwindow*, int, int, int) { ++g_windowEvents; });
    glfwSetCursorPosCallback(window, [](GLFWwindow*, double, double) { ++g_windowEvents; });
    glfwSetCursorEnterCallback(window, [](GLFWwindow*, int) { ++g_windowEvents; });
    glfwSetScrollCallback(window, [](GLFWwindow*, double, double) { ++g_windowEvents; });
    glfwSetWindowFocusCallback(window, [](GLFWwindow*, int) { ++g_windowEvents; });
    glfwSetWindowSizeCallback(window, [](GLFWwindow*, int, int) { ++g_windowEvents; });
    glfwSetWindowRefreshCallback(window, [](GLFWwindow*) { ++g_windowEvents; });
}

}  // namespace

// [SECTION] Start, stop, open

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
    const bool headless = !m_options.screenshotPath.empty() || m_options.frameBenchmark;
    m_workspace.loads().SetRankSource(m_options.source);
    // A timeline or document ready wakes a window that waits: it is drawn at once.
    g_glfwRunning = true;
    m_workspace.loads().SetWake([] {
        if (g_glfwRunning) glfwPostEmptyEvent();
    });
    m_workspace.loads().SetStepRange(m_options.stepRange);
    m_workspace.loads().SetExportJobsAsClusters(!IsClusterPath(m_options.path) &&
                                                m_options.opensAsCluster);
    m_workspace.loads().SetIndexCache(m_options.cache);
    if (!headless) m_layout = LayoutSettings::Load(LayoutSettings::DefaultPath());
    int width = m_options.width, height = m_options.height;
    if (!headless && !m_options.sizeGiven) {
        if (m_layout.windowWidth > 0) {
            width = m_layout.windowWidth, height = m_layout.windowHeight;
        } else if (const GLFWvidmode* mode = glfwGetVideoMode(glfwGetPrimaryMonitor())) {
            // The first run: most of the screen, whatever its size.
            width = std::max(800, mode->width * 9 / 10),
            height = std::max(500, mode->height * 85 / 100);
        }
    }
    m_window = glfwCreateWindow(width, height, "marey", nullptr, nullptr);
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
    ApplyViewerStyle();
    m_fonts = LoadFonts(15.0f);
    CountEvents(m_window);
    ImGui_ImplGlfw_InitForOpenGL(m_window, true);
    glfwSetKeyCallback(m_window, KeyCallback);  // in front of ImGui's, which it calls
    ImGui_ImplOpenGL3_Init("#version 330 core");
    g_app = this;
    glfwSetDropCallback(m_window, DropCallback);
    if (!m_boxes.Init(error) || !m_boxesB.Init(error) || !m_marey.Init(error)) return false;
    std::ifstream recent(RecentFile());
    for (std::string line; std::getline(recent, line);)
        if (!line.empty()) m_recent.push_back(line);
    return true;
}

void App::Shutdown() {
    if (m_options.screenshotPath.empty() && !m_options.frameBenchmark) {
        glfwGetWindowSize(m_window, &m_layout.windowWidth, &m_layout.windowHeight);
        m_layout.Save(LayoutSettings::DefaultPath());
    }
    m_boxes.Release();
    m_boxesB.Release();
    m_marey.Release();
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    g_glfwRunning = false;
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
    const DocumentId id = m_workspace.Open(path);
    if (m_openToCompare && ActiveDocument()) {
        m_workspace.Compare(*m_active, id);
        m_comparisonTab = true;
        m_selectDocumentTab = 2;
        m_mainTab = 0;
    } else {
        m_activateWhenLoaded = id;
    }
    m_openToCompare = false;
}

// [SECTION] Documents loaded, requests of the views, the command line

bool App::WaitForEvents(bool scripted) {
    // Nothing moves unless something changed: a person's input wakes the loop, and work in the
    // background (or a key held) keeps it drawing. Idle, the window costs no CPU. Input, however
    // it arrives, gets frames to settle: a release met while drawing already (after a long press)
    // opens a popup that must still be drawn.
    const FrameNeed need = NextFrameNeed();
    const int eventsBefore = g_windowEvents;
    if (need == FrameNeed::kSoon) {
        glfwWaitEventsTimeout(kProgressFrameSeconds);
    } else if (scripted || need == FrameNeed::kNow) {
        glfwPollEvents();
    } else {
        glfwWaitEventsTimeout(kIdleWakeSeconds);
        if (g_windowEvents == eventsBefore && NextFrameNeed() == FrameNeed::kNone) return false;
        m_framesAfterInput = kFramesAfterInput;  // woken by input or background work
    }
    if (g_windowEvents != eventsBefore) m_framesAfterInput = kFramesAfterInput;
    return true;
}

App::FrameNeed App::NextFrameNeed() {
    if (NeedsAnotherFrame()) return FrameNeed::kNow;
    return m_workspace.loads().Busy() ? FrameNeed::kSoon : FrameNeed::kNone;
}

bool App::NeedsAnotherFrame() {
    if (g_keyReleases.Holding()) return true;
    // A view tab asked for (--view, a rank opened on a view) takes ImGui two frames to lay out
    // and select: an idle window would show the frame in between, with no tabs drawn.
    if (m_mainTab >= 0 && (ShowingComparison() || ActiveDocument() || ActiveCluster())) return true;
    if (m_framesAfterInput > 0) {
        --m_framesAfterInput;  // ImGui settles hover and layout a frame or two after an event
        return true;
    }
    const ImGuiIO& io = ImGui::GetIO();
    for (const bool down : io.MouseDown)
        if (down) return true;
    for (const int key : {GLFW_KEY_W, GLFW_KEY_A, GLFW_KEY_S, GLFW_KEY_D})
        if (ImGui::IsKeyDown(key)) return true;  // held keys move the view every frame
    // While the diff runs, and the frames after it: the last frame drawn must show its result,
    // not "computing the diff…".
    if (ComparisonPair* pair = m_workspace.comparison();
        pair && pair->diff.valid() && !pair->Ready()) {
        m_diffRunning = true;
        return true;
    }
    if (m_diffRunning) {
        m_diffRunning = false;
        m_framesAfterInput = kFramesAfterInput;
        return true;
    }
    return AnyViewBusy(m_workspace);
}

bool App::ShowingComparison() {
    ComparisonPair* pair = m_workspace.comparison();
    return m_comparisonTab && pair && m_workspace.Find(pair->a) && m_workspace.Find(pair->b);
}

void App::TakeLoadedDocuments() {
    const std::vector<DocumentId> opened = m_workspace.Poll();
    AttachViews(m_workspace);
    // New tabs, or views that analyses just filled, settle before the window idles.
    if (!opened.empty() || m_workspace.TakeAnalysesArrived())
        m_framesAfterInput = kFramesAfterInput;
    for (const DocumentId id : opened) {
        Document* document = m_workspace.Find(id);
        ClusterDocument* cluster = m_workspace.FindCluster(id);
        if (!document || !document->ranks)
            RememberRecent(document ? document->rank.path : cluster->cluster.root);
        if (id == m_activateWhenLoaded || !m_active) {
            m_active = id;
            if (!m_comparisonTab) m_selectDocumentTab = 2;
            glfwSetWindowTitle(
                m_window,
                ("marey — " + (document ? document->Source() : cluster->cluster.root)).c_str());
            if (id == m_activateWhenLoaded && !m_viewWhenLoaded.empty()) {
                const std::vector<const ViewEntry*> views = ViewsOf(ScopeOf(document));
                for (size_t i = 0; i < views.size(); ++i)
                    if (m_viewWhenLoaded == views[i]->name) m_mainTab = static_cast<int>(i);
                m_viewWhenLoaded.clear();
            }
            if (id == m_activateWhenLoaded && document &&
                m_requestWhenLoaded.kind != TimelineRequest::kNone) {
                m_requestWhenLoaded.document = id;
                ApplyRequest(m_requestWhenLoaded);
                m_requestWhenLoaded = TimelineRequest();
            }
        }
        if (!m_commandLineApplied && document) {
            ApplyCommandLineSelection(*document);
            m_commandLineApplied = true;
        }
        if (!m_commandLineApplied && cluster) {
            ApplyCommandLineSelection(*cluster);
            m_commandLineApplied = true;
        }
    }
}

// --step and --rank name a step and a rank of the cluster; one it lacks is said, never ignored.
void App::ApplyCommandLineSelection(ClusterDocument& cluster) {
    const std::vector<std::string>& steps = cluster.cluster.steps;
    if (!m_options.step.empty()) {
        const auto it = std::find(steps.begin(), steps.end(), m_options.step);
        if (it != steps.end()) {
            cluster.selection.step = StepIndex(static_cast<int>(it - steps.begin()));
        } else {
            std::fprintf(stderr,
                         "marey: --step %s: not a step of this cluster (%s); showing the average "
                         "over steps\n",
                         m_options.step.c_str(),
                         steps.empty()
                             ? "it has no steps"
                             : ("steps " + steps.front() + " to " + steps.back()).c_str());
            m_commandLineRejected = true;
        }
    }
    if (m_options.rank) {
        if (cluster.cluster.IndexOfRank(*m_options.rank)) {
            SelectRank(cluster, *m_options.rank);
        } else {
            std::fprintf(
                stderr, "marey: --rank %d: not a rank of this cluster (%zu ranks, ids %d to %d)\n",
                m_options.rank->value(), cluster.cluster.ranks.size(),
                cluster.cluster.ranks.empty() ? 0 : cluster.cluster.ranks.front().Id().value(),
                cluster.cluster.ranks.empty() ? 0 : cluster.cluster.ranks.back().Id().value());
            m_commandLineRejected = true;
        }
    }
}

std::optional<DocumentId> App::FirstOpen() const {
    if (!m_workspace.documents().empty()) return m_workspace.documents().front()->id;
    if (!m_workspace.clusters().empty()) return m_workspace.clusters().front()->id;
    return std::nullopt;
}

void App::ApplyClusterRequest(const ClusterRequest& request) {
    const ClusterDocument* cluster =
        request.cluster ? m_workspace.FindCluster(*request.cluster) : nullptr;
    if (request.kind == ClusterRequest::kNone || !cluster) return;
    bool unreachable = false;  // a rank's path was said to be out of reach
    // A rank's folder as its cluster records it; empty (and said) when this machine cannot reach
    // it: a summary gathered on the cluster's nodes names their paths, not this machine's.
    auto pathOf = [&](std::optional<RankId> rankId) {
        const std::optional<size_t> index =
            rankId ? cluster->cluster.IndexOfRank(*rankId) : std::nullopt;
        std::string path = index ? cluster->cluster.ranks[*index].path : std::string();
        std::error_code error;
        if (!path.empty() && !std::filesystem::exists(path, error)) {
            m_workspace.Notify(cluster->cluster.root,
                               "rank " + std::to_string(rankId->value()) + ": " + path +
                                   ", where this cluster says its files are, cannot be reached "
                                   "from this machine");
            path.clear();
            unreachable = true;
        }
        return path;
    };
    if (request.kind == ClusterRequest::kOpenRanksInOneTimeline) {
        std::vector<std::string> paths;
        for (const RankId rank : request.ranks)
            if (const std::string path = pathOf(rank); !path.empty()) paths.push_back(path);
        if (paths.empty()) {
            m_workspace.Notify(cluster->cluster.root, "none of the ranks asked for has a folder");
            return;
        }
        m_activateWhenLoaded = m_workspace.OpenRanks(paths, request.alignStep);
        m_viewWhenLoaded = "timeline";
        m_comparisonTab = false;
        return;
    }
    const std::string a = pathOf(request.rankA);
    if (a.empty()) {
        if (request.rankA && !unreachable)
            m_workspace.Notify(cluster->cluster.root, "rank " +
                                                          std::to_string(request.rankA->value()) +
                                                          " has no folder in this cluster");
        return;
    }
    if (request.kind == ClusterRequest::kOpenRank) {
        // A rank opened before is shown again, not loaded twice; a range asked for is shown in
        // its timeline once it is there.
        TimelineRequest range;
        if (request.endNs > request.startNs) {
            range.kind = TimelineRequest::kShowRange;
            range.startNs = request.startNs, range.endNs = request.endNs;
            range.label = request.label;
        }
        const DocumentId id = m_workspace.OpenOnce(a);
        if (Document* open = m_workspace.Find(id)) {
            m_active = open->id;
            m_comparisonTab = false;
            m_selectDocumentTab = 2;
            const std::vector<const ViewEntry*> views = ViewsOf(ViewScope::kDocument);
            for (size_t i = 0; i < views.size(); ++i)
                if (request.view == views[i]->name) m_mainTab = static_cast<int>(i);
            if (range.kind != TimelineRequest::kNone) range.document = id, ApplyRequest(range);
            return;
        }
        m_activateWhenLoaded = id;
        m_viewWhenLoaded = request.view;
        m_requestWhenLoaded = range;
        return;
    }
    const std::string b = pathOf(request.rankB);
    if (b.empty()) {
        if (request.rankB && !unreachable)
            m_workspace.Notify(cluster->cluster.root, "rank " +
                                                          std::to_string(request.rankB->value()) +
                                                          " has no folder in this cluster");
        return;
    }
    m_workspace.Compare(m_workspace.OpenOnce(a), m_workspace.OpenOnce(b));
    m_comparisonTab = true;
    m_selectDocumentTab = 2;
    m_mainTab = 0;
}

void App::ApplyCommandLineSelection(Document& document) {
    TimelineView& timeline = *TimelineOf(document);
    auto send = [&](TimelineRequest::Kind kind, const std::string& label) {
        TimelineRequest request;
        request.kind = kind;
        request.document = document.id;
        request.label = label;
        SendToViews(document, request);
    };
    if (m_options.panel == "range" || m_options.panel == "search" || m_options.panel == "issues")
        send(TimelineRequest::kShowPanel, m_options.panel);
    // --ranks with --step N: a step no rank marks leaves each rank on its own clock; said.
    if (document.ranks && !m_options.step.empty() && m_options.step != kAlignOnClock &&
        document.ranks->alignedStep != m_options.step) {
        const std::vector<std::string>& steps = document.ranks->steps;
        std::fprintf(stderr,
                     "marey: --step %s: no rank marks ProfilerStep#%s (%s); each rank "
                     "keeps its own clock\n",
                     m_options.step.c_str(), m_options.step.c_str(),
                     steps.empty()
                         ? "they share no step"
                         : ("steps they share: " + steps.front() + " to " + steps.back()).c_str());
        m_commandLineRejected = true;
    }
    const TimeNs traceMs = (document.model().lastNs - document.model().firstNs) / 1000000;
    if (m_options.rangeFromMs >= 0 && m_options.rangeFromMs > static_cast<double>(traceMs)) {
        std::fprintf(stderr, "marey: --range %g,%g: starts after the trace ends (%lld ms long)\n",
                     m_options.rangeFromMs, m_options.rangeToMs, static_cast<long long>(traceMs));
        m_commandLineRejected = true;
    }
    if (!m_options.search.empty()) {
        send(TimelineRequest::kSearch, m_options.search);
        if (m_options.panel.empty()) send(TimelineRequest::kShowPanel, "details");
    }
    if (m_options.rangeFromMs >= 0 && m_options.rangeToMs > m_options.rangeFromMs) {
        ViewState& state = timeline.state();
        state.hasRange = true;
        state.rangeStartNs = static_cast<TimeNs>(m_options.rangeFromMs * 1e6);
        state.rangeEndNs = static_cast<TimeNs>(m_options.rangeToMs * 1e6);
        state.rangeTracks.clear();
        for (const Process& process : document.model().processes)
            for (uint32_t track : process.tracks) state.rangeTracks.push_back(track);
        timeline.ShowRange(static_cast<double>(state.rangeStartNs),
                           static_cast<double>(state.rangeEndNs), true);
        send(TimelineRequest::kShowPanel, "range");
    }
}

// Scripted keys play once everything asked for is on screen: every load done and, for a
// comparison, its diff (and so its alignment) ready.
bool App::ReadyForScript() {
    if (m_workspace.loads().Busy() || m_workspace.OpenCount() == 0) return false;
    if (AnyViewBusy(m_workspace)) return false;
    if (!m_options.comparePath.empty()) {
        ComparisonPair* pair = m_workspace.comparison();
        return pair && pair->Ready();
    }
    return true;
}

// The selected slice of a comparison's half, its process and track, and whether that track is
// on screen: "selected_b NAME | PROCESS | TRACK | on screen".
static void PrintSelected(const char* label, Document& document) {
    const TimelineView& timeline = *TimelineOf(document);
    const SliceRef& slice = timeline.state().selected;
    if (!slice.valid()) return;
    const TraceModel& model = document.model();
    const Track& track = model.tracks[slice.track];
    std::printf("%s %s | %s | %s | %s\n", label,
                std::string(model.Name(timeline.SliceName(slice))).c_str(),
                std::string(model.Name(model.processes[track.process].name)).c_str(),
                std::string(model.Name(track.name)).c_str(),
                timeline.TrackOnScreen(slice.track) ? "on screen" : "off screen");
}

void App::PrintViews() {
    for (const LoadNotice& notice : m_workspace.notices())
        std::printf("notice %s\n", notice.Text().c_str());
    auto print = [](const char* label, Document& document) {
        const ViewState& view = TimelineOf(document)->state();
        std::printf(
            "%s %lld %lld\n", label,
            static_cast<long long>(document.model().firstNs +
                                   static_cast<TimeNs>(view.viewStartNs)),
            static_cast<long long>(document.model().firstNs + static_cast<TimeNs>(view.viewEndNs)));
    };
    // The view shown, by its --view name, for the tests of coming back to a document.
    const std::vector<const ViewEntry*> shown =
        ViewsOf(ShowingComparison() ? ViewScope::kComparison
                                    : ScopeOf(ActiveCluster() ? nullptr : ActiveDocument()));
    const size_t tab =
        static_cast<size_t>(LastViewOf(ShowingComparison() ? std::nullopt : m_active));
    if (tab < shown.size()) std::printf("tab %s\n", shown[tab]->name);
    ComparisonPair* pair = m_workspace.comparison();
    if (ShowingComparison()) {
        print("view", *m_workspace.Find(pair->a));
        print("view_b", *m_workspace.Find(pair->b));
        PrintSelected("selected", *m_workspace.Find(pair->a));
        PrintSelected("selected_b", *m_workspace.Find(pair->b));
        if (const Comparison* comparison = pair->Ready())
            std::printf("offset %lld\n",
                        static_cast<long long>(comparison->diff.alignment.offsetNs));
        return;
    }
    if (ClusterDocument* cluster = ActiveCluster()) {
        std::printf(
            "cluster ranks %zu steps %zu groups %zu slow_ranks %zu slow_links %zu step %d rank "
            "%d\n",
            cluster->cluster.ranks.size(), cluster->cluster.steps.size(),
            cluster->cluster.groups.size(), cluster->report.slowRanks.size(),
            cluster->report.slowLinks.size(), ValueOr(cluster->selection.step, -1),
            ValueOr(cluster->selection.rank, -1));
        return;
    }
    Document& document = *ActiveDocument();
    print("view", document);
    if (document.ranks) {
        // Each rank's label and the shift that aligned it, for the tests of several ranks in one
        // timeline.
        std::printf("ranks %zu aligned %s", document.model().groups.size(),
                    document.ranks->alignedStep.empty() ? kAlignOnClock
                                                        : document.ranks->alignedStep.c_str());
        for (const ProcessGroup& group : document.model().groups)
            std::printf(" [%s %lld]", group.label.c_str(), static_cast<long long>(group.shiftNs));
        std::printf("\n");
    }
    TimelineView& timeline = *TimelineOf(document);
    const FrameStats& stats = timeline.frameStats();
    std::printf("boxes %zu labels %zu flows %zu cpu_ms %.3f\n", stats.boxes, stats.labels,
                stats.flows, stats.cpuMs);
    const SearchIndex& search = timeline.search();
    const SliceRef selected = timeline.state().selected;
    std::printf("search %llu selected %lld panel %s help %d\n",
                static_cast<unsigned long long>(search.Active() ? search.Count() : 0),
                static_cast<long long>(selected.valid() ? timeline.SliceStart(selected) : -1),
                SidePanelOf(document), m_showHelp ? 1 : 0);
}

// [SECTION] The loop

int App::Run(const ViewerOptions& options) {
    m_options = options;
    std::string error;
    if (!Init(&error)) {
        std::fprintf(stderr, "marey: %s\n", error.c_str());
        return 1;
    }
    KeyScript script;
    if (!script.Parse(options.keys, &error)) {
        std::fprintf(stderr, "marey: %s\n", error.c_str());
        Shutdown();
        return 2;
    }
    if (!options.ranks.empty()) {
        m_activateWhenLoaded = m_workspace.OpenRanks(options.ranks, options.step);
    } else if (!options.comparePath.empty()) {
        m_workspace.OpenComparison(options.path, options.comparePath);
        m_comparisonTab = true;
        m_selectDocumentTab = 2;
    } else {
        Open(options.path);
    }
    const ViewScope scope = !options.ranks.empty()         ? ViewScope::kRanks
                            : !options.comparePath.empty() ? ViewScope::kComparison
                            : options.opensAsCluster       ? ViewScope::kCluster
                                                           : ViewScope::kDocument;
    const std::vector<const ViewEntry*> views = ViewsOf(scope);
    for (size_t i = 0; i < views.size(); ++i)
        if (options.view == views[i]->name) m_mainTab = static_cast<int>(i);
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
        ReleaseHeldKeys(m_window);
        if (!WaitForEvents(scripted)) continue;  // woke for nothing
        const auto now = std::chrono::steady_clock::now();
        const float dt = scripted
                             ? kScriptedFrameDt
                             : std::min(0.1f, std::chrono::duration<float>(now - last).count());
        last = now;
        TakeLoadedDocuments();
        const bool ready = ReadyForScript();
        // Scripted keys play once the trace is on screen, through GLFW's key callback path.
        if (scripted && ready && settleFrames == 0 && !script.Step(m_window)) settleFrames = -1;
        const auto cpuStart = std::chrono::steady_clock::now();
        ImGui_ImplOpenGL3_NewFrame();
        ImGui_ImplGlfw_NewFrame();
        // Headless runs take the script's mouse, not wherever the X server left its pointer, and
        // its fixed frame time: a scripted double-click is one however slow the frames.
        if (scripted) ImGui::GetIO().DeltaTime = kScriptedFrameDt;
        if (scripted) script.ApplyMouse(ImGui::GetIO());
        ImGui::NewFrame();
        Frame(dt);
        ImGui::Render();
        m_lastCpuMs =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - cpuStart)
                .count();
        int width, height;
        glfwGetFramebufferSize(m_window, &width, &height);
        glViewport(0, 0, width, height);
        glClearColor(0.08f, 0.09f, 0.10f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
        if (scripted) {
            const bool failed = !m_workspace.loads().Busy() &&
                                (m_workspace.OpenCount() == 0 ||
                                 (!options.comparePath.empty() && !m_workspace.comparison()));
            if (ready && settleFrames > 0) --settleFrames;
            // After the keys (settleFrames == -1), two more frames let hover and layout settle.
            if ((ready && settleFrames < 0 && --settleFrames < -3) || failed) {
                const bool written = WriteScreenshot(options.screenshotPath, width, height, &error);
                if (!written) std::fprintf(stderr, "marey: %s\n", error.c_str());
                if (failed) {
                    for (const std::string& message : m_workspace.errors())
                        std::fprintf(stderr, "%s\n", message.c_str());
                    exitCode = 1;
                } else {
                    PrintViews();
                    if (m_commandLineRejected)
                        exitCode = 2;  // the picture is not of what was asked
                }
                if (!written) exitCode = 2;  // asked for a file and got none
                break;
            }
            if (frame > kMaxScriptedFrames) {
                std::fprintf(stderr, "marey: gave up waiting for the trace to load\n");
                exitCode = 1;
                break;
            }
        }
        glfwSwapBuffers(m_window);
        ReportDrawnFrame();
    }
    Shutdown();
    return exitCode;
}

void App::ReportDrawnFrame() {
    if (m_analysesReported || m_workspace.documents().empty()) return;
    const Document& document = *m_workspace.documents().front();
    const auto sinceModel = [&] {
        return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() -
                                                         document.modelReadyAt)
            .count();
    };
    char line[160];
    if (!m_firstFrameReported) {
        m_firstFrameReported = true;
        std::snprintf(line, sizeof line,
                      "window: first frame of the document, %.1f ms after its model", sinceModel());
        m_timing.Report(line);
    }
    if (!document.analysisPending) {
        m_analysesReported = true;
        std::snprintf(line, sizeof line, "window: analyses drawn, %.1f ms after the model",
                      sinceModel());
        m_timing.Report(line);
    }
}

void App::Frame(float dt) {
    // Every document, cluster and comparison has its views (a comparison may have been made
    // again); background work finished shows whichever view is shown.
    AttachViews(m_workspace);
    UpdateViews(m_workspace);
    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(viewport->WorkPos);
    ImGui::SetNextWindowSize(viewport->WorkSize);
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0, 0));
    ImGui::Begin("marey", nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                     ImGuiWindowFlags_MenuBar | ImGuiWindowFlags_NoBringToFrontOnFocus |
                     ImGuiWindowFlags_NoScrollWithMouse);
    ImGui::PopStyleVar();
    DrawMenuBar();
    DrawLoads();
    if (m_workspace.OpenCount() > 0) {
        // One document alone needs no bar: the window's title and the menu bar name it.
        if (m_workspace.OpenCount() > 1 || m_workspace.comparison()) DrawDocumentBar();
        if (ShowingComparison() || ActiveDocument() || ActiveCluster()) DrawViewTabs(dt);
    }
    ImGui::End();
    // After the views are drawn: they hold pointers into the diff that this replaces.
    if (std::optional<ComparisonOptions> options = std::exchange(m_recompare, std::nullopt))
        m_workspace.Recompare(*options);
    DrawOpenDialog();
    if (m_showHelp) DrawHelp(&m_showHelp);
    if (!ShowingComparison() && ActiveDocument() && TimelineOf(*ActiveDocument()) &&
        TimelineOf(*ActiveDocument())->state().showFrameOverlay)
        DrawFrameOverlay();
}

// Every running load with its progress and a Cancel button; the errors of loads that failed.
// Centred while nothing is open yet, a strip above the documents otherwise.
// [SECTION] Loads, document bar, view tabs

void App::DrawLoads() {
    const std::vector<LoadStatus> running = m_workspace.loads().Running();
    const bool alone = m_workspace.OpenCount() == 0;
    if (running.empty() && m_workspace.notices().empty()) return;
    const ImVec2 size = ImGui::GetContentRegionAvail();
    if (alone)
        ImGui::SetCursorPos(ImVec2(size.x * 0.25f, size.y * 0.4f));
    else
        ImGui::SetCursorPosX(ImGui::GetCursorPosX() + 8);
    ImGui::BeginGroup();
    // Wide enough for the longest stage ("summarising the overview, operators and data …").
    const float barWidth = alone ? size.x * 0.5f : 440.0f;
    for (const LoadStatus& load : running) {
        ImGui::PushID(static_cast<int>(load.id.value()));
        if (alone) ImGui::Text("Loading %s", load.path.c_str());
        ImGui::ProgressBar(load.fraction, ImVec2(barWidth, 0), load.stage);
        if (load.cancellable) {
            ImGui::SameLine();
            if (ImGui::SmallButton("Cancel")) m_workspace.loads().Cancel(load.id);
        }
        if (!alone) {
            ImGui::SameLine();
            ImGui::TextDisabled("%s", load.path.c_str());
        }
        ImGui::PopID();
    }
    DrawNotices(alone ? size.x * 0.75f : size.x - 8);
    if (alone && running.empty() && ImGui::Button("Open another file…")) m_openDialog = true;
    ImGui::EndGroup();
}

// Failed and cancelled loads, each until a person dismisses it: a failure is never only on the
// terminal, whatever else is open.
void App::DrawNotices(float wrapX) {
    std::optional<uint64_t> dismissed;
    for (const LoadNotice& notice : m_workspace.notices()) {
        ImGui::PushID(static_cast<int>(notice.serial));
        if (ImGui::SmallButton("Dismiss")) dismissed = notice.serial;
        ImGui::SameLine();
        ImGui::PushTextWrapPos(wrapX);
        const ImVec4 colour =
            notice.cancelled ? ImVec4(0.85f, 0.8f, 0.55f, 1) : ImVec4(1, 0.45f, 0.4f, 1);
        ImGui::TextColored(colour, "%s", notice.Text().c_str());
        ImGui::PopTextWrapPos();
        ImGui::PopID();
    }
    if (dismissed) m_workspace.Dismiss(*dismissed);
}

// One tab per open document (closable) and one for the comparison.
void App::DrawDocumentBar() {
    ImGui::SetCursorPosX(ImGui::GetCursorPosX() + 6);
    if (!ImGui::BeginTabBar(
            "documents", ImGuiTabBarFlags_AutoSelectNewTabs | ImGuiTabBarFlags_FittingPolicyScroll))
        return;
    // A requested tab is set selected for two frames (ImGui switches on the next one); meanwhile
    // the bar's current tab does not count as the person's choice.
    const bool select = m_selectDocumentTab > 0;
    std::optional<DocumentId> closed;
    for (const auto& document : m_workspace.documents()) {
        bool open = true;
        const std::string label =
            document->Title() + "###doc" + std::to_string(document->id.value());
        const bool requested = select && !m_comparisonTab && document->id == m_active;
        if (requested) --m_selectDocumentTab;
        if (ImGui::BeginTabItem(label.c_str(), &open,
                                requested ? ImGuiTabItemFlags_SetSelected : 0)) {
            if (!select && (m_comparisonTab || m_active != document->id)) {
                m_comparisonTab = false;
                m_active = document->id;
                m_mainTab = LastViewOf(m_active);
            }
            ImGui::EndTabItem();
        }
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", document->Source().c_str());
        if (!open) closed = document->id;
    }
    for (const auto& cluster : m_workspace.clusters()) {
        bool open = true;
        const std::string label = cluster->Title() + "###doc" + std::to_string(cluster->id.value());
        const bool requested = select && !m_comparisonTab && cluster->id == m_active;
        if (requested) --m_selectDocumentTab;
        if (ImGui::BeginTabItem(label.c_str(), &open,
                                requested ? ImGuiTabItemFlags_SetSelected : 0)) {
            if (!select && (m_comparisonTab || m_active != cluster->id)) {
                m_comparisonTab = false;
                m_active = cluster->id;
                m_mainTab = LastViewOf(m_active);
            }
            ImGui::EndTabItem();
        }
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", cluster->cluster.root.c_str());
        if (!open) closed = cluster->id;
    }
    ComparisonPair* pair = m_workspace.comparison();
    if (pair && m_workspace.Find(pair->a) && m_workspace.Find(pair->b)) {
        bool open = true;
        // Each side's title cut to half of what a tab shows (ImGui 1.86 makes no tab wider than
        // 20 font heights), whole in the tooltip.
        const std::string titleA = m_workspace.Find(pair->a)->Title();
        const std::string titleB = m_workspace.Find(pair->b)->Title();
        const float titlePx = std::max(
            40.0f, (ImGui::GetFontSize() * 18 - ImGui::CalcTextSize("Compare  A:   ·  B: ").x) / 2);
        auto measure = [](std::string_view text) {
            return ImGui::CalcTextSize(text.data(), text.data() + text.size()).x;
        };
        const std::string label = "Compare  A: " + ElideMiddle(titleA, titlePx, measure) +
                                  "  ·  B: " + ElideMiddle(titleB, titlePx, measure) + "###compare";
        if (select && m_comparisonTab) --m_selectDocumentTab;
        if (ImGui::BeginTabItem(label.c_str(), &open,
                                select && m_comparisonTab ? ImGuiTabItemFlags_SetSelected : 0)) {
            if (!select && !m_comparisonTab)
                m_comparisonTab = true, m_mainTab = LastViewOf(std::nullopt);
            ImGui::EndTabItem();
        }
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("A: %s\nB: %s", titleA.c_str(), titleB.c_str());
        if (!open) m_workspace.EndComparison(), m_comparisonTab = false;
    }
    ImGui::EndTabBar();
    if (closed) {
        m_workspace.Close(*closed);
        if (closed == m_active) m_active = FirstOpen();
    }
}

int App::LastViewOf(std::optional<DocumentId> id) const {
    const auto found = m_lastView.find(id ? id->value() : 0);
    return found == m_lastView.end() ? 0 : found->second;
}

// The views of the shown tab; Ctrl+1 … switch between them.
void App::DrawViewTabs(float dt) {
    const bool comparison = ShowingComparison();
    ClusterDocument* cluster = ActiveCluster();
    const std::vector<const ViewEntry*> views = ViewsOf(
        comparison ? ViewScope::kComparison : ScopeOf(cluster ? nullptr : ActiveDocument()));
    const ImGuiIO& io = ImGui::GetIO();
    for (size_t i = 0; i < views.size() && i < 9; ++i)
        if (io.KeyCtrl && ImGui::IsKeyPressed(GLFW_KEY_1 + static_cast<int>(i), false))
            m_mainTab = static_cast<int>(i);
    TimelineRequest request;
    ClusterRequest clusterRequest;
    ViewContext context{m_workspace,
                        comparison ? nullptr : ActiveDocument(),
                        comparison ? m_workspace.comparison() : nullptr,
                        cluster,
                        m_boxes,
                        m_boxesB,
                        dt,
                        request,
                        m_layout,
                        clusterRequest,
                        m_marey,
                        m_recompare};
    ViewTarget target;
    target.document = context.document, target.cluster = context.cluster,
    target.comparison = context.comparison;
    const ViewList& objects = ViewsOfTarget(target);
    if (comparison && objects.empty()) {
        // Made once both documents have their analyses (ViewRegistry's AttachViews).
        ImGui::Spacing();
        ImGui::SetCursorPosX(ImGui::GetCursorPosX() + 8);
        ImGui::TextUnformatted("Comparison: waiting for the analyses of both runs…");
        return;
    }
    if (objects.size() != views.size()) return;  // attached at the start of the frame
    ImGui::SetCursorPosX(ImGui::GetCursorPosX() + 6);
    // The shortcut in each tab's title while every title fits; in a narrow window the titles
    // alone (ImGui cuts what still does not fit), the whole in each tab's tooltip.
    const ImGuiStyle& style = ImGui::GetStyle();
    float fullWidth = 0;
    // Ctrl+1 … Ctrl+9 reach the first nine views; a tenth and later have no shortcut to show.
    auto shortcutOf = [](size_t view) {
        return view < 9 ? "Ctrl+" + std::to_string(view + 1) : std::string();
    };
    for (size_t i = 0; i < views.size(); ++i)
        fullWidth += ImGui::CalcTextSize(views[i]->title).x +
                     (i < 9 ? ImGui::CalcTextSize("  (Ctrl+0)").x : 0.0f) +
                     style.FramePadding.x * 2 + style.ItemInnerSpacing.x;
    const bool withShortcuts = fullWidth < ImGui::GetContentRegionAvail().x;
    if (ImGui::BeginTabBar("views")) {
        for (size_t i = 0; i < views.size(); ++i) {
            const std::string shortcut = shortcutOf(i);
            const std::string label =
                std::string(views[i]->title) +
                (withShortcuts && !shortcut.empty() ? "  (" + shortcut + ")" : "") + "###view" +
                std::to_string(i);
            const bool requested = m_mainTab == static_cast<int>(i);
            const bool open = ImGui::BeginTabItem(label.c_str(), nullptr,
                                                  requested ? ImGuiTabItemFlags_SetSelected : 0);
            if (ImGui::IsItemHovered()) {
                if (shortcut.empty())
                    ImGui::SetTooltip("%s", views[i]->title);
                else
                    ImGui::SetTooltip("%s  (%s)", views[i]->title, shortcut.c_str());
            }
            if (!open) continue;
            m_lastView[comparison || !m_active ? 0 : m_active->value()] = static_cast<int>(i);
            View& view = *objects[i];
            if (context.document && context.document->analysisPending &&
                !view.DrawsBeforeAnalyses()) {
                DrawAnalysesPending(views[i]->title);
            } else if (view.FillsTab()) {
                view.Draw(context);
            } else {
                ImGui::BeginChild("view", ImVec2(0, 0), false,
                                  ImGuiWindowFlags_AlwaysUseWindowPadding);
                view.Draw(context);
                ImGui::EndChild();
            }
            ImGui::EndTabItem();
        }
        m_mainTab = -1;
        ImGui::EndTabBar();
    }
    if (!comparison) request.document = m_active;
    ApplyRequest(request);
    ApplyClusterRequest(clusterRequest);
}

// A view of a document whose timeline is shown while its analyses are computed.
void App::DrawAnalysesPending(const char* title) {
    ImGui::BeginChild("view", ImVec2(0, 0), false, ImGuiWindowFlags_AlwaysUseWindowPadding);
    ImGui::Spacing();
    ImGui::Text("%s: computing the rank's analyses…", title);
    ImGui::TextDisabled(
        "Device activities, steps, operators and communication are being computed from the "
        "trace; this view fills in when they are ready. The timeline (Ctrl+1) is ready now.");
    ImGui::EndChild();
}

void App::ApplyRequest(const TimelineRequest& request) {
    if (request.switchToTimeline) m_mainTab = 0;
    // A request made by a click (a row shown on the timeline) changes tabs and views a frame or
    // two later: drawn now, not when the person next moves the mouse.
    if (request.switchToTimeline || request.kind != TimelineRequest::kNone)
        m_framesAfterInput = kFramesAfterInput;
    Document* document = request.document ? m_workspace.Find(*request.document) : nullptr;
    if (!document) return;
    // The document's Timeline tab shows the range or the names.
    if (request.kind != TimelineRequest::kNone) SendToViews(*document, request);
}

}  // namespace marey
