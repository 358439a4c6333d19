#include "ProfilerDatabaseWriter.hpp"

#include <cmath>
#include <unordered_map>

#include "AnalysisDatabaseWriter.hpp"
#include "ProfilerSchema.hpp"
#include "RankFigures.hpp"
#include "SqliteWriter.hpp"

namespace marey {

// The prepared inserts, one per table written row by row, and the string ids given so far.
struct ProfilerTables {
    explicit ProfilerTables(SqliteWriter& db)
        : strings(db, "INSERT INTO STRING_IDS VALUES (?,?)"),
          pytorchApi(db, "INSERT INTO PYTORCH_API VALUES (?,?,?,?,?,?,?,?,?,?,?)"),
          connectionIds(db, "INSERT INTO CONNECTION_IDS VALUES (?,?)"),
          cannApi(db, "INSERT INTO CANN_API VALUES (?,?,?,?,?,?)"),
          task(db, "INSERT INTO TASK VALUES (?,?,?,?,?,?,?,?,?,?,4294967295)"),
          computeTaskInfo(db,
                          "INSERT INTO COMPUTE_TASK_INFO VALUES (?,?,24,0,?,?,?,?,?,?,?,?,?,?)"),
          taskPmuInfo(db, "INSERT INTO TASK_PMU_INFO VALUES (?,?,?)"),
          communicationOp(db, "INSERT INTO COMMUNICATION_OP VALUES (?,?,?,?,?,?,0,0,?,?,?,?,0)"),
          communicationTaskInfo(
              db, "INSERT INTO COMMUNICATION_TASK_INFO VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)"),
          aicoreFreq(db, "INSERT INTO AICORE_FREQ VALUES (?,?,?)"),
          npuMem(db, "INSERT INTO NPU_MEM VALUES (?,NULL,?,?,?)"),
          stepTime(db, "INSERT INTO STEP_TIME VALUES (?,?,?)"),
          memoryRecord(db, "INSERT INTO MEMORY_RECORD VALUES (?,?,?,?,?,?,?)"),
          opMemory(db, "INSERT INTO OP_MEMORY VALUES (?,?,?,?,?,?,?,?,?,?,NULL,NULL,NULL,?,?)") {}

