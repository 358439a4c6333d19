#include "trace/DeviceActivities.hpp"

#include <algorithm>
#include <array>
#include <string_view>
#include <thread>
#include <unordered_map>

#include "core/LoadTiming.hpp"
#include "core/ParallelFor.hpp"
#include "load/EventFields.hpp"

namespace marey {
namespace {

// The host calls that enqueue work on a stream and carry its correlation id.
constexpr std::array<std::string_view, 15> kLaunchCalls = {
    "cudaLaunchKernel",      "cudaLaunchKernelExC",      "cuLaunchKernel",
    "cuLaunchKernelEx",      "cudaMemcpyAsync",          "cudaMemsetAsync",
    "cudaGraphLaunch",       "hipLaunchKernel",          "hipExtLaunchKernel",
    "hipModuleLaunchKernel", "hipExtModuleLaunchKernel", "hipMemcpyAsync",
    "hipMemcpyWithStream",   "hipMemsetAsync",           "hipGraphLaunch"};

bool IsKinetoActivityCategory(std::string_view category) {
    return category == "kernel" || category == "gpu_memcpy" || category == "gpu_memset" ||
           category == "Kernel" || category == "Memcpy" || category == "Memset";
}

// The device analyses' part of a track: a stream whose work they read, a thread whose launch
// calls they pair with it, or neither.
bool IsStream(TrackRole role) {
    return role == TrackRole::kDeviceStream || role == TrackRole::kNpuStream;
}
bool IsLauncher(TrackRole role) {
    return role == TrackRole::kHostThread || role == TrackRole::kNpuLaunchThread;
}

TrackRole RoleOf(const TraceModel& model, uint32_t trackIndex) {
    const Track& track = model.tracks[trackIndex];
    // Tracks of processes left out of the model (metadata only) belong to no process.
    if (track.kind != TrackKind::kThread || track.process >= model.processes.size())
        return TrackRole::kOther;
    return track.role;
}

struct LaunchCandidate {
    uint32_t group;
    int64_t correlation;
    HostLaunch launch;
};

struct TrackFindings {
    std::vector<DeviceActivity> activities;  // a row after another, each by start
    std::vector<size_t> rowStarts;           // where each row's activities begin
    std::vector<int64_t> correlations;       // per activity; -1 when none
    std::vector<LaunchCandidate> launches;
};

// The class of the last activity of each name, kept while its category and task type stay the
// same: a stream runs the same few kernels again and again, and their names can be long.
class ClassCache {
public:
    std::optional<ActivityKind> Classify(const ActivityFields& fields, StringId name,
                                         std::string_view nameText) {
        auto [it, inserted] = m_byName.try_emplace(name);
        Entry& entry = it->second;
        if (inserted || entry.category != fields.category || entry.taskType != fields.taskType) {
            entry.category = fields.category;
            entry.taskType = fields.taskType;
            entry.kind = ClassifyDeviceActivity(fields.category, fields.taskType, nameText);
        }
        return entry.kind;
    }

private:
    struct Entry {
        std::string_view category, taskType;
        std::optional<ActivityKind> kind;
    };
    std::unordered_map<StringId, Entry> m_byName;
};

void ReadStreamTrack(const TraceModel& model, uint32_t trackIndex, TrackRole role, uint32_t stream,
                     TrackFindings& out) {
    const Track& track = model.tracks[trackIndex];
    const TraceSource& source = model.SourceOf(trackIndex);
    ClassCache classes;
    size_t hint = 0;
    // Room for every slice: address space only until written, and no copy as the arrays grow.
    out.activities.reserve(track.sliceCount);
    out.correlations.reserve(track.sliceCount);
    for (uint32_t r = 0; r < track.rows.size(); ++r) {
        const Row& row = track.rows[r];
        out.rowStarts.push_back(out.activities.size());
        for (uint32_t i = 0; i < row.size(); ++i) {
            const ActivityFields fields = source.FieldsAt(row.Ref(i), hint);
            if (role == TrackRole::kDeviceStream && !IsKinetoActivityCategory(fields.category))
                continue;  // annotations, synchronisation
            std::optional<ActivityKind> kind =
                classes.Classify(fields, row.name[i], model.Name(row.name[i]));
            if (!kind) continue;
            DeviceActivity activity;
            activity.startNs = row.start[i];
            activity.endNs = row.end[i];
            activity.name = row.name[i];
            activity.stream = stream;
            activity.kind = *kind;
            activity.slice = {trackIndex, r, i};
            out.activities.push_back(activity);
            out.correlations.push_back(fields.hasCorrelation ? fields.correlation : -1);
        }
    }
}

void ReadLaunchTrack(const TraceModel& model, uint32_t trackIndex, TrackRole role,
                     const std::vector<char>& isLaunchName, TrackFindings& out) {
    const Track& track = model.tracks[trackIndex];
    const TraceSource& source = model.SourceOf(trackIndex);
    const uint32_t group = model.GroupOf(trackIndex);
    size_t hint = 0;
    out.launches.reserve(track.sliceCount);  // address space only until written
    for (uint32_t r = 0; r < track.rows.size(); ++r) {
        const Row& row = track.rows[r];
        for (uint32_t i = 0; i < row.size(); ++i) {
            if (role == TrackRole::kHostThread && !isLaunchName[row.name[i]]) continue;
            const ActivityFields fields = source.FieldsAt(row.Ref(i), hint);
            if (!fields.hasCorrelation) continue;
            HostLaunch launch{row.start[i], row.end[i], row.name[i], {trackIndex, r, i}};
            out.launches.push_back({group, fields.correlation, launch});
        }
    }
}

DeviceStream MakeStream(const TraceModel& model, uint32_t trackIndex, TrackRole role) {
    const Track& track = model.tracks[trackIndex];
    DeviceStream stream;
    stream.track = trackIndex;
    stream.group = model.GroupOf(trackIndex);
    stream.device = model.processes[track.process].pid.number;
    stream.label = model.TrackLabel(trackIndex);
    stream.ascend = role == TrackRole::kNpuStream;
    while (!stream.label.empty() && stream.label.back() == ' ')
        stream.label.pop_back();  // Kineto writes "stream 7 "
    return stream;
}

// Streams by group, device, then the thread's place on the timeline.
bool StreamBefore(const TraceModel& model, const DeviceStream& a, const DeviceStream& b) {
    if (a.group != b.group) return a.group < b.group;
    if (a.device != b.device) return a.device < b.device;
    const Track& ta = model.tracks[a.track];
    const Track& tb = model.tracks[b.track];
    const int64_t sa = ta.hasSortIndex ? ta.sortIndex : ta.tid.number;
    const int64_t sb = tb.hasSortIndex ? tb.sortIndex : tb.tid.number;
    if (sa != sb) return sa < sb;
    return a.track < b.track;
}

// The candidate of each (group, correlation id) with the shortest launch call: by sorting, or,
// when a group's ids are dense (a profiler numbers them in order), by indexing an array with
// them. find(group, correlation) gives the candidate's index or -1.
class LaunchIndex {
public:
    explicit LaunchIndex(std::vector<LaunchCandidate>& candidates) : m_candidates(candidates) {
        int64_t low = INT64_MAX, high = INT64_MIN;
        uint32_t group = 0;
        bool oneGroup = true;
        for (const LaunchCandidate& c : candidates) {
            low = std::min(low, c.correlation), high = std::max(high, c.correlation);
            oneGroup &= c.group == candidates.front().group;
            group = c.group;
        }
        // Dense enough: an array of at most 4 entries a candidate.
        m_dense = oneGroup && !candidates.empty() &&
                  static_cast<uint64_t>(high - low) < 4 * uint64_t{candidates.size()} + 1024;
        if (m_dense) {
            m_group = group, m_low = low;
            m_byId.assign(static_cast<size_t>(high - low + 1), -1);
            for (size_t i = 0; i < candidates.size(); ++i) {
                int32_t& slot = m_byId[static_cast<size_t>(candidates[i].correlation - low)];
                if (slot < 0 || Duration(candidates[i]) < Duration(candidates[slot]))
                    slot = static_cast<int32_t>(i);
            }
            return;
        }
        const auto before = [](const LaunchCandidate& a, const LaunchCandidate& b) {
            if (a.group != b.group) return a.group < b.group;
            if (a.correlation != b.correlation) return a.correlation < b.correlation;
            return Duration(a) < Duration(b);
        };
        if (!std::is_sorted(candidates.begin(), candidates.end(), before))
            std::sort(candidates.begin(), candidates.end(), before);
    }

