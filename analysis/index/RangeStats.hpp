#pragma once
// Statistics per slice name over a time range and a set of tracks: what a range selection
// in the timeline shows, and what `stats` ranks operators by.
#include <cstdint>
#include <vector>

#include "core/Time.hpp"
#include "model/TraceModel.hpp"

namespace marey {

struct NameStats {
    StringId name = 0;
    uint64_t count = 0;
    // Two figures with two names (the range statistics' "Total" and "In range" columns):
    TimeNs totalNs = 0;  // sum of the full durations of the slices that overlap the range
    TimeNs selfNs = 0;   // totalNs minus the time covered by direct children
    TimeNs minNs = INT64_MAX;
    TimeNs maxNs = 0;
    TimeNs clippedNs = 0;  // sum of durations clipped to the range: the time in the range
};

struct RangeStatsResult {
    std::vector<NameStats> byName;  // largest totalNs first
    uint64_t sliceCount = 0;
    TimeNs rangeNs = 0;
    // The share of the range a name's slices cover: its time in the range (clippedNs, never its
    // whole slices) over the range; 0 for an empty range. Above 1 only where slices of one name
    // overlap (several tracks).
    double ShareOfRange(const NameStats& stats) const {
        return rangeNs > 0 ? static_cast<double>(stats.clippedNs) / static_cast<double>(rangeNs)
                           : 0.0;
    }
};

// Every slice of 'tracks' overlapping [startNs, endNs) counts once under its name. Self time
// subtracts the direct children (the next nesting row of the same track). O(k + rows · log n)
// for k slices in range.
RangeStatsResult ComputeRangeStats(const TraceModel& model, const std::vector<uint32_t>& tracks,
                                   TimeNs startNs, TimeNs endNs);

// All tracks with slices, in display order.
std::vector<uint32_t> AllSliceTracks(const TraceModel& model);

}  // namespace marey
