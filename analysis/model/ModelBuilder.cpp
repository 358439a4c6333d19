#include "model/ModelBuilder.hpp"

#include <algorithm>
#include <cstdlib>
#include <atomic>
#include <map>
#include <queue>
#include <unordered_map>

#include "core/Hash.hpp"
#include "core/LoadTiming.hpp"
#include "core/ParallelFor.hpp"
#include "model/FlowMatcher.hpp"

namespace marey {
namespace {

// [SECTION] Keys and the sorted sources of a thread's slices

void AppendToRow(Row& row, const RawSlice& slice) {
    row.Append(slice.startNs, slice.startNs + slice.durNs, slice.name, slice.ref);
}

struct EntityHash {
    size_t operator()(const EntityId& id) const {
        return std::hash<int64_t>()(id.number) ^ (std::hash<uint32_t>()(id.text) * kGoldenRatio64);
    }
};

struct ThreadKey {
    uint32_t process;
    EntityId tid;
    bool operator==(const ThreadKey& other) const {
        return process == other.process && tid == other.tid;
    }
};
struct ThreadKeyHash {
    size_t operator()(const ThreadKey& key) const {
        return EntityHash()(key.tid) * 31 + key.process;
    }
};

struct PieceRef {
    uint32_t chunk;
    uint32_t localTrack;
};

// One sorted array of slices that the k-way merge of a thread reads: a chunk's compact slices
// (refs from the chunk's refBase) or slices with whole refs.
class SliceSource {
public:
    SliceSource(PodArray<ChunkSlice>& compact, uint64_t refBase)
        : m_compact(&compact), m_refBase(refBase) {}
    explicit SliceSource(PodArray<RawSlice>& wide) : m_wide(&wide) {}

    size_t size() const { return m_compact ? m_compact->size() : m_wide->size(); }
    RawSlice operator[](size_t i) const {
        if (!m_compact) return (*m_wide)[i];
        const ChunkSlice& slice = (*m_compact)[i];
        return {slice.startNs, slice.durNs, m_refBase + slice.ref, slice.name};
    }
    void Release() {
        if (m_compact)
            m_compact->Release();
        else
            m_wide->Release();
    }

private:
    PodArray<ChunkSlice>* m_compact = nullptr;
    PodArray<RawSlice>* m_wide = nullptr;
    uint64_t m_refBase = 0;
};

// [SECTION] Builder: strings, processes, tracks and metadata from every chunk

// The end of a slice that never ended, while the model is built: later than any real time, so
// that everything after it on its thread nests inside.
constexpr TimeNs kOpenEndNs = INT64_MAX / 4;

class Builder {
public:
    Builder(std::vector<ChunkEvents>& chunks, unsigned threads, uint64_t flowSortInPlaceBytes,
            RowFinished rowFinished, TraceModel& model)
        : m_chunks(chunks),
          m_threads(threads ? threads : 1),
          m_flowSortInPlaceBytes(flowSortInPlaceBytes),
          m_rowFinished(rowFinished),
          m_model(model) {}

    void Run() {
        MergeStrings();
        MergeTracks();
        ApplyMetadata();
        BuildThreadTracksAndFlows();
        m_timing.Report("model: flow arrows ordered by time");
        BuildAsyncTracks();
        BuildCounterTracks();
        BuildInstants();
        m_timing.Report("model: async, counters, instants");
        MergeReports();
        OrderForDisplay();
        ComputeSpan();
        CloseOpenEnds();
        ReleaseSparePages();
    }

private:
    // Arrays filled by push_back populate pages ahead of their last value (see PodArray); the
    // model keeps only what it holds. (Thread tracks gave theirs back as each was finished.)
    void ReleaseSparePages() {
        for (Track& track : m_model.tracks) {
            for (Row& row : track.rows) row.ReleaseSpare();
            track.instantTs.ReleaseSpare();
            track.instantName.ReleaseSpare();
            track.instantRef.ReleaseSpare();
            track.counterTs.ReleaseSpare();
            track.counterValue.ReleaseSpare();
        }
    }

