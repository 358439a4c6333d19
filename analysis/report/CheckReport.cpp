#include "report/CheckReport.hpp"

#include <algorithm>
#include <cmath>

#include "core/TextFormat.hpp"
#include "report/MarkupEscape.hpp"

namespace marey {
namespace {

void AppendMarkdownTable(std::string& out, const std::string& heading,
                         const std::vector<CheckFinding>& findings) {
    out += "\n" + heading + "\n\n";
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
               FormatDuration(f.candidateNs) + " | " + SignedDurationText(f.changeNs) + " | " +
               CheckChangeText(f) + " | " + threshold + " | " + FormatDuration(f.noiseNs) + " |\n";
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

std::string SignedDurationText(TimeNs ns) {
    return (ns < 0 ? "-" : "+") + FormatDuration(std::llabs(ns));
}

std::string CheckChangeText(const CheckFinding& finding) {
    if (finding.added) return "new";
    if (finding.removed) return "gone";
    char text[32];
    std::snprintf(text, sizeof text, "%+.1f %%", finding.changePercent);
    return text;
}

std::string CheckVerdictText(const CheckResult& result) {
    if (!result.damage.empty())
        return "FAIL: damaged input, " +
               CountText(result.regressions.size(), "regression", "regressions") + ", " +
               CountText(result.improvements.size(), "improvement", "improvements");
    if (result.Failed())
        return "FAIL: " + CountText(result.regressions.size(), "regression", "regressions") + ", " +
               CountText(result.improvements.size(), "improvement", "improvements");
    return "PASS: no regression, " +
           CountText(result.improvements.size(), "improvement", "improvements");
}

std::string CheckNotJudgedText(const CheckResult& result) {
    if (result.notJudged.empty()) return "";
    size_t added = 0;
    for (const CheckFinding& finding : result.notJudged) added += finding.added;
    const size_t removed = result.notJudged.size() - added;
    std::string counts;
    if (added) counts = CountText(added, "new operator", "new operators");
    if (removed)
        counts += (counts.empty() ? "" : " and ") +
                  CountText(removed, "vanished operator", "vanished operators");
    constexpr size_t kNamed = 3;  // the largest few by name; the JSON lists them all
    std::string names;
    for (size_t i = 0; i < result.notJudged.size() && i < kNamed; ++i) {
        const CheckFinding& finding = result.notJudged[i];
        names += (i ? "; " : "") + finding.name + ", " +
                 FormatDuration(std::max(finding.baselineNs, finding.candidateNs)) + " a step";
    }
    if (result.notJudged.size() > kNamed) names += "; …";
    return "not judged: " + counts + " under the minimum time of " +
           FormatDuration(result.minTimeNs) + " (" + names + ")";
}

std::string CheckStepsText(const CheckResult& result) {
    if (result.stepsCompared == 0) return "no steps: whole runs compared";
    std::string text = CountText(result.stepsCompared, "step", "steps") +
                       (result.paired ? " paired by name" : " of each run, unpaired");
    if (!result.alignedStep.empty()) text += ", aligned on step " + result.alignedStep;
    return text + "; baseline median step " + FormatDuration(result.baselineStepNs);
}

std::string CheckFindingText(const CheckFinding& finding) {
    return DescribeFinding(finding) + ": " + FormatDuration(finding.baselineNs) + " -> " +
           FormatDuration(finding.candidateNs) + " per step, " + CheckChangeText(finding) + " (" +
           SignedDurationText(finding.changeNs) + ")";
}

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
        case CheckKind::kInput:
            return "input " + finding.name;
        case CheckKind::kCriticalPath:
            return "critical path " + finding.name;
    }
    return finding.name;
}

std::string CheckToText(const CheckResult& result) {
    std::string out;
    for (const std::string& damage : result.damage) out += "damaged: " + damage + "\n";
    for (const CheckFinding& finding : result.regressions)
        out += "regression: " + CheckFindingText(finding) + "\n";
    for (const CheckFinding& finding : result.improvements)
        out += "improvement: " + CheckFindingText(finding) + "\n";
    if (const std::string notJudged = CheckNotJudgedText(result); !notJudged.empty())
        out += notJudged + "\n";
    out += CheckVerdictText(result) + " (" + CheckStepsText(result) + ")\n";
    return out;
}

void AppendCheckMarkdownTables(std::string& out, const CheckResult& result, int level) {
    const std::string hashes(static_cast<size_t>(level), '#');
    AppendMarkdownTable(out, hashes + " Regressions", result.regressions);
    AppendMarkdownTable(out, hashes + " Improvements", result.improvements);
}

std::string CheckToMarkdown(const CheckResult& result) {
    std::string out = "## marey check: **" + CheckVerdictText(result) + "**\n\n";
    out += "Baseline `" + result.baselinePath + "`, candidate `" + result.candidatePath +
           "`: " + CheckStepsText(result) +
           ". Changes are per step; an operator or phase counts from " +
           FormatDuration(result.minTimeNs) + ".\n";
    if (const std::string notJudged = CheckNotJudgedText(result); !notJudged.empty())
        out += "\n" + notJudged + ".\n";
    if (!result.damage.empty()) {
        out += "\nDamaged input, compared with --allow-damaged:\n\n";
        for (const std::string& damage : result.damage) out += "- " + damage + "\n";
    }
    AppendCheckMarkdownTables(out, result);
    return out;
}

std::string CheckJunitSuite(const CheckResult& result, const std::string& suite, int indent) {
    const struct {
        CheckKind kind;
        const char* name;
    } kinds[] = {{CheckKind::kStep, "step time"},
                 {CheckKind::kPhase, "overview phases"},
                 {CheckKind::kOperator, "operators"},
                 {CheckKind::kType, "operator types"},
                 {CheckKind::kCommunication, "communication operators"},
                 {CheckKind::kInput, "input"},
                 {CheckKind::kCriticalPath, "critical path"}};
    const std::string pad(static_cast<size_t>(indent), ' ');
    size_t failures = 0;
    std::string cases;
    for (const auto& [kind, name] : kinds) {
        // The critical path is a test case only where a rule asked for it: never a pass that
        // checked nothing.
        if (kind == CheckKind::kCriticalPath && !result.criticalPathCompared) continue;
        std::string lines;
        size_t count = 0;
        for (const CheckFinding& finding : result.regressions)
            if (finding.kind == kind) {
                lines += "regression: " + CheckFindingText(finding) + "\n";
                ++count;
            }
        cases += pad + "  <testcase classname=\"marey.check\" name=\"" + name + "\">\n";
        if (count) {
            ++failures;
            cases += pad + "    <failure message=\"" + std::to_string(count) + " regression" +
                     (count == 1 ? "" : "s") + "\">" + EscapeMarkup(lines) + "</failure>\n";
        }
        cases += pad + "  </testcase>\n";
    }
    std::string improvements;
    for (const CheckFinding& finding : result.improvements)
        improvements += "improvement: " + CheckFindingText(finding) + "\n";
    return pad + "<testsuite name=\"" + EscapeMarkup(suite) + "\" tests=\"" +
           std::to_string(std::size(kinds) - (result.criticalPathCompared ? 0 : 1)) +
           "\" failures=\"" + std::to_string(failures) + "\" errors=\"0\">\n" + cases + pad +
           "  <system-out>" +
           EscapeMarkup("baseline " + result.baselinePath + ", candidate " + result.candidatePath +
                        ": " + CheckStepsText(result) + "\n" + improvements) +
           "</system-out>\n" + pad + "</testsuite>\n";
}

std::string CheckToJunit(const CheckResult& result) {
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + CheckJunitSuite(result, "marey check");
}

void WriteCheckJson(JsonObject& object, const CheckResult& result) {
    object.String("verdict", result.Failed() ? "fail" : "pass");
    object.String("baseline", result.baselinePath);
    object.String("candidate", result.candidatePath);
    object.Int("steps_compared", static_cast<int64_t>(result.stepsCompared));
    object.Key("paired") += result.paired ? "true" : "false";
    if (result.alignedStep.empty())
        object.Null("aligned_step");
    else
        object.String("aligned_step", result.alignedStep);
    object.Int("baseline_step_ns", result.baselineStepNs);
    object.Int("candidate_step_ns", result.candidateStepNs);
    object.Int("min_time_ns", result.minTimeNs);
    object.Int("figures_compared", static_cast<int64_t>(result.figuresCompared));
    JsonArray(object.Key("damage"), result.damage,
              [](std::string& out, const std::string& line) { AppendJsonString(out, line); });
    AppendJsonFindings(object, "regressions", result.regressions);
    AppendJsonFindings(object, "improvements", result.improvements);
    AppendJsonFindings(object, "not_judged", result.notJudged);
    if (result.notJudged.empty())
        object.Null("not_judged_text");
    else
        object.String("not_judged_text", CheckNotJudgedText(result));
}

std::string CheckToJson(const CheckResult& result) {
    std::string out;
    {
        JsonObject root(out);
        WriteCheckJson(root, result);
    }
    out += '\n';
    return out;
}

}  // namespace marey
