#include "TraceGenerator.hpp"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "GeneratorRandom.hpp"
#include "GeneratorSink.hpp"

namespace marey {
namespace {

// [SECTION] Random draws and the operator names

using Random = GeneratorRandom;

const char* const kOperators[] = {"MatMul",
                                  "Add",
                                  "Mul",
                                  "Conv2D",
                                  "BatchNorm",
                                  "ReLU",
                                  "Softmax",
                                  "LayerNorm",
                                  "Transpose",
                                  "Cast",
                                  "ReduceSum",
                                  "Gelu",
                                  "FlashAttentionScore",
                                  "Slice",
                                  "ConcatD",
                                  "TransData",
                                  "MemSet",
                                  "Sub",
                                  "RealDiv",
                                  "Adam",
                                  "DropOutDoMask"};
const char* const kAtenOps[] = {"aten::matmul",
                                "aten::add",
                                "aten::mul",
                                "aten::conv2d",
                                "aten::batch_norm",
                                "aten::relu",
                                "aten::softmax",
                                "aten::layer_norm",
                                "aten::transpose",
                                "aten::to",
                                "aten::sum",
                                "aten::gelu",
                                "aten::scaled_dot_product_attention",
                                "aten::slice",
                                "aten::cat",
                                "aten::contiguous",
                                "aten::zero_",
                                "aten::sub",
                                "aten::div",
                                "aten::_foreach_add_"};
constexpr size_t kOperatorCount = kExtraOperatorKind;  // what random draws pick from
static_assert(sizeof(kOperators) / sizeof(kOperators[0]) == kOperatorCount + 1);

// [SECTION] JSON text
class Writer {
public:
    Writer(std::FILE* out, GeneratorReport& report) : m_out(out), m_report(report) {
        m_buffer.reserve(1 << 20);
    }
    ~Writer() { Flush(); }

    void BeginEvent(char phase) {
        m_buffer += m_first ? "[" : ", ";
        m_first = false;
        ++m_report.events;
        ++m_report.byPhase[phase];
    }
    void Raw(const char* text) { m_buffer += text; }
    void Raw(const std::string& text) { m_buffer += text; }
    void Int(int64_t value) {
        char digits[24];
        int n = 0;
        const bool negative = value < 0;
        uint64_t magnitude =
            negative ? static_cast<uint64_t>(-(value + 1)) + 1 : static_cast<uint64_t>(value);
        do {
            digits[n++] = static_cast<char>('0' + magnitude % 10);
            magnitude /= 10;
        } while (magnitude);
        if (negative) m_buffer += '-';
        while (n) m_buffer += digits[--n];
    }
    // Microseconds with three decimals, as Ascend writes timestamps: "1736408883688177.930".
    void MicrosText(int64_t ns) {
        Int(ns / 1000);
        m_buffer += '.';
        const int64_t fraction = ns % 1000;
        m_buffer += static_cast<char>('0' + fraction / 100);
        m_buffer += static_cast<char>('0' + fraction / 10 % 10);
        m_buffer += static_cast<char>('0' + fraction % 10);
    }
    void EndEvent() {
        m_buffer += '}';
        if (m_buffer.size() > (1 << 20) - 4096) Flush();
    }
    void Finish() {
        m_buffer += m_first ? "[]" : "]";
        Flush();
    }
    void Flush() {
        // Without a file (a database-only export) the text is counted and dropped.
        if (m_out) std::fwrite(m_buffer.data(), 1, m_buffer.size(), m_out);
        m_report.bytes += m_buffer.size();
        m_buffer.clear();
    }

private:
    std::FILE* m_out;
    GeneratorReport& m_report;
    std::string m_buffer;
    bool m_first = true;
};

// [SECTION] The generator: metadata and event records
class Generator {
public:
    Generator(const GeneratorOptions& options, std::FILE* out, GeneratorRecord* record,
              GeneratorSink* sink)
        : m_options(options),
          m_random(options.seed),
          m_noise(options.seed ^ 0x5EEDull),
          m_jitter(options.jitterSeed ^ 0x717E5ull),
          m_writer(out, m_report),
          m_record(record),
          m_sink(sink) {
        const GeneratedHostIds ids = HostIdsOf(options);
        m_hostPid = ids.pid;
        // Device-side pids follow torch_npu's encoding: (host pid << 10) | (sort index << 5) |
        // device.
        auto devicePid = [&](int sortIndex) {
            return (m_hostPid << 10) | (sortIndex << 5) | options.rank;
        };
        m_cannPid = devicePid(7);
        m_hardwarePid = devicePid(13);
        m_freqPid = devicePid(14);
        m_hcclPid = devicePid(15);
        m_memPid = devicePid(19);
        m_overlapPid = devicePid(23);
        m_mainTid = ids.mainTid;
        m_dequeueTid = ids.dequeueTid;
        m_cannTid = ids.cannTid;
        m_nowNs = 1736408883688177930ll + static_cast<int64_t>(options.rank) * 1373 +
                  options.clockOffsetNs;
    }

