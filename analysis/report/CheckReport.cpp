#include "report/CheckReport.hpp"

#include <cmath>

#include "core/TextFormat.hpp"
#include "report/JsonWriter.hpp"

namespace marey {
namespace {

std::string SignedDuration(TimeNs ns) {
    return (ns < 0 ? "-" : "+") + FormatDuration(std::llabs(ns));
}

// "+100.0 %", "new", "gone".
std::string ChangeText(const CheckFinding& finding) {
    if (finding.added) return "new";
    if (finding.removed) return "gone";
    char text[32];
    std::snprintf(text, sizeof text, "%+.1f %%", finding.changePercent);
    return text;
}

std::string Verdict(const CheckResult& result) {
    if (result.Failed())
        return "FAIL: " + CountText(result.regressions.size(), "regression", "regressions") + ", " +
               CountText(result.improvements.size(), "improvement", "improvements");
    return "PASS: no regression, " +
           CountText(result.improvements.size(), "improvement", "improvements");
}

std::string StepsText(const CheckResult& result) {
    if (result.stepsCompared == 0) return "no steps: whole runs compared";
    std::string text = CountText(result.stepsCompared, "step", "steps") +
                       (result.paired ? " paired by name" : " of each run, unpaired");
    if (!result.alignedStep.empty()) text += ", aligned on step " + result.alignedStep;
    return text + "; baseline median step " + FormatDuration(result.baselineStepNs);
}

void AppendTextLine(std::string& out, const char* what, const CheckFinding& finding) {
    out += std::string(what) + ": " + DescribeFinding(finding) + ": " +
           FormatDuration(finding.baselineNs) + " -> " + FormatDuration(finding.candidateNs) +
           " per step, " + ChangeText(finding) + " (" + SignedDuration(finding.changeNs) + ")\n";
}

void AppendMarkdownTable(std::string& out, const char* title,
                         const std::vector<CheckFinding>& findings) {
    out += "\n### " + std::string(title) + "\n\n";
    if (findings.empty()) {
        out += "None.\n";
        return;
    }
    out += "| what | baseline | candidate | change | change % | threshold | noise |\n";
    out += "|---|---:|---:|---:|---:|---:|---:|\n";
    for (const CheckFinding& f : findings) {
        char threshold[32];
        std::snprintf(threshold, sizeof threshold, "%.1f %%", f.maxPercent);
        out += "| " + DescribeFinding(f) + " | " + FormatDuration(f.baselineNs) + " | " +
               FormatDuration(f.candidateNs) + " | " + SignedDuration(f.changeNs) + " | " +
               ChangeText(f) + " | " + threshold + " | " + FormatDuration(f.noiseNs) + " |\n";
    }
}

void AppendJsonFindings(JsonObject& object, const char* key,
                        const std::vector<CheckFinding>& findings) {
    JsonArrayOfObjects(object.Key(key), findings, [](JsonObject& item, const CheckFinding& f) {
        item.String("kind", CheckKindName(f.kind));
        item.String("name", f.name);
        item.Int("baseline_ns", f.baselineNs);
        item.Int("candidate_ns", f.candidateNs);
        item.Int("change_ns", f.changeNs);
        item.Real("change_percent", f.changePercent);
        item.String("status", f.added ? "new" : f.removed ? "gone" : "changed");
        item.Real("max_percent", f.maxPercent);
        item.Int("noise_ns", f.noiseNs);
    });
}

}  // namespace

std::string DescribeFinding(const CheckFinding& finding) {
    switch (finding.kind) {
        case CheckKind::kStep:
            return "step time";
        case CheckKind::kPhase:
            return "phase " + finding.name;
        case CheckKind::kOperator:
            return "operator " + finding.name;
        case CheckKind::kType:
            return "operator type " + finding.name;
        case CheckKind::kCommunication:
            return "communication " + finding.name;
    }
    return finding.name;
}

std::string CheckToText(const CheckResult& result) {
    std::string out;
    for (const CheckFinding& finding : result.regressions)
        AppendTextLine(out, "regression", finding);
    for (const CheckFinding& finding : result.improvements)
        AppendTextLine(out, "improvement", finding);
    out += Verdict(result) + " (" + StepsText(result) + ")\n";
    return out;
}

std::string CheckToMarkdown(const CheckResult& result) {
    std::string out = "## marey check: **" + Verdict(result) + "**\n\n";
    out += "Baseline `" + result.baselinePath + "`, candidate `" + result.candidatePath +
           "`: " + StepsText(result) + ". Changes are per step; an operator or phase counts from " +
           FormatDuration(result.minTimeNs) + ".\n";
    AppendMarkdownTable(out, "Regressions", result.regressions);
    AppendMarkdownTable(out, "Improvements", result.improvements);
    return out;
}

namespace {

// 'text' with XML's five special characters escaped, for attributes and text alike.
std::string XmlEscaped(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        switch (c) {
            case '&':
                out += "&amp;";
                break;
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            case '"':
                out += "&quot;";
                break;
            case '\'':
                out += "&apos;";
                break;
            default:
                out += c;
        }
    }
    return out;
}

}  // namespace

std::string CheckToJunit(const CheckResult& result) {
    const struct {
        CheckKind kind;
        const char* name;
    } kinds[] = {{CheckKind::kStep, "step time"},
                 {CheckKind::kPhase, "overview phases"},
                 {CheckKind::kOperator, "operators"},
                 {CheckKind::kType, "operator types"},
                 {CheckKind::kCommunication, "communication operators"}};
    size_t failures = 0;
    std::string cases;
    for (const auto& [kind, name] : kinds) {
        std::string lines;
        size_t count = 0;
        for (const CheckFinding& finding : result.regressions)
            if (finding.kind == kind) {
                AppendTextLine(lines, "regression", finding);
                ++count;
            }
        cases += std::string("  <testcase classname=\"marey.check\" name=\"") + name + "\">\n";
        if (count) {
            ++failures;
            cases += "    <failure message=\"" + std::to_string(count) + " regression" +
                     (count == 1 ? "" : "s") + "\">" + XmlEscaped(lines) + "</failure>\n";
        }
        cases += "  </testcase>\n";
    }
    std::string improvements;
    for (const CheckFinding& finding : result.improvements)
        AppendTextLine(improvements, "improvement", finding);
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuite name=\"marey check\" tests=\"" +
           std::to_string(std::size(kinds)) + "\" failures=\"" + std::to_string(failures) +
           "\" errors=\"0\">\n" + cases + "  <system-out>" +
           XmlEscaped("baseline " + result.baselinePath + ", candidate " + result.candidatePath +
                      ": " + StepsText(result) + "\n" + improvements) +
           "</system-out>\n</testsuite>\n";
}

std::string CheckToJson(const CheckResult& result) {
    std::string out;
    {
        JsonObject root(out);
        root.String("verdict", result.Failed() ? "fail" : "pass");
        root.String("baseline", result.baselinePath);
        root.String("candidate", result.candidatePath);
        root.Int("steps_compared", static_cast<int64_t>(result.stepsCompared));
        root.Key("paired") += result.paired ? "true" : "false";
        if (result.alignedStep.empty())
            root.Null("aligned_step");
        else
            root.String("aligned_step", result.alignedStep);
        root.Int("baseline_step_ns", result.baselineStepNs);
        root.Int("min_time_ns", result.minTimeNs);
        root.Int("figures_compared", static_cast<int64_t>(result.figuresCompared));
        AppendJsonFindings(root, "regressions", result.regressions);
        AppendJsonFindings(root, "improvements", result.improvements);
    }
    out += '\n';
    return out;
}

}  // namespace marey
