#pragma once
// Device: what the open rank's trace alone says about its device (docs/trace-analyses.md), for
// all steps or one ProfilerStep: where the time went, which kernel classes ran together, why each
// stream sat idle, and how the host launched. Every figure that stands for intervals can be
// clicked to list them below; a row of the list zooms the timeline to it.
#include <array>
#include <optional>
#include <string>

#include "rank/RankOverview.hpp"
#include "views/FigureSourceList.hpp"
#include "viewkit/View.hpp"

namespace marey {

struct Document;
struct RankAnalysis;

class DeviceView : public View {
public:
    explicit DeviceView(Document& document) : m_document(document) {}
    void Draw(ViewContext& context) override;
    void TakeOver(View& previous) override;

private:
    // The figures of the chosen scope, and the scope; nullopt figures when there are none.
    const ActivityFigures& Figures(const RankTraceAnalysis& rank) const;
    FigureScope Scope(const TraceAnalyses& analyses, const RankTraceAnalysis& rank) const;
    // Lists what lies behind 'source' (clicking the listed figure again hides the list).
    void Show(const FigureSource& source);
    void ChooseStep(std::optional<size_t> step);
    std::string StepLabelText() const;  // "all steps", "step 5"

    void DrawHeader(const RankAnalysis& analysis, TimelineRequest& request);
    void DrawTemporal(const DeviceTime& time);
    void DrawOverviewRelation(const OverviewFigures& overview, const DeviceTime& time);
    void DrawClassSets(const DeviceTime& time);
    void DrawIdle(const std::vector<StreamIdle>& idle);
    void DrawLaunches(const LaunchSummary& launch, const std::vector<StreamQueue>& queues);
    void DrawSources(const RankAnalysis& analysis, TimelineRequest& request);
    // A figure in a table cell, right-aligned, that lists its source when clicked; plain text
    // when 'source' is kNone or there is nothing behind it.
    void FigureCell(const std::string& text, const FigureSource& source, bool any,
                    const char* tooltip);

    Document& m_document;
    // DrawOverviewRelation's sentence, made again only when the figures it names change.
    std::string m_overviewRelation;
    std::array<TimeNs, 4> m_overviewRelationOf{};
    // The chosen step: an index into RankTraceAnalysis::steps; nullopt for all steps.
    std::optional<size_t> m_step;
    FigureSourceList m_sources;
    // Clicked (or the step changed) this frame: listed once the figures are drawn.
    FigureSource m_pending;
    bool m_pendingSet = false;
    bool m_scrollToSources = false;
};

}  // namespace marey
