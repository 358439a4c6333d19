// Where the figures of the trace analyses come from: the gaps, launch outliers and time ranges
// listed behind each number, on small hand-made traces whose lists are worked out in the
// comments, and on generated traces, where every list adds up to its figure.
#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "KinetoTraceGenerator.hpp"
#include "TestSupport.hpp"
#include "trace/FigureIntervals.hpp"

using namespace marey;

namespace {

// Stream 7 computes 1000-1100 and 1150-1250 µs and fills memory 1300-1320; stream 20 runs an
// NCCL kernel 1050-1200.
const char* kClassesTrace = R"json({"traceEvents": [
{"ph": "M", "name": "thread_name", "pid": 0, "tid": 7, "args": {"name": "stream 7 "}},
{"ph": "M", "name": "thread_name", "pid": 0, "tid": 20, "args": {"name": "stream 20 "}},
{"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 1000, "dur": 100},
{"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 1150, "dur": 100},
{"ph": "X", "cat": "gpu_memset", "name": "Memset (Device)", "pid": 0, "tid": 7, "ts": 1300, "dur": 20},
{"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllReduce", "pid": 0, "tid": 20, "ts": 1050, "dur": 150}]})json";

// Stream 7 runs A 1000-1100, B 1110-1200, C 1300-1400 and D 1450-1500 µs, launched at 980-990,
// 995-1005, 1250-1260 and 1010-1090. ProfilerStep#1 (970-1008) holds the launches of A and B,
// ProfilerStep#2 (1008-1300) those of D and C.
const char* kLaunchTrace = R"json({"traceEvents": [
{"ph": "M", "name": "thread_name", "pid": 0, "tid": 7, "args": {"name": "stream 7 "}},
{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 10, "ts": 970, "dur": 38},
{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#2", "pid": 1, "tid": 10, "ts": 1008, "dur": 292},
{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 10, "ts": 980, "dur": 10, "args": {"correlation": 1}},
{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 10, "ts": 995, "dur": 10, "args": {"correlation": 2}},
{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 10, "ts": 1250, "dur": 10, "args": {"correlation": 3}},
{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 10, "ts": 1010, "dur": 80, "args": {"correlation": 4}},
{"ph": "X", "cat": "kernel", "name": "a", "pid": 0, "tid": 7, "ts": 1000, "dur": 100, "args": {"correlation": 1}},
{"ph": "X", "cat": "kernel", "name": "b", "pid": 0, "tid": 7, "ts": 1110, "dur": 90, "args": {"correlation": 2}},
{"ph": "X", "cat": "kernel", "name": "c", "pid": 0, "tid": 7, "ts": 1300, "dur": 100, "args": {"correlation": 3}},
{"ph": "X", "cat": "kernel", "name": "d", "pid": 0, "tid": 7, "ts": 1450, "dur": 50, "args": {"correlation": 4}}]})json";

TraceAnalyses Analyze(const std::string& json) {
    std::unique_ptr<TraceModel> model = test::LoadJson(json);
    REQUIRE(model);
    return AnalyzeTrace(*model, {});
}

// "[1050, 1100] [1150, 1200]" in µs, to compare lists in one CHECK.
std::string Text(const std::vector<TimeRange>& ranges) {
    std::string text;
    for (const TimeRange& range : ranges)
        text += (text.empty() ? "[" : " [") + std::to_string(range.startNs / 1000) + ", " +
                std::to_string(range.endNs / 1000) + "]";
    return text;
}

std::string Text(const std::vector<IdleGap>& gaps) {
    std::vector<TimeRange> ranges;
    for (const IdleGap& gap : gaps) ranges.push_back({gap.startNs, gap.endNs});
    return Text(ranges);
}

// Activity names with their values in µs: "d 360, b 105".
std::string Text(const TraceAnalyses& analyses, const std::vector<LaunchOutlier>& outliers) {
    std::string text;
    for (const LaunchOutlier& outlier : outliers) {
        const DeviceActivity& activity = analyses.activities.activities[outlier.activity];
        text += (text.empty() ? "" : ", ") +
                std::to_string((activity.endNs - activity.startNs) / 1000) + "-long " +
                std::to_string(outlier.valueNs / 1000);
    }
    return text;
}

}  // namespace

