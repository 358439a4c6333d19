#pragma once
// A trace's device analyses kept beside its model in the index cache: a file of their own
// ("<hash>.analyses.index") with the same key (the trace's canonical path, size and time), the
// same size limit and eviction, and the same "ignored: why" line when it does not fit. Its
// payload names the model's cache file it was made from (that file's checksum), so that it is
// only ever read with that very model: a model written again is a new one.
#include <memory>
#include <string>

#include "cache/IndexCache.hpp"
#include "model/TraceModel.hpp"
#include "trace/TraceAnalyses.hpp"

namespace marey {

// The analyses cached for 'model', loaded from the trace file 'cache' was made for, when 'model'
// came from the index cache and they were made from it with 'options'' figures; null otherwise
// (the cache's 'say' then hears why, unless there was no file). O(analyses), each index checked.
std::shared_ptr<TraceAnalyses> ReadCachedAnalyses(const IndexCache& cache, const TraceModel& model,
                                                  const TraceAnalysisOptions& options);

// Writes 'analyses' of 'model' beside its model's cache file on model.cacheWrite, after the
// model's own write (whose checksum it names); nothing when the model has no cache file. A
// failure is said, never returned.
void WriteAnalysesInBackground(const IndexCache& cache, TraceModel& model,
                               std::shared_ptr<const TraceAnalyses> analyses);

}  // namespace marey
