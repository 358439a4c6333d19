#pragma once
// A trace's summary written out: JSON for programs, text for a terminal (`marey stats`).
#include <string>

#include "model/TraceModel.hpp"
#include "rank/TraceSummary.hpp"

namespace marey {

// The summary as JSON (the schema is in docs/stats-json.md).
std::string SummaryToJson(const TraceModel& model, const TraceSummary& summary);

// The summary as text for a terminal.
std::string SummaryToText(const TraceModel& model, const TraceSummary& summary);

}  // namespace marey
