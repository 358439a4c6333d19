#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>

#include "TestSupport.hpp"
#include "import/chrome_json/TraceLoader.hpp"

using namespace marey;
using namespace marey::test;

TEST_CASE("a truncated file keeps every complete event and says where it stopped") {
    const std::string full = R"([{"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": 1},
{"ph": "X", "name": "b", "pid": 1, "tid": 1, "ts": 3, "dur": 1},
{"ph": "X", "name": "c", "pid": 1, "tid": 1, "ts": 5, "dur": 1}])";
    SUBCASE("cut inside a string") {
        auto model = LoadJson(full.substr(0, full.find("\"c\"") + 2));
        CHECK(model->sliceCount == 2);
        CHECK(ProblemText(*model) ==
              "3:1: file is truncated: the event starting here is incomplete (the file ends at "
              "byte 153)\n"
              "3:23: the event array is not closed with ']' (the file may be truncated); every "
              "complete event was loaded");
    }
    SUBCASE("cut inside a number") {
        auto model = LoadJson(full.substr(0, full.rfind("\"ts\": 5") + 6));
        CHECK(model->sliceCount == 2);
        CHECK(model->report.problemCount == 2);
    }
    SUBCASE("cut between events") {
        auto model = LoadJson(full.substr(0, full.find("},\n{\"ph\": \"X\", \"name\": \"c\"") + 2));
        CHECK(model->sliceCount == 2);
        CHECK(ProblemText(*model) ==
              "2:65: the event array is not closed with ']' (the file may be truncated); every "
              "complete event was loaded");
    }
    SUBCASE("only the opening bracket") {
        auto model = LoadJson("[");
        CHECK(model->sliceCount == 0);
        CHECK(model->report.problemCount == 1);
    }
}

TEST_CASE("a malformed event is skipped and counted with its place, and the rest loads") {
    auto model = LoadJson(R"([{"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": 1},
{"ph": "X", "name": "bad", "pid": 1, "tid": 1, "ts": , "dur": 1},
{"ph": "X", "name": "n/a", "pid": 1, "tid": 1, "ts": "n/a", "dur": 1},
{"ph": "X", "name": "neg", "pid": 1, "tid": 1, "ts": 9, "dur": -4},
{"ph": "X", "name": "c", "pid": 1, "tid": 1, "ts": 5, "dur": 1}])");
    CHECK(model->report.eventCount == 5);
    CHECK(model->sliceCount == 3);
    CHECK(ProblemText(*model) ==
          "2:1: malformed event: The JSON document has an improper structure: missing or "
          "superfluous commas, braces, missing keys, etc.; skipped\n"
          "3:1: \"ts\" is not a number: \"n/a\"; event skipped\n"
          "4:1: \"dur\" is negative (-4); drawn as 0 ns");
}

TEST_CASE("an unterminated string does not swallow the events after it") {
    auto model = LoadJson(
        R"([{"ph": "X", "name": "a, "pid": 1, "tid": 1, "ts": 1, "dur": 1}, {"ph": "X", "name": "b", "pid": 1, "tid": 1, "ts": 3, "dur": 1}, {"ph": "X", "name": "c", "pid": 1, "tid": 1, "ts": 5, "dur": 1}])");
    CHECK(model->sliceCount == 2);
    CHECK(model->report.problemCount == 1);
}

TEST_CASE("E without B and B without E are reported and what can be drawn is drawn") {
    auto model = LoadJson(R"([
{"ph": "E", "pid": 1, "tid": 1, "ts": 1},
{"ph": "B", "name": "open", "pid": 1, "tid": 1, "ts": 2},
{"ph": "X", "name": "x", "pid": 1, "tid": 1, "ts": 3, "dur": 4}])");
    CHECK(model->sliceCount == 2);
    CHECK(model->report.unmatchedEnds == 1);
    CHECK(model->report.unmatchedBegins == 1);
    CHECK(ProblemText(*model) ==
          "2:1: 'E' event without a matching 'B' on its thread; ignored\n"
          "3:1: 'B' event without a matching 'E'; drawn to the end of the trace as unfinished");
}

TEST_CASE("invalid UTF-8 in a name keeps the event with the bad bytes replaced") {
    auto model = LoadJson(
        "[{\"ph\": \"X\", \"name\": \"op\xff\", \"pid\": 1, \"tid\": 1, \"ts\": 1, \"dur\": 1}]");
    CHECK(model->sliceCount == 1);
    const Track& track = model->tracks[model->processes[0].tracks[0]];
    CHECK(model->Name(track.rows[0].name[0]) == "op?");
    CHECK(ProblemText(*model) == "1:2: invalid UTF-8 in the event; bad bytes shown as '?'");
}

TEST_CASE("what is not a trace ends the load with a message and its place") {
    auto result = LoadTraceText(TraceText::FromString("\n  {\"foo\": 1}"), "x.json");
    REQUIRE_FALSE(result.ok());
    CHECK(result.message() ==
          "x.json:2:12: error: not a trace: expected a JSON array of events or an object with a "
          "\"traceEvents\" array");
    auto empty = LoadTraceText(TraceText::FromString(""), "empty.json");
    REQUIRE_FALSE(empty.ok());
    CHECK(empty.message() == "empty.json: error: the file is empty");
    auto missing = LoadTrace("/nonexistent/trace.json");
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.message() ==
          "/nonexistent/trace.json: error: cannot open the file: No such file or directory");
}

