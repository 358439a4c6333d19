#pragma once
// What a view is given to draw: the workspace, what it shows, the renderers and what it may ask
// of the application.
// of the application. Declared only: the view kit lies below the documents and the views, so
// a view includes the headers of what it uses.
#include <optional>

namespace marey {

class BoxRenderer;
class MareyRenderer;
class Workspace;
struct ClusterDocument;
struct ClusterRequest;
struct ComparisonOptions;
struct ComparisonPair;
struct Document;
struct LayoutSettings;
struct TimelineRequest;

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
    // Another alignment or step a comparison view asks for: the application compares again once
    // the frame's views are drawn, since they hold pointers into the current diff while they draw.
    std::optional<ComparisonOptions>& recompare;
};

}  // namespace marey
