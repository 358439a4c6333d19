#include <doctest/doctest.h>

#include <simdjson.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "KinetoTraceGenerator.hpp"
#include "TestSupport.hpp"

using namespace marey;
using namespace marey::test;

namespace {

std::string Generate(const KinetoTraceOptions& options, KinetoTraceResult* result) {
    return WrittenText([&](std::FILE* out) { *result = GenerateKinetoTrace(options, out); });
}

KinetoTraceOptions ThreeSteps() {
    KinetoTraceOptions options;
    options.steps = 3;
    options.events = 0;
    options.seed = 7;
    options.rank = 3;
    return options;
}

// [SECTION] The trace read back on its own, without the project's loader

// "1712195495505582.988" (µs, as the generator writes them) in ns.
int64_t MicrosToNs(std::string_view text) {
    const size_t dot = text.find('.');
    REQUIRE(dot != std::string_view::npos);
    REQUIRE(text.size() == dot + 4);
    return std::stoll(std::string(text.substr(0, dot))) * 1000 +
           std::stoll(std::string(text.substr(dot + 1)));
}

struct Event {
    std::string ph, cat, name;
    int64_t pid = 0, tid = 0, startNs = 0, durNs = 0;
    int64_t correlation = -1;
};

std::vector<Event> ReadEvents(const std::string& text) {
    simdjson::ondemand::parser parser;
    simdjson::padded_string json(text);
    simdjson::ondemand::document document = parser.iterate(json);
    std::vector<Event> events;
    for (simdjson::ondemand::object object : document["traceEvents"].get_array()) {
        Event event;
        for (auto field : object) {
            const std::string_view key = field.unescaped_key();
            simdjson::ondemand::value value = field.value();
            if (key == "ph") event.ph = std::string_view(value.get_string());
            if (key == "cat") event.cat = std::string_view(value.get_string());
            if (key == "name") event.name = std::string_view(value.get_string());
            if (key == "pid") event.pid = value.get_int64();
            if (key == "tid") event.tid = value.get_int64();
            if (key == "ts") event.startNs = MicrosToNs(value.raw_json_token());
            if (key == "dur") event.durNs = MicrosToNs(value.raw_json_token());
            if (key == "args" && (event.cat == "kernel" || event.cat == "gpu_memcpy" ||
                                  event.cat == "gpu_memset" || event.cat == "cuda_runtime")) {
                for (auto arg : value.get_object())
                    if (std::string_view(arg.unescaped_key()) == "correlation")
                        event.correlation = arg.value().get_int64();
            }
        }
        events.push_back(event);
    }
    return events;
}

struct Activity {
    unsigned classBit = 0;
    int64_t tid = 0, startNs = 0, endNs = 0;
    int64_t launchStartNs = 0, launchEndNs = 0;
};

// The device activities of the trace with their launches, by step number, by the definitions of
// docs/trace-analyses.md.
std::map<uint64_t, std::vector<Activity>> ActivitiesBySteps(const std::vector<Event>& events) {
    std::map<int64_t, std::pair<int64_t, int64_t>> launches;
    std::vector<std::pair<uint64_t, std::pair<int64_t, int64_t>>> steps;
    for (const Event& e : events) {
        if (e.cat == "cuda_runtime" &&
            (e.name == "cudaLaunchKernel" || e.name == "cudaMemcpyAsync" ||
             e.name == "cudaMemsetAsync" || e.name == "cudaGraphLaunch"))
            launches[e.correlation] = {e.startNs, e.startNs + e.durNs};
        if (e.name.rfind("ProfilerStep#", 0) == 0)
            steps.push_back({std::stoull(e.name.substr(13)), {e.startNs, e.startNs + e.durNs}});
    }
    std::map<uint64_t, std::vector<Activity>> bySteps;
    for (const Event& e : events) {
        if (e.ph != "X" || (e.cat != "kernel" && e.cat != "gpu_memcpy" && e.cat != "gpu_memset"))
            continue;
        Activity a;
        a.classBit = e.cat != "kernel"                          ? kKinetoMemory
                     : e.name.find("nccl") != std::string::npos ? kKinetoCommunication
                                                                : kKinetoComputation;
        a.tid = e.tid;
        a.startNs = e.startNs;
        a.endNs = e.startNs + e.durNs;
        REQUIRE(launches.count(e.correlation) == 1);
        std::tie(a.launchStartNs, a.launchEndNs) = launches[e.correlation];
        uint64_t step = 0;
        for (const auto& [number, span] : steps)
            if (a.launchStartNs >= span.first && a.launchStartNs < span.second) step = number;
        REQUIRE(step != 0);
        bySteps[step].push_back(a);
    }
    return bySteps;
}

int64_t UnionNs(std::vector<std::pair<int64_t, int64_t>> spans) {
    std::sort(spans.begin(), spans.end());
    int64_t total = 0, end = INT64_MIN;
    for (const auto& [s, e] : spans) {
        if (e <= end) continue;
        total += e - std::max(s, end);
        end = e;
    }
    return total;
}

// Checks one step's (or the rank's) expected figures against its activities, recomputed the
// slow and plain way: elementary segments between every start and end.
void CheckFigures(const KinetoFigures& expected, std::vector<Activity> activities) {
    std::sort(activities.begin(), activities.end(),
              [](const Activity& a, const Activity& b) { return a.startNs < b.startNs; });
    std::vector<int64_t> bounds;
    for (const Activity& a : activities) bounds.insert(bounds.end(), {a.startNs, a.endNs});
    std::sort(bounds.begin(), bounds.end());
    bounds.erase(std::unique(bounds.begin(), bounds.end()), bounds.end());
    std::array<int64_t, 8> sets{};
    for (size_t i = 0; i + 1 < bounds.size(); ++i) {
        unsigned mask = 0;
        for (const Activity& a : activities)
            if (a.startNs <= bounds[i] && a.endNs >= bounds[i + 1]) mask |= a.classBit;
        sets[mask] += bounds[i + 1] - bounds[i];
    }
    const int64_t span = bounds.back() - bounds.front();
    CHECK(expected.firstStartNs == bounds.front());
    CHECK(expected.lastEndNs == bounds.back());
    CHECK(expected.spanNs == span);
    CHECK(expected.idleNs == sets[0]);
    for (unsigned set = 1; set < 8; ++set) CHECK(expected.classSetNs[set] == sets[set]);
    std::vector<std::pair<int64_t, int64_t>> compute, communication;
    for (const Activity& a : activities) {
        if (a.classBit == kKinetoComputation) compute.push_back({a.startNs, a.endNs});
        if (a.classBit == kKinetoCommunication) communication.push_back({a.startNs, a.endNs});
    }
    CHECK(expected.computeNs == UnionNs(compute));
    CHECK(expected.communicationNs == UnionNs(communication));
    CHECK(expected.overlappedCommunicationNs == sets[3] + sets[7]);
    uint64_t shortKernels = 0, runtimeOutliers = 0, delayOutliers = 0;
    for (const Activity& a : activities) {
        const int64_t cpu = a.launchEndNs - a.launchStartNs, gpu = a.endNs - a.startNs;
        shortKernels += gpu < cpu && cpu <= 50000;
        runtimeOutliers += cpu > 50000;
        delayOutliers += a.startNs - a.launchEndNs > 100000;
    }
    CHECK(expected.launches == activities.size());
    CHECK(expected.shortKernels == shortKernels);
    CHECK(expected.runtimeOutliers == runtimeOutliers);
    CHECK(expected.launchDelayOutliers == delayOutliers);
    for (const KinetoStreamFigures& stream : expected.streams) {
        CAPTURE(stream.name);
        KinetoGaps host, kernel, other;
        std::vector<std::pair<int64_t, int>> queueSteps;
        int64_t latestEnd = INT64_MIN, firstLaunch = INT64_MAX, area = 0;
        for (const Activity& a : activities) {
            if (a.tid != stream.stream) continue;
            // No gap before a stream's first activity (and no subtraction from INT64_MIN).
            const int64_t gap = latestEnd == INT64_MIN ? 0 : a.startNs - latestEnd;
            if (gap > 0) {
                KinetoGaps& kind = a.launchStartNs > latestEnd ? host
                                   : gap < 30000               ? kernel
                                                               : other;
                kind.minNs = kind.count ? std::min(kind.minNs, gap) : gap;
                kind.maxNs = std::max(kind.maxNs, gap);
                kind.ns += gap;
                ++kind.count;
            }
            latestEnd = std::max(latestEnd, a.endNs);
            firstLaunch = std::min(firstLaunch, a.launchStartNs);
            area += a.endNs - a.launchStartNs;
            queueSteps.push_back({a.launchStartNs, +1});
            queueSteps.push_back({a.endNs, -1});
        }
        std::sort(queueSteps.begin(), queueSteps.end());
        int depth = 0, maxDepth = 0;
        for (const auto& [t, change] : queueSteps) maxDepth = std::max(maxDepth, depth += change);
        for (const auto& [planted, found] : {std::pair{stream.hostWait, host},
                                             {stream.kernelWait, kernel},
                                             {stream.other, other}}) {
            CHECK(planted.ns == found.ns);
            CHECK(planted.count == found.count);
            CHECK(planted.minNs == found.minNs);
            CHECK(planted.maxNs == found.maxNs);
        }
        CHECK(stream.queueMax == static_cast<uint64_t>(maxDepth));
        CHECK(stream.queueAreaNs == area);
        CHECK(stream.queueWindowNs == latestEnd - firstLaunch);
    }
}

// The figures that hold for every step and for the rank, whatever the draws.
void CheckConsistent(const KinetoFigures& f) {
    CHECK(f.spanNs == f.lastEndNs - f.firstStartNs);
    CHECK(f.idleNs + f.computeNs + f.nonComputeNs == f.spanNs);
    int64_t busy = 0;
    for (int64_t ns : f.classSetNs) busy += ns;
    CHECK(busy == f.busyNs);
    CHECK(f.busyNs + f.idleNs == f.spanNs);
    CHECK(f.computeNs == f.classSetNs[1] + f.classSetNs[3] + f.classSetNs[5] + f.classSetNs[7]);
    CHECK(f.communicationNs ==
          f.classSetNs[2] + f.classSetNs[3] + f.classSetNs[6] + f.classSetNs[7]);
    CHECK(f.overlappedCommunicationNs == f.classSetNs[3] + f.classSetNs[7]);
    // Planted: computation alone, communication alone, both, memory alone, memory with
    // computation.
    for (unsigned set : {1u, 2u, 3u, 4u, 5u}) CHECK(f.classSetNs[set] > 0);
    REQUIRE(f.OverlapPct().has_value());
    CHECK(*f.OverlapPct() > 0.0);
    CHECK(*f.OverlapPct() < 100.0);
    CHECK(f.shortKernels > 0);
    CHECK(f.runtimeOutliers > 0);
    CHECK(f.launchDelayOutliers > 0);
    REQUIRE(f.streams.size() == 2);
    CHECK(f.streams[0].name == "stream 7");
    CHECK(f.streams[1].name == "stream 20");
    for (const KinetoStreamFigures& stream : f.streams) {
        CAPTURE(stream.name);
        CHECK(stream.hostWait.ns > 0);
        CHECK(stream.kernelWait.ns > 0);
        CHECK(stream.other.ns > 0);
        CHECK(stream.kernelWait.maxNs < kKinetoIdleThresholdNs);
        CHECK(stream.other.minNs >= kKinetoIdleThresholdNs);
        CHECK(stream.queueMax >= 3);
        CHECK(stream.QueueMean() > 0.0);
    }
}

}  // namespace

