#pragma once
// Sets of time ranges: the union every "how long was the device busy" question starts from.
#include <vector>

#include "core/Time.hpp"

namespace marey {

struct TimeRange {
    TimeNs startNs, endNs;
};

// The union of 'ranges' as sorted, disjoint ranges (touching ones joined). O(n log n).
std::vector<TimeRange> UniteRanges(std::vector<TimeRange> ranges);

// The total length of sorted, disjoint ranges, saturating rather than overflowing. O(n).
TimeNs RangesLength(const std::vector<TimeRange>& disjoint);

}  // namespace marey
