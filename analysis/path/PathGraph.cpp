#include "path/PathGraph.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <string_view>
#include <unordered_map>

#include "core/LoadTiming.hpp"
#include "load/EventDetails.hpp"

namespace marey {
namespace {

// A kernel that starts this long after the previous one on its stream, while it was queued
// behind it, waited on something the trace does not show; HTA 0.5 draws no edge either.
constexpr TimeNs kKernelKernelDelayBelowNs = 1'500'000;

// How far host and device clocks of one profile can disagree (see AddEdge).
constexpr TimeNs kClockSkewNs = 50'000;

// The host calls that wait for the device: the time inside them is the device's, not the host's
// (HTA 0.5's BLOCKING_SYNC_CALLS, with HIP's and AscendCL's; the Ascend profiler writes these
// as "AscendCL@aclrtSynchronizeStream").
constexpr std::array<std::string_view, 16> kBlockingCalls = {"cudaDeviceSynchronize",
                                                             "cudaStreamSynchronize",
                                                             "cudaEventQuery",
                                                             "cudaEventSynchronize",
                                                             "cudaMemcpy",
                                                             "cudaMemcpyAsync",
                                                             "hipDeviceSynchronize",
                                                             "hipStreamSynchronize",
                                                             "hipEventSynchronize",
                                                             "aclrtSynchronizeStream",
                                                             "aclrtSynchronizeStreamWithTimeout",
                                                             "aclrtSynchronizeDevice",
                                                             "aclrtSynchronizeDeviceWithTimeout",
                                                             "aclrtSynchronizeEvent",
                                                             "aclrtSynchronizeEventWithTimeout",
                                                             "aclrtMemcpy"};

bool IsBlockingCall(std::string_view name) {
    if (const size_t at = name.find('@'); at != std::string_view::npos) name.remove_prefix(at + 1);
    return std::find(kBlockingCalls.begin(), kBlockingCalls.end(), name) != kBlockingCalls.end();
}

// The host calls a device synchronisation record names by its correlation id.
constexpr std::array<std::string_view, 10> kSyncCalls = {
    "cudaDeviceSynchronize", "cudaStreamSynchronize", "cudaEventSynchronize",
    "cudaStreamWaitEvent",   "cudaEventRecord",       "cudaEventRecordWithFlags",
    "hipDeviceSynchronize",  "hipStreamSynchronize",  "hipEventSynchronize",
    "hipStreamWaitEvent"};

// The categories of the host events that are calls (HTA 0.5 reads cpu_op, cuda_runtime and
// cuda_driver; Ascend's task queue adds enqueue and dequeue). Python functions, annotations and
// the profiler's own span wrap calls without being one; an event of no category (a database's,
// an Ascend CANN call) is a call unless its name is a Python function's.
constexpr std::array<std::string_view, 9> kCallCategories = {
    "",       "cpu_op",   "cuda_runtime", "cuda_driver", "Runtime",
    "Driver", "Operator", "enqueue",      "dequeue"};

// A Python function's record as profilers name it ("torch/nn/modules/module.py(1532): _call_impl",
// "<built-in method cat of type object at 0x…>"): what a source that keeps no category (a
// profiler database) tells them by.
bool IsPythonFunctionName(std::string_view name) {
    if (name.rfind("<built-in ", 0) == 0) return true;
    const size_t at = name.find(".py(");
    if (at == std::string_view::npos) return false;
    size_t digit = at + 4;
    while (digit < name.size() && name[digit] >= '0' && name[digit] <= '9') ++digit;
    return digit > at + 4 && name.substr(digit, 3) == "): ";
}

bool IsCall(std::string_view category, std::string_view name) {
    if (category.empty()) return !IsPythonFunctionName(name);
    return std::find(kCallCategories.begin(), kCallCategories.end(), category) !=
           kCallCategories.end();
}

// Kineto's records of a synchronisation on a device stream (category "cuda_sync").
enum class SyncKind : uint8_t { kContext, kStream, kEvent, kStreamWaitEvent };
constexpr std::array<std::pair<std::string_view, SyncKind>, 4> kSyncMarkers = {{
    {"Context Sync", SyncKind::kContext},
    {"Stream Sync", SyncKind::kStream},
    {"Event Sync", SyncKind::kEvent},
    {"Stream Wait Event", SyncKind::kStreamWaitEvent},
}};

struct SyncMarker {
    SyncKind kind = SyncKind::kContext;
    TimeNs endNs = 0;
    uint32_t stream = 0;                   // the stream it was recorded on
    uint32_t call = kNoPathEvent;          // the host call of its correlation id
    uint32_t sourceKernel = kNoPathEvent;  // event syncs: the work the recorded event follows
};

uint32_t StartNode(uint32_t event) {
    return 2 * event;
}
uint32_t EndNode(uint32_t event) {
    return 2 * event + 1;
}

bool IsHostRole(TrackRole role) {
    return role == TrackRole::kHostThread || role == TrackRole::kNpuLaunchThread;
}

bool AddressBefore(const SliceAddress& a, const SliceAddress& b) {
    if (a.track != b.track) return a.track < b.track;
    if (a.row != b.row) return a.row < b.row;
    return a.index < b.index;
}

std::optional<int64_t> ArgInteger(const EventDetails& details, std::string_view key) {
    for (const auto& [name, value] : details.args) {
        if (name != key) continue;
        int64_t number = 0;
        const char* end = value.data() + value.size();
        if (std::from_chars(value.data(), end, number).ptr == end && number >= 0) return number;
        return std::nullopt;
    }
    return std::nullopt;
}

// [SECTION] The graph of one rank and window

class GraphBuilder {
public:
    GraphBuilder(const TraceModel& model, const DeviceActivities& activities, uint32_t group,
                 TimeNs fromNs, TimeNs toNs, const std::vector<uint32_t>* deviceWork)
        : m_model(model),
          m_activities(activities),
          m_group(group),
          m_fromNs(fromNs),
          m_toNs(toNs),
          m_deviceWork(deviceWork) {}