    GeneratorReport Run() {
        m_report.firstNs = m_nowNs;
        WriteMetadata();
        uint64_t step = 0;
        while (BudgetedEvents() < m_options.events) WriteStep(step++);
        m_writer.Finish();
        m_report.lastNs = m_lastEndNs;
        return m_report;
    }

private:
    // Events that count towards options.events: planted ones never, and with stableSteps not the
    // Overlap Analysis either (its gaps depend on timing), so that both sides of a comparison pair
    // write the same steps and operators.
    uint64_t BudgetedEvents() const { return m_report.events - m_unbudgetedEvents; }

    void Metadata(int64_t pid, int64_t tid, const char* name, const char* argKey,
                  const std::string& value, bool hostStyle) {
        m_writer.BeginEvent('M');
        // Python writes "ph" first; CANN and device records put it last (as in real files).
        if (hostStyle)
            m_writer.Raw("{\"ph\": \"M\", \"name\": \""), m_writer.Raw(name), m_writer.Raw("\"");
        else
            m_writer.Raw("{\"name\": \""), m_writer.Raw(name), m_writer.Raw("\"");
        m_writer.Raw(", \"pid\": ");
        m_writer.Int(pid);
        m_writer.Raw(", \"tid\": ");
        m_writer.Int(tid);
        m_writer.Raw(", \"args\": {\"");
        m_writer.Raw(argKey);
        m_writer.Raw("\": ");
        m_writer.Raw(value);
        m_writer.Raw("}");
        if (!hostStyle) m_writer.Raw(", \"ph\": \"M\"");
        m_writer.EndEvent();
    }

    void ProcessMetadata(int64_t pid, const char* name, int sortIndex, const char* label,
                         bool hostStyle) {
        Metadata(pid, 0, "process_name", "name", std::string("\"") + name + "\"", hostStyle);
        Metadata(pid, 0, "process_labels", "labels", std::string("\"") + label + "\"", hostStyle);
        Metadata(pid, 0, "process_sort_index", "sort_index", std::to_string(sortIndex), hostStyle);
    }

