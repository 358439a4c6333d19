// The time ruler: ticks at 1-2-5 steps with units chosen by the step, time relative to the
// trace start, and the absolute (wall clock) time of the view's left edge.
#include <imgui.h>

#include <cmath>
#include <cstdio>
#include <ctime>

#include "timeline/TimelineView.hpp"

namespace tracelens {
namespace {

constexpr float kMinTickSpacingPx = 90.0f;

// Text for a time that is a multiple of 'stepNs', with the unit of the step.
std::string TickLabel(double ns, double stepNs) {
    const char* unit;
    double scale;
    if (stepNs >= 1e9) unit = "s", scale = 1e9;
    else if (stepNs >= 1e6) unit = "ms", scale = 1e6;
    else if (stepNs >= 1e3) unit = "µs", scale = 1e3;
    else unit = "ns", scale = 1;
    // Enough decimals to tell neighbouring ticks apart.
    const double stepInUnit = stepNs / scale;
    int decimals = 0;
    while (decimals < 6 && std::fabs(stepInUnit * std::pow(10.0, decimals) - std::round(stepInUnit * std::pow(10.0, decimals))) > 1e-6)
        ++decimals;
    char text[64];
    std::snprintf(text, sizeof text, "%.*f %s", decimals, ns / scale, unit);
    return text;
}

double NiceStep(double minimumNs) {
    double step = 1.0;
    while (step < minimumNs) {
        if (step * 2 >= minimumNs) return step * 2;
        if (step * 5 >= minimumNs) return step * 5;
        step *= 10;
    }
    return step;
}

// Wall-clock text for a timestamp when it looks like ns since the Unix epoch.
std::string AbsoluteText(TimeNs ns) {
    if (ns < 946684800000000000ll) {  // before 2000: not an epoch clock
        char text[64];
        std::snprintf(text, sizeof text, "clock %.9f s", static_cast<double>(ns) / 1e9);
        return text;
    }
    const std::time_t seconds = static_cast<std::time_t>(ns / 1000000000);
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    char text[80];
    std::snprintf(text, sizeof text, "%04d-%02d-%02d %02d:%02d:%02d.%09lld UTC", utc.tm_year + 1900, utc.tm_mon + 1,
                  utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec, static_cast<long long>(ns % 1000000000));
    return text;
}

}  // namespace

void TimelineView::DrawRuler(ImDrawList* draw) {
    const float y0 = m_canvas.rulerY, y1 = m_canvas.bodyTop;
    draw->AddRectFilled(ImVec2(m_canvas.headerX0, y0), ImVec2(m_canvas.x1 + 12, y1), IM_COL32(34, 37, 43, 255));
    const double stepNs = NiceStep(kMinTickSpacingPx / m_canvas.pxPerNs);
    const double first = std::floor(m_state.viewStartNs / stepNs) * stepNs;
    draw->PushClipRect(ImVec2(m_canvas.x0, y0), ImVec2(m_canvas.x1, m_canvas.bodyBottom), true);
    for (double t = first; t <= m_state.viewEndNs; t += stepNs) {
        const float x = static_cast<float>(ToX(t));
        draw->AddLine(ImVec2(x, y1 - 10), ImVec2(x, y1), IM_COL32(170, 175, 185, 255));
        // Faint grid line down the body.
        draw->AddLine(ImVec2(x, y1), ImVec2(x, m_canvas.bodyBottom), IM_COL32(255, 255, 255, 14));
        for (int minor = 1; minor < 5; ++minor) {
            const float mx = static_cast<float>(ToX(t + stepNs * minor / 5.0));
            draw->AddLine(ImVec2(mx, y1 - 4), ImVec2(mx, y1), IM_COL32(120, 125, 135, 255));
        }
        const std::string label = TickLabel(t, stepNs);
        draw->AddText(ImVec2(x + 3, y1 - 24), IM_COL32(215, 218, 225, 255), label.c_str());
    }
    draw->PopClipRect();
    // Left: the absolute time at the view's start and the width of the view.
    const std::string absolute = AbsoluteText(AbsoluteNs(m_state.viewStartNs));
    const std::string width = "view " + TickLabel(m_state.viewEndNs - m_state.viewStartNs,
                                                 NiceStep((m_state.viewEndNs - m_state.viewStartNs) / 100.0));
    draw->AddText(ImVec2(m_canvas.headerX0 + 6, y0 + 3), IM_COL32(150, 200, 255, 255), absolute.c_str());
    draw->AddText(ImVec2(m_canvas.headerX0 + 6, y0 + 19), IM_COL32(170, 175, 185, 255), width.c_str());
    draw->AddLine(ImVec2(m_canvas.headerX0, y1 - 1), ImVec2(m_canvas.x1 + 12, y1 - 1), IM_COL32(70, 75, 85, 255));
}

}  // namespace tracelens
