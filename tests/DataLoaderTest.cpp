// PyTorch's data loader in a trace: its time per step, the device's idle time inside it, the steps
// that waited on it, and the input-bound finding; on a planted trace and on TensorBoard's
// ResNet-50 sample with num_workers=0.
#include <doctest/doctest.h>

#include "KinetoTraceGenerator.hpp"
#include "TestSupport.hpp"
#include "import/Importer.hpp"
#include "rank/DataLoaderWait.hpp"
#include "rank/DataPreparation.hpp"
#include "report/DataPreparationJson.hpp"

using namespace marey;

namespace {

std::string Event(const char* cat, const std::string& name, int pid, int tid, int ts, int dur) {
    return std::string("{\"ph\": \"X\", \"cat\": \"") + cat + "\", \"name\": \"" + name +
           "\", \"pid\": " + std::to_string(pid) + ", \"tid\": " + std::to_string(tid) +
           ", \"ts\": " + std::to_string(ts) + ", \"dur\": " + std::to_string(dur) +
           (std::string(cat) == "kernel" ? ", \"args\": {\"stream\": 7}" : "") + "}";
}

// Four steps of 100 ms on host thread 10; each starts with a loader call (40, 40, 3, 3 ms) and
// the device's stream 7 runs a kernel from the call's end to 1 ms before the step's end.
std::string PlantedTrace() {
    const int loaderMs[] = {40, 40, 3, 3};
    std::string events =
        "{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": 0, \"tid\": 7, \"args\": {\"name\": "
        "\"stream 7 \"}}";
    for (int s = 0; s < 4; ++s) {
        const int start = 1000 + s * 100000;
        events += "," + Event("user_annotation", "ProfilerStep#" + std::to_string(s + 1), 1, 10,
                              start, 100000);
        events +=
            "," + Event("cpu_op", "enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__",
                        1, 10, start + 10, loaderMs[s] * 1000);
        const int kernelStart = start + 10 + loaderMs[s] * 1000;
        events += "," + Event("kernel", "gemm", 0, 7, kernelStart, start + 99000 - kernelStart);
    }
    return "{\"traceEvents\": [" + events + "]}";
}

}  // namespace

TEST_CASE("the data loader's time, the device idle in it, and the steps that waited on it") {
    std::unique_ptr<TraceModel> model = test::LoadJson(PlantedTrace());
    REQUIRE(model);
    const TraceAnalyses analyses = AnalyzeTrace(*model, {});
    const DataLoaderRecord record = AnalyzeDataLoader(*model, &analyses);
    CHECK(record.iterator == "_MultiProcessingDataLoaderIter");
    REQUIRE(record.steps.size() == 4);
    CHECK(record.steps[0].step == "1");
    CHECK(record.steps[0].loaderNs == 40000000);
    CHECK(record.steps[0].calls == 1);
    CHECK(record.steps[0].deviceIdleNs == 40000000);  // no kernel ran during the call
    CHECK(record.steps[0].firstActivityGapNs == 40010000);
    CHECK(record.steps[0].waited);
    CHECK(record.steps[2].loaderNs == 3000000);
    CHECK_FALSE(record.steps[2].waited);  // 3 ms idle: under 5 % of the step
    CHECK(record.waitedSteps == 2);
    CHECK(record.deviceIdleNs == 86000000);
    CHECK(record.stepsNs == 400000000);
    CHECK(record.inputBound);
    CHECK(record.finding ==
          "input-bound: the device sat idle for 86.000 ms while the data loader ran, 21.5 % of "
          "the steps' time; 2 of 4 steps waited on it. Raise the DataLoader's num_workers or "
          "prefetch_factor, or make each sample's loading and transforms cheaper.");
    // Without the device's activities, the loader's own share decides.
    const DataLoaderRecord hostOnly = AnalyzeDataLoader(*model, nullptr);
    REQUIRE(hostOnly.steps.size() == 4);
    CHECK(hostOnly.steps[0].deviceIdleNs == -1);
    CHECK(hostOnly.deviceIdleNs == -1);
    CHECK(hostOnly.waitedSteps == 2);
    CHECK(hostOnly.inputBound);  // 86 ms of loading in 400 ms
    // A trace without a loader call costs no pass over its slices and finds nothing.
    std::unique_ptr<TraceModel> plain =
        test::LoadJson("{\"traceEvents\": [" + Event("cpu_op", "aten::mm", 1, 10, 0, 5) + "]}");
    CHECK_FALSE(AnalyzeDataLoader(*plain, nullptr).Found());
}

