#include "db/DbTimeline.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>
#include <thread>
#include <unordered_map>
#include <unordered_set>

#include "core/LoadTiming.hpp"
#include "db/DbOverlap.hpp"
#include "db/DbRows.hpp"

namespace marey {

const char* DbTableName(DbTable table) {
    switch (table) {
        case DbTable::kPytorchApi:
            return "PYTORCH_API";
        case DbTable::kCannApi:
            return "CANN_API";
        case DbTable::kTask:
            return "TASK";
        case DbTable::kCommunicationOp:
            return "COMMUNICATION_OP";
        case DbTable::kCommunicationTask:
            return "TASK";
        default:
            return "(computed)";
    }
}

const char* DbFlowCategory(DbFlowKind kind) {
    switch (kind) {
        case DbFlowKind::kHostToDevice:
            return "HostToDevice";
        case DbFlowKind::kAsyncNpu:
            return "async_npu";
        case DbFlowKind::kAsyncTaskQueue:
            return "async_task_queue";
        default:
            return "fwdbwd";
    }
}

namespace {

// Sort indexes of the text export's processes; device pids put them in bits 5-9.
constexpr int64_t kPythonSort = 0, kCannSort = 7, kHardwareSort = 13, kFreqSort = 14,
                  kHcclSort = 15, kNpuMemSort = 19, kOverlapSort = 23;
constexpr int64_t kLaterGroupTid = 100000;  // HCCL group g > 0 is thread 100000 + g

// The name prefix of a CANN API level, as the text export writes it ("AscendCL@aclnnAdd").
std::string CannLevelPrefix(const std::string& level) {
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
    size_t low = 0, high = sorted.size();
    if (hint < sorted.size() && keyOf(sorted[hint]) <= key) {
        low = hint;
        size_t step = 1;
        while (low + step < sorted.size() && keyOf(sorted[low + step]) < key) {
            low += step;
            step *= 2;
        }
        high = std::min(sorted.size(), low + step + 1);
    }
    auto first = std::lower_bound(sorted.begin() + static_cast<ptrdiff_t>(low),
                                  sorted.begin() + static_cast<ptrdiff_t>(high), key,
                                  [&](const T& a, int64_t k) { return keyOf(a) < k; });
    return static_cast<size_t>(first - sorted.begin());
}

// The first of 'sorted' (by connection, stably) with this connection id, or null.
const PendingEnd* FirstOf(const std::vector<PendingEnd>& sorted, int64_t connection) {
    const auto it =
        std::lower_bound(sorted.begin(), sorted.end(), connection,
                         [](const PendingEnd& a, int64_t c) { return a.connection < c; });
    return it != sorted.end() && it->connection == connection ? &*it : nullptr;
}

class TimelineReader {
public:
    // 'chunk' is the index of 'events' in out.chunks; 'part' which tables this reader reads.
    // kOperators: only what the operators and steps need (STEP_TIME, TASK, COMMUNICATION_OP).
    enum class Part { kHost, kDevice, kOperators };
    TimelineReader(const SqliteFile& db, DbTimeline& out, ChunkEvents& events, uint32_t chunk,
                   Part part)
        : m_db(db), m_out(out), m_events(events), m_chunk(chunk), m_part(part) {}

    // The tables of this reader's part, about half the work each (measured on generated runs):
    // the host part reads PYTORCH_API and CONNECTION_IDS; the device part STEP_TIME, the tasks,
    // the communication operators, CANN_API and the counters.
    // Two readers run at once, each on its own connection, writing only their own chunk and
    // members (and out.kernels, out.steps, out.overlap for the device part).
    void Run() {
        std::vector<std::string> stringProblems;
        m_strings = DbStrings::Read(m_db, stringProblems);
        ReadMetadata();
        if (m_part == Part::kOperators) {
            ReadSteps();
            ReadTasks();
            ReadCommunicationOps();
            if (!m_computing.empty() || !m_communication.empty()) AddOverlap();
            FinishKernels();
            return;
        }
        if (m_part == Part::kHost) {
            ReadPytorchApi();
            ReadConnectionIds();
            ReportMissingStrings();
            SortSlices();
            m_timing.Report("database: host slices sorted");
            return;
        }
        for (const std::string& problem : stringProblems) Problem(problem);
        CheckTables();
        ReadSteps();
        ReadCommunicationTaskInfo();
        ReadTasks();
        ReadCommunicationOps();
        ReadCannApi();
        ReadCounters();
        ReportMissingStrings();
    }

    std::vector<int64_t> TakeFarRowids() { return std::move(m_farRowids); }

