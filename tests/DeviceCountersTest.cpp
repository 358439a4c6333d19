// The counters and marks the timeline derives from device activities (queue length per stream,
// copy bandwidth per kind, host-wait gaps), on a small Kineto trace whose every value is worked
// out by hand in the comments.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <set>
#include <string>

#include "TestSupport.hpp"
#include "load/EventFields.hpp"
#include "trace/DeviceCounters.hpp"
#include "trace/HostWaitMarks.hpp"
#include "trace/TraceAnalyses.hpp"

using namespace marey;

namespace {

// Host thread 10 of pid 1 launches; device 0 runs streams 7 and 20. Times in µs.
//   stream 7:  kernel A 10-30 (launched 0-5), kernel B 30-40 (launched 6-10),
//              HtoD copy 60-80 of 40000 bytes (launched 50-55): 2 GB/s
//   stream 20: HtoD copy 70-80 of 30000 bytes (launched 55-58): 3 GB/s,
//              DtoH copy 90-95 of "5000" bytes (launched 85-87): 1 GB/s,
//              DtoD copy 100-110 without bytes (launched 95-97)
const char* kTrace = R"json({"traceEvents": [
{"ph": "M", "name": "thread_name", "pid": 0, "tid": 7, "args": {"name": "stream 7 "}},
{"ph": "M", "name": "thread_name", "pid": 0, "tid": 20, "args": {"name": "stream 20 "}},
{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 10, "ts": 0, "dur": 5, "args": {"correlation": 1}},
{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 10, "ts": 6, "dur": 4, "args": {"correlation": 2}},
{"ph": "X", "cat": "cuda_runtime", "name": "cudaMemcpyAsync", "pid": 1, "tid": 10, "ts": 50, "dur": 5, "args": {"correlation": 3}},
{"ph": "X", "cat": "cuda_runtime", "name": "cudaMemcpyAsync", "pid": 1, "tid": 10, "ts": 55, "dur": 3, "args": {"correlation": 4}},
{"ph": "X", "cat": "cuda_runtime", "name": "cudaMemcpyAsync", "pid": 1, "tid": 10, "ts": 85, "dur": 2, "args": {"correlation": 5}},
{"ph": "X", "cat": "cuda_runtime", "name": "cudaMemcpyAsync", "pid": 1, "tid": 10, "ts": 95, "dur": 2, "args": {"correlation": 6}},
{"ph": "X", "cat": "kernel", "name": "A", "pid": 0, "tid": 7, "ts": 10, "dur": 20, "args": {"stream": 7, "correlation": 1}},
{"ph": "X", "cat": "kernel", "name": "B", "pid": 0, "tid": 7, "ts": 30, "dur": 10, "args": {"stream": 7, "correlation": 2}},
{"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pageable -> Device)", "pid": 0, "tid": 7, "ts": 60, "dur": 20, "args": {"stream": 7, "correlation": 3, "bytes": 40000, "memory bandwidth (GB/s)": 2.0}},
{"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pinned -> Device)", "pid": 0, "tid": 20, "ts": 70, "dur": 10, "args": {"stream": 20, "correlation": 4, "bytes": 30000}},
{"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy DtoH (Device -> Pinned)", "pid": 0, "tid": 20, "ts": 90, "dur": 5, "args": {"stream": 20, "correlation": 5, "bytes": "5000"}},
{"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy DtoD (Device -> Device)", "pid": 0, "tid": 20, "ts": 100, "dur": 10, "args": {"stream": 20, "correlation": 6}}
]})json";

struct Analysed {
    std::unique_ptr<TraceModel> model;
    TraceAnalyses analyses;
};

Analysed Analyse(const char* json) {
    Analysed result;
    result.model = test::LoadJson(json);
    REQUIRE(result.model);
    result.analyses = AnalyzeTrace(*result.model, {});
    REQUIRE(result.analyses.activities.activities.size() == 6);
    return result;
}

std::vector<std::pair<TimeNs, double>> Samples(const DeviceCounterSeries& series) {
    std::vector<std::pair<TimeNs, double>> samples;
    for (size_t i = 0; i < series.timeNs.size(); ++i)
        samples.emplace_back(series.timeNs[i], series.value[i]);
    return samples;
}

}  // namespace

