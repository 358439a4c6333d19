#include "trace/DeviceCounters.hpp"

#include <algorithm>
#include <map>
#include <tuple>
#include <utility>

#include "load/EventFields.hpp"
#include "trace/LaunchStats.hpp"

namespace marey {
namespace {

// The time-weighted mean of a step function from its first sample to its last.
double MeanOverSpan(const std::vector<TimeNs>& timeNs, const std::vector<double>& value) {
    if (timeNs.size() < 2) return 0.0;
    double weighted = 0;
    for (size_t i = 0; i + 1 < timeNs.size(); ++i)
        weighted += value[i] * static_cast<double>(timeNs[i + 1] - timeNs[i]);
    return weighted / static_cast<double>(timeNs.back() - timeNs.front());
}

struct RateEdge {
    TimeNs timeNs;
    double rate;  // GB/s added (start) or taken away (end)
    int running;  // +1, -1
};

// The sum of the rates running at each edge time: a step function. Where no copy runs the
// value is exactly 0, not what adding and subtracting doubles leaves.
void SumRates(std::vector<RateEdge>& edges, DeviceCounterSeries& series) {
    std::sort(edges.begin(), edges.end(), [](const RateEdge& a, const RateEdge& b) {
        return a.timeNs != b.timeNs ? a.timeNs < b.timeNs : a.running < b.running;
    });
    double sum = 0;
    int running = 0;
    for (size_t i = 0; i < edges.size();) {
        const TimeNs time = edges[i].timeNs;
        for (; i < edges.size() && edges[i].timeNs == time; ++i) {
            sum += edges[i].rate * edges[i].running;
            running += edges[i].running;
        }
        if (running == 0) sum = 0;
        if (!series.value.empty() && series.value.back() == sum) continue;
        series.timeNs.push_back(time);
        series.value.push_back(sum);
        series.maxValue = std::max(series.maxValue, sum);
    }
}

}  // namespace

void BuildSeriesOverview(DeviceCounterSeries& series, size_t buckets) {
    series.overviewTimeNs.clear();
    series.overviewValue.clear();
    series.overviewResolutionNs = 0;
    const size_t n = series.timeNs.size();
    if (n <= buckets || buckets == 0) return;
    const TimeNs firstNs = series.timeNs.front(), spanNs = series.timeNs.back() - firstNs;
    const TimeNs resolutionNs = std::max<TimeNs>(
        1, (spanNs + static_cast<TimeNs>(buckets) - 1) / static_cast<TimeNs>(buckets));
    series.overviewResolutionNs = resolutionNs;
    auto push = [&](TimeNs timeNs, double value) {
        series.overviewTimeNs.push_back(timeNs);
        series.overviewValue.push_back(value);
    };
    size_t i = 0;  // the sample in force at the bucket's start
    TimeNs bucketNs = firstNs;
    for (;;) {
        double peak = series.value[i];
        size_t j = i + 1;
        for (; j < n && series.timeNs[j] < bucketNs + resolutionNs; ++j)
            peak = std::max(peak, series.value[j]);
        push(bucketNs, peak);
        if (j == n) break;
        i = j - 1;
        bucketNs += resolutionNs;
        if (series.timeNs[j] >= bucketNs + resolutionNs) {
            // Buckets with no sample of their own hold the value in force: one sample for all.
            push(bucketNs, series.value[i]);
            bucketNs += (series.timeNs[j] - bucketNs) / resolutionNs * resolutionNs;
        }
    }
    // After the last bucket the last value holds, not the bucket's peak.
    if (series.overviewValue.back() != series.value.back())
        push(bucketNs + resolutionNs, series.value.back());
}

double SeriesValueAt(const DeviceCounterSeries& series, TimeNs t) {
    const auto at = std::upper_bound(series.timeNs.begin(), series.timeNs.end(), t);
    if (at == series.timeNs.begin()) return 0.0;
    return series.value[static_cast<size_t>(at - series.timeNs.begin()) - 1];
}

std::vector<DeviceCounterSeries> MeasureQueueSeries(const TraceModel& model,
                                                    const DeviceActivities& activities) {
    std::vector<uint32_t> all(activities.activities.size());
    for (uint32_t i = 0; i < all.size(); ++i) all[i] = i;
    std::vector<uint64_t> launched(activities.streams.size(), 0);
    for (const DeviceActivity& activity : activities.activities)
        launched[activity.stream] += activity.launch != kNoLaunch;
    std::vector<DeviceCounterSeries> series;
    for (StreamQueue& queue : MeasureQueues(activities, all, true)) {
        if (queue.samples.empty()) continue;
        const DeviceStream& stream = activities.streams[queue.stream];
        DeviceCounterSeries one;
        one.kind = DeviceCounterKind::kQueueLength;
        one.name = "Queue length · " + stream.label;
        one.unit = "queued";
        one.process = model.tracks[stream.track].process;
        one.stream = queue.stream;
        one.timeNs.reserve(queue.samples.size());
        one.value.reserve(queue.samples.size());
        for (const QueueSample& sample : queue.samples) {
            one.timeNs.push_back(sample.time);
            one.value.push_back(static_cast<double>(sample.depth));
        }
        one.maxValue = queue.max;
        one.meanValue = queue.mean;
        one.activities = launched[queue.stream];
        series.push_back(std::move(one));
    }
    return series;
}

std::vector<DeviceCounterSeries> MeasureCopyBandwidth(const TraceModel& model,
                                                      const DeviceActivities& activities) {
    // Keyed by (group, device, kind): a model of several ranks has a device per rank.
    using Key = std::tuple<uint32_t, int64_t, MemoryKind>;
    std::map<Key, std::pair<DeviceCounterSeries, std::vector<RateEdge>>> byKey;
    for (const DeviceActivity& activity : activities.activities) {
        const MemoryKind memory = activity.kind.memory;
        if (memory == MemoryKind::kNone || memory == MemoryKind::kSet) continue;
        const DeviceStream& stream = activities.streams[activity.stream];
        auto& [series, edges] = byKey[Key{stream.group, stream.device, memory}];
        if (series.name.empty()) {
            series.kind = DeviceCounterKind::kCopyBandwidth;
            series.name = std::string("Memcpy bandwidth · ") + MemoryKindName(memory);
            series.unit = "GB/s";
            series.process = model.tracks[stream.track].process;
            series.memory = memory;
        }
        const SliceAddress& slice = activity.slice;
        const uint64_t ref = model.tracks[slice.track].rows[slice.row].Ref(slice.index);
        const TraceSource& source = model.SourceOf(slice.track);
        const std::optional<uint64_t> bytes =
            source.copyBytes.empty() ? ReadCopyBytes(source.text, ref) : source.copyBytes.Find(ref);
        const TimeNs durNs = activity.endNs - activity.startNs;
        if (!bytes || durNs <= 0) {
            ++series.withoutBytes;
            continue;
        }
        ++series.activities;
        series.totalBytes += *bytes;
        const double rate = static_cast<double>(*bytes) / static_cast<double>(durNs);
        edges.push_back({activity.startNs, rate, +1});
        edges.push_back({activity.endNs, rate, -1});
    }
    std::vector<DeviceCounterSeries> series;
    for (auto& [key, entry] : byKey) {
        auto& [one, edges] = entry;
        SumRates(edges, one);
        if (one.timeNs.empty()) continue;  // no copy of this kind said how many bytes
        one.meanValue = MeanOverSpan(one.timeNs, one.value);
        series.push_back(std::move(one));
    }
    return series;
}

std::vector<DeviceCounterSeries> BuildDeviceCounters(const TraceModel& model,
                                                     const TraceAnalyses& analyses) {
    std::vector<DeviceCounterSeries> series = MeasureQueueSeries(model, analyses.activities);
    std::vector<DeviceCounterSeries> copies = MeasureCopyBandwidth(model, analyses.activities);
    series.insert(series.end(), std::make_move_iterator(copies.begin()),
                  std::make_move_iterator(copies.end()));
    for (DeviceCounterSeries& one : series) BuildSeriesOverview(one);
    std::stable_sort(series.begin(), series.end(),
                     [](const DeviceCounterSeries& a, const DeviceCounterSeries& b) {
                         return a.process < b.process;
                     });
    return series;
}

}  // namespace marey
