#include "trace/DeviceTime.hpp"

#include <algorithm>

namespace marey {

std::optional<double> DeviceTime::OverlapPercent() const {
    if (communicationNs <= 0) return std::nullopt;
    return 100.0 * static_cast<double>(overlappedNs) / static_cast<double>(communicationNs);
}

namespace {

struct Edge {
    TimeNs time;
    ClassSet bit;
    bool opens;
};

// Time per exact set of classes, from the disjoint unions of each class: one sweep.
std::array<TimeNs, 1 << kActivityClassCount> TimePerClassSet(
    const std::array<std::vector<TimeRange>, kActivityClassCount>& unions) {
    // Each class's edges are in time order already (its union is sorted and disjoint): merged,
    // not sorted.
    const auto byTime = [](const Edge& a, const Edge& b) { return a.time < b.time; };
    std::vector<Edge> edges;
    for (int c = 0; c < kActivityClassCount; ++c) {
        const ClassSet bit = ClassBit(static_cast<ActivityClass>(c));
        const size_t middle = edges.size();
        for (const TimeRange& range : unions[static_cast<size_t>(c)]) {
            edges.push_back({range.startNs, bit, true});
            edges.push_back({range.endNs, bit, false});
        }
        std::inplace_merge(edges.begin(), edges.begin() + static_cast<ptrdiff_t>(middle),
                           edges.end(), byTime);
    }
    std::array<TimeNs, 1 << kActivityClassCount> perSet{};
    ClassSet running = 0;
    for (size_t i = 0; i < edges.size();) {
        const TimeNs time = edges[i].time;
        // A class's union has disjoint, non-touching ranges: at one time it opens, closes, or
        // both (a range of no length, which leaves it off).
        ClassSet opened = 0, closed = 0;
        for (; i < edges.size() && edges[i].time == time; ++i)
            (edges[i].opens ? opened : closed) |= edges[i].bit;
        running = static_cast<ClassSet>((running | opened) & ~closed);
        if (i < edges.size() && running != 0) perSet[running] += edges[i].time - time;
    }
    return perSet;
}

}  // namespace

DeviceTime MeasureDeviceTime(const DeviceActivities& activities,
                             const std::vector<uint32_t>& indices) {
    DeviceTime time;
    if (indices.empty()) return time;
    time.any = true;
    std::array<std::vector<TimeRange>, kActivityClassCount> ranges;
    TimeNs first = activities.activities[indices[0]].startNs, last = first;
    for (uint32_t index : indices) {
        const DeviceActivity& activity = activities.activities[index];
        const TimeRange range{activity.startNs, std::max(activity.startNs, activity.endNs)};
        ranges[static_cast<size_t>(activity.kind.activityClass)].push_back(range);
        first = std::min(first, range.startNs);
        last = std::max(last, range.endNs);
    }
    for (int c = 0; c < kActivityClassCount; ++c)
        time.unions[static_cast<size_t>(c)] =
            UniteRanges(std::move(ranges[static_cast<size_t>(c)]));
    const auto perSet = TimePerClassSet(time.unions);
    for (ClassSet set = 1; set < perSet.size(); ++set) time.busyNs += perSet[set];
    time.temporal.spanNs = last - first;
    time.temporal.idleNs = time.temporal.spanNs - time.busyNs;
    time.temporal.computeNs =
        RangesLength(time.unions[static_cast<size_t>(ActivityClass::kComputation)]);
    time.temporal.nonComputeNs = time.busyNs - time.temporal.computeNs;

    for (ClassSet set = 1; set < perSet.size(); ++set)
        if (perSet[set] > 0) time.classSets.push_back({set, perSet[set]});
    const ClassSet computation = ClassBit(ActivityClass::kComputation);
    const ClassSet communication = ClassBit(ActivityClass::kCommunication);
    for (ClassSet set = 1; set < perSet.size(); ++set) {
        if (!(set & communication)) continue;
        time.communicationNs += perSet[set];
        if (set & computation) time.overlappedNs += perSet[set];
    }
    return time;
}

std::vector<const char*> ClassSetNames(ClassSet classes) {
    std::vector<const char*> names;
    for (int c = 0; c < kActivityClassCount; ++c)
        if (classes & ClassBit(static_cast<ActivityClass>(c)))
            names.push_back(ActivityClassName(static_cast<ActivityClass>(c)));
    return names;
}

}  // namespace marey
