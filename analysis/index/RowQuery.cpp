#include "index/RowQuery.hpp"

#include <algorithm>

namespace marey {

size_t FirstEndingAfter(const Row& row, TimeNs t) {
    return static_cast<size_t>(std::upper_bound(row.end.begin(), row.end.end(), t) -
                               row.end.begin());
}

namespace {

// First index in [from, n) whose key is >= limit. The answer is usually close to 'from' (about
// one pixel's worth of items away), so steps double from there before a binary search:
// O(log distance) with nearby memory instead of O(log n) over the whole array.
template <typename T, typename KeyOf>
size_t GallopTo(const T* items, size_t from, size_t n, TimeNs limit, KeyOf key) {
    size_t low = from, step = 1, high = from;
    while (high < n && key(items[high]) < limit) {
        low = high + 1;
        high = from + step;
        step *= 2;
    }
    if (high > n) high = n;
    return static_cast<size_t>(
        std::partition_point(items + low, items + high,
                             [&](const T& item) { return key(item) < limit; }) -
        items);
}

size_t GallopTo(const TimeNs* values, size_t from, size_t n, TimeNs limit) {
    return GallopTo(values, from, n, limit, [](TimeNs value) { return value; });
}

// The fold of QueryVisible over a row's overview items instead of its slices: the same rule,
// one level up. Used when a pixel is wider than the overview's resolution.
void QueryOverview(const Row& row, TimeNs viewStartNs, TimeNs viewEndNs, TimeNs minVisibleNs,
                   std::vector<VisibleItem>& out) {
    const OverviewItem* items = row.overview.data();
    const size_t n = row.overview.size();
    size_t i = static_cast<size_t>(std::partition_point(items, items + n,
                                                        [viewStartNs](const OverviewItem& item) {
                                                            return item.endNs <= viewStartNs;
                                                        }) -
                                   items);
    auto wide = [&](const OverviewItem& item) {
        return item.count == 1 && item.endNs - item.startNs >= minVisibleNs;
    };
    while (i < n && items[i].startNs < viewEndNs) {
        if (wide(items[i])) {
            out.push_back({items[i].startNs, items[i].endNs, items[i].first, 1});
            ++i;
            continue;
        }
        const TimeNs runLimit = items[i].startNs > INT64_MAX - minVisibleNs
                                    ? INT64_MAX
                                    : items[i].startNs + minVisibleNs;
        size_t j = GallopTo(items, i + 1, n, runLimit,
                            [](const OverviewItem& item) { return item.startNs; });
        if (j - 1 > i && wide(items[j - 1])) --j;
        const OverviewItem& last = items[j - 1];
        out.push_back({items[i].startNs, last.endNs, items[i].first,
                       last.first + last.count - items[i].first});
        i = j;
    }
}

}  // namespace

void QueryVisible(const Row& row, TimeNs viewStartNs, TimeNs viewEndNs, TimeNs minVisibleNs,
                  std::vector<VisibleItem>& out) {
    if (minVisibleNs < 1) minVisibleNs = 1;
    if (row.overviewResolutionNs > 0 && minVisibleNs >= row.overviewResolutionNs) {
        QueryOverview(row, viewStartNs, viewEndNs, minVisibleNs, out);
        return;
    }
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
        const TimeNs runLimit =
            start[i] > INT64_MAX - minVisibleNs ? INT64_MAX : start[i] + minVisibleNs;
        size_t j = GallopTo(start, i + 1, n, runLimit);
        if (j - 1 > i && end[j - 1] - start[j - 1] >= minVisibleNs)
            --j;  // a wide last slice stands alone
        out.push_back(
            {start[i], end[j - 1], static_cast<uint32_t>(i), static_cast<uint32_t>(j - i)});
        i = j;
    }
}

int64_t HitTest(const Row& row, TimeNs t, TimeNs toleranceNs) {
    const size_t n = row.size();
    if (n == 0) return -1;
    // The last slice starting at or before t.
    const size_t after = static_cast<size_t>(
        std::upper_bound(row.start.begin(), row.start.end(), t) - row.start.begin());
    int64_t best = -1;
    TimeNs bestDistance = toleranceNs + 1;
    if (after > 0) {
        const size_t k = after - 1;
        if (t < row.end[k] || (row.end[k] == row.start[k] && t == row.start[k]))
            return static_cast<int64_t>(k);
        const TimeNs distance = t - row.end[k];
        if (distance <= toleranceNs) best = static_cast<int64_t>(k), bestDistance = distance;
    }
    if (after < n) {
        const TimeNs distance = row.start[after] - t;
        if (distance <= toleranceNs && distance < bestDistance) best = static_cast<int64_t>(after);
    }
    return best;
}

SlicePlace EnclosingSlice(const Track& track, TimeNs t) {
    SlicePlace best;
    for (uint32_t r = 0; r < track.rows.size(); ++r) {
        if (track.rows[r].kind != RowKind::kNested) break;
        const int64_t hit = HitTest(track.rows[r], t, 0);
        if (hit < 0) break;
        best = {r, static_cast<uint32_t>(hit)};
    }
    return best;
}

void BuildOverview(Row& row) {
    row.overview.Release();
    row.overviewResolutionNs = 0;
    const size_t n = row.size();
    if (n < kOverviewMinSlices) return;
    const TimeNs span = row.end[n - 1] - row.start[0];
    const TimeNs resolution = std::max<TimeNs>(1, span / static_cast<TimeNs>(kOverviewItems));
    std::vector<VisibleItem> items;
    QueryVisible(row, row.start[0], row.end[n - 1] + 1, resolution, items);
    if (items.size() * 8 > n) return;  // the fold hardly shrinks this row: not worth keeping
    row.overview.reserve(items.size());
    for (const VisibleItem& item : items)
        row.overview.push_back({item.startNs, item.endNs, item.first, item.count});
    row.overviewResolutionNs = resolution;
}

void QueryCounter(const Track& track, TimeNs viewStartNs, TimeNs viewEndNs, TimeNs bucketNs,
                  std::vector<CounterBucket>& out) {
    QueryCounter(track.counterTs.data(), track.counterValue.data(), track.counterTs.size(),
                 viewStartNs, viewEndNs, bucketNs, out);
}

void QueryCounter(const TimeNs* ts, const double* values, size_t n, TimeNs viewStartNs,
                  TimeNs viewEndNs, TimeNs bucketNs, std::vector<CounterBucket>& out) {
    if (n == 0) return;
    if (bucketNs < 1) bucketNs = 1;
    size_t i = static_cast<size_t>(std::upper_bound(ts, ts + n, viewStartNs) - ts);
    if (i > 0) --i;  // the sample in force at the view's start
    while (i < n && ts[i] < viewEndNs) {
        const TimeNs bucketStart = ts[i];
        const TimeNs bucketEnd =
            bucketStart > INT64_MAX - bucketNs ? INT64_MAX : bucketStart + bucketNs;
        const size_t j = GallopTo(ts, i + 1, n, bucketEnd);
        CounterBucket bucket{bucketStart, values[i], values[i], values[j - 1],
                             static_cast<uint32_t>(i)};
        // Buckets are about a pixel wide: scanning their samples is bounded by what is drawn,
        // except for very dense series, where at most 16 evenly spaced samples stand for the rest.
        const size_t stride = (j - i) > 16 ? (j - i) / 16 : 1;
        for (size_t k = i; k < j; k += stride) {
            bucket.minValue = std::min(bucket.minValue, values[k]);
            bucket.maxValue = std::max(bucket.maxValue, values[k]);
        }
        out.push_back(bucket);
        i = j;
    }
}

}  // namespace marey
