// The workspace without a window: several documents loading at once, each with its own id,
// summary and view state; closing one frees everything that pointed into it. The analysis views
// are drawn into a headless ImGui context, so that their sort caches run for real (and, in the
// sanitizer build, under AddressSanitizer).
#include <doctest/doctest.h>
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <thread>

#include "clusterviews/MatrixView.hpp"
#include "clusterviews/StepTraceView.hpp"
#include "timeline/TimelineView.hpp"
#include "base/LayoutSettings.hpp"
#include "clusterviews/ClusterCommon.hpp"
#include "render/BoxRenderer.hpp"
#include "render/MareyRenderer.hpp"
#include "viewkit/ViewCommon.hpp"
#include "viewkit/ViewContext.hpp"
#include "clusterviews/TimeOverviewView.hpp"
#include "compareviews/CompareTimelines.hpp"
#include "shell/ViewRegistry.hpp"
#include "workspace/Workspace.hpp"
#include "TestSupport.hpp"
#include <unistd.h>

using namespace marey;
namespace fs = std::filesystem;

// [SECTION] Helpers: a generated pair, loads waited for, headless frames

namespace {

// What a view is drawn with, headless: the renderers only collect (no GL context here).
struct HeadlessContext {
    TimelineRequest request;
    BoxRenderer boxes, boxesB;
    LayoutSettings layout;
    ClusterRequest clusterRequest;
    MareyRenderer marey;
    std::optional<ComparisonOptions> recompare;
    ViewContext Make(Workspace& workspace, Document* document, ClusterDocument* cluster,
                     ComparisonPair* comparison = nullptr) {
        return ViewContext{workspace,    document, comparison, cluster,        boxes, boxesB,
                           1.0f / 60.0f, request,  layout,     clusterRequest, marey, recompare};
    }
};

// A generated comparison pair, written by marey-gen once per test binary.
const fs::path& GeneratedPair() {
    static const fs::path root = [] {
        const fs::path dir =
            fs::temp_directory_path() / ("marey_workspace_pair_" + std::to_string(::getpid()));
        fs::remove_all(dir);
        const std::string command = std::string(MAREY_GEN) + " --events 30000 --compare-pair " +
                                    dir.string() + " 2>/dev/null";
        REQUIRE(std::system(command.c_str()) == 0);
        return dir;
    }();
    return root;
}

void WaitForLoads(Workspace& workspace) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (workspace.loads().Busy() && std::chrono::steady_clock::now() < deadline) {
        workspace.Poll();
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    workspace.Poll();
    REQUIRE_FALSE(workspace.loads().Busy());
}

// A headless ImGui context: fonts built, no renderer; frames are built and thrown away.
class HeadlessImGui {
public:
    HeadlessImGui() {
        ImGui::CreateContext();
        ImGuiIO& io = ImGui::GetIO();
        io.DisplaySize = ImVec2(1600, 900);
        io.IniFilename = nullptr;
        // As the OpenGL 3 backend says of itself: draw lists may pass 64k vertices.
        io.BackendFlags |= ImGuiBackendFlags_RendererHasVtxOffset;
        unsigned char* pixels;
        int width, height;
        io.Fonts->GetTexDataAsRGBA32(&pixels, &width, &height);
    }
    ~HeadlessImGui() { ImGui::DestroyContext(); }
    // Draws every document view of 'document' in one frame; returns the vertices each drew, by
    // view name.
    std::map<std::string, int> DrawDocumentViews(Workspace& workspace, Document& document) {
        AttachViews(workspace);
        std::map<std::string, int> vertices;
        ImGui::GetIO().DeltaTime = 1.0f / 60.0f;
        ImGui::NewFrame();
        HeadlessContext parts;
        ViewContext context = parts.Make(workspace, &document, nullptr);
        const std::vector<const ViewEntry*> entries = ViewsOf(ViewScope::kDocument);
        REQUIRE(document.views.size() == entries.size());
        for (size_t i = 0; i < entries.size(); ++i) {
            if (std::string(entries[i]->name) == "timeline") continue;
            // A window each, as the tabs of the real window are: one draw list per view.
            ImGui::SetNextWindowSize(ImVec2(1600, 900));
            ImGui::Begin(entries[i]->name);
            // What a view computes in the background (the critical path) is there at once.
            document.views[i]->Wait();
            document.views[i]->Draw(context);
            ImGui::End();
        }
        ImGui::Render();
        // A view's window and its child windows (tables that scroll) each have a draw list, named
        // after the window: "operators", "operators/table_…".
        const ImDrawData* data = ImGui::GetDrawData();
        for (int l = 0; l < data->CmdListsCount; ++l) {
            const std::string owner =
                data->CmdLists[l]->_OwnerName ? data->CmdLists[l]->_OwnerName : "";
            for (const ViewEntry* entry : entries)
                if (owner == entry->name || owner.rfind(std::string(entry->name) + "/", 0) == 0)
                    vertices[entry->name] += data->CmdLists[l]->VtxBuffer.Size;
        }
        return vertices;
    }
    // Draws one comparison view of 'pair' in one frame.
    void DrawComparisonView(Workspace& workspace, ComparisonPair& pair, View& view) {
        ImGui::GetIO().DeltaTime = 1.0f / 60.0f;
        ImGui::NewFrame();
        HeadlessContext parts;
        ViewContext context = parts.Make(workspace, nullptr, nullptr, &pair);
        ImGui::SetNextWindowSize(ImVec2(1600, 900));
        ImGui::Begin("comparison");
        view.Draw(context);
        ImGui::End();
        ImGui::Render();
    }
    // Draws one view of 'document' in one frame (a timeline lays its tracks out when drawn).
    void DrawView(Workspace& workspace, Document& document, View& view) {
        ImGui::GetIO().DeltaTime = 1.0f / 60.0f;
        ImGui::NewFrame();
        HeadlessContext parts;
        ViewContext context = parts.Make(workspace, &document, nullptr);
        ImGui::SetNextWindowSize(ImVec2(1600, 900));
        ImGui::Begin("view");
        view.Draw(context);
        ImGui::End();
        ImGui::Render();
    }
    // Draws one cluster view of 'cluster' in a frame; returns the vertices it drew.
    int DrawClusterView(Workspace& workspace, ClusterDocument& cluster, View& view) {
        ImGui::GetIO().DeltaTime = 1.0f / 60.0f;
        ImGui::NewFrame();
        HeadlessContext parts;
        ViewContext context = parts.Make(workspace, nullptr, &cluster);
        ImGui::SetNextWindowSize(ImVec2(1600, 900));
        ImGui::Begin("one cluster view");
        view.Draw(context);
        ImGui::End();
        ImGui::Render();
        int vertices = 0;
        const ImDrawData* data = ImGui::GetDrawData();
        for (int l = 0; l < data->CmdListsCount; ++l) vertices += data->CmdLists[l]->VtxBuffer.Size;
        return vertices;
    }
    // Draws every cluster view of 'cluster' in one frame; returns what the views asked for.
    ClusterRequest DrawClusterViews(Workspace& workspace, ClusterDocument& cluster) {
        AttachViews(workspace);
        ImGui::GetIO().DeltaTime = 1.0f / 60.0f;
        ImGui::NewFrame();
        HeadlessContext parts;
        ViewContext context = parts.Make(workspace, nullptr, &cluster);
        const std::vector<const ViewEntry*> entries = ViewsOf(ViewScope::kCluster);
        REQUIRE(cluster.views.size() == entries.size());
        for (size_t i = 0; i < entries.size(); ++i) {
            ImGui::SetNextWindowSize(ImVec2(1600, 900));
            ImGui::Begin(entries[i]->name);
            cluster.views[i]->Draw(context);
            ImGui::End();
        }
        ImGui::Render();
        return parts.clusterRequest;
    }
};

}  // namespace

