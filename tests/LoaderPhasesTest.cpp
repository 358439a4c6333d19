#include <doctest/doctest.h>

#include <string>

#include "TestSupport.hpp"

using namespace marey;
using namespace marey::test;

namespace {

const Track* FindTrack(const TraceModel& model, const std::string& label) {
    for (uint32_t t = 0; t < model.tracks.size(); ++t)
        if (model.TrackLabel(t) == label) return &model.tracks[t];
    return nullptr;
}

}  // namespace

TEST_CASE("complete events nest by time into rows, ordered as Perfetto orders JSON") {
    auto model = LoadJson(R"([
      {"ph": "X", "name": "child", "pid": 1, "tid": 2, "ts": 10, "dur": 5},
      {"ph": "X", "name": "parent", "pid": 1, "tid": 2, "ts": 10, "dur": 20},
      {"ph": "X", "name": "grandchild", "pid": 1, "tid": 2, "ts": "11.000", "dur": "1.5"},
      {"ph": "X", "name": "sibling", "pid": 1, "tid": 2, "ts": 30, "dur": 2}])");
    const Track& track = model->tracks[model->processes[0].tracks[0]];
    REQUIRE(track.rows.size() == 3);
    CHECK(model->Name(track.rows[0].name[0]) == "parent");
    CHECK(model->Name(track.rows[0].name[1]) == "sibling");
    CHECK(model->Name(track.rows[1].name[0]) == "child");
    CHECK(track.rows[2].start[0] == 11000);
    CHECK(track.rows[2].end[0] == 12500);
    CHECK(model->sliceCount == 4);
    CHECK(model->firstNs == 10000);
    CHECK(model->lastNs == 32000);
}

TEST_CASE("overlapping slices that do not nest are kept in an extra row and counted") {
    auto model = LoadJson(R"([
      {"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 0, "dur": 10},
      {"ph": "X", "name": "b", "pid": 1, "tid": 1, "ts": 5, "dur": 10}])");
    const Track& track = model->tracks[model->processes[0].tracks[0]];
    REQUIRE(track.rows.size() == 2);
    CHECK(track.rows[1].kind == RowKind::kOverlap);
    CHECK(track.overlapSliceCount == 1);
    CHECK(model->sliceCount == 2);
}

TEST_CASE("B and E match per thread, ends first at equal timestamps") {
    auto model = LoadJson(R"([
      {"ph": "B", "name": "outer", "pid": 1, "tid": 1, "ts": 0},
      {"ph": "B", "name": "inner", "pid": 1, "tid": 1, "ts": 2},
      {"ph": "B", "name": "other thread", "pid": 1, "tid": 9, "ts": 3},
      {"ph": "B", "name": "next", "pid": 1, "tid": 1, "ts": 4},
      {"ph": "E", "pid": 1, "tid": 1, "ts": 4},
      {"ph": "E", "pid": 1, "tid": 9, "ts": 7},
      {"ph": "E", "pid": 1, "tid": 1, "ts": 6},
      {"ph": "E", "pid": 1, "tid": 1, "ts": 8}])");
    const Track* main = FindTrack(*model, "Thread 1");
    REQUIRE(main != nullptr);
    REQUIRE(main->rows.size() == 2);
    REQUIRE(main->rows[1].size() == 2);
    CHECK(model->Name(main->rows[0].name[0]) == "outer");
    CHECK(main->rows[0].end[0] == 8000);
    CHECK(model->Name(main->rows[1].name[0]) == "inner");
    CHECK(main->rows[1].end[0] == 4000);
    CHECK(model->Name(main->rows[1].name[1]) == "next");
    CHECK(main->rows[1].start[1] == 4000);
    CHECK(main->rows[1].end[1] == 6000);
    const Track* other = FindTrack(*model, "Thread 9");
    REQUIRE(other != nullptr);
    CHECK(other->rows[0].end[0] == 7000);
    CHECK(model->report.problemCount == 0);
}

