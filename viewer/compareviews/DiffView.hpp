#pragma once
// The comparison's diff of two documents. The view keeps what a person chose there: names or
// types, the selected operator, the steps picked.
#include <cstddef>
#include <optional>
#include <string>

#include "viewkit/View.hpp"

namespace marey {

// What a person chose in the diff.
struct DiffChoices {
    bool byType = false;   // the operator table by type instead of by name
    std::string selected;  // the operator (or type) selected
    // The row's last click: its time, taken at the frame after it, so that a slow frame (both
    // timelines brought to the run) does not turn a person's double-click into two clicks.
    double clickedAt = -1e9;
    bool clickSettling = false;
    std::optional<size_t> stepA, stepB;  // indexes into the summaries' steps picked
    bool onlySteps = false;              // the diff covers only the chosen steps
};

class DiffView : public View {
public:
    void Draw(ViewContext& context) override;
    // Keeps the choices of the comparison compared again (another alignment or step).
    void TakeOver(View& previous) override;

private:
    DiffChoices m_choices;
};

}  // namespace marey
