#pragma once
// One opened trace, rank folder or kernel_details.csv: its model and analysis (immutable once
// loaded), its small summary, what the timeline derives from it on the loading thread, and the
// objects of the views that show it (made by the view registry; their types are not known here).
// Everything that points into the model lives here, so nothing outlives or confuses the
// document it belongs to.
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "compare/RankSummary.hpp"
#include "rank/LoadedRank.hpp"
#include "viewkit/View.hpp"
#include "base/Ids.hpp"

namespace marey {

struct TimelineData;

// Several ranks in one timeline: what they are and how their clocks are lined up.
struct RanksInOneTimeline {
    std::vector<std::string> paths;  // of the ranks shown, in group order
    std::vector<std::string> steps;  // the steps every rank marks: what can be aligned
    std::string alignedStep;         // empty: each rank on its own clock
    bool stepAsked = false;          // a step was chosen (not the first they share): shown first
    TimeNs alignedStartNs = 0, alignedEndNs = 0;  // the aligned step, absolute
    std::vector<std::string> failures;            // ranks asked for that could not be read
};

struct Document {
    Document();
    ~Document();
    Document(const Document&) = delete;
    Document& operator=(const Document&) = delete;

    DocumentId id;
    LoadedRank rank;      // model (never null in a document) and analysis
    RankSummary summary;  // built on the loading thread
    // Built on the loading thread: the timeline's counter scales, flow categories and minimap.
    std::shared_ptr<const TimelineData> timelineData;
    bool hasOverlapAnalysis = false;  // an Ascend trace with the time classes the legend explains
    // The timeline is shown while the loading thread computes the rank's analyses: 'analysis'
    // is empty until the whole document arrives (Workspace::Poll moves it in).
    bool analysisPending = false;
    // Set when the analyses arrived, until the view registry has made the views that show them.
    bool analysisArrived = false;
    // When the loading thread had the model ready (MAREY_TIMING measures the first frame from it).
    std::chrono::steady_clock::time_point modelReadyAt = std::chrono::steady_clock::now();
    // Set when the document is several ranks in one timeline (its model has one group per rank);
    // rank.path is then empty and the analysis views do not apply.
    std::optional<RanksInOneTimeline> ranks;

    const TraceModel& model() const { return *rank.model; }
    const RankAnalysis& analysis() const { return *rank.analysis; }
    // "rank 3 · trace_view.json", or the file name outside a rank folder; "ranks 0, 1, 5".
    std::string Title() const;
    // What the document was read from: its path, or the paths of its ranks.
    std::string Source() const;

    // The document this one was loaded again to replace (ranks aligned on another step), kept
    // until the view registry has handed its views' state to this one's; then null.
    std::unique_ptr<Document> replaced;

    // The objects of the views that show the document; declared last: they hold a reference to
    // it and go first.
    ViewList views;
};

}  // namespace marey
