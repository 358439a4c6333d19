#pragma once
// Joins the flow events of a trace ('s', 't', 'f') into arrows, across all its chunks.
#include <cstdint>
#include <string_view>
#include <vector>

#include "core/PodArray.hpp"
#include "load/RawEvents.hpp"
#include "model/TraceModel.hpp"

namespace marey {

// Flow events match by category and id text. Their keys (hashes of both) are spread evenly, so
// the key's top bits cut the work into buckets, and runs of buckets into parts that threads
// match independently. Used in three steps: Gather, then MatchPart for every part (at the same
// time on several threads if wanted), then Finish.
class FlowMatcher {
public:
    // 'stringRemap' and 'trackRemap' turn a chunk's string ids and track indices into the
    // model's; 'text' is the trace, where ids are read back to settle hash collisions.
    // 'boundFlowCategory' is the model's id of "bind_id", the category of flows v2 (0: none),
    // whose ids are read from their "bind_id" key.
    FlowMatcher(std::vector<ChunkEvents>& chunks,
                const std::vector<std::vector<StringId>>& stringRemap,
                const std::vector<std::vector<uint32_t>>& trackRemap, std::string_view text,
                StringId boundFlowCategory);

    // Moves every chunk's flow events, with model ids, into one array ordered by
    // bucket, on 'threads' threads (Finish uses as many); each chunk's own array is released as
    // soon as it has been moved.
    void Gather(unsigned threads);

    // Flow events left out because the trace has more than kMaxFlowOrigins (thread, category)
    // pairs, and the place of the first one (known after Gather).
    uint64_t DroppedEvents() const { return m_dropped; }
    uint64_t FirstDroppedRef() const { return m_firstDroppedRef; }

    size_t PartCount() const { return m_partBucket.size() - 1; }
    uint64_t PartSize(size_t part) const;
    // Matches the events of one part. Distinct parts may run at the same time.
    void MatchPart(size_t part);

    // The arrows of every part, ordered by source time, then by the places of their two ends
    // in the file; and the counts of matched arrows and of events that belong to none. Up to
    // 'sortInPlaceBytes' of arrows are sorted in the matcher's array, which becomes 'flows'.
    // 'origins' receives the table of the arrows' fromOrigin and toOrigin.
    void Finish(PodArray<Flow>& flows, std::vector<FlowOrigin>& origins, ImportReport& report,
                uint64_t sortInPlaceBytes);

private:
    struct PartResult {
        uint64_t arrows = 0;     // written at m_arrows[first raw event of the part]
        uint64_t unmatched = 0;  // flow events that belong to no arrow
    };
    struct SortedArrows {
        const Flow* begin;
        const Flow* end;
    };
    void MergeArrows(std::vector<SortedArrows>& runs, PodArray<Flow>& flows, size_t outBegin,
                     size_t outEnd);
    void MatchKey(RawFlow* begin, RawFlow* end, PartResult& result, Flow*& out) const;
    void MatchGroup(const RawFlow* begin, const RawFlow* end, PartResult& result, Flow*& out) const;
    std::string_view IdText(const RawFlow& flow) const;
    void MapOrigins();

    std::vector<ChunkEvents>& m_chunks;
    const std::vector<std::vector<StringId>>& m_stringRemap;
    const std::vector<std::vector<uint32_t>>& m_trackRemap;
    std::string_view m_text;
    StringId m_boundFlowCategory;
    std::vector<FlowOrigin> m_origins;  // the model's tracks and strings
    std::vector<std::vector<uint32_t>>
        m_originRemap;  // per chunk: its origin index -> m_origins index
    uint64_t m_dropped = 0;
    uint64_t m_firstDroppedRef = UINT64_MAX;
    std::vector<uint64_t>
        m_bucketStart;  // raw events of bucket b: [m_bucketStart[b], m_bucketStart[b + 1])
    std::vector<size_t> m_partBucket;  // buckets of part p: [m_partBucket[p], m_partBucket[p + 1])
    PodArray<RawFlow> m_gathered;
    PodArray<Flow> m_arrows;  // part p writes its arrows from m_bucketStart[first bucket of p]:
                              // never more than its events
    std::vector<PartResult> m_results;
    unsigned m_threads = 1;
    uint64_t m_discardBytes = 0;  // raw events read are given back in steps of this size
};

}  // namespace marey
