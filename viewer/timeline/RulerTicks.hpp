#pragma once
// Where the time ruler puts its ticks and what their labels say; no drawing, so it is tested
// headless. Ticks fall on 1-2-5 steps; labels carry the step's unit. Deep in a long trace, where
// plain labels would need eight or more digits, labels count from an anchor tick instead
// ("+20 ns"), as Tracy and Perfetto do, and the anchor is given once in full.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace marey {

struct RulerTick {
    double ns;  // relative to the trace start
    float x;    // pixels from the ruler's left edge
    bool
        labelled;  // a label fits entirely inside the ruler (never a clipped, wrong-looking number)
    std::string label;  // empty for minor ticks
};

struct RulerLayout {
    double stepNs = 1;
    std::vector<RulerTick> ticks;  // major ticks and four minor ticks between each
    bool fromAnchor = false;       // labels count from 'anchorNs'
    double anchorNs = 0;
    std::string anchorLabel;  // the anchor in full ("131.000120 ms"), when fromAnchor
};

// Ticks of the view [viewStartNs, viewEndNs) drawn over 'widthPx'; majors at least
// 'minSpacingPx' apart. 'textWidth' measures a label in pixels. O(ticks).
RulerLayout LayoutRuler(double viewStartNs, double viewEndNs, float widthPx, float minSpacingPx,
                        const std::function<float(const std::string&)>& textWidth);

// The time under the mouse, to the pixel: 'ns' in the unit its size calls for, with the
// decimals that one pixel ('nsPerPx') needs ("131.000124 ms").
std::string CursorLabel(double ns, double nsPerPx);

// A plain tick's label: 'ns' in the unit of the view's largest time 'largestNs' (so that one
// ruler reads in one unit: "139.002 ms", not "139002 µs"), with the decimals 'stepNs' needs.
std::string TickLabel(double ns, double stepNs, double largestNs);

// The first line of the ruler's corner for the view's left edge: a UTC date and time to the ns
// when 'absoluteNs' looks like time since the Unix epoch (after 2000), else the edge on the
// trace's own axis, "from 12.345 ms" or "from the start" ('relativeNs', to the precision of a pixel
// 'nsPerPx').
std::string ClockText(int64_t absoluteNs, double relativeNs, double nsPerPx);

// "12.5 ms": 'ns' in the unit of 'stepNs' with the decimals that tell neighbouring steps apart.
std::string StepLabel(double ns, double stepNs);

}  // namespace marey
