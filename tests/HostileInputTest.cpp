// The catalogue of hostile inputs: for each, the message and what is kept.
#include <doctest/doctest.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "TestSupport.hpp"
#include "load/TracePath.hpp"
#include "load/TraceText.hpp"

using namespace marey;
using namespace marey::test;

namespace {

std::string TempDir() {
    const std::string dir = "/tmp/marey-hostile-" + std::to_string(::getpid());
    mkdir(dir.c_str(), 0755);
    return dir;
}

std::string Event(const std::string& name, int ts) {
    return R"({"ph": "X", "name": ")" + name + R"(", "pid": 1, "tid": 1, "ts": )" +
           std::to_string(ts) + R"(, "dur": 1})";
}

}  // namespace

TEST_CASE("binary garbage is not a trace, with the place it stopped making sense") {
    std::string garbage = "\x89PNG\r\n\x1a\n";
    for (int i = 0; i < 256; ++i) garbage += static_cast<char>(i * 37);
    auto result = LoadTraceText(TraceText::FromString(garbage), "garbage.bin");
    REQUIRE_FALSE(result.ok());
    CHECK(result.message().find("garbage.bin:1:1: error: not a trace") == 0);
}

TEST_CASE("garbage inside the event array costs only itself") {
    auto model = LoadJson(std::string("[") + Event("a", 1) + ", \x01\x02\xff garbage, " +
                          Event("b", 3) + "]");
    CHECK(model->sliceCount == 2);
    CHECK(model->report.problemCount >= 1);
}

TEST_CASE("args nested 100,000 deep do not overflow anything and the event keeps its fields") {
    std::string deep =
        R"([{"ph": "X", "name": "deep", "pid": 1, "tid": 1, "ts": 1, "dur": 1, "args": {"a": )";
    deep += std::string(100000, '[') + std::string(100000, ']') + "}}, " + Event("after", 5) + "]";
    auto model = LoadJson(deep);
    CHECK(model->report.eventCount == 2);
    CHECK(model->sliceCount == 2);
    CHECK(model->report.problemCount == 0);
}

TEST_CASE("a 100 MB name loads") {
    std::string json = R"([{"ph": "X", "name": ")" + std::string(100 << 20, 'x') +
                       R"(", "pid": 1, "tid": 1, "ts": 1, "dur": 1}])";
    auto model = LoadJson(json, 2);
    REQUIRE(model->sliceCount == 1);
    const Track& track = model->tracks[model->processes[0].tracks[0]];
    CHECK(model->Name(track.rows[0].name[0]).size() == (100u << 20));
}

TEST_CASE(
    "timestamps that are negative, NaN, huge or beyond int64 are reported, and the rest loads") {
    auto model = LoadJson(std::string("[") + Event("negative", -5) + R"(,
{"ph": "X", "name": "nan", "pid": 1, "tid": 1, "ts": NaN, "dur": 1},
{"ph": "X", "name": "huge", "pid": 1, "tid": 1, "ts": 1e300, "dur": 1},
{"ph": "X", "name": "beyond", "pid": 1, "tid": 1, "ts": "9223372036854775808", "dur": 1},
{"ph": "X", "name": "end overflows", "pid": 1, "tid": 1, "ts": 9223372036854775, "dur": 9000},
)" + Event("fine", 7) + "]");
    CHECK(model->sliceCount == 2);
    CHECK(model->firstNs == -5000);
    CHECK(ProblemText(*model) ==
          "2:1: \"ts\" is not a number: NaN; event skipped\n"
          "3:1: \"ts\" is out of range: 1e300; event skipped\n"
          "4:1: \"ts\" is out of range: \"9223372036854775808\"; event skipped\n"
          "5:1: \"ts\" + \"dur\" is out of range; event skipped");
}

TEST_CASE("repeated and conflicting metadata: the last record in the file wins") {
    auto model = LoadJson(R"([
{"ph": "M", "name": "thread_name", "pid": 1, "tid": 1, "args": {"name": "first"}},
{"ph": "M", "name": "thread_name", "pid": 1, "tid": 1, "args": {"name": "second"}},
{"ph": "M", "name": "thread_name", "pid": 1, "tid": 1, "args": {"name": 42}},
{"ph": "M", "name": "process_sort_index", "pid": 1, "tid": 0, "args": {"sort_index": "x"}},
{"ph": "M", "name": "process_name", "pid": 1, "tid": 0},
)" + Event("a", 1) + "]");
    CHECK(model->TrackLabel(model->processes[0].tracks[0]) == "42");
    CHECK(model->report.problemCount == 2);
}

TEST_CASE("a zero-byte .json.gz and a gzip bomb are reported clearly") {
    const std::string dir = TempDir();
    std::ofstream(dir + "/empty.json.gz").close();
    auto empty = LoadTrace(dir + "/empty.json.gz");
    REQUIRE_FALSE(empty.ok());
    CHECK(empty.message() == dir + "/empty.json.gz: error: the file is empty");

    // 64 MiB of spaces inside an event array compress to about 64 KiB.
    REQUIRE(
        std::system(
            ("(printf '['; head -c 67108864 /dev/zero | tr '\\\\0' ' '; printf ']') | gzip -c > " +
             dir + "/bomb.json.gz")
                .c_str()) == 0);
    LoadOptions options;
    options.text.maxInflatedBytes = 8 << 20;
    auto bomb = LoadTrace(dir + "/bomb.json.gz", options);
    REQUIRE(bomb.ok());
    const std::string problems = ProblemText(*bomb.value());
    CHECK(problems.find("inflated text exceeds the memory limit of 8388608 bytes; the rest of the "
                        "compressed file was not read") != std::string::npos);
    std::system(("rm -rf " + dir).c_str());
}

