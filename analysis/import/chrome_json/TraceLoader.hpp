#pragma once
// Loads one Chrome Trace Event JSON file (.json or .json.gz) into a TraceModel, on all cores.
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "cache/IndexCache.hpp"
#include "core/LoadProgress.hpp"
#include "core/Status.hpp"
#include "load/RankDirectory.hpp"
#include "load/TraceText.hpp"
#include "model/ModelBuilder.hpp"
#include "model/TraceModel.hpp"

namespace marey {

struct LoadOptions {
    RankSource source = RankSource::kAuto;
    unsigned threads = 0;              // 0 = every core
    uint64_t chunkBytes = 8ull << 20;  // target size of one parallel piece of the event array
    uint64_t runBytes =
        256ull << 10;  // target size of what simdjson parses at once, inside a chunk
    uint64_t flowSortInPlaceBytes =
        kFlowSortInPlaceBytes;  // arrows up to this size are sorted in place, not merged
    TraceTextOptions text;
    // A trace file is read from the index cache when it has an entry there, and written to it
    // after a load from its text (LoadTrace only; never a CSV, a database or text in memory).
    IndexCacheOptions cache;
    // An Nsight Systems export: the NVTX range name that marks a step (--step-range); empty:
    // PyTorch's ProfilerStep#N ranges.
    std::string stepRange;
    // Called on the loading thread once a rank's timeline is ready and before its analyses are
    // computed (by the importers whose analyses take long: a trace, a profiler database), so that
    // the window can draw the timeline meanwhile. Nothing changes the model after this call. May
    // be empty.
    std::function<void(const std::shared_ptr<TraceModel>&)> timelineReady;
};

// Loads 'path'. Fails only when the file cannot be read or holds no trace at all; every other
// problem is reported in model.report and the rest of the file still loads. With
// options.cache.enabled, a JSON trace comes from the index cache when its entry fits, and is
// written there after a load from its text, on a thread that the model joins before it goes.
Result<std::unique_ptr<TraceModel>> LoadTrace(const std::string& path,
                                              const LoadOptions& options = {},
                                              LoadProgress* progress = nullptr);

// Same, from text already in memory (tests, the benchmark). 'name' is used in messages.
Result<std::unique_ptr<TraceModel>> LoadTraceText(TraceText text, const std::string& name,
                                                  const LoadOptions& options = {},
                                                  LoadProgress* progress = nullptr);

}  // namespace marey
