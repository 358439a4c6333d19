#pragma once
// Time overview of a cluster: step time and its phases per rank on a double axis.
#include "viewkit/View.hpp"

namespace marey {

class TimeOverviewView : public View {
public:
    void Draw(ViewContext& context) override;
};

}  // namespace marey