    // Once both parts have run: the device part's Overlap Analysis and slice order on one
    // thread, while the operators are finished and the arrows joined on this one (each touches
    // data of its own).
    static void Finish(TimelineReader& host, TimelineReader& device, bool twoThreads);

private:
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
        std::optional<SqliteStatement> row;
        if (!Prepare(columns.Select(), row)) return;
        uint64_t rows = 0;
        while (row->Step()) {
            ++rows;
            perRow(*row, columns);
        }
        AfterRows(*row, table);
        CountRows(table, rows);
    }
    void AfterRows(const SqliteStatement& statement, const std::string& table) {
        if (statement.Failed())
            Problem(m_db.LastError() + " (while reading " + table + "; the rows before were kept)");
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
    StringId KernelString(int64_t id) {
        const auto found = m_kernelStrings.find(id);
        if (found != m_kernelStrings.end()) return found->second;
        return m_kernelStrings.emplace(id, m_out.kernels.strings.Intern(m_strings.Text(id)))
            .first->second;
    }
    StringId NameOf(int64_t id) {
        const auto it = m_interned.find(id);
        if (it != m_interned.end()) return it->second;
        const std::string* text = m_strings.Find(id);
        if (!text) ++m_missingStrings;
        const StringId interned = Intern(text ? *text : "<string " + std::to_string(id) + ">");
        m_interned.emplace(id, interned);
        return interned;
    }

    int64_t DevicePid(int64_t sortIndex) const {
        return (m_hostPid << 10) | (sortIndex << 5) | (m_deviceId & 31);
    }

    // The chunk track of (pid, tid), made with its process's and its own metadata on first use.
    uint32_t Track(int64_t pid, int64_t tid, const char* processName, int64_t processSort,
                   const char* label, const std::string& threadName, int64_t threadSort) {
        const auto key = std::make_pair(pid, tid);
        const auto found = m_tracks.find(key);
        // A process's first track may be its tid 0 made for the process's metadata: a thread of
        // tid 0 (HCCL's first group) still gets its name.
        if (found != m_tracks.end() && (threadName.empty() || m_namedThreads.count(key)))
            return found->second;
        if (!m_processes.count(pid)) {
            m_processes.insert(pid);
            const uint32_t processTrack = NewTrack(pid, 0);
            AddMetadata(processTrack, MetadataKind::kProcessName, Intern(processName), 0);
            AddMetadata(processTrack, MetadataKind::kProcessLabels, Intern(label), 0);
            AddMetadata(processTrack, MetadataKind::kProcessSortIndex, 0, processSort);
        }
        const uint32_t track = NewTrack(pid, tid);
        if (!threadName.empty()) {
            m_namedThreads.emplace(key, track);
            AddMetadata(track, MetadataKind::kThreadName, Intern(threadName), 0);
            AddMetadata(track, MetadataKind::kThreadSortIndex, 0, threadSort);
        }
        return track;
    }
    uint32_t NewTrack(int64_t pid, int64_t tid) {
        const auto key = std::make_pair(pid, tid);
        const auto found = m_tracks.find(key);
        if (found != m_tracks.end()) return found->second;
        ChunkTrack track;
        track.pid = EntityId{pid, 0};
        track.tid = EntityId{tid, 0};
        m_events.tracks.push_back(std::move(track));
        const uint32_t index = static_cast<uint32_t>(m_events.tracks.size() - 1);
        m_tracks.emplace(key, index);
        return index;
    }
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
    uint32_t HostThread(int64_t globalTid, bool cann) {
        const int64_t tid = globalTid & 0xFFFFFFFF;
        const int64_t pid = cann ? DevicePid(kCannSort) : m_hostPid;
        if (const auto known = KnownThread(pid, tid)) return *known;
        const std::string name = "Thread " + std::to_string(tid);
        if (cann) return Track(pid, tid, "CANN", kCannSort, "CPU", name, tid);
        return Track(pid, tid, "Python", kPythonSort, "CPU", name, tid);
    }
    uint32_t StreamTrack(int64_t stream) {
        const int64_t pid = DevicePid(kHardwareSort);
        if (const auto known = KnownThread(pid, stream)) return *known;
        return Track(pid, stream, "Ascend Hardware", kHardwareSort, "NPU",
                     "Stream " + std::to_string(stream), stream);
    }
    uint32_t HcclTrack(int64_t tid, const std::string& name) {
        return Track(DevicePid(kHcclSort), tid, "HCCL", kHcclSort, "NPU", name, tid);
    }

    // Adds a slice; false (with a problem) when its times cannot be read or end before the start.
    bool AddSlice(uint32_t track, const SqliteStatement& row, int startColumn, int endColumn,
                  DbTable table, int64_t rowid, StringId name, TimeNs* startOut = nullptr) {
        TimeNs start = 0, end = 0;
        if (!ReadDbNs(row, startColumn, &start) || !ReadDbNs(row, endColumn, &end)) {
            RowProblem(DbTableName(table), rowid,
                       "startNs/endNs is not an integer time in ns (\"" +
                           std::string(row.Text(startColumn)) + "\", \"" +
                           std::string(row.Text(endColumn)) + "\"); row left out");
            return false;
        }
        TimeNs duration = 0;
        if (end < start || __builtin_sub_overflow(end, start, &duration)) {
            RowProblem(DbTableName(table), rowid,
                       end < start ? "ends before it starts; row left out"
                                   : "lasts longer than 292 years; row left out");
            return false;
        }
        if (!InSession(start) || !InSession(end)) {
            RowProblem(DbTableName(table), rowid, SessionText() + "; row left out");
            return false;
        }
        m_events.AddSlice(track, start, duration, RowRef(table, rowid), name);
        ++m_events.eventCount;
        ++m_events.phases.byChar['X'];
        if (startOut) *startOut = start;
        return true;
    }

    void ReadMetadata() {
        if (m_db.HasTable("META_DATA")) {
            std::optional<SqliteStatement> row;
            if (Prepare("SELECT value FROM META_DATA WHERE name = 'SCHEMA_VERSION'", row) &&
                row->Step())
                m_schemaVersion = std::string(row->Text(0));
        }
        // The host pid: from a thread id, else from TASK.globalPid.
        const char* const pidQueries[] = {
            "SELECT globalTid >> 32 FROM PYTORCH_API LIMIT 1",
            "SELECT globalTid >> 32 FROM CANN_API LIMIT 1",
            "SELECT globalPid FROM TASK LIMIT 1",
        };
        for (const char* sql : pidQueries) {
            auto statement = m_db.Prepare(sql);
            if (statement.ok() && statement.value().Step() &&
                ReadDbInt(statement.value(), 0, &m_hostPid))
                break;
        }
        if (m_db.HasTable("RANK_DEVICE_MAP")) {
            auto statement = m_db.Prepare("SELECT deviceId FROM RANK_DEVICE_MAP LIMIT 1");
            if (statement.ok() && statement.value().Step())
                ReadDbInt(statement.value(), 0, &m_deviceId);
            // Device pids keep 5 bits of it (a host has at most 16 cards).
            if (m_deviceId < 0 || m_deviceId > 31) {
                Problem("RANK_DEVICE_MAP names device " + std::to_string(m_deviceId) +
                        ", not a device of one host (0-31): device 0 assumed for the process ids");
                m_deviceId = 0;
            }
        }
        ReadSession();
        if (m_db.HasTable("ENUM_API_TYPE")) {
            auto statement = m_db.Prepare("SELECT id, name FROM ENUM_API_TYPE");
            if (statement.ok())
                while (statement.value().Step())
                    m_apiTypes[statement.value().Int(0)] = std::string(statement.value().Text(1));
        }
    }

    // SESSION_TIME_INFO: when the profiler ran. A time more than the session's length outside it
    // is a damaged value, not a moment of the run.
    void ReadSession() {
        if (!m_db.HasTable("SESSION_TIME_INFO")) return;
        auto statement =
            m_db.Prepare("SELECT startTimeNs, endTimeNs FROM SESSION_TIME_INFO LIMIT 1");
        TimeNs start = 0, end = 0;
        if (!statement.ok() || !statement.value().Step() ||
            !ReadDbNs(statement.value(), 0, &start) || !ReadDbNs(statement.value(), 1, &end) ||
            end <= start || __builtin_sub_overflow(end, start, &m_sessionLength) ||
            __builtin_sub_overflow(start, m_sessionLength, &m_earliestNs) ||
            __builtin_add_overflow(end, m_sessionLength, &m_latestNs)) {
            m_earliestNs = INT64_MIN, m_latestNs = INT64_MAX;
            return;
        }
    }
    bool InSession(TimeNs ts) const { return ts >= m_earliestNs && ts <= m_latestNs; }
    std::string SessionText() const {
        return "outside the profiling session (SESSION_TIME_INFO, with its length of " +
               std::to_string(m_sessionLength) + " ns either side)";
    }

    // Names the timeline tables that are missing, and a schema this reader has not seen.
    void CheckTables() {
        if (!m_schemaVersion.empty() && m_schemaVersion.rfind("1.", 0) != 0)
            Problem("schema version " + m_schemaVersion +
                    " has not been seen before (marey knows 1.x): tables and columns are read by "
                    "name, and what is missing is listed here");
        const std::pair<const char*, const char*> kTables[] = {
            {"TASK", "no device tasks"},
            {"PYTORCH_API", "no PyTorch operators on the host"},
            {"CANN_API", "no CANN API calls and no HostToDevice arrows"},
            {"STRING_IDS", nullptr},  // reported when its strings are read
        };
        for (const auto& [table, loss] : kTables)
            if (loss && !m_db.HasTable(table))
                Problem("no table " + std::string(table) + " (schema " + SchemaText() +
                        "): " + loss);
    }

    void ReadSteps() {
        ForEachRow("STEP_TIME", {"id", "startNs", "endNs"},
                   [&](const SqliteStatement& row, const DbColumns& columns) {
                       DbStep step{};
                       if (!ReadDbInt(row, columns.Column(0), &step.id) ||
                           !ReadDbNs(row, columns.Column(1), &step.startNs) ||
                           !ReadDbNs(row, columns.Column(2), &step.endNs) ||
                           step.endNs < step.startNs) {
                           RowProblem("STEP_TIME", row.Int(0),
                                      "id, startNs or endNs unreadable; left out");
                           return;
                       }
                       for (const DbStep& earlier : m_out.steps)
                           if (earlier.id == step.id) {
                               RowProblem("STEP_TIME", row.Int(0),
                                          "a second row of step " + std::to_string(step.id) +
                                              "; left out");
                               return;
                           }
                       m_out.steps.push_back(step);
                   });
        std::sort(m_out.steps.begin(), m_out.steps.end(),
                  [](const DbStep& a, const DbStep& b) { return a.startNs < b.startNs; });
    }

    void ReadPytorchApi() {
        enum { kStart, kEnd, kTid, kConnection, kName, kSequence, kFwdThread, kType };
        // (sequence, end) of forward and of backward operators: sorted later, the earliest of each
        // sequence kept (vectors: a hash map would allocate for each of millions of operators).
        std::vector<PendingEnd> forward, backward;
        ForEachRow(
            "PYTORCH_API",
            {"startNs", "endNs", "globalTid", "connectionId", "name", "sequenceNumber",
             "fwdThreadId", "type"},
            [&](const SqliteStatement& row, const DbColumns& columns) {
                const int64_t rowid = row.Int(0);
                int64_t globalTid = 0, nameId = 0;
                ReadDbInt(row, columns.Column(kTid), &globalTid);
                ReadDbInt(row, columns.Column(kName), &nameId);
                const uint32_t track = HostThread(globalTid, false);
                const StringId name = NameOf(nameId);
                TimeNs start = 0;
                if (!AddSlice(track, row, columns.Column(kStart), columns.Column(kEnd),
                              DbTable::kPytorchApi, rowid, name, &start))
                    return;
                const DbFlowEnd end{m_chunk, track, start, RowRef(DbTable::kPytorchApi, rowid)};
                int64_t connection = 0, type = 0, sequence = -1, fwdThread = 0;
                ReadDbInt(row, columns.Column(kType), &type);
                if (ReadDbInt(row, columns.Column(kConnection), &connection)) {
                    const std::string_view text = m_events.strings.Get(name);
                    if (text.rfind("Enqueue", 0) == 0)
                        m_enqueues.push_back({connection, end});
                    else if (text.rfind("Dequeue", 0) == 0)
                        m_dequeues.push_back({connection, end});
                    else
                        m_operators.push_back({connection, end});
                }
                if (ReadDbInt(row, columns.Column(kSequence), &sequence) && sequence >= 0) {
                    ReadDbInt(row, columns.Column(kFwdThread), &fwdThread);
                    (fwdThread > 0 ? backward : forward).push_back({sequence, end});
                }
            });
        // Per sequence, the earliest forward operator to the earliest backward one.
        auto bySequenceThenTime = [](const PendingEnd& a, const PendingEnd& b) {
            return a.connection != b.connection ? a.connection < b.connection : a.end.ts < b.end.ts;
        };
        std::stable_sort(forward.begin(), forward.end(), bySequenceThenTime);
        std::stable_sort(backward.begin(), backward.end(), bySequenceThenTime);
        for (size_t b = 0; b < backward.size(); ++b) {
            if (b > 0 && backward[b].connection == backward[b - 1].connection) continue;
            const PendingEnd* from = FirstOf(forward, backward[b].connection);
            if (from) m_arrows.push_back({from->end, backward[b].end, DbFlowKind::kFwdBwd});
        }
    }

    void ReadCannApi() {
        enum { kStart, kEnd, kType, kTid, kConnection, kName };
        std::unordered_map<int64_t, std::unordered_map<int64_t, StringId>> namesByType;
        ForEachRow(
            "CANN_API", {"startNs", "endNs", "type", "globalTid", "connectionId", "name"},
            [&](const SqliteStatement& row, const DbColumns& columns) {
                const int64_t rowid = row.Int(0);
                int64_t globalTid = 0, nameId = 0, type = 0, connection = 0;
                ReadDbInt(row, columns.Column(kTid), &globalTid);
                ReadDbInt(row, columns.Column(kName), &nameId);
                ReadDbInt(row, columns.Column(kType), &type);
                auto& names = namesByType[type];
                auto named = names.find(nameId);
                if (named == names.end()) {
                    const auto level = m_apiTypes.find(type);
                    const std::string prefix = CannLevelPrefix(
                        level == m_apiTypes.end() ? std::to_string(type) : level->second);
                    named =
                        names.emplace(nameId, Intern(prefix + "@" + m_strings.Text(nameId))).first;
                }
                const uint32_t track = HostThread(globalTid, true);
                TimeNs start = 0;
                if (!AddSlice(track, row, columns.Column(kStart), columns.Column(kEnd),
                              DbTable::kCannApi, rowid, named->second, &start))
                    return;
                if (ReadDbInt(row, columns.Column(kConnection), &connection))
                    m_cannApis.push_back({connection, DbFlowEnd{m_chunk, track, start,
                                                                RowRef(DbTable::kCannApi, rowid)}});
            });
    }

    struct CommunicationTask {
        int64_t plane = 0;
        int64_t typeId = 0;
    };

    void ReadCommunicationTaskInfo() {
        ForEachRow("COMMUNICATION_TASK_INFO", {"globalTaskId", "taskType", "planeId"},
                   [&](const SqliteStatement& row, const DbColumns& columns) {
                       int64_t task = 0;
                       CommunicationTask info;
                       if (!ReadDbInt(row, columns.Column(0), &task)) {
                           RowProblem("COMMUNICATION_TASK_INFO", row.Int(0),
                                      "globalTaskId unreadable; left out");
                           return;
                       }
                       ReadDbInt(row, columns.Column(1), &info.typeId);
                       ReadDbInt(row, columns.Column(2), &info.plane);
                       if (!m_communicationTasks.emplace(task, info).second)
                           RowProblem("COMMUNICATION_TASK_INFO", row.Int(0),
                                      "a second row of globalTaskId " + std::to_string(task) +
                                          "; left out");
                   });
    }

    // Whether a TASK row of this globalTaskId came before (a duplicated row). Ids are small and
    // dense in what profilers write: a bit per id, and a set for the rare large one.
    bool SeenTaskBefore(int64_t globalTask) {
        if (globalTask >= 0 && globalTask < (int64_t{1} << 32)) {
            const size_t word = static_cast<size_t>(globalTask) / 64;
            if (word >= m_seenTasks.size())
                m_seenTasks.resize(std::max(word + 1, m_seenTasks.size() * 2));
            const uint64_t bit = uint64_t{1} << (globalTask % 64);
            const bool seen = m_seenTasks[word] & bit;
            m_seenTasks[word] |= bit;
            return seen;
        }
        return !m_seenLargeTasks.insert(globalTask).second;
    }
    static constexpr int64_t kMaxPlanes = 65536;

    void ReadTasks();
    void ReadCommunicationOps();
    void ReadCounters();
    void ReadConnectionIds();
    void LinkFlows(TimelineReader& host);
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
    std::vector<PendingEnd> m_deviceTargets;  // tasks and communication ops with a connection id
    // CONNECTION_IDS (id, connectionId), sorted once read.
    std::vector<std::pair<int64_t, int64_t>> m_connectionIds;
    std::vector<TimeRange> m_computing, m_communication;
};

}  // namespace

// [SECTION] device tables

void TimelineReader::ReadTasks() {
    enum { kStart, kEnd, kConnection, kGlobalTask, kTaskType, kStream, kName, kOpType, kCore };
    DbColumns task(m_db, "TASK",
                   {"startNs", "endNs", "connectionId", "globalTaskId", "taskType", "streamId"});
    if (!task.TableExists()) return;
    ReportMissing(task);
    DbColumns compute(m_db, "COMPUTE_TASK_INFO", {"name", "opType", "taskType", "globalTaskId"});
    if (compute.TableExists()) ReportMissing(compute);
    std::string sql = "SELECT t.rowid";
    for (size_t c = 0; c < 6; ++c) sql += ", " + task.Expression(c, "t");
    for (size_t c = 0; c < 3; ++c)
        sql += ", " + (compute.Has(3) ? compute.Expression(c, "c") : std::string("NULL"));
    sql += " FROM TASK t";
    if (compute.Has(3))
        sql += " LEFT JOIN COMPUTE_TASK_INFO c ON c." + compute.Expression(3, "c").substr(2) +
               " = t." + task.Expression(kGlobalTask, "t").substr(2);
    std::optional<SqliteStatement> row;
    if (!Prepare(sql, row)) return;
    uint64_t rows = 0;
    std::unordered_map<int64_t, StringId> typeNames;
    while (row->Step()) {
        ++rows;
        const int64_t rowid = row->Int(0);
        int64_t stream = 0, globalTask = -1, nameId = 0, typeId = 0, connection = 0;
        ReadDbInt(*row, 1 + kStream, &stream);
        ReadDbInt(*row, 1 + kGlobalTask, &globalTask);
        if (SeenTaskBefore(globalTask)) {
            RowProblem("TASK", rowid,
                       "a second row of globalTaskId " + std::to_string(globalTask) + "; left out");
            continue;
        }
        const bool isCompute = ReadDbInt(*row, 1 + kName, &nameId);
        // Most tasks are compute tasks: only the others are looked up among the communication's.
        const auto communication =
            isCompute ? m_communicationTasks.end() : m_communicationTasks.find(globalTask);
        const bool isCommunication = communication != m_communicationTasks.end();
        StringId name;
        if (isCompute) {
            name = NameOf(nameId);
        } else if (isCommunication) {
            name = NameOf(communication->second.typeId);
        } else {
            ReadDbInt(*row, 1 + kTaskType, &typeId);
            name = NameOf(typeId);
        }
        const uint32_t track = StreamTrack(stream);
        TimeNs start = 0;
        if (!AddSlice(track, *row, 1 + kStart, 1 + kEnd, DbTable::kTask, rowid, name, &start))
            continue;
        TimeNs end = 0;
        ReadDbNs(*row, 1 + kEnd, &end);
        // A plane id is a small index; 4294967295 and such mean "none": shown on its stream only.
        const int64_t plane = isCommunication ? communication->second.plane : 0;
        if (isCommunication && (plane < 0 || plane >= kMaxPlanes))
            RowProblem("TASK", rowid,
                       "its COMMUNICATION_TASK_INFO planeId " + std::to_string(plane) +
                           " is not a plane: shown on its stream only");
        else if (isCommunication) {
            const auto known = KnownThread(DevicePid(kHcclSort), plane + 1);
            const uint32_t planeTrack =
                known ? *known : HcclTrack(plane + 1, "Plane " + std::to_string(plane));
            m_events.AddSlice(planeTrack, start, end - start,
                              RowRef(DbTable::kCommunicationTask, rowid), name);
            ++m_events.eventCount;
            ++m_events.phases.byChar['X'];
        }
        if (isCompute) {
            m_computing.push_back({start, end});
            int64_t opType = 0, core = 0;
            ReadDbInt(*row, 1 + kOpType, &opType);
            ReadDbInt(*row, 1 + kCore, &core);
            KernelRow kernel;
            kernel.name = KernelName(name);
            kernel.type = KernelString(opType);
            kernel.core = KernelString(core);
            kernel.coreClass = ClassifyCore(m_out.kernels.strings.Get(kernel.core));
            kernel.startNs = start;
            kernel.durNs = end - start;
            m_out.kernels.rows.push_back(kernel);
        }
        if (ReadDbInt(*row, 1 + kConnection, &connection))
            m_deviceTargets.push_back(
                {connection, {m_chunk, track, start, RowRef(DbTable::kTask, rowid)}});
    }
    AfterRows(*row, "TASK");
    CountRows("TASK", rows);
}

void TimelineReader::ReadCommunicationOps() {
    enum { kName, kStart, kEnd, kConnection, kGroup, kOpType };
    std::vector<int64_t> groups;  // in order of first appearance
    ForEachRow(
        "COMMUNICATION_OP", {"opName", "startNs", "endNs", "connectionId", "groupName", "opType"},
        [&](const SqliteStatement& row, const DbColumns& columns) {
            const int64_t rowid = row.Int(0);
            int64_t nameId = 0, group = 0, opType = 0, connection = 0;
            ReadDbInt(row, columns.Column(kName), &nameId);
            ReadDbInt(row, columns.Column(kGroup), &group);
            ReadDbInt(row, columns.Column(kOpType), &opType);
            size_t g = std::find(groups.begin(), groups.end(), group) - groups.begin();
            if (g == groups.size()) groups.push_back(group);
            const int64_t tid = g == 0 ? 0 : kLaterGroupTid + static_cast<int64_t>(g);
            const uint32_t track = HcclTrack(tid, "Group " + std::to_string(g) + " Communication");
            const StringId name = NameOf(nameId);
            TimeNs start = 0, end = 0;
            if (!AddSlice(track, row, columns.Column(kStart), columns.Column(kEnd),
                          DbTable::kCommunicationOp, rowid, name, &start))
                return;
            ReadDbNs(row, columns.Column(kEnd), &end);
            m_communication.push_back({start, end});
            KernelRow kernel;
            kernel.name = KernelName(name);
            kernel.type = KernelString(opType);
            kernel.core = m_out.kernels.strings.Intern("HCCL");
            kernel.coreClass = CoreClass::kCommunication;
            kernel.startNs = start;
            kernel.durNs = end - start;
            m_out.kernels.rows.push_back(kernel);
            if (ReadDbInt(row, columns.Column(kConnection), &connection))
                m_deviceTargets.push_back(
                    {connection,
                     {m_chunk, track, start, RowRef(DbTable::kCommunicationOp, rowid)}});
        });
}

// [SECTION] counters, connections, overlap

void TimelineReader::ReadCounters() {
    auto series = [&](int64_t pid, const char* process, int64_t sort, const std::string& name,
                      const char* key) {
        const uint32_t track = Track(pid, 0, process, sort, "NPU", "", 0);
        const CounterSeriesKey wanted{track, Intern(name), Intern(key)};
        auto& all = m_events.counterSeries;
        for (uint32_t s = 0; s < all.size(); ++s)
            if (all[s].track == wanted.track && all[s].name == wanted.name &&
                all[s].key == wanted.key)
                return s;
        all.push_back(wanted);
        return static_cast<uint32_t>(all.size() - 1);
    };
    auto sample = [&](uint32_t s, TimeNs ts, double value) {
        m_events.counters.push_back({ts, value, s});
        ++m_events.eventCount;
        ++m_events.phases.byChar['C'];
    };
    const uint32_t frequency =
        series(DevicePid(kFreqSort), "AI Core Freq", kFreqSort, "AI Core Freq", "MHz");
    ForEachRow("AICORE_FREQ", {"timestampNs", "freq"},
               [&](const SqliteStatement& row, const DbColumns& columns) {
                   TimeNs ts = 0;
                   double value = 0;
                   if (!ReadDbNs(row, columns.Column(0), &ts) ||
                       !ReadDbReal(row, columns.Column(1), &value) || value < 0)
                       RowProblem("AICORE_FREQ", row.Int(0),
                                  "time or freq unreadable or negative; left out");
                   else if (!InSession(ts))
                       RowProblem("AICORE_FREQ", row.Int(0), SessionText() + "; left out");
                   else
                       sample(frequency, ts, value);
               });
    ForEachRow("NPU_MEM", {"type", "ddr", "hbm", "timestampNs"},
               [&](const SqliteStatement& row, const DbColumns& columns) {
                   int64_t type = 0;
                   TimeNs ts = 0;
                   ReadDbInt(row, columns.Column(0), &type);
                   if (!ReadDbNs(row, columns.Column(3), &ts) || !InSession(ts)) {
                       RowProblem("NPU_MEM", row.Int(0),
                                  "timestampNs unreadable or " + SessionText() + "; left out");
                       return;
                   }
                   std::string prefix = m_strings.Text(type);
                   for (char& c : prefix) c = static_cast<char>(std::toupper(c));
                   // A NULL amount is no sample (the profiler leaves DDR empty on some cards).
                   double bytes = 0;
                   for (const auto& [column, kind] : {std::pair{1, "/DDR"}, std::pair{2, "/HBM"}}) {
                       if (!ReadDbReal(row, columns.Column(column), &bytes)) continue;
                       if (bytes < 0)
                           RowProblem("NPU_MEM", row.Int(0), "a negative amount; sample left out");
                       else
                           sample(series(DevicePid(kNpuMemSort), "NPU MEM", kNpuMemSort,
                                         prefix + kind, "KB"),
                                  ts, bytes / 1024);
                   }
               });
}

void TimelineReader::ReadConnectionIds() {
    ForEachRow("CONNECTION_IDS", {"id", "connectionId"},
               [&](const SqliteStatement& row, const DbColumns& columns) {
                   int64_t id = 0, connection = 0;
                   if (ReadDbInt(row, columns.Column(0), &id) &&
                       ReadDbInt(row, columns.Column(1), &connection))
                       m_connectionIds.emplace_back(id, connection);
                   else
                       RowProblem("CONNECTION_IDS", row.Int(0),
                                  "id or connectionId unreadable; left out");
               });
    if (!std::is_sorted(m_connectionIds.begin(), m_connectionIds.end()))
        std::sort(m_connectionIds.begin(), m_connectionIds.end());
}

void TimelineReader::Finish(TimelineReader& host, TimelineReader& device, bool twoThreads) {
    DbTimeline& out = host.m_out;
    out.arrows = std::move(host.m_arrows);
    out.rowsRead = std::move(device.m_rowsRead);
    out.rowsRead.insert(out.rowsRead.begin(), host.m_rowsRead.begin(), host.m_rowsRead.end());
    out.schemaVersion = device.m_schemaVersion;
    out.farRowids = {std::move(host.m_farRowids), {}};
    auto shapeSlices = [&device] {
        if (!device.m_computing.empty() || !device.m_communication.empty()) device.AddOverlap();
        device.SortSlices();
        device.m_timing.Report("database: overlap analysis, device slices sorted");
    };
    std::thread shapes;
    if (twoThreads)
        shapes = std::thread(shapeSlices);
    else
        shapeSlices();
    device.FinishKernels();
    device.LinkFlows(host);
    device.m_timing.Report("database: operators, arrows joined");
    if (shapes.joinable()) shapes.join();
    out.farRowids[1] = std::move(device.m_farRowids);
}

void TimelineReader::LinkFlows(TimelineReader& host) {
    auto byConnection = [](const PendingEnd& a, const PendingEnd& b) {
        return a.connection < b.connection;
    };
    // Each list by connection id, each id's ends in table order (mostly so already).
    // Whichever part read CANN_API and CONNECTION_IDS (the split is a matter of balance).
    std::vector<PendingEnd>& cannApis = m_cannApis.empty() ? host.m_cannApis : m_cannApis;
    for (auto* list : {&cannApis, &m_deviceTargets})
        if (!std::is_sorted(list->begin(), list->end(), byConnection))
            std::stable_sort(list->begin(), list->end(), byConnection);
    const std::vector<std::pair<int64_t, int64_t>>& connectionIds =
        m_connectionIds.empty() ? host.m_connectionIds : m_connectionIds;
    // HostToDevice arrows on a thread of their own while the others are joined here.
    std::vector<DbArrow> hostToDevice;
    std::thread launches([&] {
        hostToDevice.reserve(m_deviceTargets.size());
        for (const PendingEnd& target : m_deviceTargets)
            if (const PendingEnd* api = FirstOf(cannApis, target.connection))
                hostToDevice.push_back({api->end, target.end, DbFlowKind::kHostToDevice});
    });
    m_out.arrows.reserve(m_out.arrows.size() + host.m_operators.size() + host.m_enqueues.size() +
                         m_deviceTargets.size());
    uint64_t operatorsToNothing = 0;
    // Operators, their connections and the device rows are each mostly in connection order:
    // each lookup starts where the one before ended.
    size_t idHint = 0, targetHint = 0;
    auto idOf = [](const std::pair<int64_t, int64_t>& entry) { return entry.first; };
    auto connectionOf = [](const PendingEnd& end) { return end.connection; };
    for (const PendingEnd& op : host.m_operators) {
        size_t c = LowerBoundFrom(connectionIds, op.connection, idHint, idOf);
        idHint = c;
        if (c == connectionIds.size() || connectionIds[c].first != op.connection)
            ++operatorsToNothing;
        for (; c < connectionIds.size() && connectionIds[c].first == op.connection; ++c) {
            size_t t =
                LowerBoundFrom(m_deviceTargets, connectionIds[c].second, targetHint, connectionOf);
            targetHint = t;
            for (; t < m_deviceTargets.size() &&
                   m_deviceTargets[t].connection == connectionIds[c].second;
                 ++t)
                m_out.arrows.push_back({op.end, m_deviceTargets[t].end, DbFlowKind::kAsyncNpu});
        }
    }
    // A queue row's connection: the first CONNECTION_IDS entry of its own connectionId.
    size_t queueHint = 0;
    auto queueConnection = [&](const PendingEnd& row) -> std::optional<int64_t> {
        const size_t c = LowerBoundFrom(connectionIds, row.connection, queueHint, idOf);
        queueHint = c;
        if (c == connectionIds.size() || connectionIds[c].first != row.connection)
            return std::nullopt;
        return connectionIds[c].second;
    };
    std::vector<PendingEnd> dequeues;
    dequeues.reserve(host.m_dequeues.size());
    for (const PendingEnd& dequeue : host.m_dequeues)
        if (const auto connection = queueConnection(dequeue))
            dequeues.push_back({*connection, dequeue.end});
    if (!std::is_sorted(dequeues.begin(), dequeues.end(), byConnection))
        std::stable_sort(dequeues.begin(), dequeues.end(), byConnection);
    size_t dequeueHint = 0;
    queueHint = 0;
    for (const PendingEnd& enqueue : host.m_enqueues) {
        const auto connection = queueConnection(enqueue);
        if (!connection) continue;
        const size_t d = LowerBoundFrom(dequeues, *connection, dequeueHint, connectionOf);
        dequeueHint = d;
        if (d < dequeues.size() && dequeues[d].connection == *connection)
            m_out.arrows.push_back({enqueue.end, dequeues[d].end, DbFlowKind::kAsyncTaskQueue});
    }
    launches.join();
    m_out.arrows.insert(m_out.arrows.end(), hostToDevice.begin(), hostToDevice.end());
    if (operatorsToNothing)
        Problem(std::to_string(operatorsToNothing) +
                " PYTORCH_API rows name a connectionId that CONNECTION_IDS does not hold: they "
                "have no arrow to the device");
    // Tasks without a launching API (profiling markers, tasks of a graph) simply have no arrow.
}

void TimelineReader::AddOverlap() {
    const int64_t pid = DevicePid(kOverlapSort);
    const char* const names[] = {"Computing", "Communication", "Communication(Not Overlapped)",
                                 "Free"};
    uint32_t tracks[4];
    for (int t = 0; t < 4; ++t)
        tracks[t] = Track(pid, t, "Overlap Analysis", kOverlapSort, "NPU", names[t], t);
    std::vector<std::pair<TimeNs, TimeNs>> steps;
    for (const DbStep& step : m_out.steps) steps.push_back({step.startNs, step.endNs});
    m_out.overlap = AnalyzeOverlap(m_computing, m_communication, steps);
    const OverlapAnalysis& overlap = m_out.overlap;
    const std::vector<TimeRange>* parts[] = {&overlap.computing, &overlap.communication,
                                             &overlap.notOverlapped, &overlap.free};
    uint64_t index = 0;
    for (int t = 0; t < 4; ++t) {
        const StringId name = Intern(names[t]);
        for (const TimeRange& range : *parts[t]) {
            m_events.AddSlice(tracks[t], range.startNs, range.endNs - range.startNs,
                              DbRef(DbTable::kComputed, index++), name);
            ++m_events.eventCount;
            ++m_events.phases.byChar['X'];
        }
    }
}

void TimelineReader::FinishKernels() {
    auto& rows = m_out.kernels.rows;
    std::stable_sort(rows.begin(), rows.end(),
                     [](const KernelRow& a, const KernelRow& b) { return a.startNs < b.startNs; });
    for (KernelRow& row : rows) {
        // The step that holds the row's start: the "Step Id" of kernel_details.csv.
        const auto after =
            std::upper_bound(m_out.steps.begin(), m_out.steps.end(), row.startNs,
                             [](TimeNs start, const DbStep& step) { return start < step.startNs; });
        if (after != m_out.steps.begin() && row.startNs <= std::prev(after)->endNs)
            row.step = StepName(static_cast<size_t>(std::prev(after) - m_out.steps.begin()));
    }
}

void TimelineReader::ReportMissingStrings() {
    if (m_missingStrings)
        Problem(std::to_string(m_missingStrings) +
                " string ids have no row in STRING_IDS: shown as <string N>");
}

namespace {

// Sorts slices that are in order but for a few (a ProfilerStep row written after the operators
// it holds): the ones out of order are taken out, sorted and merged back. O(n + k log k) for k
// of them; a plain sort's cost when most are out of order.
template <typename Slice>
void SortMostlySorted(PodArray<Slice>& slices) {
    if (std::is_sorted(slices.begin(), slices.end(), SliceBefore)) return;
    std::vector<Slice> inOrder, late;
    inOrder.reserve(slices.size());
    for (const Slice& slice : slices) {
        if (inOrder.empty() || !SliceBefore(slice, inOrder.back()))
            inOrder.push_back(slice);
        else
            late.push_back(slice);
    }
    std::sort(late.begin(), late.end(), SliceBefore);
    std::merge(inOrder.begin(), inOrder.end(), late.begin(), late.end(), slices.begin(),
               SliceBefore);
}

}  // namespace

void TimelineReader::SortSlices() {
    for (ChunkTrack& track : m_events.tracks) {
        SortMostlySorted(track.slices);
        SortMostlySorted(track.wideSlices);
    }
    std::stable_sort(m_events.counters.begin(), m_events.counters.end(),
                     [](const RawCounter& a, const RawCounter& b) { return a.ts < b.ts; });
}

DbTimeline ReadDbOperators(const SqliteFile& db) {
    DbTimeline timeline;
    timeline.chunks.resize(1);
    TimelineReader reader(db, timeline, timeline.chunks[0], 0, TimelineReader::Part::kOperators);
    reader.Run();
    timeline.farRowids = {reader.TakeFarRowids()};
    return timeline;
}

DbTimeline ReadDbTimeline(const SqliteFile& db, unsigned threads) {
    DbTimeline timeline;
    timeline.chunks.resize(2);
    using Part = TimelineReader::Part;
    TimelineReader host(db, timeline, timeline.chunks[0], 0, Part::kHost);
    // The device part reads on a connection of its own (a connection serves one thread).
    std::unique_ptr<SqliteFile> second;
    if (threads > 1) {
        auto opened = SqliteFile::OpenReadOnly(db.Path());
        if (opened.ok()) second = std::move(opened.value());
    }
    TimelineReader device(second ? *second : db, timeline, timeline.chunks[1], 1, Part::kDevice);
    if (second) {
        std::thread hostThread([&] { host.Run(); });
        device.Run();
        hostThread.join();
    } else {
        host.Run();
        device.Run();
    }
    TimelineReader::Finish(host, device, threads > 1);
    return timeline;
}

}  // namespace marey
