#pragma once
// Statistics of the range selection (shift-drag): one row per name with count, total, self
// time, average, min, max and share of the range; sortable; copied as CSV.
#include <string>
#include <vector>

#include "base/BackgroundJob.hpp"
#include "index/RangeStats.hpp"

namespace marey {

class TimelineView;

class RangeStatsPanel {
public:
    void DrawContents(TimelineView& timeline);
    bool Computing() const { return m_job.Busy(); }
    // The table as CSV text (header line, then one line per name).
    static std::string ToCsv(const TraceModel& model, const RangeStatsResult& stats);

private:
    void SortRows(const TraceModel& model);
    void DrawHeaderRow();

    TimeNs m_start = 0, m_end = 0;
    std::vector<uint32_t> m_tracks;
    RangeStatsResult m_stats;  // of the last finished computation
    bool m_valid = false;      // m_start, m_end and m_tracks are what was last asked for
    BackgroundJob<RangeStatsResult> m_job;
    double m_copiedAt = -100;  // ImGui time of the last Copy as CSV, for its note
    size_t m_copiedRows = 0;
    int m_sortColumn = 2;
    bool m_sortAscending = false;
};

}  // namespace marey
