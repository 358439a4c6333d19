#include "import/TrackRoles.hpp"

#include <optional>
#include <string_view>

#include "trace/ActivityClass.hpp"

namespace marey {
namespace {

std::optional<TrackRole> AscendProcessRole(std::string_view process) {
    if (process == "Ascend Hardware") return TrackRole::kNpuStream;
    if (process == "CANN") return TrackRole::kNpuLaunchThread;
    if (process == "HCCL") return TrackRole::kCommunicationPlane;
    if (process == "Overlap Analysis") return TrackRole::kOverlapAnalysis;
    return std::nullopt;
}

// The reference of the track's first slice by start, or nullopt when it has none.
std::optional<uint64_t> FirstSliceRef(const Track& track) {
    std::optional<uint64_t> first;
    TimeNs firstStart = 0;
    for (const Row& row : track.rows) {
        if (row.size() == 0) continue;
        if (!first || row.start[0] < firstStart) first = row.Ref(0), firstStart = row.start[0];
    }
    return first;
}

}  // namespace

void AssignTrackRoles(TraceModel& model) {
    for (uint32_t t = 0; t < model.tracks.size(); ++t) {
        Track& track = model.tracks[t];
        track.role = TrackRole::kOther;
        // Tracks of processes left out of the model (metadata only) belong to no process.
        if (track.kind != TrackKind::kThread || track.process >= model.processes.size()) continue;
        const std::string_view process = model.Name(model.processes[track.process].name);
        if (std::optional<TrackRole> ascend = AscendProcessRole(process)) {
            track.role = *ascend;
            continue;
        }
        const std::optional<uint64_t> first = FirstSliceRef(track);
        if (!first) continue;
        size_t hint = 0;
        const ActivityFields fields = model.SourceOf(t).FieldsAt(*first, hint);
        track.role = IsDeviceStreamCategory(fields.category) ? TrackRole::kDeviceStream
                                                             : TrackRole::kHostThread;
    }
}

}  // namespace marey