TEST_CASE("a generated Kineto trace is deterministic and loads with no problems") {
    KinetoTraceResult result, again;
    const std::string text = Generate(ThreeSteps(), &result);
    CHECK(Generate(ThreeSteps(), &again).size() == text.size());
    CHECK(Generate(ThreeSteps(), &again) == text);
    auto model = LoadJson(text, 2, 64 * 1024);
    CHECK(model->report.problemCount == 0);
    CHECK(ProblemText(*model) == "");
    CHECK(model->report.eventCount == result.report.events);
    CHECK(model->sliceCount == result.report.slices);
    CHECK(model->report.matchedFlows == result.report.flowArrows);
    CHECK(model->report.phases.byChar['X'] == result.report.byPhase['X']);
    CHECK(model->report.phases.byChar['M'] == result.report.byPhase['M']);
    CHECK(model->firstNs == result.report.firstNs);
    CHECK(model->lastNs == result.report.lastNs);
    // Host slices nest (step, annotation, cpu_op, call) and annotations hold their kernels.
    for (const Track& track : model->tracks) CHECK(track.overlapSliceCount == 0);
    CHECK(result.expected.steps.size() == 3);
    CHECK(result.expected.rank == 3);
}

TEST_CASE("the Kineto generator writes about as many events as asked for") {
    KinetoTraceOptions options;
    options.events = 20000;
    KinetoTraceResult result;
    Generate(options, &result);
    CHECK(result.report.events >= 20000);
    CHECK(result.report.events < 20000 + 200);
    SUBCASE("and sizes its steps when the number of steps is given too") {
        options.steps = 4;
        Generate(options, &result);
        CHECK(result.expected.steps.size() == 4);
        CHECK(result.report.events > 20000 - 4 * 5);
        CHECK(result.report.events < 20000 + 4 * 5 + 20);
        CHECK(result.expected.total.launches > 4 * 600);
    }
}