    void WriteMetadata() {
        ProcessMetadata(m_hostPid, "Python", 0, "CPU", true);
        Metadata(m_hostPid, m_mainTid, "thread_name", "name",
                 "\"Thread " + std::to_string(m_mainTid) + "\"", true);
        Metadata(m_hostPid, m_mainTid, "thread_sort_index", "sort_index", std::to_string(m_mainTid),
                 true);
        Metadata(m_hostPid, m_dequeueTid, "thread_name", "name",
                 "\"Thread " + std::to_string(m_dequeueTid) + "\"", true);
        Metadata(m_hostPid, m_dequeueTid, "thread_sort_index", "sort_index",
                 std::to_string(m_dequeueTid + 5374), true);
        ProcessMetadata(m_cannPid, "CANN", 7, "CPU", false);
        Metadata(m_cannPid, m_cannTid, "thread_name", "name",
                 "\"Thread " + std::to_string(m_cannTid) + "\"", false);
        ProcessMetadata(m_hardwarePid, "Ascend Hardware", 13, "NPU", false);
        for (uint32_t s = 0; s < m_options.streams; ++s) {
            const int64_t stream = 2 + s;
            Metadata(m_hardwarePid, stream, "thread_name", "name",
                     "\"Stream " + std::to_string(stream) + "\"", false);
            Metadata(m_hardwarePid, stream, "thread_sort_index", "sort_index",
                     std::to_string(stream), false);
        }
        // The AllReduce's tasks run on stream 3; with one compute stream it has no name yet.
        if (2 + m_options.streams <= kCommTaskStream) {
            Metadata(m_hardwarePid, kCommTaskStream, "thread_name", "name",
                     "\"Stream " + std::to_string(kCommTaskStream) + "\"", false);
            Metadata(m_hardwarePid, kCommTaskStream, "thread_sort_index", "sort_index",
                     std::to_string(kCommTaskStream), false);
            m_unbudgetedEvents += 2;
        }
        ProcessMetadata(m_freqPid, "AI Core Freq", 14, "NPU", false);
        ProcessMetadata(m_hcclPid, "HCCL", 15, "NPU", false);
        Metadata(m_hcclPid, 0, "thread_name", "name", "\"Group 0 Communication\"", false);
        for (int plane = 0; plane < 2; ++plane)
            Metadata(m_hcclPid, plane + 1, "thread_name", "name",
                     "\"Plane " + std::to_string(plane) + "\"", false);
        ProcessMetadata(m_memPid, "NPU MEM", 19, "NPU", false);
        ProcessMetadata(m_overlapPid, "Overlap Analysis", 23, "NPU", false);
        const char* overlapNames[] = {"Computing", "Communication", "Communication(Not Overlapped)",
                                      "Free"};
        for (int t = 0; t < 4; ++t)
            Metadata(m_overlapPid, t, "thread_name", "name",
                     std::string("\"") + overlapNames[t] + "\"", false);
    }

    // A complete event. 'durNs' is written as float microseconds, with binary noise now and then.
    void Complete(int64_t pid, int64_t tid, const char* name, int64_t startNs, int64_t durNs,
                  const char* category, const std::string& args) {
        m_writer.BeginEvent('X');
        ++m_report.slices;
        if (category) {
            m_writer.Raw("{\"ph\": \"X\", \"name\": \"");
            m_writer.Raw(name);
            m_writer.Raw("\", \"pid\": ");
        } else {
            m_writer.Raw("{\"name\": \"");
            m_writer.Raw(name);
            m_writer.Raw("\", \"pid\": ");
        }
        m_writer.Int(pid);
        m_writer.Raw(", \"tid\": ");
        m_writer.Int(tid);
        m_writer.Raw(", \"ts\": \"");
        m_writer.MicrosText(startNs);
        m_writer.Raw("\", \"dur\": ");
        WriteDuration(durNs);
        if (category) {
            m_writer.Raw(", \"cat\": \"");
            m_writer.Raw(category);
            m_writer.Raw("\"");
        }
        if (!args.empty()) {
            m_writer.Raw(", \"args\": {");
            m_writer.Raw(args);
            m_writer.Raw("}");
        }
        if (!category) m_writer.Raw(", \"ph\": \"X\"");
        m_writer.EndEvent();
        m_lastEndNs = std::max(m_lastEndNs, startNs + durNs);
    }

    void WriteDuration(int64_t durNs) {
        // Real files carry float noise ("5.0200000000000005"): it must round back to the ns.
        char text[48];
        if (durNs % 1000 == 0) {
            std::snprintf(text, sizeof text, "%lld", static_cast<long long>(durNs / 1000));
        } else if (m_noise.Below(16) == 0) {
            std::snprintf(text, sizeof text, "%lld.%03lld0000000000005",
                          static_cast<long long>(durNs / 1000),
                          static_cast<long long>(durNs % 1000));
        } else {
            std::snprintf(text, sizeof text, "%lld.%03lld", static_cast<long long>(durNs / 1000),
                          static_cast<long long>(durNs % 1000));
            // Trailing zeros are dropped, as a float formatter would.
            size_t length = std::strlen(text);
            while (text[length - 1] == '0') text[--length] = '\0';
        }
        m_writer.Raw(text);
    }