TEST_CASE("gzip files load, also when their size is a page multiple or they are cut short") {
    const std::string dir = "/tmp/marey-test-gz-" + std::to_string(::getpid());
    const std::string json =
        R"([{"ph": "X", "name": "zipped", "pid": 1, "tid": 1, "ts": 1, "dur": 1}])";
    std::string command = "mkdir -p " + dir + " && printf '%s' '" + json + "' > " + dir +
                          "/t.json && gzip -kf " + dir + "/t.json";
    REQUIRE(std::system(command.c_str()) == 0);
    auto model = LoadTrace(dir + "/t.json.gz");
    REQUIRE(model.ok());
    CHECK(model.value()->sliceCount == 1);
    CHECK(model.value()->sources.front().text.compressed());

    REQUIRE(std::system(("head -c 30 " + dir + "/t.json.gz > " + dir + "/cut.json.gz").c_str()) ==
            0);
    auto cut = LoadTrace(dir + "/cut.json.gz");
    if (cut.ok()) CHECK(cut.value()->report.problemCount >= 1);

    // Two members are read as one text; garbage after the gzip data is named, zeros are not.
    REQUIRE(std::system(("cat " + dir + "/t.json.gz " + dir + "/t.json.gz > " + dir +
                         "/two.json.gz && cp " + dir + "/t.json.gz " + dir +
                         "/tail.json.gz && printf 'garbage' >> " + dir + "/tail.json.gz && cp " +
                         dir + "/t.json.gz " + dir + "/zeros.json.gz && head -c 16 /dev/zero >> " +
                         dir + "/zeros.json.gz")
                            .c_str()) == 0);
    auto two = LoadTrace(dir + "/two.json.gz");
    REQUIRE(two.ok());
    CHECK(two.value()->sliceCount >= 1);  // the second member's array follows the first's
    auto tail = LoadTrace(dir + "/tail.json.gz");
    REQUIRE(tail.ok());
    CHECK(tail.value()->sliceCount == 1);
    CHECK(test::ProblemText(*tail.value()).find("7 bytes after the gzip data") !=
          std::string::npos);
    auto zeros = LoadTrace(dir + "/zeros.json.gz");
    REQUIRE(zeros.ok());
    CHECK(zeros.value()->report.problemCount == 0);

    // A plain file of exactly one page: the padding must come from the reserved page after it.
    std::string page = R"([{"ph": "X", "name": "p", "pid": 1, "tid": 1, "ts": 1, "dur": 1}])";
    page.insert(page.size() - 1, std::string(4096 - page.size(), ' '));
    std::ofstream(dir + "/page.json") << page;
    auto paged = LoadTrace(dir + "/page.json");
    REQUIRE(paged.ok());
    CHECK(paged.value()->sliceCount == 1);
    CHECK(paged.value()->report.problemCount == 0);
    std::system(("rm -rf " + dir).c_str());
}

TEST_CASE("a load asked to cancel stops and says so, naming the file") {
    LoadProgress progress;
    progress.cancel = true;
    auto result =
        LoadTraceText(TraceText::FromString(
                          R"([{"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": 1}])"),
                      "big.json", LoadOptions{}, &progress);
    REQUIRE_FALSE(result.ok());
    CHECK(result.message() == "big.json: cancelled");
}

TEST_CASE("a second \"traceEvents\" array is named at its key, and keys after the array are not") {
    const std::string one =
        R"({"traceEvents": [{"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": 2}],)";
    SUBCASE("the key repeated") {
        auto model =
            LoadJson(one +
                     "\n\"traceName\": \"x\", \"traceEvents\": [{\"ph\": \"X\", \"name\": \"b\", "
                     "\"pid\": 1, \"tid\": 1, \"ts\": 5, \"dur\": 2}]}");
        CHECK(model->sliceCount == 1);
        CHECK(ProblemText(*model) ==
              "2:19: a second \"traceEvents\" array of 1 event: not read (the first one is the "
              "trace; a file should have one)");
    }
    SUBCASE("the key repeated with its events counted, nested arrays and strings skipped") {
        auto model =
            LoadJson(one + R"( "traceEvents": [{"args": {"s": "],[", "a": [1, [2]]}}, {}, 7]})");
        CHECK(model->sliceCount == 1);
        CHECK(ProblemText(*model).find("array of 3 events: not read") != std::string::npos);
    }
    SUBCASE("a second array cut short: named, without a count") {
        auto model = LoadJson(one + R"( "traceEvents": [{"ph": "X"}, )");
        CHECK(ProblemText(*model).find("a second \"traceEvents\" array: not read") !=
              std::string::npos);
    }
    SUBCASE("other keys after the array, one holding the word") {
        auto model = LoadJson(one + R"( "displayTimeUnit": "ns", "note": {"traceEvents": []}})");
        CHECK(model->sliceCount == 1);
        CHECK(model->report.problemCount == 0);
    }
}
