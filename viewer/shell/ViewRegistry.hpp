#pragma once
// Every main view, listed once (ViewRegistry.cpp): its name for --view, its tab title, what it
// shows (one document, several ranks in one timeline, a cluster or the comparison of two
// documents) and how its object is made. Adding a view is its files, one line there and one
// line in viewer/CMakeLists.txt.
#include <memory>
#include <vector>

#include "viewkit/View.hpp"

namespace marey {

struct ClusterDocument;
class TimelineView;
struct ComparisonPair;
struct Document;
class Workspace;

// kRanks: a document that holds several ranks in one timeline (one rank's views do not apply).
enum class ViewScope { kDocument, kComparison, kCluster, kRanks };

// What a view object is made for: the one pointer of its scope is set.
struct ViewTarget {
    Document* document = nullptr;
    ClusterDocument* cluster = nullptr;
    ComparisonPair* comparison = nullptr;
};

struct ViewEntry {
    const char* name;   // for --view
    const char* title;  // tab title
    ViewScope scope;
    std::unique_ptr<View> (*create)(const ViewTarget& target);
};

// Every view, in tab order.
const std::vector<ViewEntry>& Views();

// The views of one scope, in tab order (Ctrl+1 … selects among them).
std::vector<const ViewEntry*> ViewsOf(ViewScope scope);

// Whether 'path' opens in the cluster views: a cluster folder or file, or a job recorded in one
// Nsight Systems export when 'view' names a cluster view (without one it opens as ranks in one
// timeline).
bool OpensAsCluster(const std::string& path, const std::string& view);

// The scope of what is shown: a document (of one rank or of several), or else a cluster.
ViewScope ScopeOf(const Document* document);

// Gives every document, cluster and comparison of 'workspace' that has none its view objects,
// in the order of ViewsOf(its scope); a document that replaces another gets what its views held
// (View::TakeOver). O(documents) when nothing is new.
void AttachViews(Workspace& workspace);

// The view objects of 'target' (attached or not: then empty).
ViewList& ViewsOfTarget(const ViewTarget& target);

// True when a view of any document, cluster or comparison runs a background job.
bool AnyViewBusy(Workspace& workspace);

// Once per frame: every view takes its finished background work in.
void UpdateViews(Workspace& workspace);

// The timeline of 'document' (its Timeline tab's, which the comparison draws too); null before
// its views are attached.
TimelineView* TimelineOf(Document& document);
// The side panel tab the document's Timeline tab drew last ("details", "range", "search",
// "issues"), or "" when none.
const char* SidePanelOf(Document& document);

// Sends 'request' to every view of 'document'.
void SendToViews(Document& document, const TimelineRequest& request);

}  // namespace marey
