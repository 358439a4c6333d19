#pragma once
// A rank's FLOPs (rank/RankFlops.hpp) as the "resources" object of `marey stats --json`
// (docs/stats-json.md), in a rank's object and in its cluster's "rank_figures", and as a line
// for a terminal.
#include <string>

#include "load/FlopsFiles.hpp"
#include "report/JsonWriter.hpp"

namespace marey {

struct RankFlops;

// "flops", "flops_per_s", "flops_utilization" (a share, 0 to 1) and "flops_source" into 'object':
// null where the summary does not say. The one writer of these keys.
void WriteFlopsSummary(JsonObject& object, const FlopsSummary& summary, const std::string& source);

// The rank's "resources" object: the summary's keys, its ten largest operators and its FLOPs by
// scope; "null" for a null 'flops'.
std::string RankFlopsToJson(const RankFlops* flops);

// "flops …" line; empty for a null 'flops' or one without a summary.
std::string RankFlopsToText(const RankFlops* flops);

}  // namespace marey