    void Flow(char phase, const char* category, const std::string& name, const std::string& idJson,
              int64_t pid, int64_t tid, int64_t tsNs, bool withBindingPoint) {
        m_writer.BeginEvent(phase);
        m_writer.Raw("{\"name\": \"");
        m_writer.Raw(name);
        m_writer.Raw("\", \"ph\": \"");
        m_writer.Raw(std::string(1, phase));
        m_writer.Raw("\", \"cat\": \"");
        m_writer.Raw(category);
        m_writer.Raw("\", \"id\": ");
        m_writer.Raw(idJson);
        m_writer.Raw(", \"pid\": ");
        m_writer.Int(pid);
        m_writer.Raw(", \"tid\": ");
        m_writer.Int(tid);
        m_writer.Raw(", \"ts\": \"");
        m_writer.MicrosText(tsNs);
        m_writer.Raw("\"");
        if (withBindingPoint) m_writer.Raw(", \"bp\": \"e\"");
        m_writer.EndEvent();
    }

    void Counter(int64_t pid, const char* name, const char* key, int64_t tsNs, int64_t value) {
        m_writer.BeginEvent('C');
        m_writer.Raw("{\"name\": \"");
        m_writer.Raw(name);
        m_writer.Raw("\", \"pid\": ");
        m_writer.Int(pid);
        m_writer.Raw(", \"tid\": 0, \"ts\": \"");
        m_writer.MicrosText(tsNs);
        m_writer.Raw("\", \"args\": {\"");
        m_writer.Raw(key);
        m_writer.Raw("\": ");
        m_writer.Int(value);
        m_writer.Raw("}, \"ph\": \"C\"");
        m_writer.EndEvent();
    }

    // [SECTION] A training step

    // The step's AllReduce on HCCL and its tasks on two planes, each task also on the device's
    // stream 3 where it runs, as the profiler shows it (no random draw). The stream copies are not
    // counted towards options.events, so that the rest of the run is as without them.
    void WriteAllReduce(uint64_t step, const std::string& opName, int64_t commStart,
                        int64_t commDur) {
        Complete(m_hcclPid, 0, opName.c_str(), commStart, commDur, nullptr,
                 "\"connection_id\": " +
                     std::to_string(kCommConnectionBase + static_cast<int64_t>(step) + 1) +
                     ", \"model id\": 4294967295, \"data_type\": \"FP32\"");
        m_commTasks.clear();
        for (uint32_t plane = 0; plane < 2; ++plane) {
            int64_t t = commStart + 3000;
            for (int task = 0; task < 3; ++task) {
                GeneratedCommTask comm;
                comm.plane = plane;
                comm.name = task == 1 ? "Memcpy" : "Notify_Wait";
                comm.hardwareType = task == 1 ? "SDMA" : "Notify Wait";
                comm.notifyId = 1000 + task;
                comm.srcRank = m_options.rank;
                comm.dstRank = (m_options.rank + 1 + plane) % 8;
                comm.startNs = t;
                comm.durNs = commDur / 5;
                const std::string args = "\"notify_id\": \"" + std::to_string(comm.notifyId) +
                                         "\", \"stream id\": " + std::to_string(kCommTaskStream) +
                                         ", \"task type\": \"" + comm.hardwareType +
                                         "\", \"src rank\": " + std::to_string(comm.srcRank) +
                                         ", \"dst rank\": " + std::to_string(comm.dstRank) +
                                         ", \"transport type\": \"SDMA\", \"size(Byte)\": " +
                                         std::to_string(kCommTaskSizeBytes) +
                                         ", \"link type\": \"HCCS\"";
                Complete(m_hcclPid, plane + 1, comm.name, t, comm.durNs, nullptr, args);
                // On the stream, the task's fields as Ascend Hardware writes them.
                Complete(m_hardwarePid, kCommTaskStream, comm.name, t, comm.durNs, nullptr,
                         "\"Model Id\": 4294967295, \"Task Type\": \"" +
                             std::string(comm.hardwareType) +
                             "\", \"Physic Stream Id\": " + std::to_string(kCommTaskStream) +
                             ", \"Task Id\": " + std::to_string((step + 1) % 65536) +
                             ", \"Batch Id\": 0, " + "\"Subtask Id\": " +
                             std::to_string(plane * 3 + task) + ", \"connection_id\": " +
                             std::to_string(kCommConnectionBase + static_cast<int64_t>(step) + 1));
                ++m_unbudgetedEvents;
                m_commTasks.push_back(comm);
                t += comm.durNs + 1000;
            }
        }
    }

