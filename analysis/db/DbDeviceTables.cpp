// The device's tables of a profiler database: TASK (with COMPUTE_TASK_INFO and
// COMMUNICATION_TASK_INFO), COMMUNICATION_OP, and the counters (NPU memory, frequency).
#include <algorithm>

#include "db/DbTimelineReader.hpp"

namespace marey {

void DbTimelineReader::ReadCommunicationConnections() {
    if (!m_db.HasTable("COMMUNICATION_OP")) return;
    const DbColumns columns(m_db, "COMMUNICATION_OP", {"connectionId"});
    std::optional<SqliteStatement> row;
    if (!columns.Has(0) || !Prepare(columns.Select(), row)) return;
    int64_t connection = 0;
    while (row->Step())
        if (ReadDbInt(*row, columns.Column(0), &connection))
            m_communicationConnections.insert(connection);
}

void DbTimelineReader::ReadCommunicationTaskInfo() {
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
                       RowProblem(
                           "COMMUNICATION_TASK_INFO", row.Int(0),
                           "a second row of globalTaskId " + std::to_string(task) + "; left out");
               });
}

bool DbTimelineReader::SeenTaskBefore(int64_t globalTask) {
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

uint8_t DbTimelineReader::TaskTypeCode(int64_t typeId) {
    // A run has a few task types: a short list beats a hash of every row's id.
    for (const auto& [id, code] : m_taskTypeCodes)
        if (id == typeId) return code;
    const std::string* type = m_strings.Find(typeId);
    if (!type) NameOf(typeId);  // counts the missing string once, as a name's would be
    const uint8_t code = m_out.sliceFields.TaskTypeCode(type ? *type : std::string_view());
    if (m_taskTypeCodes.size() < 64) m_taskTypeCodes.emplace_back(typeId, code);
    return code;
}

void DbTimelineReader::ReadTasks() {
    enum { kStart, kEnd, kConnection, kGlobalTask, kTaskType, kStream, kName, kOpType, kCore };
    DbColumns task(m_db, "TASK",
                   {"startNs", "endNs", "connectionId", "globalTaskId", "taskType", "streamId"});
    if (!task.TableExists()) return;
    ReportMissing(task);
    if (!task.Has(kStart) || !task.Has(kEnd)) return;  // no task can be placed: said once
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
    TableReadProgress progress(m_db, "TASK", m_progressDone);
    while (row->Step()) {
        ++rows;
        const int64_t rowid = row->Int(0);
        progress.Row(rowid);
        int64_t stream = 0, globalTask = -1, nameId = 0, typeId = 0, connection = 0;
        ReadDbInt(*row, 1 + kStream, &stream);
        ReadDbInt(*row, 1 + kGlobalTask, &globalTask);
        if (SeenTaskBefore(globalTask)) {
            RowProblem("TASK", rowid,
                       "a second row of globalTaskId " + std::to_string(globalTask) + "; left out");
            continue;
        }
        const bool isCompute = ReadDbInt(*row, 1 + kName, &nameId);
        const bool hasType = ReadDbInt(*row, 1 + kTaskType, &typeId);
        if (!hasType && !row->IsNull(1 + kTaskType))
            RowProblem("TASK", rowid,
                       "taskType \"" + std::string(row->Text(1 + kTaskType)) +
                           "\" is not a string id: the task's type is unknown");
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
        const bool hasConnection =
            ReadConnection(*row, 1 + kConnection, DbTable::kTask, rowid, &connection);
        if (hasConnection)
            m_deviceTargets.push_back(
                {connection, {m_chunk, track, start, RowRef(DbTable::kTask, rowid)}});
        if (m_part == Part::kDevice) {
            // A task with neither info row that a communication operator launched is the
            // operator's own task on its stream (the real sample's are typed AI_CORE and span
            // the operator): communication, as its planes' tasks are.
            const bool operatorTask = !isCompute && !isCommunication && hasConnection &&
                                      m_communicationConnections.count(connection);
            const uint8_t type = operatorTask ? m_out.sliceFields.TaskTypeCode("HCCL")
                                 : hasType    ? TaskTypeCode(typeId)
                                              : uint8_t{0};
            m_out.sliceFields.AppendTask(RowRef(DbTable::kTask, rowid), type,
                                         hasConnection ? connection : -1);
        }
    }
    AfterRows(*row, "TASK");
    CountRows("TASK", rows);
}

void DbTimelineReader::ReadCommunicationOps() {
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
            if (ReadConnection(row, columns.Column(kConnection), DbTable::kCommunicationOp, rowid,
                               &connection))
                m_deviceTargets.push_back(
                    {connection,
                     {m_chunk, track, start, RowRef(DbTable::kCommunicationOp, rowid)}});
        });
}

void DbTimelineReader::ReadCounters() {
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

}  // namespace marey
