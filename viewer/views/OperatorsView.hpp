#pragma once
// Operators of one rank: by name or by type, count, total, average, min, max and share; AI Core
// against AI CPU; a sortable table with fuzzy search, a top-20 bar chart and a share chart.
// Clicking an operator highlights its occurrences in the timeline.
#include <string>
#include <vector>

#include "rank/RankAnalysis.hpp"
#include "viewkit/View.hpp"
#include "viewkit/ViewCommon.hpp"

namespace marey {

class OperatorsView : public View {
public:
    void Draw(ViewContext& context) override;
    void Draw(const RankAnalysis& analysis, TimelineRequest& request);

    // Rows of 'stats' that match 'pattern' (fuzzy), best match first; all rows in table order
    // for an empty pattern. Public for tests.
    static std::vector<size_t> Filter(const std::vector<OperatorStat>& stats,
                                      const std::string& pattern);

private:
    void DrawTable(const RankAnalysis& analysis, const std::vector<OperatorStat>& stats,
                   TimelineRequest& request);
    void DrawTopChart(const std::vector<OperatorStat>& stats, float width);
    void DrawShareChart(const std::vector<OperatorStat>& stats, float size);
    void Highlight(const RankAnalysis& analysis, const OperatorStat& stat,
                   TimelineRequest& request);

    bool m_byType = false;
    char m_filter[128] = {};
    std::string m_filtered;
    std::vector<size_t> m_rows;  // indexes into the current table, in display order
    bool m_rowsValid = false;    // false after a new sort or table (by name / by type)
    int m_sortColumn = -1;       // -1: the filter's order
    bool m_sortAscending = false;
    std::string m_selected;
};

}  // namespace marey
