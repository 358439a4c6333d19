#pragma once
// One opened trace, rank folder or kernel_details.csv: its model and analysis (immutable once
// loaded), its small summary, the timeline's derived data and view state, and the state of every
// view and panel that shows it. Everything that points into the model lives here, so nothing
// outlives or confuses the document it belongs to.
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>
#include <string>

#include "compare/RankSummary.hpp"
#include "loading/RankLoader.hpp"
#include "panels/DetailsPanel.hpp"
#include "panels/ImportIssuesPanel.hpp"
#include "panels/RangeStatsPanel.hpp"
#include "panels/SearchPanel.hpp"
#include "timeline/TimelineView.hpp"
#include "views/CommunicationView.hpp"
#include "views/MemoryView.hpp"
#include "views/OperatorsView.hpp"
#include "views/OverviewView.hpp"
#include "views/StepsView.hpp"

namespace marey {

// Never reused within a run; 0 means none.
using DocumentId = uint32_t;

// Sort orders, filters and selections of the views, per document.
struct DocumentViews {
    OverviewView overview;
    OperatorsView operators;
    StepsView steps;
    CommunicationView communication;
    MemoryView memory;
    DetailsPanel details;
    RangeStatsPanel range;
    SearchPanel search;
    ImportIssuesPanel issues;
    int sideTab = 0;  // requested side panel tab, -1 once shown
    bool hadRange = false;  // a range selection was shown last frame
};

// Several ranks in one timeline: what they are and how their clocks are lined up.
struct RanksInOneTimeline {
    std::vector<std::string> paths;  // of the ranks shown, in group order
    std::vector<std::string> steps;  // the steps every rank marks: what can be aligned
    std::string alignedStep;         // empty: each rank on its own clock
    std::vector<std::string> failures;  // ranks asked for that could not be read
};

struct Document {
    DocumentId id = 0;
    LoadedRank rank;      // model (never null in a document) and analysis
    RankSummary summary;  // built on the loading thread
    std::unique_ptr<TimelineView> timeline;  // built on the loading thread: minimap, counter scales, flows
    DocumentViews views;
    bool hasOverlapAnalysis = false;  // an Ascend trace with the time classes the legend explains
    // Set when the document is several ranks in one timeline (its model has one group per rank);
    // rank.path is then empty and the analysis views do not apply.
    std::optional<RanksInOneTimeline> ranks;

    const TraceModel& model() const { return *rank.model; }
    const RankAnalysis& analysis() const { return *rank.analysis; }
    // "rank 3 · trace_view.json", or the file name outside a rank folder; "ranks 0, 1, 5".
    std::string Title() const;
    // What the document was read from: its path, or the paths of its ranks.
    std::string Source() const;
};

}  // namespace marey
