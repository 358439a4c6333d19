// What other tools write that Perfetto accepts: each quirk loads as Perfetto reads it, with the
// exact count and message.
#include <doctest/doctest.h>

#include "TestSupport.hpp"
#include "rank/TraceSummary.hpp"
#include "report/SummaryJson.hpp"

using namespace marey;
using namespace marey::test;

TEST_CASE(
    "a phase longer than one character is read by its first character, with one problem line") {
    auto model = LoadJson(R"([{"ph": "XXX", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": 2}])");
    CHECK(model->sliceCount == 1);
    CHECK(model->report.phases.byChar['X'] == 1);
    CHECK(model->report.phases.other == 0);
    CHECK(ProblemText(*model) ==
          "1:2: phase \"XXX\" is longer than one character; read as 'X', as Perfetto does");
}

TEST_CASE("a trailing empty event {} (JAX/XLA) is skipped without a word") {
    auto model =
        LoadJson(R"([{"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": 2}, { }])");
    CHECK(model->sliceCount == 1);
    CHECK(model->report.problemCount == 0);
    CHECK(model->report.eventCount == 2);
}

TEST_CASE("an event with a pid and no tid belongs to the process's main thread, tid = pid") {
    auto model = LoadJson(R"([{"ph": "X", "name": "outer", "pid": 7, "ts": 1, "dur": 10},
                              {"ph": "X", "name": "inner", "pid": 7, "tid": 7, "ts": 2, "dur": 3}])");
    CHECK(model->report.problemCount == 0);
    REQUIRE(model->tracks.size() == 1);
    const Track& track = model->tracks[0];
    CHECK(track.tid.number == 7);
    REQUIRE(track.rows.size() == 2);  // nested: outer at depth 0, inner at depth 1
    CHECK(model->Name(track.rows[0].name[0]) == "outer");
    CHECK(model->Name(track.rows[1].name[0]) == "inner");
}

TEST_CASE("a B closed by an E of another name is kept as one slice, and said") {
    auto model = LoadJson(R"([{"ph": "B", "name": "load", "pid": 1, "tid": 1, "ts": 1},
                              {"ph": "E", "name": "save", "pid": 1, "tid": 1, "ts": 5},
                              {"ph": "B", "name": "same", "pid": 1, "tid": 1, "ts": 6},
                              {"ph": "E", "name": "same", "pid": 1, "tid": 1, "ts": 7},
                              {"ph": "B", "name": "unnamed end", "pid": 1, "tid": 1, "ts": 8},
                              {"ph": "E", "pid": 1, "tid": 1, "ts": 9}])");
    CHECK(model->sliceCount == 3);
    REQUIRE(model->tracks.size() == 1);
    CHECK(model->Name(model->tracks[0].rows[0].name[0]) == "load");
    CHECK(ProblemText(*model) ==
          "2:31: 'E' named \"save\" closes 'B' named \"load\"; kept as one slice named after the "
          "'B'");
}

TEST_CASE("a comma before an event's closing brace keeps the event, with a message") {
    auto model = LoadJson(R"([{"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": 2, },
                              {"ph": "X", "name": "b", "pid": 1, "tid": 1, "ts": 5, "dur": 2}])");
    CHECK(model->sliceCount == 2);
    CHECK(ProblemText(*model) ==
          "1:2: a comma before a closing '}' or ']'; read as if it were not there");
}

TEST_CASE("raw control characters inside strings keep the event and its text, one message") {
    auto model = LoadJson(
        "[{\"ph\": \"X\", \"name\": \"two\nlines\", \"pid\": 1, \"tid\": 1, \"ts\": 1, \"dur\": "
        "2},\n"
        " {\"ph\": \"X\", \"name\": \"a\ttab\", \"pid\": 1, \"tid\": 1, \"ts\": 5, \"dur\": 2}]");
    CHECK(model->sliceCount == 2);
    REQUIRE(model->tracks.size() == 1);
    CHECK(model->Name(model->tracks[0].rows[0].name[0]) == "two lines");
    CHECK(model->Name(model->tracks[0].rows[0].name[1]) == "a tab");
    CHECK(ProblemText(*model) ==
          "1:2: a raw control character (a newline or a tab) inside a string; read as a space "
          "(further ones in this part of the file are not listed)");
}

