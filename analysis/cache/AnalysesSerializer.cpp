#include "cache/AnalysesSerializer.hpp"

#include <array>
#include <string>
#include <vector>

#include "cache/Checksum.hpp"

namespace marey {

// An analysis struct that changed size has a field the cache does not keep yet: write and read
// it below, then bump kAnalysesCacheVersion and these sizes.
static_assert(sizeof(DeviceActivity) == 48, "cache the new field and bump kAnalysesCacheVersion");
static_assert(sizeof(HostLaunch) == 32, "cache the new field and bump kAnalysesCacheVersion");
static_assert(sizeof(DeviceStream) == 56, "cache the new field and bump kAnalysesCacheVersion");
static_assert(sizeof(DeviceTime) == 160, "cache the new field and bump kAnalysesCacheVersion");
static_assert(sizeof(ActivityFigures) == 272, "cache the new field and bump kAnalysesCacheVersion");
static_assert(sizeof(RankTraceAnalysis) == 352,
              "cache the new field and bump kAnalysesCacheVersion");
// (TraceAnalyses::fromIndexCache is not kept: the reader sets it.)
static_assert(sizeof(TraceAnalyses) == 224, "cache the new field and bump kAnalysesCacheVersion");

namespace {

// Marks the end of the payload: a reader that gets here in step read every record in order.
constexpr uint64_t kEndMark = 0x444E4553594C414Eull;  // "NALYSEND"

// [SECTION] Writing

// The records below have padding: written field by field (CacheFileWriter::WriteArrayOfFields).
void WriteClassSets(CacheFileWriter& out, const std::vector<ClassSetTime>& sets) {
    out.WriteArrayOfFields<ClassSetTime>(
        sets.size(), [&](size_t first, size_t n, ClassSetTime* to) {
            for (size_t i = 0; i < n; ++i)
                to[i].classes = sets[first + i].classes, to[i].ns = sets[first + i].ns;
        });
}

void WriteIdle(CacheFileWriter& out, const std::vector<StreamIdle>& idle) {
    out.WriteArrayOfFields<StreamIdle>(idle.size(), [&](size_t first, size_t n, StreamIdle* to) {
        for (size_t i = 0; i < n; ++i)
            to[i].stream = idle[first + i].stream, to[i].gaps = idle[first + i].gaps;
    });
}

void WriteSamples(CacheFileWriter& out, const std::vector<QueueSample>& samples) {
    out.WriteArrayOfFields<QueueSample>(
        samples.size(), [&](size_t first, size_t n, QueueSample* to) {
            for (size_t i = 0; i < n; ++i)
                to[i].time = samples[first + i].time, to[i].depth = samples[first + i].depth;
        });
}

void WriteDeviceActivities(CacheFileWriter& out, const std::vector<DeviceActivity>& all) {
    out.WriteArrayOfFields<DeviceActivity>(
        all.size(), [&](size_t first, size_t n, DeviceActivity* to) {
            for (size_t i = 0; i < n; ++i) {
                const DeviceActivity& from = all[first + i];
                to[i].startNs = from.startNs, to[i].endNs = from.endNs, to[i].name = from.name;
                to[i].stream = from.stream, to[i].kind.activityClass = from.kind.activityClass;
                to[i].kind.memory = from.kind.memory, to[i].launch = from.launch;
                to[i].step = from.step, to[i].slice = from.slice;
            }
        });
}

void WriteGaps(CacheFileWriter& out, const std::vector<IdleGap>& gaps) {
    out.WriteArrayOfFields<IdleGap>(gaps.size(), [&](size_t first, size_t n, IdleGap* to) {
        for (size_t i = 0; i < n; ++i) {
            const IdleGap& from = gaps[first + i];
            to[i].startNs = from.startNs, to[i].endNs = from.endNs;
            to[i].stream = from.stream, to[i].kind = from.kind;
        }
    });
}

void WriteFigures(CacheFileWriter& out, const ActivityFigures& figures) {
    const DeviceTime& time = figures.time;
    out.WriteFlag(time.any);
    out.WriteValue(time.temporal);
    out.WriteValue(time.busyNs);
    WriteClassSets(out, time.classSets);
    out.WriteValue(time.communicationNs);
    out.WriteValue(time.overlappedNs);
    for (const std::vector<TimeRange>& ranges : time.unions)
        out.WriteArray(ranges.data(), ranges.size());
    WriteIdle(out, figures.idle);
    out.WriteValue(figures.launch);
    out.WriteValue<uint64_t>(figures.queue.size());
    for (const StreamQueue& queue : figures.queue) {
        out.WriteValue(queue.stream);
        out.WriteValue(queue.mean);
        out.WriteValue(queue.max);
        WriteSamples(out, queue.samples);
    }
}

void WriteActivities(CacheFileWriter& out, const DeviceActivities& activities) {
    out.WriteValue<uint64_t>(activities.streams.size());
    for (const DeviceStream& stream : activities.streams) {
        out.WriteValue(stream.track);
        out.WriteValue(stream.group);
        out.WriteValue(stream.device);
        out.WriteString(stream.label);
        out.WriteFlag(stream.ascend);
    }
    WriteDeviceActivities(out, activities.activities);
    out.WriteArray(activities.launches.data(), activities.launches.size());
    out.WriteValue(activities.activitiesWithCorrelation);
    out.WriteString(activities.unavailable);
}

// [SECTION] Reading, each index checked

// What the records read must point into.
struct Bounds {
    const TraceModel& model;
    size_t streams = 0, launches = 0, steps = 0;
};

// False, with the reason, when 'ok' is not.
bool Check(CacheFileReader& in, bool ok, const char* what) {
    if (!ok) in.Refuse(std::string("it is damaged: ") + what);
    return ok;
}

bool ValidGroup(const TraceModel& model, uint32_t group) {
    return group == kNoGroup || group < model.groups.size();
}

bool ValidSlice(const TraceModel& model, const SliceAddress& slice) {
    return slice.track < model.tracks.size() && slice.row < model.tracks[slice.track].rows.size() &&
           slice.index < model.tracks[slice.track].rows[slice.row].size();
}

bool ReadFigures(CacheFileReader& in, const Bounds& bounds, ActivityFigures& figures) {
    DeviceTime& time = figures.time;
    if (!in.ReadFlag(time.any) || !in.ReadValue(time.temporal) || !in.ReadValue(time.busyNs) ||
        !in.ReadArray(time.classSets) || !in.ReadValue(time.communicationNs) ||
        !in.ReadValue(time.overlappedNs))
        return false;
    for (const ClassSetTime& set : time.classSets)
        if (!Check(in, set.classes < (1u << kActivityClassCount), "an unknown class set"))
            return false;
    for (std::vector<TimeRange>& ranges : time.unions)
        if (!in.ReadArray(ranges)) return false;
    if (!in.ReadArray(figures.idle) || !in.ReadValue(figures.launch)) return false;
    for (const StreamIdle& idle : figures.idle)
        if (!Check(in, idle.stream < bounds.streams, "an idle stream out of range")) return false;
    uint64_t queues = 0;
    if (!in.ReadValue(queues)) return false;
    // Records are added as they are read, so that a damaged count runs out of payload instead
    // of allocating what it says.
    for (uint64_t i = 0; i < queues; ++i) {
        StreamQueue& queue = figures.queue.emplace_back();
        if (!in.ReadValue(queue.stream) || !in.ReadValue(queue.mean) || !in.ReadValue(queue.max) ||
            !in.ReadArray(queue.samples) ||
            !Check(in, queue.stream < bounds.streams, "a queue's stream out of range"))
            return false;
    }
    return true;
}

bool ReadActivities(CacheFileReader& in, const TraceModel& model, DeviceActivities& activities) {
    uint64_t streams = 0;
    if (!in.ReadValue(streams)) return false;
    for (uint64_t i = 0; i < streams; ++i) {
        DeviceStream& stream = activities.streams.emplace_back();
        if (!in.ReadValue(stream.track) || !in.ReadValue(stream.group) ||
            !in.ReadValue(stream.device) || !in.ReadString(stream.label) ||
            !in.ReadFlag(stream.ascend) ||
            !Check(in, stream.track < model.tracks.size() && ValidGroup(model, stream.group),
                   "a stream's track or rank out of range"))
            return false;
    }
    return in.ReadArray(activities.activities) && in.ReadArray(activities.launches) &&
           in.ReadValue(activities.activitiesWithCorrelation) &&
           in.ReadString(activities.unavailable);
}

// Every activity and launch points at a slice, a string, a stream, a launch and a step that
// are there, and its kind is one that exists.
bool CheckActivities(CacheFileReader& in, const Bounds& bounds,
                     const DeviceActivities& activities) {
    const TraceModel& model = bounds.model;
    for (const DeviceActivity& activity : activities.activities) {
        const bool valid =
            activity.name < model.strings.size() && activity.stream < bounds.streams &&
            static_cast<unsigned>(activity.kind.activityClass) < kActivityClassCount &&
            activity.kind.memory <= MemoryKind::kSet &&
            (activity.launch == kNoLaunch ||
             (activity.launch >= 0 && static_cast<size_t>(activity.launch) < bounds.launches)) &&
            (activity.step == kNoStep || activity.step < bounds.steps) &&
            ValidSlice(model, activity.slice);
        if (!Check(in, valid, "a device activity points past the model")) return false;
    }
    for (const HostLaunch& launch : activities.launches)
        if (!Check(in, launch.name < model.strings.size() && ValidSlice(model, launch.slice),
                   "a launch points past the model"))
            return false;
    return true;
}

bool ReadRanks(CacheFileReader& in, const Bounds& bounds, std::vector<RankTraceAnalysis>& ranks) {
    uint64_t count = 0;
    if (!in.ReadValue(count)) return false;
    for (uint64_t r = 0; r < count; ++r) {
        RankTraceAnalysis& rank = ranks.emplace_back();
        uint8_t from = 0;
        uint64_t steps = 0;
        if (!in.ReadValue(rank.group) || !in.ReadValue(rank.rank) || !in.ReadValue(from) ||
            !in.ReadString(rank.unavailable) || !ReadFigures(in, bounds, rank.all) ||
            !in.ReadValue(steps) ||
            !Check(in, ValidGroup(bounds.model, rank.group), "a rank out of range") ||
            !Check(in, from <= static_cast<uint8_t>(RankIdSource::kCudaDevice),
                   "an unknown source of a rank id"))
            return false;
        rank.rankFrom = static_cast<RankIdSource>(from);
        for (uint64_t s = 0; s < steps; ++s) {
            StepFigures& step = rank.steps.emplace_back();
            if (!in.ReadString(step.step) || !ReadFigures(in, bounds, step.figures) ||
                !in.ReadValue(step.window) ||
                !Check(in, step.window < bounds.steps, "a step's window out of range"))
                return false;
        }
    }
    return true;
}

}  // namespace

// [SECTION] The analyses

CacheFormat AnalysesCacheFormat() {
    // The raw records the payload holds, and the byte order: a build where any differs reads
    // none of this one's files.
    const std::array<uint64_t, 9> layout{
        sizeof(DeviceActivity), sizeof(HostLaunch), sizeof(TemporalBreakdown),
        sizeof(ClassSetTime),   sizeof(StreamIdle), sizeof(LaunchSummary),
        sizeof(QueueSample),    sizeof(IdleGap),    0x0102030405060708ull};
    const uint64_t hash =
        HashBytes(std::string_view(reinterpret_cast<const char*>(layout.data()), sizeof layout));
    return {kAnalysesCacheVersion, static_cast<uint32_t>(hash)};
}

void SerializeAnalyses(const TraceAnalyses& analyses, CacheFileWriter& out) {
    out.WriteValue(analyses.options.kernelWaitBelowNs);
    out.WriteValue(analyses.options.cutoffs);
    WriteActivities(out, analyses.activities);
    out.WriteValue<uint64_t>(analyses.steps.size());
    for (const StepWindow& step : analyses.steps) {
        out.WriteString(step.label);
        out.WriteValue(step.startNs);
        out.WriteValue(step.endNs);
        out.WriteValue(step.group);
    }
    out.WriteValue<uint64_t>(analyses.ranks.size());
    for (const RankTraceAnalysis& rank : analyses.ranks) {
        out.WriteValue(rank.group);
        out.WriteValue(rank.rank);
        out.WriteValue(static_cast<uint8_t>(rank.rankFrom));
        out.WriteString(rank.unavailable);
        WriteFigures(out, rank.all);
        out.WriteValue<uint64_t>(rank.steps.size());
        for (const StepFigures& step : rank.steps) {
            out.WriteString(step.step);
            WriteFigures(out, step.figures);
            out.WriteValue(step.window);
        }
    }
    WriteGaps(out, analyses.gaps);
    out.WriteValue(kEndMark);
}

Status DeserializeAnalyses(CacheFileReader& in, const TraceModel& model, TraceAnalyses& analyses) {
    Bounds bounds{model};
    uint64_t steps = 0;
    bool read = in.ReadValue(analyses.options.kernelWaitBelowNs) &&
                in.ReadValue(analyses.options.cutoffs) &&
                ReadActivities(in, model, analyses.activities) && in.ReadValue(steps);
    for (uint64_t s = 0; read && s < steps; ++s) {
        StepWindow& step = analyses.steps.emplace_back();
        read = in.ReadString(step.label) && in.ReadValue(step.startNs) &&
               in.ReadValue(step.endNs) && in.ReadValue(step.group) &&
               Check(in, ValidGroup(model, step.group), "a step's rank out of range");
    }
    bounds.streams = analyses.activities.streams.size();
    bounds.launches = analyses.activities.launches.size();
    bounds.steps = analyses.steps.size();
    read = read && CheckActivities(in, bounds, analyses.activities) &&
           ReadRanks(in, bounds, analyses.ranks) && in.ReadArray(analyses.gaps);
    for (size_t g = 0; read && g < analyses.gaps.size(); ++g) {
        const IdleGap& gap = analyses.gaps[g];
        read = Check(in, gap.stream < bounds.streams && gap.kind <= GapKind::kOther,
                     "an idle gap out of range");
    }
    uint64_t end = 0;
    if (read && in.ReadValue(end) && end != kEndMark)
        in.Refuse("it is damaged: its records do not end where they should");
    return in.Finish();
}

}  // namespace marey