    PathGraph Build() {
        const LoadTiming timing;
        GatherHostEvents();
        timing.Report("critical path: host calls gathered");
        GatherDeviceEvents();
        ShiftDeviceClock();
        timing.Report("critical path: device work gathered");
        FindSyncMarkers();
        timing.Report("critical path: synchronisation records read");
        FindBlockingWaits();
        for (std::vector<uint32_t>& thread : m_threads) AddCallStackEdges(thread);
        timing.Report("critical path: call-stack edges");
        AddDeviceEdges();
        timing.Report("critical path: device edges");
        for (const PathEdge& edge : m_graph.edges)
            ++m_graph.edgesByKind[static_cast<int>(edge.kind)];
        return std::move(m_graph);
    }

private:
    bool InWindow(TimeNs startNs, TimeNs endNs) const {
        return startNs >= m_fromNs && endNs <= m_toNs;
    }
    bool OfGroup(uint32_t track) const { return m_model.GroupOf(track) == m_group; }

    // An edge between two events. One that runs back in time (work that overlaps other work
    // on its stream, a clock that jumped) is left out and counted, so that no time on the path
    // is counted twice.
    void AddEdge(uint32_t from, uint32_t to, PathEdgeKind kind, uint32_t event, bool timed) {
        const TimeNs spanNs = m_graph.NodeTime(to) - m_graph.NodeTime(from);
        if (spanNs < 0) {
            ++m_graph.backwardEdges;
            return;
        }
        m_graph.edges.push_back({from, to, timed ? spanNs : 0, kind, event});
    }