// [SECTION] Documents and their loads

TEST_CASE("two documents load at once, each with its own id, model, summary and timeline") {
    Workspace workspace;
    const DocumentId a = workspace.Open((GeneratedPair() / "a").string());
    const DocumentId b = workspace.Open((GeneratedPair() / "b").string());
    CHECK(a != b);
    CHECK(workspace.loads().Running().size() == 2);
    WaitForLoads(workspace);
    REQUIRE(workspace.documents().size() == 2);
    Document* documentA = workspace.Find(a);
    Document* documentB = workspace.Find(b);
    REQUIRE(documentA != nullptr);
    REQUIRE(documentB != nullptr);
    CHECK(documentA->Title() == "rank 0 · a");
    CHECK(documentB->Title() == "rank 1 · b");
    CHECK(documentA->summary.operators.size() > 10);
    // The timeline's derived data is built while loading; its view belongs to the Timeline tab.
    REQUIRE(documentA->timelineData != nullptr);
    CHECK(documentA->timelineData->minimap.size() == 1024);
    CHECK(TimelineOf(*documentA) == nullptr);
    AttachViews(workspace);
    REQUIRE(TimelineOf(*documentA) != nullptr);
    CHECK(&TimelineOf(*documentA)->model() == &documentA->model());
    CHECK(TimelineOf(*documentA)->documentId() == a.value());
    workspace.Close(a);
    CHECK(workspace.Find(a) == nullptr);
    CHECK(workspace.Find(b) == documentB);
    // Ids are never reused.
    const DocumentId again = workspace.Open((GeneratedPair() / "a").string());
    CHECK(again != a);
    CHECK(again != b);
    WaitForLoads(workspace);
}

