#pragma once
// The comparison's two timelines on one time axis (its state is the pair's CompareViewState).
#include "views/View.hpp"

namespace marey {

class CompareTimelinesView : public View {
public:
    void Draw(ViewContext& context) override;
    bool FillsTab() const override { return true; }
};

}  // namespace marey