    StringId Global(uint32_t chunk, StringId local) const { return m_stringRemap[chunk][local]; }
    EntityId GlobalEntity(uint32_t chunk, EntityId id) const {
        if (id.text) id.text = Global(chunk, id.text);
        return id;
    }

    void MergeStrings() {
        m_stringRemap.resize(m_chunks.size());
        for (uint32_t c = 0; c < m_chunks.size(); ++c) {
            const StringPool& local = m_chunks[c].strings;
            auto& remap = m_stringRemap[c];
            remap.resize(local.size());
            for (StringId id = 0; id < local.size(); ++id)
                remap[id] = m_model.strings.Intern(local.Get(id));
        }
    }

    uint32_t ProcessFor(const EntityId& pid) {
        auto [it, inserted] =
            m_processIndex.try_emplace(pid, static_cast<uint32_t>(m_model.processes.size()));
        if (inserted) {
            Process process;
            process.pid = pid;
            m_model.processes.push_back(process);
        }
        return it->second;
    }

    uint32_t NewTrack(TrackKind kind, uint32_t process, EntityId tid) {
        Track track;
        track.kind = kind;
        track.process = process;
        track.tid = tid;
        m_model.tracks.push_back(std::move(track));
        m_pieces.emplace_back();
        return static_cast<uint32_t>(m_model.tracks.size() - 1);
    }

    void MergeTracks() {
        m_trackRemap.resize(m_chunks.size());
        for (uint32_t c = 0; c < m_chunks.size(); ++c) {
            auto& remap = m_trackRemap[c];
            for (uint32_t t = 0; t < m_chunks[c].tracks.size(); ++t) {
                const ChunkTrack& local = m_chunks[c].tracks[t];
                const uint32_t process = ProcessFor(GlobalEntity(c, local.pid));
                const ThreadKey key{process, GlobalEntity(c, local.tid)};
                auto [it, inserted] = m_threadIndex.try_emplace(key, 0);
                if (inserted) it->second = NewTrack(TrackKind::kThread, process, key.tid);
                remap.push_back(it->second);
                m_pieces[it->second].push_back({c, t});
            }
        }
    }

    void ApplyMetadata() {
        // File order: the last record of a kind wins, as in Chrome.
        for (uint32_t c = 0; c < m_chunks.size(); ++c) {
            for (const RawMetadata& record : m_chunks[c].metadata) {
                Track& track = m_model.tracks[m_trackRemap[c][record.track]];
                Process& process = m_model.processes[track.process];
                const StringId text = Global(c, record.text);
                switch (record.kind) {
                    case MetadataKind::kProcessName:
                        process.name = text;
                        break;
                    case MetadataKind::kProcessLabels:
                        process.labels = text;
                        break;
                    case MetadataKind::kProcessSortIndex:
                        process.sortIndex = record.number, process.hasSortIndex = true;
                        break;
                    case MetadataKind::kThreadName:
                        track.name = text;
                        break;
                    case MetadataKind::kThreadSortIndex:
                        track.sortIndex = record.number, track.hasSortIndex = true;
                        break;
                }
            }
            m_chunks[c].metadata.clear();
            m_chunks[c].metadata.shrink_to_fit();
        }
    }

    // Matches 'B' and 'E' of one thread in time order; returns the slices, sorted.
    // [SECTION] Thread tracks: B/E matched, slices merged and nested into rows, flows

