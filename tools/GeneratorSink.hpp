#pragma once
// What the trace generator ran, told as it runs, for writers other than the trace text (the
// profiler databases). Times are ns on the trace's clock, the same values the text holds.
#include <cstdint>
#include <vector>

#include "TraceGenerator.hpp"

namespace marey {

// One Python operator and the device task it launched: aten op on the main thread with its
// Enqueue, Dequeue@op on the dequeue thread, AscendCL@op holding Node@launch on the CANN thread.
struct GeneratedOperator {
    uint64_t sequence = 0;  // "Sequence number"; also the launch's connection id
    size_t kind = 0;
    int64_t atenStartNs = 0, atenDurNs = 0;
    int64_t enqueueStartNs = 0, enqueueDurNs = 0;
    int64_t dequeueStartNs = 0, dequeueDurNs = 0;
    int64_t aclStartNs = 0, aclDurNs = 0;
    int64_t nodeStartNs = 0, nodeDurNs = 0;
};

// One task of a step's AllReduce on an HCCL plane (and on the device's stream 3).
struct GeneratedCommTask {
    uint32_t plane = 0;
    const char* name = "";          // "Memcpy", "Notify_Wait"
    const char* hardwareType = "";  // the task's "task type": "SDMA", "Notify Wait"
    uint32_t notifyId = 0;
    uint32_t srcRank = 0, dstRank = 0;
    int64_t startNs = 0, durNs = 0;
};

// The ids and values the generated run uses for its communication tasks.
inline constexpr int64_t kCommTaskStream = 3;
inline constexpr int64_t kCommTaskSizeBytes = 4194304;
inline constexpr const char* kCommGroup = "17522688603477080586";

// Connection ids, as both exports write them. A launch's Node@launch and its task share the
// operator's sequence number; every other kind lives in a range of its own.
inline constexpr int64_t kAclConnectionBase = int64_t{1} << 40;   // AscendCL@op, joined to nothing
inline constexpr int64_t kCommConnectionBase = int64_t{3} << 40;  // + step number: an AllReduce
inline constexpr int64_t kHostlessConnectionBase = int64_t{4} << 40;  // + index: a planted task

class GeneratorSink {
public:
    virtual ~GeneratorSink() = default;
    // An operator and its device task ('taskId' as the trace's "Task Id").
    virtual void Operator(const GeneratedOperator& op, const GeneratedTask& task,
                          uint32_t taskId) = 0;
    // A device task with no host operator (the planted DropOutDoMask).
    virtual void HostlessTask(const GeneratedTask& task) = 0;
    virtual void CoreFrequency(int64_t tsNs, int64_t mhz) = 0;
    virtual void HbmUsage(int64_t tsNs, int64_t kb) = 0;
    // A finished step: its figures, its device tasks in start order, its AllReduce's tasks.
    virtual void Step(const GeneratedStep& step, const std::vector<GeneratedTask>& tasks,
                      const std::vector<GeneratedCommTask>& commTasks) = 0;
};

}  // namespace marey
