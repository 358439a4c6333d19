#include "db/DbTimeline.hpp"

#include <algorithm>
#include <memory>
#include <thread>

#include "db/DbTimelineReader.hpp"

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
        case DbFlowKind::kCudaLaunch:
            return "ac2g";
        default:
            return "fwdbwd";
    }
}

// [SECTION] Metadata and steps

void DbTimelineReader::Run() {
    std::vector<std::string> stringProblems;
    m_strings = DbStrings::Read(m_db, stringProblems);
    m_timing.Report("STRING_IDS");
    ReadMetadata();
    m_timing.Report("database: metadata");
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
        SortSlices();
        m_timing.Report("database: host slices sorted");
        return;
    }
    for (const std::string& problem : stringProblems) Problem(problem);
    CheckTables();
    ReadSteps();
    ReadCommunicationTaskInfo();
    ReadCommunicationConnections();
    ReadTasks();
    ReadCommunicationOps();
    ReadCannApi();
    m_out.sliceFields.Finish();
    ReadCounters();
}

void DbTimelineReader::ReadMetadata() {
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

void DbTimelineReader::ReadSession() {
    if (!m_db.HasTable("SESSION_TIME_INFO")) return;
    auto statement = m_db.Prepare("SELECT startTimeNs, endTimeNs FROM SESSION_TIME_INFO LIMIT 1");
    TimeNs start = 0, end = 0;
    if (!statement.ok() || !statement.value().Step() || !ReadDbNs(statement.value(), 0, &start) ||
        !ReadDbNs(statement.value(), 1, &end) || end <= start ||
        __builtin_sub_overflow(end, start, &m_sessionLength) ||
        __builtin_sub_overflow(start, m_sessionLength, &m_earliestNs) ||
        __builtin_add_overflow(end, m_sessionLength, &m_latestNs)) {
        m_earliestNs = INT64_MIN, m_latestNs = INT64_MAX;
        return;
    }
}

void DbTimelineReader::CheckTables() {
    if (!m_schemaVersion.empty() && m_schemaVersion.rfind("1.", 0) != 0)
        Problem("schema version " + m_schemaVersion +
                " has not been seen before (marey knows 1.x): tables and columns are read by "
                "name, and what is missing is listed here");
    const auto has = [&](const char* table) { return m_db.HasTable(table); };
    // Each table with what its absence changes, and whether it is expected: a table the
    // profiler writes only when there is something to hold (no HCCL tables on one card) is
    // missing only beside the tables that refer to it. STRING_IDS is said when it is read.
    const std::vector<std::string> missing = MissingTableLines(
        m_db,
        {
            {"TASK", true, "no device tasks"},
            {"PYTORCH_API", true, "no PyTorch operators on the host"},
            {"CANN_API", true, "no CANN API calls and no HostToDevice arrows"},
            {"COMPUTE_TASK_INFO", has("TASK"),
             "its device tasks are not known as compute tasks: named by their task type "
             "(AI_CORE…), "
             "with no operator table and no Computing rows"},
            {"COMMUNICATION_OP", has("COMMUNICATION_TASK_INFO"),
             "no communication operators (hcom_…): the operator table, the overlap rows and the "
             "communication figures leave communication out"},
            {"COMMUNICATION_TASK_INFO", has("COMMUNICATION_OP"),
             "communication tasks are shown on their streams only, named by their task type, not "
             "on HCCL's planes"},
            {"META_DATA", true,
             "tables and columns are read by name, and the job's parallel layout is not read from "
             "it"},
            {"ENUM_API_TYPE", has("PYTORCH_API") || has("CANN_API"),
             "API types are shown as their numbers (10000@launch)"},
        },
        " (schema " + SchemaText() + ")");
    for (const std::string& line : missing) Problem(line);
}

void DbTimelineReader::ReadSteps() {
    std::unordered_set<int64_t> ids;  // a long run has tens of thousands of steps
    ForEachRow(
        "STEP_TIME", {"id", "startNs", "endNs"},
        [&](const SqliteStatement& row, const DbColumns& columns) {
            DbStep step{};
            if (!ReadDbInt(row, columns.Column(0), &step.id) ||
                !ReadDbNs(row, columns.Column(1), &step.startNs) ||
                !ReadDbNs(row, columns.Column(2), &step.endNs) || step.endNs < step.startNs) {
                RowProblem("STEP_TIME", row.Int(0), "id, startNs or endNs unreadable; left out");
                return;
            }
            if (!ids.insert(step.id).second) {
                RowProblem("STEP_TIME", row.Int(0),
                           "a second row of step " + std::to_string(step.id) + "; left out");
                return;
            }
            m_out.steps.push_back(step);
        });
    std::sort(m_out.steps.begin(), m_out.steps.end(),
              [](const DbStep& a, const DbStep& b) { return a.startNs < b.startNs; });
}

// [SECTION] Entry points

DbTimeline ReadDbOperators(const SqliteFile& db) {
    DbTimeline timeline;
    timeline.chunks.resize(1);
    DbTimelineReader reader(db, timeline, timeline.chunks[0], 0,
                            DbTimelineReader::Part::kOperators);
    reader.Run();
    timeline.farRowids = {reader.TakeFarRowids()};
    return timeline;
}

DbTimeline ReadDbTimeline(const SqliteFile& db, unsigned threads, LoadProgress* progress) {
    DbTimeline timeline;
    timeline.chunks.resize(2);
    using Part = DbTimelineReader::Part;
    DbTimelineReader host(db, timeline, timeline.chunks[0], 0, Part::kHost);
    // The device part reads on a connection of its own (a connection serves one thread).
    std::unique_ptr<SqliteFile> second;
    // A salvaged file is a copy in memory: not copied a second time for a second connection.
    if (threads > 1 && db.Salvaged().empty()) {
        auto opened = SqliteFile::OpenReadOnly(db.Path());
        if (opened.ok()) second = std::move(opened.value());
    }
    DbTimelineReader device(second ? *second : db, timeline, timeline.chunks[1], 1, Part::kDevice);
    if (progress) {
        progress->bytesTotal = std::size(kProgressTables) * kProgressPerTable;
        host.ReportProgressTo(&progress->bytesDone);
        device.ReportProgressTo(&progress->bytesDone);
        db.StopWhen(&progress->cancel);
        if (second) second->StopWhen(&progress->cancel);
    }
    if (second) {
        std::thread hostThread([&] { host.Run(); });
        device.Run();
        hostThread.join();
    } else {
        host.Run();
        device.Run();
    }
    if (progress) db.StopWhen(nullptr);  // the caller may keep the connection
    DbTimelineReader::Finish(host, device, threads > 1);
    return timeline;
}

}  // namespace marey
