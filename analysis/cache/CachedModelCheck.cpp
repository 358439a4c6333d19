#include "cache/CachedModelCheck.hpp"

#include <algorithm>
#include <string>

namespace marey {
namespace {

// Plain loops over the arrays, which the compiler turns into vector code: the check adds a few
// milliseconds to a read of hundreds of megabytes.
template <typename T>
T Largest(const PodArray<T>& values) {
    T largest{};
    for (const T value : values) largest = std::max(largest, value);
    return largest;
}

uint64_t LargestRef(const Row& row) {
    if (row.refHigh.empty()) return Largest(row.refLow);
    uint64_t largest = 0;
    for (size_t i = 0; i < row.size(); ++i) largest = std::max(largest, row.Ref(i));
    return largest;
}

Status Damaged(const std::string& what) {
    return Status::Error("it is damaged: " + what);
}

Status CheckRow(const Row& row, size_t strings, uint64_t textBytes) {
    const size_t n = row.size();
    if (row.end.size() != n || row.name.size() != n || row.refLow.size() != n ||
        (!row.refHigh.empty() && row.refHigh.size() != n))
        return Damaged("a row's arrays differ in length");
    if (n == 0) return Status();
    if (Largest(row.name) >= strings) return Damaged("a slice's name is not in the string pool");
    if (LargestRef(row) >= textBytes) return Damaged("a slice points past the end of the trace");
    for (const OverviewItem& item : row.overview)
        if (item.first > n || item.count > n - item.first)
            return Damaged("a row's level of detail points past the row");
    return Status();
}

Status CheckTrack(const Track& track, const TraceModel& model, uint64_t textBytes) {
    const size_t strings = model.strings.size();
    // A thread of a process that has no events is in no process: UINT32_MAX.
    if (track.process >= model.processes.size() && track.process != UINT32_MAX)
        return Damaged("a track belongs to a process that is not there");
    if (track.tid.text >= strings || track.name >= strings || track.counterKey >= strings)
        return Damaged("a track's name is not in the string pool");
    for (const Row& row : track.rows)
        if (Status status = CheckRow(row, strings, textBytes); !status.ok()) return status;
    const size_t instants = track.instantTs.size();
    if (track.instantName.size() != instants || track.instantRef.size() != instants)
        return Damaged("a track's instants differ in length");
    if (instants > 0 &&
        (Largest(track.instantName) >= strings || Largest(track.instantRef) >= textBytes))
        return Damaged("an instant points out of range");
    if (track.counterValue.size() != track.counterTs.size())
        return Damaged("a counter's times and values differ in length");
    return Status();
}

Status CheckFlows(const TraceModel& model, uint64_t textBytes) {
    for (const FlowOrigin& origin : model.flowOrigins)
        if (origin.track >= model.tracks.size() || origin.category >= model.strings.size())
            return Damaged("a flow origin points out of range");
    const uint64_t origins = model.flowOrigins.size();
    for (const Flow& flow : model.flows)
        if (flow.fromOrigin >= origins || flow.toOrigin >= origins || flow.fromRef >= textBytes ||
            flow.toRef >= textBytes)
            return Damaged("a flow points out of range");
    return Status();
}

}  // namespace

Status CheckCachedModel(const TraceModel& model) {
    if (model.sources.size() != 1 || !model.groups.empty())
        return Damaged("a model of one file has one source and no groups");
    const uint64_t textBytes = model.sources.front().text.size();
    const size_t strings = model.strings.size();
    for (const Process& process : model.processes) {
        if (process.pid.text >= strings || process.name >= strings || process.labels >= strings)
            return Damaged("a process's name is not in the string pool");
        if (process.group != kNoGroup) return Damaged("a process of one file is in a group");
        for (const uint32_t track : process.tracks)
            if (track >= model.tracks.size()) return Damaged("a process lists a missing track");
    }
    for (const Track& track : model.tracks)
        if (Status status = CheckTrack(track, model, textBytes); !status.ok()) return status;
    if (Status status = CheckFlows(model, textBytes); !status.ok()) return status;
    for (const UnfinishedSlice& slice : model.unfinished)
        if (slice.track >= model.tracks.size() ||
            slice.row >= model.tracks[slice.track].rows.size() ||
            slice.index >= model.tracks[slice.track].rows[slice.row].size())
            return Damaged("an unfinished slice is not in its row");
    return Status();
}

}  // namespace marey