TEST_CASE("the queue length of each stream steps up at a launch and down at its activity's end") {
    const Analysed trace = Analyse(kTrace);
    const std::vector<DeviceCounterSeries> series =
        BuildDeviceCounters(*trace.model, trace.analyses);
    REQUIRE(series.size() == 4);  // two queues, HtoD and DtoH; DtoD has no bytes
    const DeviceCounterSeries& compute = series[0];
    CHECK(compute.name == "Queue length · stream 7");
    CHECK(compute.kind == DeviceCounterKind::kQueueLength);
    // +1 at 0 and 6 µs, -1 at 30 (A) and 40 (B), +1 at 50, -1 at 80.
    using S = std::vector<std::pair<TimeNs, double>>;
    CHECK(Samples(compute) ==
          S{{0, 1}, {6'000, 2}, {30'000, 1}, {40'000, 0}, {50'000, 1}, {80'000, 0}});
    CHECK(compute.maxValue == 2);
    // (1·6 + 2·24 + 1·10 + 0·10 + 1·30) / 80 µs
    CHECK(compute.meanValue == doctest::Approx(94.0 / 80.0));
    CHECK(compute.activities == 3);
    const DeviceCounterSeries& copies = series[1];
    CHECK(copies.name == "Queue length · stream 20");
    // The DtoD copy is launched at 95 µs, when the DtoH copy ends: ends count first, so 1 stays.
    CHECK(Samples(copies) == S{{55'000, 1}, {80'000, 0}, {85'000, 1}, {95'000, 1}, {110'000, 0}});
    CHECK(copies.meanValue == doctest::Approx((25.0 + 10.0 + 15.0) / 55.0));
    CHECK(compute.process == copies.process);
    CHECK(SeriesValueAt(compute, -1) == 0);
    CHECK(SeriesValueAt(compute, 6'000) == 2);
    CHECK(SeriesValueAt(compute, 29'999) == 2);
    CHECK(SeriesValueAt(compute, 1'000'000) == 0);
}

TEST_CASE("copy bandwidth is bytes per ns in GB/s, summed over copies of one kind at once") {
    const Analysed trace = Analyse(kTrace);
    const std::vector<DeviceCounterSeries> series =
        MeasureCopyBandwidth(*trace.model, trace.analyses.activities);
    REQUIRE(series.size() == 2);
    using S = std::vector<std::pair<TimeNs, double>>;
    const DeviceCounterSeries& hostToDevice = series[0];
    CHECK(hostToDevice.name == "Memcpy bandwidth · HtoD");
    CHECK(hostToDevice.unit == "GB/s");
    // 2 GB/s from 60 µs, 2 + 3 from 70, both end at 80: exactly 0.
    CHECK(Samples(hostToDevice) == S{{60'000, 2.0}, {70'000, 5.0}, {80'000, 0.0}});
    CHECK(hostToDevice.maxValue == 5.0);
    CHECK(hostToDevice.meanValue == doctest::Approx(3.5));
    CHECK(hostToDevice.activities == 2);
    CHECK(hostToDevice.totalBytes == 70'000);
    const DeviceCounterSeries& deviceToHost = series[1];
    CHECK(deviceToHost.name == "Memcpy bandwidth · DtoH");
    CHECK(Samples(deviceToHost) == S{{90'000, 1.0}, {95'000, 0.0}});  // "5000" read as a count
    CHECK(deviceToHost.totalBytes == 5'000);
}

TEST_CASE("bytes are read from args only, as a non-negative integer") {
    auto read = [](const std::string& event) {
        return ReadCopyBytes(TraceText::FromString(event), 0);
    };
    CHECK(read(R"({"name": "x", "args": {"stream": 7, "bytes": 4194304}})") == 4194304u);
    CHECK(read(R"({"args": {"nested": {"bytes": 1}, "bytes" : "12"}, "bytes": 9})") == 12u);
    CHECK(read(R"({"name": "bytes", "bytes": 9, "args": {}})") == std::nullopt);
    CHECK(read(R"({"args": {"bytes": -5}})") == std::nullopt);
    CHECK(read(R"({"args": {"bytes": 1.5e3}})") == std::nullopt);
    CHECK(read(R"({"args": {"bytes": "12abc"}})") == std::nullopt);
    CHECK(read(R"({"args": {"bytes": 77)") == std::nullopt);  // cut off
    CHECK(read(R"({"args": {"by\"tes": 1, "bytes": 8}})") == 8u);
}

TEST_CASE("host-wait marks keep each gap the host caused and when the next launch began") {
    const Analysed trace = Analyse(kTrace);
    const std::vector<HostWaitMarks> marks = CollectHostWaits(trace.analyses);
    REQUIRE(marks.size() == 2);
    // Stream 7 ran dry at 40 µs; the copy that ended the gap at 60 was launched at 50.
    CHECK(marks[0].startNs == std::vector<TimeNs>{40'000});
    CHECK(marks[0].endNs == std::vector<TimeNs>{60'000});
    CHECK(marks[0].launchAfterNs == std::vector<TimeNs>{10'000});
    CHECK(marks[0].track == trace.analyses.activities.streams[marks[0].stream].track);
    // Stream 20: 80-90 (launched at 85) is a host wait; 95-100 is not, its launch began at 95.
    CHECK(marks[1].startNs == std::vector<TimeNs>{80'000});
    CHECK(marks[1].endNs == std::vector<TimeNs>{90'000});
    CHECK(marks[1].launchAfterNs == std::vector<TimeNs>{5'000});
}

TEST_CASE("the host-wait query folds gaps narrower than a pixel and starts at the view") {
    HostWaitMarks marks;
    marks.startNs = {0, 20, 22, 24, 100};
    marks.endNs = {10, 21, 23, 25, 200};
    marks.launchAfterNs.assign(5, 0);
    std::vector<HostWaitItem> items;
    QueryHostWaits(marks, 0, 300, 5, items);
    REQUIRE(items.size() == 3);
    CHECK(items[0].startNs == 0);
    CHECK(items[0].count == 1);
    CHECK(items[1].startNs == 20);
    CHECK(items[1].endNs == 25);
    CHECK(items[1].first == 1);
    CHECK(items[1].count == 3);
    CHECK(items[2].first == 4);
    items.clear();
    QueryHostWaits(marks, 21, 150, 5, items);  // [20, 21) ends where the view starts
    REQUIRE(items.size() == 2);
    CHECK(items[0].first == 2);
    CHECK(items[0].count == 2);
    CHECK(items[1].first == 4);
    items.clear();
    QueryHostWaits(marks, 201, 300, 5, items);
    CHECK(items.empty());
}

TEST_CASE("the host-wait query covers each visible gap once, and a million fold per pixel") {
    std::mt19937_64 random(7);
    HostWaitMarks marks;
    TimeNs t = 0;
    for (int i = 0; i < 5000; ++i) {
        t += static_cast<TimeNs>(random() % 50);
        marks.startNs.push_back(t);
        t += 1 + static_cast<TimeNs>(random() % 30);
        marks.endNs.push_back(t);
    }
    for (int trial = 0; trial < 200; ++trial) {
        const TimeNs a = static_cast<TimeNs>(random() % static_cast<uint64_t>(t));
        const TimeNs b = a + 1 + static_cast<TimeNs>(random() % 20000);
        const TimeNs minVisible = 1 + static_cast<TimeNs>(random() % 40);
        std::vector<HostWaitItem> items;
        QueryHostWaits(marks, a, b, minVisible, items);
        std::set<uint32_t> covered;
        for (const HostWaitItem& item : items)
            for (uint32_t k = item.first; k < item.first + item.count; ++k) {
                CHECK(covered.insert(k).second);
                CHECK(item.startNs <= marks.startNs[k]);
                CHECK(item.endNs >= marks.endNs[k]);
            }
        std::set<uint32_t> expected;
        for (uint32_t k = 0; k < marks.size(); ++k)
            if (marks.endNs[k] > a && marks.startNs[k] < b) expected.insert(k);
        CHECK(covered == expected);
    }
    HostWaitMarks dense;
    for (TimeNs k = 0; k < 1'000'000; ++k) {
        dense.startNs.push_back(2 * k);
        dense.endNs.push_back(2 * k + 1);
    }
    std::vector<HostWaitItem> items;
    QueryHostWaits(dense, 0, 2'000'000, 2'000, items);  // 1000 pixels of 2 µs
    CHECK(items.size() <= 1000);
}

TEST_CASE(
    "a long series' overview keeps each bucket's peak and never reads lower than the series") {
    DeviceCounterSeries series;
    series.timeNs = {0, 10, 11, 100, 1000};
    series.value = {1, 5, 0, 2, 0};
    // Two buckets of 500 ns: [0, 500) peaks at 5; [500, 1000) has no sample and holds 2; the
    // bucket of the last sample, then 0 after it.
    BuildSeriesOverview(series, 2);
    CHECK(series.overviewResolutionNs == 500);
    CHECK(series.overviewTimeNs == std::vector<TimeNs>{0, 500, 1000, 1500});
    CHECK(series.overviewValue == std::vector<double>{5, 2, 2, 0});
    BuildSeriesOverview(series, 8);  // short enough to draw whole
    CHECK(series.overviewResolutionNs == 0);
    CHECK(series.overviewTimeNs.empty());

    std::mt19937_64 random(3);
    DeviceCounterSeries noisy;
    TimeNs t = 0;
    for (int i = 0; i < 20000; ++i) {
        t += 1 + static_cast<TimeNs>(random() % (i % 1000 == 0 ? 100000 : 20));
        noisy.timeNs.push_back(t);
        noisy.value.push_back(static_cast<double>(random() % 9));
    }
    BuildSeriesOverview(noisy, 500);
    REQUIRE(noisy.overviewResolutionNs > 0);
    CHECK(noisy.overviewTimeNs.size() <= 1001);
    DeviceCounterSeries overview;
    overview.timeNs = noisy.overviewTimeNs;
    overview.value = noisy.overviewValue;
    for (int k = 0; k < 5000; ++k) {
        const TimeNs at = static_cast<TimeNs>(random() % static_cast<uint64_t>(t + 10));
        CHECK(SeriesValueAt(overview, at) >= SeriesValueAt(noisy, at));
    }
    CHECK(*std::max_element(overview.value.begin(), overview.value.end()) == 8);
}
