#pragma once
// Decodes a run of events of the top-level array into ChunkEvents. One decoder per thread.
#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "load/RawEvents.hpp"

namespace marey {

class TraceText;

// Whole events of the array, back to back: from an event's '{' to just after the last one's '}'.
struct EventRun {
    uint64_t begin = 0;
    uint64_t end = 0;
};

class ChunkDecoder {
public:
    explicit ChunkDecoder(const TraceText& text);
    ~ChunkDecoder();
    ChunkDecoder(const ChunkDecoder&) = delete;
    ChunkDecoder& operator=(const ChunkDecoder&) = delete;

    // Sizes the parser and the copy buffer once for runs of up to 'runBytes': each growth
    // would give the old buffers back and fault in new ones.
    void Reserve(uint64_t runBytes);

    // Fast path: each run, in order, is copied behind a '[' and parsed as one document by
    // simdjson, all into 'out'. Runs are kept small, so that the copy and simdjson's index of
    // it stay in the core's cache however large the chunk. Returns false on any JSON error;
    // 'out' is then unusable and the slow path must run.
    bool DecodeFast(std::span<const EventRun> runs, ChunkEvents& out);

    // Slow path: element by element from 'beginOffset' (an element start, or just after the
    // array's '['), each located by scanning and parsed on its own, so that a malformed or
    // truncated event costs only itself. Stops before the first element that starts at or
    // after 'stopOffset', or at the array's end. Never fails; problems go to out.problems.
    void DecodeSlow(uint64_t beginOffset, uint64_t stopOffset, ChunkEvents& out);

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

}  // namespace marey
