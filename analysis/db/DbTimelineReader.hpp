#pragma once
// The reader behind ReadDbTimeline and ReadDbOperators (db/DbTimeline.hpp), shared by the files
// that hold its parts: DbTimeline.cpp (metadata, steps, the entry points), DbHostTables.cpp
// (PYTORCH_API, CANN_API, CONNECTION_IDS and the tracks), DbDeviceTables.cpp (TASK,
// COMMUNICATION_OP, the counters) and DbTimelineFinish.cpp (arrows, Overlap Analysis, order).
// Only those files include it.
#include <cctype>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "core/GallopingSearch.hpp"
#include "core/LoadTiming.hpp"
#include "core/TimeRanges.hpp"
#include "db/DbReadProgress.hpp"
#include "db/DbRows.hpp"
#include "db/DbTimeline.hpp"

namespace marey {

// Sort indexes of the text export's processes; device pids put them in bits 5-9.
constexpr int64_t kPythonSort = 0, kCannSort = 7, kHardwareSort = 13, kFreqSort = 14,
                  kHcclSort = 15, kNpuMemSort = 19, kOverlapSort = 23;
constexpr int64_t kLaterGroupTid = 100000;  // HCCL group g > 0 is thread 100000 + g

// The name prefix of a CANN API level, as the text export writes it ("AscendCL@aclnnAdd").
inline std::string CannLevelPrefix(const std::string& level) {
    if (level == "acl") return "AscendCL";
    if (level == "node") return "Node";
    if (level == "runtime") return "Runtime";
    if (level == "hccl") return "Hccl";
    if (level == "model") return "Model";
    std::string prefix = level;
    if (!prefix.empty()) prefix[0] = static_cast<char>(std::toupper(prefix[0]));
    return prefix;
}

// A row of one table waiting for its partner in another: its connection id (or sequence number)
// and its end of the arrow.
struct PendingEnd {
    int64_t connection;
    DbFlowEnd end;
};

// The first element of 'sorted' whose key is not below 'key', searched from 'hint' on (galloping)
// when the keys asked for grow, as they mostly do in table order; else from the start. Amortised
// O(1) per lookup for growing keys, O(log n) otherwise.
template <typename T, typename KeyOf>
size_t LowerBoundFrom(const std::vector<T>& sorted, int64_t key, size_t hint, KeyOf keyOf) {
    return GallopingLowerBound(sorted.size(), key, hint,
                               [&](size_t i) { return keyOf(sorted[i]); });
}

// The first of 'sorted' (by connection, stably) with this connection id, or null.
inline const PendingEnd* FirstOf(const std::vector<PendingEnd>& sorted, int64_t connection) {
    const auto it =
        std::lower_bound(sorted.begin(), sorted.end(), connection,
                         [](const PendingEnd& a, int64_t c) { return a.connection < c; });
    return it != sorted.end() && it->connection == connection ? &*it : nullptr;
}

class DbTimelineReader {
public:
    // 'chunk' is the index of 'events' in out.chunks; 'part' which tables this reader reads.
    // kOperators: only what the operators and steps need (STEP_TIME, TASK, COMMUNICATION_OP).
    enum class Part { kHost, kDevice, kOperators };
    DbTimelineReader(const SqliteFile& db, DbTimeline& out, ChunkEvents& events, uint32_t chunk,
                     Part part)
        : m_db(db), m_out(out), m_events(events), m_chunk(chunk), m_part(part) {}

    // The tables of this reader's part, about half the work each (measured on generated runs):
    // the host part reads PYTORCH_API and CONNECTION_IDS; the device part STEP_TIME, the tasks,
    // the communication operators, CANN_API and the counters.
    // Two readers run at once, each on its own connection, writing only their own chunk and
    // members (and out.kernels, out.steps, out.overlap for the device part).
    void Run();
    // Rows read move 'done' (see TableReadProgress); null: no progress is kept.
    void ReportProgressTo(std::atomic<uint64_t>* done) { m_progressDone = done; }

    std::vector<int64_t> TakeFarRowids() { return std::move(m_farRowids); }