    SqliteInsert strings, pytorchApi, connectionIds, cannApi, task, computeTaskInfo, taskPmuInfo,
        communicationOp, communicationTaskInfo, aicoreFreq, npuMem, stepTime, memoryRecord,
        opMemory;
    std::unordered_map<std::string, int64_t> stringIds;
};

namespace {

// The connection id of an Enqueue and its Dequeue (the others are in GeneratorSink.hpp, which the
// text shares): in a range of its own, so that no flow joins rows the text does not join.
constexpr int64_t kQueueConnectionBase = int64_t{2} << 40;

int64_t Bytes(double units, double unitBytes) {
    return std::llround(units * unitBytes);
}
constexpr double kMiB = 1048576.0;

}  // namespace

ProfilerDatabaseWriter::ProfilerDatabaseWriter(const GeneratorOptions& options,
                                               const std::string& outputDir)
    : m_options(options),
      m_host(HostIdsOf(options)),
      m_db(std::make_unique<SqliteWriter>(outputDir + "/ascend_pytorch_profiler_" +
                                          std::to_string(options.rank) + ".db")),
      m_analysis(
          std::make_unique<AnalysisDatabaseWriter>(outputDir + "/analysis.db", options.rank)) {
    m_db->Exec(kProfilerSchema);
    m_db->Exec(kProfilerEnums);
    m_tables = std::make_unique<ProfilerTables>(*m_db);
}

ProfilerDatabaseWriter::~ProfilerDatabaseWriter() = default;

int64_t ProfilerDatabaseWriter::StringId(const std::string& text) {
    auto [it, added] =
        m_tables->stringIds.emplace(text, static_cast<int64_t>(m_tables->stringIds.size()));
    if (added) m_tables->strings.Int(1, it->second).Text(2, text).Row();
    return it->second;
}

// PYTORCH_API keeps its times as TEXT holding decimal digits, as the profiler declares them.
void ProfilerDatabaseWriter::WritePytorchApi(int64_t startNs, int64_t durNs, int64_t tid,
                                             int64_t connectionRow, const std::string& name,
                                             int64_t sequence, int64_t type) {
    SqliteInsert& row = m_tables->pytorchApi;
    row.Text(1, std::to_string(startNs))
        .Text(2, std::to_string(startNs + durNs))
        .Int(3, m_host.pid << 32 | tid)
        .Int(5, StringId(name))
        .Int(11, type);
    if (connectionRow >= 0) row.Int(4, connectionRow);
    if (type == kApiOp) row.Int(6, sequence).Int(7, 0);
    if (type == kApiOp && sequence >= 0) row.Int(9, StringId("[32, 1024];\r\n[1024, 1024]"));
    row.Row();
    m_firstNs = std::min(m_firstNs, startNs);
}

void ProfilerDatabaseWriter::WriteCannApi(int64_t startNs, int64_t durNs, int64_t type,
                                          int64_t connectionId, const std::string& name) {
    m_tables->cannApi.Int(1, startNs)
        .Int(2, startNs + durNs)
        .Int(3, type)
        .Int(4, m_host.pid << 32 | m_host.cannTid)
        .Int(5, connectionId)
        .Int(6, StringId(name))
        .Row();
}

void ProfilerDatabaseWriter::Operator(const GeneratedOperator& op, const GeneratedTask& task,
                                      uint32_t taskId) {
    const int64_t sequence = static_cast<int64_t>(op.sequence);
    // CONNECTION_IDS rows 3s, 3s+1, 3s+2: the op's launch, its Enqueue's and its Dequeue's queue.
    const int64_t queueConnection = kQueueConnectionBase + sequence;
    m_tables->connectionIds.Int(1, 3 * sequence).Int(2, sequence).Row();
    m_tables->connectionIds.Int(1, 3 * sequence + 1).Int(2, queueConnection).Row();
    m_tables->connectionIds.Int(1, 3 * sequence + 2).Int(2, queueConnection).Row();
    const std::string aten = GeneratedAtenOperator(op.kind);
    WritePytorchApi(op.atenStartNs, op.atenDurNs, m_host.mainTid, 3 * sequence, aten, sequence,
                    kApiOp);
    WritePytorchApi(op.enqueueStartNs, op.enqueueDurNs, m_host.mainTid, 3 * sequence + 1, "Enqueue",
                    -1, kApiQueue);
    WritePytorchApi(op.dequeueStartNs, op.dequeueDurNs, m_host.dequeueTid, 3 * sequence + 2,
                    "Dequeue@" + aten, -1, kApiQueue);
    WriteCannApi(op.aclStartNs, op.aclDurNs, kApiAcl, kAclConnectionBase + sequence,
                 GeneratedOperatorType(op.kind));
    WriteCannApi(op.nodeStartNs, op.nodeDurNs, kApiNode, sequence, "launch");
    m_pending.push_back({sequence, taskId, "AI_CORE"});
}

void ProfilerDatabaseWriter::HostlessTask(const GeneratedTask& task) {
    m_pending.push_back({kHostlessConnectionBase + m_hostlessTasks++, 0, "AI_VECTOR_CORE"});
}

void ProfilerDatabaseWriter::CoreFrequency(int64_t tsNs, int64_t mhz) {
    m_tables->aicoreFreq.Int(1, m_options.rank).Int(2, tsNs).Int(3, mhz).Row();
}

// NPU_MEM's ddr stays NULL: the text has only APP/HBM, and a NULL is no sample.
void ProfilerDatabaseWriter::HbmUsage(int64_t tsNs, int64_t kb) {
    m_tables->npuMem.Int(1, StringId("app"))
        .Int(2, kb * 1024)
        .Int(3, tsNs)
        .Int(4, m_options.rank)
        .Row();
}

void ProfilerDatabaseWriter::Step(const GeneratedStep& step,
                                  const std::vector<GeneratedTask>& tasks,
                                  const std::vector<GeneratedCommTask>& commTasks) {
    WriteComputeTasks(step, tasks);
    WriteCommunication(step, commTasks);
    WriteMemory(step, tasks);
    m_tables->stepTime.Int(1, static_cast<int64_t>(step.number))
        .Int(2, step.startNs)
        .Int(3, step.endNs)
        .Row();
    WritePytorchApi(step.startNs, step.endNs - step.startNs, m_host.mainTid, -1,
                    "ProfilerStep#" + std::to_string(step.number), -1, kApiOp);
    m_lastNs = std::max(m_lastNs, step.endNs);
    m_analysis->Step(step);
}

// TASK and COMPUTE_TASK_INFO rows as kernel_details.csv lists them, with two PMU figures each.
void ProfilerDatabaseWriter::WriteComputeTasks(const GeneratedStep& step,
                                               const std::vector<GeneratedTask>& tasks) {
    int64_t previousEnd = step.startNs;
    for (size_t i = 0; i < tasks.size() && i < m_pending.size(); ++i) {
        const GeneratedTask& task = tasks[i];
        const PendingTask& pending = m_pending[i];
        const int64_t globalTaskId = m_nextGlobalTaskId++;
        const std::string type = GeneratedOperatorType(task.kind);
        m_tables->task.Int(1, task.startNs)
            .Int(2, task.startNs + task.durNs)
            .Int(3, m_options.rank)
            .Int(4, pending.connectionId)
            .Int(5, globalTaskId)
            .Int(6, m_host.pid)
            .Int(7, StringId(pending.hardwareType))
            .Int(8, 4294967295)
            .Int(9, task.stream)
            .Int(10, pending.taskId)
            .Row();
        m_tables->computeTaskInfo.Int(1, StringId(type + "_" + std::to_string(task.kind)))
            .Int(2, globalTaskId)
            .Int(3, StringId(GeneratedOperatorCore(task.kind)))
            .Int(4, StringId(type))
            .Int(5, StringId("ND;ND"))
            .Int(6, StringId("FLOAT16;FLOAT16"))
            .Int(7, StringId("\"32,1024;1024,1024\""))
            .Int(8, StringId("ND"))
            .Int(9, StringId("FLOAT16"))
            .Int(10, StringId("\"32,1024\""))
            .Int(11, StringId("N/A"))
            .Int(12, std::max<int64_t>(0, task.startNs - previousEnd))
            .Row();
        m_tables->taskPmuInfo.Int(1, globalTaskId)
            .Int(2, StringId("aic_total_time"))
            .Real(3, static_cast<double>(task.durNs) / 1000.0)
            .Row();
        m_tables->taskPmuInfo.Int(1, globalTaskId)
            .Int(2, StringId("aic_mac_ratio"))
            .Real(3, static_cast<double>(task.kind % 7) / 10.0)
            .Row();
        previousEnd = task.startNs + task.durNs;
    }
    m_pending.clear();
}

// The step's AllReduce: its COMMUNICATION_OP and, per plane task, a TASK row on stream 3 and its
// COMMUNICATION_TASK_INFO. Their connection id has no CANN_API row: no flow, as in the text.
void ProfilerDatabaseWriter::WriteCommunication(const GeneratedStep& step,
                                                const std::vector<GeneratedCommTask>& commTasks) {
    const int64_t opId = static_cast<int64_t>(step.number);
    const int64_t connectionId = kCommConnectionBase + opId;
    const int64_t opName = StringId(step.commName), group = StringId(kCommGroup);
    m_tables->communicationOp.Int(1, opName)
        .Int(2, step.commStartNs)
        .Int(3, step.commStartNs + step.commDurNs)
        .Int(4, connectionId)
        .Int(5, group)
        .Int(6, opId)
        .Int(7, kHcclFp32)
        .Int(8, StringId("MESH-RING"))
        .Int(9, kCommTaskSizeBytes / 4)
        .Int(10, StringId("hcom_allReduce_"))
        .Row();
    for (size_t i = 0; i < commTasks.size(); ++i) {
        const GeneratedCommTask& comm = commTasks[i];
        const int64_t globalTaskId = m_nextGlobalTaskId++;
        m_tables->task.Int(1, comm.startNs)
            .Int(2, comm.startNs + comm.durNs)
            .Int(3, m_options.rank)
            .Int(4, connectionId)
            .Int(5, globalTaskId)
            .Int(6, m_host.pid)
            .Int(7, StringId(comm.hardwareType))
            .Int(8, static_cast<int64_t>(i))
            .Int(9, kCommTaskStream)
            .Int(10, opId % 65536)
            .Row();
        m_tables->communicationTaskInfo.Int(1, opName)
            .Int(2, globalTaskId)
            .Int(3, StringId(comm.name))
            .Int(4, comm.plane)
            .Int(5, group)
            .Int(6, comm.notifyId)
            .Int(7, kHcclNone)
            .Int(8, comm.srcRank)
            .Int(9, comm.dstRank)
            .Int(10, kHcclSdma)
            .Int(11, kCommTaskSizeBytes)
            .Int(12, kHcclFp32)
            .Int(13, kHcclLinkHccs)
            .Int(14, opId)
            .Row();
    }
}

// memory_record.csv's and operator_memory.csv's rows in bytes (MB × 2^20, KB × 2^10).
void ProfilerDatabaseWriter::WriteMemory(const GeneratedStep& step,
                                         const std::vector<GeneratedTask>& tasks) {
    const int64_t device = m_options.rank;
    m_tables->memoryRecord.Int(1, StringId("APP"))
        .Int(2, step.startNs)
        .Int(4, Bytes(kAppReservedMb, kMiB))
        .Int(7, device)
        .Row();
    for (size_t i = 0; i < tasks.size(); ++i) {
        const int64_t allocated = Bytes(AllocatedMbAt(i, tasks.size()), kMiB);
        m_tables->memoryRecord.Int(1, StringId("PTA"))
            .Int(2, tasks[i].startNs)
            .Int(3, allocated)
            .Int(4, Bytes(kPtaReservedMb, kMiB))
            .Int(5, allocated)
            .Int(6, kStreamPtr)
            .Int(7, device)
            .Row();
    }
    for (size_t i = 0; i < tasks.size() && m_allocations < kOperatorAllocations;
         ++i, ++m_allocations) {
        const GeneratedTask& task = tasks[i];
        SqliteInsert& row = m_tables->opMemory;
        row.Int(1, StringId(std::string("aten::") + GeneratedOperatorType(task.kind)))
            .Int(2, Bytes(AllocationKb(task), 1024.0))
            .Int(3, task.startNs)
            .Int(8, Bytes(kAllocationTotalMb, kMiB))
            .Int(9, Bytes(kPtaReservedMb, kMiB))
            .Int(10, Bytes(kAllocationTotalMb, kMiB))
            .Int(11, kStreamPtr)
            .Int(12, device);
        if (ReleasedBeforeEnd(m_allocations))
            row.Int(4, task.startNs + task.durNs)
                .Int(5, task.startNs + task.durNs)
                .Int(6, task.durNs)
                .Int(7, task.durNs);
        row.Row();
    }
}

void ProfilerDatabaseWriter::WriteStaticTables() {
    const std::string rank = std::to_string(m_options.rank);
    m_db->Exec("INSERT INTO NPU_INFO VALUES (" + rank + ",'Ascend910B');" +
               "INSERT INTO RANK_DEVICE_MAP VALUES (" + rank + "," + rank + ");" +
               "INSERT INTO HOST_INFO VALUES ('3538958389648580163','localhost');" +
               "INSERT INTO SESSION_TIME_INFO VALUES (" +
               std::to_string(m_firstNs == INT64_MAX ? 0 : m_firstNs) + "," +
               std::to_string(m_lastNs == INT64_MIN ? 0 : m_lastNs) + ")");
}

bool ProfilerDatabaseWriter::Finish(std::string* error) {
    WriteStaticTables();
    m_tables.reset();
    m_db->Exec(kProfilerIndexes);
    const bool profilerOk = m_db->Finish();
    const bool analysisOk = m_analysis->Finish(error);
    if (!profilerOk && error) *error = m_db->error();
    return profilerOk && analysisOk;
}

}  // namespace marey
