// The critical path of one rank (docs/critical-path.md): small Kineto traces whose path is worked
// out by hand in the comments, a graph with a cycle, HTA 0.5's own figures on the AlexNet trace
// its tests use, and the command line.
#include <doctest/doctest.h>

#include <sys/wait.h>

#include <algorithm>
#include <string>

#include "KinetoTraceGenerator.hpp"
#include "TestSupport.hpp"
#include "compare/CheckRules.hpp"
#include "compare/RegressionCheck.hpp"
#include "loading/RankLoader.hpp"
#include "loading/RanksTimeline.hpp"
#include "path/RanksPath.hpp"
#include "report/CheckReport.hpp"
#include "path/CriticalPath.hpp"
#include "path/PathGraph.hpp"
#include "report/CriticalPathJson.hpp"
#include "trace/TraceAnalyses.hpp"

using namespace marey;

namespace {

// A Kineto trace: host thread 10 of pid 1, streams 7 and 20 of device 0. Times in µs.
std::string Trace(std::string events) {
    if (!events.empty() && events.back() == ',') events.pop_back();
    return "{\"traceEvents\": ["
           "{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": 0, \"tid\": 7, \"args\": "
           "{\"name\": \"stream 7 \"}},"
           "{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": 0, \"tid\": 20, \"args\": "
           "{\"name\": \"stream 20 \"}}," +
           events + "]}";
}

std::string Event(const char* cat, const std::string& name, int pid, int tid, int ts, int dur,
                  const std::string& args) {
    return std::string("{\"ph\": \"X\", \"cat\": \"") + cat + "\", \"name\": \"" + name +
           "\", \"pid\": " + std::to_string(pid) + ", \"tid\": " + std::to_string(tid) +
           ", \"ts\": " + std::to_string(ts) + ", \"dur\": " + std::to_string(dur) +
           ", \"args\": {" + args + "}},";
}
std::string Op(const char* name, int ts, int dur) {
    return Event("cpu_op", name, 1, 10, ts, dur, "");
}
std::string Runtime(const char* name, int ts, int dur, int correlation) {
    return Event("cuda_runtime", name, 1, 10, ts, dur,
                 "\"correlation\": " + std::to_string(correlation));
}
std::string Kernel(const char* name, int stream, int ts, int dur, int correlation) {
    return Event("kernel", name, 0, stream, ts, dur,
                 "\"stream\": " + std::to_string(stream) +
                     ", \"correlation\": " + std::to_string(correlation));
}
std::string Sync(const char* kind, int stream, int ts, int dur, int correlation,
                 const std::string& more = "") {
    return Event("cuda_sync", kind, 0, stream, ts, dur,
                 "\"stream\": " + std::to_string(stream) +
                     ", \"correlation\": " + std::to_string(correlation) + more);
}

// Kernel a on stream 7 [100, 600]; 'recordCall' (correlation 2, as cudaEventRecord would) then
// cudaStreamWaitEvent make stream 20 wait; kernel b on stream 20 [610, 710].
std::string StreamWaitEvents(const char* recordCall) {
    return Runtime("cudaLaunchKernel", 0, 10, 1) + Kernel("a", 7, 100, 500, 1) +
           Runtime(recordCall, 20, 5, 2) + Runtime("cudaStreamWaitEvent", 30, 5, 3) +
           Sync("Stream Wait Event", 20, 32, 1, 3,
                ", \"wait_on_stream\": 7, \"wait_on_cuda_event_record_corr_id\": 2") +
           Runtime("cudaLaunchKernel", 40, 10, 4) + Kernel("b", 20, 610, 100, 4);
}

struct Found {
    std::unique_ptr<TraceModel> model;
    CriticalPath path;
    TimeNs Bound(BoundKind kind) const { return path.boundNs[static_cast<size_t>(kind)]; }
    // "name:kind" of each stretch, in the path's order.
    std::string Stretches() const {
        std::string text;
        for (const PathStretch& stretch : path.stretches)
            text += std::string(text.empty() ? "" : " ") + std::string(model->Name(stretch.name)) +
                    ":" + BoundKindName(stretch.bound);
        return text;
    }
};

Found PathOf(const std::string& events) {
    Found found;
    found.model = test::LoadJson(Trace(events));
    REQUIRE(found.model);
    const TraceAnalyses analyses = AnalyzeTrace(*found.model, TraceAnalysisOptions{});
    found.path = *CriticalPathOfStep(*found.model, analyses, kNoGroup);
    return found;
}

}  // namespace