    // The device's clock, as the profiler converted it to the host's, can run a few µs behind:
    // an Ascend task starts 3 µs before the call that launched it. The device's times in the
    // graph move later by the most any launch needs (at most kClockSkewNs), so that every
    // launch runs forward; the path says by how much.
    void ShiftDeviceClock() {
        TimeNs shiftNs = 0;
        for (uint32_t e = m_hostEventCount; e < m_graph.events.size(); ++e) {
            const uint32_t launch = LaunchOf(e);
            if (launch == kNoPathEvent) continue;
            const TimeNs aheadNs = m_graph.events[launch].startNs - m_graph.events[e].startNs;
            if (aheadNs > shiftNs && aheadNs <= kClockSkewNs) shiftNs = aheadNs;
        }
        m_graph.deviceShiftNs = shiftNs;
        if (shiftNs == 0) return;
        for (uint32_t e = m_hostEventCount; e < m_graph.events.size(); ++e) {
            m_graph.events[e].startNs += shiftNs;
            m_graph.events[e].endNs += shiftNs;
        }
    }
    // An edge of a thread's call stack: kept even when overlapping calls make it run back (its
    // time then 0), so that the thread's chain holds.
    void AddStackEdge(uint32_t from, uint32_t to, PathEdgeKind kind, uint32_t event, bool timed) {
        const TimeNs spanNs = m_graph.NodeTime(to) - m_graph.NodeTime(from);
        m_graph.edges.push_back({from, to, timed ? std::max<TimeNs>(0, spanNs) : 0, kind, event});
    }

    // Every call of the rank's host threads inside the window, a thread after another, each in
    // (row, index) order: sorted by address, which the launch lookup searches.
    void GatherHostEvents() {
        // By name, as met: a step's graph reads a few hundred names of a pool of millions.
        std::unordered_map<StringId, bool> blocking, isCallByName;
        // One thread's calls may lie on tracks of two processes (the Ascend profiler writes a
        // Python thread's CANN calls under "CANN", with the same thread id): one call stack.
        std::unordered_map<int64_t, size_t> threadOfTid;
        for (uint32_t t = 0; t < m_model.tracks.size(); ++t) {
            const Track& track = m_model.tracks[t];
            if (track.kind != TrackKind::kThread || !IsHostRole(track.role) || !OfGroup(t))
                continue;
            const auto [place, added] = threadOfTid.try_emplace(track.tid.number, m_threads.size());
            if (added) m_threads.emplace_back();
            std::vector<uint32_t>& thread = m_threads[place->second];
            const TraceSource& source = m_model.SourceOf(t);
            for (uint32_t r = 0; r < track.rows.size(); ++r) {
                size_t hint = 0;
                const Row& row = track.rows[r];
                if (row.kind == RowKind::kAsync) continue;
                const size_t first = static_cast<size_t>(
                    std::lower_bound(row.start.begin(), row.start.end(), m_fromNs) -
                    row.start.begin());
                for (size_t i = first; i < row.size() && row.start[i] < m_toNs; ++i) {
                    if (!InWindow(row.start[i], row.end[i])) continue;
                    // A name keeps its category on a thread (aten::mm is an operator, a Python
                    // function's name is never a call's): read once per name, not per event.
                    auto [isCall, newName] = isCallByName.try_emplace(row.name[i], false);
                    if (newName)
                        isCall->second = IsCall(source.FieldsAt(row.Ref(i), hint).category,
                                                m_model.Name(row.name[i]));
                    if (!isCall->second) continue;
                    PathEvent event;
                    event.startNs = row.start[i], event.endNs = row.end[i];
                    event.name = row.name[i];
                    event.slice = {t, r, static_cast<uint32_t>(i)};
                    auto [isBlocking, newBlocking] = blocking.try_emplace(row.name[i], false);
                    if (newBlocking) isBlocking->second = IsBlockingCall(m_model.Name(row.name[i]));
                    event.blocking = isBlocking->second;
                    thread.push_back(static_cast<uint32_t>(m_graph.events.size()));
                    m_graph.events.push_back(event);
                }
            }
        }
        m_hostEventCount = static_cast<uint32_t>(m_graph.events.size());
    }

