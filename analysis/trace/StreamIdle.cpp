#include "trace/StreamIdle.hpp"

#include <algorithm>
#include <optional>

namespace marey {

const char* GapKindName(GapKind kind) {
    switch (kind) {
        case GapKind::kHostWait:
            return "host wait";
        case GapKind::kKernelWait:
            return "kernel wait";
        case GapKind::kOther:
            return "other";
    }
    return "other";
}

void GapStats::Add(TimeNs ns) {
    minNs = count == 0 ? ns : std::min(minNs, ns);
    maxNs = count == 0 ? ns : std::max(maxNs, ns);
    totalNs += ns;
    ++count;
}

std::vector<StreamIdle> BreakDownIdle(const DeviceActivities& activities,
                                      const std::vector<uint32_t>& indices,
                                      TimeNs kernelWaitBelowNs, std::vector<IdleGap>* gaps) {
    std::vector<std::optional<TimeNs>> latestEnd(activities.streams.size());
    std::vector<StreamIdle> perStream(activities.streams.size());
    for (uint32_t s = 0; s < perStream.size(); ++s) perStream[s].stream = s;
    if (gaps) gaps->reserve(gaps->size() + indices.size());  // at most a gap an activity
    for (uint32_t index : indices) {
        const DeviceActivity& activity = activities.activities[index];
        std::optional<TimeNs>& end = latestEnd[activity.stream];
        if (end && activity.startNs > *end) {
            const TimeNs gap = activity.startNs - *end;
            GapKind kind = GapKind::kOther;
            if (activity.launch != kNoLaunch &&
                activities.launches[static_cast<size_t>(activity.launch)].startNs > *end)
                kind = GapKind::kHostWait;
            else if (gap < kernelWaitBelowNs)
                kind = GapKind::kKernelWait;
            perStream[activity.stream].gaps[static_cast<size_t>(kind)].Add(gap);
            if (gaps) gaps->push_back({*end, activity.startNs, activity.stream, kind});
        }
        end = end ? std::max(*end, activity.endNs) : activity.endNs;
    }
    std::vector<StreamIdle> ran;
    for (uint32_t s = 0; s < perStream.size(); ++s)
        if (latestEnd[s]) ran.push_back(perStream[s]);
    return ran;
}

}  // namespace marey
