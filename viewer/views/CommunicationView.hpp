#pragma once
// Communication of one rank: for each communication operator, elapse, transit, wait,
// synchronisation and idle time with ratios (sortable; click to see it in the timeline);
// bandwidth and transit size per transport type with the packet size distribution; the links
// of communication_matrix.json.
#include "rank/RankAnalysis.hpp"
#include "viewkit/View.hpp"
#include "viewkit/ViewCommon.hpp"

namespace marey {

class CommunicationView : public View {
public:
    void Draw(ViewContext& context) override;
    void Draw(const RankAnalysis& analysis, TimelineRequest& request);

private:
    void DrawFromTrace(const RankAnalysis& analysis, TimelineRequest& request);
    void DrawOperators(const RankAnalysis& analysis, TimelineRequest& request);
    void DrawTransports(const RankAnalysis& analysis);
    void DrawPackets(const TransportTotal& transport, float width, float height);
    void DrawLinks(const RankAnalysis& analysis);

    std::vector<size_t> m_order;  // operator rows in display order
    bool m_orderValid = false;  // the view belongs to one document: only a new sort invalidates it
    int m_sortColumn = 0;
    bool m_sortAscending = true;
    size_t m_selected = SIZE_MAX;
    int m_transport = 0;
};

}  // namespace marey
