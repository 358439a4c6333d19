#include "import/chrome_json/TraceLoader.hpp"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "core/LoadTiming.hpp"
#include "core/TrimHeap.hpp"
#include "core/Problem.hpp"
#include "index/RowQuery.hpp"
#include "load/ChunkDecoder.hpp"
#include "load/JsonScan.hpp"
#include "load/TracePath.hpp"
#include "import/TrackRoles.hpp"
#include "import/kernel_csv/KernelCsvLoader.hpp"
#include "model/ModelBuilder.hpp"

namespace marey {
namespace {

struct ChunkPlan {
    uint64_t begin = 0;          // offset of the chunk's first element (a guess except for chunk 0)
    uint64_t stop = UINT64_MAX;  // where the next chunk begins
    uint64_t arrayEnd = 0;       // the last chunk's guess at the array's ']' (0: none)
    std::vector<EventRun> runs;  // the chunk as guessed runs of whole events; empty: no fast path
};

// Cuts [first, size) at likely event boundaries about every 'runBytes' into runs, and groups
// runs into chunks of about 'chunkBytes'. A chunk is what one thread decodes into one table;
// a run is what simdjson parses at once.
std::vector<ChunkPlan> PlanChunks(const TraceText& text, uint64_t first, uint64_t chunkBytes,
                                  uint64_t runBytes) {
    const char* base = text.data();
    const char* end = base + text.size();
    std::vector<uint64_t> starts{first};
    constexpr uint64_t kSearchWindow = 4ull << 20;
    for (uint64_t nominal = first + runBytes; nominal < text.size(); nominal += runBytes) {
        if (nominal <= starts.back()) continue;
        const char* limit = base + std::min<uint64_t>(text.size(), nominal + kSearchWindow);
        const char* start = FindLikelyEventStart(base + nominal, limit, end);
        if (start) starts.push_back(static_cast<uint64_t>(start - base));
    }
    // Each run ends at the closing brace of its last element, just before the ", " ahead of the
    // next run. The last run ends at the array's ']' where the file's tail makes that plain, so
    // that the last chunk is parsed whole like the others instead of event by event while the
    // other threads wait.
    std::vector<EventRun> runs(starts.size());
    for (size_t i = 0; i < starts.size(); ++i) {
        runs[i].begin = static_cast<uint64_t>(SkipWhitespace(base + starts[i], end) - base);
        if (i + 1 < starts.size()) {
            const char* p = base + starts[i + 1] - 1;
            while (p > base && *p != '}') --p;
            runs[i].end = static_cast<uint64_t>(p - base) + 1;
        }
    }
    const char* lastEvent = nullptr;
    const char* close = FindPlainArrayEnd(base + starts.back(), end, &lastEvent);
    if (close) runs.back().end = static_cast<uint64_t>(lastEvent - base) + 1;

    std::vector<ChunkPlan> plan;
    for (size_t i = 0; i < starts.size(); ++i) {
        if (i == 0 || starts[i] - plan.back().begin >= chunkBytes) {
            if (!plan.empty()) plan.back().stop = starts[i];
            plan.emplace_back().begin = starts[i];
        }
        plan.back().runs.push_back(runs[i]);
    }
    if (close) plan.back().arrayEnd = static_cast<uint64_t>(close - base);
    for (ChunkPlan& chunk : plan) {
        const bool whole = std::all_of(
            chunk.runs.begin(), chunk.runs.end(),
            [&](const EventRun& run) { return run.end > run.begin && base[run.begin] == '{'; });
        if (!whole) chunk.runs.clear();
    }
    return plan;
}

// Sorting slices inside a chunk runs on the parsing threads; merging chunks is then a k-way
// merge. Flows are sorted later, once, bucket by bucket of their keys.
void SortChunk(ChunkEvents& chunk) {
    for (ChunkTrack& track : chunk.tracks) {
        if (!std::is_sorted(track.slices.begin(), track.slices.end(), SliceBefore))
            std::sort(track.slices.begin(), track.slices.end(), SliceBefore);
        std::sort(track.wideSlices.begin(), track.wideSlices.end(), SliceBefore);
    }
}

// The parsing threads free their parser buffers (megabytes each) when they finish. glibc then
// raises its mmap threshold to that size, so that later buffers of that size come from the heap
// and stay resident after they are freed: 12 MB more peak memory on a 167 MB trace. A fixed
// threshold keeps every large buffer in its own mapping, given back on free.
void KeepLargeBuffersMapped() {
    static std::once_flag once;
    std::call_once(once, [] { mallopt(M_MMAP_THRESHOLD, 128 * 1024); });
}

// Sequential check after the parallel parse: each chunk must begin where the previous one really
// ended; a guess that fell inside an event (or a chunk after a bad event) is decoded again from
// the true place. Chunks past the array's end are dropped; the last one gets the file's own
// problems and says when the array was never closed.
// The device and runtime events' fields of every chunk, in file order (the chunks are contiguous
// and in order by now, so that Finish has nothing to sort).
void KeepSliceFields(std::vector<ChunkEvents>& chunks, SliceFieldTable& table) {
    size_t count = 0;
    for (const ChunkEvents& chunk : chunks) count += chunk.sliceFields.size();
    table.Reserve(count);
    for (ChunkEvents& chunk : chunks) {
        table.Append(chunk.sliceFields);
        chunk.sliceFields = SliceFieldTable();
    }
    table.Finish();
}

// Returns false when the text ends before its events do (see ImportReport::truncated).
bool KeepContiguousChunks(const TraceText& source, const std::vector<ChunkPlan>& plan,
                          uint64_t first, std::vector<ChunkEvents>& chunks) {
    // The decoder is made only when needed: its caches are 150 KB of fresh pages.
    std::optional<ChunkDecoder> decoder;
    uint64_t position = first;
    size_t kept = 0;
    for (size_t i = 0; i < plan.size(); ++i) {
        if (chunks[i].beginOffset != position) {
            chunks[i] = ChunkEvents();
            if (!decoder) decoder.emplace(source);
            decoder->DecodeSlow(position, plan[i].stop, chunks[i]);
            SortChunk(chunks[i]);
        }
        position = chunks[i].endOffset;
        kept = i + 1;
        if (chunks[i].reachedArrayEnd) break;
    }
    chunks.resize(kept);
    const bool closed =
        !chunks.empty() && chunks.back().reachedArrayEnd && chunks.back().endOffset < source.size();
    if (!closed) {
        chunks.back().problems.Add(
            source.size(),
            "the event array is not closed with ']' (the file may be truncated); "
            "every complete event was loaded");
    } else if (const char* repeated = FindRepeatedEventArray(
                   source.data() + chunks.back().endOffset, source.data() + source.size())) {
        // JSON parsers disagree on a repeated key; the first array is the trace here, and the
        // second is said rather than silently dropped.
        // How many events it holds is said, so that what is not shown is known.
        const int64_t events = CountArrayAfterKey(repeated, source.data() + source.size());
        chunks.back().problems.Add(
            static_cast<uint64_t>(repeated - source.data()),
            "a second \"traceEvents\" array" +
                (events >= 0 ? " of " + std::to_string(events) + " event" + (events == 1 ? "" : "s")
                             : std::string()) +
                ": not read (the first one is the trace; a file should have one)");
    }
    for (const ImportProblem& p : source.problems())
        chunks.back().problems.Add(p.byteOffset, p.message);
    if (source.ShrankWhileMapped())
        chunks.back().problems.Add(
            source.size(),
            "the file shrank while it was read (truncated by another process?): "
            "bytes past its new end read as zeros; everything before was loaded");
    return closed && !source.ShrankWhileMapped();
}

}  // namespace

Result<std::unique_ptr<TraceModel>> LoadTrace(const std::string& path, const LoadOptions& options,
                                              LoadProgress* progress) {
    const LoadTiming timing;
    const Result<std::string> file = ResolveTraceFile(path);
    if (!file.ok()) return file.status();
    const std::string& resolved = file.value();
    const bool csv = resolved.size() > 4 && resolved.compare(resolved.size() - 4, 4, ".csv") == 0;
    // The cache's key is read before the text, so that a trace changed while it loads is cached
    // under a time that no longer fits it.
    std::optional<IndexCache> cache;
    if (options.cache.enabled && !csv) cache.emplace(options.cache, resolved);
    Result<TraceText> text = TraceText::Open(resolved, options.text);
    if (!text.ok()) return text.status();
    if (csv) return LoadKernelDetailsCsv(std::move(text.value()), resolved, options);
    if (cache) {
        if (std::unique_ptr<TraceModel> cached = cache->Read(text.value())) {
            timing.Report("read from the index cache");
            if (progress) {
                progress->bytesTotal = progress->bytesDone = cached->sources.front().text.size();
                progress->stage = 3;
            }
            return cached;
        }
    }
    auto loaded = LoadTraceText(std::move(text.value()), resolved, options, progress);
    if (cache && loaded.ok()) cache->WriteInBackground(*loaded.value());
    return loaded;
}

Result<std::unique_ptr<TraceModel>> LoadTraceText(TraceText text, const std::string& name,
                                                  const LoadOptions& options,
                                                  LoadProgress* progress) {
    const LoadTiming timing;
    KeepLargeBuffersMapped();
    auto model = std::make_unique<TraceModel>();
    TraceSource& added = model->sources.emplace_back();
    added.path = name;
    added.text = std::move(text);
    added.format = SourceFormat::kChromeJson;
    const TraceText& source = model->sources.front().text;
    if (progress) {
        progress->bytesTotal = source.size();
        progress->stage = 1;
    }
    const char* base = source.data();
    const char* problemAt = nullptr;
    const char* arrayStart = FindEventArray(base, base + source.size(), &problemAt);
    if (!arrayStart) {
        if (source.size() == 0 ||
            SkipWhitespace(base, base + source.size()) == base + source.size()) {
            std::string message = name + ": error: the file is empty";
            for (const ImportProblem& p : source.problems()) message += "; " + p.message;
            return Status::Error(message);
        }
        ImportProblem where{static_cast<uint64_t>(problemAt - base), 0, 0,
                            "not a trace: expected a JSON array of events or an object with a "
                            "\"traceEvents\" array"};
        std::vector<ImportProblem> one{where};
        FillLineColumns(source, one);
        return Status::Error(FormatProblem(name, one[0]));
    }

    const unsigned threads =
        options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency());
    const uint64_t first = static_cast<uint64_t>(arrayStart - base);
    // A chunk is an eighth of a thread's share of the file, between 4 MiB and the 8 MiB default:
    // every core has work and waits little for the last chunk, and chunks stay few. Each chunk
    // has its own tables: a mapping for each large array, given back one by one while the model
    // is built (each time a TLB flush on every core: 50 to 200 µs while the other core is busy,
    // on one of our virtual machines), and a string pool merged into the model's.
    // simdjson parses a chunk in runs of a 64th of it, at least 64 KiB, so that each thread's
    // copy of a run and its structural index (together about twice the run) stay in the core's
    // cache. Those buffers stay resident while the thread parses: in a small file they are much
    // of the memory beyond the events (0.7 MB a thread for runs of 256 KiB, 0.3 MB for 64 KiB).
    const uint64_t shareEighth = (source.size() - first) / (uint64_t{threads} * 8);
    const uint64_t chunkBytes = std::max<uint64_t>(
        std::min<uint64_t>(options.chunkBytes, std::max<uint64_t>(shareEighth, 4 << 20)), 256);
    const uint64_t runBytes =
        std::min({chunkBytes, options.runBytes, std::max<uint64_t>(chunkBytes / 64, 64 << 10)});
    const std::vector<ChunkPlan> plan = PlanChunks(source, first, chunkBytes, runBytes);
    std::vector<ChunkEvents> chunks(plan.size());
    std::vector<char> fastOk(plan.size(), 0);

