// The HTML report of `marey check` as text: one page with nothing fetched, the tables in the
// Markdown's order, every name escaped, and plots whose axes, units and labels a person can read.
// The same page rendered by a real browser is checked in CheckHtmlBrowserTest.cpp.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "compare/RegressionCheck.hpp"
#include "report/CheckHtml.hpp"
#include "report/SvgTimePlot.hpp"

using namespace marey;

namespace {

CheckFinding Finding(CheckKind kind, const std::string& name, TimeNs baselineNs,
                     TimeNs candidateNs) {
    CheckFinding f;
    f.kind = kind;
    f.name = name;
    f.baselineNs = baselineNs;
    f.candidateNs = candidateNs;
    f.changeNs = candidateNs - baselineNs;
    f.changePercent = 100.0 * static_cast<double>(f.changeNs) / static_cast<double>(baselineNs);
    f.maxPercent = kind == CheckKind::kStep || kind == CheckKind::kPhase ? 5 : 10;
    f.noiseNs = 1000;
    return f;
}

// A failed check of 20 steps: MatMul twice as slow, the step 10 % slower, Add 20 % faster.
CheckResult SampleResult() {
    CheckResult result;
    result.baselinePath = "runs/main/rank0";
    result.candidatePath = "runs/pr-123/rank0";
    result.paired = true;
    result.stepsCompared = 20;
    result.alignedStep = "1";
    result.baselineStepNs = 2000000;
    result.candidateStepNs = 2200000;
    result.minTimeNs = 20000;
    result.figuresCompared = 40;
    result.regressions = {Finding(CheckKind::kStep, "step time", 2000000, 2200000),
                          Finding(CheckKind::kOperator, "MatMul_0", 150000, 300000)};
    result.improvements = {Finding(CheckKind::kOperator, "Add_3", 100000, 80000)};
    result.stepTimes.kind = CheckKind::kStep;
    result.stepTimes.name = "step time";
    result.stepTimes.paired = true;
    CheckSeriesPair matmul;
    matmul.kind = CheckKind::kOperator;
    matmul.name = "MatMul_0";
    matmul.paired = true;
    for (int i = 0; i < 20; ++i) {
        const std::string step = std::to_string(i + 1);
        result.stepTimes.baselineSteps.push_back(step);
        result.stepTimes.candidateSteps.push_back(step);
        result.stepTimes.baselineNs.push_back(2000000 + 10000 * (i % 3));
        result.stepTimes.candidateNs.push_back(2200000 + 10000 * (i % 4));
        matmul.baselineSteps.push_back(step);
        matmul.candidateSteps.push_back(step);
        matmul.baselineNs.push_back(150000);
        matmul.candidateNs.push_back(300000);
    }
    result.worstOperator = matmul;
    return result;
}

size_t Count(const std::string& text, const std::string& what) {
    size_t count = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
        ++count;
    return count;
}

}  // namespace

TEST_CASE("the HTML report is one page that fetches nothing and runs no script") {
    const std::string page = CheckToHtml(SampleResult());
    CHECK(page.rfind("<!DOCTYPE html>\n<html lang=\"en\">", 0) == 0);
    CHECK(page.find("<meta charset=\"utf-8\">") != std::string::npos);
    CHECK(page.find("</html>\n") == page.size() - 8);
    for (const char* outside : {"<script", "http:", "https:", "src=", "href=", "url(", "@import",
                                "<link", "<img", "<iframe"})
        CHECK_MESSAGE(page.find(outside) == std::string::npos, outside);
    CHECK(page.find("<style>") != std::string::npos);
}

