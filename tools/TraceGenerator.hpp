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

namespace tracelens {

struct GeneratorOptions {
    uint64_t events = 100000;  // approximate; the trace ends after the step that reaches it
    uint64_t seed = 1;
    uint32_t rank = 0;
    uint32_t streams = 2;       // compute streams on the device
};

// What was written, for tests and the benchmark to compare with.
struct GeneratorReport {
    uint64_t events = 0;
    std::map<char, uint64_t> byPhase;
    uint64_t slices = 0;       // 'X' events
    uint64_t flowArrows = 0;   // start→finish pairs
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
    int64_t computingNs = 0, freeNs = 0;
    int64_t commStartNs = 0, commDurNs = 0;
    std::string commName;
    size_t firstTask = 0, taskCount = 0;
};
struct GeneratorRecord {
    std::vector<GeneratedTask> tasks;
    std::vector<GeneratedStep> steps;
};

// Writes the trace to 'out'. Returns what it wrote; fills 'record' when given.
GeneratorReport GenerateTrace(const GeneratorOptions& options, std::FILE* out, GeneratorRecord* record = nullptr);

// Operator type names of the generated device tasks (task names are "<type>_<kind>").
const char* GeneratedOperatorType(size_t kind);
const char* GeneratedOperatorCore(size_t kind);

// Writes kernel_details.csv, step_trace_time.csv, op_statistic.csv, communication.json,
// communication_matrix.json, memory_record.csv and operator_memory.csv into 'outputDir' to match 'record', with the quirks of the real
// files (trailing tabs, CRLF, quoted shapes). Returns false with 'error' set when a file cannot be written.
bool WriteRankSideFiles(const GeneratorRecord& record, const GeneratorOptions& options, const std::string& outputDir,
                        std::string* error);

}  // namespace tracelens
