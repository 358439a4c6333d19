#pragma once
// Overview by rank: how each rank of a cluster spent its time, with the findings across ranks.
#include "views/View.hpp"

namespace marey {

class RankOverviewView : public View {
public:
    void Draw(ViewContext& context) override;
};

}  // namespace marey
