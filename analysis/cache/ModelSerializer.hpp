#pragma once
// A TraceModel of one trace file as the index cache keeps it: every array the loader derives
// (rows with their level of detail, instants, counters, flows), the string pool, processes,
// tracks, unfinished slices and the import report with its problems. The trace's text is not in
// it: refs are byte offsets into the trace, whose text is mapped (or inflated) again on reading.
#include <cstdint>

#include "cache/CacheFile.hpp"
#include "core/Status.hpp"
#include "model/TraceModel.hpp"

namespace marey {

// The version of the cached model's format. Bump it whenever TraceModel's fields or what the
// loader puts in them change (the decoder, ModelBuilder, FlowMatcher, BuildOverview): caches of
// the old meaning are then refused and written again, never read as the new one. The
// static_asserts in ModelSerializer.cpp fail when a model struct changes size, as a reminder.
inline constexpr uint32_t kModelCacheVersion = 6;

// kModelCacheVersion and the tag of this build's record layout.
CacheFormat ModelCacheFormat();

// Writes 'model' (read from one file: no groups) to 'out'. O(model).
void SerializeModel(const TraceModel& model, CacheFileWriter& out);

// Reads a model written by SerializeModel into 'model', a fresh one whose sources[0] already
// holds the trace's text. Fails with the reason when the payload is damaged or does not fit the
// text (every index and ref is checked, so that a damaged file never reaches the views).
// O(model): the arrays are read straight into their memory.
Status DeserializeModel(CacheFileReader& in, TraceModel& model);

}  // namespace marey
