#pragma once
// Every main view, listed once (ViewRegistry.cpp): its name for --view, its tab title, whether it
// shows one document or the comparison of two, and how it draws. Adding a view is one line there.
#include <vector>

#include "LayoutSettings.hpp"
#include "clusterviews/ClusterCommon.hpp"
#include "render/BoxRenderer.hpp"
#include "render/MareyRenderer.hpp"
#include "views/ViewCommon.hpp"
#include "workspace/Workspace.hpp"

namespace marey {

// What a view is given to draw: the workspace and what it shows.
struct ViewContext {
    Workspace& workspace;
    Document* document;          // kDocument views: the document shown
    ComparisonPair* comparison;  // kComparison views: the pair shown (both documents loaded)
    ClusterDocument* cluster;    // kCluster views: the cluster shown
    BoxRenderer& boxes;          // the timeline's instanced boxes
    BoxRenderer& boxesB;         // a second batch, for the lower timeline of a comparison
    float frameDt;
    TimelineRequest& request;    // what the view asks of the document's timeline
    LayoutSettings& layout;      // panel and column sizes a person chose
    ClusterRequest& clusterRequest;  // what a cluster view asks to open
    MareyRenderer& marey;            // the Marey view's bars and bands
};

// kRanks: a document that holds several ranks in one timeline (one rank's views do not apply).
enum class ViewScope { kDocument, kComparison, kCluster, kRanks };

struct ViewEntry {
    const char* name;   // for --view
    const char* title;  // tab title
    ViewScope scope;
    void (*draw)(ViewContext& context);
};

// Every view, in tab order.
const std::vector<ViewEntry>& Views();

// The views of one scope, in tab order (Ctrl+1 … selects among them).
std::vector<const ViewEntry*> ViewsOf(ViewScope scope);

// The scope of what is shown: a document (of one rank or of several), or else a cluster.
ViewScope ScopeOf(const Document* document);

// Draw functions of views that live in their own files.
void DrawTimelineTab(ViewContext& context);
void DrawCompareTimelines(ViewContext& context);
void DrawDiffView(ViewContext& context);
void DrawClusterSteps(ViewContext& context);
void DrawClusterOverview(ViewContext& context);
void DrawCommunicationMatrix(ViewContext& context);
void DrawCollectives(ViewContext& context);
void DrawTimeOverview(ViewContext& context);
void DrawMarey(ViewContext& context);

}  // namespace marey
