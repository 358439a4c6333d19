#pragma once
// A line plot of durations per step as inline SVG, for the HTML report: one line per series with
// a legend, a time axis in a unit chosen by size (ns, µs, ms or s, named in the axis title) and a
// step axis whose labels are thinned so that they never overlap. Self-contained: no script, no
// font or style from outside the page; every text escaped.
#include <string>
#include <vector>

#include "core/Time.hpp"

namespace marey {

struct PlotSeries {
    std::string label;                   // in the legend: "baseline"
    std::string colour;                  // a CSS colour: "#2563eb"
    std::vector<std::string> stepNames;  // for each point's tooltip; may be shorter than values
    std::vector<TimeNs> valuesNs;        // point i at x = i
};

struct TimePlot {
    std::string description;           // what the plot shows, for screen readers (<title>)
    std::string xTitle = "step";       // the step axis
    std::string yTitle = "step time";  // the time axis; " (ms)" and the like is added
    std::vector<std::string> xLabels;  // the label of x = i; past its end, i + 1
    std::vector<PlotSeries> series;
    int widthPx = 1040, heightPx = 340;
};

// The plot as one <svg> element. With more steps than 2 px each, each line is the median of the
// steps under 2 px and a light band their lowest to highest value, so that both runs stay visible
// and the page stays small for 10^5 steps; with few steps, each point gets a marker with a
// tooltip. O(points).
std::string TimePlotSvg(const TimePlot& plot);

// The unit a plot of durations up to 'maxNs' uses: "ns", "µs", "ms" or "s", and its size in ns.
struct PlotTimeUnit {
    const char* name;
    double ns;
};
PlotTimeUnit PlotUnitFor(double maxNs);

// Ticks of an axis over [low, high]: about 'target' round values (1, 2 or 5 × 10^k apart) that
// cover the range: first ≤ low, last ≥ high. O(ticks).
std::vector<double> NiceTicks(double low, double high, int target);

}  // namespace marey
