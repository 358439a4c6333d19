#pragma once
// What a view is given to draw: the workspace, what it shows, the renderers and what it may ask
// of the application.
#include "LayoutSettings.hpp"
#include "clusterviews/ClusterCommon.hpp"
#include "render/BoxRenderer.hpp"
#include "render/MareyRenderer.hpp"
#include "views/ViewCommon.hpp"
#include "workspace/Workspace.hpp"

namespace marey {

struct ViewContext {
    Workspace& workspace;
    Document* document;          // kDocument and kRanks views: the document shown
    ComparisonPair* comparison;  // kComparison views: the pair shown (both documents loaded)
    ClusterDocument* cluster;    // kCluster views: the cluster shown
    BoxRenderer& boxes;          // the timeline's instanced boxes
    BoxRenderer& boxesB;         // a second batch, for the lower timeline of a comparison
    float frameDt;
    TimelineRequest& request;        // what the view asks of the document's timeline
    LayoutSettings& layout;          // panel and column sizes a person chose
    ClusterRequest& clusterRequest;  // what a cluster view asks to open
    MareyRenderer& marey;            // the Marey view's bars and bands
};

}  // namespace marey
