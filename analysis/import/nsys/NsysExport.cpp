#include "import/nsys/NsysExport.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <memory>
#include <set>
#include <thread>
#include <string_view>
#include <unordered_map>

#include "core/LoadTiming.hpp"
#include "db/DbReadProgress.hpp"
#include "db/DbRows.hpp"

namespace marey {
namespace {

// Nsight's event types of NVTX_EVENTS (ENUM_NSYS_EVENT_TYPE) that marey reads.
constexpr int64_t kNvtxMark = 34, kNvtxPushPopRange = 59, kNvtxStartEndRange = 60,
                  kNvtxDomainCreate = 75;

// CUPTI's stream id of a synchronisation that waits on no stream (an event's, a context's), and
// the lane marey draws them on.
constexpr int64_t kNoStream = 0xFFFFFFFF, kNoStreamLane = -1;
// A GPU's process is numbered with its device id, as Kineto numbers it, plus this step as many
// times as that number is taken (by a process's pid, or the same device of another process).
constexpr int64_t kDevicePidStep = 1000;
// The thread of a process that holds the steps of --step-range: no operating system's tid.
constexpr int64_t kStepLane = -2;

// The tables read, in the order their rows are read (and their references grow).
constexpr NsysTable kTablesInOrder[] = {
    NsysTable::kKernel,  NsysTable::kMemcpy, NsysTable::kMemset, NsysTable::kSynchronization,
    NsysTable::kRuntime, NsysTable::kDriver, NsysTable::kNvtx};

// Kineto's word for a copy's direction (ENUM_CUDA_MEMCPY_OPER), so that a copy of an export and
// of a PyTorch trace have one name and one class (trace/ActivityClass.cpp reads the word).
const char* CopyDirection(int64_t copyKind) {
    switch (copyKind) {
        case 1:
        case 11:  // unified memory
            return "HtoD";
        case 2:
        case 12:
            return "DtoH";
        case 3:
            return "HtoA";
        case 4:
            return "AtoH";
        case 5:
            return "AtoA";
        case 6:
            return "AtoD";
        case 7:
            return "DtoA";
        case 8:
        case 13:
            return "DtoD";
        case 9:
            return "HtoH";
        case 10:
            return "PtoP";
        default:
            return "Unknown";
    }
}

// ENUM_CUDA_MEM_KIND's labels, as Kineto names a copy's ends.
const char* MemoryKindText(int64_t kind) {
    switch (kind) {
        case 0:
            return "Pageable";
        case 1:
            return "Pinned";
        case 2:
            return "Device";
        case 3:
            return "Array";
        case 4:
            return "Managed";
        case 5:
            return "Device Static";
        case 6:
            return "Managed Static";
        default:
            return "Unknown";
    }
}

// Kineto's names of a synchronisation (ENUM_CUPTI_SYNC_TYPE).
const char* SynchronizationName(int64_t type) {
    switch (type) {
        case 1:
            return "Event Sync";
        case 2:
            return "Stream Wait Event";
        case 3:
            return "Stream Sync";
        case 4:
            return "Context Sync";
        default:
            return "Unknown Sync";
    }
}

// "cudaLaunchKernel_v7000" is cudaLaunchKernel: Nsight names an API function with the version
// that introduced it; Kineto, and every list of launch calls, without.
std::string_view WithoutApiVersion(std::string_view name) {
    const size_t at = name.rfind("_v");
    if (at == std::string_view::npos || at + 2 == name.size()) return name;
    for (size_t i = at + 2; i < name.size(); ++i)
        if (!std::isdigit(static_cast<unsigned char>(name[i]))) return name;
    return name.substr(0, at);
}

// "aten::view, op_id = 314290" is aten::view: PyTorch's emit_nvtx appends the operator's
// sequence number, id and input shapes, which make every range's name unique (and no statistic
// by name possible). The whole text is in the row's details.
std::string_view NvtxOperatorName(std::string_view text) {
    for (std::string_view marker : {", seq = ", ", op_id = ", ", sizes = "}) {
        const size_t at = text.find(marker);
        if (at != std::string_view::npos) text = text.substr(0, at);
    }
    return text;
}

struct PendingLaunch {
    int64_t globalPid;
    int64_t correlation;
    DbFlowEnd end;
};

// What one reader reads: the rows of its tables as a chunk of events, with what the analyses
// keep of them.
struct PartOut {
    ChunkEvents events;
    SliceFieldTable sliceFields;
    CopyBytesTable copyBytes;
    std::vector<std::pair<std::string, uint64_t>> rowsRead;
    std::string schemaVersion;
    std::unordered_map<std::string, uint32_t> recordedColors;  // NVTX ranges' colours, by name
};

// Two readers run at once, each on its own connection (about half the work each, measured on
// generated exports): the device part reads the kernels, copies, fills and synchronisations into
// chunk 0; the host part the runtime and driver calls and the NVTX ranges into chunk 1. Their
// chunks, in that order, keep the references of the activity fields ascending.
class NsysReader {
public:
    enum class Part : uint8_t { kDevice, kHost };
    NsysReader(const SqliteFile& db, const NsysReadOptions& options, LoadProgress* progress,
               Part part)
        : m_db(db), m_options(options), m_progress(progress), m_part(part) {}