TEST_CASE("a rank's timeline is given before its analyses, then the whole document of its id") {
    LoadQueue queue;
    queue.Start(DocumentId(7), (GeneratedPair() / "a").string());
    std::vector<LoadQueue::Finished> finished;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (queue.Busy() && std::chrono::steady_clock::now() < deadline) {
        for (LoadQueue::Finished& one : queue.TakeFinished()) finished.push_back(std::move(one));
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    REQUIRE(finished.size() == 2);
    const LoadQueue::Finished& timeline = finished[0];
    const LoadQueue::Finished& whole = finished[1];
    CHECK(timeline.id == DocumentId(7));
    CHECK(timeline.timelineOnly);
    CHECK_FALSE(timeline.afterTimeline);
    REQUIRE(timeline.document != nullptr);
    CHECK(timeline.document->analysisPending);
    CHECK(timeline.document->analysis().trace == nullptr);  // nothing computed yet
    REQUIRE(timeline.document->timelineData != nullptr);
    CHECK(timeline.document->timelineData->deviceCounters.empty());
    CHECK(whole.afterTimeline);
    CHECK_FALSE(whole.timelineOnly);
    REQUIRE(whole.document != nullptr);
    CHECK_FALSE(whole.document->analysisPending);
    REQUIRE(whole.document->analysis().trace != nullptr);
    CHECK_FALSE(whole.document->timelineData->deviceCounters.empty());
    // One model: the timeline on screen is the one the analyses were computed from.
    CHECK(&timeline.document->model() == &whole.document->model());
}

TEST_CASE("a document shown before its analyses keeps its timeline view when they arrive") {
    Workspace workspace;
    const DocumentId id = workspace.Open((GeneratedPair() / "b").string());
    const TimelineView* seenPending = nullptr;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (workspace.loads().Busy() && std::chrono::steady_clock::now() < deadline) {
        workspace.Poll();
        AttachViews(workspace);
        Document* document = workspace.Find(id);
        if (document && document->analysisPending && !seenPending) {
            // Every view is made; those that need the analyses draw a line saying so meanwhile.
            CHECK(document->views.size() == ViewsOf(ViewScope::kDocument).size());
            seenPending = TimelineOf(*document);
            CHECK(seenPending != nullptr);
            CHECK(seenPending->data().deviceCounters.empty());
        }
    }
    workspace.Poll();
    AttachViews(workspace);
    Document* document = workspace.Find(id);
    REQUIRE(document != nullptr);
    CHECK_FALSE(document->analysisPending);
    CHECK_FALSE(document->analysisArrived);
    CHECK(document->replaced == nullptr);
    REQUIRE(document->analysis().trace != nullptr);
    CHECK(document->summary.operators.size() > 10);
    REQUIRE(TimelineOf(*document) != nullptr);
    CHECK_FALSE(TimelineOf(*document)->data().deviceCounters.empty());
    // When the wait was seen (it lasts a few milliseconds here), the same timeline took the
    // analyses in: what a person set up there stays.
    if (seenPending) CHECK(TimelineOf(*document) == seenPending);
    const std::string seen = seenPending ? "yes" : "no";
    MESSAGE("the timeline was seen before the analyses: " << seen);
}

TEST_CASE("a document closed while its analyses run is gone: no load shown, opened anew") {
    Workspace workspace;
    const std::string path = (GeneratedPair() / "a").string();
    const DocumentId id = workspace.Open(path);
    bool closedWhilePending = false;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (workspace.loads().Busy() && std::chrono::steady_clock::now() < deadline) {
        workspace.Poll();
        const Document* document = workspace.Find(id);
        if (document && document->analysisPending && !closedWhilePending) {
            workspace.Close(id);
            closedWhilePending = true;
            // Its analyses still run, but nothing shows or finds that load any more.
            CHECK(workspace.loads().Running().empty());
            CHECK_FALSE(workspace.loads().IsLoading(id));
            const DocumentId again = workspace.OpenOnce(path);
            CHECK(again != id);
        }
        std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    workspace.Poll();
    CHECK(workspace.Find(id) == nullptr);  // the analyses that came later made nothing
    CHECK(workspace.notices().empty());
    if (closedWhilePending) CHECK(workspace.documents().size() == 1);  // the one opened anew
    const std::string closed = closedWhilePending ? "yes" : "no";
    MESSAGE("closed while its analyses ran: " << closed);
}

TEST_CASE("a load that fails says why and leaves the other documents alone") {
    Workspace workspace;
    workspace.Open((GeneratedPair() / "a").string());
    workspace.Open("/nonexistent/trace.json");
    WaitForLoads(workspace);
    CHECK(workspace.documents().size() == 1);
    REQUIRE(workspace.errors().size() == 1);
    CHECK(workspace.errors()[0].find("/nonexistent/trace.json") != std::string::npos);
    // The window shows it as a notice, whatever else is open, until it is dismissed.
    REQUIRE(workspace.notices().size() == 1);
    CHECK(workspace.notices()[0].Text() ==
          "Cannot open /nonexistent/trace.json: cannot open the file: No such file or directory");
    CHECK_FALSE(workspace.notices()[0].cancelled);
    workspace.Notify("/clusters/c16", "rank 3 has no folder in this cluster");
    REQUIRE(workspace.notices().size() == 2);
    CHECK(workspace.notices()[1].Text() ==
          "Cannot open /clusters/c16: rank 3 has no folder in this cluster");
    workspace.Dismiss(workspace.notices()[0].serial);
    REQUIRE(workspace.notices().size() == 1);
    CHECK(workspace.notices()[0].path == "/clusters/c16");
}

TEST_CASE("a load's message becomes a notice naming the path once, and a cancel is not an error") {
    CHECK(
        MakeLoadNotice("/a/b.json", "/a/b.json:3:7: error: \"ts\" is not a number", false).Text() ==
        "Cannot open /a/b.json: /a/b.json:3:7: error: \"ts\" is not a number");
    CHECK(MakeLoadNotice("/a/b.json", "/a/b.json: error: not a trace", false).Text() ==
          "Cannot open /a/b.json: not a trace");
    const LoadNotice cancelled = MakeLoadNotice("/a/b.json", "/a/b.json: cancelled", true);
    CHECK(cancelled.cancelled);
    CHECK(cancelled.Text() == "Cancelled loading /a/b.json");
    // One of several ranks: the path is taken from the message.
    CHECK(MakeLoadNotice("", "/r/rank_3: error: the folder holds no timeline", false).Text() ==
          "Cannot open /r/rank_3: the folder holds no timeline");
}

// [SECTION] Comparisons

TEST_CASE("a comparison opened in the workspace is diffed off the UI thread once both sides load") {
    Workspace workspace;
    workspace.OpenComparison((GeneratedPair() / "a").string(), (GeneratedPair() / "b").string());
    ComparisonPair* pair = workspace.comparison();
    REQUIRE(pair != nullptr);
    CHECK(pair->Ready() == nullptr);
    WaitForLoads(workspace);
    REQUIRE(workspace.comparison() != nullptr);
    workspace.comparison()->diff.wait();
    const Comparison* comparison = workspace.comparison()->Ready();
    REQUIRE(comparison != nullptr);
    CHECK(comparison->diff.operators[0].name == "MatMul_0");
    CHECK(comparison->diff.alignment.offsetNs == -5000001373);
    // Closing a side ends the comparison first (its diff read both documents).
    workspace.Close(workspace.comparison()->b);
    CHECK(workspace.comparison() == nullptr);
}

TEST_CASE("a comparison compared again keeps what a person chose in its views, not in the pair") {
    HeadlessImGui imgui;
    Workspace workspace;
    workspace.OpenComparison((GeneratedPair() / "a").string(), (GeneratedPair() / "b").string());
    WaitForLoads(workspace);
    REQUIRE(workspace.comparison() != nullptr);
    workspace.comparison()->diff.wait();
    AttachViews(workspace);
    ComparisonPair* first = workspace.comparison();
    auto* timelines = FindView<CompareTimelinesView>(first->views);
    REQUIRE(timelines != nullptr);
    CHECK(timelines->Synced());
    // L turns sync off, as a person does in the Timelines A / B tab.
    ImGui::GetIO().KeysDown[GLFW_KEY_L] = true;
    imgui.DrawComparisonView(workspace, *first, *timelines);
    ImGui::GetIO().KeysDown[GLFW_KEY_L] = false;
    CHECK_FALSE(timelines->Synced());

    ComparisonOptions options;
    options.align.step = "2";
    workspace.Recompare(options);
    ComparisonPair* second = workspace.comparison();
    REQUIRE(second != first);  // a new pair, its diff computed again
    CHECK(second->replaced != nullptr);
    AttachViews(workspace);
    CHECK(second->replaced == nullptr);  // handed over, then let go
    auto* after = FindView<CompareTimelinesView>(second->views);
    REQUIRE(after != nullptr);
    CHECK_FALSE(after->Synced());
    // Another pair of documents starts with nothing to take over.
    workspace.EndComparison();
    CHECK(workspace.comparison() == nullptr);
}

// [SECTION] Views

TEST_CASE("views keep their sort caches per document: rank 0 sorted, closed, then rank 1 sorted") {
    HeadlessImGui imgui;
    Workspace workspace;
    const DocumentId first = workspace.Open((GeneratedPair() / "a").string());
    WaitForLoads(workspace);
    REQUIRE(workspace.Find(first) != nullptr);
    // Each analysis view draws its tables and charts: thousands of vertices, and once ImGui has
    // laid the windows out (the first frame), the same each frame.
    std::map<std::string, int> before;
    for (int frame = 0; frame < 3; ++frame) {
        const std::map<std::string, int> drawn =
            imgui.DrawDocumentViews(workspace, *workspace.Find(first));
        CHECK(drawn.size() == 9);  // every document view but the timeline
        for (const auto& [name, vertices] : drawn) {
            INFO(name);
            // Without MindData files the data-preparation view draws only its step intervals, and
            // without FLOPs files the resources view its peak memory and a notice.
            CHECK(vertices > (name == "data" || name == "resources" ? 300 : 2000));
            if (frame == 2) CHECK(vertices == before[name]);
        }
        before = drawn;
    }
    workspace.Close(first);
    // A smaller rank: tables that a stale cache would index past.
    const fs::path small =
        fs::temp_directory_path() / ("marey_workspace_small_" + std::to_string(::getpid()));
    fs::remove_all(small);
    REQUIRE(std::system((std::string(MAREY_GEN) + " --events 3000 --rank 1 --rank-dir " +
                         small.string() + " 2>/dev/null")
                            .c_str()) == 0);
    const DocumentId second = workspace.Open(small.string());
    WaitForLoads(workspace);
    Document* document = workspace.Find(second);
    REQUIRE(document != nullptr);
    CHECK(document->analysis().kernels->rows.size() < 400);
    for (int frame = 0; frame < 3; ++frame) {
        const std::map<std::string, int> drawn = imgui.DrawDocumentViews(workspace, *document);
        CHECK(drawn.size() == 9);  // every document view but the timeline
        for (const auto& [name, vertices] : drawn) {
            INFO(name);
            CHECK(vertices > (name == "data" || name == "resources" ? 300 : 2000));
        }
        // A tenth of the events: fewer memory samples make shorter curves, fewer steps fewer bars.
        CHECK(drawn.at("memory") < before.at("memory") / 2);
        CHECK(drawn.at("steps") < before.at("steps"));
    }
    fs::remove_all(small);
}

TEST_CASE(
    "a cluster folder opens as one cluster document whose views draw for every step, group and "
    "metric") {
    HeadlessImGui imgui;
    const fs::path dir =
        fs::temp_directory_path() / ("marey_workspace_cluster_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    REQUIRE(std::system((std::string(MAREY_GEN) + " --cluster " + dir.string() +
                         " --ranks 24 --steps 4 --slow-rank 5 --slow-link 9-10 2>/dev/null")
                            .c_str()) == 0);
    Workspace workspace;
    const DocumentId id = workspace.Open(dir.string());
    WaitForLoads(workspace);
    CHECK(workspace.documents().empty());
    ClusterDocument* cluster = workspace.FindCluster(id);
    REQUIRE(cluster != nullptr);
    CHECK(cluster->Title().find("24 ranks") != std::string::npos);
    REQUIRE(cluster->report.slowRanks.size() == 1);
    CHECK(cluster->report.slowRanks[0].rankId == RankId(5));
    REQUIRE(cluster->report.slowLinks.size() == 1);
    imgui.DrawClusterViews(workspace, *cluster);
    StepTraceView* steps = nullptr;
    MatrixView* matrix = nullptr;
    for (const auto& view : cluster->views) {
        if (!steps) steps = dynamic_cast<StepTraceView*>(view.get());
        if (!matrix) matrix = dynamic_cast<MatrixView*>(view.get());
    }
    REQUIRE(steps != nullptr);
    REQUIRE(matrix != nullptr);
    for (int step = -1; step < 4; ++step) {
        cluster->selection.step = step < 0 ? std::nullopt : std::optional(StepIndex(step));
        for (int group = -1; group < 2; ++group) {
            cluster->selection.group = group < 0 ? std::nullopt : std::optional(GroupIndex(group));
            for (int metric = 0; metric < 4; ++metric) {
                matrix->settings().metric = metric;
                imgui.DrawClusterViews(workspace, *cluster);
            }
        }
    }
    // Sorting by the flag column puts the slow rank first.
    cluster->selection.step.reset(), cluster->selection.group.reset();
    steps->SortBy(kStepColumnCount, true);
    const StepTableCache& shown = steps->TableShown();
    CHECK(shown.table.rows[shown.order.front()].rankId == RankId(5));
    // The box plots are over the 24 ranks, and the slow rank's value in its flagged column is that
    // column's maximum, well above the median.
    REQUIRE(shown.slow.size() == 1);
    const StepBox& box = shown.boxes[shown.slow[0].column];
    CHECK(box.count == 24);
    CHECK(box.max == static_cast<double>(shown.slow[0].valueNs));
    CHECK(box.min <= box.q1);
    CHECK(box.q1 <= box.median);
    CHECK(box.median <= box.q3);
    CHECK(box.q3 < box.max);
    // One operator's matrix: the allGather of a node has links only inside the node.
    matrix->settings().op = 1;
    imgui.DrawClusterViews(workspace, *cluster);
    matrix->Wait();
    REQUIRE(matrix->Shown() != nullptr);
    CHECK(matrix->Shown()->key.op == 1);
    CHECK(matrix->Shown()->cells->size() < cluster->report.matrix.size());
    // A rank selected in one view is selected in all; a cluster from rank folders can open it.
    cluster->selection.rank = RankId(5);
    CHECK(cluster->CanOpenRanks());
    imgui.DrawClusterViews(workspace, *cluster);
    workspace.Close(id);
    CHECK(workspace.FindCluster(id) == nullptr);
    fs::remove_all(dir);
}

