#include "cache/ModelSerializer.hpp"

#include <array>
#include <string>
#include <vector>

#include "cache/CachedModelCheck.hpp"

namespace marey {

// A model struct that changed size has a field the cache does not keep yet: write and read it
// below, then bump kModelCacheVersion and these sizes.
static_assert(sizeof(Row) == 256, "Row changed: cache it here and bump kModelCacheVersion");
static_assert(sizeof(Track) == 296, "Track changed: cache it here and bump kModelCacheVersion");
static_assert(sizeof(Process) == 72, "Process changed: cache it and bump kModelCacheVersion");
static_assert(sizeof(ImportReport) == 1112,
              "ImportReport changed: cache it here and bump kModelCacheVersion");
// TraceModel::recordedColors is filled by Nsight Systems exports only, which are never cached (the
// index cache keeps JSON traces): a cached model has none to keep.
static_assert(sizeof(TraceModel) == 1512,
              "TraceModel changed: cache it here and bump kModelCacheVersion");

namespace {

// Marks the end of the payload: a reader that gets here in step read every record in order.
constexpr uint64_t kEndMark = 0x444E454C45444F4Dull;  // "MODELEND"

// [SECTION] Writing

void WriteEntity(CacheFileWriter& out, const EntityId& id) {
    out.WriteValue(id.number);
    out.WriteValue(id.text);
}

template <typename T>
void WritePod(CacheFileWriter& out, const PodArray<T>& array) {
    out.WriteArray(array.data(), array.size());
}

void WriteStrings(CacheFileWriter& out, const StringPool& strings) {
    std::vector<uint32_t> lengths;
    std::string bytes;
    lengths.reserve(strings.size());
    for (StringId id = 1; id < strings.size(); ++id) {
        lengths.push_back(static_cast<uint32_t>(strings.Get(id).size()));
        bytes += strings.Get(id);
    }
    out.WriteArray(lengths.data(), lengths.size());
    out.WriteString(bytes);
}

// A short list of strings (a slice field table's task types), each as its own record.
void WriteStringList(CacheFileWriter& out, const std::vector<std::string>& list) {
    out.WriteValue(static_cast<uint64_t>(list.size()));
    for (const std::string& text : list) out.WriteString(text);
}

void WriteProcess(CacheFileWriter& out, const Process& process) {
    WriteEntity(out, process.pid);
    out.WriteValue(process.name);
    out.WriteValue(process.labels);
    out.WriteValue(process.sortIndex);
    out.WriteFlag(process.hasSortIndex);
    out.WriteValue(process.group);
    out.WriteArray(process.tracks.data(), process.tracks.size());
}

void WriteRow(CacheFileWriter& out, const Row& row) {
    out.WriteValue(row.kind);
    out.WriteValue(row.depth);
    out.WriteValue(row.overviewResolutionNs);
    WritePod(out, row.start);
    WritePod(out, row.end);
    WritePod(out, row.name);
    WritePod(out, row.refLow);
    WritePod(out, row.refHigh);
    WritePod(out, row.overview);
}

void WriteTrack(CacheFileWriter& out, const Track& track) {
    out.WriteValue(track.kind);
    out.WriteValue(track.process);
    WriteEntity(out, track.tid);
    out.WriteValue(track.name);
    out.WriteValue(track.sortIndex);
    out.WriteFlag(track.hasSortIndex);
    out.WriteValue(track.role);
    out.WriteValue(track.sliceCount);
    out.WriteValue(track.overlapSliceCount);
    out.WriteValue(track.counterKey);
    out.WriteValue<uint64_t>(track.rows.size());
    for (const Row& row : track.rows) WriteRow(out, row);
    WritePod(out, track.instantTs);
    WritePod(out, track.instantName);
    WritePod(out, track.instantRef);
    WritePod(out, track.counterTs);
    WritePod(out, track.counterValue);
}

void WriteReport(CacheFileWriter& out, const ImportReport& report) {
    out.WriteValue(report.eventCount);
    out.WriteValue(report.phases.byChar);
    out.WriteValue(report.phases.other);
    out.WriteValue(report.problemCount);
    out.WriteValue<uint64_t>(report.problems.size());
    for (const ImportProblem& problem : report.problems) {
        out.WriteValue(problem.byteOffset);
        out.WriteValue(problem.line);
        out.WriteValue(problem.column);
        out.WriteString(problem.message);
    }
    out.WriteValue(report.matchedFlows);
    out.WriteValue(report.unmatchedFlowEvents);
    out.WriteValue(report.unmatchedBegins);
    out.WriteValue(report.unmatchedEnds);
    out.WriteFlag(report.truncated);
}

// [SECTION] Reading

// Each returns false once the reader has refused the payload (it keeps the reason).

bool ReadEntity(CacheFileReader& in, EntityId& id) {
    return in.ReadValue(id.number) && in.ReadValue(id.text);
}

// An enum stored as its byte; a value past 'last' is damage.
template <typename Enum>
bool ReadEnum(CacheFileReader& in, Enum& value, Enum last) {
    uint8_t byte = 0;
    if (!in.ReadValue(byte)) return false;
    if (byte > static_cast<uint8_t>(last)) {
        in.Refuse("it is damaged: an unknown kind " + std::to_string(byte));
        return false;
    }
    value = static_cast<Enum>(byte);
    return true;
}

bool ReadStringList(CacheFileReader& in, std::vector<std::string>& list) {
    uint64_t count = 0;
    if (!in.ReadCount<uint64_t>(count)) return false;
    list.resize(count);
    for (std::string& text : list)
        if (!in.ReadString(text)) return false;
    return true;
}

bool ReadStrings(CacheFileReader& in, StringPool& strings) {
    std::vector<uint32_t> lengths;
    std::string bytes;
    if (!in.ReadArray(lengths) || !in.ReadString(bytes)) return false;
    size_t at = 0;
    for (const uint32_t length : lengths) {
        if (length == 0 || length > bytes.size() - at) {
            in.Refuse("it is damaged: its strings do not add up");
            return false;
        }
        const StringId expected = static_cast<StringId>(strings.size());
        if (strings.Intern(std::string_view(bytes).substr(at, length)) != expected) {
            in.Refuse("it is damaged: a string is there twice");
            return false;
        }
        at += length;
    }
    if (at == bytes.size()) return true;
    in.Refuse("it is damaged: its strings do not add up");
    return false;
}

bool ReadProcess(CacheFileReader& in, Process& process) {
    return ReadEntity(in, process.pid) && in.ReadValue(process.name) &&
           in.ReadValue(process.labels) && in.ReadValue(process.sortIndex) &&
           in.ReadFlag(process.hasSortIndex) && in.ReadValue(process.group) &&
           in.ReadArray(process.tracks);
}

bool ReadRow(CacheFileReader& in, Row& row) {
    return ReadEnum(in, row.kind, RowKind::kAsync) && in.ReadValue(row.depth) &&
           in.ReadValue(row.overviewResolutionNs) && in.ReadArray(row.start) &&
           in.ReadArray(row.end) && in.ReadArray(row.name) && in.ReadArray(row.refLow) &&
           in.ReadArray(row.refHigh) && in.ReadArray(row.overview);
}

bool ReadTrack(CacheFileReader& in, Track& track) {
    uint64_t rows = 0;
    if (!ReadEnum(in, track.kind, TrackKind::kCounter) || !in.ReadValue(track.process) ||
        !ReadEntity(in, track.tid) || !in.ReadValue(track.name) || !in.ReadValue(track.sortIndex) ||
        !in.ReadFlag(track.hasSortIndex) || !ReadEnum(in, track.role, kLastTrackRole) ||
        !in.ReadValue(track.sliceCount) || !in.ReadValue(track.overlapSliceCount) ||
        !in.ReadValue(track.counterKey) || !in.ReadValue(rows))
        return false;
    // Records are added as they are read, so that a damaged count runs out of payload instead
    // of allocating what it says.
    for (uint64_t i = 0; i < rows; ++i)
        if (!ReadRow(in, track.rows.emplace_back())) return false;
    return in.ReadArray(track.instantTs) && in.ReadArray(track.instantName) &&
           in.ReadArray(track.instantRef) && in.ReadArray(track.counterTs) &&
           in.ReadArray(track.counterValue);
}

bool ReadReport(CacheFileReader& in, ImportReport& report) {
    uint64_t problems = 0;
    if (!in.ReadValue(report.eventCount) || !in.ReadValue(report.phases.byChar) ||
        !in.ReadValue(report.phases.other) || !in.ReadValue(report.problemCount) ||
        !in.ReadValue(problems))
        return false;
    for (uint64_t i = 0; i < problems; ++i) {
        ImportProblem& problem = report.problems.emplace_back();
        if (!in.ReadValue(problem.byteOffset) || !in.ReadValue(problem.line) ||
            !in.ReadValue(problem.column) || !in.ReadString(problem.message))
            return false;
    }
    return in.ReadValue(report.matchedFlows) && in.ReadValue(report.unmatchedFlowEvents) &&
           in.ReadValue(report.unmatchedBegins) && in.ReadValue(report.unmatchedEnds) &&
           in.ReadFlag(report.truncated);
}

}  // namespace

// [SECTION] The model

CacheFormat ModelCacheFormat() {
    // The raw records the payload holds, and the byte order: a build where any differs reads
    // none of this one's files.
    const std::array<uint64_t, 8> layout{
        sizeof(Flow),        sizeof(OverviewItem), sizeof(UnfinishedSlice), sizeof(FlowOrigin),
        sizeof(PhaseCounts), sizeof(TimeNs),       sizeof(StringId),        0x0102030405060708ull};
    const uint64_t hash =
        HashBytes(std::string_view(reinterpret_cast<const char*>(layout.data()), sizeof layout));
    return {kModelCacheVersion, static_cast<uint32_t>(hash)};
}

void SerializeModel(const TraceModel& model, CacheFileWriter& out) {
    out.WriteValue<uint64_t>(model.sources.front().text.size());
    WriteStrings(out, model.strings);
    out.WriteValue<uint64_t>(model.processes.size());
    for (const Process& process : model.processes) WriteProcess(out, process);
    out.WriteValue<uint64_t>(model.tracks.size());
    for (const Track& track : model.tracks) WriteTrack(out, track);
    WritePod(out, model.flows);
    out.WriteArray(model.flowOrigins.data(), model.flowOrigins.size());
    WriteReport(out, model.report);
    out.WriteValue(model.firstNs);
    out.WriteValue(model.lastNs);
    out.WriteValue(model.sliceCount);
    out.WriteValue(model.instantCount);
    out.WriteValue(model.counterSampleCount);
    out.WriteArray(model.unfinished.data(), model.unfinished.size());
    WritePod(out, model.sources.front().sliceFields.RefsAndCodes());
    WritePod(out, model.sources.front().sliceFields.Correlations());
    WriteStringList(out, model.sources.front().sliceFields.TaskTypes());
    out.WriteValue(kEndMark);
}

Status DeserializeModel(CacheFileReader& in, TraceModel& model) {
    uint64_t textBytes = 0, processes = 0, tracks = 0, endMark = 0;
    if (in.ReadValue(textBytes) && textBytes != model.sources.front().text.size())
        in.Refuse("the trace's text is " + std::to_string(model.sources.front().text.size()) +
                  " bytes, it was " + std::to_string(textBytes));
    bool read = ReadStrings(in, model.strings) && in.ReadValue(processes);
    for (uint64_t i = 0; read && i < processes; ++i)
        read = ReadProcess(in, model.processes.emplace_back());
    read = read && in.ReadValue(tracks);
    for (uint64_t i = 0; read && i < tracks; ++i) read = ReadTrack(in, model.tracks.emplace_back());
    read = read && in.ReadArray(model.flows) && in.ReadArray(model.flowOrigins) &&
           ReadReport(in, model.report) && in.ReadValue(model.firstNs) &&
           in.ReadValue(model.lastNs) && in.ReadValue(model.sliceCount) &&
           in.ReadValue(model.instantCount) && in.ReadValue(model.counterSampleCount) &&
           in.ReadArray(model.unfinished);
    PodArray<uint64_t> fieldOffsets;
    PodArray<int64_t> fieldCorrelations;
    std::vector<std::string> taskTypes;
    read = read && in.ReadArray(fieldOffsets) && in.ReadArray(fieldCorrelations) &&
           ReadStringList(in, taskTypes) && in.ReadValue(endMark);
    if (read && endMark != kEndMark) in.Refuse("it is damaged: its last record is not the end");
    if (read) {
        auto fields = SliceFieldTable::FromArrays(
            std::move(fieldOffsets), std::move(fieldCorrelations), std::move(taskTypes));
        if (fields)
            model.sources.front().sliceFields = std::move(*fields);
        else
            in.Refuse("it is damaged: its table of device event fields is not in order");
    }
    if (Status finished = in.Finish(); !finished.ok()) return finished;
    return CheckCachedModel(model);
}

}  // namespace marey