    // The schema, strings and names both parts need, read by one of them.
    void ReadNames() {
        ReadSchema();
        ReadStrings();
        ReadProcessNames();
        ReadThreadNames();
    }
    void CopyNames(const NsysReader& other) {
        m_out.schemaVersion = other.m_out.schemaVersion;
        m_strings = other.m_strings;
        m_processNames = other.m_processNames;
        m_threadNames = other.m_threadNames;
    }

    void ReadTables() {
        for (NsysTable table : kTablesInOrder) {
            const bool host = table == NsysTable::kRuntime || table == NsysTable::kDriver ||
                              table == NsysTable::kNvtx;
            if (Cancelled() || host != (m_part == Part::kHost)) continue;
            if (table == NsysTable::kNvtx)
                ReadNvtx();
            else if (host)
                ReadHostCalls(table);
            else
                ReadDeviceTable(table);
            if (m_progress) m_progress->bytesDone += kProgressPerTable;
        }
    }

    // Joins the parts' arrows, names their processes and threads, numbers the devices and puts
    // every track's slices in order, into 'out'.
    friend void FinishExport(NsysReader& device, NsysReader& host, NsysExport& out);
    friend void NumberDevices(NsysReader& device, const NsysReader& host);

private:
    bool Cancelled() const { return m_progress && m_progress->cancel; }
    void Problem(const std::string& message) { m_out.events.problems.Add(0, message); }
    uint32_t Chunk() const { return m_part == Part::kDevice ? 0 : 1; }
    void RowProblem(NsysTable table, int64_t rowid, const std::string& message) {
        Problem("table " + std::string(NsysTableName(table)) + ", row " + std::to_string(rowid) +
                ": " + message);
    }
    std::string SchemaText() const {
        return m_out.schemaVersion.empty() ? "schema version unknown"
                                           : "schema " + m_out.schemaVersion;
    }

    void ReadSchema() {
        if (!m_db.HasTable("META_DATA_EXPORT")) return;
        auto statement =
            m_db.Prepare("SELECT value FROM META_DATA_EXPORT WHERE name = 'EXPORT_SCHEMA_VERSION'");
        if (statement.ok() && statement.value().Step() &&
            statement.value().Type(0) == SqliteType::kText)
            m_out.schemaVersion = std::string(statement.value().Text(0));
    }

    void ReadStrings() {
        const DbColumns columns(m_db, "StringIds", {"id", "value"});
        if (!columns.TableExists()) {
            Problem("the export has no table StringIds: every name reads <string N>");
            return;
        }
        for (const std::string& missing : columns.Missing()) Problem(missing);
        auto statement = m_db.Prepare(columns.Select());
        if (!statement.ok()) return Problem(statement.status().message());
        SqliteStatement& row = statement.value();
        while (row.Step()) {
            int64_t id = 0;
            if (!ReadDbInt(row, columns.Column(0), &id) || id < 0 || id > INT32_MAX) {
                Problem("table StringIds, row " + std::to_string(row.Int(0)) +
                        ": id is not a string id (a non-negative integer); left out");
                continue;
            }
            if (columns.Column(1) < 0 || row.Type(columns.Column(1)) != SqliteType::kText) {
                Problem("table StringIds, row " + std::to_string(row.Int(0)) + ": value of id " +
                        std::to_string(id) + " is not text; names of that id read <string " +
                        std::to_string(id) + ">");
                continue;
            }
            m_strings[id] = std::string(row.Text(columns.Column(1)));
        }
        if (row.Failed()) Problem(m_db.LastErrorMessage() + " (while reading StringIds)");
    }

    // The string of 'id', or "<string N>" (counted) when StringIds has none.
    std::string_view String(int64_t id) {
        const auto found = m_strings.find(id);
        if (found != m_strings.end()) return found->second;
        ++m_missingStrings;
        return m_missingText = "<string " + std::to_string(id) + ">";
    }

    // The pool id of StringIds' 'id' after 'shape' (a function of the text), made once an id.
    template <typename Shape>
    StringId InternStringId(int64_t id, std::unordered_map<int64_t, StringId>& cache,
                            Shape&& shape) {
        const auto found = cache.find(id);
        if (found != cache.end()) return found->second;
        const StringId interned = m_out.events.strings.Intern(shape(String(id)));
        cache.emplace(id, interned);
        return interned;
    }

    void ReadProcessNames() {
        const DbColumns columns(m_db, "PROCESSES", {"globalPid", "pid", "name"});
        if (!columns.TableExists()) return;
        auto statement = m_db.Prepare(columns.Select());
        if (!statement.ok()) return Problem(statement.status().message());
        SqliteStatement& row = statement.value();
        while (row.Step()) {
            int64_t globalPid = 0;
            if (!ReadDbInt(row, columns.Column(0), &globalPid)) continue;
            const int name = columns.Column(2);
            if (name >= 0 && row.Type(name) == SqliteType::kText)
                m_processNames[globalPid] = std::string(row.Text(name));
        }
    }