    PodArray<RawSlice> MatchBeginEnd(uint32_t trackId, ProblemList& problems) {
        PodArray<RawBoundary> boundaries;
        for (const PieceRef& piece : m_pieces[trackId]) {
            auto& local = m_chunks[piece.chunk].tracks[piece.localTrack].boundaries;
            for (RawBoundary b : local) {
                b.name = Global(piece.chunk, b.name);
                boundaries.push_back(b);
            }
            local.Release();
        }
        PodArray<RawSlice> slices;
        if (boundaries.empty()) return slices;
        // Perfetto's rule: at equal timestamps, ends come first.
        std::sort(boundaries.begin(), boundaries.end(),
                  [](const RawBoundary& a, const RawBoundary& b) {
                      if (a.ts != b.ts) return a.ts < b.ts;
                      if (a.kind != b.kind) return a.kind == BoundaryKind::kEnd;
                      return a.ref < b.ref;
                  });
        std::vector<RawBoundary> open;
        for (const RawBoundary& b : boundaries) {
            if (b.kind == BoundaryKind::kBegin) {
                open.push_back(b);
                continue;
            }
            if (open.empty()) {
                problems.Add(b.ref, "'E' event without a matching 'B' on its thread; ignored");
                ++m_unmatchedEnds;
                continue;
            }
            const RawBoundary begin = open.back();
            open.pop_back();
            // An 'E' may repeat its 'B''s name; one that names another slice is kept as the pair
            // Perfetto keeps, and said.
            if (b.name != 0 && b.name != begin.name) {
                problems.Add(b.ref, "'E' named \"" + std::string(m_model.strings.Get(b.name)) +
                                        "\" closes 'B' named \"" +
                                        std::string(m_model.strings.Get(begin.name)) +
                                        "\"; kept as one slice named after the 'B'");
            }
            slices.push_back({begin.ts, b.ts - begin.ts, begin.ref, begin.name});
        }
        // Slices that never end (a hang, a killed job) stay open: everything after them on the
        // thread nests inside, and CloseOpenEnds draws them to the end of the trace.
        for (const RawBoundary& begin : open) {
            problems.Add(
                begin.ref,
                "'B' event without a matching 'E'; drawn to the end of the trace as unfinished");
            ++m_unmatchedBegins;
            slices.push_back({begin.ts, kOpenEndNs - begin.ts, begin.ref, begin.name});
        }
        std::sort(slices.begin(), slices.end(), SliceBefore);
        return slices;
    }

    void BuildThreadTrack(uint32_t trackId, ProblemList& problems) {
        std::vector<SliceSource> sources;
        PodArray<RawSlice> matched = MatchBeginEnd(trackId, problems);
        for (const PieceRef& piece : m_pieces[trackId]) {
            ChunkEvents& chunk = m_chunks[piece.chunk];
            ChunkTrack& local = chunk.tracks[piece.localTrack];
            // Sorted on the parsing threads already; remapping names keeps the order.
            for (ChunkSlice& slice : local.slices) slice.name = Global(piece.chunk, slice.name);
            for (RawSlice& slice : local.wideSlices) slice.name = Global(piece.chunk, slice.name);
            if (!local.slices.empty()) sources.emplace_back(local.slices, chunk.refBase);
            if (!local.wideSlices.empty()) sources.emplace_back(local.wideSlices);
        }
        if (!matched.empty()) sources.emplace_back(matched);

        // k-way merge; each source is released as soon as it is used up.
        RowBuilder rows(m_model.tracks[trackId], m_rowFinished);
        using Head = std::pair<size_t, size_t>;  // (source, position)
        auto later = [&](const Head& a, const Head& b) {
            return SliceBefore(sources[b.first][b.second], sources[a.first][a.second]);
        };
        std::priority_queue<Head, std::vector<Head>, decltype(later)> heads(later);
        for (size_t s = 0; s < sources.size(); ++s) heads.push({s, 0});
        while (!heads.empty()) {
            auto [source, position] = heads.top();
            heads.pop();
            SliceSource& slices = sources[source];
            // Take a whole run while this source stays first (the usual case: chunks follow in
            // time).
            size_t end = position;
            if (heads.empty()) {
                while (end < slices.size()) rows.Add(slices[end++]);
            } else {
                const RawSlice bound = sources[heads.top().first][heads.top().second];
                while (end < slices.size() && !SliceBefore(bound, slices[end]))
                    rows.Add(slices[end++]);
            }
            if (end < slices.size()) {
                heads.push({source, end});
            } else {
                slices.Release();
            }
        }
        rows.Finish();
    }

