#include "model/TraceModel.hpp"

#include <algorithm>

#include "load/EventFields.hpp"

namespace marey {

const char* TrackRoleName(TrackRole role) {
    switch (role) {
        case TrackRole::kOther:
            return "other";
        case TrackRole::kHostThread:
            return "host thread";
        case TrackRole::kDeviceStream:
            return "device stream";
        case TrackRole::kNpuStream:
            return "NPU stream";
        case TrackRole::kNpuLaunchThread:
            return "NPU launch thread";
        case TrackRole::kCommunicationPlane:
            return "communication plane";
        case TrackRole::kOverlapAnalysis:
            return "overlap analysis";
    }
    return "other";
}

ActivityFields TraceSource::FieldsAt(uint64_t ref, size_t& hint) const {
    if (std::optional<ActivityFields> kept = sliceFields.Find(ref, hint)) return *kept;
    // Only a JSON text can be read at a slice's reference: a CSV's refs are rows, a database's
    // name a table and rowid.
    if (format != SourceFormat::kChromeJson || text.size() == 0) return {};
    return ReadActivityFields(text, ref);
}

std::string EntityText(const EntityId& id, const StringPool& strings) {
    return id.text ? std::string(strings.Get(id.text)) : std::to_string(id.number);
}

std::string TraceModel::ProcessLabel(uint32_t process) const {
    const Process& p = processes[process];
    const std::string pid = EntityText(p.pid, strings);
    if (p.name == 0) return "Process " + pid;
    return std::string(strings.Get(p.name)) + " (" + pid + ")";
}

std::string TraceModel::ProcessLabelWithRank(uint32_t process) const {
    const uint32_t group = processes[process].group;
    return group == kNoGroup ? ProcessLabel(process)
                             : groups[group].label + " · " + ProcessLabel(process);
}

std::string TraceModel::TrackLabel(uint32_t track) const {
    const Track& t = tracks[track];
    switch (t.kind) {
        case TrackKind::kAsync:
            return "Async events";
        case TrackKind::kCounter: {
            std::string label(strings.Get(t.name));
            const std::string_view key = strings.Get(t.counterKey);
            if (!key.empty() && key != "value" && key != label) label += " · " + std::string(key);
            return label;
        }
        case TrackKind::kThread:
            break;
    }
    if (t.name != 0) return std::string(strings.Get(t.name));
    return "Thread " + EntityText(t.tid, strings);
}

const TraceSource& TraceModel::SourceOf(uint32_t track) const {
    const uint32_t group = GroupOf(track);
    return sources[group == kNoGroup ? 0 : group];
}

const std::string& TraceModel::Path() const {
    static const std::string kNone;
    return groups.empty() && sources.size() == 1 ? sources.front().path : kNone;
}

bool TraceModel::IsUnfinished(uint32_t track, uint32_t row, uint32_t index) const {
    return std::binary_search(unfinished.begin(), unfinished.end(),
                              UnfinishedSlice{track, row, index});
}

}  // namespace marey