TEST_CASE("instants of every scope, counters per series and metadata names") {
    auto model = LoadJson(R"J({"displayTimeUnit": "ns", "traceEvents": [
      {"ph": "M", "name": "process_name", "pid": 7, "tid": 0, "args": {"name": "Ascend Hardware"}},
      {"ph": "M", "name": "process_labels", "pid": 7, "tid": 0, "args": {"labels": "NPU"}},
      {"name": "thread_name", "pid": 7, "tid": 2, "args": {"name": "Stream 2"}, "ph": "M"},
      {"ph": "i", "name": "mark", "pid": 7, "tid": 2, "ts": 1, "s": "t"},
      {"ph": "I", "name": "global", "pid": 7, "tid": 2, "ts": 2, "s": "g"},
      {"ph": "R", "name": "navigationStart", "pid": 7, "tid": 2, "ts": 3},
      {"ph": "C", "name": "HBM 0", "pid": 7, "tid": 0, "ts": 1, "args": {"Read(MB/s)": 10, "Write(MB/s)": "2.5"}},
      {"ph": "C", "name": "HBM 0", "pid": 7, "tid": 0, "ts": 5, "args": {"Read(MB/s)": 12.5}},
      {"ph": "X", "name": "task", "pid": 7, "tid": 2, "ts": 1, "dur": 1}
    ], "otherData": {"version": "1"}})J");
    REQUIRE(model->processes.size() == 1);
    CHECK(model->ProcessLabel(0) == "Ascend Hardware (7)");
    CHECK(model->Name(model->processes[0].labels) == "NPU");
    const Track* stream = FindTrack(*model, "Stream 2");
    REQUIRE(stream != nullptr);
    CHECK(stream->instantTs.size() == 3);
    const Track* read = FindTrack(*model, "HBM 0 · Read(MB/s)");
    const Track* write = FindTrack(*model, "HBM 0 · Write(MB/s)");
    REQUIRE(read != nullptr);
    REQUIRE(write != nullptr);
    CHECK(read->counterTs.size() == 2);
    CHECK(read->counterValue[1] == 12.5);
    CHECK(write->counterValue[0] == 2.5);
    CHECK(model->counterSampleCount == 3);
    CHECK(model->instantCount == 3);
}

TEST_CASE(
    "flows match by category and id text, ids beyond 2^64 included, one start to many finishes") {
    auto model = LoadJson(R"([
      {"ph": "X", "name": "launch", "pid": 1, "tid": 1, "ts": 0, "dur": 10},
      {"ph": "X", "name": "task", "pid": 2, "tid": 2, "ts": 20, "dur": 10},
      {"ph": "X", "name": "task2", "pid": 2, "tid": 3, "ts": 25, "dur": 10},
      {"name": "HostToDevice40004068119343529983", "ph": "s", "cat": "HostToDevice", "id": "40004068119343529983", "pid": 1, "tid": 1, "ts": "5.000"},
      {"name": "HostToDevice40004068119343529983", "ph": "f", "cat": "HostToDevice", "id": "40004068119343529983", "pid": 2, "tid": 2, "ts": "20.000", "bp": "e"},
      {"name": "HostToDevice40004068119343529983", "ph": "f", "cat": "HostToDevice", "id": "40004068119343529983", "pid": 2, "tid": 3, "ts": "25.000", "bp": "e"},
      {"name": "HostToDevice40004068119343529984", "ph": "f", "cat": "HostToDevice", "id": "40004068119343529984", "pid": 2, "tid": 3, "ts": "26.000", "bp": "e"},
      {"ph": "s", "cat": "async_npu", "id": 1736408883700059821, "name": "torch_to_npu", "pid": 1, "tid": 1, "ts": 6},
      {"ph": "t", "cat": "async_npu", "id": 1736408883700059821, "name": "torch_to_npu", "pid": 2, "tid": 2, "ts": 21},
      {"ph": "f", "cat": "async_npu", "id": 1736408883700059821, "name": "torch_to_npu", "pid": 2, "tid": 3, "ts": 26, "bp": "e"},
      {"ph": "s", "cat": "other", "id": "40004068119343529983", "name": "same id, other category", "pid": 1, "tid": 1, "ts": 7}])");
    CHECK(model->report.matchedFlows == 4);
    CHECK(model->report.unmatchedFlowEvents == 2);
    REQUIRE(model->flows.size() == 4);
    CHECK(model->Name(model->FlowCategory(model->flows[0])) == "HostToDevice");
    CHECK(model->flows[0].fromTs == 5000);
    CHECK(model->flows[0].toTs == 20000);
    CHECK(bool{model->flows[0].toEnclosing});
    CHECK(model->Name(model->FlowCategory(model->flows[2])) == "async_npu");
}

