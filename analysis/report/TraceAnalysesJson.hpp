#pragma once
// The analyses from a trace alone as `marey stats --json` writes them under "analyses"
// (docs/trace-analyses.md gives the schema and every definition).
#include <string>

#include "trace/TraceAnalyses.hpp"

namespace marey {

// {"ranks": [...]} with one object per rank. O(streams + steps + class sets).
std::string TraceAnalysesToJson(const TraceAnalyses& analyses);

// The same for people: a few lines per rank.
std::string TraceAnalysesToText(const TraceAnalyses& analyses);

}  // namespace marey