    // Overlap Analysis' Computing slices (the device's busy spans) and Free slices between them
    // up to the step's communication; returns the free time (no random draw). The profiler counts
    // free time from the step's first device activity: before it is Preparing.
    int64_t WriteComputingAndFree(const std::vector<std::pair<int64_t, int64_t>>& deviceBusy,
                                  int64_t commStart) {
        int64_t cursor = deviceBusy.empty() ? commStart : deviceBusy.front().first;
        int64_t freeNs = 0;
        for (const auto& [busyStart, busyEnd] : deviceBusy) {
            if (busyStart > cursor) {
                Complete(m_overlapPid, 3, "Free", cursor, busyStart - cursor, nullptr, "");
                freeNs += busyStart - cursor;
            }
            Complete(m_overlapPid, 0, "Computing", busyStart, busyEnd - busyStart, nullptr, "");
            cursor = busyEnd;
        }
        if (commStart > cursor) {
            Complete(m_overlapPid, 3, "Free", cursor, commStart - cursor, nullptr, "");
            freeNs += commStart - cursor;
        }
        return freeNs;
    }

    // The flows to a device task: HostToDevice from its Node@launch's start, torch_to_npu from its
    // Python operator's start, as real exports place them. One random draw (the HostToDevice id).
    void WriteTaskFlows(uint64_t sequence, uint32_t stream, int64_t launchNs, int64_t operatorNs,
                        int64_t taskStart) {
        // HostToDevice ids are digit strings, many beyond 2^64.
        const std::string h2dId = "\"" + std::to_string(40004068119343ull + m_random.Below(9000)) +
                                  std::to_string(100000 + sequence % 900000) + "\"";
        const std::string h2dName = "HostToDevice" + h2dId.substr(1, h2dId.size() - 2);
        Flow('s', "HostToDevice", h2dName, h2dId, m_cannPid, m_cannTid, launchNs, false);
        Flow('f', "HostToDevice", h2dName, h2dId, m_hardwarePid, 2 + stream, taskStart, true);
        // torch_to_npu: an integer id beyond 2^53, the device task's ts without its dot.
        const std::string torchId = std::to_string(taskStart);
        Flow('s', "async_npu", "torch_to_npu", torchId, m_hostPid, m_mainTid, operatorNs, true);
        Flow('f', "async_npu", "torch_to_npu", torchId, m_hardwarePid, 2 + stream, taskStart, true);
        m_report.flowArrows += 3;
    }

