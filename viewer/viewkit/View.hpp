#pragma once
// One view: a tab that shows a document, a cluster or the comparison of two documents. The
// registry (ViewRegistry.cpp) creates one object per view for everything that can show it; the
// object owns the view's settings, caches, selection and background jobs and dies with what it
// shows. Documents hold them as a ViewList and never see their types.
#include <memory>
#include <vector>

namespace marey {

class TimelineView;
struct ViewContext;
struct TimelineRequest;

class View {
public:
    virtual ~View() = default;
    // Draws the tab's contents; called only while the tab is shown.
    virtual void Draw(ViewContext& context) = 0;
    // True when the view fills its tab edge to edge (a timeline); else it is drawn in a padded,
    // scrolling child window.
    virtual bool FillsTab() const { return false; }
    // True while a background job of the view runs: the window keeps drawing until it is done.
    virtual bool Busy() const { return false; }
    // Once per frame, shown or not: takes finished background work in. O(1) unless work finished.
    virtual void Update() {}
    // Waits for the view's background jobs and takes their results (benchmarks and tests).
    virtual void Wait() {}
    // A request sent to every view of a document (highlight names, show a side panel, focus the
    // search box); views it does not concern ignore it.
    virtual void Apply(const TimelineRequest& request) { (void)request; }
    // 'previous' is the same view of the document this one's replaces (loaded again, ranks
    // aligned on another step): keeps what a person set up there.
    virtual void TakeOver(View& previous) { (void)previous; }
    // True when it draws a document whose analyses are still being computed
    // (Document::analysisPending): the timeline. The others show what is being computed instead.
    virtual bool DrawsBeforeAnalyses() const { return false; }
    // The analyses of its document arrived: a view that draws before them takes them in here;
    // the others are made again.
    virtual void AnalysesArrived() {}
    // The frame benchmark: moves the view as a person would, in frame 'frame' of 'frameCount'.
    virtual void BenchmarkFrame(int frame, int frameCount) { (void)frame, (void)frameCount; }
    // The timeline the view draws, when it draws one of its own: a comparison draws the
    // documents' timelines in its halves through this, without knowing the view's type.
    virtual TimelineView* Timeline() { return nullptr; }
};

using ViewList = std::vector<std::unique_ptr<View>>;

// The first timeline among 'views', or null (before views are attached). O(views).
inline TimelineView* TimelineIn(const ViewList& views) {
    for (const auto& view : views)
        if (TimelineView* timeline = view->Timeline()) return timeline;
    return nullptr;
}

// Sends 'request' to every view of a list.
inline void SendTo(const ViewList& views, const TimelineRequest& request) {
    for (const auto& view : views) view->Apply(request);
}

// The first view of type T among 'views', or null. O(views).
template <class T>
T* FindView(const ViewList& views) {
    for (const auto& view : views)
        if (auto* found = dynamic_cast<T*>(view.get())) return found;
    return nullptr;
}

}  // namespace marey
