#pragma once
// The loaded trace: processes ► tracks ► rows of non-overlapping slices, as struct-of-arrays.
// Built once by the loader, then only read (the viewer holds it const).
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/Ids.hpp"
#include "core/JoinedThread.hpp"
#include "core/PodArray.hpp"
#include "core/Status.hpp"
#include "core/StringPool.hpp"
#include "core/Time.hpp"
#include "load/CopyBytesTable.hpp"
#include "load/RawEvents.hpp"
#include "load/SliceFieldTable.hpp"
#include "load/TraceText.hpp"

namespace marey {

class SqliteFile;  // db/SqliteFile.hpp

enum class RowKind : uint8_t {
    kNested,   // depth d of properly nested slices
    kOverlap,  // slices that overlap a neighbour without nesting (kept, unlike Perfetto)
    kAsync,    // a lane of async slices
};

// A run of slices [first, first + count) of a row, from the start of the first to the end of the
// last, as the level of detail folds them.
struct OverviewItem {
    TimeNs startNs;
    TimeNs endNs;
    uint32_t first;
    uint32_t count;
};
constexpr size_t kOverviewItems = 4096;       // at most about 2x this many items per row
constexpr size_t kOverviewMinSlices = 65536;  // smaller rows are fast to query directly

// Slices that never overlap, sorted by start (so ends are sorted too).
struct Row {
    PodArray<TimeNs> start;
    PodArray<TimeNs> end;
    PodArray<StringId> name;
    // The byte offset of each slice's event in the trace text (its args are parsed on demand):
    // the low 32 bits, and the bits above only once the row holds an offset past 4 GiB.
    PodArray<uint32_t> refLow;
    PodArray<uint8_t> refHigh;
    // The row folded once at overviewResolutionNs (its span / kOverviewItems): zoomed-out views
    // fold these few thousand items instead of searching the whole row (see QueryVisible).
    PodArray<OverviewItem> overview;
    TimeNs overviewResolutionNs = 0;  // 0: the row is small enough to query directly
    RowKind kind = RowKind::kNested;
    uint32_t depth = 0;
    size_t size() const { return start.size(); }
    uint64_t Ref(size_t i) const {
        return refHigh.empty() ? refLow[i] : uint64_t{refHigh[i]} << 32 | refLow[i];
    }
    // Appends a slice that starts at or after the last one.
    void Append(TimeNs startNs, TimeNs endNs, StringId nameId, uint64_t refOffset) {
        start.push_back(startNs);
        end.push_back(endNs);
        name.push_back(nameId);
        refLow.push_back(static_cast<uint32_t>(refOffset));
        if (refOffset > UINT32_MAX || !refHigh.empty()) {
            while (refHigh.size() + 1 < refLow.size())
                refHigh.push_back(0);  // the slices before it
            refHigh.push_back(static_cast<uint8_t>(refOffset >> 32));
        }
    }
    // Gives back the pages that push_back populated ahead, once the row is complete.
    void ReleaseSpare() {
        start.ReleaseSpare();
        end.ReleaseSpare();
        name.ReleaseSpare();
        refLow.ReleaseSpare();
        refHigh.ReleaseSpare();
    }
};

enum class TrackKind : uint8_t { kThread, kAsync, kCounter };

// What a thread track holds, set by the importer that read it (it knows its format's processes):
// the analyses choose tracks by role, never by a process's name or the source's format.
enum class TrackRole : uint8_t {
    kOther,               // nothing the analyses read: a CSV's rows, a counter, an async lane
    kHostThread,          // a host thread, whose calls may launch device work
    kDeviceStream,        // a GPU stream: kernels, copies, fills, annotations, synchronisations
    kNpuStream,           // an Ascend NPU stream: tasks, each of a task type
    kNpuLaunchThread,     // the Ascend CANN calls that launch NPU tasks
    kCommunicationPlane,  // an Ascend HCCL thread: communication operators and their tasks
    kOverlapAnalysis,     // the profiler's own Overlap Analysis (Computing, Communication, ...)
};
constexpr TrackRole kLastTrackRole = TrackRole::kOverlapAnalysis;
const char* TrackRoleName(TrackRole role);

struct Track {
    TrackKind kind = TrackKind::kThread;
    uint32_t process = 0;
    EntityId tid;
    StringId name = 0;  // thread_name, or the counter series name
    int64_t sortIndex = 0;
    bool hasSortIndex = false;
    TrackRole role = TrackRole::kOther;
    std::vector<Row> rows;
    uint64_t sliceCount = 0;
    uint64_t overlapSliceCount = 0;  // slices put in kOverlap rows
    // Instants written on this thread (or, for process and global scope, on it as well).
    PodArray<TimeNs> instantTs;
    PodArray<StringId> instantName;
    PodArray<uint64_t> instantRef;
    // Counter samples, sorted by time (kCounter tracks only).
    PodArray<TimeNs> counterTs;
    PodArray<double> counterValue;
    StringId counterKey = 0;  // the args key of this series
};

// Processes of no ProcessGroup (every process of a model read from one file).
constexpr uint32_t kNoGroup = UINT32_MAX;

struct Process {
    EntityId pid;
    StringId name = 0;
    StringId labels = 0;
    int64_t sortIndex = 0;
    bool hasSortIndex = false;
    std::vector<uint32_t> tracks;  // display order
    uint32_t group = kNoGroup;     // a merged model: the rank it belongs to
};

// One arrow from one flow event to the next of the same (category, id), in 32 bytes: the thread
// and category of each end are an index into TraceModel::flowOrigins (a trace has few distinct
// pairs), and the name and id are read from the text (at fromRef) when shown. Byte offsets keep
// 40 bits (see kMaxTextBytes).
struct Flow {
    TimeNs fromTs, toTs;
    uint64_t fromRef : 40;
    uint32_t fromOrigin : 21;
    bool fromEnclosing : 1;  // bind to the enclosing slice ("bp": "e") or the next one
    bool toEnclosing : 1;
    uint64_t toRef : 40;
    uint32_t toOrigin : 21;
};
static_assert(sizeof(Flow) == 32);

struct ImportReport {
    uint64_t eventCount = 0;
    PhaseCounts phases;
    uint64_t problemCount = 0;
    std::vector<ImportProblem> problems;  // the first ones, by place in the file
    uint64_t matchedFlows = 0;            // arrows drawn
    uint64_t unmatchedFlowEvents = 0;     // flow events that belong to no arrow
    uint64_t unmatchedBegins = 0;         // 'B' without 'E'
    uint64_t unmatchedEnds = 0;           // 'E' without 'B'
    // The file ends before its events do (the event array never closed, a gzip stream cut short,
    // the file shrank while read): what was loaded is a part of the run, not all of it.
    bool truncated = false;
};

// kDatabase: an Ascend profiler's SQLite file; refs name a table and rowid (see
// db/DbTimeline.hpp). kNsysExport: an Nsight Systems SQLite export; refs name a table and rowid
// (see import/nsys/NsysExport.hpp).
enum class SourceFormat : uint8_t { kChromeJson, kCsv, kDatabase, kNsysExport };

// A slice that never ended ('B' without 'E', async begin without end): drawn to the trace's end.
struct UnfinishedSlice {
    uint32_t track, row, index;
    auto operator<=>(const UnfinishedSlice&) const = default;
};

// The file a model's events were read from: their refs are byte offsets in 'text' (of rows, in a
// CSV, whose columns 'csvHeader' names).
struct TraceSource {
    std::string path;
    TraceText text;
    SourceFormat format = SourceFormat::kChromeJson;
    std::vector<std::string> csvHeader;
    // A database: the rows read from each table, for the import report; and per chunk the rowids
    // too large for a reference, which refs point into (see db/DbTimeline.hpp).
    std::vector<std::pair<std::string, uint64_t>> tableRows;
    std::vector<std::vector<int64_t>> farRowids;
    // What its importer kept of its slices beyond names and times (see FieldsAt).
    SliceFieldTable sliceFields;
    // An Nsight Systems export: the bytes of its copies and fills (a JSON trace's are read from
    // the text).
    CopyBytesTable copyBytes;
    // A rank of an Nsight Systems export of several processes: the CUDA device its process ran
    // on; none for every other source.
    std::optional<RankId> deviceRank;
    // The model was read from the index cache (cache/IndexCache.hpp), not parsed from the text.
    bool fromIndexCache = false;
    // The checksum of the index cache file's payload this model was read from or written to; 0
    // when there is none (yet). What the analyses cached beside it were made from.
    uint64_t indexCacheChecksum = 0;
    // A profiler database or an Nsight Systems export, kept open read-only for the details of a
    // selected row (one thread at a time: the one that shows them); null for every other source.
    std::shared_ptr<const SqliteFile> database;