    // The host side of one operator: aten op with its Enqueue, the Dequeue on the other thread and
    // the CANN launch under it. Draws, in order: launch gap, aten, enqueue, dequeue gap and length.
    GeneratedOperator WriteHostOperator(size_t kind, int64_t host, int64_t* launchGap) {
        GeneratedOperator op;
        op.kind = kind;
        *launchGap = m_random.Between(2000, 9000);
        op.atenDurNs = m_random.Between(30000, 90000);
        op.atenStartNs = host;
        op.sequence = m_sequence++;
        const std::string sequence = std::to_string(op.sequence);
        Complete(m_hostPid, m_mainTid, kAtenOps[kind], op.atenStartNs, op.atenDurNs, "cpu_op",
                 "\"Sequence number\": " + sequence +
                     ", \"Fwd thread id\": 0, \"Input Dims\": \"[32, 1024];\\r\\n[1024, 1024]\"");
        // Enqueue inside the operator, dequeue on the other thread; the flow joins them.
        op.enqueueStartNs = op.atenStartNs + op.atenDurNs / 3;
        op.enqueueDurNs = m_random.Between(3000, 8000);
        Complete(m_hostPid, m_mainTid, "Enqueue", op.enqueueStartNs, op.enqueueDurNs, "enqueue",
                 "\"correlation_id\": " + sequence);
        // One dequeue thread: its slices follow each other.
        op.dequeueStartNs = std::max(op.enqueueStartNs + op.enqueueDurNs, m_dequeueFreeNs) +
                            m_random.Between(1000, 6000);
        op.dequeueDurNs = m_random.Between(15000, 40000);
        Complete(m_hostPid, m_dequeueTid, (std::string("Dequeue@") + kAtenOps[kind]).c_str(),
                 op.dequeueStartNs, op.dequeueDurNs, "dequeue", "\"correlation_id\": " + sequence);
        m_dequeueFreeNs = op.dequeueStartNs + op.dequeueDurNs;
        Flow('s', "async_task_queue", "enqueue_to_dequeue", sequence, m_hostPid, m_mainTid,
             op.enqueueStartNs, true);
        Flow('f', "async_task_queue", "enqueue_to_dequeue", sequence, m_hostPid, m_dequeueTid,
             op.dequeueStartNs, true);

        // CANN launch: AscendCL@op holding Node@launch, where the HostToDevice flow starts.
        op.aclStartNs = op.dequeueStartNs + 2000;
        op.aclDurNs = op.dequeueDurNs - 4000;
        Complete(m_cannPid, m_cannTid, (std::string("AscendCL@") + kOperators[kind]).c_str(),
                 op.aclStartNs, op.aclDurNs, nullptr,
                 "\"Thread Id\": " + std::to_string(m_cannTid) +
                     ", \"Mode\": \"ACL_OP\", \"level\": \"acl\", \"connection_id\": " +
                     std::to_string(kAclConnectionBase + static_cast<int64_t>(op.sequence)));
        op.nodeStartNs = op.aclStartNs + op.aclDurNs / 4;
        op.nodeDurNs = op.aclDurNs / 2;
        Complete(m_cannPid, m_cannTid, "Node@launch", op.nodeStartNs, op.nodeDurNs, nullptr,
                 "\"level\": \"node\", \"connection_id\": " + sequence);
        return op;
    }

    // A device task, kept for the record, the sink and the step's Overlap Analysis.
    void KeepTask(const GeneratedTask& task) {
        m_deviceBusy.push_back({task.startNs, task.startNs + task.durNs});
        m_stepTasks.push_back(task);
        if (m_record) m_record->tasks.push_back(task);
    }

    // One operator from Python to the device, and the counters sampled at its task. Returns the
    // task's end.
    int64_t WriteOperator(int op, int64_t* host, int64_t device) {
        const size_t kind = m_random.Below(kOperatorCount);
        int64_t launchGap = 0;
        const GeneratedOperator launch = WriteHostOperator(kind, *host, &launchGap);
        // The device task: never before its launch, queued behind earlier tasks.
        const uint32_t stream = static_cast<uint32_t>(m_random.Below(m_options.streams));
        int64_t taskDur = m_random.Between(8000, 160000) + (kind == 0 ? 120000 : 0);
        taskDur = PlantedDuration(kind, taskDur);
        const int64_t taskStart = std::max(device + m_random.Between(500, 3000),
                                           launch.nodeStartNs + launch.nodeDurNs / 2 + 20000);
        const uint32_t taskId = static_cast<uint32_t>(launch.sequence % 65536);
        Complete(m_hardwarePid, 2 + stream,
                 (std::string(kOperators[kind]) + "_" + std::to_string(kind)).c_str(), taskStart,
                 taskDur, nullptr,
                 "\"Model Id\": 4294967295, \"Task Type\": \"AI_CORE\", \"Physic Stream Id\": " +
                     std::to_string(2 + stream) + ", \"Task Id\": " + std::to_string(taskId) +
                     ", \"Batch Id\": 0, \"Subtask Id\": 4294967295, \"connection_id\": " +
                     std::to_string(launch.sequence));
        const GeneratedTask task{kind, 2 + stream, taskStart, taskDur};
        KeepTask(task);
        WriteTaskFlows(launch.sequence, stream, launch.nodeStartNs, launch.atenStartNs, taskStart);
        if (m_sink) m_sink->Operator(launch, task, taskId);
        if (op % 4 == 0) {
            const int64_t mhz = 1800 - (m_random.Below(4) == 0 ? 200 : 0);
            Counter(m_freqPid, "AI Core Freq", "MHz", taskStart, mhz);
            if (m_sink) m_sink->CoreFrequency(taskStart, mhz);
        }
        if (op % 3 == 0) {
            const int64_t kb = 2000000 + static_cast<int64_t>(m_random.Below(500000));
            Counter(m_memPid, "APP/HBM", "KB", taskStart, kb);
            if (m_sink) m_sink->HbmUsage(taskStart, kb);
        }
        *host = launch.atenStartNs + launch.atenDurNs + launchGap;
        return taskStart + taskDur;
    }

