#pragma once
// One opened trace, rank folder or kernel_details.csv: its model and analysis (immutable once
// loaded), its small summary, the timeline built from it on the loading thread, and the objects
// of the views that show it (made by the view registry; their types are not known here).
// Everything that points into the model lives here, so nothing outlives or confuses the
// document it belongs to.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "stats/LoadedRank.hpp"
#include "stats/RankSummary.hpp"
#include "views/View.hpp"
#include "workspace/Ids.hpp"

namespace marey {

class TimelineView;

// Several ranks in one timeline: what they are and how their clocks are lined up.
struct RanksInOneTimeline {
    std::vector<std::string> paths;  // of the ranks shown, in group order
    std::vector<std::string> steps;  // the steps every rank marks: what can be aligned
    std::string alignedStep;         // empty: each rank on its own clock
    std::vector<std::string> failures;  // ranks asked for that could not be read
};

struct Document {
    Document();
    ~Document();
    Document(const Document&) = delete;
    Document& operator=(const Document&) = delete;

    DocumentId id;
    LoadedRank rank;      // model (never null in a document) and analysis
    RankSummary summary;  // built on the loading thread
    // Built on the loading thread (minimap, counter scales, flows), and shared by the views that
    // show the document's timeline: its own Timeline tab and the comparison's.
    std::unique_ptr<TimelineView> timeline;
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

    // The objects of the views that show the document; declared last: they hold a reference to
    // it and go first.
    ViewList views;
};

}  // namespace marey
