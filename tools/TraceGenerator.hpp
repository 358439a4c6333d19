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

// Writes the trace to 'out'. Returns what it wrote.
GeneratorReport GenerateTrace(const GeneratorOptions& options, std::FILE* out);

}  // namespace tracelens
