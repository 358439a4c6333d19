#pragma once
// The analyses from a trace alone as `marey stats --json` writes them under "analyses"
// (docs/trace-analyses.md gives the schema and every definition).
#include <string>

#include "trace/HtaCompatible.hpp"
#include "trace/TraceAnalyses.hpp"

namespace marey {

// {"ranks": [...]} with one object per rank. O(streams + steps + class sets).
std::string TraceAnalysesToJson(const TraceAnalyses& analyses);

// The same for people: a few lines per rank.
std::string TraceAnalysesToText(const TraceAnalyses& analyses);

// The figures of HTA 0.5's definitions (--hta-compatible): {"definitions": "HTA 0.5", "ranks":
// [...]} with the same keys where HTA has the figure, streams by their number, and no steps (HTA
// computes none).
std::string HtaAnalysisToJson(const HtaAnalysis& analysis);
std::string HtaAnalysisToText(const HtaAnalysis& analysis);

}  // namespace marey
