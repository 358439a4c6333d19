#include "model/FlowMatcher.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <unordered_map>

#include "core/ParallelFor.hpp"
#include "load/JsonScan.hpp"

namespace marey {
namespace {

// Arrows by source time, then by the places of both ends: a total order, so the result does not
// depend on how the work was split.
struct ArrowOrder {
    bool operator()(const Flow& a, const Flow& b) const {
        if (a.fromTs != b.fromTs) return a.fromTs < b.fromTs;
        if (a.fromRef != b.fromRef) return a.fromRef < b.fromRef;
        return a.toRef < b.toRef;
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

// Sorts one bucket's flow events in place into FlowOrder: a counting pass on the next 8 bits of
// their keys, then swaps that take each event to its sub-bucket (an American flag sort), leave
// sub-buckets of a few events each, which insertion sort finishes (std::sort where one holds
// many, as when one id repeats). In place, so that a bucket never takes memory twice.
void SortBucket(RawFlow* begin, RawFlow* end) {
    auto digit = [](const RawFlow& f) {
        return static_cast<size_t>(f.key >> (kFlowKeyBits - kFlowBucketBits - 8)) & 0xFF;
    };
    std::array<size_t, 257> start{};
    for (const RawFlow* f = begin; f < end; ++f) ++start[digit(*f) + 1];
    for (size_t d = 1; d < start.size(); ++d) start[d] += start[d - 1];
    std::array<size_t, 256> next;
    std::copy(start.begin(), start.end() - 1, next.begin());
    for (size_t d = 0; d < 256; ++d) {
        while (next[d] < start[d + 1]) {
            RawFlow value = begin[next[d]];
            for (size_t home = digit(value); home != d; home = digit(value))
                std::swap(value, begin[next[home]++]);
            begin[next[d]++] = value;
        }
    }
    constexpr size_t kInsertionSortMost = 32;
    for (size_t d = 0; d < 256; ++d) {
        RawFlow* const first = begin + start[d];
        RawFlow* const last = begin + start[d + 1];
        const ptrdiff_t size = last - first;
        if (size < 2) continue;
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

// The raw "id" token (or "id2" object; "bind_id" for flows v2) of the event object at 'event',
// found by walking its top-level keys: the last one wins, as when the decoder read it. Empty
// when the walk fails.
std::string_view ScanFlowIdToken(const char* event, const char* end, bool boundFlow) {
    std::string_view token;
    const char* p = SkipWhitespace(event, end);
    if (p >= end || *p != '{') return token;
    for (p = SkipWhitespace(p + 1, end); p < end && *p == '"';) {
        const ScanResult key = SkipString(p, end);
        if (key.status != ScanStatus::kOk) break;
        const std::string_view name(p + 1, static_cast<size_t>(key.end - p - 2));
        p = SkipWhitespace(key.end, end);
        if (p >= end || *p != ':') break;
        p = SkipWhitespace(p + 1, end);
        const ScanResult value = SkipValue(p, end);
        if (value.status != ScanStatus::kOk) break;
        const bool idKey =
            boundFlow ? name == "bind_id" : name == "id" || (name == "id2" && *p == '{');
        if (idKey) token = std::string_view(p, static_cast<size_t>(value.end - p));
        p = SkipWhitespace(value.end, end);
        if (p >= end || *p != ',') break;
        p = SkipWhitespace(p + 1, end);
    }
    return token;
}

// Raw events are given back in pieces of at most this size, and arrows read by the merge in
// pieces of a 16th of it: each return costs every core a TLB flush.
constexpr uint64_t kDiscardBytes = 1 << 20;

}  // namespace

FlowMatcher::FlowMatcher(std::vector<ChunkEvents>& chunks,
                         const std::vector<std::vector<StringId>>& stringRemap,
                         const std::vector<std::vector<uint32_t>>& trackRemap,
                         std::string_view text, StringId boundFlowCategory)
    : m_chunks(chunks),
      m_stringRemap(stringRemap),
      m_trackRemap(trackRemap),
      m_text(text),
      m_boundFlowCategory(boundFlowCategory) {}

// Every chunk's (track, category) pairs in the model's ids, numbered once across the trace.
void FlowMatcher::MapOrigins() {
    std::unordered_map<uint64_t, uint32_t> index;
    m_originRemap.resize(m_chunks.size());
    for (size_t c = 0; c < m_chunks.size(); ++c) {
        for (const FlowOrigin& local : m_chunks[c].flowOrigins) {
            const FlowOrigin origin{m_trackRemap[c][local.track], m_stringRemap[c][local.category]};
            auto [it, inserted] = index.try_emplace(uint64_t{origin.track} << 32 | origin.category,
                                                    static_cast<uint32_t>(m_origins.size()));
            if (inserted) {
                if (m_origins.size() < kMaxFlowOrigins) {
                    m_origins.push_back(origin);
                } else {
                    it->second = kNoFlowOrigin;
                }
            }
            m_originRemap[c].push_back(it->second);
        }
        m_chunks[c].flowOrigins = {};
    }
}

void FlowMatcher::Gather(unsigned threads) {
    m_threads = std::max(1u, threads);
    MapOrigins();
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
            for (size_t fine = b << shift; fine < (b + 1) << shift; ++fine)
                position += m_chunks[c].flowsPerBucket[fine];
        }
    }
    m_bucketStart[buckets] = position;
    m_gathered.resize(position);
    // Chunks are taken in file order: a chunk's slots lie just behind the previous chunk's in
    // every bucket, so the pages written grow as fast as the chunks released, never ahead.
    // A 16th of the events in each step, 64 KiB to 1 MiB: about 16 returns of pages in all,
    // each a TLB flush on every core. The matching gives them back in steps of the same size.
    m_discardBytes =
        std::clamp<uint64_t>(flowCount * sizeof(RawFlow) / 16, kDiscardBytes / 16, kDiscardBytes);
    const size_t discardStep = m_discardBytes / sizeof(RawFlow);
    std::vector<uint64_t> fileOrder(chunkCount);
    for (size_t c = 0; c < chunkCount; ++c) fileOrder[c] = chunkCount - c;
    std::vector<uint64_t> dropped(chunkCount, 0), firstDropped(chunkCount, UINT64_MAX);
    ParallelFor(chunkCount, threads, fileOrder, [&](size_t c) {
        std::vector<uint64_t>& next = slot[c];
        const std::vector<uint32_t>& origins = m_originRemap[c];
        // What has been moved goes back to the system in steps, so that each thread holds
        // little more than one step of a chunk twice.
        PodArray<RawFlow>& flows = m_chunks[c].flows;
        for (size_t begin = 0; begin < flows.size(); begin += discardStep) {
            const size_t end = std::min(flows.size(), begin + discardStep);
            for (size_t i = begin; i < end; ++i) {
                RawFlow flow = flows[i];
                flow.origin = origins[flow.origin];
                if (flow.origin == kNoFlowOrigin && dropped[c]++ == 0) firstDropped[c] = flow.ref;
                m_gathered[next[FlowBucket(flow.key) >> shift]++] = flow;
            }
            if (end < flows.size()) flows.DiscardPages(begin, end);
        }
        flows.Release();
    });
    for (size_t c = 0; c < chunkCount; ++c) {
        m_dropped += dropped[c];
        m_firstDroppedRef = std::min(m_firstDroppedRef, firstDropped[c]);
    }

    // Parts of about equal size, several per thread so that none waits long for the last one.
    const uint64_t partCount = std::clamp<uint64_t>(uint64_t{threads} * 8, 1, buckets);
    m_partBucket.assign(1, 0);
    for (size_t b = 1; b < buckets; ++b)
        if (m_bucketStart[b] * partCount >= position * m_partBucket.size())
            m_partBucket.push_back(b);
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
    Flow* populated = first;
    // The part's arrows never outnumber its events: nothing is populated, or given back, past
    // that, where the next part writes.
    Flow* const last = m_arrows.data() + m_bucketStart[m_partBucket[part + 1]];
    RawFlow* const raw = m_gathered.data();
    // Raw events shrink as arrows grow, a step at a time: the peak stays near the larger of the
    // two.
    const size_t step = m_discardBytes / sizeof(RawFlow);
    size_t kept = m_bucketStart[m_partBucket[part]];
    for (size_t b = m_partBucket[part]; b < m_partBucket[part + 1]; ++b) {
        RawFlow* const end = raw + m_bucketStart[b + 1];
        SortBucket(raw + m_bucketStart[b], end);
        for (RawFlow* i = raw + m_bucketStart[b]; i < end;) {
            if (out >= populated) {
                // Events are mostly pairs: half as many arrows. Pages populated and not written
                // stay resident until Finish, so none are populated on a guess beyond that.
                populated = std::min(out + step / 2, last);
                m_arrows.Populate(static_cast<size_t>(out - m_arrows.data()),
                                  static_cast<size_t>(populated - m_arrows.data()));
            }
            RawFlow* same = i + 1;
            while (same < end && same->key == i->key) ++same;
            MatchKey(i, same, result, out);
            i = same;
            if (static_cast<size_t>(i - raw) - kept >= step) {
                m_gathered.DiscardPages(kept, static_cast<size_t>(i - raw));
                kept = static_cast<size_t>(i - raw);
            }
        }
    }
    m_gathered.DiscardPages(kept, m_bucketStart[m_partBucket[part + 1]]);
    m_arrows.DiscardPages(static_cast<size_t>(out - m_arrows.data()),
                          static_cast<size_t>(populated - m_arrows.data()));
    result.arrows = static_cast<uint64_t>(out - first);
    // Sorted here, where the threads share the work with the tracks; Finish merges the parts.
    std::sort(first, out, ArrowBefore);
}

void FlowMatcher::Finish(PodArray<Flow>& flows, std::vector<FlowOrigin>& origins,
                         ImportReport& report, uint64_t sortInPlaceBytes) {
    origins = std::move(m_origins);
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
    if (total * sizeof(Flow) <= sortInPlaceBytes) {
        // Few arrows: the parts move to the front of their array, which is sorted where it lies
        // and becomes the result. A merge into a new array would hold them twice for a moment,
        // and its steps of giving pages back are as large as all the arrows of a small trace.
        // Each part lies at or after its new place, and moves in steps: what has moved from past
        // the result's end goes back to the system as the move goes.
        constexpr size_t kStep = kDiscardBytes / 16 / sizeof(Flow);
        const Flow* const base = m_arrows.data();
        size_t to = 0;
        for (const SortedArrows& part : parts) {
            const size_t begin = static_cast<size_t>(part.begin - base),
                         end = static_cast<size_t>(part.end - base);
            for (size_t from = begin; from < end; from += kStep) {
                const size_t count = std::min(kStep, end - from);
                if (to != from)
                    std::memmove(m_arrows.data() + to, m_arrows.data() + from,
                                 count * sizeof(Flow));
                to += count;
                if (from + count > total)
                    m_arrows.DiscardPages(std::max<size_t>(begin, total), from + count);
            }
        }
        std::sort(m_arrows.data(), m_arrows.data() + total, ArrowBefore);
        m_arrows.TruncateAndRelease(total);
        flows = std::move(m_arrows);
        return;
    }
    flows.resize(total);
    // The output is cut by value into one piece per thread, at arrows of the largest part: each
    // thread merges the arrows of its value range from every part into its own place.
    const size_t pieces = total > 0 ? m_threads : 0;
    std::vector<std::vector<SortedArrows>> pieceInputs(pieces);
    std::vector<uint64_t> pieceOutput(pieces, 0), pieceSizes(pieces, 0);
    if (pieces > 0) {
        const SortedArrows& largest = *std::max_element(
            parts.begin(), parts.end(), [](const SortedArrows& a, const SortedArrows& b) {
                return a.end - a.begin < b.end - b.begin;
            });
        std::vector<const Flow*> cut(parts.size());
        for (size_t p = 0; p < parts.size(); ++p) cut[p] = parts[p].begin;
        uint64_t output = 0;
        for (size_t piece = 0; piece < pieces; ++piece) {
            pieceOutput[piece] = output;
            const bool last = piece + 1 == pieces;
            const Flow* splitter =
                last ? nullptr
                     : largest.begin + (largest.end - largest.begin) * (piece + 1) / pieces;
            for (size_t p = 0; p < parts.size(); ++p) {
                const Flow* end =
                    last ? parts[p].end
                         : std::lower_bound(cut[p], parts[p].end, *splitter, ArrowBefore);
                if (end > cut[p]) pieceInputs[piece].push_back({cut[p], end});
                output += static_cast<uint64_t>(end - cut[p]);
                cut[p] = end;
            }
            pieceSizes[piece] = output - pieceOutput[piece];
        }
    }
    ParallelFor(pieces, m_threads, pieceSizes, [&](size_t piece) {
        MergeArrows(pieceInputs[piece], flows, pieceOutput[piece],
                    pieceOutput[piece] + pieceSizes[piece]);
    });
    m_arrows.Release();
}

// Merges sorted runs of arrows (pieces of m_arrows) into flows[outBegin, outEnd). What has been
// read of a run goes back to the system as the merge goes, so that the arrows are not held
// twice: in steps of a 16th of kDiscardBytes, since every run holds back up to one step. The
// output's pages are populated ahead in steps of the same size.
void FlowMatcher::MergeArrows(std::vector<SortedArrows>& runs, PodArray<Flow>& flows,
                              size_t outBegin, size_t outEnd) {
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
    std::make_heap(heap.begin(), heap.end(),
                   [&](const Head& a, const Head& b) { return before(b, a); });
    std::vector<const Flow*> kept(runs.size());
    for (size_t r = 0; r < runs.size(); ++r) kept[r] = runs[r].begin;
    const Flow* const base = m_arrows.data();
    while (!heap.empty()) {
        const size_t r = heap[0].run;
        SortedArrows& run = runs[r];
        if (out == populated) {
            populated = std::min(out + kStep, outLast);
            flows.Populate(static_cast<size_t>(out - flows.data()),
                           static_cast<size_t>(populated - flows.data()));
        }
        *out++ = *run.begin++;
        if (static_cast<uint64_t>(run.begin - kept[r]) * sizeof(Flow) >= kDiscardBytes / 16 ||
            run.begin == run.end) {
            m_arrows.DiscardPages(static_cast<size_t>(kept[r] - base),
                                  static_cast<size_t>(run.begin - base));
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
    const char* const end = m_text.data() + m_text.size();
    if (flow.idOffset == kIdTooFar) {
        const bool bound = m_boundFlowCategory != 0 && flow.origin != kNoFlowOrigin &&
                           m_origins[flow.origin].category == m_boundFlowCategory;
        return FlowIdText(ScanFlowIdToken(m_text.data() + flow.ref, end, bound));
    }
    const char* const token = m_text.data() + flow.ref + flow.idOffset;
    return FlowIdText(
        std::string_view(token, static_cast<size_t>(SkipValue(token, end).end - token)));
}

// One hash key's events, in time order. Equal hashes with different category or id text are
// split first. Reading the id text is a random access into the trace, so the common pair of
// one start and one finish trusts the 64-bit hash: a collision there needs two ids whose
// hashes agree and whose other ends are both missing.
void FlowMatcher::MatchKey(RawFlow* begin, RawFlow* end, PartResult& result, Flow*& out) const {
    const size_t size = static_cast<size_t>(end - begin);
    auto category = [this](const RawFlow& f) {
        return f.origin == kNoFlowOrigin ? 0 : m_origins[f.origin].category;
    };
    if (size == 1 || (size == 2 && begin[0].phase != begin[1].phase &&
                      category(begin[0]) == category(begin[1]))) {
        MatchGroup(begin, end, result, out);
        return;
    }
    auto sameId = [&](const RawFlow& a, const RawFlow& b) {
        return category(a) == category(b) && IdText(a) == IdText(b);
    };
    bool oneId = true;
    for (const RawFlow* f = begin; f < end && oneId; ++f) oneId = sameId(*f, *begin);
    if (oneId) {
        MatchGroup(begin, end, result, out);
        return;
    }
    std::stable_sort(begin, end, [&](const RawFlow& a, const RawFlow& b) {
        if (category(a) != category(b)) return category(a) < category(b);
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
void FlowMatcher::MatchGroup(const RawFlow* begin, const RawFlow* end, PartResult& result,
                             Flow*& out) const {
    const RawFlow* firstStart = nullptr;
    for (const RawFlow* f = begin; f < end && !firstStart; ++f)
        if (f->phase == FlowPhase::kStart && f->origin != kNoFlowOrigin) firstStart = f;
    const RawFlow* source = nullptr;
    bool sourceUsed = false;
    bool firstStartUsed = false;
    for (const RawFlow* f = begin; f < end; ++f) {
        if (f->origin == kNoFlowOrigin) {  // left out (see DroppedEvents)
            ++result.unmatched;
            continue;
        }
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
        Flow& arrow = *out++;
        arrow.fromTs = from->ts;
        arrow.toTs = f->ts;
        arrow.fromRef = from->ref;
        arrow.fromOrigin = from->origin;
        arrow.fromEnclosing = from->bindToEnclosing;
        arrow.toEnclosing = f->bindToEnclosing;
        arrow.toRef = f->ref;
        arrow.toOrigin = f->origin;
        if (source)
            sourceUsed = true;
        else
            firstStartUsed = true;
        if (f->phase == FlowPhase::kStep) {
            source = f;
            sourceUsed = false;
        }
    }
    if (source && !sourceUsed) ++result.unmatched;
}

}  // namespace marey
