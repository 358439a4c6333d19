#pragma once
// The comparison's two timelines on one time axis. The view keeps what a person chose there
// (sync, the half the keys move); the diff view asks it to place B after bringing A to a run.
#include "viewkit/View.hpp"

namespace marey {

class CompareTimelinesView : public View {
public:
    void Draw(ViewContext& context) override;
    bool FillsTab() const override { return true; }
    // Keeps sync and focus of the comparison compared again; B is placed again from A, since
    // the alignment may have changed.
    void TakeOver(View& previous) override;

    // One time axis: moving either timeline moves the other.
    bool Synced() const { return m_sync; }
    // The height of one timeline at the last frame.
    float HalfHeightPx() const { return m_halfHeightPx; }
    // After another view moved the timelines: 'fromA' sets B's view from A's at the next frame,
    // else B keeps where it was put.
    void PlaceBFromA(bool fromA) { m_placed = !fromA; }

private:
    bool m_sync = true;      // one time axis
    bool m_focusB = false;   // which timeline the keys move (the one under the mouse, or Tab)
    bool m_placed = false;   // B's view has been set from A's since the alignment changed
    bool m_laidOut = false;  // the first screen's tall host processes are folded
    bool m_firstScreenShown = false;  // A shows the aligned step once the alignment is known
    float m_halfHeightPx = 360.0f;
    double m_lastStartA = 0, m_lastEndA = 0, m_lastStartB = 0, m_lastEndB = 0;  // last frame's
};

}  // namespace marey
