#pragma once
// A trace's device analyses (TraceAnalyses) as the index cache keeps them beside its model: the
// device activities with their launches and steps, the step windows, each rank's and each step's
// figures and every idle gap. They name the model's strings, tracks and rows, so they are only
// ever read with the model they were made from (AnalysesCache.hpp checks which).
#include <cstdint>

#include "cache/CacheFile.hpp"
#include "core/Status.hpp"
#include "model/TraceModel.hpp"
#include "trace/TraceAnalyses.hpp"

namespace marey {

// The version of the cached analyses' format. Bump it whenever TraceAnalyses' fields or what
// AnalyzeTrace puts in them change (a rule of docs/trace-analyses.md, a new figure): caches of
// the old meaning are then refused and written again. The static_asserts in
// AnalysesSerializer.cpp fail when an analysis struct changes size, as a reminder.
inline constexpr uint32_t kAnalysesCacheVersion = 2;

// kAnalysesCacheVersion and the tag of this build's record layout.
CacheFormat AnalysesCacheFormat();

// Writes 'analyses' to 'out'. O(analyses).
void SerializeAnalyses(const TraceAnalyses& analyses, CacheFileWriter& out);

// Reads analyses written by SerializeAnalyses into 'analyses', checking every index against
// 'model' (strings, tracks, rows, slices) and against the analyses' own lists, so that a
// damaged or foreign payload is refused with the reason and never reaches the views. O(analyses).
Status DeserializeAnalyses(CacheFileReader& in, const TraceModel& model, TraceAnalyses& analyses);

}  // namespace marey
