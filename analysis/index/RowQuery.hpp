#pragma once
// Viewport queries over one row: the level of detail the timeline draws, and hit testing.
#include <cstdint>
#include <vector>

#include "core/Time.hpp"
#include "model/TraceModel.hpp"

namespace marey {

// One box to draw: a slice (count == 1) or a run of merged narrow slices (count > 1).
struct VisibleItem {
    TimeNs startNs;
    TimeNs endNs;
    uint32_t first;  // index of the first slice in the row
    uint32_t count;  // slices it stands for
};

// Appends to 'out' what 'row' shows in [viewStartNs, viewEndNs) when 'minVisibleNs' is the
// smallest width worth a box (about one pixel). A slice at least that wide is its own item; a run
// of narrower neighbours starting within minVisibleNs of the run's first slice becomes one merged
// item that keeps its count. Rows never overlap, so only the run's last slice can be wide, and a
// binary search finds the run's end without visiting it: each item costs O(log n) and items number
// at most 2 per minVisibleNs of view plus 2, whatever the row's size. When minVisibleNs is at
// least the row's overview resolution, the same fold runs over the overview's items instead
// (merged items are then up to 3 minVisibleNs wide).
void QueryVisible(const Row& row, TimeNs viewStartNs, TimeNs viewEndNs, TimeNs minVisibleNs,
                  std::vector<VisibleItem>& out);

// Folds a large row once at 1/kOverviewItems of its span, for zoomed-out queries. Rows under
// kOverviewMinSlices get none. O(kOverviewItems · log n).
void BuildOverview(Row& row);

// The first slice whose end is after 't' (or row.size()). O(log n).
size_t FirstEndingAfter(const Row& row, TimeNs t);

// The slice of 'row' under time 't': one that contains it, else the nearest within
// 'toleranceNs' (so that thin slices can be hovered). -1 when none. O(log n).
int64_t HitTest(const Row& row, TimeNs t, TimeNs toleranceNs);

// Where a flow's end at time 't' on 'track' binds: the deepest slice of the track's nested rows
// that holds 't' (as HitTest finds it, without tolerance). Its row and index; row -1 when none.
// O(depth · log n).
struct SlicePlace {
    int64_t row = -1;
    uint32_t index = 0;
};
SlicePlace EnclosingSlice(const Track& track, TimeNs t);

// Counter samples folded to buckets for drawing: per bucket the min, max and last value.
struct CounterBucket {
    TimeNs startNs;
    double minValue, maxValue, lastValue;
    uint32_t firstSample;
};
// Appends buckets of width 'bucketNs' covering [viewStartNs, viewEndNs), one per bucket that has
// samples plus the sample in force at the view's start. O(buckets · log n).
void QueryCounter(const Track& track, TimeNs viewStartNs, TimeNs viewEndNs, TimeNs bucketNs,
                  std::vector<CounterBucket>& out);
// The same over any step function: 'n' samples at ascending times 'ts' with 'values' (counters
// derived from the trace, not tracks of the model).
void QueryCounter(const TimeNs* ts, const double* values, size_t n, TimeNs viewStartNs,
                  TimeNs viewEndNs, TimeNs bucketNs, std::vector<CounterBucket>& out);

}  // namespace marey