    void ReadThreadNames() {
        const DbColumns columns(m_db, "ThreadNames", {"nameId", "globalTid"});
        if (!columns.TableExists()) return;
        auto statement = m_db.Prepare(columns.Select());
        if (!statement.ok()) return Problem(statement.status().message());
        SqliteStatement& row = statement.value();
        while (row.Step()) {
            int64_t nameId = 0, globalTid = 0;
            if (ReadDbInt(row, columns.Column(0), &nameId) &&
                ReadDbInt(row, columns.Column(1), &globalTid))
                m_threadNames[globalTid] = nameId;
        }
    }

    // The WHERE clause that keeps the rows of the process asked for ('column' names its global
    // pid or tid), or "" for every row.
    std::string OnlyProcess(const DbColumns& columns, size_t column, bool threadColumn) const {
        if (!m_options.onlyGlobalPid || !columns.Has(column)) return "";
        const std::string name = threadColumn ? "\"globalTid\"" : "\"globalPid\"";
        const int64_t low = *m_options.onlyGlobalPid;
        if (!threadColumn) return "WHERE " + name + " = " + std::to_string(low);
        return "WHERE " + name + " >= " + std::to_string(low) + " AND " + name + " < " +
               std::to_string(low + 0x1000000);
    }

    // Start and end of a row: false, with a problem naming the row, when either is not a time or
    // the end is before the start (a damaged value is never drawn).
    bool ReadSpan(const SqliteStatement& row, const DbColumns& columns, NsysTable table,
                  int64_t rowid, TimeNs* start, TimeNs* end) {
        if (!ReadDbNs(row, columns.Column(0), start)) {
            RowProblem(table, rowid, "start is not a time in ns; left out");
            return false;
        }
        if (!ReadDbNs(row, columns.Column(1), end)) {
            RowProblem(table, rowid, "end is not a time in ns; left out");
            return false;
        }
        if (*end < *start) {
            RowProblem(table, rowid,
                       "end " + std::to_string(*end) + " is before start " +
                           std::to_string(*start) + "; left out");
            return false;
        }
        return true;
    }

    // A correlation id: nullopt when NULL, and with a problem when not a non-negative integer.
    std::optional<int64_t> ReadCorrelation(const SqliteStatement& row, int column, NsysTable table,
                                           int64_t rowid) {
        if (column < 0 || row.IsNull(column)) return std::nullopt;
        int64_t value = 0;
        if (ReadDbInt(row, column, &value) && value >= 0) return value;
        RowProblem(table, rowid,
                   "correlationId \"" + std::string(row.Text(column)) +
                       "\" is not a correlation id (a non-negative integer); joined to nothing");
        return std::nullopt;
    }

    bool RowidFits(NsysTable table, int64_t rowid) {
        if (rowid >= 0 && rowid <= kNsysMaxRowid) return true;
        RowProblem(table, rowid, "rowid beyond 2^34; left out");
        return false;
    }

    void CountRows(NsysTable table, uint64_t rows) {
        m_out.rowsRead.emplace_back(NsysTableName(table), rows);
        m_timing.Report(NsysTableName(table));
    }

    // Runs the query of 'columns' (with 'tail'), giving each row with its rowid to 'perRow'.
    template <typename PerRow>
    void ForEachRow(NsysTable table, const DbColumns& columns, const std::string& tail,
                    PerRow&& perRow) {
        for (const std::string& missing : columns.Missing())
            Problem(missing + " (" + SchemaText() + "): what it holds is left out");
        auto statement = m_db.Prepare(columns.Select(tail));
        if (!statement.ok()) return Problem(statement.status().message());
        SqliteStatement& row = statement.value();
        uint64_t rows = 0;
        while (row.Step()) {
            ++rows;
            const int64_t rowid = row.Int(0);
            if (RowidFits(table, rowid)) perRow(row, rowid);
        }
        if (row.Failed())
            Problem(m_db.LastErrorMessage() + " (while reading " + NsysTableName(table) +
                    "; the rows before were kept)");
        CountRows(table, rows);
    }

    void ReadDeviceTable(NsysTable table);
    void ReadHostCalls(NsysTable table);
    void ReadNvtx();
    void AddStepTracks(std::map<int64_t, std::vector<RawSlice>>& stepRanges);
    uint32_t DeviceTrack(int64_t globalPid, int64_t device, int64_t stream);
    void NumberDevices();
    uint32_t HostTrack(int64_t globalTid);
    uint32_t NewTrack(int64_t pid, int64_t tid);
    void SortSlices();

