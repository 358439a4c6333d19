#pragma once
// What one chunk of the event array decodes to, before chunks are merged into the model.
// Strings here are ids in the chunk's own StringPool; tracks are the chunk's own indices.
#include <algorithm>
#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "core/Hash.hpp"
#include "core/PodArray.hpp"
#include "core/Status.hpp"
#include "core/StringPool.hpp"
#include "core/Time.hpp"
#include "load/SliceFieldTable.hpp"

namespace marey {

// A pid or tid: JSON numbers and strings both occur (Kineto writes "tid": "stream 7").
struct EntityId {
    int64_t number = 0;
    StringId text = 0;  // nonzero: the id was a string
    bool operator==(const EntityId& other) const {
        return number == other.number && text == other.text;
    }
};

// A slice with the byte offset of its event in the text ('ref'): a complete ('X') event, a
// matched 'B'/'E' pair or async pair. Packed: a trace holds hundreds of millions of slices while
// it loads.
#pragma pack(push, 4)
struct RawSlice {
    TimeNs startNs;
    TimeNs durNs;
    uint64_t ref;
    StringId name;
};
#pragma pack(pop)
static_assert(sizeof(RawSlice) == 28);

// A complete event as a chunk keeps it, in 20 bytes: 'ref' counts from the chunk's refBase, and
// the duration has 32 bits (4.29 s). The rare slice that needs more (a longer one, or one 4 GiB
// or more past the start of a chunk that holds a giant event) is kept as a RawSlice instead.
#pragma pack(push, 4)
struct ChunkSlice {
    TimeNs startNs;
    uint32_t durNs;
    uint32_t ref;
    StringId name;
};
#pragma pack(pop)
static_assert(sizeof(ChunkSlice) == 20);

// Display order of slices: start ascending, longer first, then file order (slices of one chunk
// compare their refs from the same base). A function object rather than a function, so that
// sorts inline the comparison.
struct SliceOrder {
    template <typename Slice>
    bool operator()(const Slice& a, const Slice& b) const {
        if (a.startNs != b.startNs) return a.startNs < b.startNs;
        if (a.durNs != b.durNs) return a.durNs > b.durNs;
        return a.ref < b.ref;
    }
};
inline constexpr SliceOrder SliceBefore{};

// Sorts slices that are in display order but for a few (a database's rows come in rowid order,
// mostly start order; a ProfilerStep row is written after the operators it holds): the ones out
// of order are taken out, sorted and merged back. O(n + k log k) for k of them; a plain sort's
// cost when most are out of order.
template <typename Slice>
void SortMostlySorted(PodArray<Slice>& slices) {
    if (std::is_sorted(slices.begin(), slices.end(), SliceBefore)) return;
    std::vector<Slice> inOrder, late;
    inOrder.reserve(slices.size());
    for (const Slice& slice : slices) {
        if (inOrder.empty() || !SliceBefore(slice, inOrder.back()))
            inOrder.push_back(slice);
        else
            late.push_back(slice);
    }
    std::sort(late.begin(), late.end(), SliceBefore);
    std::merge(inOrder.begin(), inOrder.end(), late.begin(), late.end(), slices.begin(),
               SliceBefore);
}

enum class BoundaryKind : uint8_t { kBegin, kEnd };
struct RawBoundary {
    TimeNs ts;
    uint64_t ref;
    StringId name;
    BoundaryKind kind;
};

enum class AsyncKind : uint8_t { kBegin, kEnd, kInstant };
struct RawAsync {
    TimeNs ts;
    uint64_t ref;
    StringId name;
    StringId category;
    StringId id;
    uint32_t track;  // the thread it was written on; the slice goes to its process
    AsyncKind kind;
};

enum class InstantScope : uint8_t { kThread, kProcess, kGlobal };
struct RawInstant {
    TimeNs ts;
    uint64_t ref;
    StringId name;
    uint32_t track;
    InstantScope scope;
};

struct RawCounter {
    TimeNs ts;
    double value;
    uint32_t series;  // index into ChunkEvents::counterSeries
};

// A counter series is one key of one counter event name in one process.
struct CounterSeriesKey {
    uint32_t track;  // a track of the process (tid ignored)
    StringId name;
    StringId key;
};

enum class FlowPhase : uint8_t { kStart, kStep, kFinish };

// The thread and category of flow events. An event keeps the index of its pair in a table of
// these: a trace has few distinct pairs, and the event stays 24 bytes.
struct FlowOrigin {
    uint32_t track;
    StringId category;
    bool operator==(const FlowOrigin& other) const = default;
};
// An origin index has 21 bits; the highest value marks events whose origin did not fit.
constexpr uint32_t kNoFlowOrigin = (1u << 21) - 1;
constexpr uint32_t kMaxFlowOrigins = kNoFlowOrigin;

// A flow event: there are twice as many as arrows, so it is kept small. Its id is not interned
// (ids are mostly unique): it is matched by 'key', 48 bits of a hash of (category, id) computed
// while the id is at hand. Where two events share a key, the matcher reads their ids again in
// the text, at ref + idOffset.
struct RawFlow {
    uint64_t key : 48;
    uint64_t
        idOffset : 16;  // from ref; kIdTooFar when the id is not within 64 KiB of the event start
    TimeNs ts;
    uint64_t ref : 40;     // traces up to 1 TiB
    uint32_t origin : 21;  // in ChunkEvents::flowOrigins, then in the matcher's table
    FlowPhase phase : 2;
    bool bindToEnclosing : 1;  // "bp": "e", or a start without bp
};
static_assert(sizeof(RawFlow) == 24);
constexpr uint16_t kIdTooFar = 0xFFFF;
constexpr int kFlowKeyBits = 48;

// The text a flow event's id is matched by, from its raw "id" token without trailing white
// space: a string's quotes are stripped, so that 7 and "7" match.
inline std::string_view FlowIdText(std::string_view token) {
    if (token.size() >= 2 && token.front() == '"' && token.back() == '"')
        return token.substr(1, token.size() - 2);
    return token;
}

// The matching key of a flow event: its FlowIdText hashed with its category's HashBytes. The
// hash's top bits are kept: they are the best mixed.
inline uint64_t FlowKey(std::string_view idText, uint64_t categoryHash) {
    return (HashBytes(idText) ^ (categoryHash * kGoldenRatio64)) >> (64 - kFlowKeyBits);
}

// Flow events are matched in buckets of their keys' top bits; the decoder counts the top 8. At
// most 256 buckets: the first chunks gathered write a page of every bucket before they release
// much, and that lead stays 1 MiB. Small traces take fewer (see FlowMatcher::Gather).
constexpr int kFlowBucketBits = 8;
inline uint8_t FlowBucket(uint64_t key) {
    return static_cast<uint8_t>(key >> (kFlowKeyBits - kFlowBucketBits));
}

enum class MetadataKind : uint8_t {
    kProcessName,
    kProcessLabels,
    kProcessSortIndex,
    kThreadName,
    kThreadSortIndex
};
struct RawMetadata {
    uint64_t ref;
    uint32_t track;
    MetadataKind kind;
    StringId text;
    int64_t number;
};

// One (pid, tid) seen in the chunk.
struct ChunkTrack {
    EntityId pid;
    EntityId tid;
    PodArray<ChunkSlice> slices;
    PodArray<RawSlice> wideSlices;  // those that do not fit a ChunkSlice
    PodArray<RawBoundary> boundaries;
};

// Phases are counted by their character; anything longer or unusual goes to 'other'.
struct PhaseCounts {
    std::array<uint64_t, 128> byChar{};
    uint64_t other = 0;
    void Add(const PhaseCounts& more) {
        for (size_t i = 0; i < byChar.size(); ++i) byChar[i] += more.byChar[i];
        other += more.other;
    }
};

constexpr size_t kMaxKeptProblems = 100;

// Problems of one chunk: all are counted, the first ones kept with their places.
struct ProblemList {
    std::vector<ImportProblem> kept;
    uint64_t count = 0;
    void Add(uint64_t offset, std::string message) {
        ++count;
        if (kept.size() < kMaxKeptProblems) kept.push_back({offset, 0, 0, std::move(message)});
    }
};

struct ChunkEvents {
    StringPool strings;
    std::vector<ChunkTrack> tracks;
    PodArray<RawAsync> asyncs;
    PodArray<RawInstant> instants;
    PodArray<RawCounter> counters;
    std::vector<CounterSeriesKey> counterSeries;
    PodArray<RawFlow> flows;
    std::vector<FlowOrigin> flowOrigins;
    std::array<uint32_t, 1 << kFlowBucketBits> flowsPerBucket{};  // by FlowBucket of their keys
    std::vector<RawMetadata> metadata;
    PhaseCounts phases;
    uint64_t eventCount = 0;  // elements of the event array, malformed ones included
    ProblemList problems;
    SliceFieldTable sliceFields;  // of the device and runtime events of this chunk
    uint64_t refBase = 0;         // where the refs of ChunkSlice count from
    uint64_t beginOffset = 0;     // where this chunk's first element starts
    uint64_t endOffset = 0;  // where the element after its last one starts (or the array's end)
    bool reachedArrayEnd = false;

    void AddSlice(uint32_t track, TimeNs startNs, TimeNs durNs, uint64_t ref, StringId name) {
        const uint64_t fromBase = ref - refBase;
        if (fromBase <= UINT32_MAX && static_cast<uint64_t>(durNs) <= UINT32_MAX) {
            tracks[track].slices.push_back(
                {startNs, static_cast<uint32_t>(durNs), static_cast<uint32_t>(fromBase), name});
        } else {
            tracks[track].wideSlices.push_back({startNs, durNs, ref, name});
        }
    }
};

}  // namespace marey