    // The category, task type and correlation id of the slice at 'ref': what its importer kept,
    // else, in a JSON text, what its event says (the text's loader keeps those of Kineto's device
    // and runtime events only); none when neither has them. 'hint' speeds up growing refs.
    ActivityFields FieldsAt(uint64_t ref, size_t& hint) const;
};

// Several ranks in one timeline: the processes of one rank, shown under one collapsible header,
// and the shift that aligned its clock (see MergeRankModels). Group g reads from sources[g].
struct ProcessGroup {
    std::string label;    // "rank 3"
    std::string note;     // how its clock is aligned: "step 12 aligned", "its own clock"
    TimeNs shiftNs = 0;   // added to every time read from its source
    ImportReport report;  // the problems met in its source, in its offsets
};

struct TraceModel {
    // Where the events were read from, one list for every model: one source for a file; one per
    // rank in a model merged from several (the processes of group g read from sources[g]).
    std::vector<TraceSource> sources;
    StringPool strings;
    std::vector<Process> processes;       // display order
    std::vector<Track> tracks;            // indexed by track id; display order is per process
    PodArray<Flow> flows;                 // sorted by fromTs
    std::vector<FlowOrigin> flowOrigins;  // the (track, category) pairs that flows point into
    ImportReport report;
    TimeNs firstNs = 0, lastNs = 0;  // earliest timestamp and latest end
    uint64_t sliceCount = 0, instantCount = 0, counterSampleCount = 0;
    std::vector<UnfinishedSlice> unfinished;  // sorted
    // Set in a model merged from several ranks' models only, one per source.
    std::vector<ProcessGroup> groups;
    // Colours the profiler recorded for names (an NVTX range's ARGB), by name: the timeline draws
    // such a name in it, any other in its own hash colour. Empty for most sources.
    std::unordered_map<std::string, uint32_t> recordedColors;

