// `stats --hta-compatible`: the figures of HTA 0.5's definitions (docs/hta-compatible.md), each
// worked out by hand below from its rules: the last ProfilerStep dropped, sync events as busy
// time that is not computation, gaps from the previous kernel's end, only CUDA launch calls
// paired, queues that drop at a kernel's start, times rounded inward to whole µs.
#include <doctest/doctest.h>

#include <string>

#include "TestSupport.hpp"
#include "report/TraceAnalysesJson.hpp"
#include "trace/HtaCompatible.hpp"

using namespace marey;

namespace {

// The class names of a combination, as text (they are pointers to literals).
std::vector<std::string> Names(const HtaTypeTime& time) {
    return {time.types.begin(), time.types.end()};
}

std::string Event(const std::string& name, const std::string& cat, int tid, double ts, double dur,
                  const std::string& args) {
    char times[96];
    std::snprintf(times, sizeof times, "\"ts\": %g, \"dur\": %g", ts, dur);
    return "{\"ph\": \"X\", \"name\": \"" + name + "\", \"cat\": \"" + cat +
           "\", \"pid\": 1, \"tid\": " + std::to_string(tid) + ", " + times + ", \"args\": {" +
           args + "}}";
}

std::string Host(const std::string& name, double ts, double dur, int correlation) {
    return Event(name, "cuda_runtime", 1, ts, dur,
                 "\"correlation\": " + std::to_string(correlation));
}

std::string Device(const std::string& name, const std::string& cat, int stream, double ts,
                   double dur, int correlation) {
    return Event(name, cat, 100 + stream, ts, dur,
                 "\"stream\": " + std::to_string(stream) +
                     ", \"correlation\": " + std::to_string(correlation));
}

std::string Trace(const std::string& header, const std::vector<std::string>& events) {
    std::string text = "{" + header + "\"traceEvents\": [";
    for (size_t i = 0; i < events.size(); ++i) text += (i ? ",\n" : "\n") + events[i];
    return text + "]}";
}

}  // namespace

TEST_CASE("HTA's kernel classes come from three name patterns only") {
    CHECK(HtaKernelTypeOf("ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*)") ==
          HtaKernelType::kCommunication);
    CHECK(HtaKernelTypeOf("ncclDevKernel_Generic_4") == HtaKernelType::kCommunication);
    CHECK(HtaKernelTypeOf("rcclKernel_AllReduce") == HtaKernelType::kComputation);
    CHECK(HtaKernelTypeOf("Memcpy HtoD (Pageable -> Device)") == HtaKernelType::kMemory);
    CHECK(HtaKernelTypeOf("Memset (Device)") == HtaKernelType::kMemory);
    CHECK(HtaKernelTypeOf("dma_copy") == HtaKernelType::kMemory);
    CHECK(HtaKernelTypeOf("Stream Sync") == HtaKernelType::kOther);
    CHECK(HtaKernelTypeOf("void cub::DeviceMemcpy::BatchedKernel") == HtaKernelType::kOther);
    CHECK(HtaKernelTypeOf("Stream Wait Event") == HtaKernelType::kComputation);
    CHECK(HtaKernelTypeOf("hipLaunchKernel_gemm") == HtaKernelType::kComputation);
}

