#include "trace/DeviceTime.hpp"

#include <algorithm>

namespace marey {

std::optional<double> DeviceTime::OverlapPercent() const {
    if (communicationNs <= 0) return std::nullopt;
    return 100.0 * static_cast<double>(overlappedNs) / static_cast<double>(communicationNs);
}

namespace {

// Time per exact set of classes, from the disjoint unions of each class: one sweep over their
// boundaries, walked in step (each union is sorted), with nothing allocated.
std::array<TimeNs, 1 << kActivityClassCount> TimePerClassSet(
    const std::array<std::vector<TimeRange>, kActivityClassCount>& unions) {
    std::array<size_t, kActivityClassCount> next{};  // the range each class is at
    std::array<bool, kActivityClassCount> inside{};  // whether the class runs at the sweep
    const auto boundary = [&](int c) {  // the class's next start or end; INT64_MAX when done
        const auto& ranges = unions[static_cast<size_t>(c)];
        const size_t at = next[static_cast<size_t>(c)];
        if (at >= ranges.size()) return INT64_MAX;
        return inside[static_cast<size_t>(c)] ? ranges[at].endNs : ranges[at].startNs;
    };
    std::array<TimeNs, 1 << kActivityClassCount> perSet{};
    ClassSet running = 0;
    TimeNs time = INT64_MAX;
    for (int c = 0; c < kActivityClassCount; ++c) time = std::min(time, boundary(c));
    while (time != INT64_MAX) {
        // A class's union has disjoint, non-touching ranges: at one time it opens, closes, or
        // both (a range of no length, which leaves it off).
        for (int c = 0; c < kActivityClassCount; ++c) {
            const size_t k = static_cast<size_t>(c);
            if (!inside[k] && boundary(c) == time) inside[k] = true;
            if (inside[k] && boundary(c) == time) inside[k] = false, ++next[k];
            if (inside[k])
                running = static_cast<ClassSet>(running | ClassBit(static_cast<ActivityClass>(c)));
            else
                running = static_cast<ClassSet>(running & ~ClassBit(static_cast<ActivityClass>(c)));
        }
        TimeNs after = INT64_MAX;
        for (int c = 0; c < kActivityClassCount; ++c) after = std::min(after, boundary(c));
        if (after != INT64_MAX && running != 0) perSet[running] += after - time;
        time = after;
    }
    return perSet;
}

}  // namespace

DeviceTime MeasureDeviceTime(const DeviceActivities& activities,
                             const std::vector<uint32_t>& indices) {
    DeviceTime time;
    if (indices.empty()) return time;
    time.any = true;
    // Activities in start order (as FindDeviceActivities gives them) are united as they come;
    // any other order is collected and sorted.
    bool inStartOrder = true;
    TimeNs first = activities.activities[indices[0]].startNs, last = first, previousStart = first;
    for (uint32_t index : indices) {
        const DeviceActivity& activity = activities.activities[index];
        const TimeRange range{activity.startNs, std::max(activity.startNs, activity.endNs)};
        if (range.startNs < previousStart) {
            inStartOrder = false;
            break;
        }
        previousStart = range.startNs;
        std::vector<TimeRange>& united =
            time.unions[static_cast<size_t>(activity.kind.activityClass)];
        if (!united.empty() && range.startNs <= united.back().endNs)
            united.back().endNs = std::max(united.back().endNs, range.endNs);
        else
            united.push_back(range);
        last = std::max(last, range.endNs);
    }
    if (!inStartOrder) {
        std::array<std::vector<TimeRange>, kActivityClassCount> ranges;
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
    }
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