TEST_CASE("ranks loaded again on another alignment keep the timeline a person set up") {
    HeadlessImGui imgui;
    Workspace workspace;
    const std::vector<std::string> paths = {(GeneratedPair() / "a").string(),
                                            (GeneratedPair() / "b").string()};
    const DocumentId id = workspace.OpenRanks(paths, kAlignOnClock);
    WaitForLoads(workspace);
    AttachViews(workspace);
    Document* before = workspace.Find(id);
    REQUIRE(before != nullptr);
    REQUIRE(before->ranks.has_value());
    TimelineView* timeline = TimelineOf(*before);
    REQUIRE(timeline != nullptr);
    REQUIRE(before->views.size() == 2);  // the timeline, the critical path across the ranks
    imgui.DrawView(workspace, *before, *before->views[0]);
    before->views[1]->Wait();  // the ranks' analyses and a step's path, off the UI thread
    imgui.DrawView(workspace, *before, *before->views[1]);
    timeline->SetViewRange(1000000, 2000000);
    workspace.RealignRanks(id, kAlignOnClock);
    WaitForLoads(workspace);
    Document* after = workspace.Find(id);
    REQUIRE(after != nullptr);
    CHECK(after != before);
    REQUIRE(after->replaced != nullptr);  // until its views have handed over
    AttachViews(workspace);
    CHECK(after->replaced == nullptr);
    // On the ranks' own clocks the view stays where it was.
    REQUIRE(TimelineOf(*after) != nullptr);
    CHECK(TimelineOf(*after)->state().viewStartNs == 1000000);
    CHECK(TimelineOf(*after)->state().viewEndNs == 2000000);
}