    // Whether the slice never ended (it is drawn to lastNs). O(log unfinished).
    bool IsUnfinished(uint32_t track, uint32_t row, uint32_t index) const;

    std::string_view Name(StringId id) const { return strings.Get(id); }
    uint32_t FlowFromTrack(const Flow& flow) const { return flowOrigins[flow.fromOrigin].track; }
    uint32_t FlowToTrack(const Flow& flow) const { return flowOrigins[flow.toOrigin].track; }
    StringId FlowCategory(const Flow& flow) const { return flowOrigins[flow.fromOrigin].category; }
    // The source that the refs of 'track' point into: its file, text, format and CSV header. O(1).
    const TraceSource& SourceOf(uint32_t track) const;
    const TraceText& TextOf(uint32_t track) const { return SourceOf(track).text; }
    SourceFormat FormatOf(uint32_t track) const { return SourceOf(track).format; }
    const std::vector<std::string>& CsvHeaderOf(uint32_t track) const {
        return SourceOf(track).csvHeader;
    }
    const std::string& PathOf(uint32_t track) const { return SourceOf(track).path; }
    // The file of a model read from one file; empty for a merged model (or one of no file).
    const std::string& Path() const;
    // The group of 'track', or kNoGroup.
    uint32_t GroupOf(uint32_t track) const { return processes[tracks[track].process].group; }
    // "name" of a process or its pid when unnamed.
    std::string ProcessLabel(uint32_t process) const;
    // The process label after its rank's in a model of several ranks ("rank 3 · Python (12)"),
    // else ProcessLabel: where a process is named away from its rank's header.
    std::string ProcessLabelWithRank(uint32_t process) const;
    // "name" of a track, or "Thread <tid>" style fallbacks.
    std::string TrackLabel(uint32_t track) const;

    // The index cache being written from this model on another thread (cache/IndexCache.hpp).
    // Declared last, so that it is joined before any other member is freed; whoever changes a
    // loaded model joins it first.
    JoinedThread cacheWrite;
};

// Text of an entity id (number or string).
std::string EntityText(const EntityId& id, const StringPool& strings);

}  // namespace marey