    // Thread tracks, and parts of the flow matching beside them: they touch different data.
    void BuildThreadTracksAndFlows() {
        const size_t trackCount = m_model.tracks.size();
        std::vector<uint64_t> sizes(trackCount, 0);
        for (size_t t = 0; t < trackCount; ++t)
            for (const PieceRef& piece : m_pieces[t])
                sizes[t] += m_chunks[piece.chunk].tracks[piece.localTrack].slices.size() +
                            m_chunks[piece.chunk].tracks[piece.localTrack].wideSlices.size();
        // The chunks were all decoded from the model's one source (none in tests that build by
        // hand).
        const std::string_view text = m_model.sources.empty()
                                          ? std::string_view()
                                          : std::string_view(m_model.sources.front().text.data(),
                                                             m_model.sources.front().text.size());
        FlowMatcher flows(m_chunks, m_stringRemap, m_trackRemap, text,
                          m_model.strings.Find("bind_id"));
        flows.Gather(m_threads);
        m_timing.Report("model: flows gathered");
        for (size_t part = 0; part < flows.PartCount(); ++part)
            sizes.push_back(2 * flows.PartSize(part));
        std::vector<ProblemList> problems(trackCount);
        ParallelFor(sizes.size(), m_threads, sizes, [&](size_t t) {
            if (t >= trackCount)
                flows.MatchPart(t - trackCount);
            else
                BuildThreadTrack(static_cast<uint32_t>(t), problems[t]);
        });
        m_timing.Report("model: thread tracks built, flows matched");
        flows.Finish(m_model.flows, m_model.flowOrigins, m_model.report, m_flowSortInPlaceBytes);
        if (flows.DroppedEvents() > 0)
            m_extraProblems.Add(flows.FirstDroppedRef(),
                                std::to_string(flows.DroppedEvents()) +
                                    " flow events, the first here, are not matched: the trace has "
                                    "flow events on more than " +
                                    std::to_string(kMaxFlowOrigins) + " (thread, category) pairs");
        for (auto& list : problems) {
            m_extraProblems.count += list.count;
            for (auto& p : list.kept) m_extraProblems.kept.push_back(std::move(p));
        }
    }

    uint32_t ProcessTrack(std::unordered_map<uint32_t, uint32_t>& byProcess, TrackKind kind,
                          uint32_t process) {
        auto [it, inserted] = byProcess.try_emplace(process, 0);
        if (inserted) it->second = NewTrack(kind, process, EntityId{});
        return it->second;
    }

    // [SECTION] Async, counter and instant tracks