TEST_CASE(
    "flow ids far from their event's start or longer than 255 bytes match, whatever the chunks") {
    const std::string longId(300, 'x');
    const std::string padding(70000, 'p');  // puts the id more than 64 KiB into its event
    auto flow = [](const std::string& ph, const std::string& id, double ts,
                   const std::string& before) {
        return "{\"ph\": \"" + ph +
               "\", \"cat\": \"c\", \"name\": \"n\", \"pid\": 1, \"tid\": 1, \"ts\": " +
               std::to_string(ts) + before + ", \"id\": " + id + ", \"bp\": \"e\"}";
    };
    const std::string farArgs = ", \"args\": {\"pad\": \"" + padding + "\"}";
    const std::string json = "[" + flow("s", "\"" + longId + "\"", 1, "") + ",\n" +
                             flow("f", "\"" + longId + "\"", 2, "") + ",\n" +
                             flow("s", "\"near and far\"", 3, "") + ",\n" +
                             flow("f", "\"near and far\"", 4, farArgs) + ",\n" +
                             flow("s", "\"far only\"", 5, farArgs) + ",\n" + flow("s", "7", 6, "") +
                             ",\n" + flow("f", "\"7\"", 7, farArgs) + "]";
    auto single = LoadJson(json);
    CHECK(single->report.matchedFlows == 3);
    CHECK(single->report.unmatchedFlowEvents == 1);
    CHECK(single->report.problemCount == 0);
    auto parallel = LoadJson(json, 2, 1024);
    CHECK(DumpModel(*parallel) == DumpModel(*single));
}

TEST_CASE(
    "flow ids whose keys collide are told apart by their text, near their event or far from it") {
    // "id12187489" and "id53365378" share their 48-bit matching key in category "c" (found by
    // hashing 2^26 ids): the matcher must read both ids again to pair these four events.
    const std::string farArgs = ", \"args\": {\"pad\": \"" + std::string(70000, 'p') + "\"}";
    auto flow = [](const char* ph, const char* id, int ts, const std::string& before) {
        return std::string("{\"ph\": \"") + ph +
               "\", \"cat\": \"c\", \"name\": \"n\", \"pid\": 1, \"tid\": " + std::to_string(ts) +
               ", \"ts\": " + std::to_string(ts) + before + ", \"id\": \"" + id + "\"}";
    };
    const std::string json =
        "[" + flow("s", "id12187489", 1, "") + ",\n" + flow("s", "id53365378", 2, farArgs) + ",\n" +
        flow("f", "id53365378", 3, "") + ",\n" + flow("f", "id12187489", 4, farArgs) + "]";
    auto single = LoadJson(json);
    CHECK(single->report.problemCount == 0);
    CHECK(single->report.unmatchedFlowEvents == 0);
    REQUIRE(single->flows.size() == 2);
    CHECK(single->flows[0].fromTs == 1000);
    CHECK(single->flows[0].toTs == 4000);
    CHECK(single->flows[1].fromTs == 2000);
    CHECK(single->flows[1].toTs == 3000);
    auto parallel = LoadJson(json, 2, 1024);
    CHECK(DumpModel(*parallel) == DumpModel(*single));
}

TEST_CASE("one flow id with a hundred steps, written out of time order, chains in time order") {
    // One key's events fill one sub-bucket of the matcher's sort far beyond its insertion sort.
    std::string json = "[";
    constexpr int kEvents = 100;
    for (int i = 0; i < kEvents; ++i) {
        const int ts = (i * 37) % kEvents;  // every time once, out of order
        const char* ph = ts == 0 ? "s" : ts == kEvents - 1 ? "f" : "t";
        json += std::string(i ? ",\n" : "") + "{\"ph\": \"" + ph +
                "\", \"cat\": \"c\", \"id\": 5, \"name\": \"n\", \"pid\": 1, \"tid\": " +
                std::to_string(1 + ts % 3) + ", \"ts\": " + std::to_string(ts) + "}";
    }
    json += "]";
    auto single = LoadJson(json);
    CHECK(single->report.matchedFlows == kEvents - 1);
    CHECK(single->report.unmatchedFlowEvents == 0);
    REQUIRE(single->flows.size() == kEvents - 1);
    for (uint32_t i = 0; i < single->flows.size(); ++i) {
        CHECK(single->flows[i].fromTs == i * 1000);
        CHECK(single->flows[i].toTs == (i + 1) * 1000);
    }
    auto parallel = LoadJson(json, 2, 512);
    CHECK(DumpModel(*parallel) == DumpModel(*single));
}

