#include <doctest/doctest.h>

#include "TestSupport.hpp"
#include "rank/TraceSummary.hpp"

using namespace marey;
using namespace marey::test;

namespace {

struct Expected {
    const char* path;
    uint64_t events, slices, counters, instants, flowsMatched, flowsUnmatched;
    TimeNs firstNs, lastNs;
    const char* topName;
    TimeNs topTotalNs;
};

// Counts computed independently with Python's json module (Decimal timestamps) on each file;
// counter samples are the numeric values of 'C' events' args (one per series).
const Expected kExpected[] = {
    {"msinsight/test/data/pytorch/text/level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/"
     "trace_view.json",
     10112, 4384, 7183, 0, 611, 0, 1736408883573887920, 1736408883973810000,
     "<string>(1): <module>", 156289120},
    {"msinsight/test/data/pytorch/text/level0/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/"
     "trace_view.json",
     8394, 3379, 5971, 0, 611, 0, 1736405443758451960, 1736405444095248000, "<string>(1): <module>",
     121261570},
    {"msprof-analyze/test/ut/advisor/advisor_backend/timeline_advice/trace_view.json", 3670, 2212,
     0, 0, 713, 0, 1704161511420289011, 1704161511434422441, "ProfilerStep#1", 14091970},
    {"hta/tests/data/ns_resolution_trace/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz", 68692,
     45420, 0, 2, 7000, 9234, 1712195495406752797, 1712195496004644183, "PyTorch Profiler (0)",
     578888534},
    {"kineto/tb_plugin/samples/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz",
     75718, 44666, 0, 12840, 9096, 0, 1623142623460016000, 1623142624633484000,
     "PyTorch Profiler (0)", 1065723000},
    {"mindinsight/tests/utils/resource/run_2/normal_run/profiler/ascend_timeline_display_1.json",
     112, 112, 0, 0, 0, 0, 0, 6067298000, "MatMul-op19", 9174080},
};

}  // namespace

TEST_CASE("real Ascend and Kineto traces load without problems and match independent counts") {
    const std::string dir = FixturesDir();
    if (dir.empty()) return;
    for (const Expected& expected : kExpected) {
        CAPTURE(expected.path);
        auto result = LoadTrace(dir + "/" + expected.path);
        REQUIRE(result.ok());
        const TraceModel& model = *result.value();
        const TraceSummary summary = Summarize(model);
        CHECK(summary.problemCount == 0);
        CHECK(summary.events == expected.events);
        CHECK(summary.slices == expected.slices);
        CHECK(summary.counterSamples == expected.counters);
        CHECK(summary.instants == expected.instants);
        CHECK(summary.flowsMatched == expected.flowsMatched);
        CHECK(summary.flowsUnmatched == expected.flowsUnmatched);
        CHECK(summary.firstNs == expected.firstNs);
        CHECK(summary.lastNs == expected.lastNs);
        REQUIRE(!summary.top.empty());
        CHECK(model.Name(summary.top[0].name) == expected.topName);
        CHECK(summary.top[0].totalNs == expected.topTotalNs);
    }
}

TEST_CASE("every real trace in the fixtures loads with zero import problems") {
    const std::string dir = FixturesDir();
    if (dir.empty()) return;
    const char* paths[] = {
        "msinsight/test/data/pytorch/text/level2/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/"
        "trace_view.json",
        "msinsight/server/src/test/fuzz/test_data/trace_view_tiny.json",
        "hta/tests/data/nccl_parser_config/nccl_data.json.gz",
        "hta/tests/data/amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz",
        "mindinsight/tests/utils/resource/profiler/PROF_000001_20230818142704322_COJGGGCANRMICFBC/"
        "device_0/timeline/step_trace_0_2_1.json",
    };
    for (const char* path : paths) {
        CAPTURE(path);
        auto result = LoadTrace(dir + "/" + path);
        REQUIRE(result.ok());
        CHECK(result.value()->report.problemCount == 0);
    }
}