    uint32_t HostEventAt(const SliceAddress& slice) const {
        const auto end = m_graph.events.begin() + m_hostEventCount;
        const auto it = std::lower_bound(m_graph.events.begin(), end, slice,
                                         [](const PathEvent& e, const SliceAddress& key) {
                                             return AddressBefore(e.slice, key);
                                         });
        if (it == end || it->slice.track != slice.track || it->slice.row != slice.row ||
            it->slice.index != slice.index)
            return kNoPathEvent;
        return static_cast<uint32_t>(it - m_graph.events.begin());
    }

    // The activities of the rank launched inside the window (by start, as DeviceActivities
    // holds them), each with the host event of its launch when that lies inside the window too.
    void GatherDeviceEvents() {
        const size_t count = m_deviceWork ? m_deviceWork->size() : m_activities.activities.size();
        for (size_t i = 0; i < count; ++i) {
            const DeviceActivity& activity =
                m_activities.activities[m_deviceWork ? (*m_deviceWork)[i] : i];
            if (m_activities.streams[activity.stream].group != m_group) continue;
            const HostLaunch* launch =
                activity.launch == kNoLaunch
                    ? nullptr
                    : &m_activities.launches[static_cast<size_t>(activity.launch)];
            const TimeNs issuedNs = launch ? launch->startNs : activity.startNs;
            if (issuedNs < m_fromNs || issuedNs >= m_toNs) continue;
            PathEvent event;
            event.startNs = activity.startNs, event.endNs = activity.endNs;
            event.name = activity.name;
            event.slice = activity.slice;
            event.stream = activity.stream;
            event.activityClass = activity.kind.activityClass;
            m_launchOf.push_back(launch ? HostEventAt(launch->slice) : kNoPathEvent);
            m_graph.events.push_back(event);
        }
    }
    uint32_t LaunchOf(uint32_t event) const { return m_launchOf[event - m_hostEventCount]; }

    // HTA's call-stack edges: into each call from its parent's start or its previous sibling's
    // end (time of the parent), out of it from its last child's end or its own start (its own
    // time, none for a call that waits for the device); top-level calls follow one another
    // without time. Overlapping rows nest as far as their times allow.
    void AddCallStackEdges(std::vector<uint32_t>& thread) {
        const std::vector<PathEvent>& events = m_graph.events;
        std::sort(thread.begin(), thread.end(), [&](uint32_t a, uint32_t b) {
            if (events[a].startNs != events[b].startNs)
                return events[a].startNs < events[b].startNs;
            if (events[a].endNs != events[b].endNs) return events[a].endNs > events[b].endNs;
            return events[a].slice.row < events[b].slice.row;
        });
        std::vector<uint32_t> open;
        uint32_t last = UINT32_MAX;
        auto exit = [&] {
            const uint32_t e = open.back();
            open.pop_back();
            AddStackEdge(last, EndNode(e), PathEdgeKind::kOperator, e, !events[e].blocking);
            last = EndNode(e);
        };
        for (const uint32_t e : thread) {
            while (!open.empty() && events[open.back()].endNs < events[e].endNs) exit();
            // A call that starts before where the thread's chain has got to overlaps an earlier
            // call without nesting in it (rows of overlapping slices): joined, it would count
            // that time twice. It stays in the graph for its launches, off the thread's chain.
            if (last != UINT32_MAX && events[e].startNs < m_graph.NodeTime(last)) {
                ++m_graph.overlappingCalls;
                continue;
            }
            if (last != UINT32_MAX) {
                if (open.empty())
                    AddStackEdge(last, StartNode(e), PathEdgeKind::kDependency, kNoPathEvent,
                                 false);
                else
                    AddStackEdge(last, StartNode(e), PathEdgeKind::kOperator, open.back(), true);
            }
            last = StartNode(e);
            open.push_back(e);
        }
        while (!open.empty()) exit();
    }

    // The stream of each (device, stream number) as Kineto numbers them: its thread id.
    std::optional<uint32_t> StreamNumbered(int64_t device, int64_t number) const {
        for (uint32_t s = 0; s < m_activities.streams.size(); ++s) {
            const DeviceStream& stream = m_activities.streams[s];
            if (stream.group == m_group && stream.device == device &&
                m_model.tracks[stream.track].tid.number == number)
                return s;
        }
        return std::nullopt;
    }

