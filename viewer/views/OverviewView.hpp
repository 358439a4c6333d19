#pragma once
// Overview of one rank: where the device's time went (computing, pure computing, communication
// overlapped or not, free) as a stacked bar and a table, the advice for the three problem
// classes, and which profiler files the folder holds.
#include "rank/RankAnalysis.hpp"
#include "viewkit/View.hpp"
#include "viewkit/ViewCommon.hpp"

namespace marey {

class OverviewView : public View {
public:
    void Draw(ViewContext& context) override;
    void Draw(const RankAnalysis& analysis, TimelineRequest& request);
};

}  // namespace marey
