#pragma once
// The window: GLFW, OpenGL 3.3 core through libepoxy, Dear ImGui, the main loop, the menus, the
// bar of open documents and the tabs of the views (listed in shell/ViewRegistry.cpp). The frame
// benchmark is in App_Benchmark.cpp.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/LoadTiming.hpp"
#include "shell/Fonts.hpp"
#include "shell/KeyScript.hpp"
#include "base/LayoutSettings.hpp"
#include "render/BoxRenderer.hpp"
#include "clusterviews/ClusterCommon.hpp"
#include "render/MareyRenderer.hpp"
#include "shell/ViewRegistry.hpp"
#include "viewkit/ViewCommon.hpp"
#include "viewkit/ViewContext.hpp"
#include "workspace/Workspace.hpp"

struct GLFWwindow;

namespace marey {

// Headless runs and the frame benchmark advance time by a fixed 60 frames per second.
inline constexpr float kScriptedFrameDt = 1.0f / 60.0f;

struct ViewerOptions {
    std::string path;
    std::string comparePath;     // with 'path': open both and compare them
    std::string screenshotPath;  // headless: render, write this PNG, exit
    int width = 1600, height = 900;
    bool sizeGiven = false;  // --size: else the window takes its remembered or the screen's size
    std::string keys;        // played before the screenshot
    std::string panel;       // side panel tab to show: details, range, search, issues
    std::string view;        // main view to show, by its registry name
    std::string step;        // a cluster: the step the cluster views show
    std::optional<RankId> rank;      // a cluster: the rank selected in the cluster views
    std::vector<std::string> ranks;  // --ranks: the paths of the ranks to show in one timeline
    bool frameBenchmark =
        false;           // time frames at zoom levels from the whole trace to 1 µs, print, exit
    std::string search;  // run this search and select its first match
    RankSource source = RankSource::kAuto;  // --source: a folder's text export or its database
    std::string stepRange;    // --step-range: the NVTX range that marks a step in an export
    IndexCacheOptions cache;  // the index cache of traces (off with --no-cache)
    double rangeFromMs = -1,
           rangeToMs = -1;  // select this range (ms from the trace start), all tracks
    // 'path' opens in the cluster views: OpensAsCluster(path, view), asked once when the command
    // line is read (for an Nsight Systems export it scans the activity tables).
    bool opensAsCluster = false;
};

class App {
public:
    int Run(const ViewerOptions& options);
    // Opens 'path' as a new document (also from drag and drop and the menus); never waits.
    void Open(const std::string& path);

private:
    bool Init(std::string* error);
    void Shutdown();
    void Frame(float dt);
    void TakeLoadedDocuments();
    void DrawMenuBar();
    void HandleWindowKeys(Document* active);
    void DrawLoads();
    // The notices of failed and cancelled loads, wrapped at 'wrapX'; each with Dismiss.
    void DrawNotices(float wrapX);
    void DrawAnalysesPending(const char* title);
    void DrawDocumentBar();
    void DrawViewTabs(float dt);
    void ApplyRequest(const TimelineRequest& request);
    void DrawOpenDialog();
    void DrawFrameOverlay();
    void ApplyCommandLineSelection(Document& document);
    void ApplyCommandLineSelection(ClusterDocument& cluster);
    void RememberRecent(const std::string& path);
    bool ReadyForScript();
    void PrintViews();
    int RunFrameBenchmark();
    int RunClusterFrameBenchmark();
    void BenchmarkInteractions(Document& document);
    // One frame. Returns the CPU time of building it (input, level-of-detail queries, instance
    // buffer, ImGui) in ms; 'presentMs' gets the time of GL submission and buffer swap, and
    // 'buildWallMs' (when given) the wall time of building it.
    double RenderFrame(float dt, double* presentMs, double* buildWallMs = nullptr);
    Document* ActiveDocument() { return m_active ? m_workspace.Find(*m_active) : nullptr; }
    ClusterDocument* ActiveCluster() {
        return ShowingComparison() || !m_active ? nullptr : m_workspace.FindCluster(*m_active);
    }
    // Opens the ranks a cluster view asked for, as documents or as a comparison.
    void ApplyClusterRequest(const ClusterRequest& request);
    // The first document or cluster; none when none is open.
    std::optional<DocumentId> FirstOpen() const;
    bool ShowingComparison();
    // Whether the loop must draw again without waiting for input: a key or button held, a
    // search, range statistics or diff running, or a frame just after input.
    bool NeedsAnotherFrame();
    // kNow: NeedsAnotherFrame; kSoon: only a load runs (its progress is drawn a few times a
    // second); kNone: wait for input.
    enum class FrameNeed { kNone, kSoon, kNow };
    FrameNeed NextFrameNeed();
    // Waits as NextFrameNeed says (not at all, briefly, or until input); false when the window
    // woke for nothing and draws no frame.
    bool WaitForEvents(bool scripted);

    // MAREY_TIMING: when the first document's first frame and its analyses were drawn.
    void ReportDrawnFrame();

    ViewerOptions m_options;
    LoadTiming m_timing;  // from the window's start
    bool m_firstFrameReported = false, m_analysesReported = false;
    bool m_diffRunning = false;  // the comparison's diff ran at the last frame's check
    GLFWwindow* m_window = nullptr;
    FontSet m_fonts;
    BoxRenderer m_boxes, m_boxesB;
    MareyRenderer m_marey;
    // Another alignment or step a comparison view asked for in this frame.
    std::optional<ComparisonOptions> m_recompare;
    Workspace m_workspace;
    LayoutSettings m_layout;
    std::optional<DocumentId> m_active;  // the document or cluster shown (when not the comparison)
    std::string m_viewWhenLoaded;        // the view to show once m_activateWhenLoaded opens
    TimelineRequest
        m_requestWhenLoaded;  // what to show in its timeline then (a Marey click: the operator)
    std::optional<DocumentId> m_activateWhenLoaded;
    bool m_comparisonTab = false;  // the comparison is the shown tab
    int m_selectDocumentTab = 0;   // frames left to bring the shown tab forward in the bar
    int m_mainTab = 0;             // requested view within the shown tab's views, -1 once shown
    // The view each document, cluster (by id) or the comparison (0) showed last: coming back to
    // it shows that view again, not its first.
    std::map<uint32_t, int> m_lastView;
    int LastViewOf(std::optional<DocumentId> id) const;
    bool m_commandLineApplied = false;
    bool m_commandLineRejected = false;  // --step or --rank named what the cluster lacks
    bool m_openDialog = false;
    bool m_openToCompare = false;  // the Open dialog compares what it opens with the shown document
    bool m_openShowAll = false;    // the Open dialog lists every file, not only traces
    bool m_showHelp = false;
    char m_openPath[1024] = {};
    std::vector<std::string> m_recent;
    double m_lastCpuMs = 0;
    int m_framesAfterInput = 0;
};

}  // namespace marey
