#pragma once
// The Timeline tab of one document (or of several ranks in one timeline): search box and legend,
// the timeline, and its side panel (details, range statistics, search matches, import issues).
// It owns the timeline's view state (range, selection, folding, hover) and the panels'; the
// comparison draws the same timeline (TimelineOf in the registry).
#include <utility>

#include "panels/DetailsPanel.hpp"
#include "panels/ImportIssuesPanel.hpp"
#include "panels/RangeStatsPanel.hpp"
#include "panels/SearchPanel.hpp"
#include "timeline/TimelineView.hpp"
#include "viewkit/View.hpp"

namespace marey {

struct Document;
class Workspace;

class TimelineTab : public View {
public:
    // Opens on the import issues when the document has any, else on the details. Several ranks
    // start folded, on the step chosen when one was. O(tracks).
    explicit TimelineTab(Document& document);

    void Draw(ViewContext& context) override;
    bool FillsTab() const override { return true; }
    // A search or range statistics running.
    bool Busy() const override;
    // Takes a finished search into the timeline, whichever tab is shown.
    void Update() override;
    void Apply(const TimelineRequest& request) override;
    // Keeps the folding (and, unless aligned on a step, the view) of the timeline replaced.
    void TakeOver(View& previous) override;
    bool DrawsBeforeAnalyses() const override { return true; }
    void AnalysesArrived() override;

    TimelineView& timeline() { return m_timeline; }
    TimelineView* Timeline() override { return &m_timeline; }

    // For the frame benchmark: the search and the range statistics, and the side panel's tab.
    SearchPanel& search() { return m_search; }
    const RangeStatsPanel& range() const { return m_range; }
    void ShowPanel(int tab) { m_sideTab = tab; }
    // The side panel tab drawn last: "details", "range", "search", "issues"; "" before any.
    const char* ShownPanel() const;

private:
    void DrawToolbar(Workspace& workspace);
    void DrawSidePanel();
    void PlaceFirstScreen();

    Document& m_document;
    TimelineView m_timeline;
    DetailsPanel m_details;
    RangeStatsPanel m_range;
    SearchPanel m_search;
    ImportIssuesPanel m_issues;
    int m_sideTab = 0;  // side panel tab to bring forward, -1 once shown
    // The view the timeline starts with, and whether the first frame moved it to the device.
    std::pair<double, double> m_initialView;
    bool m_firstScreenPlaced = false;
    bool m_hadRange = false;  // a range selection was shown last frame
    int m_shownTab = -1;      // the side panel tab drawn last
};

}  // namespace marey
