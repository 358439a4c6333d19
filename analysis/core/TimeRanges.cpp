#include "core/TimeRanges.hpp"

#include <algorithm>

namespace marey {

std::vector<TimeRange> UniteRanges(std::vector<TimeRange> ranges) {
    // Ranges in start order need no sort (the order of equal starts does not change a union).
    auto byStart = [](const TimeRange& a, const TimeRange& b) { return a.startNs < b.startNs; };
    if (!std::is_sorted(ranges.begin(), ranges.end(), byStart))
        std::sort(ranges.begin(), ranges.end(), byStart);
    std::vector<TimeRange> united;
    for (const TimeRange& range : ranges) {
        if (!united.empty() && range.startNs <= united.back().endNs)
            united.back().endNs = std::max(united.back().endNs, range.endNs);
        else
            united.push_back(range);
    }
    return united;
}

TimeNs RangesLength(const std::vector<TimeRange>& disjoint) {
    TimeNs total = 0;
    for (const TimeRange& range : disjoint)
        total = SaturatingAdd(total, SaturatingSpan(range.startNs, range.endNs));
    return total;
}

}  // namespace marey
