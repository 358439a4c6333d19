#pragma once
// The analyses of a trace as Holistic Trace Analysis 0.5 computes them (`marey stats --json
// --hta-compatible`), for those who compare with its figures: integer µs rounded inward, the
// last ProfilerStep dropped, any event with a stream as a kernel, kernel classes by three name
// patterns, gaps from the previous kernel's end, only CUDA launch calls paired, queues that drop
// at a kernel's start. docs/hta-compatible.md gives every rule with HTA's source line, and where
// marey's own definitions (docs/trace-analyses.md) read the trace better.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/TraceModel.hpp"
#include "trace/LaunchStats.hpp"

namespace marey {

// HTA's kernel classes (hta/utils/utils.py KernelType), by name only.
enum class HtaKernelType : uint8_t { kCommunication, kMemory, kComputation, kOther };
HtaKernelType HtaKernelTypeOf(std::string_view name);

struct HtaTypeTime {
    std::vector<const char*> types;  // "computation", "communication", "memory", in that order
    TimeNs ns = 0;
};

struct HtaStreamIdle {
    int64_t stream = 0;  // args "stream"
    TimeNs hostWaitNs = 0, kernelWaitNs = 0, otherNs = 0;
};

struct HtaStreamQueue {
    int64_t stream = 0;
    double mean = 0;  // over the samples, not weighted by time
    int64_t max = 0;
    uint64_t samples = 0;
};

struct HtaAnalysis {
    int64_t rank = 0;
    std::string unavailable;  // why there are no figures; empty when there are
    bool rounded = false;     // times were rounded inward to whole µs
    bool lastStepDropped = false;
    uint64_t rows = 0;  // events kept after the step filter
    TimeNs spanNs = 0, idleNs = 0, computeNs = 0, nonComputeNs = 0;
    std::optional<double> overlapPercent;  // rounded to 2 decimals; nullopt: no communication
    std::vector<HtaTypeTime> kernelTypes;  // largest first
    std::vector<HtaStreamIdle> idle;       // streams in order of first kernel
    LaunchSummary launch;                  // count, short kernels and the two outlier counts
    std::vector<HtaStreamQueue> queue;     // streams in order of first sample
};

struct HtaOptions {
    TimeNs kernelWaitBelowNs = 30'000;
    LaunchCutoffs cutoffs;
};

// The figures of the single trace 'model' (one rank) as HTA 0.5 computes them. O(events log
// events), reading every event's "cat", "dur" and stream and correlation args from the text.
HtaAnalysis AnalyzeTraceAsHta(const TraceModel& model, const HtaOptions& options = {});

}  // namespace marey
