#include <doctest/doctest.h>

#include <algorithm>
#include <random>

#include "index/RowQuery.hpp"

using namespace marey;

namespace {

Row RandomRow(size_t n, uint64_t seed, TimeNs maxGap, TimeNs maxDur) {
    std::mt19937_64 random(seed);
    Row row;
    TimeNs t = 0;
    for (size_t i = 0; i < n; ++i) {
        t += static_cast<TimeNs>(random() % static_cast<uint64_t>(maxGap + 1));
        const TimeNs dur = static_cast<TimeNs>(random() % static_cast<uint64_t>(maxDur + 1));
        row.Append(t, t + dur, static_cast<StringId>(i % 7), i);
        t += dur;
    }
    return row;
}

}  // namespace

TEST_CASE("the viewport query covers exactly the slices a brute-force scan finds") {
    for (uint64_t seed = 1; seed <= 20; ++seed) {
        const Row row = RandomRow(5000, seed, seed % 3 ? 50 : 2, seed % 2 ? 1000 : 10);
        std::mt19937_64 random(seed * 77);
        const TimeNs last = row.end[row.size() - 1];
        for (int q = 0; q < 50; ++q) {
            const TimeNs a = static_cast<TimeNs>(random() % static_cast<uint64_t>(last + 1));
            const TimeNs b =
                a + 1 + static_cast<TimeNs>(random() % static_cast<uint64_t>(last / 4 + 1));
            const TimeNs minVisible = 1 + static_cast<TimeNs>(random() % 200);
            std::vector<VisibleItem> items;
            QueryVisible(row, a, b, minVisible, items);
            // Brute force: every slice overlapping [a, b) (zero-length ones at a included).
            std::vector<uint32_t> expected;
            for (uint32_t i = 0; i < row.size(); ++i)
                if (row.start[i] < b && (row.end[i] > a || (row.end[i] == a && row.start[i] == a)))
                    expected.push_back(i);
            std::vector<uint32_t> covered;
            for (const VisibleItem& item : items) {
                CHECK(item.startNs == row.start[item.first]);
                CHECK(item.endNs == row.end[item.first + item.count - 1]);
                if (item.count > 1) CHECK(item.endNs - item.startNs < 2 * minVisible);
                for (uint32_t k = 0; k < item.count; ++k) covered.push_back(item.first + k);
            }
            // Items may reach one run past the window edge, never miss a slice inside it.
            for (uint32_t index : expected)
                CHECK(std::binary_search(covered.begin(), covered.end(), index));
            CHECK(items.size() <= static_cast<size_t>(2 * (b - a) / minVisible + 3));
        }
    }
}

TEST_CASE("a million 1 ns slices fold into at most one item per pixel") {
    Row row;
    for (TimeNs i = 0; i < 1000000; ++i) {
        row.Append(i * 2, i * 2 + 1, 1, static_cast<uint64_t>(i));
    }
    const TimeNs span = 2000000;
    const int pixels = 1920;
    std::vector<VisibleItem> items;
    QueryVisible(row, 0, span, span / pixels, items);
    CHECK(items.size() <= static_cast<size_t>(pixels) + 1);
    uint64_t total = 0;
    for (const VisibleItem& item : items) total += item.count;
    CHECK(total == 1000000);
}

TEST_CASE("zoomed-out queries of large rows fold the overview and still cover every slice") {
    Row row = RandomRow(200000, 3, 40, 30);
    BuildOverview(row);
    REQUIRE(row.overviewResolutionNs > 0);
    CHECK(row.overview.size() <= 2 * kOverviewItems + 2);
    const TimeNs last = row.end[row.size() - 1];
    for (int zoom = 1; zoom <= 64; zoom *= 4) {
        const TimeNs a = last / 3, b = a + last / zoom;
        const TimeNs minVisible = std::max<TimeNs>(row.overviewResolutionNs, (b - a) / 1920);
        std::vector<VisibleItem> items;
        QueryVisible(row, a, b, minVisible, items);
        CHECK(items.size() <= static_cast<size_t>(2 * (b - a) / minVisible + 3));
        std::vector<uint32_t> covered;
        for (const VisibleItem& item : items) {
            CHECK(item.endNs == row.end[item.first + item.count - 1]);
            if (item.count > 1) CHECK(item.endNs - item.startNs < 3 * minVisible);
            for (uint32_t k = 0; k < item.count; ++k) covered.push_back(item.first + k);
        }
        CHECK(std::adjacent_find(covered.begin(), covered.end(), [](uint32_t x, uint32_t y) {
                  return y != x + 1;
              }) == covered.end());
        // Items are contiguous runs, so covering the first and last overlapping slices covers all.
        uint32_t firstInside = UINT32_MAX, lastInside = 0;
        for (uint32_t i = 0; i < row.size(); ++i)
            if (row.start[i] < b && row.end[i] > a)
                firstInside = std::min(firstInside, i), lastInside = i;
        REQUIRE(!covered.empty());
        CHECK(covered.front() <= firstInside);
        CHECK(covered.back() >= lastInside);
    }
}

TEST_CASE("hit testing finds the slice under the cursor, or a thin one nearby") {
    Row row;
    for (TimeNs s : {10, 20, 40}) {
        row.start.push_back(s);
        row.end.push_back(s + 5);
        row.name.push_back(0);
        row.refLow.push_back(0);
    }
    CHECK(HitTest(row, 12, 0) == 0);
    CHECK(HitTest(row, 16, 0) == -1);
    CHECK(HitTest(row, 16, 1) == 0);
    CHECK(HitTest(row, 19, 1) == 1);
    CHECK(HitTest(row, 44, 0) == 2);
    CHECK(HitTest(row, 100, 10) == -1);
}

TEST_CASE("counter buckets keep the extremes of what they fold") {
    Track track;
    track.kind = TrackKind::kCounter;
    for (TimeNs t = 0; t < 100; ++t) {
        track.counterTs.push_back(t);
        track.counterValue.push_back(t == 37 ? 1000.0 : static_cast<double>(t % 10));
    }
    std::vector<CounterBucket> buckets;
    QueryCounter(track, 0, 100, 10, buckets);
    REQUIRE(buckets.size() == 10);
    CHECK(buckets[3].maxValue == 1000.0);
    CHECK(buckets[3].minValue == 0.0);
    CHECK(buckets[9].lastValue == 9.0);
}