TEST_CASE(
    "a slice that never ends reaches the end of the trace, holds what follows, and is counted as "
    "unfinished") {
    auto model = LoadJson(R"([{"ph": "B", "name": "hang", "pid": 1, "tid": 1, "ts": 10},
                              {"ph": "X", "name": "after", "pid": 1, "tid": 1, "ts": 20, "dur": 5},
                              {"ph": "X", "name": "elsewhere", "pid": 2, "tid": 2, "ts": 1, "dur": 99},
                              {"ph": "b", "name": "request", "cat": "net", "id": "7", "pid": 2, "tid": 2, "ts": 30},
                              {"ph": "b", "name": "second", "cat": "net", "id": "8", "pid": 2, "tid": 2, "ts": 40},
                              {"ph": "e", "name": "second", "cat": "net", "id": "8", "pid": 2, "tid": 2, "ts": 50}])");
    CHECK(model->lastNs == 100000);  // the end of "elsewhere": open ends do not count
    REQUIRE(model->unfinished.size() == 2);
    const Track& thread = model->tracks[model->processes[0].tracks[0]];
    REQUIRE(thread.rows.size() == 2);
    CHECK(model->Name(thread.rows[0].name[0]) == "hang");
    CHECK(thread.rows[0].end[0] == model->lastNs);
    CHECK(model->Name(thread.rows[1].name[0]) == "after");  // nested inside the open slice
    CHECK(model->IsUnfinished(model->processes[0].tracks[0], 0, 0));
    CHECK_FALSE(model->IsUnfinished(model->processes[0].tracks[0], 1, 0));
    // The unfinished async request keeps its lane to the end; the finished one takes another.
    bool asyncOpen = false;
    for (const UnfinishedSlice& u : model->unfinished) {
        const Row& row = model->tracks[u.track].rows[u.row];
        CHECK(row.end[u.index] == model->lastNs);
        asyncOpen |= model->Name(row.name[u.index]) == "request";
    }
    CHECK(asyncOpen);
    CHECK(ProblemText(*model) ==
          "1:2: 'B' event without a matching 'E'; drawn to the end of the trace as unfinished\n"
          "4:31: async begin without a matching end; drawn to the end of the trace as unfinished");
}

TEST_CASE("stats counts unfinished slices apart") {
    auto model = LoadJson(R"([{"ph": "B", "name": "hang", "pid": 1, "tid": 1, "ts": 10},
                              {"ph": "X", "name": "done", "pid": 1, "tid": 1, "ts": 20, "dur": 5}])");
    const std::string json = SummaryToJson(*model, Summarize(*model, 20));
    CHECK(json.find("\"slices\": 2, \"overlapping_slices\": 0, \"unfinished_slices\": 1,") !=
          std::string::npos);
}

TEST_CASE(
    "flows of the newer form (bind_id with flow_out / flow_in) join their slices, and are "
    "counted") {
    auto model = LoadJson(R"([
      {"ph": "X", "name": "launch", "pid": 1, "tid": 1, "ts": 10, "dur": 5, "bind_id": 42, "flow_out": true},
      {"ph": "X", "name": "relay", "pid": 1, "tid": 3, "ts": 15, "dur": 2, "bind_id": "42", "flow_in": true, "flow_out": true},
      {"ph": "X", "name": "kernel", "pid": 1, "tid": 2, "ts": 20, "dur": 5, "bind_id": 42, "flow_in": true},
      {"ph": "B", "name": "orphan", "pid": 1, "tid": 1, "ts": 30, "bind_id": "43", "flow_out": true},
      {"ph": "E", "pid": 1, "tid": 1, "ts": 31},
      {"ph": "X", "name": "plain", "pid": 1, "tid": 1, "ts": 40, "dur": 1, "bind_id": 44}])");
    CHECK(model->report.problemCount == 0);
    CHECK(model->sliceCount == 5);
    CHECK(model->report.matchedFlows == 2);         // launch → relay → kernel
    CHECK(model->report.unmatchedFlowEvents == 1);  // the orphan's start
    REQUIRE(model->flows.size() == 2);
    const Flow& first = model->flows[0];
    CHECK(first.fromTs == 10000);
    CHECK(first.toTs == 15000);
    CHECK(model->Name(model->FlowCategory(first)) == "bind_id");
    CHECK(model->flows[1].fromTs == 15000);
    CHECK(model->flows[1].toTs == 20000);
    CHECK(model->tracks[model->FlowFromTrack(first)].tid.number == 1);
    CHECK(model->tracks[model->FlowToTrack(model->flows[1])].tid.number == 2);
}

TEST_CASE(
    "bind_id flows whose keys collide are told apart by their bind_id text, also far into the "
    "event") {
    // The ids of LoaderPhasesTest's collision: their keys agree in every category.
    const std::string farArgs = ", \"args\": {\"pad\": \"" + std::string(70000, 'p') + "\"}";
    auto slice = [](const char* direction, const char* id, int ts, const std::string& before) {
        return std::string("{\"ph\": \"X\", \"name\": \"n\", \"pid\": 1, \"tid\": ") +
               std::to_string(ts) + ", \"ts\": " + std::to_string(ts) + ", \"dur\": 1" + before +
               ", \"bind_id\": \"" + id + "\", \"" + direction + "\": true}";
    };
    const std::string json = "[" + slice("flow_out", "id12187489", 1, "") + ",\n" +
                             slice("flow_out", "id53365378", 2, farArgs) + ",\n" +
                             slice("flow_in", "id53365378", 3, "") + ",\n" +
                             slice("flow_in", "id12187489", 4, farArgs) + "]";
    auto model = LoadJson(json);
    CHECK(model->report.problemCount == 0);
    CHECK(model->report.unmatchedFlowEvents == 0);
    REQUIRE(model->flows.size() == 2);
    CHECK(model->flows[0].fromTs == 1000);
    CHECK(model->flows[0].toTs == 4000);
    CHECK(model->flows[1].fromTs == 2000);
    CHECK(model->flows[1].toTs == 3000);
    CHECK(DumpModel(*LoadJson(json, 2, 1024)) == DumpModel(*model));
}