TEST_CASE("the HTML report has the verdict and the Markdown's tables, largest first") {
    const std::string page = CheckToHtml(SampleResult());
    CHECK(page.find("<title>marey check: FAIL: 2 regressions, 1 improvement</title>") !=
          std::string::npos);
    CHECK(page.find("<div class=\"verdict fail\">FAIL: 2 regressions, 1 improvement</div>") !=
          std::string::npos);
    CHECK(page.find("<code>runs/main/rank0</code>") != std::string::npos);
    CHECK(page.find("20 steps paired by name, aligned on step 1") != std::string::npos);
    // The regressions' table, then the improvements' table; in each the largest change first.
    const size_t regressions = page.find("<h3>Regressions</h3>");
    const size_t improvements = page.find("<h3>Improvements</h3>");
    REQUIRE(regressions != std::string::npos);
    REQUIRE(improvements != std::string::npos);
    const size_t step = page.find("<tr><td>step time</td>", regressions);
    const size_t matmul = page.find("<code>MatMul_0</code></td>", regressions);
    const size_t add = page.find("<code>Add_3</code></td>", regressions);
    CHECK(regressions < step);
    CHECK(step < matmul);
    CHECK(matmul < improvements);
    CHECK(improvements < add);
    // Numbers right-aligned, the change in % and in time, the threshold and the noise.
    CHECK(page.find("<td class=\"num\">150.000 µs</td><td class=\"num\">300.000 µs</td><td "
                    "class=\"num up\">+150.000 µs</td><td class=\"num up\">+100.0 %</td><td "
                    "class=\"num\">10.0 %</td><td class=\"num\">1.000 µs</td>") !=
          std::string::npos);
    CHECK(page.find("<td class=\"num down\">-20.0 %</td>") != std::string::npos);
    CHECK(page.find(".num { text-align: right;") != std::string::npos);
}

TEST_CASE("the HTML report plots the step times and the worst operator's steps, both runs") {
    const std::string page = CheckToHtml(SampleResult());
    CHECK(Count(page, "<svg class=\"plot\"") == 2);
    CHECK(page.find("<h2>Step time per step</h2>") < page.find("<h2>Operator that regressed"));
    CHECK(page.find(">step time (ms)</text>") != std::string::npos);
    CHECK(page.find(">time in the step (µs)</text>") != std::string::npos);
    CHECK(Count(page, ">step</text>") == 2);
    CHECK(Count(page, ">baseline</text>") == 2);
    CHECK(Count(page, ">candidate</text>") == 2);
    CHECK(Count(page, std::string("stroke=\"") + kBaselineColour + "\" stroke-width=\"2\"") == 2);
    CHECK(Count(page, std::string("stroke=\"") + kCandidateColour + "\" stroke-width=\"2\"") == 2);
    // Few steps: every point has a marker whose tooltip says the step and its time.
    CHECK(page.find("<title>candidate, step 20: 300.000 µs</title>") != std::string::npos);
    CHECK(
        page.find("operator</span><code>MatMul_0</code>: 150.000 µs &rarr; 300.000 µs per step") !=
        std::string::npos);
}

TEST_CASE("a passing check without operators says so instead of plotting nothing") {
    CheckResult result = SampleResult();
    result.regressions.clear();
    result.improvements.clear();
    result.worstOperator.reset();
    result.stepTimes = {};
    result.stepsCompared = 0;
    const std::string page = CheckToHtml(result);
    CHECK(page.find("<div class=\"verdict pass\">PASS: no regression, 0 improvements</div>") !=
          std::string::npos);
    CHECK(Count(page, "<p class=\"none\">None.</p>") == 2);
    CHECK(page.find("Neither run has steps: the whole runs were compared.") != std::string::npos);
    CHECK(page.find("No operator regressed.") != std::string::npos);
    CHECK(page.find("<svg") == std::string::npos);
}

TEST_CASE("every name and path from a trace is escaped in the HTML report") {
    CheckResult result = SampleResult();
    const std::string hostile = "<script>alert('x')</script>&\"";
    result.baselinePath = "runs/" + hostile;
    result.regressions[1].name = hostile;
    result.worstOperator->name = hostile;
    result.worstOperator->baselineSteps[0] = hostile;
    result.stepTimes.baselineSteps[0] = hostile;
    const std::string page = CheckToHtml(result);
    CHECK(page.find("<script") == std::string::npos);
    CHECK(page.find("alert('x')") == std::string::npos);
    CHECK(page.find("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;&quot;") !=
          std::string::npos);
}

TEST_CASE("a time axis has round ticks covering the data, in a unit named in its title") {
    const std::vector<double> ticks = NiceTicks(2.7e6, 3.3e6, 5);
    REQUIRE(ticks.size() >= 2);
    CHECK(ticks.front() <= 2.7e6);
    CHECK(ticks.back() >= 3.3e6);
    CHECK(ticks[1] - ticks[0] == doctest::Approx(200000));  // 0.12 ms rounded up to 1, 2 or 5
    CHECK(ticks.size() <= 8);
    CHECK(std::string(PlotUnitFor(999).name) == "ns");
    CHECK(std::string(PlotUnitFor(1000).name) == "µs");
    CHECK(std::string(PlotUnitFor(2.5e6).name) == "ms");
    CHECK(std::string(PlotUnitFor(3e9).name) == "s");
    TimePlot plot;
    plot.series.push_back({"baseline", "#2563eb", {}, {2700000, 3300000}});
    const std::string svg = TimePlotSvg(plot);
    CHECK(svg.find(">step time (ms)</text>") != std::string::npos);
    CHECK(svg.find(">2.8</text>") != std::string::npos);
    CHECK(svg.find(">3.2</text>") != std::string::npos);
}

