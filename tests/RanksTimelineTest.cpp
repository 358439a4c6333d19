// Several ranks in one timeline: merging models (names, times, flows, files of each rank),
// aligning the ranks on a step, and the rank lists of --ranks.
#include <doctest/doctest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "ClusterGenerator.hpp"
#include "TestSupport.hpp"
#include "TraceGenerator.hpp"
#include "load/EventDetails.hpp"
#include "loading/RanksTimeline.hpp"
#include "model/MergeRankModels.hpp"

using namespace marey;
namespace fs = std::filesystem;

namespace {

const char* kRankA = R"([
{"ph": "M", "name": "process_name", "pid": 1, "args": {"name": "Python"}},
{"ph": "X", "name": "alpha", "pid": 1, "tid": 1, "ts": 10, "dur": 5, "args": {"k": "a"}},
{"ph": "s", "name": "f", "cat": "c", "id": 1, "pid": 1, "tid": 1, "ts": 11},
{"ph": "X", "name": "beta", "pid": 1, "tid": 2, "ts": 19, "dur": 3},
{"ph": "f", "name": "f", "cat": "c", "id": 1, "pid": 1, "tid": 2, "ts": 20, "bp": "e"},
{"ph": "C", "name": "mem", "pid": 1, "ts": 12, "args": {"v": 3}},
{"ph": "B", "name": "open", "pid": 1, "tid": 3, "ts": 30}
])";

const char* kRankB = R"([
{"ph": "M", "name": "process_name", "pid": 7, "args": {"name": "Device"}},
{"ph": "X", "name": "gamma", "pid": 7, "tid": 1, "ts": 100, "dur": 10, "args": {"k": "b"}},
{"ph": "X", "name": "alpha", "pid": 7, "tid": 2, "ts": 120, "dur": 1},
{"ph": "s", "name": "g", "cat": "d", "id": 5, "pid": 7, "tid": 1, "ts": 60},
{"ph": "f", "name": "g", "cat": "d", "id": 5, "pid": 7, "tid": 2, "ts": 120, "bp": "e"}
])";

// The track of 'model' whose first slice is named 'name'.
uint32_t TrackOf(const TraceModel& model, std::string_view name) {
    for (uint32_t t = 0; t < model.tracks.size(); ++t)
        if (!model.tracks[t].rows.empty() && model.Name(model.tracks[t].rows[0].name[0]) == name)
            return t;
    FAIL("no track starts with " << name);
    return 0;
}

std::string Arg(const EventDetails& details, const std::string& key) {
    for (const auto& [k, v] : details.args)
        if (k == key) return v;
    return "";
}

// A trace of one rank whose ProfilerStep#N slices start at the given µs.
std::string StepTrace(const std::vector<std::pair<int, int>>& stepStartsUs) {
    std::string json =
        R"([{"ph": "M", "name": "process_name", "pid": 1, "args": {"name": "Python"}})";
    for (const auto& [step, startUs] : stepStartsUs)
        json += ",\n{\"ph\": \"X\", \"name\": \"ProfilerStep#" + std::to_string(step) +
                "\", \"pid\": 1, \"tid\": 1, \"ts\": " + std::to_string(startUs) + ", \"dur\": 90}";
    return json + "]";
}

void Write(const fs::path& path, const std::string& text) {
    std::ofstream(path) << text;
}

std::string Generated(const GeneratorOptions& options) {
    return test::WrittenText([&](std::FILE* out) { GenerateTrace(options, out); });
}

}  // namespace

