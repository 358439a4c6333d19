#include <doctest/doctest.h>

#include "TestSupport.hpp"
#include "index/RangeStats.hpp"

using namespace marey;
using namespace marey::test;

TEST_CASE("range statistics count, total, self time and extremes per name") {
    auto model = LoadJson(R"([
      {"ph": "X", "name": "step", "pid": 1, "tid": 1, "ts": 0, "dur": 100},
      {"ph": "X", "name": "op", "pid": 1, "tid": 1, "ts": 10, "dur": 20},
      {"ph": "X", "name": "op", "pid": 1, "tid": 1, "ts": 50, "dur": 40},
      {"ph": "X", "name": "kernel", "pid": 1, "tid": 1, "ts": 12, "dur": 5},
      {"ph": "X", "name": "op", "pid": 1, "tid": 2, "ts": 200, "dur": 10}])");
    const RangeStatsResult all =
        ComputeRangeStats(*model, AllSliceTracks(*model), INT64_MIN, INT64_MAX);
    REQUIRE(all.byName.size() == 3);
    CHECK(model->Name(all.byName[0].name) == "step");
    CHECK(all.byName[0].totalNs == 100000);
    CHECK(all.byName[0].selfNs == 40000);
    const NameStats& op = all.byName[1];
    CHECK(model->Name(op.name) == "op");
    CHECK(op.count == 3);
    CHECK(op.totalNs == 70000);
    CHECK(op.selfNs == 65000);
    CHECK(op.minNs == 10000);
    CHECK(op.maxNs == 40000);

    // A window over [20 µs, 60 µs) on thread 1 only: slices overlapping it count, clipped time too.
    const std::vector<uint32_t> thread1{model->processes[0].tracks[0]};
    const RangeStatsResult window = ComputeRangeStats(*model, thread1, 20000, 60000);
    CHECK(window.sliceCount == 3);
    for (const NameStats& stats : window.byName)
        if (model->Name(stats.name) == "op") {
            CHECK(stats.count == 2);
            CHECK(stats.clippedNs == 20000);
        }
}