    // A task's duration with the planted slowdown, the run's scale and the jitter applied. The
    // jitter draws from its own stream, so that the trace without it stays byte for byte the same.
    int64_t PlantedDuration(size_t kind, int64_t durNs) {
        if (static_cast<int>(kind) == m_options.slowOperatorKind)
            durNs = (durNs * (100 + m_options.slowOperatorPercent) + 50) / 100;
        if (m_options.taskScalePercent != 0)
            durNs = (durNs * (100 + m_options.taskScalePercent) + 50) / 100;
        if (m_options.jitterPercent != 0) {
            const int64_t permille =
                m_jitter.Between(-10 * m_options.jitterPercent, 10 * m_options.jitterPercent);
            durNs = std::max<int64_t>(1, (durNs * (1000 + permille) + 500) / 1000);
        }
        return durNs;
    }

    // The planted task of 'extraOperator'. Takes no random draw, so that the rest of the trace
    // stays as without it. Returns its end.
    int64_t WriteExtraTask(int64_t device) {
        const GeneratedTask task{kExtraOperatorKind, 2, device + 1500, 45000};
        Complete(m_hardwarePid, 2, "DropOutDoMask_20", task.startNs, task.durNs, nullptr,
                 "\"Model Id\": 4294967295, \"Task Type\": \"AI_VECTOR_CORE\", \"Physic Stream "
                 "Id\": 2, \"connection_id\": " +
                     std::to_string(kHostlessConnectionBase + m_hostlessTasks++));
        ++m_unbudgetedEvents;
        KeepTask(task);
        if (m_sink) m_sink->HostlessTask(task);
        return task.startNs + task.durNs;
    }

    // One training step: forward and backward operators launched from Python through CANN to the
    // device, an AllReduce at the end, and the Overlap Analysis of the step.
    void WriteStep(uint64_t step) {
        const int64_t stepStart = m_nowNs;
        const int operatorCount = 16 + static_cast<int>(m_random.Below(8));
        const std::string stepName = "ProfilerStep#" + std::to_string(step + 1);
        int64_t host = stepStart + 20000;
        int64_t device = stepStart + 150000;
        m_deviceBusy.clear();
        m_stepTasks.clear();
        for (int op = 0; op < operatorCount && BudgetedEvents() < m_options.events + 64; ++op)
            device = WriteOperator(op, &host, device);
        if (m_options.extraOperator) device = WriteExtraTask(device);
        if (step + 1 == m_options.slowFreeStep) device += m_options.slowFreeNs;
        device += m_options.extraStepNs;
        // The step's AllReduce on HCCL, with its plane tasks. It starts on a whole microsecond:
        // analysis.db keeps its start in µs as a REAL, which holds no ns beyond 2^53.
        const int64_t commStart = (device + m_random.Between(2000, 8000) + 999) / 1000 * 1000;
        const int64_t commDur = m_random.Between(400000, 1200000);
        const std::string opName = "hcom_allReduce__" + std::to_string(586 + step % 100) + "_0_1";
        WriteAllReduce(step, opName, commStart, commDur);
        // Overlap Analysis: compute, communication, the part of it not hidden, and free time.
        const int64_t stepEnd =
            std::max(host, commStart + commDur + m_random.Between(20000, 60000));
        const uint64_t eventsBefore = m_report.events;
        const int64_t freeNs = WriteComputingAndFree(m_deviceBusy, commStart);
        const int64_t preparingNs =
            (m_deviceBusy.empty() ? commStart : m_deviceBusy.front().first) - stepStart;
        Complete(m_overlapPid, 1, "Communication", commStart, commDur, nullptr, "");
        Complete(m_overlapPid, 2, "Communication(Not Overlapped)", commStart, commDur, nullptr, "");
        if (m_options.stableSteps) m_unbudgetedEvents += m_report.events - eventsBefore;
        int64_t computeNs = 0;
        for (const GeneratedTask& task : m_stepTasks) computeNs += task.durNs;
        const GeneratedStep record{step + 1, stepStart,          stepEnd,    computeNs,
                                   freeNs,   commStart,          commDur,    opName,
                                   0,        m_stepTasks.size(), preparingNs};
        if (m_record) {
            m_record->steps.push_back(record);
            m_record->steps.back().firstTask = m_record->tasks.size() - m_stepTasks.size();
        }
        if (m_sink) m_sink->Step(record, m_stepTasks, m_commTasks);
        Complete(m_hostPid, m_mainTid, stepName.c_str(), stepStart, stepEnd - stepStart, "cpu_op",
                 "");
        m_nowNs = stepEnd + 5000;
    }