TEST_CASE("async begin and end pair by category and id and are laid out in lanes") {
    auto model = LoadJson(R"([
      {"ph": "b", "cat": "io", "id": "0x1", "name": "read", "pid": 3, "tid": 1, "ts": 0},
      {"ph": "b", "cat": "io", "id": "0x2", "name": "write", "pid": 3, "tid": 2, "ts": 1},
      {"ph": "n", "cat": "io", "id": "0x2", "name": "progress", "pid": 3, "tid": 2, "ts": 2},
      {"ph": "e", "cat": "io", "id": "0x1", "name": "read", "pid": 3, "tid": 1, "ts": 5},
      {"ph": "e", "cat": "io", "id": "0x2", "name": "write", "pid": 3, "tid": 2, "ts": 6},
      {"ph": "b", "cat": "io", "id": "0x3", "name": "later", "pid": 3, "tid": 1, "ts": 7},
      {"ph": "e", "cat": "io", "id": "0x3", "pid": 3, "tid": 1, "ts": 8}])");
    const Track* async = FindTrack(*model, "Async events");
    REQUIRE(async != nullptr);
    REQUIRE(async->rows.size() == 2);
    CHECK(async->rows[0].size() == 2);  // "read" then "later" reuse lane 0
    CHECK(async->rows[1].size() == 1);
    CHECK(async->instantTs.size() == 1);
    CHECK(model->sliceCount == 3);
}

TEST_CASE(
    "pid and tid may be large numbers or strings, and processes may appear only through threads") {
    auto model = LoadJson(R"([
      {"name": "thread_name", "pid": 3089232096, "tid": 3099702, "args": {"name": "Thread 3099702"}, "ph": "M"},
      {"ph": "X", "name": "a", "pid": 3089232096, "tid": 3099702, "ts": 1, "dur": 1},
      {"ph": "X", "name": "b", "pid": "Spans", "tid": "PyTorch Profiler", "ts": 1, "dur": 1},
      {"ph": "X", "name": "c", "pid": 5, "tid": "7", "ts": 1, "dur": 1},
      {"ph": "X", "name": "d", "pid": 5, "tid": 7, "ts": 3, "dur": 1}])");
    REQUIRE(model->processes.size() == 3);
    CHECK(model->ProcessLabel(0) == "Process 5");
    CHECK(model->processes[0].tracks.size() == 1);  // "7" and 7 are one thread
    CHECK(model->ProcessLabel(1) == "Process 3089232096");
    CHECK(model->TrackLabel(model->processes[1].tracks[0]) == "Thread 3099702");
    CHECK(model->ProcessLabel(2) == "Process Spans");
    CHECK(model->TrackLabel(model->processes[2].tracks[0]) == "Thread PyTorch Profiler");
}

TEST_CASE("phases that are not drawn are counted, unknown ones reported") {
    auto model = LoadJson(R"([
      {"ph": "P", "name": "sample", "pid": 1, "tid": 1, "ts": 1},
      {"ph": "O", "name": "object", "pid": 1, "tid": 1, "ts": 1, "id": "1"},
      {"ph": "ZZ", "name": "what", "pid": 1, "tid": 1, "ts": 1},
      {"ph": "", "name": "nothing", "pid": 1, "tid": 1, "ts": 1}])");
    CHECK(model->report.eventCount == 4);
    CHECK(model->report.phases.byChar['P'] == 1);
    CHECK(model->report.phases.byChar['O'] == 1);
    CHECK(model->report.phases.byChar['Z'] == 1);  // read by its first character, as Perfetto does
    CHECK(model->report.phases.other == 1);
    CHECK(ProblemText(*model) ==
          "4:7: phase \"ZZ\" is longer than one character; read as 'Z', as Perfetto does\n"
          "5:7: unknown phase \"\"; event skipped");
}

TEST_CASE("metadata sort indices order processes and threads") {
    auto model = LoadJson(R"([
      {"ph": "M", "name": "process_sort_index", "pid": 1, "tid": 0, "args": {"sort_index": 5}},
      {"ph": "M", "name": "process_sort_index", "pid": 2, "tid": 0, "args": {"sort_index": 1}},
      {"ph": "M", "name": "thread_sort_index", "pid": 1, "tid": 10, "args": {"sort_index": 2}},
      {"ph": "M", "name": "thread_sort_index", "pid": 1, "tid": 20, "args": {"sort_index": 1}},
      {"ph": "M", "name": "process_name", "pid": 1, "tid": 0, "args": {"name": "first name"}},
      {"ph": "M", "name": "process_name", "pid": 1, "tid": 0, "args": {"name": "last name wins"}},
      {"ph": "X", "name": "a", "pid": 1, "tid": 10, "ts": 1, "dur": 1},
      {"ph": "X", "name": "a", "pid": 1, "tid": 20, "ts": 1, "dur": 1},
      {"ph": "X", "name": "a", "pid": 2, "tid": 1, "ts": 1, "dur": 1}])");
    CHECK(model->ProcessLabel(0) == "Process 2");
    CHECK(model->ProcessLabel(1) == "last name wins (1)");
    CHECK(model->tracks[model->processes[1].tracks[0]].tid.number == 20);
}