TEST_CASE("a folder with a link loop is searched without looping") {
    const std::string dir = TempDir();
    REQUIRE(symlink(".", (dir + "/loop").c_str()) == 0);
    REQUIRE(symlink("self", (dir + "/self").c_str()) == 0);
    auto resolved = ResolveTraceFile(dir);
    REQUIRE_FALSE(resolved.ok());
    CHECK(resolved.message().find("no trace in this folder") != std::string::npos);
    std::ofstream(dir + "/trace.json") << "[" << Event("a", 1) << "]";
    auto loaded = LoadTrace(dir);
    REQUIRE(loaded.ok());
    CHECK(loaded.value()->sliceCount == 1);
    std::system(("rm -rf " + dir).c_str());
}

TEST_CASE("a file without read permission gives the system's reason") {
    const std::string dir = TempDir();
    const std::string path = dir + "/secret.json";
    std::ofstream(path) << "[]";
    chmod(path.c_str(), 0);
    if (geteuid() != 0) {
        auto result = LoadTrace(path);
        REQUIRE_FALSE(result.ok());
        CHECK(result.message() == path + ": error: cannot open the file: Permission denied");
    } else {
        // Root reads any file: run the real binary as nobody instead.
        const std::string asNobody = "setpriv --reuid=65534 --regid=65534 --clear-groups ";
        if (std::system(
                (asNobody + "test -x " + std::string(MAREY_BINARY) + " 2>/dev/null").c_str()) !=
            0) {
            MESSAGE("skipped: as root, and user nobody cannot run " << MAREY_BINARY);
        } else {
            std::FILE* pipe =
                popen((asNobody + MAREY_BINARY + " stats " + path + " 2>&1").c_str(), "r");
            REQUIRE(pipe);
            std::string out;
            char buffer[4096];
            for (size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;)
                out.append(buffer, n);
            const int status = pclose(pipe);
            CHECK(WEXITSTATUS(status) == 1);
            CHECK(out == path + ": error: cannot open the file: Permission denied\n");
        }
    }
    std::system(("rm -rf " + dir).c_str());
}

TEST_CASE(
    "files around the size where reading gives way to mapping give the same bytes, padded with "
    "zeros") {
    const std::string dir = TempDir();
    for (const uint64_t size : {uint64_t{1}, kReadBelowBytes - 1, kReadBelowBytes,
                                kReadBelowBytes + 1, 3 * kReadBelowBytes}) {
        CAPTURE(size);
        std::string bytes(size, 'x');
        for (uint64_t i = 0; i < size; i += 4093) bytes[i] = static_cast<char>('a' + i % 26);
        const std::string path = dir + "/f" + std::to_string(size);
        std::ofstream(path, std::ios::binary) << bytes;
        auto text = TraceText::Open(path);
        REQUIRE(text.ok());
        REQUIRE(text.value().size() == size);
        CHECK(text.value().fileBytes() == size);
        CHECK_FALSE(text.value().compressed());
        CHECK(std::string_view(text.value().data(), size) == bytes);
        bool zeros = true;
        for (uint64_t i = 0; i < kTextPaddingBytes; ++i)
            zeros &= text.value().data()[size + i] == 0;
        CHECK(zeros);
        // Moved, the text still points at its own bytes.
        TraceText moved = std::move(text.value());
        CHECK(std::string_view(moved.data(), moved.size()) == bytes);
    }
    // A small gzip file is read, then inflated.
    REQUIRE(std::system(("printf 'hello, cluster' | gzip -c > " + dir + "/small.gz").c_str()) == 0);
    auto small = TraceText::Open(dir + "/small.gz");
    REQUIRE(small.ok());
    CHECK(small.value().compressed());
    CHECK(std::string_view(small.value().data(), small.value().size()) == "hello, cluster");
    CHECK(small.value().data()[small.value().size()] == 0);
    std::system(("rm -rf " + dir).c_str());
}

TEST_CASE(
    "a file truncated by another process while it is mapped ends the load with a message, not "
    "SIGBUS") {
    const std::string dir = TempDir();
    const std::string path = dir + "/shrinking.json";
    {
        std::ofstream out(path);
        out << "[";
        for (int i = 0; i < 200000; ++i)
            out << (i ? ", " : "") << Event("op" + std::to_string(i % 50), i * 3);
        out << "]";
    }
    auto text = TraceText::Open(path);
    REQUIRE(text.ok());
    const uint64_t size = text.value().size();
    REQUIRE(truncate(path.c_str(), static_cast<off_t>(size / 2)) ==
            0);  // what a killed writer's restart does
    auto result = LoadTraceText(std::move(text.value()), path);
    REQUIRE(result.ok());
    const TraceModel& model = *result.value();
    CHECK(model.sliceCount > 90000);
    CHECK(model.sliceCount < 110000);
    CHECK(ProblemText(model).find("the file shrank while it was read") != std::string::npos);
    std::system(("rm -rf " + dir).c_str());
}