TEST_CASE("the time overview of 200,000 steps draws no more than a chart of the window's width") {
    HeadlessImGui imgui;
    const fs::path dir = marey::test::TempDir("workspace_many_steps");
    REQUIRE(std::system((std::string(MAREY_GEN) + " --cluster " + dir.string() +
                         " --ranks 8 --steps 3 2>/dev/null")
                            .c_str()) == 0);
    Workspace workspace;
    const DocumentId id = workspace.Open(dir.string());
    WaitForLoads(workspace);
    ClusterDocument* cluster = workspace.FindCluster(id);
    REQUIRE(cluster != nullptr);
    AttachViews(workspace);
    TimeOverviewView* overview = nullptr;
    for (const auto& view : cluster->views)
        if (!overview) overview = dynamic_cast<TimeOverviewView*>(view.get());
    REQUIRE(overview != nullptr);
    const int few = imgui.DrawClusterView(workspace, *cluster, *overview);
    // The same steps over and over, 200,000 of them, each slower than the one before.
    std::vector<StepOverview> many;
    many.reserve(200000);
    for (size_t s = 0; s < 200000; ++s) {
        StepOverview step = cluster->report.timeOverview[s % cluster->report.timeOverview.size()];
        step.step = std::to_string(s + 1);
        step.maxNs += static_cast<TimeNs>(s);
        many.push_back(std::move(step));
    }
    cluster->report.timeOverview = std::move(many);
    const int folded = imgui.DrawClusterView(workspace, *cluster, *overview);
    CHECK(few > 0);
    // Points at most every 2 px of a 1600 px window: the band, bars and three lines of ~800 points.
    CHECK(folded < 30000);
    CHECK(folded > few);
    workspace.Close(id);
    fs::remove_all(dir);
}

