#pragma once
// A rank's resources as the "resources" object of `marey stats --json` (docs/stats-json.md): its
// FLOPs (rank/RankFlops.hpp; the summary's keys also in its cluster's "rank_figures") and its
// peak allocated memory (memory_record.csv); and as lines for a terminal.
#include <string>

#include "load/FlopsFiles.hpp"
#include "load/MemoryCsv.hpp"
#include "report/JsonWriter.hpp"

namespace marey {

struct RankFlops;

// "flops", "flops_per_s", "flops_utilization" (a share, 0 to 1) and "flops_source" into 'object':
// null where the summary does not say. The one writer of these keys.
void WriteFlopsSummary(JsonObject& object, const FlopsSummary& summary, const std::string& source);

// "peak_memory_bytes" and "peak_memory_source" into 'object' (null where not recorded): the one
// writer of these keys, for a rank and for its cluster's "rank_figures".
void WritePeakMemory(JsonObject& object, const PeakMemory& peak);

// The rank's "resources" object: the FLOPs summary's keys, its ten largest operators and its
// FLOPs by scope (null without 'flops'), and "peak_memory_bytes" with its source (null without
// an allocated series in 'memory'); "null" when both are null.
std::string RankResourcesToJson(const RankFlops* flops, const MemoryRecord* memory);

// "flops …" line; empty for a null 'flops' or one without a summary.
std::string RankFlopsToText(const RankFlops* flops);

}  // namespace marey
