#pragma once
// A rank's analysis written out: JSON for programs, text for a terminal (`marey stats`).
#include <string>

#include "rank/LoadedRank.hpp"
#include "rank/RankAnalysis.hpp"

namespace marey {

// The summaries as a JSON object (the schema is in docs/stats-json.md), for `marey stats DIR
// --json`.
std::string RankAnalysisToJson(const RankAnalysis& analysis);

// The same as text for a terminal.
std::string RankAnalysisToText(const RankAnalysis& analysis);

// What a rank was read from ("database …", "text …"), the other export its folder holds, and the
// rows read from each table of a database: {"read", "other", "table_rows"}.
std::string SourceToJson(const LoadedRank& rank);
// The same as two lines for a terminal.
std::string SourceToText(const LoadedRank& rank);

}  // namespace marey