TEST_CASE(
    "the data-preparation view draws a generated input-bound rank: queues, pipeline, verdict") {
    HeadlessImGui imgui;
    Workspace workspace;
    const fs::path dir =
        fs::temp_directory_path() / ("marey_workspace_data_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    REQUIRE(std::system((std::string(MAREY_GEN) + " --events 3000 --rank-dir " + dir.string() +
                         " --data-preparation 2>/dev/null")
                            .c_str()) == 0);
    const DocumentId id = workspace.Open(dir.string());
    WaitForLoads(workspace);
    Document* document = workspace.Find(id);
    REQUIRE(document != nullptr);
    REQUIRE(document->analysis().dataPreparation);
    std::map<std::string, int> before;
    for (int frame = 0; frame < 3; ++frame) {
        const std::map<std::string, int> drawn = imgui.DrawDocumentViews(workspace, *document);
        // Ten steps of two queues, three operators with their queues, the bottleneck's table, the
        // profiler's own analysis and the queue over time: far more than the notice of a rank
        // without the files.
        CHECK(drawn.at("data") > 4000);
        // Once ImGui has sized the tables' columns (the first frame), the same each frame.
        if (frame == 2) CHECK(drawn.at("data") == before.at("data"));
        before = drawn;
    }
    workspace.Close(id);
    fs::remove_all(dir);
}