TEST_CASE("the expected figures of a generated Kineto trace add up") {
    KinetoTraceResult result;
    Generate(ThreeSteps(), &result);
    const KinetoExpected& expected = result.expected;
    CheckConsistent(expected.total);
    KinetoFigures sum;
    uint64_t hostWaits = 0;
    for (const KinetoStepFigures& step : expected.steps) {
        CAPTURE(step.step);
        CheckConsistent(step.figures);
        for (size_t set = 0; set < 8; ++set) sum.classSetNs[set] += step.figures.classSetNs[set];
        sum.computeNs += step.figures.computeNs;
        sum.idleNs += step.figures.idleNs;
        sum.launches += step.figures.launches;
        hostWaits += step.figures.streams[0].hostWait.count;
        CHECK(step.figures.streams[0].queueMax == 6);
        CHECK(step.figures.streams[1].queueMax == 3);
    }
    CHECK(expected.steps.front().step == 1);
    CHECK(expected.steps.back().step == 3);
    CHECK(sum.classSetNs == expected.total.classSetNs);
    CHECK(sum.computeNs == expected.total.computeNs);
    CHECK(sum.launches == expected.total.launches);
    // Between steps nothing runs and the next step's first copy waits for the host.
    CHECK(sum.idleNs < expected.total.idleNs);
    CHECK(expected.total.streams[0].hostWait.count == hostWaits + 2);
}

