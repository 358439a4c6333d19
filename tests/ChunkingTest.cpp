#include <doctest/doctest.h>

#include <random>
#include <span>
#include <string>
#include <utility>

#include "TestSupport.hpp"
#include "load/ChunkDecoder.hpp"
#include "load/RawEvents.hpp"
#include "load/TraceText.hpp"

using namespace marey;
using namespace marey::test;

namespace {

// Events whose strings hold what a naive cutter would take for event boundaries.
std::string TrickyTrace(int events, uint64_t seed) {
    std::mt19937_64 random(seed);
    const char* names[] = {R"(plain)",         R"(quote \" inside)",      R"(}, {\"ph\": \"X\")",
                           R"(bracket ] [ })", R"(escaped backslash \\)", R"(}, {)",
                           R"(unicode \u00e9)"};
    std::string out = "[";
    for (int i = 0; i < events; ++i) {
        if (i) out += i % 3 ? ", " : ",\n";
        const int kind = static_cast<int>(random() % 10);
        const std::string name = names[random() % 7];
        const std::string ts =
            std::to_string(1736408883688177ll + i * 3) + "." + std::to_string(100 + random() % 900);
        const std::string pid = std::to_string(1 + random() % 3),
                          tid = std::to_string(random() % 4);
        if (kind < 6) {
            out += R"({"ph": "X", "name": ")" + name + R"(", "pid": )" + pid + R"(, "tid": )" +
                   tid + R"(, "ts": ")" + ts + R"(", "dur": )" + std::to_string(random() % 5) +
                   R"(, "args": {"list": [{"a": "}, {\"b\": 1}"}, {"b": [1, 2]}]}})";
        } else if (kind < 8) {
            out += R"({"name": "HostToDevice", "ph": ")" + std::string(kind == 6 ? "s" : "f") +
                   R"(", "cat": "HostToDevice", "id": ")" + "4000406811934352" +
                   std::to_string(9000 + i / 2) + R"(", "pid": )" + pid + R"(, "tid": )" + tid +
                   R"(, "ts": ")" + ts + R"("})";
        } else if (kind == 8) {
            out += R"({"ph": "C", "name": "mem", "pid": )" + pid + R"(, "tid": 0, "ts": ")" + ts +
                   R"(", "args": {"KB": )" + std::to_string(random() % 100) + "}}";
        } else {
            out += R"({"ph": ")" + std::string(random() % 2 ? "B" : "E") + R"(", "name": ")" +
                   name + R"(", "pid": )" + pid + R"(, "tid": )" + tid + R"(, "ts": )" + ts + "}";
        }
    }
    return out + "]";
}

}  // namespace

TEST_CASE("parallel chunked loading gives exactly the single-threaded result, event for event") {
    for (uint64_t seed = 1; seed <= 4; ++seed) {
        const std::string array = TrickyTrace(3000, seed);
        // A key after the array hides where it ends from the tail of the file, so that this one
        // chunk is parsed element by element: a reference independent of the whole-chunk parse.
        // The bare array, behind as many spaces as the object's head, keeps every event's offset
        // and lets every chunk, the last included, take the whole-chunk parse.
        const std::string head = R"({"traceEvents":)";
        const std::string object = head + array + R"(, "otherData": {"a": [{}]}})";
        const std::string bare = std::string(head.size(), ' ') + array + "\n";
        const std::string reference = DumpModel(*LoadJson(object, 1, 1ull << 30));
        CHECK(DumpModel(*LoadJson(bare, 1, 1ull << 30)) == reference);
        // Chunks of one run each, and chunks of many runs that simdjson parses one after another.
        const std::pair<uint64_t, uint64_t> sizes[] = {{256, 256},     {1000, 1000},  {4096, 4096},
                                                       {65536, 65536}, {65536, 1000}, {16384, 300}};
        for (const auto& [chunkBytes, runBytes] : sizes) {
            CAPTURE(seed);
            CAPTURE(chunkBytes);
            CAPTURE(runBytes);
            for (const std::string* json : {&object, &bare}) {
                CHECK(DumpModel(*LoadJson(*json, 2, chunkBytes, runBytes)) == reference);
                CHECK(DumpModel(*LoadJson(*json, 4, chunkBytes, runBytes)) == reference);
            }
        }
    }
}

TEST_CASE(
    "flow events of one large chunk, given back in steps while gathered, match as in small "
    "chunks") {
    // 20,000 events hold about 4,000 flow events: one chunk of them spans two steps of 64 KiB of
    // the gather, small chunks none.
    const std::string array = TrickyTrace(20000, 9);
    const std::string reference = DumpModel(*LoadJson(array, 1, 1ull << 30));
    CHECK(reference.find("flow") != std::string::npos);
    CHECK(DumpModel(*LoadJson(array, 2, 65536, 16384)) == reference);
    CHECK(DumpModel(*LoadJson(array, 2, 1ull << 30)) == reference);
}

TEST_CASE("flow arrows merged by all threads come in the order of arrows sorted in place") {
    const std::string array = TrickyTrace(20000, 11);
    LoadOptions options;
    options.threads = 1;
    options.chunkBytes = 1ull << 30;
    const std::string sortedInPlace = DumpModel(*LoadJson(array, options));
    CHECK(sortedInPlace.find("flow") != std::string::npos);
    options.flowSortInPlaceBytes = 0;
    for (unsigned threads : {1u, 2u, 3u}) {
        CAPTURE(threads);
        options.threads = threads;
        options.chunkBytes = 65536;
        CHECK(DumpModel(*LoadJson(array, options)) == sortedInPlace);
    }
}

