#pragma once
// Memory of one rank: allocated, reserved and active memory over time per component
// (memory_record.csv) with their peaks, and every operator allocation (operator_memory.csv),
// sortable, click to see its lifetime in the timeline.
#include <vector>

#include "rank/RankAnalysis.hpp"
#include "viewkit/View.hpp"
#include "viewkit/ViewCommon.hpp"

namespace marey {

class MemoryView : public View {
public:
    void Draw(ViewContext& context) override;
    void Draw(const RankAnalysis& analysis, TimelineRequest& request);

private:
    // Times are shown from 'originNs', the timeline's origin (or the data's first time).
    void DrawCurves(const MemoryRecord& record, float height, TimeNs originNs);
    void DrawAllocations(const OperatorMemory& memory, TimelineRequest& request, TimeNs originNs);

    std::vector<char> m_shown;  // per series
    std::vector<size_t> m_order;
    bool m_orderValid = false;  // the view belongs to one document: only a new sort invalidates it
    int m_sortColumn = 1;
    bool m_sortAscending = false;
    size_t m_selected = SIZE_MAX;
};

}  // namespace marey