    // Once both parts have run: the device part's Overlap Analysis and slice order on one
    // thread, while the operators are finished and the arrows joined on this one (each touches
    // data of its own).
    static void Finish(DbTimelineReader& host, DbTimelineReader& device, bool twoThreads);

private:
    std::atomic<uint64_t>* m_progressDone = nullptr;
    void Problem(const std::string& message) { m_events.problems.Add(0, message); }
    void RowProblem(const std::string& table, int64_t rowid, const std::string& message) {
        Problem("table " + table + ", row " + std::to_string(rowid) + ": " + message);
    }
    void ReportMissing(const DbColumns& columns) {
        for (const std::string& missing : columns.Missing())
            Problem(missing + " (schema " + SchemaText() + "): what it holds is left out");
    }
    std::string SchemaText() const {
        return m_schemaVersion.empty() ? "version unknown" : m_schemaVersion;
    }
    void CountRows(const std::string& table, uint64_t rows) {
        m_rowsRead.emplace_back(table, rows);
        m_timing.Report(table.c_str());
    }
    // Runs 'sql'; on failure reports it and returns false.
    bool Prepare(const std::string& sql, std::optional<SqliteStatement>& statement) {
        auto prepared = m_db.Prepare(sql);
        if (!prepared.ok()) {
            Problem(prepared.status().message());
            return false;
        }
        statement.emplace(std::move(prepared.value()));
        return true;
    }
    // Reads every row of 'table', its wanted columns found by name (the missing ones named in the
    // import report), in table order: 'perRow' gets each row and the columns. Counts the rows.
    template <typename PerRow>
    void ForEachRow(const std::string& table, const std::vector<std::string>& wanted,
                    PerRow&& perRow) {
        const DbColumns columns(m_db, table, wanted);
        if (!columns.TableExists()) return;
        ReportMissing(columns);
        if (!CanPlaceRows(columns, wanted)) return;
        std::optional<SqliteStatement> row;
        if (!Prepare(columns.Select(), row)) return;
        uint64_t rows = 0;
        TableReadProgress progress(m_db, table, m_progressDone);
        while (row->Step()) {
            ++rows;
            progress.Row(row->Int(0));
            perRow(*row, columns);
        }
        AfterRows(*row, table);
        CountRows(table, rows);
    }
    // Without its startNs or endNs no row of a table can be placed in time: its one line from
    // ReportMissing says so, instead of a line for every row.
    static bool CanPlaceRows(const DbColumns& columns, const std::vector<std::string>& wanted) {
        for (size_t c = 0; c < wanted.size(); ++c)
            if ((wanted[c] == "startNs" || wanted[c] == "endNs") && !columns.Has(c)) return false;
        return true;
    }
    void AfterRows(const SqliteStatement& statement, const std::string& table) {
        if (statement.Failed())
            Problem(m_db.LastErrorMessage() + " (while reading " + table +
                    "; the rows before were kept)");
    }

    // The row's connection id: false when NULL (no arrow), and, with a problem naming the row,
    // when it is not a non-negative integer (a damaged value joins nothing).
    bool ReadConnection(const SqliteStatement& row, int column, DbTable table, int64_t rowid,
                        int64_t* connection) {
        if (column < 0 || row.IsNull(column)) return false;
        if (ReadDbInt(row, column, connection) && *connection >= 0) return true;
        RowProblem(DbTableName(table), rowid,
                   "connectionId \"" + std::string(row.Text(column)) +
                       "\" is not a connection id (a non-negative integer); joined to nothing");
        return false;
    }

    StringId Intern(const std::string& text) { return m_events.strings.Intern(text); }
    // The reference of row 'rowid' of 'table': the rowid itself, or a place in the list of far
    // rowids (see DbFarRef).
    uint64_t RowRef(DbTable table, int64_t rowid) {
        if (rowid >= 0 && static_cast<uint64_t>(rowid) < kDbFarRow) return DbRef(table, rowid);
        // Rows read twice (a communication task on its stream and its plane) share an entry.
        if (m_farRowids.empty() || m_farRowids.back() != rowid) m_farRowids.push_back(rowid);
        return DbFarRef(table, m_chunk, static_cast<uint32_t>(m_farRowids.size() - 1));
    }
    // The kernel table's id of a slice name, and of a STRING_IDS id: cached, as millions of tasks
    // share a few thousand names.
    StringId KernelName(StringId sliceName) {
        if (sliceName >= m_kernelNames.size()) m_kernelNames.resize(sliceName + 1, kNoKernelName);
        StringId& cached = m_kernelNames[sliceName];
        if (cached == kNoKernelName)
            cached = m_out.kernels.strings.Intern(m_events.strings.Get(sliceName));
        return cached;
    }
    // The kernel table's "Step Id" of step 'index' of m_out.steps, made once.
    StringId StepName(size_t index) {
        if (m_stepNames.size() < m_out.steps.size()) m_stepNames.resize(m_out.steps.size(), 0);
        if (m_stepNames[index] == 0)
            m_stepNames[index] =
                m_out.kernels.strings.Intern(std::to_string(m_out.steps[index].id));
        return m_stepNames[index];
    }
    StringId KernelString(int64_t id);
    StringId NameOf(int64_t id);

    int64_t DevicePid(int64_t sortIndex) const {
        return (m_hostPid << 10) | (sortIndex << 5) | (m_deviceId & 31);
    }