TEST_CASE("chunked loading of a damaged file reports the same problems as one thread") {
    std::string json = TrickyTrace(2000, 9);
    json[json.size() / 3] = '#';
    json[json.size() / 2] = '"';
    json.resize(json.size() * 9 / 10);
    const std::string reference = DumpModel(*LoadJson(json, 1, 1ull << 30));
    CHECK(DumpModel(*LoadJson(json, 2, 512)) == reference);
    CHECK(DumpModel(*LoadJson(json, 3, 4096)) == reference);
}

TEST_CASE(
    "names stay right when the runs of one chunk are parsed one after another in one buffer") {
    // Names of one length with the same first and last eight bytes, one event per run: each
    // name lies at the same place in the run buffer as the previous run's.
    std::string json = "[";
    for (int i = 0; i < 40; ++i) {
        if (i) json += ",";
        json += R"({"ph": "X", "name": "Prefix__)" +
                std::string(1, static_cast<char>('a' + i % 26)) +
                R"(__Suffix", "pid": 1, "tid": 1, "ts": )" + std::to_string(10 + i * 10) +
                R"(, "dur": 5})";
    }
    json += "]";
    const std::string reference = DumpModel(*LoadJson(json, 1, 1ull << 30));
    CHECK(reference.find("Prefix__b__Suffix") != std::string::npos);
    CHECK(DumpModel(*LoadJson(json, 1, 1ull << 30, 64)) == reference);
    CHECK(DumpModel(*LoadJson(json, 2, 1ull << 30, 64)) == reference);
}

TEST_CASE(
    "the decoder's fast path reads whole runs of events with their places, and gives up on broken "
    "JSON") {
    const std::string json =
        R"([{"ph":"X","name":"a","pid":1,"tid":2,"ts":1,"dur":2},{"ph":"X","name":"b","pid":1,"tid":2,"ts":4,"dur":1}])";
    const TraceText text = TraceText::FromString(json);
    ChunkDecoder decoder(text);
    const EventRun run{1, json.size() - 1};
    ChunkEvents events;
    REQUIRE(decoder.DecodeFast(std::span<const EventRun>(&run, 1), events));
    CHECK(events.eventCount == 2);
    CHECK(events.refBase == 1);
    REQUIRE(events.tracks.size() == 1);
    CHECK(events.tracks[0].pid.number == 1);
    CHECK(events.tracks[0].tid.number == 2);
    REQUIRE(events.tracks[0].slices.size() == 2);
    const ChunkSlice second = events.tracks[0].slices[1];
    CHECK(second.startNs == 4000);
    CHECK(second.durNs == 1000);
    CHECK(second.ref + events.refBase == json.find("},{") + 2);
    CHECK(events.strings.Get(second.name) == "b");

    const std::string broken = R"([{"ph":"X","name":"a" "pid":1,"tid":2,"ts":1,"dur":2})";
    const TraceText brokenText = TraceText::FromString(broken);
    ChunkDecoder brokenDecoder(brokenText);
    const EventRun brokenRun{1, broken.size() - 1};
    ChunkEvents unusable;
    CHECK_FALSE(brokenDecoder.DecodeFast(std::span<const EventRun>(&brokenRun, 1), unusable));
}

TEST_CASE(
    "the decoder's slow path skips what is not an event, says where, and stops at the array's "
    "end") {
    const std::string json =
        R"([{"ph":"X","name":"a","pid":1,"tid":2,"ts":1,"dur":2}, 7, {"ph":"X","name":"b","pid":1,"tid":2,"ts":4,"dur":1}])";
    const TraceText text = TraceText::FromString(json);
    ChunkDecoder decoder(text);
    ChunkEvents events;
    decoder.DecodeSlow(1, json.size(), events);
    CHECK(events.eventCount == 3);
    CHECK(events.reachedArrayEnd);
    CHECK(events.endOffset == json.size() - 1);
    REQUIRE(events.tracks.size() == 1);
    CHECK(events.tracks[0].slices.size() == 2);
    REQUIRE(events.problems.count == 1);
    CHECK(events.problems.kept[0].byteOffset == json.find(" 7") + 1);
    CHECK(events.problems.kept[0].message == R"(expected an event object, found "7"; skipped)");

    // Stopped before the third element: the chunk after it starts there.
    ChunkEvents firstTwo;
    const uint64_t third = json.find(R"({"ph":"X","name":"b")");
    decoder.DecodeSlow(1, third, firstTwo);
    CHECK(firstTwo.eventCount == 2);
    CHECK_FALSE(firstTwo.reachedArrayEnd);
    CHECK(firstTwo.endOffset == third);
}

TEST_CASE(
    "flow ids match as text without quotes, keyed with their category, and slices sort by start, "
    "length, place") {
    CHECK(FlowIdText(R"("7")") == "7");
    CHECK(FlowIdText("7") == "7");
    CHECK(FlowIdText(R"(")") == R"(")");
    CHECK(FlowIdText(R"("")") == "");
    const uint64_t category = HashBytes("HostToDevice");
    const uint64_t key = FlowKey(FlowIdText(R"("400040681193435290001")"), category);
    CHECK(key == FlowKey("400040681193435290001", category));
    CHECK(key != FlowKey("400040681193435290001", HashBytes("async_npu")));
    CHECK(key < (uint64_t{1} << kFlowKeyBits));
    CHECK(FlowBucket(key) == key >> (kFlowKeyBits - kFlowBucketBits));

    const ChunkSlice early{100, 5, 9, 1}, longer{200, 50, 8, 1}, shorter{200, 10, 1, 1},
        later{200, 10, 2, 1};
    CHECK(SliceBefore(early, longer));
    CHECK(SliceBefore(longer, shorter));
    CHECK(SliceBefore(shorter, later));
    CHECK_FALSE(SliceBefore(later, shorter));
    CHECK_FALSE(SliceBefore(later, later));
}
