#pragma once
// Decodes a run of events of the top-level array into ChunkEvents. One decoder per thread.
#include <cstdint>
#include <memory>
#include <string>

#include "load/RawEvents.hpp"

namespace tracelens {

class TraceText;

class ChunkDecoder {
public:
    explicit ChunkDecoder(const TraceText& text);
    ~ChunkDecoder();
    ChunkDecoder(const ChunkDecoder&) = delete;
    ChunkDecoder& operator=(const ChunkDecoder&) = delete;

    // Sizes the parser and the copy buffer once for chunks of up to 'chunkBytes': each growth
    // would give the old buffers back and fault in new ones.
    void Reserve(uint64_t chunkBytes);

    // Fast path: the events in [beginOffset, endOffset) (from an event's '{' to just after the
    // last event's '}') are copied behind a '[' and parsed as one document by simdjson.
    // Returns false on any JSON error; 'out' is then unusable and the slow path must run.
    bool DecodeFast(uint64_t beginOffset, uint64_t endOffset, ChunkEvents& out);

    // Slow path: element by element from 'beginOffset' (an element start, or just after the
    // array's '['), each located by scanning and parsed on its own, so that a malformed or
    // truncated event costs only itself. Stops before the first element that starts at or
    // after 'stopOffset', or at the array's end. Never fails; problems go to out.problems.
    void DecodeSlow(uint64_t beginOffset, uint64_t stopOffset, ChunkEvents& out);

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

}  // namespace tracelens