    uint64_t largestRun = 0;
    for (const ChunkPlan& chunk : plan)
        for (const EventRun& run : chunk.runs)
            largestRun = std::max(largestRun, run.end - run.begin);

    // Parallel: each chunk takes the fast path from its guessed start where it has one.
    std::atomic<size_t> next{0};
    auto worker = [&] {
        ChunkDecoder decoder(source);
        decoder.Reserve(largestRun);
        for (size_t i; (i = next.fetch_add(1)) < plan.size();) {
            if (progress && progress->cancel.load(std::memory_order_relaxed)) break;
            const ChunkPlan& piece = plan[i];
            if (!piece.runs.empty()) {
                if (decoder.DecodeFast(piece.runs, chunks[i])) {
                    chunks[i].beginOffset = piece.begin;
                    chunks[i].endOffset = piece.arrayEnd ? piece.arrayEnd : piece.stop;
                    chunks[i].reachedArrayEnd = piece.arrayEnd != 0;
                    fastOk[i] = 1;
                } else {
                    chunks[i] = ChunkEvents();
                }
            }
            if (!fastOk[i]) decoder.DecodeSlow(piece.begin, piece.stop, chunks[i]);
            SortChunk(chunks[i]);
            if (progress)
                progress->bytesDone +=
                    (piece.stop == UINT64_MAX ? source.size() : piece.stop) - piece.begin;
        }
    };
    {
        std::vector<std::thread> pool;
        for (unsigned i = 1; i < std::min<size_t>(threads, plan.size()); ++i)
            pool.emplace_back(worker);
        worker();
        for (auto& thread : pool) thread.join();
    }

    if (progress && progress->cancel) return Status::Error(name + ": cancelled");

    const bool whole = KeepContiguousChunks(source, plan, first, chunks);
    KeepSliceFields(chunks, model->sources.front().sliceFields);

    if (progress) progress->stage = 2;
    timing.Report("chunks parsed");
    // The chunks' small tables grew on the heaps of the threads that parsed them, and building
    // the model frees them: what is left free on those heaps stays resident until trimmed.
    TrimFreedHeap();
    BuildModel(chunks, threads, *model, options.flowSortInPlaceBytes, BuildOverview);
    AssignTrackRoles(*model);
    model->report.truncated = !whole;
    TrimFreedHeap();
    timing.Report("model built");
    FillLineColumns(source, model->report.problems);
    if (progress) progress->stage = 3;
    return model;
}

}  // namespace marey