    std::unordered_map<int64_t, uint32_t> SyncCallsByCorrelation() const {
        std::vector<StringId> syncCalls;
        for (std::string_view call : kSyncCalls)
            if (StringId id = m_model.strings.Find(call)) syncCalls.push_back(id);
        if (syncCalls.empty()) return {};
        std::unordered_map<int64_t, uint32_t> byCorrelation;
        size_t hint = 0;
        for (uint32_t e = 0; e < m_hostEventCount; ++e) {
            const PathEvent& event = m_graph.events[e];
            if (std::find(syncCalls.begin(), syncCalls.end(), event.name) == syncCalls.end())
                continue;
            const Row& row = m_model.tracks[event.slice.track].rows[event.slice.row];
            const ActivityFields fields =
                m_model.SourceOf(event.slice.track).FieldsAt(row.Ref(event.slice.index), hint);
            if (fields.hasCorrelation) byCorrelation.emplace(fields.correlation, e);
        }
        return byCorrelation;
    }

    // Per stream, its launched work by the launch's start: what the event syncs search.
    void IndexLaunchesByStream() {
        m_launchedOn.assign(m_activities.streams.size(), {});
        for (uint32_t e = m_hostEventCount; e < m_graph.events.size(); ++e)
            if (const uint32_t launch = LaunchOf(e); launch != kNoPathEvent)
                m_launchedOn[m_graph.events[e].stream].push_back(
                    {m_graph.events[launch].startNs, e});
        for (auto& launched : m_launchedOn) std::sort(launched.begin(), launched.end());
    }

    // The work of the last launch on 'stream' that started before 'timeNs': what an event
    // recorded on that stream at that time follows. O(log launches).
    uint32_t LastLaunchedBefore(uint32_t stream, TimeNs timeNs) const {
        const auto& launched = m_launchedOn[stream];
        const auto it =
            std::lower_bound(launched.begin(), launched.end(), std::pair{timeNs, uint32_t{0}});
        return it == launched.begin() ? kNoPathEvent : std::prev(it)->second;
    }

    // The work of the first launch on 'stream' from 'thread' at or after 'timeNs': what waits
    // for the event a stream-wait call made that stream wait for. O(log launches + launches
    // from other threads in between).
    uint32_t NextLaunchedAfter(uint32_t stream, uint32_t thread, TimeNs timeNs) const {
        const auto& launched = m_launchedOn[stream];
        for (auto it =
                 std::lower_bound(launched.begin(), launched.end(), std::pair{timeNs, uint32_t{0}});
             it != launched.end(); ++it)
            if (m_graph.events[LaunchOf(it->second)].slice.track == thread) return it->second;
        return kNoPathEvent;
    }

    // Kineto's synchronisation records on the rank's device streams inside the window, each
    // joined to its host call and, for an event's, to the work the event followed.
    void FindSyncMarkers();
    // Joins a record to its host call and, for an event's, to the work the event followed;
    // false when one of them is not found (or is not the call the record names).
    bool JoinMarker(SyncMarker marker, const std::unordered_map<int64_t, uint32_t>& calls,
                    const TraceSource& source, uint64_t ref, int64_t device);
    // A waiting call that no record joins (an AscendCL synchronise, a blocking copy): it waited
    // for the device work that ended last while it ran; when none ended then, it waited for
    // nothing and its time is the host's.
    void FindBlockingWaits();
    void AddDeviceEdges();

