#include <doctest/doctest.h>

#include <simdjson.h>

#include <cstdio>
#include <memory>

#include "TestSupport.hpp"
#include "TraceGenerator.hpp"

using namespace marey;
using namespace marey::test;

namespace {

std::string Generate(const GeneratorOptions& options, GeneratorReport* report) {
    return WrittenText([&](std::FILE* out) { *report = GenerateTrace(options, out); });
}

std::string Run(const std::string& command) {
    std::string output;
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> pipe(popen(command.c_str(), "r"), pclose);
    char buffer[4096];
    for (size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe.get())) > 0;)
        output.append(buffer, n);
    return output;
}

}  // namespace

TEST_CASE("generated traces are deterministic and load to what the generator wrote") {
    GeneratorOptions options;
    options.events = 20000;
    options.seed = 5;
    GeneratorReport report, again;
    const std::string text = Generate(options, &report);
    CHECK(Generate(options, &again) == text);
    auto model = LoadJson(text, 2, 64 * 1024);
    CHECK(model->report.problemCount == 0);
    CHECK(model->report.eventCount == report.events);
    CHECK(model->sliceCount == report.slices);
    CHECK(model->report.matchedFlows == report.flowArrows);
    CHECK(model->report.phases.byChar['X'] == report.byPhase['X']);
    CHECK(model->firstNs == report.firstNs);
    CHECK(model->lastNs == report.lastNs);
    // Host threads nest: the Python thread has steps, operators and enqueues.
    bool nested = false;
    for (const Track& track : model->tracks) nested |= track.rows.size() >= 3;
    CHECK(nested);
    for (const Track& track : model->tracks) CHECK(track.overlapSliceCount == 0);
}

TEST_CASE("marey stats --json prints the documented keys") {
    GeneratorOptions options;
    options.events = 3000;
    GeneratorReport report;
    const std::string path = "/tmp/marey-stats-test-" + std::to_string(::getpid()) + ".json";
    {
        std::FILE* file = std::fopen(path.c_str(), "wb");
        REQUIRE(file != nullptr);
        report = GenerateTrace(options, file);
        std::fclose(file);
    }
    const std::string json = Run(std::string(MAREY_BINARY) + " stats " + path + " --json");
    std::remove(path.c_str());
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    REQUIRE(parser.parse(json).get(root) == simdjson::SUCCESS);
    CHECK(uint64_t(root["events"]["total"]) == report.events);
    CHECK(uint64_t(root["events"]["by_phase"]["X"]) == report.byPhase['X']);
    CHECK(uint64_t(root["processes"]) == 7);
    CHECK(uint64_t(root["slices"]) == report.slices);
    CHECK(uint64_t(root["flows"]["matched"]) == report.flowArrows);
    CHECK(uint64_t(root["flows"]["unmatched"]) == 0);
    CHECK(root["tracks"].is_uint64());
    CHECK(root["counter_samples"].is_uint64());
    CHECK(root["instants"].is_uint64());
    CHECK(int64_t(root["span_ns"].at(0)) == report.firstNs);
    CHECK(int64_t(root["span_ns"].at(1)) == report.lastNs);
    CHECK(uint64_t(root["problems"]["count"]) == 0);
    CHECK(root["problems"]["first"].is_array());
    simdjson::dom::array top = root["top"];
    CHECK(top.size() == 20);
    int64_t previous = INT64_MAX;
    for (simdjson::dom::element entry : top) {
        CHECK(int64_t(entry["total_ns"]) <= previous);
        previous = int64_t(entry["total_ns"]);
        CHECK(entry["name"].is_string());
        CHECK(entry["count"].is_uint64());
    }
}