    // The chunk track of (pid, tid), made with its process's and its own metadata on first use.
    uint32_t Track(int64_t pid, int64_t tid, const char* processName, int64_t processSort,
                   const char* label, const std::string& threadName, int64_t threadSort);
    uint32_t NewTrack(int64_t pid, int64_t tid);
    void AddMetadata(uint32_t track, MetadataKind kind, StringId text, int64_t number) {
        m_events.metadata.push_back({0, track, kind, text, number});
    }
    // The named thread track of (pid, tid) when it exists: one hash lookup, the common case of
    // every row.
    std::optional<uint32_t> KnownThread(int64_t pid, int64_t tid) const {
        const auto found = m_namedThreads.find({pid, tid});
        if (found == m_namedThreads.end()) return std::nullopt;
        return found->second;
    }
    uint32_t HostThread(int64_t globalTid, bool cann);
    uint32_t StreamTrack(int64_t stream);
    uint32_t HcclTrack(int64_t tid, const std::string& name);

    // Adds a slice; false (with a problem) when its times cannot be read or end before the start.
    bool AddSlice(uint32_t track, const SqliteStatement& row, int startColumn, int endColumn,
                  DbTable table, int64_t rowid, StringId name, TimeNs* startOut = nullptr);

    void ReadMetadata();

    // SESSION_TIME_INFO: when the profiler ran. A time more than the session's length outside it
    // is a damaged value, not a moment of the run.
    void ReadSession();
    bool InSession(TimeNs ts) const { return ts >= m_earliestNs && ts <= m_latestNs; }
    std::string SessionText() const {
        return "outside the profiling session (SESSION_TIME_INFO, with its length of " +
               std::to_string(m_sessionLength) + " ns either side)";
    }

    // Names the timeline tables that are missing, and a schema this reader has not seen.
    void CheckTables();

    void ReadSteps();

    void ReadPytorchApi();

    void ReadCannApi();

    struct CommunicationTask {
        int64_t plane = 0;
        int64_t typeId = 0;
    };

    void ReadCommunicationTaskInfo();
    // The connection ids of COMMUNICATION_OP, before the tasks: what tells an operator's own
    // task on its stream (see ReadTasks).
    void ReadCommunicationConnections();

    // Whether a TASK row of this globalTaskId came before (a duplicated row). Ids are small and
    // dense in what profilers write: a bit per id, and a set for the rare large one.
    bool SeenTaskBefore(int64_t globalTask);
    static constexpr int64_t kMaxPlanes = 65536;

    // The code in m_out.sliceFields of TASK.taskType 'typeId' (0 when it names no string).
    uint8_t TaskTypeCode(int64_t typeId);
    void ReadTasks();
    void ReadCommunicationOps();
    void ReadCounters();
    void ReadConnectionIds();
    void LinkFlows(DbTimelineReader& host);
    void ReportMissingStrings();
    void SortSlices();
    void AddOverlap();
    void FinishKernels();

    const SqliteFile& m_db;
    DbTimeline& m_out;
    ChunkEvents& m_events;
    uint32_t m_chunk;
    Part m_part;
    std::string m_schemaVersion;
    std::vector<std::pair<std::string, uint64_t>> m_rowsRead;
    std::vector<DbArrow> m_arrows;
    const LoadTiming m_timing;  // per table, with MAREY_TIMING set
    DbStrings m_strings;
    std::unordered_map<int64_t, StringId> m_interned;
    uint64_t m_missingStrings = 0;
    std::vector<int64_t> m_farRowids;
    std::vector<uint64_t> m_seenTasks;
    std::vector<std::pair<int64_t, uint8_t>> m_taskTypeCodes;  // TASK.taskType id, its code
    std::unordered_set<int64_t> m_seenLargeTasks;
    static constexpr StringId kNoKernelName = ~StringId{0};
    std::vector<StringId> m_kernelNames;  // by slice name id
    std::vector<StringId> m_stepNames;    // by step index; 0 until made
    std::unordered_map<int64_t, StringId> m_kernelStrings;
    int64_t m_hostPid = 0, m_deviceId = 0;
    TimeNs m_sessionLength = 0, m_earliestNs = INT64_MIN, m_latestNs = INT64_MAX;
    std::unordered_map<int64_t, std::string> m_apiTypes;
    std::map<std::pair<int64_t, int64_t>, uint32_t> m_tracks;
    std::set<int64_t> m_processes;
    struct PairHash {
        size_t operator()(const std::pair<int64_t, int64_t>& key) const {
            return std::hash<int64_t>()(key.first * 1000003 ^ key.second);
        }
    };
    std::unordered_map<std::pair<int64_t, int64_t>, uint32_t, PairHash> m_namedThreads;
    std::vector<PendingEnd> m_enqueues, m_dequeues, m_operators;
    std::vector<PendingEnd> m_cannApis;  // by connection id once the part has run
    std::unordered_map<int64_t, CommunicationTask> m_communicationTasks;
    std::unordered_set<int64_t> m_communicationConnections;
    std::vector<PendingEnd> m_deviceTargets;  // tasks and communication ops with a connection id
    // CONNECTION_IDS (id, connectionId), sorted once read.
    std::vector<std::pair<int64_t, int64_t>> m_connectionIds;
    std::vector<TimeRange> m_computing, m_communication;
};

}  // namespace marey