    const TraceModel& m_model;
    const DeviceActivities& m_activities;
    const uint32_t m_group;
    const TimeNs m_fromNs, m_toNs;
    const std::vector<uint32_t>* m_deviceWork;  // the activities to read; null: all
    PathGraph m_graph;
    uint32_t m_hostEventCount = 0;
    std::vector<std::vector<uint32_t>> m_threads;  // host events by thread
    std::vector<uint32_t> m_launchOf;              // per device event: its launch's event
    std::vector<std::vector<std::pair<TimeNs, uint32_t>>>
        m_launchedOn;  // see IndexLaunchesByStream
    std::vector<SyncMarker> m_markers;
    std::vector<std::pair<uint32_t, uint32_t>> m_blockingWaits;  // (device work, the call)
    std::unordered_map<uint32_t, uint32_t> m_waitsFor;  // device event ► the work it waited for
};

// [SECTION] Synchronisation: records and waiting calls

// Whether 'call' is the host call a record of 'kind' stands for (a record's correlation id that
// names another call is damage, not a join).
bool CallFitsRecord(SyncKind kind, std::string_view call) {
    switch (kind) {
        case SyncKind::kContext:
            return call == "cudaDeviceSynchronize" || call == "hipDeviceSynchronize";
        case SyncKind::kStream:
            return call == "cudaStreamSynchronize" || call == "hipStreamSynchronize";
        case SyncKind::kEvent:
            return call == "cudaEventSynchronize" || call == "hipEventSynchronize";
        case SyncKind::kStreamWaitEvent:
            return call == "cudaStreamWaitEvent" || call == "hipStreamWaitEvent";
    }
    return false;
}

bool IsEventRecordCall(std::string_view call) {
    return call == "cudaEventRecord" || call == "cudaEventRecordWithFlags" ||
           call == "hipEventRecord";
}

void GraphBuilder::FindSyncMarkers() {
    std::array<StringId, kSyncMarkers.size()> markerNames{};
    bool any = false;
    for (size_t k = 0; k < kSyncMarkers.size(); ++k)
        any |= (markerNames[k] = m_model.strings.Find(kSyncMarkers[k].first)) != 0;
    if (!any) return;
    const std::unordered_map<int64_t, uint32_t> calls = SyncCallsByCorrelation();
    IndexLaunchesByStream();
    for (uint32_t s = 0; s < m_activities.streams.size(); ++s) {
        const DeviceStream& stream = m_activities.streams[s];
        if (stream.group != m_group || stream.ascend) continue;
        const Track& track = m_model.tracks[stream.track];
        const TraceSource& source = m_model.SourceOf(stream.track);
        size_t hint = 0;
        for (const Row& row : track.rows) {
            // A record lies at its host call, which lies in the window.
            const size_t first = static_cast<size_t>(
                std::lower_bound(row.start.begin(), row.start.end(), m_fromNs - kClockSkewNs) -
                row.start.begin());
            for (size_t i = first; i < row.size() && row.start[i] < m_toNs + kClockSkewNs; ++i) {
                const auto named = std::find(markerNames.begin(), markerNames.end(), row.name[i]);
                if (row.name[i] == 0 || named == markerNames.end()) continue;
                const ActivityFields fields = source.FieldsAt(row.Ref(i), hint);
                if (fields.category != "cuda_sync") continue;
                ++m_graph.syncMarkers;
                // A record is device time: on the graph's clock, moved as the device's work is.
                SyncMarker marker{kSyncMarkers[named - markerNames.begin()].second,
                                  row.end[i] + m_graph.deviceShiftNs, s};
                if (!JoinMarker(marker, calls, source, row.Ref(i), stream.device))
                    ++m_graph.unmatchedSyncs;
            }
        }
    }
    std::sort(m_markers.begin(), m_markers.end(),
              [](const SyncMarker& a, const SyncMarker& b) { return a.endNs < b.endNs; });
}

bool GraphBuilder::JoinMarker(SyncMarker marker, const std::unordered_map<int64_t, uint32_t>& calls,
                              const TraceSource& source, uint64_t ref, int64_t device) {
    size_t hint = 0;
    const ActivityFields fields = source.FieldsAt(ref, hint);
    const auto call = fields.hasCorrelation ? calls.find(fields.correlation) : calls.end();
    if (call == calls.end() ||
        !CallFitsRecord(marker.kind, m_model.Name(m_graph.events[call->second].name)))
        return false;
    marker.call = call->second;
    if (marker.kind == SyncKind::kEvent || marker.kind == SyncKind::kStreamWaitEvent) {
        // The event's record call and stream are in the record's args only.
        const EventDetails details = source.format == SourceFormat::kChromeJson
                                         ? ReadEventDetails(source.text, ref)
                                         : EventDetails{};
        const auto recordId = ArgInteger(details, "wait_on_cuda_event_record_corr_id");
        const auto recordStream = ArgInteger(details, "wait_on_stream");
        const auto record = recordId ? calls.find(*recordId) : calls.end();
        if (record == calls.end() ||
            !IsEventRecordCall(m_model.Name(m_graph.events[record->second].name)))
            return false;
        const auto recordedOn = recordStream ? StreamNumbered(device, *recordStream) : std::nullopt;
        if (!recordedOn) return false;
        marker.sourceKernel =
            LastLaunchedBefore(*recordedOn, m_graph.events[record->second].startNs);
        if (marker.sourceKernel == kNoPathEvent) return false;
        if (marker.kind == SyncKind::kStreamWaitEvent) {
            const PathEvent& waitCall = m_graph.events[marker.call];
            const uint32_t waiting =
                NextLaunchedAfter(marker.stream, waitCall.slice.track, waitCall.endNs);
            if (waiting == kNoPathEvent) return false;
            m_waitsFor[waiting] = marker.sourceKernel;
        }
    }
    m_markers.push_back(marker);
    return true;
}

void GraphBuilder::FindBlockingWaits() {
    std::vector<char> joined(m_hostEventCount, 0);
    for (const SyncMarker& marker : m_markers) joined[marker.call] = 1;
    std::vector<uint32_t> byEnd;
    for (uint32_t e = m_hostEventCount; e < m_graph.events.size(); ++e) byEnd.push_back(e);
    std::sort(byEnd.begin(), byEnd.end(), [&](uint32_t a, uint32_t b) {
        return m_graph.events[a].endNs < m_graph.events[b].endNs;
    });
    for (uint32_t e = 0; e < m_hostEventCount; ++e) {
        PathEvent& call = m_graph.events[e];
        if (!call.blocking || joined[e]) continue;
        const auto after =
            std::upper_bound(byEnd.begin(), byEnd.end(), call.endNs,
                             [&](TimeNs t, uint32_t d) { return t < m_graph.events[d].endNs; });
        if (after == byEnd.begin() || m_graph.events[*(after - 1)].endNs < call.startNs) {
            call.blocking = false;
            continue;
        }
        m_blockingWaits.emplace_back(*(after - 1), e);
    }
}

// [SECTION] The device's edges

// The device's work in the order it ran (each activity at its start, each synchronisation at its
// end, as HTA sorts them), with the stream's last activity at hand: an activity on an idle stream
// waited for its launch; one queued behind another waited for that one; a synchronisation joins
// the last work of its streams to the host call that waited for it.
void GraphBuilder::AddDeviceEdges() {
    std::vector<uint32_t> lastOnStream(m_activities.streams.size(), kNoPathEvent);
    size_t nextMarker = 0;
    auto syncMarkersUntil = [&](TimeNs timeNs) {
        for (; nextMarker < m_markers.size() && m_markers[nextMarker].endNs <= timeNs;
             ++nextMarker) {
            const SyncMarker& marker = m_markers[nextMarker];
            if (marker.kind == SyncKind::kStreamWaitEvent) continue;  // joined at its kernel
            if (marker.kind == SyncKind::kEvent) {
                AddEdge(EndNode(marker.sourceKernel), EndNode(marker.call), PathEdgeKind::kSync,
                        kNoPathEvent, false);
                continue;
            }
            bool joined = false;
            for (uint32_t s = 0; s < lastOnStream.size(); ++s) {
                const bool synced = marker.kind == SyncKind::kContext || s == marker.stream;
                if (!synced || lastOnStream[s] == kNoPathEvent) continue;
                AddEdge(EndNode(lastOnStream[s]), EndNode(marker.call), PathEdgeKind::kSync,
                        kNoPathEvent, false);
                joined = true;
            }
            if (!joined) ++m_graph.unmatchedSyncs;  // no work of the window on its streams
        }
    };
    for (uint32_t e = m_hostEventCount; e < m_graph.events.size(); ++e) {
        const PathEvent& kernel = m_graph.events[e];
        syncMarkersUntil(kernel.startNs - 1);
        AddEdge(StartNode(e), EndNode(e), PathEdgeKind::kOperator, e, true);
        const uint32_t previous = lastOnStream[kernel.stream];
        const auto waited = m_waitsFor.find(e);
        const uint32_t waitedFor = waited == m_waitsFor.end() ? kNoPathEvent : waited->second;
        if (waitedFor != kNoPathEvent)
            AddEdge(EndNode(waitedFor), StartNode(e), PathEdgeKind::kSync, kNoPathEvent, false);
        const uint32_t launch = LaunchOf(e);
        const TimeNs waitedUntilNs =
            waitedFor == kNoPathEvent ? INT64_MIN : m_graph.events[waitedFor].endNs;
        bool launchTimed = false;
        if (launch != kNoPathEvent) {
            const TimeNs launchNs = m_graph.events[launch].startNs;
            launchTimed = (previous == kNoPathEvent || m_graph.events[previous].endNs < launchNs) &&
                          waitedUntilNs < launchNs;
            // Untimed, it still keeps the work after its launch.
            AddEdge(StartNode(launch), StartNode(e),
                    launchTimed ? PathEdgeKind::kLaunchDelay : PathEdgeKind::kDependency, e,
                    launchTimed);
        }
        if (!launchTimed && previous != kNoPathEvent) {
            const TimeNs previousEndNs = m_graph.events[previous].endNs;
            if (kernel.startNs - previousEndNs < kKernelKernelDelayBelowNs &&
                waitedUntilNs < previousEndNs)
                AddEdge(EndNode(previous), StartNode(e), PathEdgeKind::kKernelKernel, e, true);
        }
        // Work that overlaps the previous on its stream (Ascend's communication tasks) does not
        // end the stream's queue before that one does.
        if (previous == kNoPathEvent || kernel.endNs >= m_graph.events[previous].endNs)
            lastOnStream[kernel.stream] = e;
    }
    syncMarkersUntil(INT64_MAX);
    for (const auto& [work, call] : m_blockingWaits)
        AddEdge(EndNode(work), EndNode(call), PathEdgeKind::kSync, kNoPathEvent, false);
}

}  // namespace

// [SECTION] Names and the entry point

const char* PathEdgeKindName(PathEdgeKind kind) {
    switch (kind) {
        case PathEdgeKind::kOperator:
            return "operator";
        case PathEdgeKind::kDependency:
            return "dependency";
        case PathEdgeKind::kLaunchDelay:
            return "launch delay";
        case PathEdgeKind::kKernelKernel:
            return "kernel to kernel";
        case PathEdgeKind::kSync:
            return "synchronisation";
        case PathEdgeKind::kCollective:
            return "collective";
    }
    return "?";
}

const char* BoundKindName(BoundKind kind) {
    switch (kind) {
        case BoundKind::kCpu:
            return "cpu";
        case BoundKind::kCompute:
            return "compute";
        case BoundKind::kCommunication:
            return "communication";
        case BoundKind::kLaunch:
            return "launch";
        case BoundKind::kKernelKernel:
            return "kernel_kernel";
    }
    return "?";
}

PathGraph BuildPathGraph(const TraceModel& model, const DeviceActivities& activities,
                         uint32_t group, TimeNs fromNs, TimeNs toNs,
                         const std::vector<uint32_t>* deviceWork) {
    return GraphBuilder(model, activities, group, fromNs, toNs, deviceWork).Build();
}

}  // namespace marey
