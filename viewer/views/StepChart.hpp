#pragma once
// A chart with one slot per step, as the data-preparation view draws three of them: its plot
// area, labels on its value axis, the step names under it (as many as fit without overlapping)
// and the step under the mouse, outlined. What is drawn in each slot is the caller's.
#include <imgui.h>

#include <cstddef>
#include <string>
#include <vector>

namespace marey {

class StepChart {
public:
    // Lays the chart out at the cursor: 'height' pixels in all, 'steps' slots across the width
    // left after the value axis, and a row for the step names under the plot.
    StepChart(size_t steps, float height);

    ImDrawList* draw() const { return m_draw; }
    float SlotLeft(size_t i) const { return m_x0 + m_slot * static_cast<float>(i); }
    float slot() const { return m_slot; }
    float bottom() const { return m_bottom; }
    // The y of 'fraction' of the plot's height: 0 at the bottom, 1 at the top.
    float Y(double fraction) const;

    // A bar in slot i from the bottom to 'fraction' of the height, 'widthShare' of the slot
    // wide, centred.
    void Bar(size_t i, double fraction, ImU32 color, float widthShare = 0.6f) const;
    // 'text' on the value axis at 'fraction' of the height, kept inside the plot's height.
    void AxisLabel(const std::string& text, double fraction) const;
    // The names under the plot, every n-th so that none overlaps the next.
    void StepLabels(const std::vector<std::string>& names) const;

    // Takes the chart's space with an item named 'id'; returns the step under the mouse (and
    // outlines its slot), or SIZE_MAX.
    size_t Finish(const char* id) const;

private:
    ImDrawList* m_draw = nullptr;
    ImVec2 m_origin;
    float m_width = 0, m_height = 0;
    float m_x0 = 0, m_top = 0, m_bottom = 0, m_slot = 1;
    size_t m_steps = 0;
};

}  // namespace marey
