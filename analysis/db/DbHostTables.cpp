// The host's tables of a profiler database: PYTORCH_API and CANN_API as slices on their threads,
// the forward-to-backward arrows, CONNECTION_IDS; and the tracks every table's rows go on.
#include <algorithm>

#include "db/DbTimelineReader.hpp"

namespace marey {

StringId DbTimelineReader::KernelString(int64_t id) {
    const auto found = m_kernelStrings.find(id);
    if (found != m_kernelStrings.end()) return found->second;
    return m_kernelStrings.emplace(id, m_out.kernels.strings.Intern(m_strings.Text(id)))
        .first->second;
}

StringId DbTimelineReader::NameOf(int64_t id) {
    const auto it = m_interned.find(id);
    if (it != m_interned.end()) return it->second;
    const std::string* text = m_strings.Find(id);
    if (!text && !m_strings.IsNull(id)) ++m_missingStrings;
    const StringId interned = Intern(text ? *text : "<string " + std::to_string(id) + ">");
    m_interned.emplace(id, interned);
    return interned;
}

uint32_t DbTimelineReader::Track(int64_t pid, int64_t tid, const char* processName,
                                 int64_t processSort, const char* label,
                                 const std::string& threadName, int64_t threadSort) {
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

uint32_t DbTimelineReader::NewTrack(int64_t pid, int64_t tid) {
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

uint32_t DbTimelineReader::HostThread(int64_t globalTid, bool cann) {
    const int64_t tid = globalTid & 0xFFFFFFFF;
    const int64_t pid = cann ? DevicePid(kCannSort) : m_hostPid;
    if (const auto known = KnownThread(pid, tid)) return *known;
    const std::string name = "Thread " + std::to_string(tid);
    if (cann) return Track(pid, tid, "CANN", kCannSort, "CPU", name, tid);
    return Track(pid, tid, "Python", kPythonSort, "CPU", name, tid);
}

uint32_t DbTimelineReader::StreamTrack(int64_t stream) {
    const int64_t pid = DevicePid(kHardwareSort);
    if (const auto known = KnownThread(pid, stream)) return *known;
    return Track(pid, stream, "Ascend Hardware", kHardwareSort, "NPU",
                 "Stream " + std::to_string(stream), stream);
}

uint32_t DbTimelineReader::HcclTrack(int64_t tid, const std::string& name) {
    return Track(DevicePid(kHcclSort), tid, "HCCL", kHcclSort, "NPU", name, tid);
}

bool DbTimelineReader::AddSlice(uint32_t track, const SqliteStatement& row, int startColumn,
                                int endColumn, DbTable table, int64_t rowid, StringId name,
                                TimeNs* startOut) {
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

void DbTimelineReader::ReadPytorchApi() {
    enum { kStart, kEnd, kTid, kConnection, kName, kSequence, kFwdThread, kType };
    // (sequence, end) of forward and of backward operators: sorted later, the earliest of each
    // sequence kept (vectors: a hash map would allocate for each of millions of operators).
    std::vector<PendingEnd> forward, backward;
    ForEachRow("PYTORCH_API",
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
                   if (ReadConnection(row, columns.Column(kConnection), DbTable::kPytorchApi, rowid,
                                      &connection)) {
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

void DbTimelineReader::ReadCannApi() {
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
                named = names.emplace(nameId, Intern(prefix + "@" + m_strings.Text(nameId))).first;
            }
            const uint32_t track = HostThread(globalTid, true);
            TimeNs start = 0;
            if (!AddSlice(track, row, columns.Column(kStart), columns.Column(kEnd),
                          DbTable::kCannApi, rowid, named->second, &start))
                return;
            if (ReadConnection(row, columns.Column(kConnection), DbTable::kCannApi, rowid,
                               &connection)) {
                const uint64_t ref = RowRef(DbTable::kCannApi, rowid);
                m_cannApis.push_back({connection, DbFlowEnd{m_chunk, track, start, ref}});
                m_out.sliceFields.AppendTask(ref, 0, connection);
            }
        });
}

void DbTimelineReader::ReadConnectionIds() {
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

}  // namespace marey