TEST_CASE("the resources view draws a generated rank's FLOPs: summary, operators, scope tree") {
    HeadlessImGui imgui;
    Workspace workspace;
    const fs::path dir =
        fs::temp_directory_path() / ("marey_workspace_flops_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    REQUIRE(std::system((std::string(MAREY_GEN) + " --cluster " + dir.string() +
                         " --ranks 2 --steps 2 --heavy-flops-rank 1 2>/dev/null")
                            .c_str()) == 0);
    const DocumentId id = workspace.Open((dir / "rank_1_ascend_pt").string());
    WaitForLoads(workspace);
    Document* document = workspace.Find(id);
    REQUIRE(document != nullptr);
    REQUIRE(document->analysis().flops);
    CHECK(document->analysis().flops->operators.size() == 4);
    std::map<std::string, int> first;
    for (int frame = 0; frame < 3; ++frame) {
        const std::map<std::string, int> drawn = imgui.DrawDocumentViews(workspace, *document);
        // Four operators with their bars, the scope tree open down to the layers: far more than
        // the notice of a rank without the files.
        CHECK(drawn.at("resources") > 3000);
        if (frame == 0) first = drawn;
        if (frame == 2) CHECK(drawn.at("resources") == first.at("resources"));
    }
    workspace.Close(id);
    fs::remove_all(dir);
}
