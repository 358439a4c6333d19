#include <doctest/doctest.h>

#include <cstring>
#include <string>

#include "load/JsonScan.hpp"
#include "load/JsonString.hpp"

using namespace marey;

TEST_CASE("skipping a value honours strings, escapes and any nesting depth") {
    const std::string text = R"({"a": "}\"]", "b": [1, {"c": "\\"}], "d": {}} tail)";
    const ScanResult result = SkipValue(text.data(), text.data() + text.size());
    REQUIRE(result.status == ScanStatus::kOk);
    CHECK(std::string(result.end) == " tail");

    std::string deep(100000, '[');
    deep += std::string(100000, ']');
    CHECK(SkipValue(deep.data(), deep.data() + deep.size()).end == deep.data() + deep.size());
    CHECK(SkipValue(deep.data(), deep.data() + deep.size() - 1).status == ScanStatus::kTruncated);
}

TEST_CASE("the event array is found in both top-level shapes") {
    const char* problem = nullptr;
    const std::string bare = " \n[{}]";
    CHECK(FindEventArray(bare.data(), bare.data() + bare.size(), &problem) == bare.data() + 3);
    const std::string object =
        R"({"otherData": {"x": "[\"traceEvents\"]"}, "displayTimeUnit": "ns", "traceEvents": [ ]})";
    const char* start = FindEventArray(object.data(), object.data() + object.size(), &problem);
    REQUIRE(start != nullptr);
    CHECK(std::string(start) == " ]}");
    const std::string none = R"({"displayTimeUnit": "ns"})";
    CHECK(FindEventArray(none.data(), none.data() + none.size(), &problem) == nullptr);
}

TEST_CASE("the array's end is read from the file's tail only when nothing else can follow it") {
    auto lastEventAndEnd = [](const std::string& text) -> std::string {
        const char* lastEvent = nullptr;
        const char* close = FindPlainArrayEnd(text.data(), text.data() + text.size(), &lastEvent);
        if (!close) return "none";
        return std::to_string(lastEvent - text.data()) + " " + std::to_string(close - text.data());
    };
    CHECK(lastEventAndEnd(R"([{"a": 1}, {"b": 2}])") == "18 19");
    CHECK(lastEventAndEnd("[{}]\n\n") == "2 3");
    CHECK(lastEventAndEnd(R"({"traceEvents": [{} ] } )") == "18 20");
    CHECK(lastEventAndEnd(R"({"traceEvents": [{}], "otherData": {}})") == "none");
    CHECK(lastEventAndEnd(R"({"traceEvents": [{}], "x": [{}]})") ==
          "29 30");  // a wrong guess: parsing refutes it
    CHECK(lastEventAndEnd("[]") == "none");
    CHECK(lastEventAndEnd(R"([{"a": 1}, {"b")") == "none");
    CHECK(lastEventAndEnd("   ") == "none");
    CHECK(lastEventAndEnd("") == "none");
}

TEST_CASE("likely event starts are never taken from inside a string") {
    const std::string text = R"({"name": "x}, {\"y\": 1"}, {"ph": "X"})";
    const char* start =
        FindLikelyEventStart(text.data(), text.data() + text.size(), text.data() + text.size());
    REQUIRE(start != nullptr);
    CHECK(std::string(start) == R"({"ph": "X"})");
}

TEST_CASE("JSON strings decode escapes and surrogate pairs") {
    std::string scratch;
    CHECK(DecodeJsonString(R"("plain" )", scratch) == "plain");
    CHECK(DecodeJsonString(R"("a\"b\\c\/d\n")", scratch) == "a\"b\\c/d\n");
    CHECK(DecodeJsonString(R"("\u00e9\ud83d\ude00")", scratch) == "é😀");
    CHECK(DecodeJsonString(R"("\ud800x")", scratch) == "\xEF\xBF\xBDx");
    std::string bad = "ok\xff\xfe!";
    CHECK_FALSE(IsValidUtf8(bad));
    CHECK(ReplaceInvalidUtf8(bad.data(), bad.size()) == 2);
    CHECK(bad ==
          "ok?"
          "?!");  // split: "??!" would be a trigraph
}

TEST_CASE(
    "JSON written from bytes that are not UTF-8 is still valid JSON: each bad byte becomes "
    "U+FFFD") {
    std::string out;
    AppendJsonString(out, std::string("step\xff"
                                      "1 \xc3\xa9t\xc3") +
                              "\"\n");
    CHECK(out == "\"step\\ufffd1 \xc3\xa9t\\ufffd\\\"\\n\"");
    CHECK(IsValidUtf8(out));
    std::string scratch;
    CHECK(DecodeJsonString(out, scratch) ==
          "step\xef\xbf\xbd"
          "1 \xc3\xa9t\xef\xbf\xbd\"\n");
}