    const SqliteFile& m_db;
    const NsysReadOptions& m_options;
    LoadProgress* m_progress;
    Part m_part;
    PartOut m_out;
    LoadTiming m_timing;
    std::unordered_map<int64_t, std::string> m_strings;
    uint64_t m_missingStrings = 0;
    std::string m_missingText;
    std::unordered_map<int64_t, std::string> m_processNames;   // by globalPid
    std::unordered_map<int64_t, int64_t> m_threadNames;        // globalTid → string id
    std::map<std::pair<int64_t, int64_t>, uint32_t> m_tracks;  // (pid, tid) → chunk track
    // The model's pid of each (globalPid, device): the device id itself, as Kineto numbers a
    // GPU's process, unless a process or another process's device has it already.
    // (Its pid is a placeholder until NumberDevices.)
    std::map<std::pair<int64_t, int64_t>, int64_t> m_devicePids;
    std::map<std::pair<int64_t, int64_t>, int64_t> m_contextDevices;  // (globalPid, context)
    std::map<int64_t, std::set<int64_t>> m_devicesOf;                 // globalPid → devices
    std::map<int64_t, std::set<int64_t>> m_hostThreadsOf;             // globalPid → globalTids
    std::vector<PendingLaunch> m_launches, m_targets;
};

// [SECTION] Tables

void NsysReader::ReadDeviceTable(NsysTable table) {
    const char* name = NsysTableName(table);
    if (!m_db.HasTable(name)) return;
    // 0 start, 1 end, 2 deviceId, 3 streamId, 4 correlationId, 5 globalPid, 6 contextId, then
    // the table's own from 7 on.
    std::vector<std::string> wanted = {"start",         "end",       "deviceId", "streamId",
                                       "correlationId", "globalPid", "contextId"};
    KeptCategory category = KeptCategory::kKernel;
    switch (table) {
        case NsysTable::kKernel:
            wanted.insert(wanted.end(), {"demangledName", "shortName"});
            break;
        case NsysTable::kMemcpy:
            wanted.insert(wanted.end(), {"bytes", "copyKind", "srcKind", "dstKind"});
            category = KeptCategory::kGpuMemcpy;
            break;
        case NsysTable::kMemset:
            wanted.insert(wanted.end(), {"bytes", "memKind"});
            category = KeptCategory::kGpuMemset;
            break;
        default:
            wanted.insert(wanted.end(), {"syncType"});
            category = KeptCategory::kCudaSync;
            break;
    }
    const DbColumns columns(m_db, name, wanted);
    std::unordered_map<int64_t, StringId> kernelNames;  // by StringIds id
    ChunkEvents& events = m_out.events;
    auto optionalInt = [](const SqliteStatement& row, int column, int64_t fallback) {
        int64_t value = 0;
        return column >= 0 && ReadDbInt(row, column, &value) ? value : fallback;
    };
    ForEachRow(
        table, columns, OnlyProcess(columns, 5, false) + " ORDER BY rowid",
        [&](const SqliteStatement& row, int64_t rowid) {
            TimeNs start = 0, end = 0;
            if (!ReadSpan(row, columns, table, rowid, &start, &end)) return;
            int64_t device = 0, stream = 0, globalPid = 0;
            if (!ReadDbInt(row, columns.Column(2), &device) || device < 0 || device > INT32_MAX) {
                RowProblem(table, rowid, "deviceId is not a device number; left out");
                return;
            }
            // CUPTI's "invalid" stream: an event's or a context's synchronisation, on no stream;
            // drawn on a lane of its own.
            if (table == NsysTable::kSynchronization &&
                ReadDbInt(row, columns.Column(3), &stream) && stream == kNoStream) {
                stream = kNoStreamLane;
            } else if (!ReadDbInt(row, columns.Column(3), &stream) || stream < 0 ||
                       stream > INT32_MAX) {
                RowProblem(table, rowid, "streamId is not a stream number; left out");
                return;
            }
            const int pidColumn = columns.Column(5);
            if (pidColumn >= 0 && !row.IsNull(pidColumn) &&
                (!ReadDbInt(row, pidColumn, &globalPid) || globalPid < 0)) {
                RowProblem(table, rowid, "globalPid is not a process id; shown under no process");
                globalPid = 0;
            }
            const std::optional<int64_t> correlation =
                ReadCorrelation(row, columns.Column(4), table, rowid);
            const uint64_t ref = NsysRef(table, rowid);
            StringId nameId = 0;
            if (table == NsysTable::kKernel) {
                int64_t id = 0;
                if (ReadDbInt(row, columns.Column(7), &id) ||
                    ReadDbInt(row, columns.Column(8), &id)) {
                    nameId =
                        InternStringId(id, kernelNames, [](std::string_view text) { return text; });
                } else {
                    RowProblem(table, rowid, "demangledName is not a string id; named <kernel>");
                    nameId = events.strings.Intern("<kernel>");
                }
            } else if (table == NsysTable::kMemcpy) {
                const std::string text =
                    std::string("Memcpy ") + CopyDirection(optionalInt(row, columns.Column(8), 0)) +
                    " (" + MemoryKindText(optionalInt(row, columns.Column(9), -1)) + " -> " +
                    MemoryKindText(optionalInt(row, columns.Column(10), -1)) + ")";
                nameId = events.strings.Intern(text);
            } else if (table == NsysTable::kMemset) {
                nameId = events.strings.Intern(
                    std::string("Memset (") +
                    MemoryKindText(optionalInt(row, columns.Column(8), -1)) + ")");
            } else {
                nameId = events.strings.Intern(
                    SynchronizationName(optionalInt(row, columns.Column(7), 0)));
            }
            if (table == NsysTable::kMemcpy || table == NsysTable::kMemset) {
                const int bytesColumn = columns.Column(7);
                int64_t bytes = 0;
                if (bytesColumn >= 0 && ReadDbInt(row, bytesColumn, &bytes) && bytes >= 0)
                    m_out.copyBytes.Append(ref, static_cast<uint64_t>(bytes));
                else if (bytesColumn >= 0)
                    RowProblem(table, rowid,
                               "bytes is not a byte count; its bandwidth is not counted");
            }
            // CUPTI writes device 0 on the synchronisations of every device: their context,
            // whose work says which device it is, is believed instead.
            const int64_t context = optionalInt(row, columns.Column(6), -1);
            if (table != NsysTable::kSynchronization)
                m_contextDevices.try_emplace({globalPid, context}, device);
            else if (const auto known = m_contextDevices.find({globalPid, context});
                     known != m_contextDevices.end())
                device = known->second;
            const uint32_t track = DeviceTrack(globalPid, device, stream);
            events.AddSlice(track, start, end - start, ref, nameId);
            ++events.eventCount;
            ++events.phases.byChar['X'];
            m_out.sliceFields.Append(ref, category, correlation.value_or(-1));
            if (correlation && table != NsysTable::kSynchronization)
                m_targets.push_back({globalPid, *correlation, {Chunk(), track, start, ref}});
        });
}

void NsysReader::ReadHostCalls(NsysTable table) {
    const char* name = NsysTableName(table);
    if (!m_db.HasTable(name)) return;
    const DbColumns columns(m_db, name, {"start", "end", "globalTid", "correlationId", "nameId"});
    const KeptCategory category =
        table == NsysTable::kRuntime ? KeptCategory::kCudaRuntime : KeptCategory::kCudaDriver;
    std::unordered_map<int64_t, StringId> names;  // by StringIds id
    ChunkEvents& events = m_out.events;
    ForEachRow(
        table, columns, OnlyProcess(columns, 2, true) + " ORDER BY rowid",
        [&](const SqliteStatement& row, int64_t rowid) {
            TimeNs start = 0, end = 0;
            if (!ReadSpan(row, columns, table, rowid, &start, &end)) return;
            int64_t globalTid = 0, nameId = 0;
            if (!ReadDbInt(row, columns.Column(2), &globalTid) || globalTid < 0) {
                RowProblem(table, rowid, "globalTid is not a thread id; left out");
                return;
            }
            StringId text = 0;
            if (ReadDbInt(row, columns.Column(4), &nameId)) {
                text = InternStringId(nameId, names, WithoutApiVersion);
            } else {
                RowProblem(table, rowid, "nameId is not a string id; named <call>");
                text = events.strings.Intern("<call>");
            }
            const std::optional<int64_t> correlation =
                ReadCorrelation(row, columns.Column(3), table, rowid);
            const uint64_t ref = NsysRef(table, rowid);
            const uint32_t track = HostTrack(globalTid);
            events.AddSlice(track, start, end - start, ref, text);
            ++events.eventCount;
            ++events.phases.byChar['X'];
            m_out.sliceFields.Append(ref, category, correlation.value_or(-1));
            if (correlation)
                m_launches.push_back(
                    {NsysGlobalPidOf(globalTid), *correlation, {Chunk(), track, start, ref}});
        });
}

void NsysReader::ReadNvtx() {
    constexpr NsysTable table = NsysTable::kNvtx;
    if (!m_db.HasTable("NVTX_EVENTS")) return;
    // 0 start, 1 end, 2 eventType, 3 text, 4 textId, 5 globalTid, 6 domainId, 7 color.
    std::vector<std::string> wanted = {"start",  "end",       "eventType", "text",
                                       "textId", "globalTid", "domainId"};
    // A colour is optional: most ranges have none, and a smaller export no column for it.
    const std::vector<std::string> present = m_db.Columns("NVTX_EVENTS");
    const bool hasColor = std::find(present.begin(), present.end(), "color") != present.end();
    if (hasColor) wanted.push_back("color");
    const DbColumns columns(m_db, "NVTX_EVENTS", wanted);
    ChunkEvents& events = m_out.events;
    uint64_t unended = 0;
    std::map<int64_t, std::vector<RawSlice>> stepRanges;  // --step-range's, by process
    ForEachRow(
        table, columns, OnlyProcess(columns, 5, true) + " ORDER BY rowid",
        [&](const SqliteStatement& row, int64_t rowid) {
            int64_t type = 0;
            if (!ReadDbInt(row, columns.Column(2), &type)) {
                RowProblem(table, rowid, "eventType is not an event type; left out");
                return;
            }
            if (type != kNvtxMark && type != kNvtxPushPopRange && type != kNvtxStartEndRange)
                return;  // domain and category names, and the like: no time of their own
            std::string_view text;
            int64_t textId = 0;
            const int textColumn = columns.Column(3);
            if (textColumn >= 0 && row.Type(textColumn) == SqliteType::kText)
                text = row.Text(textColumn);
            else if (ReadDbInt(row, columns.Column(4), &textId))
                text = String(textId);
            else
                text = "<unnamed range>";
            int64_t globalTid = 0;
            if (!ReadDbInt(row, columns.Column(5), &globalTid) || globalTid < 0) {
                RowProblem(table, rowid, "globalTid is not a thread id; left out");
                return;
            }
            const std::string_view shownName = NvtxOperatorName(text);
            const StringId name = events.strings.Intern(shownName);
            // The first colour recorded for a name is its colour (an ARGB value of 32 bits).
            int64_t color = 0;
            if (hasColor && ReadDbInt(row, columns.Column(7), &color) && color >= 0 &&
                color <= UINT32_MAX)
                m_out.recordedColors.try_emplace(std::string(shownName),
                                                 static_cast<uint32_t>(color));
            const uint64_t ref = NsysRef(table, rowid);
            const uint32_t track = HostTrack(globalTid);
            TimeNs start = 0, end = 0;
            if (type == kNvtxMark) {
                if (!ReadDbNs(row, columns.Column(0), &start)) {
                    RowProblem(table, rowid, "start is not a time in ns; left out");
                    return;
                }
                events.instants.push_back({start, ref, name, track, InstantScope::kThread});
                ++events.eventCount;
                ++events.phases.byChar['i'];
                return;
            }
            if (columns.Column(1) >= 0 && row.IsNull(columns.Column(1))) {
                ++unended;
                return;
            }
            if (!ReadSpan(row, columns, table, rowid, &start, &end)) return;
            events.AddSlice(track, start, end - start, ref, name);
            ++events.eventCount;
            ++events.phases.byChar['X'];
            if (!m_options.stepRange.empty() && NvtxOperatorName(text) == m_options.stepRange)
                stepRanges[NsysGlobalPidOf(globalTid)].push_back({start, end - start, ref, 0});
        });
    if (unended)
        Problem("table NVTX_EVENTS: " + std::to_string(unended) +
                " ranges have no end (still open when the capture stopped); left out");
    AddStepTracks(stepRanges);
}

// The steps a person named (--step-range NAME): each process's ranges of that name, in start
// order, as the slices "ProfilerStep#1", "#2", … of a thread of their own, where every analysis
// finds PyTorch's steps. Their references are the ranges' rows.
void NsysReader::AddStepTracks(std::map<int64_t, std::vector<RawSlice>>& stepRanges) {
    if (m_options.stepRange.empty()) return;
    if (stepRanges.empty())
        Problem("no NVTX range is named \"" + m_options.stepRange +
                "\" (--step-range): no steps but PyTorch's ProfilerStep#N ranges");
    ChunkEvents& events = m_out.events;
    for (auto& [globalPid, ranges] : stepRanges) {
        std::sort(ranges.begin(), ranges.end(), SliceBefore);
        const uint32_t track = NewTrack(NsysPid(globalPid), kStepLane);
        events.metadata.push_back(
            {0, track, MetadataKind::kThreadName,
             events.strings.Intern("steps: NVTX ranges \"" + m_options.stepRange + "\""), 0});
        events.metadata.push_back({0, track, MetadataKind::kThreadSortIndex, 0, INT64_MIN});
        for (size_t i = 0; i < ranges.size(); ++i) {
            events.AddSlice(track, ranges[i].startNs, ranges[i].durNs, ranges[i].ref,
                            events.strings.Intern("ProfilerStep#" + std::to_string(i + 1)));
            ++events.eventCount;
            ++events.phases.byChar['X'];
        }
    }
}

// [SECTION] Processes, threads and arrows

uint32_t NsysReader::NewTrack(int64_t pid, int64_t tid) {
    const auto found = m_tracks.find({pid, tid});
    if (found != m_tracks.end()) return found->second;
    ChunkTrack track;
    track.pid = EntityId{pid, 0};
    track.tid = EntityId{tid, 0};
    m_out.events.tracks.push_back(std::move(track));
    const uint32_t index = static_cast<uint32_t>(m_out.events.tracks.size() - 1);
    m_tracks.emplace(std::make_pair(pid, tid), index);
    return index;
}

uint32_t NsysReader::DeviceTrack(int64_t globalPid, int64_t device, int64_t stream) {
    // A pid below any real one until every process is known (see NumberDevices).
    auto [it, inserted] = m_devicePids.try_emplace({globalPid, device},
                                                   -2 - static_cast<int64_t>(m_devicePids.size()));
    if (inserted) m_devicesOf[globalPid].insert(device);
    return NewTrack(it->second, stream);
}

uint32_t NsysReader::HostTrack(int64_t globalTid) {
    const int64_t globalPid = NsysGlobalPidOf(globalTid);
    m_hostThreadsOf[globalPid].insert(globalTid);
    return NewTrack(NsysPid(globalPid), NsysTid(globalTid));
}

void NsysReader::SortSlices() {
    for (ChunkTrack& track : m_out.events.tracks) {
        SortMostlySorted(track.slices);
        SortMostlySorted(track.wideSlices);
    }
    std::stable_sort(m_out.events.instants.begin(), m_out.events.instants.end(),
                     [](const RawInstant& a, const RawInstant& b) { return a.ts < b.ts; });
}

// [SECTION] The two parts joined

void JoinLaunches(std::vector<PendingLaunch>& launches, const std::vector<PendingLaunch>& targets,
                  std::vector<DbArrow>& arrows) {
    const auto before = [](const PendingLaunch& a, const PendingLaunch& b) {
        if (a.globalPid != b.globalPid) return a.globalPid < b.globalPid;
        return a.correlation < b.correlation;
    };
    // Calls are mostly in correlation order already.
    if (!std::is_sorted(launches.begin(), launches.end(), before))
        std::stable_sort(launches.begin(), launches.end(), before);
    arrows.reserve(targets.size());
    const auto same = [](const PendingLaunch& a, const PendingLaunch& b) {
        return a.globalPid == b.globalPid && a.correlation == b.correlation;
    };
    // Targets are mostly in correlation order too: the call of the last one, or the next, first.
    size_t hint = 0;
    for (const PendingLaunch& target : targets) {
        size_t found = launches.size();
        if (hint < launches.size() && same(launches[hint], target))
            found = hint;
        else if (hint + 1 < launches.size() && same(launches[hint + 1], target))
            found = hint + 1;
        else
            found = static_cast<size_t>(
                std::lower_bound(launches.begin(), launches.end(), target, before) -
                launches.begin());
        if (found == launches.size() || !same(launches[found], target)) continue;
        hint = found;
        arrows.push_back({launches[found].end, target.end, DbFlowKind::kCudaLaunch});
    }
}

// Each device process's pid, once every process is known: the device id itself, as Kineto
// numbers a GPU's process, unless a process or another process's device has it already.
void NumberDevices(NsysReader& device, const NsysReader& host) {
    std::set<int64_t> used;
    for (const ChunkTrack& track : host.m_out.events.tracks) used.insert(track.pid.number);
    std::map<int64_t, int64_t> final;  // placeholder → pid
    for (const auto& [key, placeholder] : device.m_devicePids) {
        int64_t pid = key.second;
        while (used.count(pid)) pid += kDevicePidStep;
        used.insert(pid);
        final[placeholder] = pid;
    }
    for (ChunkTrack& track : device.m_out.events.tracks)
        if (const auto found = final.find(track.pid.number); found != final.end())
            track.pid.number = found->second;
}

void FinishExport(NsysReader& device, NsysReader& host, NsysExport& out) {
    JoinLaunches(host.m_launches, device.m_targets, out.arrows);
    host.m_launches = {};
    device.m_targets = {};
    if (const uint64_t missing = device.m_missingStrings + host.m_missingStrings)
        device.Problem(std::to_string(missing) +
                       " string ids have no row in StringIds: shown as <string N>");

    std::set<int64_t> globalPids;
    for (const auto& [globalPid, devices] : device.m_devicesOf) globalPids.insert(globalPid);
    for (const auto& [globalPid, threads] : host.m_hostThreadsOf) globalPids.insert(globalPid);
    std::vector<int64_t> byPid(globalPids.begin(), globalPids.end());
    std::stable_sort(byPid.begin(), byPid.end(),
                     [](int64_t a, int64_t b) { return NsysPid(a) < NsysPid(b); });
    auto metadata = [](ChunkEvents& events, uint32_t track, MetadataKind kind,
                       const std::string& text, int64_t number) {
        events.metadata.push_back(
            {0, track, kind, text.empty() ? StringId{0} : events.strings.Intern(text), number});
    };
    // Each process, then the GPUs it ran work on: a rank's host and devices side by side.
    constexpr int64_t kSortStride = 1024;
    int64_t place = 0;
    for (const int64_t globalPid : byPid) {
        NsysProcess process;
        process.globalPid = globalPid;
        process.pid = NsysPid(globalPid);
        if (const auto name = host.m_processNames.find(globalPid);
            name != host.m_processNames.end())
            process.name = name->second;
        const int64_t sortBase = place++ * kSortStride;
        ChunkEvents& hostEvents = host.m_out.events;
        if (const auto threads = host.m_hostThreadsOf.find(globalPid);
            threads != host.m_hostThreadsOf.end()) {
            bool first = true;
            for (const int64_t globalTid : threads->second) {
                const uint32_t track = host.m_tracks.at({process.pid, NsysTid(globalTid)});
                if (first) {
                    if (!process.name.empty())
                        metadata(hostEvents, track, MetadataKind::kProcessName, process.name, 0);
                    metadata(hostEvents, track, MetadataKind::kProcessSortIndex, "", sortBase);
                    first = false;
                }
                if (const auto name = host.m_threadNames.find(globalTid);
                    name != host.m_threadNames.end())
                    metadata(hostEvents, track, MetadataKind::kThreadName,
                             std::string(host.String(name->second)), 0);
            }
        }
        ChunkEvents& deviceEvents = device.m_out.events;
        if (const auto devices = device.m_devicesOf.find(globalPid);
            devices != device.m_devicesOf.end()) {
            for (const int64_t gpu : devices->second) {
                process.devices.push_back(gpu);
                const int64_t pid = device.m_devicePids.at({globalPid, gpu});
                bool first = true;
                for (auto it = device.m_tracks.lower_bound({pid, INT64_MIN});
                     it != device.m_tracks.end() && it->first.first == pid; ++it) {
                    if (first) {
                        metadata(deviceEvents, it->second, MetadataKind::kProcessName,
                                 "GPU " + std::to_string(gpu), 0);
                        metadata(deviceEvents, it->second, MetadataKind::kProcessLabels,
                                 (process.name.empty() ? std::string("process") : process.name) +
                                     " " + std::to_string(process.pid),
                                 0);
                        metadata(deviceEvents, it->second, MetadataKind::kProcessSortIndex, "",
                                 sortBase + 1 + std::min<int64_t>(gpu, kSortStride - 2));
                        first = false;
                    }
                    metadata(deviceEvents, it->second, MetadataKind::kThreadName,
                             it->first.second == kNoStreamLane
                                 ? std::string("synchronisations on no stream")
                                 : "stream " + std::to_string(it->first.second),
                             0);
                }
            }
        }
        out.processes.push_back(std::move(process));
    }
    NumberDevices(device, host);
    device.SortSlices();
    host.SortSlices();

    out.schemaVersion = device.m_out.schemaVersion;
    out.sliceFields = std::move(device.m_out.sliceFields);
    out.sliceFields.Append(host.m_out.sliceFields);
    out.sliceFields.Finish();
    out.copyBytes = std::move(device.m_out.copyBytes);
    out.recordedColors = std::move(host.m_out.recordedColors);
    out.rowsRead = std::move(device.m_out.rowsRead);
    out.rowsRead.insert(out.rowsRead.end(), host.m_out.rowsRead.begin(), host.m_out.rowsRead.end());
    out.chunks.push_back(std::move(device.m_out.events));
    out.chunks.push_back(std::move(host.m_out.events));
}

}  // namespace

// [SECTION] Entry points

const char* NsysTableName(NsysTable table) {
    switch (table) {
        case NsysTable::kKernel:
            return "CUPTI_ACTIVITY_KIND_KERNEL";
        case NsysTable::kMemcpy:
            return "CUPTI_ACTIVITY_KIND_MEMCPY";
        case NsysTable::kMemset:
            return "CUPTI_ACTIVITY_KIND_MEMSET";
        case NsysTable::kSynchronization:
            return "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION";
        case NsysTable::kRuntime:
            return "CUPTI_ACTIVITY_KIND_RUNTIME";
        case NsysTable::kDriver:
            return "CUPTI_ACTIVITY_KIND_DRIVER";
        case NsysTable::kNvtx:
            return "NVTX_EVENTS";
    }
    return nullptr;
}

NsysExport ReadNsysExport(const SqliteFile& db, const NsysReadOptions& options,
                          LoadProgress* progress, unsigned threads) {
    const LoadTiming timing;
    NsysReader device(db, options, progress, NsysReader::Part::kDevice);
    device.ReadNames();
    if (progress) {
        progress->bytesTotal = std::size(kTablesInOrder) * kProgressPerTable;
        db.StopWhen(&progress->cancel);
    }
    // The host part on a connection of its own, on a thread of its own; on this one when only
    // one thread is wanted or a second connection cannot be opened.
    std::unique_ptr<SqliteFile> second;
    if (threads > 1)
        if (auto opened = SqliteFile::OpenReadOnly(db.Path()); opened.ok())
            second = std::move(opened.value());
    if (second && progress) second->StopWhen(&progress->cancel);
    NsysReader host(second ? *second : db, options, progress, NsysReader::Part::kHost);
    host.CopyNames(device);
    std::thread hostThread;
    if (second) hostThread = std::thread([&host] { host.ReadTables(); });
    device.ReadTables();
    if (hostThread.joinable())
        hostThread.join();
    else
        host.ReadTables();
    if (progress) db.StopWhen(nullptr);
    timing.Report("nsys: tables read");
    NsysExport out;
    FinishExport(device, host, out);
    timing.Report("nsys: arrows joined, names, order");
    return out;
}

bool IsNsysExport(const SqliteFile& db) {
    for (NsysTable table : kTablesInOrder)
        if (db.HasTable(NsysTableName(table))) return true;
    return db.HasTable("StringIds") &&
           (db.HasTable("TARGET_INFO_SESSION_START_TIME") || db.HasTable("TARGET_INFO_GPU"));
}

std::vector<NsysProcess> ListNsysGpuProcesses(const SqliteFile& db) {
    std::map<int64_t, std::set<int64_t>> devicesOf;
    for (NsysTable table : {NsysTable::kKernel, NsysTable::kMemcpy, NsysTable::kMemset}) {
        const DbColumns columns(db, NsysTableName(table), {"globalPid", "deviceId"});
        if (!columns.TableExists() || !columns.Has(0) || !columns.Has(1)) continue;
        auto statement =
            db.Prepare(std::string("SELECT DISTINCT \"globalPid\", \"deviceId\" FROM ") +
                       NsysTableName(table));
        if (!statement.ok()) continue;
        SqliteStatement& row = statement.value();
        while (row.Step()) {
            int64_t globalPid = 0, device = 0;
            if (ReadDbInt(row, 0, &globalPid) && globalPid >= 0 && ReadDbInt(row, 1, &device) &&
                device >= 0)
                devicesOf[globalPid].insert(device);
        }
    }
    std::map<int64_t, std::string> names;
    if (auto statement = db.Prepare("SELECT globalPid, name FROM PROCESSES"); statement.ok())
        while (statement.value().Step())
            if (statement.value().Type(1) == SqliteType::kText)
                names[statement.value().Int(0)] = std::string(statement.value().Text(1));
    std::vector<NsysProcess> processes;
    for (const auto& [globalPid, devices] : devicesOf) {
        NsysProcess process;
        process.globalPid = globalPid;
        process.pid = NsysPid(globalPid);
        process.name = names.count(globalPid) ? names[globalPid] : std::string();
        process.devices.assign(devices.begin(), devices.end());
        processes.push_back(std::move(process));
    }
    std::stable_sort(processes.begin(), processes.end(),
                     [](const NsysProcess& a, const NsysProcess& b) { return a.pid < b.pid; });
    return processes;
}

}  // namespace marey
