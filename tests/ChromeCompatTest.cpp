// What other tools write that Perfetto accepts: each quirk loads as Perfetto reads it, with the
// exact count and message.
#include <doctest/doctest.h>

#include "TestSupport.hpp"

using namespace tracelens;
using namespace tracelens::test;

TEST_CASE("a phase longer than one character is read by its first character, with one problem line") {
    auto model = LoadJson(R"([{"ph": "XXX", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": 2}])");
    CHECK(model->sliceCount == 1);
    CHECK(model->report.phases.byChar['X'] == 1);
    CHECK(model->report.phases.other == 0);
    CHECK(ProblemText(*model) == "1:2: phase \"XXX\" is longer than one character; read as 'X', as Perfetto does");
}

TEST_CASE("a trailing empty event {} (JAX/XLA) is skipped without a word") {
    auto model = LoadJson(R"([{"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": 2}, { }])");
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
    CHECK(ProblemText(*model) == "2:31: 'E' named \"save\" closes 'B' named \"load\"; kept as one slice named after the 'B'");
}

TEST_CASE("a comma before an event's closing brace keeps the event, with a message") {
    auto model = LoadJson(R"([{"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": 2, },
                              {"ph": "X", "name": "b", "pid": 1, "tid": 1, "ts": 5, "dur": 2}])");
    CHECK(model->sliceCount == 2);
    CHECK(ProblemText(*model) == "1:2: a comma before a closing '}' or ']'; read as if it were not there");
}

TEST_CASE("raw control characters inside strings keep the event and its text, one message") {
    auto model = LoadJson("[{\"ph\": \"X\", \"name\": \"two\nlines\", \"pid\": 1, \"tid\": 1, \"ts\": 1, \"dur\": 2},\n"
                          " {\"ph\": \"X\", \"name\": \"a\ttab\", \"pid\": 1, \"tid\": 1, \"ts\": 5, \"dur\": 2}]");
    CHECK(model->sliceCount == 2);
    REQUIRE(model->tracks.size() == 1);
    CHECK(model->Name(model->tracks[0].rows[0].name[0]) == "two lines");
    CHECK(model->Name(model->tracks[0].rows[0].name[1]) == "a tab");
    CHECK(ProblemText(*model) == "1:2: a raw control character (a newline or a tab) inside a string; read as a space "
                                 "(further ones in this part of the file are not listed)");
}
