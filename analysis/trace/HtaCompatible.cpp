#include "trace/HtaCompatible.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <numeric>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "load/EventFields.hpp"

namespace marey {
namespace {

// [SECTION] The rows HTA keeps

struct HtaRow {
    TimeNs ts = 0, end = 0;  // rounded inward to whole µs when the trace has fractions
    StringId name = 0;
    int64_t stream = -1, correlation = -1;
    uint64_t order = 0;         // the event's byte offset: file order
    bool gpu = false;           // HTA's GPU side when linking and filtering
    bool idleCategory = false;  // a category the idle breakdown counts
    bool step = false;          // its name holds "ProfilerStep"
    HtaKernelType type = HtaKernelType::kComputation;
};

bool IdleCategory(std::string_view category) {
    for (const char* kept :
         {"kernel", "Kernel", "gpu_memset", "Memset", "gpu_memcpy", "Memcpy", "mtia_ccp_events"})
        if (category == kept) return true;
    return false;
}

TimeNs FloorToMicros(TimeNs ns) {
    const TimeNs us = ns / 1000 - (ns % 1000 < 0 ? 1 : 0);
    return us * 1000;
}
TimeNs CeilToMicros(TimeNs ns) {
    return -FloorToMicros(-ns);
}

// Every slice that has "dur" and a "cat" other than "Trace" (HTA ignores "ph"), in file order.
std::vector<HtaRow> ReadRows(const TraceModel& model, bool& rounded) {
    std::vector<HtaRow> rows;
    rounded = false;
    for (uint32_t t = 0; t < model.tracks.size(); ++t) {
        const Track& track = model.tracks[t];
        for (const TimeNs ts : track.instantTs) rounded |= ts % 1000 != 0;
        for (const marey::Row& row : track.rows)
            for (size_t i = 0; i < row.size(); ++i) {
                rounded |= row.start[i] % 1000 != 0;
                const uint64_t ref = row.Ref(i);
                const HtaEventFields fields = ReadHtaEventFields(model.TextOf(t), ref);
                if (!fields.hasDuration || !fields.hasCategory || fields.category == "Trace")
                    continue;
                HtaRow out;
                out.ts = row.start[i], out.end = row.end[i], out.name = row.name[i];
                out.stream = fields.stream, out.correlation = fields.correlation;
                out.order = ref;
                out.idleCategory = IdleCategory(fields.category);
                const std::string_view name = model.Name(out.name);
                out.gpu = (out.stream >= 0 && out.correlation >= 0) || name == "Event Sync" ||
                          name == "Context Sync";
                out.step = name.find("ProfilerStep") != std::string_view::npos;
                out.type = HtaKernelTypeOf(name);
                rows.push_back(out);
            }
    }
    std::sort(rows.begin(), rows.end(),
              [](const HtaRow& a, const HtaRow& b) { return a.order < b.order; });
    if (rounded)
        for (HtaRow& row : rows) row.ts = CeilToMicros(row.ts), row.end = FloorToMicros(row.end);
    return rows;
}

// The first `"rank":` followed by white space and digits in the text, as HTA's
// r'"rank":\s+(\d+)' finds it; 0 when none.
int64_t RankOf(const TraceText& text) {
    const std::string_view all(text.data(), text.size());
    for (size_t at = all.find("\"rank\":"); at != std::string_view::npos;
         at = all.find("\"rank\":", at + 1)) {
        size_t p = at + 7;
        const size_t spaces = p;
        while (p < all.size() &&
               (all[p] == ' ' || all[p] == '\t' || all[p] == '\n' || all[p] == '\r'))
            ++p;
        int64_t rank = 0;
        const auto [next, error] = std::from_chars(all.data() + p, all.data() + all.size(), rank);
        if (p > spaces && error == std::errc() && next > all.data() + p) return rank;
    }
    return 0;
}

// [SECTION] The last step dropped

// With two or more ProfilerStep names, HTA keeps the host events that start before the last step
// does and the device events whose correlation id one of those has, once per such host event.
// 'kept' gets row indices (repeated for those duplicates).
bool FilterLastStep(const std::vector<HtaRow>& rows, std::vector<uint32_t>& kept) {
    std::unordered_set<StringId> stepNames;
    for (const HtaRow& row : rows)
        if (row.step) stepNames.insert(row.name);
    if (stepNames.size() < 2) {
        kept.resize(rows.size());
        std::iota(kept.begin(), kept.end(), 0u);
        return false;
    }
    std::optional<TimeNs> lastStart;
    for (const HtaRow& row : rows)
        if (!row.gpu && row.step) lastStart = std::max(lastStart.value_or(row.ts), row.ts);
    if (!lastStart) return true;                       // a rank without steps of its own is emptied
    std::unordered_map<int64_t, uint32_t> hostRowsOf;  // correlation id → kept host rows
    for (uint32_t i = 0; i < rows.size(); ++i)
        if (!rows[i].gpu && rows[i].ts < *lastStart) {
            kept.push_back(i);
            if (rows[i].correlation >= 0) ++hostRowsOf[rows[i].correlation];
        }
    for (uint32_t i = 0; i < rows.size(); ++i) {
        if (!rows[i].gpu || rows[i].correlation < 0) continue;
        const auto found = hostRowsOf.find(rows[i].correlation);
        if (found != hostRowsOf.end()) kept.insert(kept.end(), found->second, i);
    }
    std::stable_sort(kept.begin(), kept.end(),
                     [&](uint32_t a, uint32_t b) { return rows[a].order < rows[b].order; });
    return true;
}

// [SECTION] Unions

struct Interval {
    TimeNs start, end;
};

// HTA's merge_kernel_intervals: by start, a new group when a start lies past every end so far.
std::vector<Interval> Merge(std::vector<Interval> intervals) {
    std::stable_sort(intervals.begin(), intervals.end(),
                     [](const Interval& a, const Interval& b) { return a.start < b.start; });
    std::vector<Interval> groups;
    for (const Interval& interval : intervals) {
        if (groups.empty() || interval.start > groups.back().end)
            groups.push_back(interval);
        else
            groups.back().end = std::max(groups.back().end, interval.end);
    }
    return groups;
}

TimeNs Length(const std::vector<Interval>& groups) {
    TimeNs sum = 0;
    for (const Interval& group : groups) sum += group.end - group.start;
    return sum;
}

// Time during each combination of the 'bits' of 'unions' (1 computation, 2 communication,
// 4 memory): a sweep over each union's groups. [mask] → ns.
std::array<TimeNs, 8> TimeByCombination(const std::array<std::vector<Interval>, 3>& unions) {
    struct Edge {
        TimeNs ts;
        int delta;
    };
    std::vector<Edge> edges;
    for (int u = 0; u < 3; ++u)
        for (const Interval& group : unions[static_cast<size_t>(u)])
            edges.push_back({group.start, 1 << u}), edges.push_back({group.end, -(1 << u)});
    std::stable_sort(edges.begin(), edges.end(),
                     [](const Edge& a, const Edge& b) { return a.ts < b.ts; });
    std::array<TimeNs, 8> time{};
    int running = 0;
    for (size_t i = 0; i + 1 < edges.size(); ++i) {
        running += edges[i].delta;
        if (running > 0 && running < 8)
            time[static_cast<size_t>(running)] += edges[i + 1].ts - edges[i].ts;
    }
    return time;
}

}  // namespace

HtaKernelType HtaKernelTypeOf(std::string_view name) {
    const auto startsWith = [&](std::string_view prefix) {
        return name.substr(0, prefix.size()) == prefix;
    };
    if (startsWith("nccl") && name.find("Kernel", 4) != std::string_view::npos)
        return HtaKernelType::kCommunication;
    if (startsWith("Memcpy") || startsWith("Memset") || startsWith("dma"))
        return HtaKernelType::kMemory;
    if (name.find("Memcpy") != std::string_view::npos ||
        name.find("Sync") != std::string_view::npos)
        return HtaKernelType::kOther;
    return HtaKernelType::kComputation;
}

namespace {

// [SECTION] Figures

// Temporal breakdown, kernel types and overlap over the kept rows that have a stream.
void MeasureTime(const std::vector<HtaRow>& rows, const std::vector<uint32_t>& kernels,
                 HtaAnalysis& out) {
    std::vector<Interval> all;
    std::array<std::vector<Interval>, 3> byType;  // computation, communication, memory
    for (const uint32_t k : kernels) {
        const HtaRow& row = rows[k];
        all.push_back({row.ts, row.end});
        const int index = row.type == HtaKernelType::kComputation     ? 0
                          : row.type == HtaKernelType::kCommunication ? 1
                          : row.type == HtaKernelType::kMemory        ? 2
                                                                      : -1;
        if (index >= 0) byType[static_cast<size_t>(index)].push_back({row.ts, row.end});
    }
    const std::vector<Interval> groups = Merge(std::move(all));
    out.spanNs = groups.back().end - groups.front().start;
    const TimeNs busy = Length(groups);
    out.idleNs = out.spanNs - busy;
    for (auto& intervals : byType) intervals = Merge(std::move(intervals));
    out.computeNs = Length(byType[0]);
    out.nonComputeNs = out.spanNs - out.computeNs - out.idleNs;
    const std::array<TimeNs, 8> combined = TimeByCombination(byType);
    static const char* const kNames[] = {"computation", "communication", "memory"};
    for (size_t mask = 1; mask < 8; ++mask) {
        if (combined[mask] == 0) continue;
        HtaTypeTime time;
        for (size_t bit = 0; bit < 3; ++bit)
            if (mask & (size_t{1} << bit)) time.types.push_back(kNames[bit]);
        time.ns = combined[mask];
        out.kernelTypes.push_back(std::move(time));
    }
    std::stable_sort(out.kernelTypes.begin(), out.kernelTypes.end(),
                     [](const HtaTypeTime& a, const HtaTypeTime& b) { return a.ns > b.ns; });
    const TimeNs communication = Length(byType[1]);
    if (communication != 0) {
        const TimeNs overlapped = combined[3] + combined[7];
        const double percent =
            100.0 * static_cast<double>(overlapped) / static_cast<double>(communication);
        out.overlapPercent = std::nearbyint(percent * 100.0) / 100.0;
    }
}

// Per stream number, gaps from the previous kernel's end to the next start: host wait when the
// launch started after that end, kernel wait below the threshold (zero and negative gaps too),
// other else. 'launchOf' gives a kept device row's launch row, or -1.
std::vector<HtaStreamIdle> MeasureIdle(const std::vector<HtaRow>& rows,
                                       const std::vector<uint32_t>& kept,
                                       const std::vector<int64_t>& launchOf,
                                       const std::vector<bool>& isKept, TimeNs kernelWaitBelowNs) {
    std::vector<int64_t> order;  // streams by first kernel
    std::unordered_map<int64_t, std::vector<uint32_t>> byStream;
    for (const uint32_t k : kept) {
        const HtaRow& row = rows[k];
        if (row.stream == -1 || !row.idleCategory) continue;
        auto [at, added] = byStream.try_emplace(row.stream);
        if (added) order.push_back(row.stream);
        at->second.push_back(k);
    }
    std::vector<HtaStreamIdle> idle;
    for (const int64_t stream : order) {
        std::vector<uint32_t>& ks = byStream[stream];
        std::stable_sort(ks.begin(), ks.end(),
                         [&](uint32_t a, uint32_t b) { return rows[a].ts < rows[b].ts; });
        HtaStreamIdle figures;
        figures.stream = stream;
        for (size_t i = 1; i < ks.size(); ++i) {
            const TimeNs previousEnd = rows[ks[i - 1]].end;
            const TimeNs gap = rows[ks[i]].ts - previousEnd;
            const int64_t launch = launchOf[ks[i]];
            if (launch >= 0 && isKept[static_cast<size_t>(launch)] &&
                rows[static_cast<size_t>(launch)].ts > previousEnd)
                figures.hostWaitNs += gap;
            else if (gap < kernelWaitBelowNs)
                figures.kernelWaitNs += gap;
            else
                figures.otherNs += gap;
        }
        idle.push_back(figures);
    }
    return idle;
}

bool IsLaunchCall(std::string_view name) {
    for (const char* call :
         {"cudaLaunchKernel", "cudaLaunchKernelExC",
          "runFunction - job_prep_and_submit_for_execution", "cudaMemcpyAsync", "cudaMemsetAsync"})
        if (name == call) return true;
    return false;
}

bool IsQueuedCall(std::string_view name) {
    for (const char* call :
         {"cudaMemsetAsync", "cudaMemcpyAsync", "cudaLaunchKernel", "cudaLaunchKernelExC",
          "cuLaunchKernel", "runFunction - job_prep_and_submit_for_execution", "hipLaunchKernel",
          "hipExtModuleLaunchKernel", "hipMemsetAsync", "hipMemcpyAsync", "hipMemcpyWithStream"})
        if (name == call) return true;
    return false;
}

// Every (host, device) pair of kept rows sharing the correlation id of a launch call.
LaunchSummary MeasureLaunches(const TraceModel& model, const std::vector<HtaRow>& rows,
                              const std::vector<uint32_t>& kept, const LaunchCutoffs& cutoffs) {
    std::unordered_set<int64_t> launched;
    for (const uint32_t k : kept)
        if (rows[k].correlation >= 0 && IsLaunchCall(model.Name(rows[k].name)))
            launched.insert(rows[k].correlation);
    std::unordered_map<int64_t, std::vector<uint32_t>> hostRows;
    for (const uint32_t k : kept)
        if (rows[k].stream == -1 && launched.count(rows[k].correlation))
            hostRows[rows[k].correlation].push_back(k);
    LaunchSummary summary;
    for (const uint32_t k : kept) {
        const HtaRow& device = rows[k];
        if (device.stream == -1 || !launched.count(device.correlation)) continue;
        for (const uint32_t h : hostRows[device.correlation]) {
            const HtaRow& host = rows[h];
            const TimeNs cpu = host.end - host.ts, gpu = device.end - device.ts;
            const TimeNs delay = std::max<TimeNs>(0, device.ts - host.ts - cpu);
            ++summary.count;
            summary.shortKernels += cpu <= cutoffs.runtimeNs && gpu < cpu;
            summary.runtimeOutliers += cpu > cutoffs.runtimeNs;
            summary.launchDelayOutliers += delay > cutoffs.launchDelayNs;
            summary.cpuNs += cpu, summary.gpuNs += gpu, summary.delayNs += delay;
            summary.maxDelayNs = std::max(summary.maxDelayNs, delay);
        }
    }
    return summary;
}

// +1 at each queued call's start (on the stream of each device row it launched), -1 at those
// device rows' starts; per stream the running count, summarised over its samples.
std::vector<HtaStreamQueue> MeasureQueues(const TraceModel& model, const std::vector<HtaRow>& rows,
                                          const std::vector<uint32_t>& kept,
                                          const std::unordered_set<int64_t>& hasDevice) {
    std::unordered_map<int64_t, std::vector<uint32_t>> launchesOf;  // correlation → queued calls
    for (const uint32_t k : kept) {
        const HtaRow& row = rows[k];
        if (row.correlation >= 0 && hasDevice.count(row.correlation) &&
            IsQueuedCall(model.Name(row.name)))
            launchesOf[row.correlation].push_back(k);
    }
    struct Sample {
        TimeNs ts;
        int delta;
        uint64_t order;
    };
    std::vector<int64_t> streams;
    std::unordered_map<int64_t, std::vector<Sample>> samples;
    for (const uint32_t k : kept) {
        const HtaRow& device = rows[k];
        if (device.stream == -1) continue;
        const auto found = launchesOf.find(device.correlation);
        if (found == launchesOf.end()) continue;
        auto [at, added] = samples.try_emplace(device.stream);
        if (added) streams.push_back(device.stream);
        for (const uint32_t launch : found->second)
            at->second.push_back({rows[launch].ts, +1, rows[launch].order});
        at->second.push_back({device.ts, -1, device.order});
    }
    std::vector<HtaStreamQueue> queues;
    for (const int64_t stream : streams) {
        std::vector<Sample>& list = samples[stream];
        // Equal times: launches first, then file order (HTA's sort leaves ties unordered).
        std::sort(list.begin(), list.end(), [](const Sample& a, const Sample& b) {
            if (a.ts != b.ts) return a.ts < b.ts;
            if (a.delta != b.delta) return a.delta > b.delta;
            return a.order < b.order;
        });
        HtaStreamQueue queue;
        queue.stream = stream;
        int64_t length = 0;
        double sum = 0;
        queue.max = INT64_MIN;
        for (const Sample& sample : list) {
            length += sample.delta;
            sum += static_cast<double>(length);
            queue.max = std::max(queue.max, length);
        }
        queue.samples = list.size();
        queue.mean = sum / static_cast<double>(list.size());
        queues.push_back(queue);
    }
    return queues;
}

}  // namespace

// [SECTION] The analysis

HtaAnalysis AnalyzeTraceAsHta(const TraceModel& model, const HtaOptions& options) {
    HtaAnalysis out;
    if (model.sources.size() != 1) {
        out.unavailable = "HTA reads one trace per rank: open the trace alone";
        return out;
    }
    if (model.sources.front().format != SourceFormat::kChromeJson) {
        out.unavailable =
            "HTA reads Chrome JSON traces only, not a profiler database, an Nsight Systems "
            "export or CSV";
        return out;
    }
    out.rank = RankOf(model.sources.front().text);
    const std::vector<HtaRow> rows = ReadRows(model, out.rounded);
    std::vector<uint32_t> kept;
    out.lastStepDropped = FilterLastStep(rows, kept);
    out.rows = kept.size();
    std::vector<uint32_t> kernels;
    for (const uint32_t k : kept)
        if (rows[k].stream != -1) kernels.push_back(k);
    if (kernels.empty()) {
        out.unavailable = out.lastStepDropped && kept.empty()
                              ? "HTA 0.5 keeps nothing of a trace that names two or more "
                                "ProfilerSteps but none on its own host threads"
                              : "no event with an args \"stream\" (HTA's kernels)";
        return out;
    }
    MeasureTime(rows, kernels, out);
    // Each device row's launch: the last host row of its correlation id in the file, linked
    // before the step filter as HTA links them; and the correlation ids that reached a device.
    std::unordered_map<int64_t, uint32_t> lastHost;
    std::unordered_set<int64_t> hasDevice;
    for (uint32_t i = 0; i < rows.size(); ++i) {
        if (rows[i].correlation < 0) continue;
        if (rows[i].gpu)
            hasDevice.insert(rows[i].correlation);
        else
            lastHost[rows[i].correlation] = i;
    }
    std::vector<int64_t> launchOf(rows.size(), -1);
    for (uint32_t i = 0; i < rows.size(); ++i)
        if (rows[i].gpu && rows[i].correlation >= 0)
            if (const auto found = lastHost.find(rows[i].correlation); found != lastHost.end())
                launchOf[i] = found->second;
    std::vector<bool> isKept(rows.size(), false);
    for (const uint32_t k : kept) isKept[k] = true;
    out.idle = MeasureIdle(rows, kept, launchOf, isKept, options.kernelWaitBelowNs);
    out.launch = MeasureLaunches(model, rows, kept, options.cutoffs);
    out.queue = MeasureQueues(model, rows, kept, hasDevice);
    return out;
}

}  // namespace marey