TEST_CASE("TensorBoard's ResNet-50 sample with num_workers=0 is input-bound, step by step") {
    const std::string fixtures = test::FixturesDir();
    if (fixtures.empty()) return;
    const std::string path = fixtures +
                             "/kineto/tb_plugin/samples/resnet50_num_workers_0/"
                             "worker0.1623143089861.pt.trace.json.gz";
    auto importer = ChooseImporter(path);
    REQUIRE(importer.ok());
    auto loaded = importer.value()->loadRank(path, LoadOptions{}, nullptr);
    REQUIRE(loaded.ok());
    const RankAnalysis& analysis = *loaded.value().analysis;
    REQUIRE(analysis.dataPreparation);
    const DataLoaderRecord& loader = analysis.dataPreparation->loader;
    CHECK(loader.iterator == "_SingleProcessDataLoaderIter");
    // Each step's figures as Python computes them from the file (the union of the Kernel,
    // Memcpy and Memset events against the loader's calls), in µs.
    const struct {
        const char* step;
        int64_t stepUs, loaderUs, idleUs, gapUs;
    } expected[] = {{"5", 176078, 68694, 68694, 69076}, {"6", 173992, 68777, 57664, 0},
                    {"7", 176918, 73418, 61218, 0},     {"8", 181259, 71425, 56522, 0},
                    {"9", 176468, 70844, 62634, 0},     {"10", 164261, 62633, 48839, 0}};
    REQUIRE(loader.steps.size() == 6);
    for (size_t i = 0; i < 6; ++i) {
        CAPTURE(i);
        const LoaderStep& step = loader.steps[i];
        CHECK(step.step == expected[i].step);
        CHECK(step.endNs - step.startNs == expected[i].stepUs * 1000);
        CHECK(step.loaderNs == expected[i].loaderUs * 1000);
        CHECK(step.deviceIdleNs == expected[i].idleUs * 1000);
        CHECK(step.firstActivityGapNs == expected[i].gapUs * 1000);
        CHECK(step.waited);
    }
    CHECK(loader.deviceIdleNs == 355571000);  // 33.9 % of the six steps' 1,048,976 µs
    CHECK(loader.inputBound);
    CHECK(loader.finding.find("(num_workers=0)") != std::string::npos);
    const std::string json = DataPreparationToJson(analysis.dataPreparation.get());
    CHECK(json.find("\"data_loader\": {\"iterator\": \"_SingleProcessDataLoaderIter\"") !=
          std::string::npos);
    CHECK(json.find("\"input_bound\": true") != std::string::npos);
}

TEST_CASE(
    "a loader call past its step's end counts up to it, and without ProfilerStep none is judged") {
    const std::string crossing =
        "{\"traceEvents\": [" + Event("user_annotation", "ProfilerStep#1", 1, 10, 0, 100000) + "," +
        Event("user_annotation", "ProfilerStep#2", 1, 10, 100000, 100000) + "," +
        Event("cpu_op", "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", 1, 10, 90000,
              30000) +
        "]}";
    std::unique_ptr<TraceModel> model = test::LoadJson(crossing);
    const DataLoaderRecord record = AnalyzeDataLoader(*model, nullptr);
    REQUIRE(record.steps.size() == 2);
    CHECK(record.steps[0].loaderNs == 10000000);  // 90 to 100 ms of the call
    CHECK(record.steps[1].loaderNs == 0);
    const std::string bare =
        "{\"traceEvents\": [" +
        Event("cpu_op", "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", 1, 10, 0,
              5000) +
        "]}";
    std::unique_ptr<TraceModel> stepless = test::LoadJson(bare);
    const DataLoaderRecord unjudged = AnalyzeDataLoader(*stepless, nullptr);
    CHECK(unjudged.Found());
    CHECK(unjudged.steps.empty());
    CHECK(unjudged.callsOutsideSteps == 1);
    CHECK(unjudged.callsOutsideNs == 5000000);
    CHECK_FALSE(unjudged.inputBound);
}

TEST_CASE("the generator's planted slow data loader is found in exactly its steps") {
    KinetoTraceOptions options;
    options.steps = 10;
    options.events = 20000;
    options.slowLoaderSteps = {3, 7};
    KinetoTraceResult generated;
    const std::string text =
        test::WrittenText([&](std::FILE* out) { generated = GenerateKinetoTrace(options, out); });
    std::unique_ptr<TraceModel> model = test::LoadJson(text);
    REQUIRE(model);
    const TraceAnalyses analyses = AnalyzeTrace(*model, {});
    const DataLoaderRecord record = AnalyzeDataLoader(*model, &analyses);
    REQUIRE(record.steps.size() == generated.expected.loader.size());
    for (size_t i = 0; i < record.steps.size(); ++i) {
        const KinetoLoaderStep& planted = generated.expected.loader[i];
        CAPTURE(planted.step);
        CHECK(record.steps[i].step == std::to_string(planted.step));
        CHECK(record.steps[i].loaderNs == planted.loaderNs);
        CHECK(record.steps[i].deviceIdleNs == planted.loaderNs);  // the device idle throughout
        CHECK(record.steps[i].waited == planted.slow);
    }
    CHECK(record.waitedSteps == 2);
}

TEST_CASE(
    "overlapping ProfilerSteps count each loader call once, in the latest step it starts in") {
    std::string events = Event("user_annotation", "ProfilerStep#1", 1, 10, 0, 300000) + "," +
                         Event("user_annotation", "ProfilerStep#2", 1, 10, 100, 300000);
    for (int i = 0; i < 3; ++i)
        events +=
            "," + Event("cpu_op", "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", 1,
                        10, 1000 + i * 50000, 1000);
    std::unique_ptr<TraceModel> model = test::LoadJson("{\"traceEvents\": [" + events + "]}");
    const DataLoaderRecord record = AnalyzeDataLoader(*model, nullptr);
    REQUIRE(record.steps.size() == 2);
    CHECK(record.steps[0].calls == 0);
    CHECK(record.steps[1].calls == 3);
    CHECK(record.loaderNs == 3000000);
    CHECK(record.callsOutsideSteps == 0);
}
