#pragma once
// Steps of one rank: per step, computing, communication not overlapped, overlapped, free, and
// stage / bubble when present, as stacked bars with a step selector and a table. Clicking a step
// zooms the timeline to it.
#include "rank/RankAnalysis.hpp"
#include "viewkit/View.hpp"
#include "viewkit/ViewCommon.hpp"

namespace marey {

class StepsView : public View {
public:
    void Draw(ViewContext& context) override;
    void Draw(const RankAnalysis& analysis, TimelineRequest& request);

private:
    void DrawBars(const RankAnalysis& analysis, TimelineRequest& request, float height);
    void DrawTable(const RankAnalysis& analysis, TimelineRequest& request);
    void Choose(const RankAnalysis& analysis, size_t step, TimelineRequest& request);

    size_t m_selected = 0;
};

}  // namespace marey
