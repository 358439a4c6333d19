#pragma once
// Every analysis of a rank computed from its trace alone (docs/trace-analyses.md): device time,
// kernel type combinations, overlap, idle per stream, launches and queues; for the whole trace and
// for each ProfilerStep. Built off the UI thread; the views and `marey stats` only read it.
#include <optional>
#include <string>
#include <vector>

#include "core/LoadProgress.hpp"
#include "trace/DeviceActivities.hpp"
#include "trace/DeviceTime.hpp"
#include "trace/LaunchStats.hpp"
#include "trace/StreamIdle.hpp"

namespace marey {

struct TraceAnalysisOptions {
    TimeNs kernelWaitBelowNs = 30'000;  // --idle-threshold
    LaunchCutoffs cutoffs;
    unsigned threads = 1;
};

struct ActivityFigures {
    DeviceTime time;
    std::vector<StreamIdle> idle;
    LaunchSummary launch;
    std::vector<StreamQueue> queue;
};

struct StepFigures {
    std::string step;  // "5" of ProfilerStep#5
    ActivityFigures figures;
    uint32_t window = 0;  // index into TraceAnalyses::steps: where the host ran it
};

// kCudaDevice: an Nsight Systems export of several processes, each rank the device it ran on.
enum class RankIdSource : uint8_t { kDistributedInfo, kFileName, kOrder, kCudaDevice };
// "distributedInfo", "file name", "order", "CUDA device"
const char* RankIdSourceName(RankIdSource source);

struct RankTraceAnalysis {
    uint32_t group = kNoGroup;
    int64_t rank = 0;
    RankIdSource rankFrom = RankIdSource::kOrder;
    std::string unavailable;  // why there are no figures; empty when there are
    ActivityFigures all;
    std::vector<StepFigures> steps;
};

struct TraceAnalyses {
    TraceAnalysisOptions options;  // the threshold and cut-offs the figures were counted with
    DeviceActivities activities;
    std::vector<StepWindow> steps;
    std::vector<RankTraceAnalysis> ranks;  // one per group, or one for a single trace
    std::vector<IdleGap> gaps;             // every idle gap, by stream then time
    bool fromIndexCache = false;  // read from the index cache beside the model, not computed
};

// The rank a trace says it is: distributedInfo.rank, else "rank-N"/"rank_N" in its file name,
// else nullopt. Looks at the text outside the event array only (its first and last MiB).
struct TraceRank {
    int64_t rank = 0;
    RankIdSource source = RankIdSource::kOrder;
};
TraceRank FindTraceRank(const TraceSource& source);

// The analyses of a single trace or a model of several ranks (one per group). O(activities
// log activities) after reading the device events' text (see FindDeviceActivities).
// 'progress' (may be null) hears which part runs.
TraceAnalyses AnalyzeTrace(const TraceModel& model, const TraceAnalysisOptions& options,
                           LoadProgress* progress = nullptr);

}  // namespace marey