TEST_CASE(
    "merged ranks keep each rank's processes in a group of its own, with names, times and flows "
    "moved over") {
    std::vector<RankModelPart> parts;
    parts.push_back({"rank 0", "its own clock", test::LoadJson(kRankA), 0});
    parts.push_back({"rank 1", "step 1 aligned", test::LoadJson(kRankB), -50000});
    const uint64_t eventsA = parts[0].model->report.eventCount,
                   eventsB = parts[1].model->report.eventCount;
    const auto merged = MergeRankModels(std::move(parts), 2);

    REQUIRE(merged->groups.size() == 2);
    CHECK(merged->groups[0].label == "rank 0");
    CHECK(merged->groups[1].note == "step 1 aligned");
    CHECK(merged->groups[1].shiftNs == -50000);
    REQUIRE(merged->processes.size() == 2);
    CHECK(merged->ProcessLabel(0) == "Python (1)");
    CHECK(merged->ProcessLabel(1) == "Device (7)");
    CHECK(merged->processes[0].group == 0);
    CHECK(merged->processes[1].group == 1);
    for (const uint32_t t : merged->processes[1].tracks) CHECK(merged->tracks[t].process == 1);

    // Times of rank 1 are moved by its shift; rank 0 keeps its own.
    const uint32_t gamma = TrackOf(*merged, "gamma");
    CHECK(merged->GroupOf(gamma) == 1);
    CHECK(merged->tracks[gamma].rows[0].start[0] == 50000);
    CHECK(merged->tracks[gamma].rows[0].end[0] == 60000);
    const uint32_t alpha = TrackOf(*merged, "alpha");
    CHECK(merged->GroupOf(alpha) == 0);
    CHECK(merged->tracks[alpha].rows[0].start[0] == 10000);
    CHECK(merged->firstNs == 10000);
    CHECK(
        merged->lastNs ==
        71000);  // rank 1's alpha ends at 121 µs, 50 µs earlier; rank 0's open slice ends at 30 µs
    // One pool: a name both ranks use is one string.
    const uint32_t alphaB = merged->processes[1].tracks[1];
    CHECK(merged->tracks[alphaB].rows[0].name[0] == merged->tracks[alpha].rows[0].name[0]);

    // Each slice's args are read from its own rank's file.
    CHECK(Arg(ReadEventDetails(merged->TextOf(gamma), merged->tracks[gamma].rows[0].Ref(0)), "k") ==
          "b");
    CHECK(Arg(ReadEventDetails(merged->TextOf(alpha), merged->tracks[alpha].rows[0].Ref(0)), "k") ==
          "a");
    CHECK(merged->PathOf(gamma) == merged->sources[1].path);

    // Flows point at the moved tracks and stay sorted by start.
    REQUIRE(merged->flows.size() == 2);
    CHECK(merged->flows[0].fromTs == 10000);  // rank 1's, at 60 µs - 50 µs
    CHECK(merged->GroupOf(merged->FlowFromTrack(merged->flows[0])) == 1);
    CHECK(merged->GroupOf(merged->FlowToTrack(merged->flows[0])) == 1);
    CHECK(merged->Name(merged->FlowCategory(merged->flows[0])) == "d");
    CHECK(merged->flows[1].fromTs == 11000);
    CHECK(merged->GroupOf(merged->FlowToTrack(merged->flows[1])) == 0);

    // Counters, unfinished slices and counts come along.
    uint64_t samples = 0;
    for (const Track& track : merged->tracks) samples += track.counterTs.size();
    CHECK(samples == 1);
    REQUIRE(merged->unfinished.size() == 1);
    CHECK(merged->GroupOf(merged->unfinished[0].track) == 0);
    CHECK(merged->report.eventCount == eventsA + eventsB);
    CHECK(merged->groups[1].report.eventCount == eventsB);
}

TEST_CASE(
    "ranks are aligned on the first step they share, on a chosen step, or left on their clocks") {
    const fs::path dir = test::TempDir("ranks_align");
    Write(dir / "a.json", StepTrace({{1, 1000}, {2, 2100}}));
    Write(dir / "b.json", StepTrace({{1, 5000}, {2, 6000}, {3, 7000}}));
    const std::vector<std::string> paths = {(dir / "a.json").string(), (dir / "b.json").string()};
    RanksTimelineOptions options;

    SUBCASE("the first step every rank marks, by default") {
        auto loaded = LoadRanksTimeline(paths, options);
        REQUIRE_MESSAGE(loaded.ok(), loaded.message());
        const RanksTimeline& timeline = loaded.value();
        CHECK(timeline.steps == std::vector<std::string>{"1", "2"});
        CHECK(timeline.alignedStep == "1");
        CHECK(timeline.model->groups[0].label == "a.json");
        CHECK(timeline.model->groups[0].shiftNs == 0);
        CHECK(timeline.model->groups[1].shiftNs == -4000000);
        CHECK(timeline.model->groups[1].note == "step 1 aligned");
    }
    SUBCASE("a chosen step") {
        options.alignStep = "2";
        auto loaded = LoadRanksTimeline(paths, options);
        REQUIRE(loaded.ok());
        CHECK(loaded.value().model->groups[1].shiftNs == -3900000);
        CHECK(loaded.value().alignedStartNs ==
              2100000);  // the first rank's step 2, which keeps its clock
        CHECK(loaded.value().alignedEndNs == 2190000);
        // The step's slices now start together.
        const TraceModel& model = *loaded.value().model;
        CHECK(model.tracks[model.processes[0].tracks[0]].rows[0].start[1] ==
              model.tracks[model.processes[1].tracks[0]].rows[0].start[1]);
    }
    SUBCASE("a step one rank lacks leaves that rank on its own clock") {
        options.alignStep = "3";
        auto loaded = LoadRanksTimeline(paths, options);
        REQUIRE(loaded.ok());
        CHECK(loaded.value().alignedStep == "3");
        CHECK(loaded.value().model->groups[0].note == "no step 3: its own clock");
        CHECK(loaded.value().model->groups[0].shiftNs == 0);
        CHECK(loaded.value().model->groups[1].shiftNs ==
              0);  // the first rank that has it keeps its clock
    }
    SUBCASE("each rank's own clock") {
        options.alignStep = kAlignOnClock;
        auto loaded = LoadRanksTimeline(paths, options);
        REQUIRE(loaded.ok());
        CHECK(loaded.value().alignedStep.empty());
        CHECK(loaded.value().model->groups[1].shiftNs == 0);
        CHECK(loaded.value().model->groups[1].note == "its own clock");
    }
    fs::remove_all(dir);
}

