#include "model/FlowMatcher.hpp"

#include <algorithm>
#include <array>

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
    bool operator()(const RawFlow& a, const RawFlow& b) const {
        if (a.key != b.key) return a.key < b.key;
        if (a.ts != b.ts) return a.ts < b.ts;
        return a.ref < b.ref;
    }
};
constexpr FlowOrder FlowBefore{};

// Copies one bucket's flow events into 'sorted', in FlowOrder: a counting pass on the next 8 bits
// of their keys spreads them into sub-buckets of a few events each, which insertion sort
// finishes (std::sort where one holds many, as when one id repeats).
void SortBucket(const RawFlow* begin, const RawFlow* end, std::vector<RawFlow>& sorted) {
    auto digit = [](const RawFlow& f) { return static_cast<size_t>(f.key >> (64 - kFlowBucketBits - 8)) & 0xFF; };
    std::array<size_t, 257> start{};
    for (const RawFlow* f = begin; f < end; ++f) ++start[digit(*f) + 1];
    for (size_t d = 1; d < start.size(); ++d) start[d] += start[d - 1];
    sorted.resize(static_cast<size_t>(end - begin));
    std::array<size_t, 256> next;
    std::copy(start.begin(), start.end() - 1, next.begin());
    for (const RawFlow* f = begin; f < end; ++f) sorted[next[digit(*f)]++] = *f;
    constexpr size_t kInsertionSortMost = 32;
    for (size_t d = 0; d < 256; ++d) {
        RawFlow* const first = sorted.data() + start[d];
        RawFlow* const last = sorted.data() + start[d + 1];
        const ptrdiff_t size = last - first;
        if (size < 2) continue;  // also where 'sorted' is empty and has no data to point into
        if (size > static_cast<ptrdiff_t>(kInsertionSortMost)) {
            std::sort(first, last, FlowBefore);
            continue;
        }
        for (RawFlow* i = first + 1; i < last; ++i) {
            const RawFlow value = *i;
            RawFlow* j = i;
            for (; j > first && FlowBefore(value, j[-1]); --j) *j = j[-1];
            *j = value;
        }
    }
}

// Raw events are given back in pieces of at least this size: each return costs every core a
// TLB flush.
constexpr uint64_t kDiscardBytes = 1 << 20;

}  // namespace

FlowMatcher::FlowMatcher(std::vector<ChunkEvents>& chunks, const std::vector<std::vector<StringId>>& stringRemap,
                         const std::vector<std::vector<uint32_t>>& trackRemap, std::string_view text)
    : m_chunks(chunks), m_stringRemap(stringRemap), m_trackRemap(trackRemap), m_text(text) {}