    int32_t Find(uint32_t group, int64_t correlation) const {
        if (m_dense) {
            if (group != m_group || correlation < m_low ||
                static_cast<uint64_t>(correlation - m_low) >= m_byId.size())
                return -1;
            return m_byId[static_cast<size_t>(correlation - m_low)];
        }
        const auto it = std::lower_bound(
            m_candidates.begin(), m_candidates.end(), std::pair{group, correlation},
            [](const LaunchCandidate& c, const std::pair<uint32_t, int64_t>& key) {
                return c.group != key.first ? c.group < key.first : c.correlation < key.second;
            });
        if (it == m_candidates.end() || it->group != group || it->correlation != correlation)
            return -1;
        return static_cast<int32_t>(it - m_candidates.begin());
    }

private:
    static TimeNs Duration(const LaunchCandidate& c) { return c.launch.endNs - c.launch.startNs; }

    const std::vector<LaunchCandidate>& m_candidates;
    bool m_dense = false;
    uint32_t m_group = 0;
    int64_t m_low = 0;
    std::vector<int32_t> m_byId;
};

// Pairs each activity with the shortest launch call of its group and correlation id.
void PairLaunches(std::vector<LaunchCandidate>& candidates,
                  const std::vector<int64_t>& correlations, DeviceActivities& found) {
    const LaunchIndex index(candidates);
    std::vector<int32_t> launchOfCandidate(candidates.size(), kNoLaunch);
    found.launches.reserve(candidates.size());  // address space only until written
    for (size_t i = 0; i < found.activities.size(); ++i) {
        if (correlations[i] < 0) continue;
        ++found.activitiesWithCorrelation;
        const uint32_t group = found.streams[found.activities[i].stream].group;
        const int32_t candidate = index.Find(group, correlations[i]);
        if (candidate < 0) continue;
        int32_t& launch = launchOfCandidate[static_cast<size_t>(candidate)];
        if (launch == kNoLaunch) {
            launch = static_cast<int32_t>(found.launches.size());
            found.launches.push_back(candidates[static_cast<size_t>(candidate)].launch);
        }
        found.activities[i].launch = launch;
    }
}

// Every track's activities, with their correlation ids, into 'found' by start then stream: a
// merge of the tracks' rows (each by start), not a sort, written once into arrays of their final
// size (fresh pages cost a fault each, on some machines more than the merge itself).
void MergeRuns(const std::vector<TrackFindings>& perTrack, DeviceActivities& found,
               std::vector<int64_t>& correlations) {
    struct Head {
        const DeviceActivity* next;
        const DeviceActivity* end;
        const int64_t* correlation;
    };
    std::vector<Head> heads;
    size_t total = 0;
    for (const TrackFindings& findings : perTrack) {
        const size_t size = findings.activities.size();
        total += size;
        for (size_t r = 0; r < findings.rowStarts.size(); ++r) {
            const size_t begin = findings.rowStarts[r];
            const size_t end = r + 1 < findings.rowStarts.size() ? findings.rowStarts[r + 1] : size;
            if (begin < end)
                heads.push_back({findings.activities.data() + begin,
                                 findings.activities.data() + end,
                                 findings.correlations.data() + begin});
        }
    }
    const auto later = [](const Head& a, const Head& b) {
        if (a.next->startNs != b.next->startNs) return a.next->startNs > b.next->startNs;
        if (a.next->stream != b.next->stream) return a.next->stream > b.next->stream;
        return a.next > b.next;  // rows of one track in their order
    };
    std::make_heap(heads.begin(), heads.end(), later);
    found.activities.reserve(total);
    correlations.reserve(total);
    while (!heads.empty()) {
        std::pop_heap(heads.begin(), heads.end(), later);
        Head& head = heads.back();
        found.activities.push_back(*head.next++);
        correlations.push_back(*head.correlation++);
        if (head.next < head.end)
            std::push_heap(heads.begin(), heads.end(), later);
        else
            heads.pop_back();
    }
}

}  // namespace

DeviceActivities FindDeviceActivities(const TraceModel& model, unsigned threads) {
    DeviceActivities found;
    std::vector<char> isLaunchName(model.strings.size(), 0);
    for (std::string_view call : kLaunchCalls)
        if (StringId id = model.strings.Find(call)) isLaunchName[id] = 1;

    const uint32_t trackCount = static_cast<uint32_t>(model.tracks.size());
    std::vector<TrackRole> roles(trackCount);
    std::vector<uint32_t> streamOfTrack(trackCount, UINT32_MAX);
    for (uint32_t t = 0; t < trackCount; ++t) {
        roles[t] = RoleOf(model, t);
        if (IsStream(roles[t])) found.streams.push_back(MakeStream(model, t, roles[t]));
    }
    std::sort(
        found.streams.begin(), found.streams.end(),
        [&](const DeviceStream& a, const DeviceStream& b) { return StreamBefore(model, a, b); });
    for (uint32_t s = 0; s < found.streams.size(); ++s) streamOfTrack[found.streams[s].track] = s;

    std::vector<TrackFindings> perTrack(trackCount);
    std::vector<uint64_t> sizes(trackCount);
    for (uint32_t t = 0; t < trackCount; ++t)
        sizes[t] = IsStream(roles[t]) || IsLauncher(roles[t]) ? model.tracks[t].sliceCount : 0;
    const LoadTiming timing;
    ParallelFor(trackCount, threads, sizes, [&](size_t t) {
        const uint32_t track = static_cast<uint32_t>(t);
        if (streamOfTrack[track] != UINT32_MAX)
            ReadStreamTrack(model, track, roles[track], streamOfTrack[track], perTrack[track]);
        else if (IsLauncher(roles[track]))
            ReadLaunchTrack(model, track, roles[track], isLaunchName, perTrack[track]);
    });

    timing.Report("device activities: tracks read");
    // Activities by start then stream, their correlation ids beside them; the launch calls of
    // every track in one list, gathered on a thread of their own meanwhile.
    std::vector<LaunchCandidate> candidates;
    auto gatherLaunches = [&] {
        size_t candidateCount = 0;
        for (const TrackFindings& findings : perTrack) candidateCount += findings.launches.size();
        candidates.reserve(candidateCount);
        for (TrackFindings& findings : perTrack) {
            candidates.insert(candidates.end(), findings.launches.begin(), findings.launches.end());
            findings.launches = {};
        }
    };
    std::thread gatherer;
    if (threads > 1)
        gatherer = std::thread(gatherLaunches);
    else
        gatherLaunches();
    std::vector<int64_t> correlations;
    MergeRuns(perTrack, found, correlations);
    if (gatherer.joinable()) gatherer.join();
    perTrack = {};
    timing.Report("device activities: merged by start");
    PairLaunches(candidates, correlations, found);
    timing.Report("device activities: launches paired");

    if (found.activities.empty())
        found.unavailable = found.streams.empty()
                                ? "the trace holds no device stream (no GPU kernel, copy or fill, "
                                  "no Ascend Hardware task)"
                                : "the device streams hold no kernel, copy, fill or task";
    return found;
}

StepFinder::StepFinder(const std::vector<StepWindow>& steps) : m_steps(steps) {
    m_order.resize(steps.size());
    for (uint32_t i = 0; i < m_order.size(); ++i) m_order[i] = i;
    std::sort(m_order.begin(), m_order.end(), [&](uint32_t a, uint32_t b) {
        if (steps[a].group != steps[b].group) return steps[a].group < steps[b].group;
        return steps[a].startNs < steps[b].startNs;
    });
}

uint32_t StepFinder::Holding(uint32_t group, TimeNs time) const {
    auto it = std::upper_bound(m_order.begin(), m_order.end(), std::pair{group, time},
                               [&](const std::pair<uint32_t, TimeNs>& key, uint32_t step) {
                                   return key.first != m_steps[step].group
                                              ? key.first < m_steps[step].group
                                              : key.second < m_steps[step].startNs;
                               });
    if (it == m_order.begin()) return kNoStep;
    const StepWindow& step = m_steps[*(it - 1)];
    return step.group == group && time < step.endNs ? *(it - 1) : kNoStep;
}

void AssignSteps(DeviceActivities& activities, const std::vector<StepWindow>& steps,
                 unsigned threads) {
    const StepFinder finder(steps);
    // Millions of lookups, each independent: in equal parts on the threads.
    std::vector<DeviceActivity>& all = activities.activities;
    const size_t parts = std::max<size_t>(1, std::min<size_t>(threads, all.size() / 65536));
    ParallelFor(parts, static_cast<unsigned>(parts), std::vector<uint64_t>(parts, 1),
                [&](size_t p) {
                    const size_t begin = all.size() * p / parts, end = all.size() * (p + 1) / parts;
                    for (size_t i = begin; i < end; ++i) {
                        DeviceActivity& activity = all[i];
                        const uint32_t group = activities.streams[activity.stream].group;
                        const TimeNs time =
                            activity.launch != kNoLaunch
                                ? activities.launches[static_cast<size_t>(activity.launch)].startNs
                                : activity.startNs;
                        activity.step = finder.Holding(group, time);
                    }
                });
}

}  // namespace marey