TEST_CASE("the time behind each temporal figure, kernel type and the overlap is listed") {
    const TraceAnalyses analyses = Analyze(kClassesTrace);
    REQUIRE(analyses.ranks.size() == 1);
    const DeviceTime& time = analyses.ranks[0].all.time;
    // Nothing runs 1250-1300; computation 1000-1100 and 1150-1250; only NCCL 1100-1150, only the
    // fill 1300-1320; NCCL with computation 1050-1100 and 1150-1200.
    CHECK(Text(RangesOf(time, TimeFigure::kIdle)) == "[1250, 1300]");
    CHECK(Text(RangesOf(time, TimeFigure::kComputation)) == "[1000, 1100] [1150, 1250]");
    CHECK(Text(RangesOf(time, TimeFigure::kNonCompute)) == "[1100, 1150] [1300, 1320]");
    CHECK(Text(RangesOf(time, TimeFigure::kOverlap)) == "[1050, 1100] [1150, 1200]");
    const ClassSet computation = ClassBit(ActivityClass::kComputation);
    const ClassSet communication = ClassBit(ActivityClass::kCommunication);
    CHECK(Text(RangesOfClassSet(time, computation)) == "[1000, 1050] [1200, 1250]");
    CHECK(Text(RangesOfClassSet(time, communication)) == "[1100, 1150]");
    CHECK(Text(RangesOfClassSet(time, computation | communication)) == "[1050, 1100] [1150, 1200]");
    CHECK(Text(RangesOfClassSet(time, ClassBit(ActivityClass::kMemory))) == "[1300, 1320]");
    CHECK(RangesOfClassSet(time, ClassBit(ActivityClass::kMemory) | computation).empty());
}

TEST_CASE("the idle gaps of one stream and kind are listed for the rank and for each step") {
    const TraceAnalyses analyses = Analyze(kLaunchTrace);
    REQUIRE(analyses.ranks.size() == 1);
    REQUIRE(analyses.activities.streams.size() == 1);
    const uint32_t group = analyses.ranks[0].group;
    CHECK(StepsOfGroup(analyses, group) == std::vector<uint32_t>{0, 1});
    const FigureScope all{group, kNoStep}, step1{group, 0}, step2{group, 1};
    CHECK(ActivitiesOf(analyses, all).size() == 4);
    CHECK(ActivitiesOf(analyses, step1) == std::vector<uint32_t>{0, 1});  // A, B
    CHECK(ActivitiesOf(analyses, step2) == std::vector<uint32_t>{2, 3});  // C, D

    // B → C: C's launch (1250) starts after B ended (1200): host wait. A → B: 10 µs, launched
    // long before: kernel wait. C → D: 50 µs ≥ 30 with D launched at 1010: other.
    CHECK(Text(GapsOf(analyses, all, 0, GapKind::kHostWait)) == "[1200, 1300]");
    CHECK(Text(GapsOf(analyses, all, 0, GapKind::kKernelWait)) == "[1100, 1110]");
    CHECK(Text(GapsOf(analyses, all, 0, GapKind::kOther)) == "[1400, 1450]");
    // Step 2 starts with C: the host wait before it belongs to no step.
    CHECK(GapsOf(analyses, step2, 0, GapKind::kHostWait).empty());
    CHECK(Text(GapsOf(analyses, step2, 0, GapKind::kOther)) == "[1400, 1450]");
    CHECK(Text(GapsOf(analyses, step1, 0, GapKind::kKernelWait)) == "[1100, 1110]");
    CHECK(GapsOf(analyses, step1, 0, GapKind::kOther).empty());
}