TEST_CASE("the expected figures match the events the Kineto generator wrote") {
    KinetoTraceOptions options = ThreeSteps();
    KinetoTraceResult result;
    std::vector<Event> events;
    // The plan's margins hold whatever the draws: a few seeds and ranks.
    for (const auto& [seed, rank] : {std::pair{7u, 3u}, {1u, 0u}, {12u, 9u}}) {
        CAPTURE(seed);
        options.seed = seed;
        options.rank = rank;
        const std::string text = Generate(options, &result);
        events = ReadEvents(text);
        REQUIRE(events.size() == result.report.events);
        const auto bySteps = ActivitiesBySteps(events);
        REQUIRE(bySteps.size() == result.expected.steps.size());
        std::vector<Activity> all;
        for (const KinetoStepFigures& step : result.expected.steps) {
            CAPTURE(step.step);
            REQUIRE(bySteps.count(step.step) == 1);
            CheckFigures(step.figures, bySteps.at(step.step));
            all.insert(all.end(), bySteps.at(step.step).begin(), bySteps.at(step.step).end());
        }
        CheckFigures(result.expected.total, all);
    }

    // What must not count: annotations on the streams, synchronisation records, and the graph
    // launch's three kernels share one correlation.
    size_t annotations = 0, syncs = 0;
    std::map<int64_t, int> kernelsByCorrelation;
    int64_t graphCorrelation = -1;
    for (const Event& e : events) {
        annotations += e.cat == "gpu_user_annotation";
        syncs += e.cat == "cuda_sync";
        if (e.cat == "kernel") ++kernelsByCorrelation[e.correlation];
        if (e.name == "cudaGraphLaunch" && graphCorrelation < 0) graphCorrelation = e.correlation;
    }
    CHECK(annotations == 4 * 3);
    CHECK(syncs == 2 * 3);
    CHECK(kernelsByCorrelation[graphCorrelation] == 3);
}

TEST_CASE("marey-gen --gpu-trace writes the trace of the asked rank and steps") {
    const std::filesystem::path dir = TempDir("kineto_gen");
    const std::string path = (dir / "rank-2.json").string();
    int status = -1;
    RunCommand(
        std::string(MAREY_GEN) + " --gpu-trace " + path + " --steps 2 --rank 2 --seed 9 2>&1",
        &status);
    REQUIRE(status == 0);
    KinetoTraceOptions options;
    options.steps = 2;
    options.events = 0;
    options.rank = 2;
    options.seed = 9;
    KinetoTraceResult result;
    const std::string text = Generate(options, &result);
    std::FILE* file = std::fopen(path.c_str(), "rb");
    REQUIRE(file != nullptr);
    std::string written(text.size() + 1, '\0');
    written.resize(std::fread(written.data(), 1, written.size(), file));
    std::fclose(file);
    CHECK(written == text);
    CHECK(written.find("\"distributedInfo\": {\"backend\": \"nccl\", \"rank\": 2,") !=
          std::string::npos);
    std::filesystem::remove_all(dir);
}