    GeneratorOptions m_options;
    Random m_random;
    // Float noise in durations draws from its own stream: whether a duration gets noise depends on
    // its value, and a planted difference must not shift the draws of everything after it.
    Random m_noise;
    Random m_jitter;  // PlantedDuration's jitter, used only when jitterPercent is set
    GeneratorReport m_report;
    Writer m_writer;
    int64_t m_hostPid, m_cannPid, m_hardwarePid, m_freqPid, m_hcclPid, m_memPid, m_overlapPid;
    int64_t m_mainTid, m_dequeueTid, m_cannTid;
    int64_t m_nowNs;
    int64_t m_lastEndNs = 0;
    int64_t m_dequeueFreeNs = 0;
    uint64_t m_sequence = 1;
    uint64_t m_unbudgetedEvents = 0;
    int64_t m_hostlessTasks = 0;  // planted tasks so far: their connection ids
    GeneratorRecord* m_record;
    GeneratorSink* m_sink;
    // The current step's device tasks, busy spans and AllReduce tasks.
    std::vector<GeneratedTask> m_stepTasks;
    std::vector<std::pair<int64_t, int64_t>> m_deviceBusy;
    std::vector<GeneratedCommTask> m_commTasks;
};

}  // namespace

// [SECTION] Public functions

GeneratorReport GenerateTrace(const GeneratorOptions& options, std::FILE* out,
                              GeneratorRecord* record, GeneratorSink* sink) {
    return Generator(options, out, record, sink).Run();
}

GeneratedHostIds HostIdsOf(const GeneratorOptions& options) {
    GeneratedHostIds ids;
    ids.pid = 3096504 + static_cast<int64_t>(options.seed % 1000) * 7;
    ids.mainTid = ids.pid;
    // The dequeue thread launches to CANN: one thread, as in real runs.
    ids.dequeueTid = ids.pid + 3198;
    ids.cannTid = ids.dequeueTid;
    return ids;
}

const char* GeneratedAtenOperator(size_t kind) {
    return kAtenOps[kind % kOperatorCount];
}

const char* GeneratedOperatorType(size_t kind) {
    return kOperators[kind == kExtraOperatorKind ? kind : kind % kOperatorCount];
}

GeneratorOptions ComparisonSideA(const GeneratorOptions& options) {
    GeneratorOptions a = options;
    a.stableSteps = true;
    return a;
}

GeneratorOptions ComparisonSideB(const GeneratorOptions& options) {
    GeneratorOptions b = ComparisonSideA(options);
    b.rank = options.rank + 1;
    b.slowOperatorKind = 0;
    b.extraOperator = true;
    b.slowFreeStep = 3;
    b.clockOffsetNs = 5000000000ll;
    return b;
}

const char* GeneratedOperatorCore(size_t kind) {
    if (kind == kExtraOperatorKind) return "AI_VECTOR_CORE";
    switch (kind % kOperatorCount) {
        case 0:
        case 3:
        case 12:
            return "AI_CORE";  // MatMul, Conv2D, FlashAttentionScore
        case 13:
            return "AI_CPU";  // Slice
        case 7:
            return "MIX_AIV";  // LayerNorm
        default:
            return "AI_VECTOR_CORE";
    }
}

}  // namespace marey
