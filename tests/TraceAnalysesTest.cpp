// The analyses from a trace alone (docs/trace-analyses.md) on small traces whose every figure is
// worked out by hand in the comments; the real traces are checked against tests/reference.
#include <doctest/doctest.h>

#include <string>

#include "KinetoTraceGenerator.hpp"
#include "TestSupport.hpp"
#include "report/TraceAnalysesJson.hpp"
#include "trace/ActivityClass.hpp"
#include "trace/TraceCollectives.hpp"
#include "trace/TraceRankTables.hpp"
#include "trace/DeviceActivities.hpp"
#include "trace/DeviceTime.hpp"
#include "load/EventFields.hpp"
#include "trace/LaunchStats.hpp"
#include "trace/StreamIdle.hpp"
#include "trace/TraceAnalyses.hpp"

using namespace marey;

namespace {

// A Kineto trace: host thread 10 of pid 1, compute stream 7 and communication stream 20 of
// device 0. Times in µs.
std::string KinetoTrace(const std::string& events, const std::string& top = "") {
    return "{" + top +
           "\"traceEvents\": ["
           "{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": 0, \"tid\": 7, \"args\": "
           "{\"name\": \"stream 7 \"}},"
           "{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": 0, \"tid\": 20, \"args\": "
           "{\"name\": \"stream 20 \"}}," +
           events + "]}";
}

std::string Kernel(const char* cat, const char* name, int tid, int ts, int dur, int correlation) {
    return std::string("{\"ph\": \"X\", \"cat\": \"") + cat + "\", \"name\": \"" + name +
           "\", \"pid\": 0, \"tid\": " + std::to_string(tid) + ", \"ts\": " + std::to_string(ts) +
           ", \"dur\": " + std::to_string(dur) + ", \"args\": {\"stream\": " + std::to_string(tid) +
           ", \"correlation\": " + std::to_string(correlation) + "}},";
}

std::string Launch(const char* name, int ts, int dur, int correlation) {
    return std::string("{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"") + name +
           "\", \"pid\": 1, \"tid\": 10, \"ts\": " + std::to_string(ts) +
           ", \"dur\": " + std::to_string(dur) +
           ", \"args\": {\"correlation\": " + std::to_string(correlation) + "}},";
}

std::string Step(int number, int ts, int dur) {
    return "{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"ProfilerStep#" +
           std::to_string(number) + "\", \"pid\": 1, \"tid\": 10, \"ts\": " + std::to_string(ts) +
           ", \"dur\": " + std::to_string(dur) + "},";
}

std::string WithoutTrailingComma(std::string events) {
    if (!events.empty() && events.back() == ',') events.pop_back();
    return events;
}

TraceAnalyses Analyze(const std::string& json, TimeNs kernelWaitBelowNs = 30'000) {
    std::unique_ptr<TraceModel> model = test::LoadJson(json);
    REQUIRE(model);
    TraceAnalysisOptions options;
    options.kernelWaitBelowNs = kernelWaitBelowNs;
    return AnalyzeTrace(*model, options);
}

}  // namespace

TEST_CASE("kernel classes follow the one table of name patterns and categories") {
    auto classOf = [](const char* category, const char* taskType, const char* name) {
        std::optional<ActivityKind> kind = ClassifyDeviceActivity(category, taskType, name);
        return kind ? std::string(ActivityClassName(kind->activityClass)) : std::string("none");
    };
    CHECK(classOf("kernel", "",
                  "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)") ==
          "communication");
    CHECK(classOf("kernel", "", "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*)") ==
          "communication");
    CHECK(classOf("kernel", "", "void rccl_kernel<float>()") == "communication");
    CHECK(classOf("kernel", "", "triton_poi_fused_add_cos_sin_0") == "computation");
    CHECK(classOf("kernel", "", "hipLaunchKernelGGL_elementwise") ==
          "computation");  // not HTA's ^hip
    CHECK(classOf("gpu_memcpy", "", "Memcpy DtoD (Device -> Device)") == "memory");
    CHECK(classOf("Memset", "", "Memset (Device)") == "memory");
    CHECK(classOf("", "AI_CORE", "aclnnMm_MatMulCommon_MatMulV2") == "computation");
    CHECK(classOf("", "Notify Wait", "Notify Wait") == "communication");
    CHECK(classOf("", "Memcpy", "Memcpy") == "communication");  // HCCL's own copy
    CHECK(classOf("", "PCIE_DMA_SQE", "MEMCPY_ASYNC") == "memory");
    CHECK(classOf("", "EVENT_WAIT_SQE", "EVENT_WAIT") == "none");
    CHECK(classOf("", "", "hcom_allReduce__586_0_1") == "communication");

    CHECK(ClassifyDeviceActivity("gpu_memcpy", "", "Memcpy HtoD (Pageable -> Device)")->memory ==
          MemoryKind::kCopyHostToDevice);
    CHECK(ClassifyDeviceActivity("gpu_memcpy", "", "Memcpy DtoH (Device -> Pinned)")->memory ==
          MemoryKind::kCopyDeviceToHost);
    CHECK(ClassifyDeviceActivity("gpu_memset", "", "Memset (Device)")->memory == MemoryKind::kSet);
}

TEST_CASE("the fields of an event are read from its text, damaged ids are not read as ids") {
    const TraceText text = TraceText::FromString(
        "{\"ph\": \"X\", \"cat\": \"kernel\", \"args\": {\"Task Type\": \"AI_CORE\", "
        "\"correlation\": 42}}"
        "{\"cat\": \"kernel\", \"args\": {\"correlation\": -3}}"
        "{\"cat\": \"kernel\", \"args\": {\"correlation\": 12abc}}"
        "{\"cat\": \"kernel\", \"args\": {\"connection_id\": \"77\"}}");
    ActivityFields fields = ReadActivityFields(text, 0);
    CHECK(fields.category == "kernel");
    CHECK(fields.taskType == "AI_CORE");
    CHECK(fields.hasCorrelation);
    CHECK(fields.correlation == 42);
    const std::string_view all(text.data(), text.size());
    CHECK_FALSE(ReadActivityFields(text, all.find("{\"cat", 10)).hasCorrelation);  // negative
    CHECK_FALSE(ReadActivityFields(text, all.find("12abc") - 40).hasCorrelation);  // not a number
    const ActivityFields quoted = ReadActivityFields(text, all.rfind("{\"cat"));
    CHECK(quoted.hasCorrelation);
    CHECK(quoted.correlation == 77);
    CHECK(ReadActivityFields(text, text.size() + 5).category.empty());  // past the end
}

TEST_CASE("temporal breakdown, kernel types and overlap of a hand-made GPU trace") {
    // Stream 7: compute 0-100 and 150-250 µs, a fill 300-320. Stream 20: NCCL 50-200.
    // Union of all: 0-250, 300-320 → busy 270, span 320, idle 50.
    // Computation union 0-100, 150-250 = 200. Non-compute = 270 - 200 = 70 (100-150 comm alone,
    // 300-320 memory alone). Communication union 50-200 = 150, overlapped by computation 50-100
    // and 150-200 = 100: 66.67 %. A gpu_user_annotation over everything and a cuda_sync do not
    // count.
    const std::string events =
        Kernel("kernel", "gemm", 7, 1000, 100, 1) + Kernel("kernel", "gemm", 7, 1150, 100, 2) +
        Kernel("gpu_memset", "Memset (Device)", 7, 1300, 20, 3) +
        Kernel("kernel", "ncclDevKernel_AllReduce_Sum_f32_RING_LL(x)", 20, 1050, 150, 4) +
        Kernel("gpu_user_annotation", "forward", 7, 900, 1000, 5) +
        "{\"ph\": \"X\", \"cat\": \"cuda_sync\", \"name\": \"Stream Wait Event\", \"pid\": 0, "
        "\"tid\": 7, "
        "\"ts\": 1260, \"dur\": 30, \"args\": {}},";
    const TraceAnalyses analyses = Analyze(KinetoTrace(WithoutTrailingComma(events)));
    REQUIRE(analyses.ranks.size() == 1);
    const RankTraceAnalysis& rank = analyses.ranks[0];
    REQUIRE(rank.unavailable.empty());
    CHECK(analyses.activities.activities.size() == 4);
    const TemporalBreakdown& temporal = rank.all.time.temporal;
    CHECK(temporal.spanNs == 320'000);
    CHECK(temporal.idleNs == 50'000);
    CHECK(temporal.computeNs == 200'000);
    CHECK(temporal.nonComputeNs == 70'000);
    REQUIRE(rank.all.time.OverlapPercent());
    CHECK(*rank.all.time.OverlapPercent() == doctest::Approx(100.0 * 100 / 150));
    // Computation alone 100 (0-50, 200-250), communication alone 50, both 100, memory alone 20.
    REQUIRE(rank.all.time.classSets.size() == 4);
    CHECK(rank.all.time.classSets[0].classes == ClassBit(ActivityClass::kComputation));
    CHECK(rank.all.time.classSets[0].ns == 100'000);
    CHECK(rank.all.time.classSets[1].ns == 50'000);
    CHECK(rank.all.time.classSets[2].ns == 100'000);
    CHECK(rank.all.time.classSets[3].classes == ClassBit(ActivityClass::kMemory));
    CHECK(rank.all.time.classSets[3].ns == 20'000);
    CHECK(TraceAnalysesToJson(analyses).find(
              "\"types\": [\"computation\", \"communication\"], \"ns\": 100000") !=
          std::string::npos);
}

TEST_CASE("idle gaps are host wait, kernel wait or other, and launches give delays and queues") {
    // Stream 7 kernels: A 0-100 (launched at -20..-10), B 110-200 (launched at -5..5: queued, gap
    // 10 < 30 → kernel wait), C 300-400 (launched at 250..260, after B ended → host wait 100),
    // D 450-500 (launched at 10..90 µs of CPU: a runtime outlier; gap 50 ≥ 30 with the launch
    // earlier → other). Delays: A 10, B 105 (> 100: an outlier), C 40, D 360 (an outlier).
    // Short kernels (GPU < CPU ≤ 50): none, every kernel runs longer than its launch.
    const std::string events =
        Launch("cudaLaunchKernel", 980, 10, 1) + Launch("cudaLaunchKernel", 995, 10, 2) +
        Launch("cudaLaunchKernel", 1250, 10, 3) + Launch("cudaLaunchKernel", 1010, 80, 4) +
        Kernel("kernel", "a", 7, 1000, 100, 1) + Kernel("kernel", "b", 7, 1110, 90, 2) +
        Kernel("kernel", "c", 7, 1300, 100, 3) + Kernel("kernel", "d", 7, 1450, 50, 4);
    const TraceAnalyses analyses = Analyze(KinetoTrace(WithoutTrailingComma(events)));
    const RankTraceAnalysis& rank = analyses.ranks.at(0);
    REQUIRE(rank.all.idle.size() == 1);
    const StreamIdle& idle = rank.all.idle[0];
    CHECK(idle.gaps[static_cast<size_t>(GapKind::kKernelWait)].totalNs == 10'000);
    CHECK(idle.gaps[static_cast<size_t>(GapKind::kHostWait)].totalNs == 100'000);
    CHECK(idle.gaps[static_cast<size_t>(GapKind::kOther)].totalNs == 50'000);
    CHECK(analyses.gaps.size() == 3);
    const LaunchSummary& launch = rank.all.launch;
    CHECK(launch.count == 4);
    CHECK(launch.runtimeOutliers == 1);
    CHECK(launch.launchDelayOutliers == 2);
    CHECK(launch.shortKernels == 0);
    CHECK(launch.maxDelayNs == 360'000);
    // Queue: +1 at -20, +1 at -5, -1 at 100, +1 at 10 (D), -1 at 200, +1 at 250, -1 at 400,
    // -1 at 500. Depth 1 on [-20,-5), 2 on [-5,10), 3 on [10,100), 2 on [100,200), 1 on
    // [200,250), 2 on [250,400), 1 on [400,500): (15 + 30 + 270 + 200 + 50 + 300 + 100) / 520.
    REQUIRE(rank.all.queue.size() == 1);
    CHECK(rank.all.queue[0].max == 3);
    CHECK(rank.all.queue[0].mean == doctest::Approx(965.0 / 520.0));

    // A lower threshold turns the 10 µs kernel wait into other.
    const TraceAnalyses strict = Analyze(KinetoTrace(WithoutTrailingComma(events)), 5'000);
    CHECK(strict.ranks[0].all.idle[0].gaps[static_cast<size_t>(GapKind::kOther)].totalNs == 60'000);
}

TEST_CASE("a graph launch is the launch of each of its kernels, and steps take kernels by launch") {
    // ProfilerStep#1 on the host 0-100 µs launches a graph at 50..60 whose three kernels run at
    // 200-210, 210-220, 230-240 on stream 7, after the host's step ended: they are step 1's.
    // ProfilerStep#2 holds a kernel launched at 150 (running 300-310).
    const std::string events =
        Step(1, 1000, 100) + Step(2, 1100, 100) + Launch("cudaGraphLaunch", 1050, 10, 9) +
        Launch("cudaLaunchKernel", 1150, 5, 10) + Kernel("kernel", "g1", 7, 1200, 10, 9) +
        Kernel("kernel", "g2", 7, 1210, 10, 9) + Kernel("kernel", "g3", 7, 1230, 10, 9) +
        Kernel("kernel", "k", 7, 1300, 10, 10);
    const TraceAnalyses analyses = Analyze(KinetoTrace(WithoutTrailingComma(events)));
    const RankTraceAnalysis& rank = analyses.ranks.at(0);
    CHECK(rank.all.launch.count == 4);
    REQUIRE(rank.steps.size() == 2);
    CHECK(rank.steps[0].step == "1");
    CHECK(rank.steps[0].figures.time.temporal.spanNs == 40'000);
    CHECK(rank.steps[0].figures.time.temporal.idleNs == 10'000);
    CHECK(rank.steps[0].figures.launch.count == 3);
    CHECK(rank.steps[1].figures.time.temporal.spanNs == 10'000);
}

TEST_CASE("traces without device activity say why the analyses are not available") {
    const TraceAnalyses none = Analyze(
        KinetoTrace(WithoutTrailingComma(Launch("cudaLaunchKernel", 0, 5, 1) + Step(1, 0, 10)),
                    "\"distributedInfo\": {\"rank\": 3}, "));
    REQUIRE(none.ranks.size() == 1);
    CHECK(none.ranks[0].rank == 3);
    CHECK(none.ranks[0].rankFrom == RankIdSource::kDistributedInfo);
    CHECK(none.ranks[0].unavailable.find("no device stream") != std::string::npos);
    CHECK(TraceAnalysesToJson(none).find("\"available\": false, \"reason\": ") !=
          std::string::npos);

    // Only an annotation and a synchronisation on a stream: a stream, but no activity.
    const TraceAnalyses onlyMarks = Analyze(
        KinetoTrace(WithoutTrailingComma(Kernel("gpu_user_annotation", "forward", 7, 0, 10, 1) +
                                         Kernel("cuda_sync", "Context Sync", 7, 20, 5, 2))));
    CHECK(onlyMarks.ranks[0].unavailable.find("hold no kernel") != std::string::npos);

    // One kernel and no step: figures, and no steps.
    const TraceAnalyses one =
        Analyze(KinetoTrace(WithoutTrailingComma(Kernel("kernel", "k", 7, 0, 10, 1))));
    CHECK(one.ranks[0].unavailable.empty());
    CHECK(one.ranks[0].all.time.temporal.spanNs == 10'000);
    CHECK(one.ranks[0].steps.empty());
    CHECK_FALSE(one.ranks[0].all.time.OverlapPercent());
}

namespace {

// The figures of the analyses against what the generator planted, for the rank or one step.
void CheckPlanted(const ActivityFigures& found, const KinetoFigures& planted,
                  const DeviceActivities& activities) {
    const TemporalBreakdown& temporal = found.time.temporal;
    CHECK(temporal.spanNs == planted.spanNs);
    CHECK(temporal.idleNs == planted.idleNs);
    CHECK(temporal.computeNs == planted.computeNs);
    CHECK(temporal.nonComputeNs == planted.nonComputeNs);
    std::array<int64_t, 8> sets{};
    for (const ClassSetTime& set : found.time.classSets) sets[set.classes] = set.ns;
    CHECK(sets == planted.classSetNs);
    CHECK(found.time.communicationNs == planted.communicationNs);
    CHECK(found.time.overlappedNs == planted.overlappedCommunicationNs);
    CHECK(found.launch.count == planted.launches);
    CHECK(found.launch.shortKernels == planted.shortKernels);
    CHECK(found.launch.runtimeOutliers == planted.runtimeOutliers);
    CHECK(found.launch.launchDelayOutliers == planted.launchDelayOutliers);
    REQUIRE(found.idle.size() == planted.streams.size());
    REQUIRE(found.queue.size() == planted.streams.size());
    for (size_t s = 0; s < planted.streams.size(); ++s) {
        const KinetoStreamFigures& stream = planted.streams[s];
        CHECK(activities.streams[found.idle[s].stream].label == stream.name);
        const auto& gaps = found.idle[s].gaps;
        const std::pair<GapKind, const KinetoGaps*> kinds[] = {
            {GapKind::kHostWait, &stream.hostWait},
            {GapKind::kKernelWait, &stream.kernelWait},
            {GapKind::kOther, &stream.other}};
        for (const auto& [kind, expected] : kinds) {
            const GapStats& stats = gaps[static_cast<size_t>(kind)];
            CHECK(stats.totalNs == expected->ns);
            CHECK(stats.count == expected->count);
            CHECK(stats.minNs == expected->minNs);
            CHECK(stats.maxNs == expected->maxNs);
        }
        CHECK(found.queue[s].max == stream.queueMax);
        CHECK(found.queue[s].mean == doctest::Approx(stream.QueueMean()).epsilon(1e-9));
    }
}

}  // namespace

TEST_CASE(
    "the analyses find exactly the idle gaps, overlap, launch delays and queues the generator "
    "planted") {
    for (uint64_t seed : {1, 7, 42}) {
        KinetoTraceOptions options;
        options.steps = 4;
        options.seed = seed;
        options.rank = static_cast<uint32_t>(seed % 5);
        // A step whose convolution runs 8 ms (the critical path's plant) keeps every figure.
        if (seed == 42) options.slowKernelSteps = {2};
        KinetoTraceResult generated;
        const std::string text = test::WrittenText(
            [&](std::FILE* out) { generated = GenerateKinetoTrace(options, out); });

        const TraceAnalyses analyses = Analyze(text);
        REQUIRE(analyses.ranks.size() == 1);
        const RankTraceAnalysis& rank = analyses.ranks[0];
        CHECK(rank.rank == generated.expected.rank);
        CHECK(rank.rankFrom == RankIdSource::kDistributedInfo);
        CheckPlanted(rank.all, generated.expected.total, analyses.activities);
        REQUIRE(rank.steps.size() == generated.expected.steps.size());
        for (size_t s = 0; s < rank.steps.size(); ++s) {
            CAPTURE(s);
            CHECK(rank.steps[s].step == std::to_string(generated.expected.steps[s].step));
            CheckPlanted(rank.steps[s].figures, generated.expected.steps[s].figures,
                         analyses.activities);
        }
    }
}

TEST_CASE("a bare GPU trace gets kernel and step tables for the rank views") {
    KinetoTraceOptions options;
    options.steps = 3;
    KinetoTraceResult generated;
    const std::string text =
        test::WrittenText([&](std::FILE* out) { generated = GenerateKinetoTrace(options, out); });
    std::unique_ptr<TraceModel> model = test::LoadJson(text);
    REQUIRE(model);
    const TraceAnalyses analyses = AnalyzeTrace(*model, {});
    const KernelTable kernels = KernelTableFromActivities(*model, analyses);
    CHECK(kernels.rows.size() == analyses.activities.activities.size());
    size_t gpuKernels = 0, communication = 0;
    for (const KernelRow& row : kernels.rows) {
        gpuKernels += row.coreClass == CoreClass::kGpu;
        communication += row.coreClass == CoreClass::kCommunication;
    }
    CHECK(gpuKernels > 0);
    CHECK(communication == 3 * 3);  // three all-reduces a step
    const StepTrace steps = StepTraceFromAnalyses(analyses);
    REQUIRE(steps.rows.size() == 3);
    for (size_t s = 0; s < 3; ++s) {
        const KinetoFigures& planted = generated.expected.steps[s].figures;
        const auto& ns = steps.rows[s].ns;
        CHECK(ns[kStepStage] == planted.spanNs);
        CHECK(ns[kStepFree] == planted.idleNs);
        CHECK(ns[kStepCommunication] == planted.communicationNs);
        CHECK(ns[kStepCommNotOverlapped] ==
              planted.communicationNs - planted.overlappedCommunicationNs);
        CHECK(ns[kStepComputing] + ns[kStepCommNotOverlapped] + ns[kStepFree] == ns[kStepStage]);
    }
    // Its communication view: one operator per NCCL kernel, in its step, the elapse only.
    const std::vector<TraceCollective> collectives =
        FindTraceCollectives(*model, analyses, analyses.ranks.front().group);
    REQUIRE(collectives.size() == 3 * 3);
    const CommunicationOps ops = CommunicationFromTrace(*model, analyses);
    CHECK(ops.elapseOnly);
    REQUIRE(ops.ops.size() == collectives.size());
    for (size_t i = 0; i < ops.ops.size(); ++i) {
        const CommunicationOp& op = ops.ops[i];
        CHECK(op.step == "step" + collectives[i].step);
        CHECK(op.name == collectives[i].name);
        CHECK(op.hasStart);
        CHECK(op.elapseNs == collectives[i].elapseNs);
        CHECK(op.elapseNs > 0);
        CHECK(op.waitNs == 0);
    }
    CHECK(ops.ops.front().step == "step" + analyses.steps.front().label);
}
