#include "shell/ViewRegistry.hpp"

#include "cluster/ClusterFolder.hpp"
#include "import/nsys/NsysLoader.hpp"
#include <type_traits>

#include "clusterviews/CollectivesView.hpp"
#include "clusterviews/MareyView.hpp"
#include "clusterviews/MatrixView.hpp"
#include "clusterviews/ParallelView.hpp"
#include "clusterviews/PipelineView.hpp"
#include "clusterviews/RankOverviewView.hpp"
#include "clusterviews/StepTraceView.hpp"
#include "clusterviews/TimeOverviewView.hpp"
#include "compareviews/CompareTimelines.hpp"
#include "compareviews/DiffView.hpp"
#include "views/CommunicationView.hpp"
#include "views/DataPreparationView.hpp"
#include "views/DeviceView.hpp"
#include "views/CriticalPathView.hpp"
#include "views/MemoryView.hpp"
#include "views/OperatorsView.hpp"
#include "views/OverviewView.hpp"
#include "views/ResourcesView.hpp"
#include "views/StepsView.hpp"
#include "views/TimelineTab.hpp"
#include "workspace/Workspace.hpp"

namespace marey {
namespace {

// A view made for what it shows: from the document or the cluster when its constructor takes
// one, else from nothing (its state is the comparison's, or it has none).
template <class T>
std::unique_ptr<View> Make(const ViewTarget& target) {
    if constexpr (std::is_constructible_v<T, Document&>)
        return std::make_unique<T>(*target.document);
    else if constexpr (std::is_constructible_v<T, ClusterDocument&>)
        return std::make_unique<T>(*target.cluster);
    else
        return std::make_unique<T>();
}

void Attach(const ViewTarget& target, ViewScope scope) {
    ViewList& views = ViewsOfTarget(target);
    if (!views.empty()) return;
    for (const ViewEntry* entry : ViewsOf(scope)) views.push_back(entry->create(target));
}

// Hands what a person set up in the views of something replaced to the views that replace them.
void TakeOverViews(ViewList& views, const ViewList& before) {
    if (before.size() != views.size()) return;
    for (size_t i = 0; i < before.size(); ++i) views[i]->TakeOver(*before[i]);
}

// Calls 'f' on every view list of the workspace.
template <class F>
void ForEachViewList(Workspace& workspace, F f) {
    for (const auto& document : workspace.documents()) f(document->views);
    for (const auto& cluster : workspace.clusters()) f(cluster->views);
    if (ComparisonPair* pair = workspace.comparison()) f(pair->views);
}

}  // namespace

const std::vector<ViewEntry>& Views() {
    using S = ViewScope;
    static const std::vector<ViewEntry> views = {
        {"timeline", "Timeline", S::kDocument, Make<TimelineTab>},
        {"overview", "Overview", S::kDocument, Make<OverviewView>},
        {"operators", "Operators", S::kDocument, Make<OperatorsView>},
        {"steps", "Steps", S::kDocument, Make<StepsView>},
        {"device", "Device", S::kDocument, Make<DeviceView>},
        {"critical-path", "Critical path", S::kDocument, Make<CriticalPathView>},
        {"communication", "Communication", S::kDocument, Make<CommunicationView>},
        {"memory", "Memory", S::kDocument, Make<MemoryView>},
        {"data", "Data preparation", S::kDocument, Make<DataPreparationView>},
        {"resources", "Resources", S::kDocument, Make<ResourcesView>},
        {"timeline", "Timelines A / B", S::kComparison, Make<CompareTimelinesView>},
        {"timeline", "Timeline of several ranks", S::kRanks, Make<TimelineTab>},
        {"critical-path", "Critical path across the ranks", S::kRanks, Make<CriticalPathView>},
        {"compare", "Diff", S::kComparison, Make<DiffView>},
        {"steps", "Step trace", S::kCluster, Make<StepTraceView>},
        {"overview", "Overview by rank", S::kCluster, Make<RankOverviewView>},
        {"matrix", "Communication matrix", S::kCluster, Make<MatrixView>},
        {"communication", "Communication across ranks", S::kCluster, Make<CollectivesView>},
        {"time", "Time overview", S::kCluster, Make<TimeOverviewView>},
        {"marey", "Marey", S::kCluster, Make<MareyView>},
        {"parallel", "Parallel layout", S::kCluster, Make<ParallelView>},
        {"pipeline", "Pipeline", S::kCluster, Make<PipelineView>},
    };
    return views;
}

ViewScope ScopeOf(const Document* document) {
    if (!document) return ViewScope::kCluster;
    return document->ranks ? ViewScope::kRanks : ViewScope::kDocument;
}

bool OpensAsCluster(const std::string& path, const std::string& view) {
    if (IsClusterPath(path)) return true;
    if (view.empty()) return false;
    for (const ViewEntry* entry : ViewsOf(ViewScope::kCluster))
        if (view == entry->name) return IsNsysJob(path);
    return false;
}

std::vector<const ViewEntry*> ViewsOf(ViewScope scope) {
    std::vector<const ViewEntry*> views;
    for (const ViewEntry& view : Views())
        if (view.scope == scope) views.push_back(&view);
    return views;
}

ViewList& ViewsOfTarget(const ViewTarget& target) {
    if (target.document) return target.document->views;
    if (target.cluster) return target.cluster->views;
    return target.comparison->views;
}

void AttachViews(Workspace& workspace) {
    for (const auto& document : workspace.documents()) {
        ViewTarget target;
        target.document = document.get();
        Attach(target, ScopeOf(document.get()));
        if (document->analysisArrived) {
            const std::vector<const ViewEntry*> entries = ViewsOf(ScopeOf(document.get()));
            for (size_t i = 0; i < document->views.size() && i < entries.size(); ++i) {
                if (document->views[i]->DrawsBeforeAnalyses())
                    document->views[i]->AnalysesArrived();
                else
                    document->views[i] = entries[i]->create(target);
            }
            document->analysisArrived = false;
            document->replaced.reset();  // the empty analysis those views read
            continue;
        }
        if (!document->replaced) continue;
        TakeOverViews(document->views, document->replaced->views);
        document->replaced.reset();
    }
    for (const auto& cluster : workspace.clusters()) {
        ViewTarget target;
        target.cluster = cluster.get();
        Attach(target, ViewScope::kCluster);
    }
    // A comparison's views are made once both documents have their analyses: they line the
    // two timelines up on the steps the analyses find.
    ComparisonPair* pair = workspace.comparison();
    const Document* a = pair ? workspace.Find(pair->a) : nullptr;
    const Document* b = pair ? workspace.Find(pair->b) : nullptr;
    if (a && b && !a->analysisPending && !b->analysisPending) {
        ViewTarget target;
        target.comparison = pair;
        Attach(target, ViewScope::kComparison);
        if (pair->replaced) TakeOverViews(pair->views, pair->replaced->views);
        pair->replaced.reset();
    }
}

bool AnyViewBusy(Workspace& workspace) {
    bool busy = false;
    ForEachViewList(workspace, [&](ViewList& views) {
        for (const auto& view : views) busy = busy || view->Busy();
    });
    return busy;
}

void UpdateViews(Workspace& workspace) {
    ForEachViewList(workspace, [](ViewList& views) {
        for (const auto& view : views) view->Update();
    });
}

TimelineView* TimelineOf(Document& document) {
    return TimelineIn(document.views);
}

const char* SidePanelOf(Document& document) {
    const TimelineTab* tab = FindView<TimelineTab>(document.views);
    return tab ? tab->ShownPanel() : "";
}

void SendToViews(Document& document, const TimelineRequest& request) {
    SendTo(document.views, request);
}

}  // namespace marey
