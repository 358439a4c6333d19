#pragma once
// A comparison written out: JSON for programs, text for a terminal (`marey stats --compare`).
#include <string>

#include "compare/RankSummary.hpp"
#include "compare/TraceDiff.hpp"

namespace marey {

// The diff as one JSON object (schema in docs/stats-json.md), for `marey stats --compare A B
// --json`.
std::string TraceDiffToJson(const RankSummary& a, const RankSummary& b, const TraceDiff& diff);

// The largest differences as text for a terminal.
std::string TraceDiffToText(const RankSummary& a, const RankSummary& b, const TraceDiff& diff,
                            size_t top);

}  // namespace marey
