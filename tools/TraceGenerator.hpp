#pragma once
// Writes Ascend-like Chrome traces (trace_view.json as torch_npu writes it) of any size, with
// the real quirks: string timestamps with nanosecond decimals, metadata records in the
// producer's key order, nesting on host threads, device streams, HostToDevice flows with ids
// beyond 2^64, torch_to_npu flows, HCCL communication, Overlap Analysis and counters.
// Deterministic for a seed.
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace marey {

class GeneratorSink;

struct GeneratorOptions {
    uint64_t events = 100000;  // approximate; the trace ends after the step that reaches it
    uint64_t seed = 1;
    uint32_t rank = 0;
    uint32_t streams = 2;  // compute streams on the device
    // Differences planted for comparison tests (side B of a pair); none by default. The random
    // draws stay the same, so everything else matches the trace written without them.
    int slowOperatorKind = -1;      // device tasks of this kind take 'slowOperatorPercent' longer
    int slowOperatorPercent = 100;  // +100: twice as long; +10: 10 % longer (rounded to ns)
    bool extraOperator = false;     // one more task per step, of a kind the other side never runs
    uint64_t slowFreeStep =
        0;  // this step (its ProfilerStep#N) waits 'slowFreeNs' more before its AllReduce
    int64_t slowFreeNs = 3000000;
    int64_t clockOffsetNs = 0;  // added to every timestamp
    int64_t extraStepNs = 0;    // every step waits this much more before its AllReduce
    int taskScalePercent = 0;   // every device task's duration scaled by (100 + this) / 100
    // Every device task's duration times 1 + u / 100, u uniform in [-jitterPercent,
    // jitterPercent], drawn from a stream seeded by 'jitterSeed': two recordings of one program.
    // Off (0) by default; the other draws never depend on it.
    int jitterPercent = 0;
    uint64_t jitterSeed = 1;
    // Count only events whose number never depends on timing towards 'events', so that the two
    // sides of a comparison pair write the same steps and operators.
    bool stableSteps = false;
};

// The kind of the task only 'extraOperator' writes: "DropOutDoMask_20".
constexpr size_t kExtraOperatorKind = 20;

// The comparison pair the tests and `marey-gen --compare-pair` write. A: 'options' with
// stable steps. B: the same with rank + 1, MatMul (kind 0) twice as slow, DropOutDoMask only on
// B, step 3 with 3 ms more free time, and a clock 5 s ahead.
GeneratorOptions ComparisonSideA(const GeneratorOptions& options);
GeneratorOptions ComparisonSideB(const GeneratorOptions& options);

// What was written, for tests and the benchmark to compare with.
struct GeneratorReport {
    uint64_t events = 0;
    std::map<char, uint64_t> byPhase;
    uint64_t slices = 0;      // 'X' events
    uint64_t flowArrows = 0;  // start→finish pairs
    uint64_t bytes = 0;
    int64_t firstNs = 0, lastNs = 0;
};

// What ran on the device, kept when asked for, so that the profiler's other files
// (kernel_details.csv, step_trace_time.csv, communication.json, …) can be written to match.
struct GeneratedTask {
    size_t kind = 0;  // index into the operator list
    uint32_t stream = 0;
    int64_t startNs = 0, durNs = 0;
};
struct GeneratedStep {
    uint64_t number = 0;  // as in "ProfilerStep#N"
    int64_t startNs = 0;
    int64_t endNs = 0;  // the end of its ProfilerStep#N slice (STEP_TIME's endNs)
    int64_t computingNs = 0, freeNs = 0;
    int64_t commStartNs = 0, commDurNs = 0;
    std::string commName;
    size_t firstTask = 0, taskCount = 0;
    // From the step's start to its first device task: the profiler's Preparing, not free time.
    int64_t preparingNs = 0;
};
struct GeneratorRecord {
    std::vector<GeneratedTask> tasks;
    std::vector<GeneratedStep> steps;
};

// Writes the trace to 'out' (nothing when null: the events are still counted). Returns what it
// wrote; fills 'record' when given and tells 'sink' (when given) what ran, as it runs.
GeneratorReport GenerateTrace(const GeneratorOptions& options, std::FILE* out,
                              GeneratorRecord* record = nullptr, GeneratorSink* sink = nullptr);

// The host process and threads of a generated run ("Python" and "CANN" share them).
struct GeneratedHostIds {
    int64_t pid = 0;
    int64_t mainTid = 0, dequeueTid = 0, cannTid = 0;
};
GeneratedHostIds HostIdsOf(const GeneratorOptions& options);

// Operator type names of the generated device tasks (task names are "<type>_<kind>").
const char* GeneratedOperatorType(size_t kind);
const char* GeneratedOperatorCore(size_t kind);
// The Python operator that launches a task of this kind ("aten::matmul").
const char* GeneratedAtenOperator(size_t kind);

// Writes kernel_details.csv, step_trace_time.csv, op_statistic.csv, communication.json,
// communication_matrix.json, memory_record.csv and operator_memory.csv into 'outputDir' to match
// 'record', with the quirks of the real files (trailing tabs, CRLF, quoted shapes). Returns false
// with 'error' set when a file cannot be written.
bool WriteRankSideFiles(const GeneratorRecord& record, const GeneratorOptions& options,
                        const std::string& outputDir, std::string* error);

// What a rank folder holds, as torch_npu's export_type: the text files, the profiler databases
// (ascend_pytorch_profiler_R.db and analysis.db), or both kinds side by side.
enum class RankExport { kText, kDatabase, kBoth };

// Writes a whole rank folder: DIR/profiler_info_R.json and, in DIR/ASCEND_PROFILER_OUTPUT, the
// trace and every side file, or the same run as the two databases, or both. Returns false with
// 'error' set when something cannot be written. A database-only folder is written as the run goes
// (memory stays small for any 'events'); a text folder keeps every device task for its side files.
bool WriteRankDirectory(const GeneratorOptions& options, const std::string& rankDir,
                        std::string* error, GeneratorReport* report = nullptr,
                        RankExport exportKind = RankExport::kText);

}  // namespace marey
