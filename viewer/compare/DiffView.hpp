#pragma once
// The comparison's diff of two documents (its state is the pair's CompareViewState).
#include "views/View.hpp"

namespace marey {

class DiffView : public View {
public:
    void Draw(ViewContext& context) override;
};

}  // namespace marey