    void BuildAsyncTracks() {
        struct Async {
            RawAsync event;
            uint32_t process;
        };
        std::vector<Async> events;
        for (uint32_t c = 0; c < m_chunks.size(); ++c) {
            for (RawAsync a : m_chunks[c].asyncs) {
                a.name = Global(c, a.name);
                a.category = Global(c, a.category);
                a.id = Global(c, a.id);
                const uint32_t process = m_model.tracks[m_trackRemap[c][a.track]].process;
                events.push_back({a, process});
            }
            m_chunks[c].asyncs.Release();
        }
        if (events.empty()) return;
        std::sort(events.begin(), events.end(), [](const Async& a, const Async& b) {
            if (a.process != b.process) return a.process < b.process;
            if (a.event.category != b.event.category) return a.event.category < b.event.category;
            if (a.event.id != b.event.id) return a.event.id < b.event.id;
            if (a.event.ts != b.event.ts) return a.event.ts < b.event.ts;
            return a.event.ref < b.event.ref;
        });
        std::map<uint32_t, std::vector<RawSlice>> slicesByProcess;
        std::unordered_map<uint32_t, uint32_t> trackByProcess;
        for (size_t i = 0; i < events.size();) {
            size_t groupEnd = i;
            while (groupEnd < events.size() && events[groupEnd].process == events[i].process &&
                   events[groupEnd].event.category == events[i].event.category &&
                   events[groupEnd].event.id == events[i].event.id)
                ++groupEnd;
            std::vector<RawAsync> open;
            const uint32_t process = events[i].process;
            for (size_t k = i; k < groupEnd; ++k) {
                const RawAsync& a = events[k].event;
                if (a.kind == AsyncKind::kBegin) {
                    open.push_back(a);
                } else if (a.kind == AsyncKind::kEnd) {
                    if (open.empty()) {
                        m_extraProblems.Add(
                            a.ref,
                            "async end without a matching begin (same category and id); ignored");
                        continue;
                    }
                    const RawAsync begin = open.back();
                    open.pop_back();
                    slicesByProcess[process].push_back(
                        {begin.ts, a.ts - begin.ts, begin.ref, begin.name});
                } else {
                    Track& track =
                        m_model.tracks[ProcessTrack(trackByProcess, TrackKind::kAsync, process)];
                    track.instantTs.push_back(a.ts);
                    track.instantName.push_back(a.name);
                    track.instantRef.push_back(a.ref);
                }
            }
            for (const RawAsync& begin : open) {
                m_extraProblems.Add(begin.ref,
                                    "async begin without a matching end; drawn to the end of the "
                                    "trace as unfinished");
                slicesByProcess[process].push_back(
                    {begin.ts, kOpenEndNs - begin.ts, begin.ref, begin.name});
            }
            i = groupEnd;
        }
        for (auto& [process, slices] : slicesByProcess) {
            Track& track = m_model.tracks[ProcessTrack(trackByProcess, TrackKind::kAsync, process)];
            std::sort(slices.begin(), slices.end(), SliceBefore);
            // Greedy lanes: each slice takes the lowest lane that is free at its start.
            std::priority_queue<std::pair<TimeNs, uint32_t>,
                                std::vector<std::pair<TimeNs, uint32_t>>, std::greater<>>
                busy;
            std::priority_queue<uint32_t, std::vector<uint32_t>, std::greater<>> free;
            for (const RawSlice& slice : slices) {
                while (!busy.empty() && busy.top().first <= slice.startNs) {
                    free.push(busy.top().second);
                    busy.pop();
                }
                uint32_t lane;
                if (!free.empty()) {
                    lane = free.top();
                    free.pop();
                } else {
                    lane = static_cast<uint32_t>(track.rows.size());
                    track.rows.emplace_back();
                    track.rows.back().kind = RowKind::kAsync;
                    track.rows.back().depth = lane;
                }
                AppendToRow(track.rows[lane], slice);
                busy.push({slice.startNs + slice.durNs, lane});
                ++track.sliceCount;
            }
        }
        for (auto& [process, trackId] : trackByProcess) SortInstants(m_model.tracks[trackId]);
    }

    void BuildCounterTracks() {
        struct SeriesGlobalKey {
            uint32_t process;
            StringId name, key;
            bool operator<(const SeriesGlobalKey& o) const {
                return std::tie(process, name, key) < std::tie(o.process, o.name, o.key);
            }
        };
        std::map<SeriesGlobalKey, uint32_t> trackBySeries;
        for (uint32_t c = 0; c < m_chunks.size(); ++c) {
            ChunkEvents& chunk = m_chunks[c];
            std::vector<uint32_t> seriesTrack(chunk.counterSeries.size());
            for (size_t s = 0; s < chunk.counterSeries.size(); ++s) {
                const CounterSeriesKey& local = chunk.counterSeries[s];
                const uint32_t process = m_model.tracks[m_trackRemap[c][local.track]].process;
                const SeriesGlobalKey key{process, Global(c, local.name), Global(c, local.key)};
                auto [it, inserted] = trackBySeries.try_emplace(key, 0);
                if (inserted) {
                    it->second = NewTrack(TrackKind::kCounter, process, EntityId{});
                    m_model.tracks[it->second].name = key.name;
                    m_model.tracks[it->second].counterKey = key.key;
                }
                seriesTrack[s] = it->second;
            }
            for (const RawCounter& sample : chunk.counters) {
                Track& track = m_model.tracks[seriesTrack[sample.series]];
                track.counterTs.push_back(sample.ts);
                track.counterValue.push_back(sample.value);
            }
            chunk.counters.Release();
        }
        for (auto& [key, trackId] : trackBySeries) {
            Track& track = m_model.tracks[trackId];
            if (std::is_sorted(track.counterTs.begin(), track.counterTs.end())) continue;
            std::vector<uint32_t> order(track.counterTs.size());
            for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
            std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
                return track.counterTs[a] < track.counterTs[b];
            });
            PodArray<TimeNs> ts;
            PodArray<double> values;
            for (uint32_t i : order) {
                ts.push_back(track.counterTs[i]);
                values.push_back(track.counterValue[i]);
            }
            track.counterTs = std::move(ts);
            track.counterValue = std::move(values);
        }
    }

