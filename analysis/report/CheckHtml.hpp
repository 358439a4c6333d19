#pragma once
// `marey check --html FILE`: one self-contained page a reviewer opens from a CI job's artifacts:
// the verdict, the regressions and improvements as the Markdown has them, the step times of both
// runs plotted per step, and the per-step times of the operator that regressed most. Inline CSS
// and SVG only: no script, nothing fetched, so it reads the same offline and in a sandboxed
// artifact viewer. Every name from a trace is escaped. O(findings + steps).
#include <string>

#include "compare/ClusterCheck.hpp"
#include "compare/RegressionCheck.hpp"

namespace marey {

// The page for two runs.
std::string CheckToHtml(const CheckResult& result);

// The page for two clusters: the verdict, a table of every rank worst first, the unpaired ranks,
// the worst rank in full (tables and plots) and every other rank's findings as tables.
std::string ClusterCheckToHtml(const ClusterCheckResult& cluster);

// The series' colours, which the browser test looks for in the rendered page.
inline constexpr const char* kBaselineColour = "#2563eb";
inline constexpr const char* kCandidateColour = "#ea580c";

}  // namespace marey
