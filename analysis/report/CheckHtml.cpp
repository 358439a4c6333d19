#include "report/CheckHtml.hpp"

#include <cmath>
#include <cstdio>

#include "core/TextFormat.hpp"
#include "report/CheckReport.hpp"
#include "report/ClusterCheckReport.hpp"
#include "report/MarkupEscape.hpp"
#include "report/SvgTimePlot.hpp"

namespace marey {
namespace {

// [SECTION] The page around the report

// System fonts only (DejaVu on Debian): a web font would have to be fetched or inlined.
constexpr const char* kStyle = R"css(
:root { --fail: #b42318; --fail-bg: #fef3f2; --pass: #067647; --pass-bg: #ecfdf3;
  --text: #1f2937; --muted: #667085; --line: #e4e7ec; --panel: #ffffff; }
* { box-sizing: border-box; }
body { margin: 0; background: #f5f7fa; color: var(--text);
  font: 14px/1.5 "DejaVu Sans", "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
main { max-width: 1120px; margin: 0 auto; padding: 28px 32px 40px; }
h1 { font-size: 22px; font-weight: 600; margin: 0 0 14px; letter-spacing: -0.01em; }
h1 .tool { color: var(--muted); font-weight: 400; }
h2 { font-size: 16px; font-weight: 600; margin: 0 0 12px; }
h3 { font-size: 14px; font-weight: 600; margin: 18px 0 8px; }
p { margin: 0 0 10px; }
.verdict { padding: 12px 16px; border-radius: 6px; border-left: 6px solid; font-size: 16px;
  font-weight: 600; }
.verdict.fail { background: var(--fail-bg); border-color: var(--fail); color: var(--fail); }
.verdict.pass { background: var(--pass-bg); border-color: var(--pass); color: var(--pass); }
dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: 4px 18px; margin: 14px 0 0; }
dl.meta dt { color: var(--muted); }
dl.meta dd { margin: 0; }
code { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 12.5px;
  overflow-wrap: anywhere; }
.cards { display: grid; grid-template-columns: repeat(4, 1fr); gap: 12px; margin-top: 18px; }
.card { background: var(--panel); border: 1px solid var(--line); border-radius: 8px;
  padding: 10px 14px; }
.card .label { color: var(--muted); font-size: 12px; }
.card .value { font-size: 20px; font-weight: 600; font-variant-numeric: tabular-nums; }
.card .value.bad { color: var(--fail); }
.card .value.good { color: var(--pass); }
.card .sub { color: var(--muted); font-size: 12px; font-variant-numeric: tabular-nums; }
.panel { background: var(--panel); border: 1px solid var(--line); border-radius: 8px;
  padding: 16px 18px; margin-top: 18px; }
.panel .note { color: var(--muted); font-size: 13px; }
table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
th, td { padding: 6px 10px; border-bottom: 1px solid var(--line); text-align: left;
  vertical-align: baseline; }
th { color: var(--muted); font-size: 12px; font-weight: 600; background: #f9fafb; }
tbody tr:last-child td { border-bottom: none; }
.num { text-align: right; white-space: nowrap; }
td.up { color: var(--fail); font-weight: 600; }
td.down { color: var(--pass); font-weight: 600; }
.kind { color: var(--muted); font-size: 12px; margin-right: 6px; }
.badge { display: inline-block; min-width: 44px; text-align: center; border-radius: 4px;
  font-size: 12px; font-weight: 600; padding: 0 6px; }
.badge.fail { background: var(--fail-bg); color: var(--fail); }
.badge.pass { background: var(--pass-bg); color: var(--pass); }
.none { color: var(--muted); }
svg.plot { display: block; max-width: 100%; height: auto; margin-top: 6px; }
details { margin-top: 10px; }
details summary { cursor: pointer; font-weight: 600; }
footer { color: var(--muted); font-size: 12px; margin-top: 24px; }
)css";

std::string PageStart(const std::string& verdict) {
    return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
           "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
           "<title>marey check: " +
           EscapeMarkup(verdict) + "</title>\n<style>" + kStyle +
           "</style>\n</head>\n<body>\n<main>\n";
}

std::string PageEnd() {
    return "<footer>Written by <code>marey check</code>. Figures are per step: the median over "
           "the steps compared (the mean for an operator that runs in fewer than half of them). "
           "A change counts when it reaches its threshold and exceeds the noise, three robust "
           "standard errors of the step-to-step spread.</footer>\n</main>\n</body>\n</html>\n";
}

void AppendVerdict(std::string& out, const std::string& verdict, bool failed) {
    out += "<h1><span class=\"tool\">marey check</span> &middot; regression gate</h1>\n";
    out += std::string("<div class=\"verdict ") + (failed ? "fail" : "pass") + "\">" +
           EscapeMarkup(verdict) + "</div>\n";
}

void AppendMetaRow(std::string& out, const char* label, const std::string& html) {
    out += std::string("<dt>") + label + "</dt><dd>" + html + "</dd>";
}

std::string Code(const std::string& text) {
    return "<code>" + EscapeMarkup(text) + "</code>";
}

std::string Percent(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%+.1f %%", value);
    return text;
}

// [SECTION] One run against another

std::string WhatCell(const CheckFinding& f);

// "phase computing +10.4 %": the first of 'findings', or 'none'.
std::string LargestText(const std::vector<CheckFinding>& findings, const char* none) {
    if (findings.empty()) return none;
    const CheckFinding& f = findings.front();
    return "largest: " + EscapeMarkup(DescribeFinding(f) + " " + CheckChangeText(f));
}

void AppendCards(std::string& out, const CheckResult& result) {
    auto card = [&](const char* label, const std::string& value, const char* tone,
                    const std::string& sub) {
        out += std::string("<div class=\"card\"><div class=\"label\">") + label +
               "</div><div class=\"value " + tone + "\">" + value + "</div><div class=\"sub\">" +
               sub + "</div></div>";
    };
    out += "<div class=\"cards\">";
    const bool steps = result.stepsCompared > 0 && result.baselineStepNs > 0;
    const double change =
        steps ? 100.0 * static_cast<double>(result.candidateStepNs - result.baselineStepNs) /
                    static_cast<double>(result.baselineStepNs)
              : 0;
    card("Median step, baseline", steps ? FormatDuration(result.baselineStepNs) : "&ndash;", "",
         steps ? CountText(result.stepsCompared, "step", "steps") : "no steps");
    card("Median step, candidate", steps ? FormatDuration(result.candidateStepNs) : "&ndash;", "",
         steps ? Percent(change) + " against the baseline" : "no steps");
    card("Regressions", std::to_string(result.regressions.size()),
         result.regressions.empty() ? "" : "bad",
         LargestText(result.regressions, "nothing slower beyond threshold and noise"));
    card("Improvements", std::to_string(result.improvements.size()),
         result.improvements.empty() ? "" : "good",
         LargestText(result.improvements, "nothing faster beyond threshold and noise"));
    out += "</div>\n";
}

// "operator" and the name, the kind muted.
std::string WhatCell(const CheckFinding& f) {
    switch (f.kind) {
        case CheckKind::kStep:
            return "step time";
        case CheckKind::kPhase:
            return "<span class=\"kind\">phase</span>" + Code(f.name);
        case CheckKind::kOperator:
            return "<span class=\"kind\">operator</span>" + Code(f.name);
        case CheckKind::kType:
            return "<span class=\"kind\">operator type</span>" + Code(f.name);
        case CheckKind::kCommunication:
            return "<span class=\"kind\">communication</span>" + Code(f.name);
        case CheckKind::kInput:
            return "<span class=\"kind\">input</span>" + Code(f.name);
        case CheckKind::kCriticalPath:
            return "<span class=\"kind\">critical path</span>" + Code(f.name);
    }
    return Code(f.name);
}

void AppendFindingsTable(std::string& out, const char* title,
                         const std::vector<CheckFinding>& findings, bool regressions) {
    out += std::string("<h3>") + title + "</h3>\n";
    if (findings.empty()) {
        out += "<p class=\"none\">None.</p>\n";
        return;
    }
    out +=
        "<table><thead><tr><th>what</th><th class=\"num\">baseline</th>"
        "<th class=\"num\">candidate</th><th class=\"num\">change</th>"
        "<th class=\"num\">change %</th><th class=\"num\">threshold</th>"
        "<th class=\"num\">noise</th></tr></thead><tbody>\n";
    const char* tone = regressions ? "up" : "down";
    for (const CheckFinding& f : findings) {
        char threshold[32];
        std::snprintf(threshold, sizeof threshold, "%.1f %%", f.maxPercent);
        out += "<tr><td>" + WhatCell(f) + "</td><td class=\"num\">" + FormatDuration(f.baselineNs) +
               "</td><td class=\"num\">" + FormatDuration(f.candidateNs) + "</td><td class=\"num " +
               tone + "\">" + SignedDurationText(f.changeNs) + "</td><td class=\"num " + tone +
               "\">" + CheckChangeText(f) + "</td><td class=\"num\">" + threshold +
               "</td><td class=\"num\">" + FormatDuration(f.noiseNs) + "</td></tr>\n";
    }
    out += "</tbody></table>\n";
}

TimePlot PlotOf(const CheckSeriesPair& series, const std::string& description,
                const std::string& yTitle) {
    TimePlot plot;
    plot.description = description;
    plot.yTitle = yTitle;
    if (series.paired) {
        plot.xLabels = series.baselineSteps;
    } else {
        plot.xTitle = "step, in order (the runs share no step name)";
    }
    plot.series.push_back({"baseline", kBaselineColour, series.baselineSteps, series.baselineNs});
    plot.series.push_back(
        {"candidate", kCandidateColour, series.candidateSteps, series.candidateNs});
    return plot;
}

void AppendStepPlot(std::string& out, const CheckResult& result) {
    out += "<section class=\"panel\"><h2>Step time per step</h2>\n";
    if (result.stepTimes.baselineNs.empty() && result.stepTimes.candidateNs.empty()) {
        out += "<p class=\"none\">Neither run has steps: the whole runs were compared.</p>";
    } else {
        out += "<p class=\"note\">The wall time of every step of both runs; " +
               EscapeMarkup(CheckStepsText(result)) + ".</p>\n";
        out += TimePlotSvg(
            PlotOf(result.stepTimes, "Step time per step, baseline and candidate", "step time"));
    }
    out += "</section>\n";
}

void AppendWorstOperator(std::string& out, const CheckResult& result) {
    out += "<section class=\"panel\"><h2>Operator that regressed most</h2>\n";
    if (!result.worstOperator) {
        out += "<p class=\"none\">No operator regressed.</p></section>\n";
        return;
    }
    const CheckSeriesPair& series = *result.worstOperator;
    for (const CheckFinding& f : result.regressions) {
        if (f.kind != series.kind || f.name != series.name) continue;
        out += "<p>" + WhatCell(f) + ": " + FormatDuration(f.baselineNs) + " &rarr; " +
               FormatDuration(f.candidateNs) + " per step, <strong>" +
               EscapeMarkup(CheckChangeText(f)) + "</strong> (" + SignedDurationText(f.changeNs) +
               ").</p>\n";
        break;
    }
    out += "<p class=\"note\">Its time in each step (every run of it in the step, summed).</p>\n";
    out +=
        TimePlotSvg(PlotOf(series, "Time per step of " + series.name + ", baseline and candidate",
                           "time in the step"));
    out += "</section>\n";
}

void AppendFindings(std::string& out, const CheckResult& result) {
    out += "<section class=\"panel\"><h2>Changes, largest first</h2>\n";
    AppendFindingsTable(out, "Regressions", result.regressions, true);
    AppendFindingsTable(out, "Improvements", result.improvements, false);
    out += "</section>\n";
}

void AppendRunMeta(std::string& out, const CheckResult& result) {
    out += "<dl class=\"meta\">";
    AppendMetaRow(out, "Baseline", Code(result.baselinePath));
    AppendMetaRow(out, "Candidate", Code(result.candidatePath));
    AppendMetaRow(out, "Steps", EscapeMarkup(CheckStepsText(result)));
    AppendMetaRow(out, "Figures",
                  CountText(result.figuresCompared, "figure", "figures") +
                      " compared; operators and phases count from " +
                      FormatDuration(result.minTimeNs) + " per step");
    if (const std::string notJudged = CheckNotJudgedText(result); !notJudged.empty())
        AppendMetaRow(out, "Not judged", EscapeMarkup(notJudged.substr(notJudged.find(':') + 2)));
    out += "</dl>\n";
}

}  // namespace

std::string CheckToHtml(const CheckResult& result) {
    const std::string verdict = CheckVerdictText(result);
    std::string out = PageStart(verdict);
    AppendVerdict(out, verdict, result.Failed());
    AppendRunMeta(out, result);
    AppendCards(out, result);
    AppendFindings(out, result);
    AppendStepPlot(out, result);
    AppendWorstOperator(out, result);
    return out + PageEnd();
}

namespace {

// [SECTION] Two clusters, rank by rank

void AppendRankTable(std::string& out, const ClusterCheckResult& cluster) {
    out +=
        "<section class=\"panel\"><h2>Ranks, worst first</h2>\n<p class=\"note\">Worst: the "
        "rank whose own work regressed most. Step time and communication are left out of that "
        "order: in them ranks wait for each other, so one rank&rsquo;s slower operator shows on "
        "every rank.</p>\n";
    const std::string unpaired = UnpairedRanksText(cluster);
    if (!unpaired.empty()) out += "<p>Not compared: " + EscapeMarkup(unpaired) + ".</p>\n";
    out +=
        "<table><thead><tr><th class=\"num\">rank</th><th>verdict</th>"
        "<th class=\"num\">regressions</th><th class=\"num\">improvements</th>"
        "<th class=\"num\">median step, baseline</th><th class=\"num\">candidate</th>"
        "<th>largest regression of its own work</th></tr></thead><tbody>\n";
    for (const RankCheck& rank : cluster.ranks) {
        const CheckResult& r = rank.result;
        std::string largest = r.Failed() ? "<span class=\"none\">none: step time and "
                                           "communication only</span>"
                                         : "<span class=\"none\">none</span>";
        if (const CheckFinding* f = LargestOwnWorkRegression(r))
            largest = WhatCell(*f) + " " + EscapeMarkup(CheckChangeText(*f));
        out += "<tr><td class=\"num\">" + std::to_string(rank.rank) + "</td><td>" +
               (r.Failed() ? "<span class=\"badge fail\">FAIL</span>"
                           : "<span class=\"badge pass\">PASS</span>") +
               "</td><td class=\"num\">" + std::to_string(r.regressions.size()) +
               "</td><td class=\"num\">" + std::to_string(r.improvements.size()) +
               "</td><td class=\"num\">" + FormatDuration(r.baselineStepNs) +
               "</td><td class=\"num\">" + FormatDuration(r.candidateStepNs) + "</td><td>" +
               largest + "</td></tr>\n";
    }
    out += "</tbody></table></section>\n";
}

}  // namespace

std::string ClusterCheckToHtml(const ClusterCheckResult& cluster) {
    const std::string verdict = ClusterVerdictText(cluster);
    std::string out = PageStart(verdict);
    AppendVerdict(out, verdict, cluster.Failed());
    out += "<dl class=\"meta\">";
    AppendMetaRow(out, "Baseline", Code(cluster.baselinePath));
    AppendMetaRow(out, "Candidate", Code(cluster.candidatePath));
    AppendMetaRow(out, "Ranks",
                  CountText(cluster.ranks.size(), "rank", "ranks") + " compared rank by rank");
    out += "</dl>\n";
    AppendRankTable(out, cluster);
    if (const RankCheck* worst = cluster.Worst()) {
        out += "<section class=\"panel\"><h2>" +
               std::string(cluster.Failed() ? "Worst rank: " : "First rank: ") + "rank " +
               std::to_string(worst->rank) + "</h2>\n";
        AppendRunMeta(out, worst->result);
        out += "</section>\n";
        AppendCards(out, worst->result);
        AppendFindings(out, worst->result);
        AppendStepPlot(out, worst->result);
        AppendWorstOperator(out, worst->result);
    }
    for (size_t i = 1; i < cluster.ranks.size(); ++i) {
        const CheckResult& r = cluster.ranks[i].result;
        if (r.regressions.empty() && r.improvements.empty()) continue;
        out += "<section class=\"panel\"><details><summary>Rank " +
               std::to_string(cluster.ranks[i].rank) + ": " + EscapeMarkup(CheckVerdictText(r)) +
               "</summary>\n";
        AppendRunMeta(out, r);
        AppendFindingsTable(out, "Regressions", r.regressions, true);
        AppendFindingsTable(out, "Improvements", r.improvements, false);
        out += "</details></section>\n";
    }
    return out + PageEnd();
}

}  // namespace marey
