#pragma once
// What `marey check` writes: the terminal's lines, a pull-request comment in Markdown and the
// machine form in JSON (keys in the README's "Regression gate" section). Plain text from a
// CheckResult; O(findings).
#include <string>

#include "compare/RegressionCheck.hpp"

namespace marey {

// "regression: operator MatMul_0: 204.1 µs -> 408.2 µs per step, +100.0 % (+204.1 µs)": one
// line per regression, largest first, then one per improvement, then the verdict.
std::string CheckToText(const CheckResult& result);

// A verdict line, a table of regressions and one of improvements, and the steps compared.
std::string CheckToMarkdown(const CheckResult& result);

// {"verdict", "baseline", "candidate", "steps_compared", "paired", "aligned_step",
//  "baseline_step_ns", "min_time_ns", "figures_compared", "regressions", "improvements"}.
std::string CheckToJson(const CheckResult& result);

// JUnit XML for CI systems: one test suite "marey check" with one test case per kind of figure
// (step time, phases, operators, operator types, communication), failed with the lines of that
// kind's regressions; improvements and the steps compared in <system-out>.
std::string CheckToJunit(const CheckResult& result);

// "step time", "phase free", "operator MatMul_0", "operator type MatMul", "communication
// hcom_allReduce": what a finding is about, for a person.
std::string DescribeFinding(const CheckFinding& finding);

}  // namespace marey