TEST_CASE("a rank that cannot be read is left out with its message and the others still open") {
    const fs::path dir = test::TempDir("ranks_failure");
    Write(dir / "a.json", StepTrace({{1, 1000}}));
    const std::string missing = (dir / "missing.json").string();
    auto loaded = LoadRanksTimeline({(dir / "a.json").string(), missing}, {});
    REQUIRE(loaded.ok());
    CHECK(loaded.value().model->groups.size() == 1);
    REQUIRE(loaded.value().failures.size() == 1);
    CHECK(loaded.value().failures[0].find(missing) == 0);

    auto none = LoadRanksTimeline({missing}, {});
    REQUIRE_FALSE(none.ok());
    CHECK(none.message().rfind("the rank could not be read\n" + missing, 0) == 0);
    fs::remove_all(dir);
}

TEST_CASE("rank lists take ids and ranges and name what they cannot read") {
    auto ranks = ParseRankList("0-3,7 9");
    REQUIRE(ranks.ok());
    CHECK(ranks.value() == std::vector<int>{0, 1, 2, 3, 7, 9});
    CHECK(ParseRankList("3-1").message() ==
          "ranks: a range from a higher rank id to a lower one at column 1 of \"3-1\"");
    CHECK(ParseRankList("3,3").message() == "ranks: rank 3 named twice at column 3 of \"3,3\"");
    CHECK(ParseRankList("0-2,1").message() == "ranks: rank 1 named twice at column 5 of \"0-2,1\"");
    CHECK(ParseRankList("0-4000000000").message() ==
          "ranks: a rank id past the largest one (16777216) at column 1 of \"0-4000000000\"");
    CHECK(
        ParseRankList("99999999999999999999").message() ==
        "ranks: a rank id past the largest one (16777216) at column 1 of \"99999999999999999999\"");
    CHECK(ParseRankList("0-100000").message() ==
          "ranks: a range of more than 100000 ranks at column 1 of \"0-100000\"");
    CHECK(ParseRankList("0-99999").value().size() == 100000);
    CHECK(ParseRankList("-2").message() ==
          "ranks: expected a rank id or a range like 0-7 at column 1 of \"-2\"");
    CHECK(ParseRankList("-1").message() ==
          "ranks: expected a rank id or a range like 0-7 at column 1 of \"-1\"");
    CHECK(ParseRankList("1,x").message() ==
          "ranks: expected a rank id or a range like 0-7 at column 3 of \"1,x\"");
    CHECK(ParseRankList(" , ").message() == "ranks: no rank id in \" , \"");
}

TEST_CASE("rank ids of a cluster folder become the paths of its rank folders") {
    const fs::path dir = test::TempDir("ranks_cluster");
    ClusterOptions options;
    options.ranks = 4;
    options.steps = 2;
    std::string error;
    REQUIRE_MESSAGE(WriteCluster(options, dir.string(), &error), error);
    auto paths = ResolveRankPaths(dir.string(), {"2-3", "0"});
    REQUIRE_MESSAGE(paths.ok(), paths.message());
    REQUIRE(paths.value().size() == 3);
    CHECK(fs::path(paths.value()[0]).filename() == "rank_2_ascend_pt");
    CHECK(fs::path(paths.value()[2]).filename() == "rank_0_ascend_pt");
    CHECK(ResolveRankPaths(dir.string(), {"5"}).message() ==
          dir.string() + ": error: no rank folder of rank 5 (it has 4 rank folders)");
    CHECK(ResolveRankPaths("", {"x.json"}).value() == std::vector<std::string>{"x.json"});

    // Loaded, each rank is a group named by its rank id, the generated steps lined up.
    auto loaded = LoadRanksTimeline(paths.value(), {});
    REQUIRE(loaded.ok());
    CHECK(loaded.value().model->groups[0].label == "rank 2");
    CHECK(loaded.value().steps == std::vector<std::string>{"1", "2"});
    fs::remove_all(dir);
}

