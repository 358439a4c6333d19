#pragma once
// The window: GLFW, OpenGL 3.3 core through libepoxy, Dear ImGui, the main loop, and the
// layout of the timeline and its side panel. Nothing else.
#include <memory>
#include <string>
#include <vector>

#include "Fonts.hpp"
#include "KeyScript.hpp"
#include "LoadJob.hpp"
#include "panels/DetailsPanel.hpp"
#include "panels/ImportIssuesPanel.hpp"
#include "panels/RangeStatsPanel.hpp"
#include "panels/SearchPanel.hpp"
#include "render/BoxRenderer.hpp"
#include "timeline/TimelineView.hpp"
#include "views/CommunicationView.hpp"
#include "views/MemoryView.hpp"
#include "views/OperatorsView.hpp"
#include "views/OverviewView.hpp"
#include "views/StepsView.hpp"

struct GLFWwindow;

namespace tracelens {

struct ViewerOptions {
    std::string path;
    std::string screenshotPath;  // headless: render, write this PNG, exit
    int width = 1600, height = 900;
    std::string keys;            // played before the screenshot
    std::string panel;           // side panel tab to show: details, range, search, issues
    std::string view;            // main view to show: timeline, overview, operators, steps, communication, memory
    bool frameBenchmark = false; // time frames at zoom levels from the whole trace to 1 µs, print, exit
    std::string search;          // run this search and select its first match
    double rangeFromMs = -1, rangeToMs = -1;  // select this range (ms from the trace start), all tracks
};

class App {
public:
    int Run(const ViewerOptions& options);
    void Open(const std::string& path);  // also from drag and drop

private:
    bool Init(std::string* error);
    void Shutdown();
    void Frame(float dt);
    void DrawMenuBar();
    void DrawToolbar();
    void DrawLoading();
    void DrawSidePanel();
    void DrawTimelineTab(float dt);
    void DrawViewTabs(float dt);
    void ApplyRequest(const TimelineRequest& request);
    void DrawOpenDialog();
    void DrawFrameOverlay();
    void TakeLoadedModel();
    void ApplyCommandLineSelection();
    void RememberRecent(const std::string& path);
    int RunFrameBenchmark();
    // One frame. Returns the CPU time of building it (input, level-of-detail queries, instance
    // buffer, ImGui) in ms; 'presentMs' gets the time of GL submission and buffer swap.
    double RenderFrame(float dt, double* presentMs);

    ViewerOptions m_options;
    GLFWwindow* m_window = nullptr;
    FontSet m_fonts;
    BoxRenderer m_boxes;
    LoadJob m_load;
    std::unique_ptr<TraceModel> m_model;
    std::unique_ptr<TimelineView> m_timeline;
    std::unique_ptr<RankAnalysis> m_analysis;
    OverviewView m_overview;
    OperatorsView m_operators;
    StepsView m_steps;
    CommunicationView m_communication;
    MemoryView m_memory;
    int m_mainTab = 0;  // requested main view, -1 once shown
    std::string m_loadError;
    DetailsPanel m_details;
    ImportIssuesPanel m_issues;
    RangeStatsPanel m_range;
    SearchPanel m_search;
    int m_sideTab = 0;
    bool m_openDialog = false;
    char m_openPath[1024] = {};
    std::vector<std::string> m_recent;
    double m_lastCpuMs = 0;
};

}  // namespace tracelens
