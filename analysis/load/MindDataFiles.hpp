#pragma once
// MindSpore's data-preparation (MindData) files of one rank: the dataset pipeline's operators
// with their output queues (minddata_pipeline_raw_N.csv), the host queue that feeds the device
// per step (device_queue_profiling_N.txt, or dataset_iterator_profiling_N.txt in feed mode), and
// the device's data queue when each step took its batch (minddata_aicpu_N.txt on Ascend,
// minddata_getnext_profiling_N.txt on GPU). Formats as MindInsight's own analysers read them
// (mindinsight/profiler/analyser/minddata_*.py). Each parser keeps every row it can read and
// names every other with its line.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/Status.hpp"
#include "core/Time.hpp"

namespace marey {

// The largest count a MindData field may hold: queue sizes, capacities, workers, ids and steps
// are all far below it; anything above is damage, not data.
inline constexpr int64_t kMaxMindDataCount = 1 << 30;

// One operator of the dataset pipeline and its output queue (to its parent; the root's goes to
// the device queue). Operators are kept in the file's order.
struct PipelineOperator {
    int id = -1;
    std::string type;            // "Batch", "MapOp", "TFReader", …
    std::optional<int> workers;  // num_workers; none when the file does not record it
    // The output queue's sampled sizes, every sampleIntervalMs; empty when it was not recorded.
    std::vector<int> queueSizes;
    int queueCapacity = 0;  // output_queue_length; 0 when not recorded
    double queueUsage = 0;  // output_queue_usage_rate: the average size over the capacity, 0..1
    bool hasQueue = false;  // a usage rate was recorded
    int sampleIntervalMs = 0;
    int parent = -1;  // -1 for the root
    std::vector<int> children;
    // A child link was dropped (its row damaged, or contradicting): the operator's inputs are
    // not all known, so it is judged as no source.
    bool lostChildren = false;
    // Its average CPU use (user + system, % of one core) from minddata_cpu_utilization_N.json;
    // -1 when not recorded.
    double cpuPercent = -1;
};

struct PipelineTable {
    std::vector<PipelineOperator> operators;
    std::vector<ImportProblem> problems;  // line and column filled in
};

// Reads minddata_pipeline_raw_N.csv. Columns by header name. A row whose op_id is not a count,
// repeats an earlier op_id, or whose counts, queue sizes or usage rate are out of range is left
// out and named, as is a row of another width than the header; a parent or child that names no
// operator of the file, a child whose own parent_id differs and the parent link that closes a
// loop are named and dropped from the links (the operator stays). A missing column is named.
// Fails only without an op_id column.
Result<PipelineTable> ParsePipelineRawCsv(std::string_view text, const std::string& name);

// Drops the links that name no operator of 'operators', a self-parent, a child whose own parent
// differs and the parent link that closes a loop; returns each with the operator that held it.
// O(operators log operators + links).
struct LinkProblem {
    size_t operatorIndex;
    std::string message;  // "operator 4: child 9 names no operator; link dropped"
};
std::vector<LinkProblem> CheckPipelineLinks(std::vector<PipelineOperator>& operators);

// One step's record of the host queue (the queue MindData fills and the device-queue operator
// sends from): its size when the step's batch was taken and the times the sending took.
struct HostQueueStep {
    int step = 0;
    int size = -1;       // -1 when the file holds no size for the step
    int capacity = 0;    // 0 when unknown
    TimeNs getNs = -1;   // time to take the batch from the pipeline; -1 unknown
    TimeNs pushNs = -1;  // time to push it to the device
    TimeNs totalNs = -1;
};

struct HostQueueRecord {
    std::vector<HostQueueStep> steps;  // by step number, each step once
    std::vector<ImportProblem> problems;
};

// Reads device_queue_profiling_N.txt or dataset_iterator_profiling_N.txt: lines of
// "0 KIND STEP MS [...]" (a time: KIND 0 get, 1 push, 2 total, in milliseconds) and
// "1 CAPACITY STEP SIZE [...]" (the queue's size). A line of another shape, a negative or
// non-numeric field, a size above the capacity or a step recorded twice is named and left out.
HostQueueRecord ParseHostQueueText(std::string_view text);

// One batch the device took from its data queue (GetNext): the wait and the queue's size then.
struct DeviceQueueBatch {
    int step = 0;  // the GetNext line's ordinal: a line left out shifts no later step
    TimeNs startNs = 0, endNs = 0;  // on the device's clock
    int size = -1;                  // the queue's size when the batch was taken; -1 unknown
};

struct DeviceQueueRecord {
    std::vector<DeviceQueueBatch> batches;  // in the file's order
    std::vector<ImportProblem> problems;
};

// Reads minddata_aicpu_N.txt (timestamps in microseconds) or minddata_getnext_profiling_N.txt
// (nanoseconds, 'nanoseconds' true): lines "GetNext… START END SIZE". Lines of other operators
// are skipped; a GetNext line with a field that is not a count, or an end before its start, is
// named and left out.
DeviceQueueRecord ParseDeviceQueueText(std::string_view text, bool nanoseconds);

}  // namespace marey