TEST_CASE("a kernel on an idle stream waited for its launch: the path counts the launch delay") {
    // aten::mm [0, 20] launches at 5; the kernel runs [50, 150] on idle stream 7. Path: 5 µs of
    // aten::mm before the launch, 45 µs from the launch's start to the kernel's, the kernel's
    // 100 µs. The host's own 20 µs are the shorter way.
    const Found found = PathOf(Op("aten::mm", 0, 20) + Runtime("cudaLaunchKernel", 5, 10, 1) +
                               Kernel("gemm", 7, 50, 100, 1));
    CHECK(found.path.unavailable.empty());
    CHECK(found.path.lengthNs == 150'000);
    CHECK(found.Bound(BoundKind::kCpu) == 5'000);
    CHECK(found.Bound(BoundKind::kLaunch) == 45'000);
    CHECK(found.Bound(BoundKind::kCompute) == 100'000);
    CHECK(found.Stretches() == "aten::mm:cpu gemm:launch gemm:compute");
    CHECK(found.path.startNs == found.model->firstNs);
    CHECK(found.path.endNs - found.path.startNs == 150'000);
}

TEST_CASE("a kernel queued behind another waited for it: kernel-to-kernel time, not launch") {
    // Both launched at once; kernel b starts 2 µs after kernel a ends, on the same stream: the
    // path is a's launch delay (45), a (100), the gap (2), b (100). A gap of 1.5 ms or more
    // means a wait the trace does not show: no edge, as in HTA.
    const Found found =
        PathOf(Runtime("cudaLaunchKernel", 0, 10, 1) + Runtime("cudaLaunchKernel", 12, 10, 2) +
               Kernel("a", 7, 45, 100, 1) + Kernel("b", 7, 147, 100, 2));
    CHECK(found.path.lengthNs == 247'000);
    CHECK(found.Bound(BoundKind::kKernelKernel) == 2'000);
    CHECK(found.Bound(BoundKind::kLaunch) == 45'000);
    CHECK(found.Stretches() == "a:launch a:compute b:kernel_kernel b:compute");
    CHECK(found.path.edgesByKind[static_cast<size_t>(PathEdgeKind::kKernelKernel)] == 1);

    const Found apart =
        PathOf(Runtime("cudaLaunchKernel", 0, 10, 1) + Runtime("cudaLaunchKernel", 12, 10, 2) +
               Kernel("a", 7, 45, 100, 1) + Kernel("b", 7, 1700, 100, 2));
    CHECK(apart.path.edgesByKind[static_cast<size_t>(PathEdgeKind::kKernelKernel)] == 0);
}

TEST_CASE("the host's wait in a synchronisation is the device's time, joined by the sync record") {
    // A 1 ms kernel, then cudaDeviceSynchronize [15, 1030] and aten::add [1040, 1100]. Through
    // the device: launch delay 20 + kernel 1000 + (sync, no time) + aten::add 60 = 1080 µs. Were
    // the synchronise's own 1015 µs counted as the host's, the host way (10 + 1015 + 60) would
    // win and the step would read CPU-bound.
    const Found found =
        PathOf(Runtime("cudaLaunchKernel", 0, 10, 1) + Kernel("big", 7, 20, 1000, 1) +
               Runtime("cudaDeviceSynchronize", 15, 1015, 2) +
               Sync("Context Sync", 7, 1020, 10, 2) + Op("aten::add", 1040, 60));
    CHECK(found.path.syncMarkers == 1);
    CHECK(found.path.unmatchedSyncs == 0);
    CHECK(found.path.lengthNs == 1'080'000);
    CHECK(found.Bound(BoundKind::kCompute) == 1'000'000);
    CHECK(found.Bound(BoundKind::kCpu) == 60'000);
    CHECK(found.Stretches() == "big:launch big:compute aten::add:cpu");

    // A stream synchronise joins its own stream only: the kernel on stream 20 is not waited for,
    // so the path is the first launch (10), the second's delay (19) and that kernel (900).
    const Found stream =
        PathOf(Runtime("cudaLaunchKernel", 0, 10, 1) + Kernel("mine", 7, 20, 100, 1) +
               Runtime("cudaLaunchKernel", 11, 2, 3) + Kernel("other", 20, 30, 900, 3) +
               Runtime("cudaStreamSynchronize", 15, 115, 2) + Sync("Stream Sync", 7, 125, 5, 2) +
               Op("aten::add", 140, 60));
    CHECK(stream.path.edgesByKind[static_cast<size_t>(PathEdgeKind::kSync)] == 1);
    CHECK(stream.Stretches() == "cudaLaunchKernel:cpu other:launch other:compute");
    CHECK(stream.path.lengthNs == 929'000);
}

TEST_CASE("a stream waiting on an event waits for the work recorded before the event") {
    // Kernel a on stream 7 [100, 600]; cudaEventRecord then cudaStreamWaitEvent make stream 20
    // wait for it; kernel b on stream 20 [610, 710]. The path: a's launch delay 100, a 500, the
    // wait (no time), b 100.
    const Found found = PathOf(StreamWaitEvents("cudaEventRecord"));
    CHECK(found.path.syncMarkers == 1);
    CHECK(found.path.unmatchedSyncs == 0);
    CHECK(found.path.edgesByKind[static_cast<size_t>(PathEdgeKind::kSync)] == 1);
    CHECK(found.path.lengthNs == 700'000);
    CHECK(found.Stretches() == "a:launch a:compute b:compute");

    // A record whose event names no record call in the window is counted, never guessed.
    const Found unmatched =
        PathOf(Runtime("cudaLaunchKernel", 0, 10, 1) + Kernel("a", 7, 100, 500, 1) +
               Runtime("cudaStreamWaitEvent", 30, 5, 3) +
               Sync("Stream Wait Event", 20, 32, 1, 3,
                    ", \"wait_on_stream\": 7, \"wait_on_cuda_event_record_corr_id\": 99") +
               Runtime("cudaLaunchKernel", 40, 10, 4) + Kernel("b", 20, 610, 100, 4));
    CHECK(unmatched.path.unmatchedSyncs == 1);
    CHECK(unmatched.path.edgesByKind[static_cast<size_t>(PathEdgeKind::kSync)] == 0);
}

TEST_CASE("nesting: a call's time before its child is its parent's, annotations are no calls") {
    // ProfilerStep#1 (an annotation) [0, 100] holds aten::linear [10, 90] holding aten::mm
    // [30, 60]. On the path: aten::linear 20 + aten::mm 30 + aten::linear 30 = 80 µs of CPU; the
    // step's annotation is the window, not a call.
    const Found found = PathOf(Event("user_annotation", "ProfilerStep#1", 1, 10, 0, 100, "") +
                               Op("aten::linear", 10, 80) + Op("aten::mm", 30, 30));
    CHECK(found.path.step == "1");
    CHECK(found.path.lengthNs == 80'000);
    CHECK(found.Bound(BoundKind::kCpu) == 80'000);
    CHECK(found.Stretches() == "aten::linear:cpu aten::mm:cpu aten::linear:cpu");
}

TEST_CASE("a window with nothing in it says so, and a cycle leaves its nodes out") {
    const Found empty = PathOf(Event("user_annotation", "ProfilerStep#1", 1, 10, 0, 100, ""));
    CHECK(empty.path.unavailable == "no host call or device work lies inside the window");
    CHECK(empty.path.lengthNs == 0);

    // Events 0 and 1 point at each other (a clock that ran back); event 2 stands alone.
    PathGraph graph;
    for (const auto& [startNs, endNs] : {std::pair<TimeNs, TimeNs>{0, 10}, {5, 20}, {30, 40}}) {
        PathEvent event;
        event.startNs = startNs, event.endNs = endNs;
        graph.events.push_back(event);
    }
    graph.edges = {{0, 1, 10, PathEdgeKind::kOperator, 0},
                   {1, 2, 0, PathEdgeKind::kSync, kNoPathEvent},
                   {2, 3, 15, PathEdgeKind::kOperator, 1},
                   {3, 0, 0, PathEdgeKind::kSync, kNoPathEvent},
                   {4, 5, 10, PathEdgeKind::kOperator, 2}};
    const CriticalPath path = FindLongestPath(graph);
    CHECK(path.nodesOnCycles == 4);
    CHECK(path.lengthNs == 10);
    CHECK(path.startNs == 30);
    CHECK(path.endNs == 40);
}

TEST_CASE("no time on the path is counted twice: overlapping calls, clocks, damaged records") {
    // Three calls overlapping without nesting (A 100-700, B 200-800, C 300-900 µs): B and C are
    // left off the chain; the path is A's 600 µs, never 1.8 ms in a 1 ms step.
    const Found staircase = PathOf(Event("user_annotation", "ProfilerStep#1", 1, 10, 0, 1000, "") +
                                   Op("A", 100, 600) + Op("B", 200, 600) + Op("C", 300, 600));
    CHECK(staircase.path.lengthNs == 600'000);
    CHECK(staircase.path.overlappingCalls == 2);
    CHECK(staircase.path.lengthNs <= staircase.path.endNs - staircase.path.startNs);

    // A kernel that starts 3 µs before its launch call (a device clock converted to the host's):
    // the device's times move 3 µs later, the launch is joined and its wait is 0.
    const Found early = PathOf(Runtime("cudaLaunchKernel", 10, 5, 1) + Kernel("k", 7, 7, 100, 1));
    CHECK(early.path.deviceShiftNs == 3'000);
    CHECK(early.path.backwardEdges == 0);
    CHECK(early.path.lengthNs == 100'000);
    CHECK(early.Stretches() == "k:compute");

    // A stream-wait record whose event names a call that is not an event record: unmatched,
    // never joined.
    const Found wrong = PathOf(StreamWaitEvents("cudaDeviceSynchronize"));
    CHECK(wrong.path.syncMarkers == 1);
    CHECK(wrong.path.unmatchedSyncs == 1);
    CHECK(wrong.path.edgesByKind[static_cast<size_t>(PathEdgeKind::kSync)] == 0);

    // A source that keeps no category (as a database): a Python function is told by its name.
    const Found python = PathOf(
        "{\"ph\": \"X\", \"name\": \"torch/nn/modules/module.py(1532): _call_impl\", "
        "\"pid\": 1, \"tid\": 10, \"ts\": 0, \"dur\": 500},"
        "{\"ph\": \"X\", \"name\": \"aten::mm\", \"pid\": 1, \"tid\": 10, \"ts\": 100, "
        "\"dur\": 50},");
    CHECK(python.Stretches() == "aten::mm:cpu");
    CHECK(python.path.lengthNs == 50'000);
}

TEST_CASE("the path finds the causes the generator planted: a slow data loader, a slow kernel") {
    // Four steps; step 2's data loader takes 4 ms (the device idle), step 3's convolution 8 ms
    // (the host waits for it at the step's end). Every other step's longest stretch is under
    // 1 ms.
    KinetoTraceOptions options;
    options.steps = 4;
    options.events = 0;  // the steps' own size
    options.seed = 5;
    options.slowLoaderSteps = {2};
    options.slowKernelSteps = {3};
    const std::string text =
        test::WrittenText([&](std::FILE* out) { GenerateKinetoTrace(options, out); });
    std::unique_ptr<TraceModel> model = test::LoadJson(text);
    REQUIRE(model);
    const TraceAnalyses analyses = AnalyzeTrace(*model, TraceAnalysisOptions{});
    auto longest = [&](const CriticalPath& path) {
        const PathStretch* found = &path.stretches.front();
        for (const PathStretch& stretch : path.stretches)
            if (stretch.endNs - stretch.startNs > found->endNs - found->startNs) found = &stretch;
        return found;
    };
    auto share = [](const CriticalPath& path, BoundKind kind) {
        return static_cast<double>(path.boundNs[static_cast<size_t>(kind)]) /
               static_cast<double>(path.lengthNs);
    };
    for (const std::string step : {"1", "2", "3", "4"}) {
        CAPTURE(step);
        const CriticalPath path = *CriticalPathOfStep(*model, analyses, kNoGroup, &step);
        REQUIRE_FALSE(path.stretches.empty());
        const PathStretch* top = longest(path);
        const std::string name(model->Name(top->name));
        if (step == "2") {
            CHECK(name == "enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__");
            CHECK(top->bound == BoundKind::kCpu);
            CHECK(top->endNs - top->startNs == kSlowLoaderNs);
            CHECK(share(path, BoundKind::kCpu) > 0.5);  // the rest: the step's kernels
        } else if (step == "3") {
            CHECK(name.rfind("sm90_xmma_fprop_implicit_gemm", 0) == 0);
            CHECK(top->bound == BoundKind::kCompute);
            CHECK(top->endNs - top->startNs == kSlowKernelNs);
            CHECK(share(path, BoundKind::kCompute) > 0.9);
        } else {
            CHECK(top->endNs - top->startNs < 1'000'000);
        }
    }
}

TEST_CASE("the AlexNet trace of HTA's tests gives HTA 0.5's path, to the microsecond") {
    const std::string fixtures = test::FixturesDir();
    if (fixtures.empty()) return;
    const std::string trace = fixtures +
                              "/hta/tests/data/critical_path/alexnet/"
                              "benchmark_result_2869224_1695835535_trace.json.gz";
    // HTA 0.5's critical_path_analysis(rank=0, annotation="[param|…|measure|forward]",
    // instance_id=1) on this trace: 35,834 µs on the path; cpu_bound 32,042, gpu_compute_bound
    // 3,712, gpu_kernel_kernel_overhead 50, gpu_kernel_launch_overhead 30 (docs/critical-path.md).
    int status = -1;
    const std::string json = test::RunCommand(
        std::string(MAREY_BINARY) + " critical-path " + trace +
            " --json --annotation '[param|pytorch.model.alex_net|0|0|0|measure|forward]' "
            "--instance 1",
        &status);
    CHECK(status == 0);
    CHECK(json.find("\"length_ns\": 35834000") != std::string::npos);
    CHECK(json.find("\"bound_ns\": {\"cpu\": 32042000, \"compute\": 3712000, \"communication\": 0, "
                    "\"launch\": 30000, \"kernel_kernel\": 50000}") != std::string::npos);
    // Four cudaMalloc calls are most of it, as HTA's documentation says of this trace.
    const std::string text = test::RunCommand(
        std::string(MAREY_BINARY) + " critical-path " + trace +
            " --annotation '[param|pytorch.model.alex_net|0|0|0|measure|forward]' --instance 1",
        &status);
    CHECK(text.find("11.592 ms  cpu  cudaMalloc") != std::string::npos);
}

TEST_CASE("the command line names a window it cannot find and options it cannot read") {
    const std::filesystem::path dir = test::TempDir("critical_path");
    const std::string trace = (dir / "trace.json").string();
    {
        std::FILE* file = std::fopen(trace.c_str(), "w");
        REQUIRE(file);
        const std::string text = Trace(
            Event("user_annotation", "ProfilerStep#4", 1, 10, 0, 100, "") + Op("aten::mm", 10, 50));
        std::fwrite(text.data(), 1, text.size(), file);
        std::fclose(file);
    }
    auto run = [&](const std::string& arguments, int* code) {
        int status = -1;
        const std::string output = test::RunCommand(
            std::string(MAREY_BINARY) + " critical-path " + arguments + " 2>&1", &status);
        *code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        return output;
    };
    int code = -1;
    CHECK(run(trace + " --step 9", &code).find("rank 0: no such step") != std::string::npos);
    CHECK(code == 1);
    CHECK(run(trace + " --range 5ms,1ms", &code).find("FROM before TO") != std::string::npos);
    CHECK(code == 2);
    CHECK(run(trace + " --step 4 --range 0ms,1ms", &code).find("give one of") != std::string::npos);
    CHECK(code == 2);
    CHECK(run(trace + " --ranks 0-3", &code).find("not a cluster folder") != std::string::npos);
    CHECK(code == 2);
    CHECK(run(trace + " " + trace + " --range 0ms,1ms", &code).find("the window is a step") !=
          std::string::npos);
    CHECK(code == 2);
    CHECK(run(trace + " --annotation nothing", &code).find("no such annotation instance") !=
          std::string::npos);
    CHECK(code == 1);
    CHECK(run(trace + " --step 4", &code).find("critical path of step 4: 50.000 µs") !=
          std::string::npos);
    CHECK(code == 0);
    // stats --json carries the path of the longest step per rank.
    CHECK(run(trace + " --json", &code).rfind("[{\"rank\": 0, \"step\": \"4\"", 0) == 0);
    CHECK(code == 0);
    int statsCode = -1;
    const std::string statsJson =
        test::RunCommand(std::string(MAREY_BINARY) + " stats " + trace + " --json", &statsCode);
    CHECK(statsJson.find("\"critical_path\": [{\"rank\": 0, \"step\": \"4\"") != std::string::npos);
    std::filesystem::remove_all(dir);
}

TEST_CASE("check gates on the critical path's bound kinds only where a rule names them") {
    CheckRule rule;
    REQUIRE_FALSE(ParseMaxRule("cp:communication=10%", &rule));
    CHECK(rule.kind == CheckKind::kCriticalPath);
    CHECK(rule.pattern == "communication");
    CHECK_FALSE(ParseMaxRule("cp:*=5%", &rule));
    const std::optional<RuleError> typo = ParseMaxRule("cp:comunication=10%", &rule);
    REQUIRE(typo);
    CHECK(typo->column == 3);
    CHECK(typo->message ==
          "expected cpu, compute, communication, launch or kernel_kernel (or a pattern of them) "
          "after cp:, got \"comunication\"");

    // The same four steps, the candidate's convolution 8 ms in every step: its paths' compute
    // grows by about 7.4 ms a step.
    const std::filesystem::path dir = test::TempDir("critical_path_check");
    auto write = [&](const char* name, std::vector<uint64_t> slowSteps) {
        KinetoTraceOptions options;
        options.steps = 4;
        options.events = 0;
        options.seed = 5;
        options.slowKernelSteps = std::move(slowSteps);
        const std::string path = (dir / name).string();
        std::FILE* file = std::fopen(path.c_str(), "w");
        REQUIRE(file);
        GenerateKinetoTrace(options, file);
        std::fclose(file);
        return path;
    };
    const std::string baseline = write("a.json", {}), candidate = write("b.json", {1, 2, 3, 4});
    LoadedPair pair = LoadRankPair(baseline, candidate);
    REQUIRE(pair.a.ok());
    REQUIRE(pair.b.ok());
    CheckRules rules = CheckRules::Defaults();
    CheckRule every;
    REQUIRE_FALSE(ParseMaxRule("cp:*=5%", &every));
    rules.rules.push_back(every);
    const Result<CheckResult> gated =
        CheckSides(MakeCheckSide(pair.a.value(), true), MakeCheckSide(pair.b.value(), true), rules);
    REQUIRE(gated.ok());
    const auto found =
        std::find_if(gated.value().regressions.begin(), gated.value().regressions.end(),
                     [](const CheckFinding& f) { return f.kind == CheckKind::kCriticalPath; });
    REQUIRE(found != gated.value().regressions.end());
    CHECK(found->name == "compute");
    CHECK(found->changeNs > 7'000'000);
    CHECK(DescribeFinding(*found) == "critical path compute");
    // JUnit gives the critical path a test case only when a rule asked for it.
    CHECK(CheckToJunit(gated.value()).find("tests=\"7\"") != std::string::npos);
    CHECK(CheckToJunit(gated.value()).find("name=\"critical path\"") != std::string::npos);
    // Without a cp rule, no figure of the path is compared, even when computed.
    const Result<CheckResult> plain =
        CheckSides(MakeCheckSide(pair.a.value(), true), MakeCheckSide(pair.b.value(), true),
                   CheckRules::Defaults());
    REQUIRE(plain.ok());
    for (const CheckFinding& finding : plain.value().regressions)
        CHECK(finding.kind != CheckKind::kCriticalPath);
    CHECK(plain.value().figuresCompared + 1 < gated.value().figuresCompared);
    CHECK(CheckToJunit(plain.value()).find("critical path") == std::string::npos);

    // The command line: the rule, and the line of the report.
    int status = -1;
    const std::string text = test::RunCommand(std::string(MAREY_BINARY) + " check " + baseline +
                                                  " " + candidate + " --max cp:compute=10%",
                                              &status);
    CHECK(WEXITSTATUS(status) == 1);
    CHECK(text.find("regression: critical path compute") != std::string::npos);
    std::filesystem::remove_all(dir);
}

// [SECTION] Across ranks

TEST_CASE("across ranks the path jumps at a collective to the rank that arrived last") {
    // A two-rank job (docs/critical-path.md shows it): rank 0 computes 1 ms, rank 1 6 ms, then
    // both all-reduce (the kernel ends at 6.522 ms on both) and rank 0 runs a 3 ms kernel, rank 1
    // a 0.1 ms one.
    const std::string examples = std::string(MAREY_TESTS_DIR) + "/../docs/examples/two-ranks/";
    const std::string a = examples + "rank0.json", b = examples + "rank1.json";
    auto loaded = LoadRanksTimeline({a, b}, RanksTimelineOptions{});
    REQUIRE(loaded.ok());
    const TraceModel& model = *loaded.value().model;
    const TraceAnalyses analyses = AnalyzeTrace(model, TraceAnalysisOptions{});
    REQUIRE(analyses.ranks.size() == 2);
    CHECK(StepsOfEveryRank(analyses) == std::vector<std::string>{"1"});
    const std::optional<CriticalPath> path = CriticalPathAcrossRanks(model, analyses, "1");
    REQUIRE(path);
    // Rank 1's aten::mm before its launch (5), the launch wait (10) and compute (6000), the wait
    // behind it (2), the all-reduce after rank 1 arrived (500), onto rank 0: the wait behind it
    // (2) and its 3 ms kernel.
    CHECK(path->lengthNs == 9'519'000);
    CHECK(path->boundNs[static_cast<size_t>(BoundKind::kCommunication)] == 500'000);
    CHECK(path->boundNs[static_cast<size_t>(BoundKind::kCompute)] == 9'000'000);
    REQUIRE(path->collectives.size() == 1);
    CHECK(path->collectives[0].name == "pg 0 allreduce seq 1");
    CHECK(path->collectives[0].lateByNs == 5'000'000);
    CHECK(path->collectives[0].ranks == 2);
    REQUIRE(path->groups.size() == 2);
    CHECK(analyses.ranks[path->groups[0]].rank == 1);  // it starts on the late rank
    CHECK(analyses.ranks[path->groups[1]].rank == 0);
    // Rank 0 alone counts its 5 ms wait in the all-reduce as communication: across ranks that
    // wait is rank 1's compute.
    const CriticalPath alone = *CriticalPathOfStep(model, analyses, analyses.ranks[0].group);
    CHECK(alone.boundNs[static_cast<size_t>(BoundKind::kCommunication)] == 5'500'000);

    int status = -1;
    const std::string text = test::RunCommand(
        std::string(MAREY_BINARY) + " critical-path " + a + " " + b + " 2>&1", &status);
    CHECK(status == 0);
    CHECK(text.find("rank 1 arrived last at pg 0 allreduce seq 1, 5.000 ms after the first of "
                    "its 2 ranks; every other rank waited for it; before it, its path held "
                    "gemm 6.000 ms (compute)") != std::string::npos);
    const std::string json = test::RunCommand(
        std::string(MAREY_BINARY) + " critical-path " + a + " " + b + " --json", &status);
    CHECK(json.find("\"ranks_visited\": [1, 0], \"collectives\": [{\"name\": \"pg 0 allreduce "
                    "seq 1\", \"last_rank\": 1, \"late_by_ns\": 5000000") != std::string::npos);
}

TEST_CASE("across the real Level1 ranks the path joins their HCCL all-reduce") {
    const std::string fixtures = test::FixturesDir();
    if (fixtures.empty()) return;
    const std::string level1 = fixtures + "/msinsight/test/data/pytorch/text/level1/";
    auto loaded = LoadRanksTimeline({level1 + "rank0_ascend_pt", level1 + "rank1_ascend_pt"},
                                    RanksTimelineOptions{});
    REQUIRE(loaded.ok());
    const TraceModel& model = *loaded.value().model;
    const TraceAnalyses analyses = AnalyzeTrace(model, TraceAnalysisOptions{});
    const std::optional<CriticalPath> path = CriticalPathAcrossRanks(model, analyses, "50");
    REQUIRE(path);
    // Rank 1 reaches the step's first all-reduce 3.493 ms after rank 0: the path starts on
    // rank 1 and crosses to rank 0 there.
    REQUIRE_FALSE(path->collectives.empty());
    const PathCollective& first = path->collectives.front();
    CHECK(first.name == "hcom_allReduce__586_0_1");
    CHECK(analyses.ranks[first.lateGroup].rank == 1);
    CHECK(first.lateByNs > 3'400'000);
    CHECK(first.lateByNs < 3'600'000);
    REQUIRE(path->groups.size() == 2);
    CHECK(analyses.ranks[path->groups[0]].rank == 1);
    CHECK(path->lengthNs <= path->endNs - path->startNs);
}

TEST_CASE("a cluster folder's ranks by id: one step's path across them") {
    const std::filesystem::path dir = test::TempDir("critical_path_cluster");
    REQUIRE(std::system((std::string(MAREY_GEN) + " --cluster " + dir.string() +
                         " --ranks 4 --steps 3 --slow-rank 2 2>/dev/null")
                            .c_str()) == 0);
    int status = -1;
    const std::string text = test::RunCommand(
        std::string(MAREY_BINARY) + " critical-path " + dir.string() + " --ranks 0-3 2>&1",
        &status);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
    CHECK(text.rfind("across 4 ranks: critical path of step ", 0) == 0);
    const std::string missing = test::RunCommand(
        std::string(MAREY_BINARY) + " critical-path " + dir.string() + " --ranks 7 2>&1", &status);
    CHECK(WEXITSTATUS(status) == 2);
    CHECK(missing.find("no rank folder of rank 7") != std::string::npos);
    std::filesystem::remove_all(dir);
}