TEST_CASE("a trace of two steps read as HTA 0.5 reads it") {
    const std::string text =
        Trace("\"distributedInfo\": {\"backend\": \"nccl\", \"rank\": 3}, ",
              {Event("ProfilerStep#1", "user_annotation", 1, 0, 1000, ""),
               Event("ProfilerStep#2", "user_annotation", 1, 1000, 1000, ""),
               Host("cudaLaunchKernel", 10, 5, 1), Host("cudaLaunchKernel", 20, 60, 2),
               Host("cudaMemcpyAsync", 30, 5, 3), Host("cudaLaunchKernel", 40, 10, 8),
               Host("cudaStreamSynchronize", 490, 40, 4), Host("cudaStreamWaitEvent", 595, 2, 5),
               Host("cudaLaunchKernel", 900, 5, 7), Host("cudaLaunchKernel", 1100, 5, 6),
               Device("gemm", "kernel", 7, 100, 50, 1),
               Device("ncclDevKernel_AllReduce_Sum_f32", "kernel", 8, 120, 100, 2),
               Device("Memcpy HtoD (Pageable -> Device)", "gpu_memcpy", 7, 400, 10, 3),
               Device("Stream Sync", "cuda_sync", 7, 500, 20, 4),
               Device("Stream Wait Event", "cuda_sync", 8, 600, 10, 5),
               Device("tiny", "kernel", 9, 700, 4, 8),
               Device("gemm_of_the_last_step", "kernel", 7, 1200, 50, 6),
               Device("gemm_launched_before_it", "kernel", 7, 1300, 20, 7)});
    const auto model = test::LoadJson(text);
    const HtaAnalysis hta = AnalyzeTraceAsHta(*model);
    REQUIRE(hta.unavailable.empty());
    CHECK(hta.rank == 3);
    CHECK_FALSE(hta.rounded);
    CHECK(hta.lastStepDropped);
    // Kernels (any event with a stream): gemm [100,150], the allreduce [120,220], the copy
    // [400,410], Stream Sync [500,520], Stream Wait Event [600,610], tiny [700,704], and the
    // kernel launched at 900 [1300,1320]; the one launched in the last step is dropped.
    CHECK(hta.spanNs == 1220'000);
    CHECK(hta.idleNs == 1036'000);       // span - (120 + 10 + 20 + 10 + 4 + 20)
    CHECK(hta.computeNs == 84'000);      // gemm, Stream Wait Event, tiny, the last gemm
    CHECK(hta.nonComputeNs == 100'000);  // allreduce alone 70, copy 10, Stream Sync 20
    REQUIRE(hta.overlapPercent);
    CHECK(*hta.overlapPercent == 30.0);    // 30 of the allreduce's 100 under gemm
    REQUIRE(hta.kernelTypes.size() == 4);  // Stream Sync (OTHER) has no type
    CHECK(Names(hta.kernelTypes[0]) == std::vector<std::string>{"communication"});
    CHECK(hta.kernelTypes[0].ns == 70'000);
    CHECK(Names(hta.kernelTypes[1]) == std::vector<std::string>{"computation"});
    CHECK(hta.kernelTypes[1].ns == 54'000);
    CHECK(hta.kernelTypes[2].ns == 30'000);
    CHECK(Names(hta.kernelTypes[3]) == std::vector<std::string>{"memory"});
    // Idle on stream 7 (kernels and copies; not Stream Sync): 150 → 400 is "other" (its launch
    // at 30 came before), 410 → 1300 host wait (launched at 900).
    REQUIRE(hta.idle.size() == 3);
    CHECK(hta.idle[0].stream == 7);
    CHECK(hta.idle[0].hostWaitNs == 890'000);
    CHECK(hta.idle[0].kernelWaitNs == 0);
    CHECK(hta.idle[0].otherNs == 250'000);
    CHECK(hta.idle[1].stream == 8);
    CHECK(hta.idle[1].otherNs == 0);
    // Launch pairs of cudaLaunchKernel and cudaMemcpyAsync: 1, 2, 3, 7, 8 (6 was dropped, the
    // synchronisations are not launch calls).
    CHECK(hta.launch.count == 5);
    CHECK(hta.launch.shortKernels == 1);         // tiny: 4 µs on the device after 10 on the host
    CHECK(hta.launch.runtimeOutliers == 1);      // the 60 µs launch
    CHECK(hta.launch.launchDelayOutliers == 3);  // 365, 395 and 650 µs
    // Stream 7: +1 at 10, +1 at 30, -1 at 100 (gemm starts), -1 at 400, +1 at 900, -1 at 1300.
    REQUIRE(hta.queue.size() == 3);
    CHECK(hta.queue[0].stream == 7);
    CHECK(hta.queue[0].samples == 6);
    CHECK(hta.queue[0].mean == doctest::Approx(5.0 / 6.0));
    CHECK(hta.queue[0].max == 2);
    CHECK(hta.queue[1].mean == doctest::Approx(0.5));
    const std::string json = HtaAnalysisToJson(hta);
    CHECK(json.find("\"definitions\": \"HTA 0.5\"") != std::string::npos);
    CHECK(json.find("\"overlap_pct\": 30,") != std::string::npos);
    CHECK(json.find("\"steps\": []") != std::string::npos);
}

TEST_CASE("fractional µs are rounded inward as HTA does, to empty and negative kernels") {
    // 10.5 + 2 → [11, 12]; 20.2 + 0.5 → [21, 20]: one µs less than nothing.
    const std::string text =
        Trace("\"deviceProperties\": [], \"rank\":4, ",
              {Device("k1", "kernel", 7, 10.5, 2.0, 1), Device("k2", "kernel", 7, 20.2, 0.5, 2)});
    const auto model = test::LoadJson(text);
    const HtaAnalysis hta = AnalyzeTraceAsHta(*model);
    REQUIRE(hta.unavailable.empty());
    CHECK(hta.rank == 0);  // "rank":4 has no space after the colon: HTA's pattern misses it
    CHECK(hta.rounded);
    CHECK_FALSE(hta.lastStepDropped);
    CHECK(hta.spanNs == 9'000);
    CHECK(hta.idleNs == 9'000);
    CHECK(hta.computeNs == 0);
    REQUIRE(hta.idle.size() == 1);
    CHECK(hta.idle[0].kernelWaitNs == 9'000);  // 21 - 12, under 30 µs, no launch
    CHECK_FALSE(hta.overlapPercent);
}

TEST_CASE("a trace without events that have a stream is not available as HTA reads it") {
    const auto model = test::LoadJson(
        Trace("", {Event("aten::mm", "cpu_op", 1, 0, 10, ""), Host("cudaLaunchKernel", 1, 2, 1)}));
    const HtaAnalysis hta = AnalyzeTraceAsHta(*model);
    CHECK(hta.unavailable == "no event with an args \"stream\" (HTA's kernels)");
    CHECK(HtaAnalysisToJson(hta).find("\"available\": false") != std::string::npos);
}
