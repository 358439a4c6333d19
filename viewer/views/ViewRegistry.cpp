#include "views/ViewRegistry.hpp"

namespace marey {

const std::vector<ViewEntry>& Views() {
    using S = ViewScope;
    static const std::vector<ViewEntry> views = {
        {"timeline", "Timeline", S::kDocument, DrawTimelineTab},
        {"overview", "Overview", S::kDocument, [](ViewContext& c) { c.document->views.overview.Draw(c.document->analysis(), c.request); }},
        {"operators", "Operators", S::kDocument, [](ViewContext& c) { c.document->views.operators.Draw(c.document->analysis(), c.request); }},
        {"steps", "Steps", S::kDocument, [](ViewContext& c) { c.document->views.steps.Draw(c.document->analysis(), c.request); }},
        {"communication", "Communication", S::kDocument, [](ViewContext& c) { c.document->views.communication.Draw(c.document->analysis(), c.request); }},
        {"memory", "Memory", S::kDocument, [](ViewContext& c) { c.document->views.memory.Draw(c.document->analysis(), c.request); }},
        {"timeline", "Timelines A / B", S::kComparison, DrawCompareTimelines},
        {"timeline", "Timeline of several ranks", S::kRanks, DrawTimelineTab},
        {"compare", "Diff", S::kComparison, DrawDiffView},
        {"steps", "Step trace", S::kCluster, DrawClusterSteps},
        {"overview", "Overview by rank", S::kCluster, DrawClusterOverview},
        {"matrix", "Communication matrix", S::kCluster, DrawCommunicationMatrix},
        {"communication", "Communication across ranks", S::kCluster, DrawCollectives},
        {"time", "Time overview", S::kCluster, DrawTimeOverview},
        {"marey", "Marey", S::kCluster, DrawMarey},
    };
    return views;
}

ViewScope ScopeOf(const Document* document) {
    if (!document) return ViewScope::kCluster;
    return document->ranks ? ViewScope::kRanks : ViewScope::kDocument;
}

std::vector<const ViewEntry*> ViewsOf(ViewScope scope) {
    std::vector<const ViewEntry*> views;
    for (const ViewEntry& view : Views())
        if (view.scope == scope) views.push_back(&view);
    return views;
}

}  // namespace marey