    static void SortInstants(Track& track) {
        const size_t n = track.instantTs.size();
        bool sorted = true;
        for (size_t i = 1; i < n && sorted; ++i)
            sorted = track.instantTs[i - 1] <= track.instantTs[i];
        if (sorted) return;
        std::vector<uint32_t> order(n);
        for (uint32_t i = 0; i < n; ++i) order[i] = i;
        std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
            if (track.instantTs[a] != track.instantTs[b])
                return track.instantTs[a] < track.instantTs[b];
            return track.instantRef[a] < track.instantRef[b];
        });
        PodArray<TimeNs> ts;
        PodArray<StringId> names;
        PodArray<uint64_t> refs;
        for (uint32_t i : order) {
            ts.push_back(track.instantTs[i]);
            names.push_back(track.instantName[i]);
            refs.push_back(track.instantRef[i]);
        }
        track.instantTs = std::move(ts);
        track.instantName = std::move(names);
        track.instantRef = std::move(refs);
    }

    void BuildInstants() {
        for (uint32_t c = 0; c < m_chunks.size(); ++c) {
            for (const RawInstant& instant : m_chunks[c].instants) {
                Track& track = m_model.tracks[m_trackRemap[c][instant.track]];
                track.instantTs.push_back(instant.ts);
                track.instantName.push_back(Global(c, instant.name));
                track.instantRef.push_back(instant.ref);
            }
            m_chunks[c].instants.Release();
        }
        for (Track& track : m_model.tracks)
            if (track.kind == TrackKind::kThread) SortInstants(track);
    }

    // [SECTION] Problems, display order, the trace's span, slices left open

    void MergeReports() {
        ImportReport& report = m_model.report;
        std::vector<ImportProblem> problems;
        for (ChunkEvents& chunk : m_chunks) {
            report.eventCount += chunk.eventCount;
            report.phases.Add(chunk.phases);
            report.problemCount += chunk.problems.count;
            for (auto& p : chunk.problems.kept) problems.push_back(std::move(p));
        }
        report.problemCount += m_extraProblems.count;
        for (auto& p : m_extraProblems.kept) problems.push_back(std::move(p));
        std::stable_sort(problems.begin(), problems.end(),
                         [](const ImportProblem& a, const ImportProblem& b) {
                             return a.byteOffset < b.byteOffset;
                         });
        if (problems.size() > kMaxKeptProblems) problems.resize(kMaxKeptProblems);
        for (auto& p : problems) report.problems.push_back(std::move(p));
        report.unmatchedBegins = m_unmatchedBegins;
        report.unmatchedEnds = m_unmatchedEnds;
    }

    static int64_t EntitySortKey(const EntityId& id) { return id.text ? INT64_MAX : id.number; }

    void OrderForDisplay() {
        auto trackHasContent = [](const Track& t) {
            return !t.rows.empty() || !t.instantTs.empty() || !t.counterTs.empty();
        };
        for (uint32_t t = 0; t < m_model.tracks.size(); ++t) {
            const Track& track = m_model.tracks[t];
            if (trackHasContent(track)) m_model.processes[track.process].tracks.push_back(t);
        }
        const auto& strings = m_model.strings;
        for (Process& process : m_model.processes) {
            // Counters first, then async lanes, then threads by sort index and tid, as Chrome does.
            std::stable_sort(
                process.tracks.begin(), process.tracks.end(), [&](uint32_t a, uint32_t b) {
                    const Track& ta = m_model.tracks[a];
                    const Track& tb = m_model.tracks[b];
                    const int kindA = ta.kind == TrackKind::kCounter ? 0
                                      : ta.kind == TrackKind::kAsync ? 1
                                                                     : 2;
                    const int kindB = tb.kind == TrackKind::kCounter ? 0
                                      : tb.kind == TrackKind::kAsync ? 1
                                                                     : 2;
                    if (kindA != kindB) return kindA < kindB;
                    if (ta.kind == TrackKind::kCounter)
                        return strings.Get(ta.name) < strings.Get(tb.name);
                    const int64_t sa = ta.hasSortIndex ? ta.sortIndex : EntitySortKey(ta.tid);
                    const int64_t sb = tb.hasSortIndex ? tb.sortIndex : EntitySortKey(tb.tid);
                    if (sa != sb) return sa < sb;
                    return EntityText(ta.tid, strings) < EntityText(tb.tid, strings);
                });
        }
        // Processes without any event are left out of the display; their metadata stays.
        std::vector<uint32_t> order;
        for (uint32_t p = 0; p < m_model.processes.size(); ++p)
            if (!m_model.processes[p].tracks.empty()) order.push_back(p);
        std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
            const Process& pa = m_model.processes[a];
            const Process& pb = m_model.processes[b];
            const int64_t sa = pa.hasSortIndex ? pa.sortIndex : EntitySortKey(pa.pid);
            const int64_t sb = pb.hasSortIndex ? pb.sortIndex : EntitySortKey(pb.pid);
            if (sa != sb) return sa < sb;
            return EntitySortKey(pa.pid) < EntitySortKey(pb.pid);
        });
        std::vector<uint32_t> newIndex(m_model.processes.size(), UINT32_MAX);
        std::vector<Process> ordered;
        for (uint32_t p : order) {
            newIndex[p] = static_cast<uint32_t>(ordered.size());
            ordered.push_back(std::move(m_model.processes[p]));
        }
        m_model.processes = std::move(ordered);
        for (Track& track : m_model.tracks) track.process = newIndex[track.process];
    }

    void ComputeSpan() {
        TimeNs first = INT64_MAX, last = INT64_MIN;
        for (const Track& track : m_model.tracks) {
            for (const Row& row : track.rows) {
                if (row.size() == 0) continue;
                first = std::min(first, row.start[0]);
                // Open ends do not count: they end where the rest of the trace does.
                size_t i = row.size();
                while (i > 0 && row.end[i - 1] >= kOpenEndNs) last = std::max(last, row.start[--i]);
                if (i > 0) last = std::max(last, row.end[i - 1]);
                m_model.sliceCount += row.size();
            }
            if (!track.instantTs.empty()) {
                first = std::min(first, track.instantTs[0]);
                last = std::max(last, track.instantTs[track.instantTs.size() - 1]);
                m_model.instantCount += track.instantTs.size();
            }
            if (!track.counterTs.empty()) {
                first = std::min(first, track.counterTs[0]);
                last = std::max(last, track.counterTs[track.counterTs.size() - 1]);
                m_model.counterSampleCount += track.counterTs.size();
            }
        }
        for (const Flow& flow : m_model.flows) {
            first = std::min({first, flow.fromTs, flow.toTs});
            last = std::max({last, flow.fromTs, flow.toTs});
        }
        if (first > last) first = last = 0;
        m_model.firstNs = first;
        m_model.lastNs = last;
    }

    // Slices that never ended reach the end of the trace; the model lists them. An open slice is
    // always the last of its row (whatever follows nests inside it, or takes another lane), so
    // the row's ends stay sorted.
    void CloseOpenEnds() {
        for (uint32_t t = 0; t < m_model.tracks.size(); ++t) {
            std::vector<Row>& rows = m_model.tracks[t].rows;
            for (uint32_t r = 0; r < rows.size(); ++r) {
                Row& row = rows[r];
                for (size_t i = row.size(); i > 0 && row.end[i - 1] >= kOpenEndNs; --i) {
                    row.end[i - 1] = std::max(m_model.lastNs, row.start[i - 1]);
                    m_model.unfinished.push_back({t, r, static_cast<uint32_t>(i - 1)});
                }
                for (size_t k = row.overview.size();
                     k > 0 && row.overview[k - 1].endNs >= kOpenEndNs; --k)
                    row.overview[k - 1].endNs =
                        std::max(m_model.lastNs, row.overview[k - 1].startNs);
            }
        }
        std::sort(m_model.unfinished.begin(), m_model.unfinished.end());
    }

    std::vector<ChunkEvents>& m_chunks;
    unsigned m_threads;
    uint64_t m_flowSortInPlaceBytes;
    RowFinished m_rowFinished;
    LoadTiming m_timing;
    TraceModel& m_model;
    std::vector<std::vector<StringId>> m_stringRemap;
    std::vector<std::vector<uint32_t>> m_trackRemap;
    std::vector<std::vector<PieceRef>> m_pieces;
    std::unordered_map<EntityId, uint32_t, EntityHash> m_processIndex;
    std::unordered_map<ThreadKey, uint32_t, ThreadKeyHash> m_threadIndex;
    ProblemList m_extraProblems;
    std::atomic<uint64_t> m_unmatchedBegins{0}, m_unmatchedEnds{0};
};

}  // namespace

