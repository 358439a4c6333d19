#pragma once
// A rank's analysis written out: JSON for programs, text for a terminal (`marey stats`).
#include <string>

#include "rank/RankAnalysis.hpp"

namespace marey {

// The summaries as a JSON object (the schema is in the README), for `marey stats DIR --json`.
std::string RankAnalysisToJson(const RankAnalysis& analysis);

// The same as text for a terminal.
std::string RankAnalysisToText(const RankAnalysis& analysis);

}  // namespace marey
