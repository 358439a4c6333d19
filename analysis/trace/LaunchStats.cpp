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

std::vector<StreamQueue> MeasureQueues(const DeviceActivities& activities,
                                       const std::vector<uint32_t>& indices, bool keepSamples) {
    // (time, +1/-1) per stream; -1 sorts first at equal times.
    std::vector<std::vector<std::pair<TimeNs, int>>> edges(activities.streams.size());
    std::vector<char> ran(activities.streams.size(), 0);
    for (uint32_t index : indices) {
        const DeviceActivity& activity = activities.activities[index];
        ran[activity.stream] = 1;
        if (activity.launch == kNoLaunch) continue;
        const HostLaunch& launch = activities.launches[static_cast<size_t>(activity.launch)];
        edges[activity.stream].emplace_back(launch.startNs, +1);
        edges[activity.stream].emplace_back(std::max(activity.endNs, launch.startNs), -1);
    }
    std::vector<StreamQueue> queues;
    for (uint32_t s = 0; s < edges.size(); ++s) {
        std::vector<std::pair<TimeNs, int>>& streamEdges = edges[s];
        if (!ran[s]) continue;
        StreamQueue queue;
        queue.stream = s;
        if (streamEdges.empty()) {  // nothing launched that we know of: an empty queue
            queues.push_back(std::move(queue));
            continue;
        }
        std::sort(streamEdges.begin(), streamEdges.end());
        int64_t depth = 0;
        double weighted = 0;
        for (size_t i = 0; i < streamEdges.size();) {
            const TimeNs time = streamEdges[i].first;
            for (; i < streamEdges.size() && streamEdges[i].first == time; ++i) {
                depth += streamEdges[i].second;
                queue.max = std::max(queue.max, static_cast<uint32_t>(std::max<int64_t>(depth, 0)));
            }
            if (keepSamples) queue.samples.push_back({time, static_cast<uint32_t>(depth)});
            if (i < streamEdges.size())
                weighted +=
                    static_cast<double>(depth) * static_cast<double>(streamEdges[i].first - time);
        }
        const TimeNs span = streamEdges.back().first - streamEdges.front().first;
        queue.mean = span > 0 ? weighted / static_cast<double>(span) : 0.0;
        queues.push_back(std::move(queue));
    }
    return queues;
}

}  // namespace marey
