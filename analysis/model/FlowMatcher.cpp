#include "model/FlowMatcher.hpp"

#include <algorithm>
#include <cstring>

#include "core/ParallelFor.hpp"

namespace tracelens {
namespace {

// Arrows by source time, then by the places of both ends: a total order, so the result does not
// depend on how the work was split.
struct ArrowOrder {
    bool operator()(const Flow& a, const Flow& b) const {
        if (a.fromTs != b.fromTs) return a.fromTs < b.fromTs;
        if (a.FromRef() != b.FromRef()) return a.FromRef() < b.FromRef();
        return a.ToRef() < b.ToRef();
    }
};
constexpr ArrowOrder ArrowBefore{};

// Flow events in matching order: by key, then time, then file order.
struct FlowOrder {
    template <typename Keyed>
    bool operator()(const Keyed& a, const Keyed& b) const {
        if (a.key != b.key) return a.key < b.key;
        if (a.flow.ts != b.flow.ts) return a.flow.ts < b.flow.ts;
        return a.flow.ref < b.flow.ref;
    }
};
constexpr FlowOrder FlowBefore{};

// Raw events are given back in pieces of at least this size: each return costs every core a
// TLB flush.
constexpr uint64_t kDiscardBytes = 1 << 20;

}  // namespace

FlowMatcher::FlowMatcher(std::vector<ChunkEvents>& chunks, const std::vector<std::vector<StringId>>& stringRemap,
                         const std::vector<std::vector<uint32_t>>& trackRemap, std::string_view text)
    : m_chunks(chunks), m_stringRemap(stringRemap), m_trackRemap(trackRemap), m_text(text) {}

// The keys of a chunk's flow events, in order: from the id texts, or kept by the decoder for
// ids it could not point at.
class FlowMatcher::ChunkKeys {
public:
    ChunkKeys(const FlowMatcher& matcher, const ChunkEvents& chunk)
        : m_matcher(matcher), m_chunk(chunk), m_far(chunk.farFlowKeys.begin()) {}
    uint64_t Next() {
        const size_t index = m_index++;
        // The ids lie hundreds of bytes apart in a text long gone from the caches: asking for
        // one a few events ahead keeps several reads from memory in flight.
        constexpr size_t kAhead = 16;
        if (index + kAhead < m_chunk.flows.size()) {
            const RawFlow& later = m_chunk.flows[index + kAhead];
            __builtin_prefetch(m_matcher.m_text.data() + later.ref + later.idOffset);
        }
        if (m_far != m_chunk.farFlowKeys.end() && m_far->index == index) return (m_far++)->key;
        const RawFlow& flow = m_chunk.flows[index];
        return FlowKey(m_matcher.m_text.substr(flow.ref + flow.idOffset, flow.idLength),
                       m_chunk.strings.Hash(flow.category));
    }

private:
    const FlowMatcher& m_matcher;
    const ChunkEvents& m_chunk;
    std::vector<FarFlowKey>::const_iterator m_far;
    size_t m_index = 0;
};

void FlowMatcher::Gather(unsigned threads) {
    m_threads = std::max(1u, threads);
    // Counts per chunk and bucket (the decoder noted each event's bucket) give every chunk its
    // own slots in each bucket, so that chunks are moved in parallel and each one is read once,
    // front to back.
    const size_t chunkCount = m_chunks.size();
    // Every bucket has a page being written while the chunks are moved, so a small trace takes
    // fewer buckets (coarser runs of the decoder's): that lead stays a 16th of the events moved.
    uint64_t flowCount = 0;
    for (const ChunkEvents& chunk : m_chunks) flowCount += chunk.flows.size();
    const uint64_t pages = flowCount * sizeof(KeyedFlow) / 4096;
    int bucketBits = kFlowBucketBits;
    while (bucketBits > 0 && (uint64_t{1} << bucketBits) * 16 > pages) --bucketBits;
    const int shift = kFlowBucketBits - bucketBits;
    const size_t buckets = size_t{1} << bucketBits;
    std::vector<std::vector<uint64_t>> slot(chunkCount, std::vector<uint64_t>(buckets, 0));
    // Chunks are taken in file order: a chunk's slots lie just behind the previous chunk's in
    // every bucket, so the pages written grow as fast as the chunks released, never ahead.
    std::vector<uint64_t> fileOrder(chunkCount);
    for (size_t c = 0; c < chunkCount; ++c) fileOrder[c] = chunkCount - c;
    ParallelFor(chunkCount, threads, fileOrder, [&](size_t c) {
        for (const uint8_t bucket : m_chunks[c].flowBuckets) ++slot[c][bucket >> shift];
    });
    m_bucketStart.assign(buckets + 1, 0);
    uint64_t position = 0;
    for (size_t b = 0; b < buckets; ++b) {
        m_bucketStart[b] = position;
        for (size_t c = 0; c < chunkCount; ++c) {
            const uint64_t count = slot[c][b];
            slot[c][b] = position;
            position += count;
        }
    }
    m_bucketStart[buckets] = position;
    m_gathered.resize(position);
    ParallelFor(chunkCount, threads, fileOrder, [&](size_t c) {
        std::vector<uint64_t>& next = slot[c];
        const std::vector<StringId>& strings = m_stringRemap[c];
        const std::vector<uint32_t>& tracks = m_trackRemap[c];
        ChunkKeys keys(*this, m_chunks[c]);
        for (RawFlow flow : m_chunks[c].flows) {
            const uint64_t key = keys.Next();
            flow.category = strings[flow.category];
            flow.track = tracks[flow.track];
            m_gathered[next[FlowBucket(key) >> shift]++] = {key, flow};
        }
        m_chunks[c].flows.Release();
        m_chunks[c].flowBuckets.Release();
        m_chunks[c].farFlowKeys = {};
    });

    // Parts of about equal size, several per thread so that none waits long for the last one.
    const uint64_t parts = std::clamp<uint64_t>(uint64_t{threads} * 8, 1, buckets);
    m_partBucket.assign(1, 0);
    for (size_t b = 1; b < buckets; ++b)
        if (m_bucketStart[b] * parts >= position * m_partBucket.size()) m_partBucket.push_back(b);
    m_partBucket.push_back(buckets);
    m_results.assign(PartCount(), PartResult{});
    m_arrows.resize(position);
}

uint64_t FlowMatcher::PartSize(size_t part) const {
    return m_bucketStart[m_partBucket[part + 1]] - m_bucketStart[m_partBucket[part]];
}

void FlowMatcher::MatchPart(size_t part) {
    PartResult& result = m_results[part];
    Flow* const first = m_arrows.data() + m_bucketStart[m_partBucket[part]];
    Flow* out = first;
    uint64_t kept = m_bucketStart[m_partBucket[part]];
    for (size_t b = m_partBucket[part]; b < m_partBucket[part + 1]; ++b) {
        KeyedFlow* const begin = m_gathered.data() + m_bucketStart[b];
        KeyedFlow* const end = m_gathered.data() + m_bucketStart[b + 1];
        std::sort(begin, end, FlowBefore);
        for (KeyedFlow* i = begin; i < end;) {
            KeyedFlow* same = i + 1;
            while (same < end && same->key == i->key) ++same;
            MatchKey(i, same, result, out);
            i = same;
        }
        // Raw events shrink as arrows grow: the peak stays near the larger of the two.
        if ((m_bucketStart[b + 1] - kept) * sizeof(KeyedFlow) >= kDiscardBytes) {
            m_gathered.DiscardPages(kept, m_bucketStart[b + 1]);
            kept = m_bucketStart[b + 1];
        }
    }
    m_gathered.DiscardPages(kept, m_bucketStart[m_partBucket[part + 1]]);
    result.arrows = static_cast<uint64_t>(out - first);
}

void FlowMatcher::Finish(PodArray<Flow>& flows, ImportReport& report) {
    m_gathered.Release();
    // Each part's arrows move down behind the previous part's, in place.
    uint64_t total = 0;
    for (size_t p = 0; p < m_results.size(); ++p) {
        const PartResult& result = m_results[p];
        const Flow* first = m_arrows.data() + m_bucketStart[m_partBucket[p]];
        if (result.arrows) std::memmove(m_arrows.data() + total, first, result.arrows * sizeof(Flow));
        total += result.arrows;
        report.matchedFlows += result.arrows;
        report.unmatchedFlowEvents += result.unmatched;
    }
    m_arrows.TruncateAndRelease(total);
    // Sorted in place, in pieces split by value so that the threads sort them independently.
    Flow* const begin = m_arrows.data();
    std::vector<uint64_t> bounds{0};
    for (unsigned piece = 1; piece < m_threads && total > 0; ++piece) {
        const uint64_t at = total * piece / m_threads;
        std::nth_element(begin + bounds.back(), begin + at, begin + total, ArrowBefore);
        bounds.push_back(at);
    }
    bounds.push_back(total);
    std::vector<uint64_t> sizes(bounds.size() - 1);
    for (size_t i = 0; i + 1 < bounds.size(); ++i) sizes[i] = bounds[i + 1] - bounds[i];
    ParallelFor(sizes.size(), m_threads, sizes,
                [&](size_t i) { std::sort(begin + bounds[i], begin + bounds[i + 1], ArrowBefore); });
    flows = std::move(m_arrows);
}

// The id text of a flow event, for settling hash collisions.
std::string_view FlowMatcher::IdText(const RawFlow& flow) const {
    if (flow.idOffset == kIdTooFar || flow.idLength == kIdTooLong) return {};
    return m_text.substr(flow.ref + flow.idOffset, flow.idLength);
}

// One hash key's events, in time order. Equal hashes with different category or id text are
// split first. Reading the id text is a random access into the trace, so the common pair of
// one start and one finish trusts the 64-bit hash: a collision there needs two ids whose
// hashes agree and whose other ends are both missing.
void FlowMatcher::MatchKey(KeyedFlow* begin, KeyedFlow* end, PartResult& result, Flow*& out) const {
    const size_t size = static_cast<size_t>(end - begin);
    if (size == 1 || (size == 2 && begin[0].flow.phase != begin[1].flow.phase &&
                      begin[0].flow.category == begin[1].flow.category)) {
        MatchGroup(begin, end, result, out);
        return;
    }
    auto sameId = [this](const KeyedFlow& a, const KeyedFlow& b) {
        return a.flow.category == b.flow.category && IdText(a.flow) == IdText(b.flow);
    };
    bool oneId = true;
    for (const KeyedFlow* f = begin; f < end && oneId; ++f) oneId = sameId(*f, *begin);
    if (oneId) {
        MatchGroup(begin, end, result, out);
        return;
    }
    std::stable_sort(begin, end, [&](const KeyedFlow& a, const KeyedFlow& b) {
        if (a.flow.category != b.flow.category) return a.flow.category < b.flow.category;
        return IdText(a.flow) < IdText(b.flow);
    });
    for (KeyedFlow* k = begin; k < end;) {
        KeyedFlow* sameEnd = k;
        while (sameEnd < end && sameId(*sameEnd, *k)) ++sameEnd;
        MatchGroup(k, sameEnd, result, out);
        k = sameEnd;
    }
}

// Flow events of one (category, id), in time order, become arrows. Each step or finish joins
// the latest start or step before it; one start may feed several finishes (Ascend writes 1
// 's' and 2 'f' for some HostToDevice ids). A finish earlier than every start (device and host
// clocks disagree) joins the first start.
void FlowMatcher::MatchGroup(const KeyedFlow* begin, const KeyedFlow* end, PartResult& result, Flow*& out) const {
    const RawFlow* firstStart = nullptr;
    for (const KeyedFlow* k = begin; k < end && !firstStart; ++k)
        if (k->flow.phase == FlowPhase::kStart) firstStart = &k->flow;
    const RawFlow* source = nullptr;
    bool sourceUsed = false;
    bool firstStartUsed = false;
    for (const KeyedFlow* k = begin; k < end; ++k) {
        const RawFlow* f = &k->flow;
        if (f->phase == FlowPhase::kStart) {
            if (source && !sourceUsed) ++result.unmatched;
            source = f;
            sourceUsed = f == firstStart && firstStartUsed;
            continue;
        }
        const RawFlow* from = source ? source : firstStart;
        if (!from) {
            ++result.unmatched;
            continue;
        }
        *out++ = Flow::Make(from->ts, f->ts, from->track, f->track, from->category, from->ref, f->ref,
                            from->bindToEnclosing, f->bindToEnclosing);
        if (source) sourceUsed = true;
        else firstStartUsed = true;
        if (f->phase == FlowPhase::kStep) {
            source = f;
            sourceUsed = false;
        }
    }
    if (source && !sourceUsed) ++result.unmatched;
}

}  // namespace tracelens