void FlowMatcher::Gather(unsigned threads) {
    m_threads = std::max(1u, threads);
    // The decoder counted each chunk's events per bucket: every chunk gets its own slots in each
    // bucket, so that chunks are moved in parallel and each one is read once, front to back.
    const size_t chunkCount = m_chunks.size();
    // Every bucket has a page being written while the chunks are moved, so a small trace takes
    // fewer buckets (coarser runs of the decoder's): that lead stays a 16th of the events moved.
    uint64_t flowCount = 0;
    for (const ChunkEvents& chunk : m_chunks) flowCount += chunk.flows.size();
    const uint64_t pages = flowCount * sizeof(RawFlow) / 4096;
    int bucketBits = kFlowBucketBits;
    while (bucketBits > 0 && (uint64_t{1} << bucketBits) * 16 > pages) --bucketBits;
    const int shift = kFlowBucketBits - bucketBits;
    const size_t buckets = size_t{1} << bucketBits;
    std::vector<std::vector<uint64_t>> slot(chunkCount, std::vector<uint64_t>(buckets, 0));
    m_bucketStart.assign(buckets + 1, 0);
    uint64_t position = 0;
    for (size_t b = 0; b < buckets; ++b) {
        m_bucketStart[b] = position;
        for (size_t c = 0; c < chunkCount; ++c) {
            slot[c][b] = position;
            for (size_t fine = b << shift; fine < (b + 1) << shift; ++fine) position += m_chunks[c].flowsPerBucket[fine];
        }
    }
    m_bucketStart[buckets] = position;
    m_gathered.resize(position);
    // Chunks are taken in file order: a chunk's slots lie just behind the previous chunk's in
    // every bucket, so the pages written grow as fast as the chunks released, never ahead.
    // A 16th of the events in each step, 64 KiB to 1 MiB: about 16 returns of pages in all,
    // each a TLB flush on every core.
    const size_t discardStep = std::clamp<uint64_t>(flowCount * sizeof(RawFlow) / 16, kDiscardBytes / 16, kDiscardBytes) / sizeof(RawFlow);
    std::vector<uint64_t> fileOrder(chunkCount);
    for (size_t c = 0; c < chunkCount; ++c) fileOrder[c] = chunkCount - c;
    ParallelFor(chunkCount, threads, fileOrder, [&](size_t c) {
        std::vector<uint64_t>& next = slot[c];
        const std::vector<StringId>& strings = m_stringRemap[c];
        const std::vector<uint32_t>& tracks = m_trackRemap[c];
        // What has been moved goes back to the system in steps, so that each thread holds
        // little more than one step of a chunk twice.
        PodArray<RawFlow>& flows = m_chunks[c].flows;
        for (size_t begin = 0; begin < flows.size(); begin += discardStep) {
            const size_t end = std::min(flows.size(), begin + discardStep);
            for (size_t i = begin; i < end; ++i) {
                RawFlow flow = flows[i];
                flow.category = strings[flow.category];
                flow.track = tracks[flow.track];
                m_gathered[next[FlowBucket(flow.key) >> shift]++] = flow;
            }
            if (end < flows.size()) flows.DiscardPages(begin, end);
        }
        flows.Release();
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
    std::vector<RawFlow> sorted;
    for (size_t b = m_partBucket[part]; b < m_partBucket[part + 1]; ++b) {
        // A bucket's events are mostly pairs: half as many arrows. Pages populated and not
        // written stay resident until Finish, so none are populated on a guess beyond that.
        const size_t written = static_cast<size_t>(out - m_arrows.data());
        m_arrows.Populate(written, written + (m_bucketStart[b + 1] - m_bucketStart[b]) / 2);
        SortBucket(m_gathered.data() + m_bucketStart[b], m_gathered.data() + m_bucketStart[b + 1], sorted);
        RawFlow* const begin = sorted.data();
        RawFlow* const end = begin + sorted.size();
        for (RawFlow* i = begin; i < end;) {
            RawFlow* same = i + 1;
            while (same < end && same->key == i->key) ++same;
            MatchKey(i, same, result, out);
            i = same;
        }
        // Raw events shrink as arrows grow: the peak stays near the larger of the two.
        if ((m_bucketStart[b + 1] - kept) * sizeof(RawFlow) >= kDiscardBytes) {
            m_gathered.DiscardPages(kept, m_bucketStart[b + 1]);
            kept = m_bucketStart[b + 1];
        }
    }
    m_gathered.DiscardPages(kept, m_bucketStart[m_partBucket[part + 1]]);
    result.arrows = static_cast<uint64_t>(out - first);
    // Sorted here, where the threads share the work with the tracks; Finish merges the parts.
    std::sort(first, out, ArrowBefore);
}

void FlowMatcher::Finish(PodArray<Flow>& flows, ImportReport& report) {
    m_gathered.Release();
    std::vector<SortedArrows> parts;
    uint64_t total = 0;
    for (size_t p = 0; p < m_results.size(); ++p) {
        const PartResult& result = m_results[p];
        const Flow* first = m_arrows.data() + m_bucketStart[m_partBucket[p]];
        if (result.arrows) parts.push_back({first, first + result.arrows});
        total += result.arrows;
        report.matchedFlows += result.arrows;
        report.unmatchedFlowEvents += result.unmatched;
    }
    flows.Release();
    flows.resize(total);
    // The output is cut by value into one piece per thread, at arrows of the largest part: each
    // thread merges the arrows of its value range from every part into its own place.
    const size_t pieces = total > 0 ? m_threads : 0;
    std::vector<std::vector<SortedArrows>> pieceInputs(pieces);
    std::vector<uint64_t> pieceOutput(pieces, 0), pieceSizes(pieces, 0);
    if (pieces > 0) {
        const SortedArrows& largest = *std::max_element(parts.begin(), parts.end(), [](const SortedArrows& a, const SortedArrows& b) {
            return a.end - a.begin < b.end - b.begin;
        });
        std::vector<const Flow*> cut(parts.size());
        for (size_t p = 0; p < parts.size(); ++p) cut[p] = parts[p].begin;
        uint64_t output = 0;
        for (size_t piece = 0; piece < pieces; ++piece) {
            pieceOutput[piece] = output;
            const bool last = piece + 1 == pieces;
            const Flow* splitter = last ? nullptr : largest.begin + (largest.end - largest.begin) * (piece + 1) / pieces;
            for (size_t p = 0; p < parts.size(); ++p) {
                const Flow* end = last ? parts[p].end : std::lower_bound(cut[p], parts[p].end, *splitter, ArrowBefore);
                if (end > cut[p]) pieceInputs[piece].push_back({cut[p], end});
                output += static_cast<uint64_t>(end - cut[p]);
                cut[p] = end;
            }
            pieceSizes[piece] = output - pieceOutput[piece];
        }
    }
    ParallelFor(pieces, m_threads, pieceSizes,
                [&](size_t piece) { MergeArrows(pieceInputs[piece], flows, pieceOutput[piece], pieceOutput[piece] + pieceSizes[piece]); });
    m_arrows.Release();
}

// Merges sorted runs of arrows (pieces of m_arrows) into flows[outBegin, outEnd). What has been
// read of a run goes back to the system as the merge goes, so that the arrows are not held
// twice: in steps of a 16th of kDiscardBytes, since every run holds back up to one step. The
// output's pages are populated ahead in steps of the same size.
void FlowMatcher::MergeArrows(std::vector<SortedArrows>& runs, PodArray<Flow>& flows, size_t outBegin, size_t outEnd) {
    constexpr size_t kStep = kDiscardBytes / 16 / sizeof(Flow);
    Flow* out = flows.data() + outBegin;
    Flow* populated = out;
    Flow* const outLast = flows.data() + outEnd;
    // A heap of the runs' next arrows, each with its time beside it so that most comparisons
    // read no arrow. The arrow taken is replaced by the next of its run, sifted down once.
    struct Head {
        TimeNs ts;
        size_t run;
    };
    auto before = [&](const Head& a, const Head& b) {
        if (a.ts != b.ts) return a.ts < b.ts;
        return ArrowBefore(*runs[a.run].begin, *runs[b.run].begin);
    };
    std::vector<Head> heap;
    for (size_t r = 0; r < runs.size(); ++r) heap.push_back({runs[r].begin->fromTs, r});
    std::make_heap(heap.begin(), heap.end(), [&](const Head& a, const Head& b) { return before(b, a); });
    std::vector<const Flow*> kept(runs.size());
    for (size_t r = 0; r < runs.size(); ++r) kept[r] = runs[r].begin;
    const Flow* const base = m_arrows.data();
    while (!heap.empty()) {
        const size_t r = heap[0].run;
        SortedArrows& run = runs[r];
        if (out == populated) {
            populated = std::min(out + kStep, outLast);
            flows.Populate(static_cast<size_t>(out - flows.data()), static_cast<size_t>(populated - flows.data()));
        }
        *out++ = *run.begin++;
        if (static_cast<uint64_t>(run.begin - kept[r]) * sizeof(Flow) >= kDiscardBytes / 16 || run.begin == run.end) {
            m_arrows.DiscardPages(static_cast<size_t>(kept[r] - base), static_cast<size_t>(run.begin - base));
            kept[r] = run.begin;
        }
        if (run.begin == run.end) {
            heap[0] = heap.back();
            heap.pop_back();
            if (heap.empty()) break;
        } else {
            heap[0].ts = run.begin->fromTs;
        }
        const Head moving = heap[0];
        size_t at = 0;
        for (size_t child; (child = 2 * at + 1) < heap.size(); at = child) {
            if (child + 1 < heap.size() && before(heap[child + 1], heap[child])) ++child;
            if (!before(heap[child], moving)) break;
            heap[at] = heap[child];
        }
        heap[at] = moving;
    }
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
void FlowMatcher::MatchKey(RawFlow* begin, RawFlow* end, PartResult& result, Flow*& out) const {
    const size_t size = static_cast<size_t>(end - begin);
    if (size == 1 || (size == 2 && begin[0].phase != begin[1].phase &&
                      begin[0].category == begin[1].category)) {
        MatchGroup(begin, end, result, out);
        return;
    }
    auto sameId = [this](const RawFlow& a, const RawFlow& b) {
        return a.category == b.category && IdText(a) == IdText(b);
    };
    bool oneId = true;
    for (const RawFlow* f = begin; f < end && oneId; ++f) oneId = sameId(*f, *begin);
    if (oneId) {
        MatchGroup(begin, end, result, out);
        return;
    }
    std::stable_sort(begin, end, [&](const RawFlow& a, const RawFlow& b) {
        if (a.category != b.category) return a.category < b.category;
        return IdText(a) < IdText(b);
    });
    for (RawFlow* k = begin; k < end;) {
        RawFlow* sameEnd = k;
        while (sameEnd < end && sameId(*sameEnd, *k)) ++sameEnd;
        MatchGroup(k, sameEnd, result, out);
        k = sameEnd;
    }
}

// Flow events of one (category, id), in time order, become arrows. Each step or finish joins
// the latest start or step before it; one start may feed several finishes (Ascend writes 1
// 's' and 2 'f' for some HostToDevice ids). A finish earlier than every start (device and host
// clocks disagree) joins the first start.
void FlowMatcher::MatchGroup(const RawFlow* begin, const RawFlow* end, PartResult& result, Flow*& out) const {
    const RawFlow* firstStart = nullptr;
    for (const RawFlow* f = begin; f < end && !firstStart; ++f)
        if (f->phase == FlowPhase::kStart) firstStart = f;
    const RawFlow* source = nullptr;
    bool sourceUsed = false;
    bool firstStartUsed = false;
    for (const RawFlow* f = begin; f < end; ++f) {
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