TEST_CASE("launch outliers are listed largest first, for the rank and for each step") {
    const TraceAnalyses analyses = Analyze(kLaunchTrace);
    const uint32_t group = analyses.ranks.at(0).group;
    const FigureScope all{group, kNoStep}, step1{group, 0}, step2{group, 1};
    // Delays: A 1000 - 990 = 10, B 1110 - 1005 = 105, C 1300 - 1260 = 40, D 1450 - 1090 = 360;
    // over 100: D then B. CPU times: D's 80 is the only one over 50.
    CHECK(Text(analyses, LaunchOutliersOf(analyses, all, LaunchOutlierKind::kLaunchDelay)) ==
          "50-long 360, 90-long 105");
    CHECK(Text(analyses, LaunchOutliersOf(analyses, step1, LaunchOutlierKind::kLaunchDelay)) ==
          "90-long 105");
    CHECK(Text(analyses, LaunchOutliersOf(analyses, step2, LaunchOutlierKind::kLaunchDelay)) ==
          "50-long 360");
    CHECK(Text(analyses, LaunchOutliersOf(analyses, all, LaunchOutlierKind::kRuntime)) ==
          "50-long 80");
    CHECK(LaunchOutliersOf(analyses, step1, LaunchOutlierKind::kRuntime).empty());
}

namespace {

TimeNs Length(const std::vector<TimeRange>& ranges) {
    TimeNs total = 0;
    for (const TimeRange& range : ranges) total += range.endNs - range.startNs;
    return total;
}

// Every list of 'figures' (the rank's or one step's) against the number it stands behind.
void CheckListsAddUp(const TraceAnalyses& analyses, const FigureScope& scope,
                     const ActivityFigures& figures) {
    const DeviceTime& time = figures.time;
    CHECK(Length(RangesOf(time, TimeFigure::kIdle)) == time.temporal.idleNs);
    CHECK(Length(RangesOf(time, TimeFigure::kComputation)) == time.temporal.computeNs);
    CHECK(Length(RangesOf(time, TimeFigure::kNonCompute)) == time.temporal.nonComputeNs);
    CHECK(Length(RangesOf(time, TimeFigure::kOverlap)) == time.overlappedNs);
    for (const ClassSetTime& set : time.classSets)
        CHECK(Length(RangesOfClassSet(time, set.classes)) == set.ns);
    for (const StreamIdle& idle : figures.idle)
        for (int kind = 0; kind < kGapKindCount; ++kind) {
            const std::vector<IdleGap> gaps =
                GapsOf(analyses, scope, idle.stream, static_cast<GapKind>(kind));
            TimeNs total = 0;
            for (const IdleGap& gap : gaps) total += gap.endNs - gap.startNs;
            CHECK(gaps.size() == idle.gaps[static_cast<size_t>(kind)].count);
            CHECK(total == idle.gaps[static_cast<size_t>(kind)].totalNs);
        }
    CHECK(LaunchOutliersOf(analyses, scope, LaunchOutlierKind::kRuntime).size() ==
          figures.launch.runtimeOutliers);
    CHECK(LaunchOutliersOf(analyses, scope, LaunchOutlierKind::kLaunchDelay).size() ==
          figures.launch.launchDelayOutliers);
}

}  // namespace

TEST_CASE("on generated traces every list adds up to its figure, for the rank and each step") {
    KinetoTraceOptions options;
    options.steps = 3;
    options.events = 20000;
    const std::string text =
        test::WrittenText([&](std::FILE* out) { GenerateKinetoTrace(options, out); });
    const TraceAnalyses analyses = Analyze(text);
    REQUIRE(analyses.ranks.size() == 1);
    const RankTraceAnalysis& rank = analyses.ranks[0];
    REQUIRE(rank.unavailable.empty());
    CheckListsAddUp(analyses, {rank.group, kNoStep}, rank.all);
    const std::vector<uint32_t> steps = StepsOfGroup(analyses, rank.group);
    REQUIRE(steps.size() == rank.steps.size());
    for (size_t s = 0; s < steps.size(); ++s) {
        CAPTURE(s);
        CheckListsAddUp(analyses, {rank.group, steps[s]}, rank.steps[s].figures);
    }
}
