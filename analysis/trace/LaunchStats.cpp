#include "trace/LaunchStats.hpp"

#include <algorithm>

namespace marey {

LaunchFigures FiguresOfLaunch(const DeviceActivities& activities, const DeviceActivity& activity) {
    const HostLaunch& launch = activities.launches[static_cast<size_t>(activity.launch)];
    LaunchFigures figures;
    figures.cpuNs = launch.endNs - launch.startNs;
    figures.gpuNs = activity.endNs - activity.startNs;
    figures.delayNs = std::max<TimeNs>(0, activity.startNs - launch.endNs);
    return figures;
}

LaunchSummary SummarizeLaunches(const DeviceActivities& activities,
                                const std::vector<uint32_t>& indices,
                                const LaunchCutoffs& cutoffs) {
    LaunchSummary summary;
    for (uint32_t index : indices) {
        const DeviceActivity& activity = activities.activities[index];
        if (activity.launch == kNoLaunch) continue;
        const LaunchFigures figures = FiguresOfLaunch(activities, activity);
        ++summary.count;
        summary.cpuNs += figures.cpuNs;
        summary.gpuNs += figures.gpuNs;
        summary.delayNs += figures.delayNs;
        summary.maxDelayNs = std::max(summary.maxDelayNs, figures.delayNs);
        if (figures.gpuNs < figures.cpuNs && figures.cpuNs <= cutoffs.runtimeNs)
            ++summary.shortKernels;
        if (figures.cpuNs > cutoffs.runtimeNs) ++summary.runtimeOutliers;
        if (figures.delayNs > cutoffs.launchDelayNs) ++summary.launchDelayOutliers;
    }
    return summary;
}

namespace {

// The times of a stream's queue changes: launches (+1) and ends (-1), each in time order.
struct QueueEdges {
    std::vector<TimeNs> launches, ends;
};

void SortIfNeeded(std::vector<TimeNs>& times) {
    // A stream runs its work in order: both lists are mostly sorted as they are collected.
    if (!std::is_sorted(times.begin(), times.end())) std::sort(times.begin(), times.end());
}

// The queue of one stream from its edges: ends before launches at equal times.
void WalkQueue(QueueEdges& edges, bool keepSamples, StreamQueue& queue) {
    SortIfNeeded(edges.launches);
    SortIfNeeded(edges.ends);
    const std::vector<TimeNs>& up = edges.launches;
    const std::vector<TimeNs>& down = edges.ends;
    size_t u = 0, d = 0;
    const auto nextTime = [&] {
        if (u == up.size()) return down[d];
        if (d == down.size()) return up[u];
        return std::min(up[u], down[d]);
    };
    const TimeNs first = nextTime();
    TimeNs last = first;
    int64_t depth = 0;
    double weighted = 0;
    while (u < up.size() || d < down.size()) {
        const TimeNs time = nextTime();
        last = time;
        for (; d < down.size() && down[d] == time; ++d) --depth;
        for (; u < up.size() && up[u] == time; ++u)
            queue.max = std::max(queue.max, static_cast<uint32_t>(std::max<int64_t>(++depth, 0)));
        if (keepSamples)
            queue.samples.push_back({time, static_cast<uint32_t>(std::max<int64_t>(depth, 0))});
        if (u < up.size() || d < down.size())
            weighted += static_cast<double>(depth) * static_cast<double>(nextTime() - time);
    }
    const TimeNs span = last - first;
    queue.mean = span > 0 ? weighted / static_cast<double>(span) : 0.0;
}

}  // namespace

std::vector<StreamQueue> MeasureQueues(const DeviceActivities& activities,
                                       const std::vector<uint32_t>& indices, bool keepSamples) {
    std::vector<QueueEdges> edges(activities.streams.size());
    std::vector<char> ran(activities.streams.size(), 0);
    // Counted first: arrays of their final size, not grown and copied.
    std::vector<size_t> launched(activities.streams.size(), 0);
    for (uint32_t index : indices) {
        const DeviceActivity& activity = activities.activities[index];
        launched[activity.stream] += activity.launch != kNoLaunch;
    }
    for (size_t s = 0; s < edges.size(); ++s) {
        edges[s].launches.reserve(launched[s]);
        edges[s].ends.reserve(launched[s]);
    }
    for (uint32_t index : indices) {
        const DeviceActivity& activity = activities.activities[index];
        ran[activity.stream] = 1;
        if (activity.launch == kNoLaunch) continue;
        const HostLaunch& launch = activities.launches[static_cast<size_t>(activity.launch)];
        edges[activity.stream].launches.push_back(launch.startNs);
        edges[activity.stream].ends.push_back(std::max(activity.endNs, launch.startNs));
    }
    std::vector<StreamQueue> queues;
    for (uint32_t s = 0; s < edges.size(); ++s) {
        if (!ran[s]) continue;
        StreamQueue queue;
        queue.stream = s;
        // Nothing launched that we know of: an empty queue.
        if (!edges[s].launches.empty()) WalkQueue(edges[s], keepSamples, queue);
        edges[s] = {};
        queues.push_back(std::move(queue));
    }
    return queues;
}

}  // namespace marey
