#pragma once
// Writes PyTorch profiler (Kineto) traces of one GPU rank in the real format: schemaVersion,
// deviceProperties and distributedInfo, then host cpu_ops around cudaLaunchKernel /
// cudaMemcpyAsync / cudaMemsetAsync / cudaGraphLaunch calls, kernels, copies and sets on a
// compute stream (7) and a communication stream (20) running NCCL kernels, ac2g flows, GPU user
// annotations and cuda_sync records, µs timestamps with three decimals (exact ns), and the
// process and thread metadata at the end as Kineto writes it. Deterministic for a seed.
//
// Every step is built from one plan that plants each figure of docs/trace-analyses.md: idle gaps
// of the three kinds on both streams, computation overlapping communication, memory alone,
// computation with memory, launch-delay and runtime outliers, short kernels and a queue of
// launches ahead of a running kernel. The figures the analyses must find are summed from the
// plan as it is placed (never read back from the events) and returned with the text.
#include <array>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "TraceGenerator.hpp"

namespace marey {

struct KinetoTraceOptions {
    uint64_t events = 100000;  // approximate; with 'steps' too, it sizes each step instead
    uint32_t steps = 0;        // 0: as many steps as 'events' needs
    uint64_t seed = 1;
    uint32_t rank = 0;
    uint32_t worldSize = 8;  // distributedInfo's world_size; raised to rank + 1 when smaller
    // Each step starts with the data loader's next() (kLoaderNs on the host, the device idle
    // through it); in these steps (N of ProfilerStep#N) it takes kSlowLoaderNs. Empty: no
    // loader calls at all.
    std::vector<uint64_t> slowLoaderSteps;
    // In these steps the convolution the first all-reduce overlaps takes kSlowKernelNs: the host
    // waits for it in the step's closing synchronisation, and the step's critical path runs
    // through it.
    std::vector<uint64_t> slowKernelSteps;
};

constexpr int64_t kLoaderNs = 20000, kSlowLoaderNs = 4000000;
constexpr int64_t kSlowKernelNs = 8000000;

// The classes of device activities as bits: a set of classes running at once is their OR, the
// index into KinetoFigures::classSetNs (the order of docs/trace-analyses.md's kernel_types).
constexpr unsigned kKinetoComputation = 1;
constexpr unsigned kKinetoCommunication = 2;
constexpr unsigned kKinetoMemory = 4;

// The cut-offs the figures are planted against: the analyses' defaults.
constexpr int64_t kKinetoIdleThresholdNs = 30000;  // kernel wait is shorter
constexpr int64_t kKinetoRuntimeCutoffNs = 50000;  // CPU time of a launch
constexpr int64_t kKinetoDelayCutoffNs = 100000;   // launch delay

// The idle gaps of one kind on one stream.
struct KinetoGaps {
    int64_t ns = 0;
    uint64_t count = 0;
    int64_t minNs = 0, maxNs = 0;  // 0 when there is none
};

// One stream's idle time and queue, in ns.
struct KinetoStreamFigures {
    int64_t device = 0;  // the pid its events are written on
    int64_t stream = 0;  // the tid
    std::string name;    // "stream 7": the thread's name without Kineto's trailing space
    KinetoGaps hostWait, kernelWait, other;
    uint64_t queueMax = 0;
    // The queue's integral: the sum over its activities of (end - launch start), in ns, and the
    // time it is weighted over, from the first launch's start to the last end.
    int64_t queueAreaNs = 0;
    int64_t queueWindowNs = 0;
    double QueueMean() const;  // queueAreaNs / queueWindowNs, 0 for an empty window
};

// The figures of one step, or of the whole rank.
struct KinetoFigures {
    int64_t firstStartNs = 0, lastEndNs = 0;  // of the device activities
    int64_t spanNs = 0;                       // lastEndNs - firstStartNs
    int64_t busyNs = 0;                       // the union of the activities
    int64_t idleNs = 0;                       // summed from the planted gaps where no stream runs
    int64_t computeNs = 0;                    // the union of computation
    int64_t nonComputeNs = 0;                 // busyNs - computeNs
    std::array<int64_t, 8> classSetNs{};      // time each exact set of classes held; sums to busyNs
    int64_t communicationNs = 0;              // the union of communication
    int64_t overlappedCommunicationNs = 0;    // its part that computation overlaps
    std::optional<double> OverlapPct() const;  // 100 × overlapped / communication; none without
    uint64_t launches = 0, shortKernels = 0, runtimeOutliers = 0, launchDelayOutliers = 0;
    std::vector<KinetoStreamFigures> streams;  // stream 7, then stream 20
};

struct KinetoStepFigures {
    uint64_t step = 0;  // N of its "ProfilerStep#N"
    KinetoFigures figures;
};

// What the analyses of the written trace must find.
// One step's planted loader call: the device is idle through all of it.
struct KinetoLoaderStep {
    uint64_t step = 0;
    int64_t loaderNs = 0;
    bool slow = false;
};

struct KinetoExpected {
    std::vector<KinetoLoaderStep> loader;  // empty without slowLoaderSteps
    uint32_t rank = 0;
    int64_t device = 0;  // the GPU streams' pid
    KinetoFigures total;
    std::vector<KinetoStepFigures> steps;
};

struct KinetoTraceResult {
    GeneratorReport report;  // what was written: events by phase, slices, flow arrows, bytes
    KinetoExpected expected;
};

// Writes the trace to 'out' (nothing when null: the events are still counted) through a buffer
// of 1 MiB. O(events) time; memory O(steps) for the expected figures.
KinetoTraceResult GenerateKinetoTrace(const KinetoTraceOptions& options, std::FILE* out);

// A folder of 'ranks' rank traces of one job: 'folder'/rank-<r>.pt.trace.json, each as 'options'
// says with its rank, the job's world size and the seed options.seed + r. Makes the folder; false
// with 'error' set when a file cannot be written.
bool WriteKinetoRankTraces(const std::string& folder, uint32_t ranks,
                           const KinetoTraceOptions& options, std::string* error);

}  // namespace marey
