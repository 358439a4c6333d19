#include "index/RowQuery.hpp"

#include <algorithm>

namespace tracelens {

size_t FirstEndingAfter(const Row& row, TimeNs t) {
    return static_cast<size_t>(std::upper_bound(row.end.begin(), row.end.end(), t) - row.end.begin());
}

namespace {

// First index in [from, n) with values[index] >= limit. The answer is usually close to 'from'
// (about one pixel's worth of slices away), so steps double from there before a binary search:
// O(log distance) with nearby memory instead of O(log n) over the whole row.
size_t GallopTo(const TimeNs* values, size_t from, size_t n, TimeNs limit) {
    size_t low = from, step = 1, high = from;
    while (high < n && values[high] < limit) {
        low = high + 1;
        high = from + step;
        step *= 2;
    }
    if (high > n) high = n;
    return static_cast<size_t>(std::lower_bound(values + low, values + high, limit) - values);
}

// The same over a row, using its coarse index for long jumps: the gallop runs over the 32x
// smaller copy, then one block of 32 starts is searched.
size_t RowGallopTo(const Row& row, size_t from, TimeNs limit) {
    const size_t n = row.size();
    const TimeNs* start = row.start.data();
    if (from >= n || start[from] >= limit) return from;
    // Short distances are cheaper in the row itself.
    const size_t nearEnd = std::min(n, from + kCoarseStride);
    if (start[nearEnd - 1] >= limit || row.coarseStart.size() != (n + kCoarseStride - 1) / kCoarseStride)
        return GallopTo(start, from, n, limit);
    // coarse[k] = start[k * 32]: find the first block whose first start is >= limit.
    const size_t blocks = row.coarseStart.size();
    const size_t block = GallopTo(row.coarseStart.data(), from / kCoarseStride + 1, blocks, limit);
    const size_t low = std::max(from, (block - 1) * kCoarseStride);
    const size_t high = std::min(n, block * kCoarseStride);
    return static_cast<size_t>(std::lower_bound(start + low, start + high, limit) - start);
}

}  // namespace

void QueryVisible(const Row& row, TimeNs viewStartNs, TimeNs viewEndNs, TimeNs minVisibleNs,
                  std::vector<VisibleItem>& out) {
    if (minVisibleNs < 1) minVisibleNs = 1;
    const size_t n = row.size();
    const TimeNs* start = row.start.data();
    const TimeNs* end = row.end.data();
    size_t i = FirstEndingAfter(row, viewStartNs);
    // A zero-length slice exactly at the view's start is visible too.
    while (i > 0 && end[i - 1] == viewStartNs && start[i - 1] == viewStartNs) --i;
    while (i < n && start[i] < viewEndNs) {
        if (end[i] - start[i] >= minVisibleNs) {
            out.push_back({start[i], end[i], static_cast<uint32_t>(i), 1});
            ++i;
            continue;
        }
        const TimeNs runLimit = start[i] > INT64_MAX - minVisibleNs ? INT64_MAX : start[i] + minVisibleNs;
        size_t j = RowGallopTo(row, i + 1, runLimit);
        if (j - 1 > i && end[j - 1] - start[j - 1] >= minVisibleNs) --j;  // a wide last slice stands alone
        out.push_back({start[i], end[j - 1], static_cast<uint32_t>(i), static_cast<uint32_t>(j - i)});
        i = j;
    }
}

int64_t HitTest(const Row& row, TimeNs t, TimeNs toleranceNs) {
    const size_t n = row.size();
    if (n == 0) return -1;
    // The last slice starting at or before t.
    const size_t after = static_cast<size_t>(std::upper_bound(row.start.begin(), row.start.end(), t) - row.start.begin());
    int64_t best = -1;
    TimeNs bestDistance = toleranceNs + 1;
    if (after > 0) {
        const size_t k = after - 1;
        if (t < row.end[k] || (row.end[k] == row.start[k] && t == row.start[k])) return static_cast<int64_t>(k);
        const TimeNs distance = t - row.end[k];
        if (distance <= toleranceNs) best = static_cast<int64_t>(k), bestDistance = distance;
    }
    if (after < n) {
        const TimeNs distance = row.start[after] - t;
        if (distance <= toleranceNs && distance < bestDistance) best = static_cast<int64_t>(after);
    }
    return best;
}

void QueryCounter(const Track& track, TimeNs viewStartNs, TimeNs viewEndNs, TimeNs bucketNs,
                  std::vector<CounterBucket>& out) {
    const size_t n = track.counterTs.size();
    if (n == 0) return;
    if (bucketNs < 1) bucketNs = 1;
    const TimeNs* ts = track.counterTs.data();
    const double* values = track.counterValue.data();
    size_t i = static_cast<size_t>(std::upper_bound(ts, ts + n, viewStartNs) - ts);
    if (i > 0) --i;  // the sample in force at the view's start
    while (i < n && ts[i] < viewEndNs) {
        const TimeNs bucketStart = ts[i];
        const TimeNs bucketEnd = bucketStart > INT64_MAX - bucketNs ? INT64_MAX : bucketStart + bucketNs;
        const size_t j = static_cast<size_t>(std::lower_bound(ts + i + 1, ts + n, bucketEnd) - ts);
        CounterBucket bucket{bucketStart, values[i], values[i], values[j - 1], static_cast<uint32_t>(i)};
        // Buckets are about a pixel wide: scanning their samples is bounded by what is drawn,
        // except for very dense series, where a stride keeps it cheap and the extremes close.
        const size_t stride = (j - i) > 64 ? (j - i) / 64 : 1;
        for (size_t k = i; k < j; k += stride) {
            bucket.minValue = std::min(bucket.minValue, values[k]);
            bucket.maxValue = std::max(bucket.maxValue, values[k]);
        }
        out.push_back(bucket);
        i = j;
    }
}

}  // namespace tracelens