TEST_CASE(
    "the two ranks of the real Level1 run open in one timeline aligned on their shared step") {
    const std::string fixtures = test::FixturesDir();
    if (fixtures.empty()) return;
    const std::string level1 = fixtures + "/msinsight/test/data/pytorch/text/level1/";
    auto loaded = LoadRanksTimeline({level1 + "rank0_ascend_pt", level1 + "rank1_ascend_pt"}, {});
    REQUIRE_MESSAGE(loaded.ok(), loaded.message());
    const TraceModel& model = *loaded.value().model;
    REQUIRE(model.groups.size() == 2);
    CHECK(model.groups[0].label == "rank 0");
    CHECK(model.groups[1].label == "rank 1");
    CHECK(loaded.value().alignedStep == loaded.value().steps.front());
    CHECK(loaded.value().failures.empty());
    // Every process belongs to one of the two ranks, and each rank reads its own file.
    for (const Process& process : model.processes) CHECK(process.group < 2);
    CHECK(model.sources[0].path.find("rank0_ascend_pt") != std::string::npos);
    CHECK(model.sources[1].path.find("rank1_ascend_pt") != std::string::npos);
}

TEST_CASE("one rank merged alone is the model it was, flows, counters and refs included") {
    GeneratorOptions options;
    options.events = 30000;
    options.seed = 7;
    const std::string json = Generated(options);
    std::vector<RankModelPart> parts;
    parts.push_back({"rank 0", "its own clock", test::LoadJson(json), 0});
    const auto merged = MergeRankModels(std::move(parts));
    const auto original = test::LoadJson(json);
    CHECK(test::DumpModel(*merged) == test::DumpModel(*original));
    CHECK(merged->flows.size() == original->flows.size());
    CHECK(merged->firstNs == original->firstNs);
    CHECK(merged->lastNs == original->lastNs);
}

TEST_CASE("a rank whose clock is 5 s ahead lines up to the nanosecond once aligned on a step") {
    const fs::path dir = test::TempDir("ranks_offset");
    GeneratorOptions options;
    options.events = 20000;
    options.seed = 3;
    Write(dir / "a.json", Generated(options));
    options.clockOffsetNs = 5000000000;
    Write(dir / "b.json", Generated(options));
    auto loaded = LoadRanksTimeline({(dir / "a.json").string(), (dir / "b.json").string()}, {});
    REQUIRE_MESSAGE(loaded.ok(), loaded.message());
    const TraceModel& model = *loaded.value().model;
    CHECK(model.groups[1].shiftNs == -5000000000);
    // Same events, same times: every row of rank b equals its twin of rank a.
    size_t rows = 0;
    const auto& tracksA = model.processes[0].tracks;
    for (size_t p = 0; p < model.processes.size(); ++p) {
        if (model.processes[p].group != 1) continue;
        const size_t twin = p - model.processes.size() / 2;
        REQUIRE(model.processes[twin].tracks.size() == model.processes[p].tracks.size());
        for (size_t k = 0; k < model.processes[p].tracks.size(); ++k) {
            const Track& a = model.tracks[model.processes[twin].tracks[k]];
            const Track& b = model.tracks[model.processes[p].tracks[k]];
            REQUIRE(a.rows.size() == b.rows.size());
            for (size_t r = 0; r < a.rows.size(); ++r, ++rows) {
                REQUIRE(a.rows[r].size() == b.rows[r].size());
                CHECK(std::equal(a.rows[r].start.begin(), a.rows[r].start.end(),
                                 b.rows[r].start.begin()));
                CHECK(
                    std::equal(a.rows[r].end.begin(), a.rows[r].end.end(), b.rows[r].end.begin()));
            }
            CHECK(std::equal(a.counterTs.begin(), a.counterTs.end(), b.counterTs.begin(),
                             b.counterTs.end()));
        }
    }
    CHECK(!tracksA.empty());
    CHECK(rows > 4);
    fs::remove_all(dir);
}
