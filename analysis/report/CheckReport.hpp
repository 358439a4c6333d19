#pragma once
// What `marey check` writes: the terminal's lines, a pull-request comment in Markdown, JUnit XML
// and the machine form in JSON (keys in docs/comparison.md, "Regression gate"). Plain text from a
// CheckResult; O(findings). The pieces a cluster's reports repeat per rank are public.
#include <string>

#include "compare/RegressionCheck.hpp"
#include "report/JsonWriter.hpp"

namespace marey {

// "regression: operator MatMul_0: 204.1 µs -> 408.2 µs per step, +100.0 % (+204.1 µs)": one
// line per regression, largest first, then one per improvement, then the verdict.
std::string CheckToText(const CheckResult& result);

// A verdict line, a table of regressions and one of improvements, and the steps compared.
std::string CheckToMarkdown(const CheckResult& result);

// {"verdict", "baseline", "candidate", "steps_compared", "paired", "aligned_step",
//  "baseline_step_ns", "candidate_step_ns", "min_time_ns", "figures_compared", "regressions",
//  "improvements", "not_judged", "not_judged_text"}.
std::string CheckToJson(const CheckResult& result);

// JUnit XML for CI systems: one test suite "marey check" with one test case per kind of figure
// (step time, phases, operators, operator types, communication), failed with the lines of that
// kind's regressions; improvements and the steps compared in <system-out>.
std::string CheckToJunit(const CheckResult& result);

// "step time", "phase free", "operator MatMul_0", "operator type MatMul", "communication
// hcom_allReduce": what a finding is about, for a person.
std::string DescribeFinding(const CheckFinding& finding);

// "FAIL: 3 regressions, 0 improvements" or "PASS: no regression, 1 improvement".
std::string CheckVerdictText(const CheckResult& result);

// "78 steps paired by name, aligned on step 1; baseline median step 2.813 ms".
std::string CheckStepsText(const CheckResult& result);

// "not judged: 1 new operator under the minimum time of 1.200 ms (aclnnSilu, 40.000 µs a
// step)": the operators only one side has that were too small to judge; empty when none.
std::string CheckNotJudgedText(const CheckResult& result);

// "+100.0 %", or "new" / "gone" for a figure only one side has.
std::string CheckChangeText(const CheckFinding& finding);

// "+160.444 µs", "-2.000 ms": a change with its sign.
std::string SignedDurationText(TimeNs ns);

// "operator MatMul_0: 160.444 µs -> 320.888 µs per step, +100.0 % (+160.444 µs)", no newline.
std::string CheckFindingText(const CheckFinding& finding);

// "### Regressions" and "### Improvements" with their tables (or "None."), headings at 'level'.
void AppendCheckMarkdownTables(std::string& out, const CheckResult& result, int level = 3);

// Writes the keys of CheckToJson's object into 'object'.
void WriteCheckJson(JsonObject& object, const CheckResult& result);

// One <testsuite> named 'suite' with a test case per kind of figure, indented by 'indent' spaces.
std::string CheckJunitSuite(const CheckResult& result, const std::string& suite, int indent = 0);

}  // namespace marey
