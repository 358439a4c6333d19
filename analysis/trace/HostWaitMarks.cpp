#include "trace/HostWaitMarks.hpp"

#include <algorithm>

namespace marey {
namespace {

// The activity of 'stream' that starts at 'startNs' (the one that ended a gap), or null.
const DeviceActivity* ActivityStartingAt(const DeviceActivities& activities, uint32_t stream,
                                         TimeNs startNs) {
    auto at = std::lower_bound(
        activities.activities.begin(), activities.activities.end(), startNs,
        [](const DeviceActivity& activity, TimeNs t) { return activity.startNs < t; });
    for (; at != activities.activities.end() && at->startNs == startNs; ++at)
        if (at->stream == stream) return &*at;
    return nullptr;
}

// The first index at or after 'from' whose start is at least 'limit': a gallop, since the next
// pixel's gaps are near. O(log distance).
size_t GallopTo(const TimeNs* starts, size_t from, size_t n, TimeNs limit) {
    size_t low = from, high = from, step = 1;
    while (high < n && starts[high] < limit) {
        low = high + 1;
        high = from + step;
        step *= 2;
    }
    return static_cast<size_t>(std::lower_bound(starts + low, starts + std::min(high, n), limit) -
                               starts);
}

}  // namespace

std::vector<HostWaitMarks> CollectHostWaits(const TraceAnalyses& analyses) {
    const DeviceActivities& activities = analyses.activities;
    std::vector<HostWaitMarks> marks;
    for (const IdleGap& gap : analyses.gaps) {
        if (gap.kind != GapKind::kHostWait) continue;
        if (marks.empty() || marks.back().stream != gap.stream) {
            marks.emplace_back();
            marks.back().stream = gap.stream;
            marks.back().track = activities.streams[gap.stream].track;
        }
        HostWaitMarks& stream = marks.back();
        const DeviceActivity* next = ActivityStartingAt(activities, gap.stream, gap.endNs);
        TimeNs launchAfterNs = 0;
        if (next && next->launch != kNoLaunch)
            launchAfterNs =
                activities.launches[static_cast<size_t>(next->launch)].startNs - gap.startNs;
        stream.startNs.push_back(gap.startNs);
        stream.endNs.push_back(gap.endNs);
        stream.launchAfterNs.push_back(launchAfterNs);
        stream.totalNs += gap.endNs - gap.startNs;
    }
    return marks;
}

void QueryHostWaits(const HostWaitMarks& marks, TimeNs viewStartNs, TimeNs viewEndNs,
                    TimeNs minVisibleNs, std::vector<HostWaitItem>& out) {
    const TimeNs* starts = marks.startNs.data();
    const TimeNs* ends = marks.endNs.data();
    const size_t n = marks.size();
    minVisibleNs = std::max<TimeNs>(1, minVisibleNs);
    size_t i = static_cast<size_t>(std::upper_bound(ends, ends + n, viewStartNs) - ends);
    while (i < n && starts[i] < viewEndNs) {
        if (ends[i] - starts[i] >= minVisibleNs) {
            out.push_back({starts[i], ends[i], static_cast<uint32_t>(i), 1});
            ++i;
            continue;
        }
        // A narrow gap takes every gap that starts within a pixel of it (and in the view): one
        // item per pixel.
        const TimeNs foldUntil = std::min(starts[i] + minVisibleNs, viewEndNs);
        const size_t j = GallopTo(starts, i, n, foldUntil);
        out.push_back(
            {starts[i], ends[j - 1], static_cast<uint32_t>(i), static_cast<uint32_t>(j - i)});
        i = j;
    }
}

}  // namespace marey
