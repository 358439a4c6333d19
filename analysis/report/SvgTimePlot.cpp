#include "report/SvgTimePlot.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "core/TextFormat.hpp"
#include "report/MarkupEscape.hpp"
#include "core/RobustStats.hpp"

namespace marey {
namespace {

// Room around the plot area for tick labels, axis titles and the legend.
constexpr double kLeftPx = 78, kRightPx = 20, kTopPx = 40, kBottomPx = 58;
constexpr double kInsetPx = 12;        // the first and last step stay off the axes
constexpr size_t kMaxMarkers = 60;     // more points than this are drawn as a line only
constexpr double kBucketPx = 2;        // a dense plot's line is the median of the steps in 2 px
constexpr double kCharWidthPx = 7.2;   // of a 12 px label, generous, to keep labels apart
constexpr size_t kMaxLabelChars = 14;  // longer step names are cut with an ellipsis
const char* const kAxisColour = "#9ca3af";
const char* const kGridColour = "#e5e7eb";
const char* const kLabelColour = "#4b5563";
const char* const kTitleColour = "#1f2937";

std::string Px(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f", value);
    return text;
}

// 1, 2 or 5 × 10^k, the smallest at least 'rough'.
double NiceStep(double rough) {
    if (!(rough > 0)) return 1;
    const double power = std::pow(10.0, std::floor(std::log10(rough)));
    const double fraction = rough / power;
    return (fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10) * power;
}

std::string TickText(double valueNs, double stepNs, const PlotTimeUnit& unit) {
    const double step = stepNs / unit.ns;
    const int decimals = step >= 1 ? 0 : static_cast<int>(std::ceil(-std::log10(step) - 1e-9));
    char text[48];
    std::snprintf(text, sizeof text, "%.*f", decimals, valueNs / unit.ns);
    return text;
}

std::string CutLabel(const std::string& label) {
    if (label.size() <= kMaxLabelChars) return label;
    return label.substr(0, kMaxLabelChars - 1) + "…";
}

// Every how many steps a label fits, as 1, 2 or 5 × 10^k.
size_t LabelStride(const std::vector<std::string>& labels, size_t n, double spacingPx) {
    size_t chars = std::to_string(n).size();
    for (size_t i = 0; i < std::min(labels.size(), n); ++i)
        chars = std::max(chars, std::min(labels[i].size(), kMaxLabelChars));
    const double needPx = static_cast<double>(chars) * kCharWidthPx + 16;
    if (spacingPx >= needPx) return 1;
    return static_cast<size_t>(NiceStep(needPx / spacingPx));
}

bool ParseInteger(const std::string& text, long long* value) {
    if (text.empty()) return false;
    char* end = nullptr;
    *value = std::strtoll(text.c_str(), &end, 10);
    return end && *end == '\0';
}

struct Frame {
    double x0, x1, y0, y1;  // the plot area
    double lowNs, highNs;   // the time axis
    size_t n;               // steps on the step axis
    double X(size_t i) const {
        const double inner = x1 - x0 - 2 * kInsetPx;
        if (n <= 1) return x0 + (x1 - x0) / 2;
        return x0 + kInsetPx + inner * static_cast<double>(i) / static_cast<double>(n - 1);
    }
    double Y(double ns) const { return y1 - (ns - lowNs) / (highNs - lowNs) * (y1 - y0); }
};

void AppendTimeAxis(std::string& out, const Frame& f, const std::vector<double>& ticks,
                    const TimePlot& plot) {
    const PlotTimeUnit unit = PlotUnitFor(std::max(std::fabs(ticks.front()), ticks.back()));
    const double stepNs = ticks.size() > 1 ? ticks[1] - ticks[0] : 1;
    for (const double tick : ticks) {
        const std::string y = Px(f.Y(tick));
        out += "<line x1=\"" + Px(f.x0) + "\" x2=\"" + Px(f.x1) + "\" y1=\"" + y + "\" y2=\"" + y +
               "\" stroke=\"" + kGridColour + "\"/>";
        out += "<text x=\"" + Px(f.x0 - 8) + "\" y=\"" + y +
               "\" dy=\"0.35em\" text-anchor=\"end\" font-size=\"12\" fill=\"" + kLabelColour +
               "\">" + TickText(tick, stepNs, unit) + "</text>";
    }
    const std::string middle = Px((f.y0 + f.y1) / 2);
    out += "<text transform=\"translate(18 " + middle +
           ") rotate(-90)\" text-anchor=\"middle\" font-size=\"13\" fill=\"" + kTitleColour +
           "\">" + EscapeMarkup(plot.yTitle) + " (" + unit.name + ")</text>";
}

void AppendStepAxis(std::string& out, const Frame& f, const TimePlot& plot) {
    out += "<line x1=\"" + Px(f.x0) + "\" x2=\"" + Px(f.x1) + "\" y1=\"" + Px(f.y1) + "\" y2=\"" +
           Px(f.y1) + "\" stroke=\"" + kAxisColour + "\"/>";
    out += "<line x1=\"" + Px(f.x0) + "\" x2=\"" + Px(f.x0) + "\" y1=\"" + Px(f.y0) + "\" y2=\"" +
           Px(f.y1) + "\" stroke=\"" + kAxisColour + "\"/>";
    const double spacing =
        f.n > 1 ? (f.x1 - f.x0 - 2 * kInsetPx) / static_cast<double>(f.n - 1) : f.x1 - f.x0;
    const size_t stride = LabelStride(plot.xLabels, f.n, spacing);
    auto label = [&](size_t i) {
        return i < plot.xLabels.size() ? plot.xLabels[i] : std::to_string(i + 1);
    };
    // Numbered steps get their labels on round numbers (10, 20, … rather than 1, 11, …).
    long long first = 0;
    const size_t offset = stride > 1 && ParseInteger(label(0), &first) && first >= 0
                              ? (stride - static_cast<size_t>(first) % stride) % stride
                              : 0;
    for (size_t i = offset; i < f.n; i += stride) {
        const std::string x = Px(f.X(i));
        out += "<line x1=\"" + x + "\" x2=\"" + x + "\" y1=\"" + Px(f.y1) + "\" y2=\"" +
               Px(f.y1 + 5) + "\" stroke=\"" + kAxisColour + "\"/>";
        out += "<text x=\"" + x + "\" y=\"" + Px(f.y1 + 20) +
               "\" text-anchor=\"middle\" font-size=\"12\" fill=\"" + kLabelColour + "\">" +
               EscapeMarkup(CutLabel(label(i))) + "</text>";
    }
    out += "<text x=\"" + Px((f.x0 + f.x1) / 2) + "\" y=\"" + Px(f.y1 + 46) +
           "\" text-anchor=\"middle\" font-size=\"13\" fill=\"" + kTitleColour + "\">" +
           EscapeMarkup(plot.xTitle) + "</text>";
}

void AppendLegend(std::string& out, const TimePlot& plot, double rightPx) {
    double width = 0;
    for (const PlotSeries& s : plot.series)
        width += 30 + static_cast<double>(s.label.size()) * kCharWidthPx + 18;
    double x = rightPx - width;
    for (const PlotSeries& s : plot.series) {
        const std::string colour = EscapeMarkup(s.colour);
        out += "<line x1=\"" + Px(x) + "\" x2=\"" + Px(x + 22) +
               "\" y1=\"16\" y2=\"16\" stroke=\"" + colour + "\" stroke-width=\"2.5\"/>";
        out += "<circle cx=\"" + Px(x + 11) + "\" cy=\"16\" r=\"3.5\" fill=\"" + colour + "\"/>";
        out += "<text x=\"" + Px(x + 30) + "\" y=\"16\" dy=\"0.35em\" font-size=\"13\" fill=\"" +
               kTitleColour + "\">" + EscapeMarkup(s.label) + "</text>";
        x += 30 + static_cast<double>(s.label.size()) * kCharWidthPx + 18;
    }
}

// Whether the steps are too many to tell apart: more than one per bucket.
bool Dense(const Frame& f) {
    return static_cast<double>(f.n) > (f.x1 - f.x0 - 2 * kInsetPx) / kBucketPx;
}

// The steps under each kBucketPx of a dense plot: their lowest, median and highest value.
struct Bucket {
    double x, lowNs, medianNs, highNs;
};

std::vector<Bucket> Buckets(const Frame& f, const std::vector<TimeNs>& values) {
    std::vector<Bucket> buckets;
    const size_t count =
        std::max<size_t>(1, static_cast<size_t>((f.x1 - f.x0 - 2 * kInsetPx) / kBucketPx));
    std::vector<TimeNs> part;
    for (size_t b = 0; b < count; ++b) {
        const size_t first = b * values.size() / count, last = (b + 1) * values.size() / count;
        if (first == last) continue;
        part.assign(values.begin() + static_cast<ptrdiff_t>(first),
                    values.begin() + static_cast<ptrdiff_t>(last));
        const auto [low, high] = std::minmax_element(part.begin(), part.end());
        const double lowNs = static_cast<double>(*low), highNs = static_cast<double>(*high);
        buckets.push_back(
            {(f.X(first) + f.X(last - 1)) / 2, lowNs, static_cast<double>(Median(part)), highNs});
    }
    return buckets;
}

// A dense series' range as a light band: the highest values left to right, the lowest back.
void AppendBand(std::string& out, const Frame& f, const PlotSeries& s) {
    const std::vector<Bucket> buckets = Buckets(f, s.valuesNs);
    std::string points;
    for (const Bucket& b : buckets) points += Px(b.x) + "," + Px(f.Y(b.highNs)) + " ";
    for (auto b = buckets.rbegin(); b != buckets.rend(); ++b)
        points += Px(b->x) + "," + Px(f.Y(b->lowNs)) + " ";
    out += "<polygon fill=\"" + EscapeMarkup(s.colour) +
           "\" fill-opacity=\"0.16\" stroke=\"none\" points=\"" + points + "\"/>";
}

// The line through a series' points, or through its buckets' medians when dense.
std::string LinePoints(const Frame& f, const std::vector<TimeNs>& values) {
    std::string points;
    if (Dense(f)) {
        for (const Bucket& b : Buckets(f, values))
            points += Px(b.x) + "," + Px(f.Y(b.medianNs)) + " ";
        return points;
    }
    for (size_t i = 0; i < values.size(); ++i)
        points += Px(f.X(i)) + "," + Px(f.Y(static_cast<double>(values[i]))) + " ";
    return points;
}

void AppendSeries(std::string& out, const Frame& f, const PlotSeries& s, const TimePlot& plot) {
    const std::string colour = EscapeMarkup(s.colour);
    if (s.valuesNs.size() > 1)
        out += "<polyline fill=\"none\" stroke=\"" + colour +
               "\" stroke-width=\"2\" stroke-linejoin=\"round\" points=\"" +
               LinePoints(f, s.valuesNs) + "\"/>";
    if (f.n > kMaxMarkers) return;
    for (size_t i = 0; i < s.valuesNs.size(); ++i) {
        const std::string step = i < s.stepNames.size()    ? s.stepNames[i]
                                 : i < plot.xLabels.size() ? plot.xLabels[i]
                                                           : std::to_string(i + 1);
        out += "<circle cx=\"" + Px(f.X(i)) + "\" cy=\"" +
               Px(f.Y(static_cast<double>(s.valuesNs[i]))) + "\" r=\"3.5\" fill=\"" + colour +
               "\" stroke=\"#ffffff\" stroke-width=\"1.5\"><title>" +
               EscapeMarkup(s.label + ", " + plot.xTitle + " " + step + ": " +
                            FormatDuration(s.valuesNs[i])) +
               "</title></circle>";
    }
}

}  // namespace

PlotTimeUnit PlotUnitFor(double maxNs) {
    if (maxNs >= 1e9) return {"s", 1e9};
    if (maxNs >= 1e6) return {"ms", 1e6};
    if (maxNs >= 1e3) return {"µs", 1e3};
    return {"ns", 1};
}

std::vector<double> NiceTicks(double low, double high, int target) {
    if (!(high > low)) high = low + 1;
    const double step = NiceStep((high - low) / std::max(1, target));
    std::vector<double> ticks;
    const double first = std::floor(low / step + 1e-9) * step;
    for (double t = first; t < high + step * 0.999; t += step) ticks.push_back(t);
    if (ticks.size() < 2) ticks.push_back(first + step);
    return ticks;
}

std::string TimePlotSvg(const TimePlot& plot) {
    const double width = plot.widthPx, height = plot.heightPx;
    std::string out = "<svg class=\"plot\" viewBox=\"0 0 " + Px(width) + " " + Px(height) +
                      "\" width=\"" + Px(width) + "\" height=\"" + Px(height) +
                      "\" role=\"img\"><title>" + EscapeMarkup(plot.description) + "</title>";
    out += "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>";
    size_t n = 0;
    double lowNs = 0, highNs = 0;
    bool any = false;
    for (const PlotSeries& s : plot.series) {
        n = std::max(n, s.valuesNs.size());
        for (const TimeNs v : s.valuesNs) {
            lowNs = any ? std::min(lowNs, static_cast<double>(v)) : static_cast<double>(v);
            highNs = any ? std::max(highNs, static_cast<double>(v)) : static_cast<double>(v);
            any = true;
        }
    }
    if (!any) {
        out += "<text x=\"" + Px(width / 2) + "\" y=\"" + Px(height / 2) +
               "\" text-anchor=\"middle\" font-size=\"14\" fill=\"" + kLabelColour +
               "\">no steps to plot</text></svg>";
        return out;
    }
    // Room above and below the data, and a floor of 0 when the data starts near it.
    const double span = highNs > lowNs ? highNs - lowNs : std::max(1.0, highNs * 0.1);
    double low = lowNs - span * 0.12, high = highNs + span * 0.12;
    if (low < 0 || low < 0.15 * high) low = 0;
    const std::vector<double> ticks = NiceTicks(low, high, 5);
    const Frame frame{kLeftPx,       width - kRightPx, kTopPx, height - kBottomPx,
                      ticks.front(), ticks.back(),     n};
    AppendTimeAxis(out, frame, ticks, plot);
    AppendStepAxis(out, frame, plot);
    AppendLegend(out, plot, frame.x1);
    if (Dense(frame)) {
        // Every band under every line, so that no band hides a line.
        for (const PlotSeries& s : plot.series) AppendBand(out, frame, s);
        out += "<text x=\"" + Px(frame.x0) + "\" y=\"16\" dy=\"0.35em\" font-size=\"12\" fill=\"" +
               kLabelColour + "\">" + std::to_string(n) +
               " steps: each line is the median of the " + "steps under " +
               Px(kBucketPx).substr(0, 1) + " px, its band their range</text>";
    }
    for (const PlotSeries& s : plot.series) AppendSeries(out, frame, s, plot);
    return out + "</svg>";
}

}  // namespace marey