// [SECTION] RowBuilder: slices into non-overlapping rows

void RowBuilder::Add(const RawSlice& slice) {
    const TimeNs end = slice.startNs + slice.durNs;
    while (!m_openEnds.empty() && m_openEnds.back() <= slice.startNs) m_openEnds.pop_back();
    if (m_openEnds.empty() || end <= m_openEnds.back()) {
        const size_t depth = m_openEnds.size();
        if (depth == m_nested.size()) {
            m_nested.emplace_back();
            m_nested.back().depth = static_cast<uint32_t>(depth);
        }
        AppendToRow(m_nested[depth], slice);
        if (slice.durNs > 0) m_openEnds.push_back(end);
    } else {
        size_t lane = 0;
        while (lane < m_overlapEnds.size() && m_overlapEnds[lane] > slice.startNs) ++lane;
        if (lane == m_overlapEnds.size()) {
            m_overlapEnds.push_back(end);
            m_overlap.emplace_back();
            m_overlap.back().kind = RowKind::kOverlap;
            m_overlap.back().depth = static_cast<uint32_t>(lane);
        }
        m_overlapEnds[lane] = end;
        AppendToRow(m_overlap[lane], slice);
        ++m_track.overlapSliceCount;
    }
    ++m_track.sliceCount;
}

void RowBuilder::Finish() {
    for (Row& row : m_nested) m_track.rows.push_back(std::move(row));
    for (Row& row : m_overlap) m_track.rows.push_back(std::move(row));
    // Complete: the rows give back their spare pages now, not when the whole model is built,
    // while other threads still build theirs.
    for (Row& row : m_track.rows) {
        row.ReleaseSpare();
        if (m_rowFinished) m_rowFinished(row);
    }
    m_nested.clear();
    m_overlap.clear();
}

void BuildModel(std::vector<ChunkEvents>& chunks, unsigned threads, TraceModel& model,
                uint64_t flowSortInPlaceBytes, RowFinished rowFinished) {
    Builder(chunks, threads, flowSortInPlaceBytes, rowFinished, model).Run();
}

}  // namespace marey
