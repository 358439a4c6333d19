#pragma once
// Details of the selected slice: every field and arg (parsed from the file on demand), the
// flows in and out with a jump to the other end, the parent and the children.
#include <vector>

#include "base/ViewState.hpp"
#include "model/TraceModel.hpp"

namespace marey {

class TimelineView;

class DetailsPanel {
public:
    void DrawContents(TimelineView& timeline);

private:
    void Refresh(TimelineView& timeline);

    SliceRef m_for;
    std::vector<uint32_t> m_flowsOut, m_flowsIn;  // indices into model.flows
};

}  // namespace marey