TEST_CASE("step labels are thinned to round steps so that they never overlap") {
    TimePlot plot;
    PlotSeries series{"baseline", "#2563eb", {}, {}};
    for (int i = 0; i < 1000; ++i) {
        plot.xLabels.push_back(std::to_string(i + 1));
        series.valuesNs.push_back(1000000 + i);
    }
    plot.series.push_back(series);
    const std::string svg = TimePlotSvg(plot);
    // The step labels sit 20 px under the plot area.
    const std::string labelY = std::to_string(plot.heightPx - 58 + 20) + ".0";
    // Each <text x="X" y="labelY" …>TEXT</text>: its x and its text.
    std::vector<std::pair<double, std::string>> labels;
    const std::string open = "<text x=\"";
    for (size_t at = svg.find(open); at != std::string::npos; at = svg.find(open, at + 1)) {
        const size_t xEnd = svg.find('"', at + open.size());
        const std::string rest = "\" y=\"" + labelY + "\"";
        if (svg.compare(xEnd, rest.size(), rest) != 0) continue;
        const size_t textStart = svg.find('>', xEnd) + 1;
        const size_t textEnd = svg.find("</text>", textStart);
        labels.emplace_back(std::stod(svg.substr(at + open.size(), xEnd - at - open.size())),
                            svg.substr(textStart, textEnd - textStart));
    }
    REQUIRE(labels.size() >= 5);
    CHECK(labels.size() <= 20);
    for (size_t i = 1; i < labels.size(); ++i) {
        const double widthPx =
            7.0 * static_cast<double>(labels[i - 1].second.size() + labels[i].second.size()) / 2;
        CHECK(labels[i].first - labels[i - 1].first > widthPx + 8);
        // Round numbers: every label a multiple of the same stride.
        const int stride = std::stoi(labels[1].second) - std::stoi(labels[0].second);
        CHECK(std::stoi(labels[i].second) % stride == 0);
    }
    // 1000 points get no markers (a marker has a white rim and a tooltip); the line is there.
    CHECK(svg.find("stroke=\"#ffffff\"") == std::string::npos);
    CHECK(svg.find("<polyline") != std::string::npos);
}

TEST_CASE("a plot of 100,000 steps stays small: medians per 2 px as lines, their range as bands") {
    TimePlot plot;
    PlotSeries series{"candidate", "#ea580c", {}, {}};
    for (int i = 0; i < 100000; ++i) series.valuesNs.push_back(1000000 + (i % 7) * 1000);
    series.valuesNs[50000] = 9000000;  // one slow step: in the band, not in the line
    plot.series.push_back(series);
    const std::string svg = TimePlotSvg(plot);
    CHECK(svg.size() < 60000);
    CHECK(svg.find(">step time (ms)</text>") != std::string::npos);
    CHECK(svg.find(">100000 steps: each line is the median of the steps under 2 px, its band "
                   "their range</text>") != std::string::npos);
    // The y of every point of an element's points="…".
    auto ys = [&](const char* element) {
        std::vector<double> out;
        const size_t at = svg.find(std::string("<") + element);
        REQUIRE(at != std::string::npos);
        const size_t begin = svg.find("points=\"", at) + 8;
        const std::string list = svg.substr(begin, svg.find('"', begin) - begin);
        for (size_t p = 0; p < list.size();) {
            const size_t comma = list.find(',', p), space = list.find(' ', comma);
            out.push_back(std::stod(list.substr(comma + 1, space - comma - 1)));
            p = space + 1;
        }
        return out;
    };
    // The axis runs from 0 to 10 ms over y = 282 … 40: the slow step tops the band at 9 ms, and
    // the line stays with the other steps near 1 ms.
    const std::vector<double> band = ys("polygon"), line = ys("polyline");
    CHECK(*std::min_element(band.begin(), band.end()) < 80);
    CHECK(*std::min_element(line.begin(), line.end()) > 240);
    CHECK(line.size() < 600);
}
