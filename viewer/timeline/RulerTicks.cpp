#include "timeline/RulerTicks.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>

namespace marey {
namespace {

constexpr float kLabelOffsetPx = 3.0f;  // labels start just right of their tick
constexpr double kMaxPlainLabelSteps =
    1e5;  // beyond this many steps from zero, count from an anchor

double NiceStep(double minimumNs) {
    double step = 1.0;
    while (step < minimumNs) {
        if (step * 2 >= minimumNs) return step * 2;
        if (step * 5 >= minimumNs) return step * 5;
        step *= 10;
    }
    return step;
}

void UnitOf(double stepNs, const char** unit, double* scale) {
    if (stepNs >= 1e9)
        *unit = "s", *scale = 1e9;
    else if (stepNs >= 1e6)
        *unit = "ms", *scale = 1e6;
    else if (stepNs >= 1e3)
        *unit = "µs", *scale = 1e3;
    else
        *unit = "ns", *scale = 1;
}

// The decimals that show 'stepInUnit' whole: 0.0002 → 4, 1e-6 → 6 (a relative test, since a
// step a millionth of its unit is itself as small as any absolute tolerance).
int DecimalsFor(double stepInUnit) {
    int decimals = 0;
    for (; decimals < 9; ++decimals) {
        const double scaled = std::fabs(stepInUnit) * std::pow(10.0, decimals);
        if (std::round(scaled) >= 1 && std::fabs(scaled - std::round(scaled)) <= 1e-6 * scaled)
            break;
    }
    return decimals;
}

// 'ns' in the unit its own size (or the step's, when larger) calls for, with the decimals that
// 'stepNs' needs: the anchor, the cursor.
std::string FullLabel(double ns, double stepNs) {
    const char* unit;
    double scale;
    UnitOf(std::max(std::fabs(ns), stepNs), &unit, &scale);
    char text[64];
    std::snprintf(text, sizeof text, "%.*f %s", DecimalsFor(stepNs / scale), ns / scale, unit);
    return text;
}

}  // namespace

std::string CursorLabel(double ns, double nsPerPx) {
    return FullLabel(ns, NiceStep(std::max(nsPerPx, 1.0)));
}

std::string StepLabel(double ns, double stepNs) {
    const char* unit;
    double scale;
    UnitOf(stepNs, &unit, &scale);
    char text[64];
    std::snprintf(text, sizeof text, "%.*f %s", DecimalsFor(stepNs / scale), ns / scale, unit);
    return text;
}

std::string TickLabel(double ns, double stepNs, double largestNs) {
    const char* unit;
    double scale;
    UnitOf(std::max(largestNs, stepNs), &unit, &scale);
    char text[64];
    std::snprintf(text, sizeof text, "%.*f %s", DecimalsFor(stepNs / scale), ns / scale, unit);
    return text;
}

std::string ClockText(int64_t absoluteNs, double relativeNs, double nsPerPx) {
    if (absoluteNs < 946684800000000000ll) {  // before 2000: the trace's own clock, not a date
        if (std::fabs(relativeNs) < nsPerPx * 0.5) return "from the start";
        return "from " + CursorLabel(relativeNs, nsPerPx);
    }
    const std::time_t seconds = static_cast<std::time_t>(absoluteNs / 1000000000);
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    char text[80];
    std::snprintf(text, sizeof text, "%04d-%02d-%02d %02d:%02d:%02d.%09lld UTC", utc.tm_year + 1900,
                  utc.tm_mon + 1, utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec,
                  static_cast<long long>(absoluteNs % 1000000000));
    return text;
}

RulerLayout LayoutRuler(double viewStartNs, double viewEndNs, float widthPx, float minSpacingPx,
                        const std::function<float(const std::string&)>& textWidth) {
    RulerLayout layout;
    const double widthNs = std::max(viewEndNs - viewStartNs, 1e-9);
    const double pxPerNs = widthPx / widthNs;
    layout.stepNs = NiceStep(minSpacingPx / pxPerNs);
    const double step = layout.stepNs;
    const double first = std::floor(viewStartNs / step) * step;
    const double largestNs = std::max(std::fabs(viewStartNs), std::fabs(viewEndNs));
    layout.fromAnchor = std::fabs(first) / step >= kMaxPlainLabelSteps;
    if (layout.fromAnchor) {
        layout.anchorNs = std::ceil(viewStartNs / step) * step;  // the first tick inside the view
        layout.anchorLabel = FullLabel(layout.anchorNs, step);
    }
    for (double t = first; t <= viewEndNs; t += step) {
        for (int minor = 0; minor < 5; ++minor) {
            const double tick = t + step * minor / 5.0;
            if (tick < viewStartNs || tick > viewEndNs) continue;
            RulerTick entry{tick, static_cast<float>((tick - viewStartNs) * pxPerNs), false, {}};
            if (minor == 0) {
                if (!layout.fromAnchor)
                    entry.label = TickLabel(tick, step, largestNs);
                else if (std::fabs(tick - layout.anchorNs) < step * 0.5)
                    entry.label = "0";
                else
                    entry.label = (tick > layout.anchorNs ? "+" : "-") +
                                  StepLabel(std::fabs(tick - layout.anchorNs), step);
                const float labelX = entry.x + kLabelOffsetPx;
                entry.labelled = labelX >= 0.0f && labelX + textWidth(entry.label) <= widthPx;
            }
            layout.ticks.push_back(std::move(entry));
        }
    }
    return layout;
}

}  // namespace marey
