#pragma once
// The list under the Device view: what lies behind the figure a person clicked (idle gaps, the
// time ranges of a breakdown, launch outliers), one row per interval, each of which can zoom the
// timeline to itself. Built when a figure is clicked or the step changes, never per frame.
#include <string>
#include <vector>

#include "model/TraceModel.hpp"
#include "trace/FigureIntervals.hpp"
#include "viewkit/ViewCommon.hpp"

namespace marey {

// Which figure was clicked: its kind and what picks it among its kind.
struct FigureSource {
    enum Kind { kNone, kTime, kClassSet, kGaps, kRuntimeOutliers, kDelayOutliers } kind = kNone;
    TimeFigure time = TimeFigure::kIdle;  // kTime
    ClassSet classes = 0;                 // kClassSet
    uint32_t stream = 0;                  // kGaps: index into DeviceActivities::streams
    GapKind gap = GapKind::kHostWait;     // kGaps
    bool operator==(const FigureSource&) const = default;
};

struct FigureSourceRow {
    TimeNs startNs = 0, endNs = 0;          // the interval or the activity, absolute
    TimeNs valueNs = 0;                     // its length, or the outlier's CPU time or delay
    TimeNs zoomStartNs = 0, zoomEndNs = 0;  // what the timeline shows: from the launch, if any
    std::string name;                       // the activity's name (outliers)
    uint32_t track = UINT32_MAX;            // its stream's track; none for spans of several
};

class FigureSourceList {
public:
    // Lists what lies behind 'source' over 'scope' ('figures' are that scope's). O(activities).
    void Build(const TraceAnalyses& analyses, const TraceModel& model, const FigureScope& scope,
               const ActivityFigures& figures, const FigureSource& source);
    void Clear() { *this = FigureSourceList(); }

    const FigureSource& source() const { return m_source; }
    const std::vector<FigureSourceRow>& rows() const { return m_rows; }
    // "Host wait of stream 7 (device 0)": what the list is of.
    const std::string& title() const { return m_title; }
    // The header of the value column: "Duration", "Launch delay", "CPU launch time".
    const char* valueHeader() const;

    // Asks the timeline to show row 'row' (switching to the Timeline tab) and marks it chosen.
    void ZoomTo(size_t row, TimelineRequest& request);
    size_t chosen() const { return m_chosen; }

    // The list as a table: start from 'traceStartNs', value, name; clicking a row zooms to it.
    void Draw(TimeNs traceStartNs, TimelineRequest& request);

private:
    FigureSource m_source;
    std::vector<FigureSourceRow> m_rows;
    std::string m_title;
    size_t m_chosen = SIZE_MAX;
};

}  // namespace marey
