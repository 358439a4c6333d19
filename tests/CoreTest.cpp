// The small shared things of analysis/core (and the text and model types everything reads).
#include <doctest/doctest.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include "TestSupport.hpp"
#include "core/GallopingSearch.hpp"
#include "core/Hash.hpp"
#include "core/TrimHeap.hpp"
#include "core/JoinedThread.hpp"
#include "core/LoadTiming.hpp"
#include "core/ParallelFor.hpp"
#include "core/Problem.hpp"
#include "core/RobustStats.hpp"
#include "core/Status.hpp"
#include "core/StringPool.hpp"
#include "core/TextFormat.hpp"
#include "load/TraceText.hpp"
#include "model/TraceModel.hpp"

using namespace marey;

TEST_CASE("durations are written in the unit their size calls for") {
    CHECK(FormatDuration(999) == "999 ns");
    CHECK(FormatDuration(1500) == "1.500 µs");
    CHECK(FormatDuration(2'345'678) == "2.346 ms");
    CHECK(FormatDuration(3'000'000'000) == "3.000 s");
    CHECK(FormatDuration(-1500) == "-1.500 µs");
}

TEST_CASE("a moment since the start is written to the ns, in ms or under a ms in µs") {
    CHECK(FormatInstant(1'064'312'540) == "1064.312540 ms");
    CHECK(FormatInstant(1'064'312'999) != FormatInstant(1'064'312'540));
    CHECK(FormatInstant(73'000) == "73.000 µs");
    CHECK(FormatInstant(0) == "0.000 µs");
    CHECK(FormatInstant(-1'500'000) == "-1.500000 ms");
    CHECK(FormatInstant(INT64_MIN).find("ms") != std::string::npos);  // no overflow
}

TEST_CASE("a share is written as a percentage with one decimal") {
    CHECK(FormatPercent(0.125) == "12.5 %");
    CHECK(FormatPercent(1.0) == "100.0 %");
    CHECK(FormatPercent(0.0) == "0.0 %");
}

TEST_CASE("a count agrees with its word: 1 step, 0 steps, 2 steps") {
    CHECK(CountText(1, "step", "steps") == "1 step");
    CHECK(CountText(0, "step", "steps") == "0 steps");
    CHECK(CountText(2, "problem", "problems") == "2 problems");
    CHECK(CountText(1, "rank id", "rank ids") == "1 rank id");
}

TEST_CASE("another moment reads as later or earlier, never as a negative earlier") {
    CHECK(LaterOrEarlier(6937) == "6.937 µs later");
    CHECK(LaterOrEarlier(-6937) == "6.937 µs earlier");
    CHECK(LaterOrEarlier(0) == "at the same time");
    // A flow into a slice from 6.937 µs after it: its source is later, not "-6.937 µs earlier".
    const TimeNs fromTs = 106937, toTs = 100000;
    CHECK(LaterOrEarlier(fromTs - toTs) == "6.937 µs later");
}

TEST_CASE("the median and MAD ignore one far outlier") {
    std::vector<double> values{1, 2, 3, 4, 1000};
    const RobustSpread spread = MedianAndMad(values);
    CHECK(spread.median == 3);
    CHECK(spread.mad == 1);  // |x - 3| = 2, 1, 0, 1, 997
    std::vector<double> even{1, 2, 3, 4};
    CHECK(MedianAndMad(even).median == 2.5);
    // Durations by the same rule, exact to the nanosecond: the mean of the two middle values,
    // rounded down.
    std::vector<int64_t> evenNs{4, 1, 3, 2};
    CHECK(Median(evenNs) == 2);
    std::vector<int64_t> evenWide{1000000001, 1000000004};
    CHECK(Median(evenWide) == 1000000002);
    std::vector<int64_t> oddNs{7, 1, 5};
    CHECK(Median(oddNs) == 5);
    std::vector<int64_t> noneNs;
    CHECK(Median(noneNs) == 0);
    CHECK(RobustScore(3 + 2 * 1.4826, spread) == doctest::Approx(2));
    CHECK(RobustScore(3, RobustSpread{3, 0}) == 0);
    CHECK(RobustScore(4, RobustSpread{3, 0}) == std::numeric_limits<double>::infinity());
}

TEST_CASE("the hash multipliers are odd, and the Fibonacci one is 2^64 over the golden ratio") {
    // An odd multiplier is a bijection on 64-bit keys: no two keys collide before the shift.
    CHECK(kGoldenRatio64 % 2 == 1);
    CHECK(kMixPrime64 % 2 == 1);
    CHECK(kFnvPrime64 % 2 == 1);
    CHECK(static_cast<double>(kGoldenRatio64) / 18446744073709551616.0 ==
          doctest::Approx((std::sqrt(5.0) - 1) / 2).epsilon(1e-12));
    CHECK(HashBytes("operator") != HashBytes("operatos"));
}

TEST_CASE("problems get the line and column of their byte offset") {
    std::vector<ImportProblem> problems{
        {0, 0, 0, "first"}, {6, 0, 0, "second"}, {100, 0, 0, "past the end"}};
    FillLineColumns(std::string_view("ab\ncd\nef"), problems);
    CHECK(FormatProblem("t.json", problems[0]) == "t.json:1:1: error: first");
    CHECK(FormatProblem("t.json", problems[1]) == "t.json:3:1: error: second");
    CHECK(FormatProblem("t.json", problems[2]) == "t.json:3:3: error: past the end");

    SUBCASE("the same from a TraceText") {
        std::vector<ImportProblem> again{{4, 0, 0, "x"}};
        FillLineColumns(TraceText::FromString("ab\ncd\nef"), again);
        CHECK(again[0].line == 2);
        CHECK(again[0].column == 2);
    }
}

TEST_CASE("a Result holds either its value or the error that took its place") {
    Result<int> good(7);
    REQUIRE(good.ok());
    CHECK(good.value() == 7);
    CHECK(good.status().ok());
    Result<int> bad(Status::Error("t.json: error: the file is empty"));
    CHECK_FALSE(bad.ok());
    CHECK(bad.message() == "t.json: error: the file is empty");
}

TEST_CASE("ParallelFor runs every piece exactly once, on any number of threads") {
    for (unsigned threads : {1u, 3u, 16u}) {
        std::vector<std::atomic<int>> runs(50);
        std::vector<uint64_t> sizes(50);
        for (size_t i = 0; i < sizes.size(); ++i) sizes[i] = i % 7;
        ParallelFor(runs.size(), threads, sizes, [&](size_t i) { ++runs[i]; });
        for (const std::atomic<int>& count : runs) CHECK(count == 1);
    }
}

TEST_CASE("a string is interned once and id 0 is the empty string") {
    StringPool pool;
    const StringId a = pool.Intern("MatMul");
    CHECK(a != 0);
    CHECK(pool.Intern(std::string("Mat") + "Mul") == a);
    CHECK(pool.Get(a) == "MatMul");
    CHECK(pool.Find("Conv2D") == 0);
    CHECK(pool.Get(0).empty());
    CHECK(pool.Hash(a) == HashBytes("MatMul"));
}

TEST_CASE("a text from a string keeps its bytes and zero padding after them") {
    const TraceText text = TraceText::FromString("[{}]");
    REQUIRE(text.size() == 4);
    CHECK(std::string(text.data(), text.size()) == "[{}]");
    for (uint64_t i = 0; i < kTextPaddingBytes; ++i) CHECK(text.data()[text.size() + i] == 0);
    CHECK_FALSE(text.compressed());
}

TEST_CASE("tracks and processes are labelled by name, else by their ids") {
    TraceModel model;
    model.processes.push_back({EntityId{12, 0}, 0, 0, 0, false, {0, 1}, kNoGroup});
    model.tracks.resize(2);
    model.tracks[0].tid = EntityId{0, model.strings.Intern("stream 7")};
    model.tracks[1].tid = EntityId{34, 0};
    model.tracks[1].name = model.strings.Intern("MainThread");
    CHECK(model.ProcessLabel(0) == "Process 12");
    CHECK(model.TrackLabel(0) == "Thread stream 7");
    CHECK(model.TrackLabel(1) == "MainThread");
    CHECK(model.ProcessLabelWithRank(0) == "Process 12");
}

namespace {

// What LoadTiming writes to stderr for two stages, with MAREY_TIMING set or not.
std::string TimingOutput(bool enabled, const std::string& path) {
    if (enabled)
        setenv("MAREY_TIMING", "1", 1);
    else
        unsetenv("MAREY_TIMING");
    std::fflush(stderr);
    const int saved = dup(2);
    const int file = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    REQUIRE(file >= 0);
    dup2(file, 2);
    close(file);
    {
        const LoadTiming timing;
        timing.Report("parsed");
        timing.Report("model built");
    }
    std::fflush(stderr);
    dup2(saved, 2);
    close(saved);
    std::ifstream in(path);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

TEST_CASE(
    "the load timing prints one line per stage, ending in its name, only when MAREY_TIMING is "
    "set") {
    const char* before = std::getenv("MAREY_TIMING");
    const std::string previous = before ? before : "";
    const std::filesystem::path dir = test::TempDir("load_timing");
    const std::string path = (dir / "stderr.txt").string();
    CHECK(TimingOutput(false, path).empty());
    const std::string text = TimingOutput(true, path);
    if (before)
        setenv("MAREY_TIMING", previous.c_str(), 1);
    else
        unsetenv("MAREY_TIMING");
    CHECK(std::count(text.begin(), text.end(), '\n') == 2);
    const size_t first = text.find("  parsed\n");
    REQUIRE(first != std::string::npos);
    CHECK(text.substr(first + 9).find(" s  cpu ") != std::string::npos);
    CHECK(text.find(" kB  peak ") != std::string::npos);
    const std::string last = "  model built\n";
    REQUIRE(text.size() > last.size());
    CHECK(text.substr(text.size() - last.size()) == last);
    std::filesystem::remove_all(dir);
}

TEST_CASE("a JoinedThread's work has ended when its owner is gone or joins it") {
    std::atomic<int> done{0};
    {
        JoinedThread thread;
        thread.Join();  // nothing started: returns at once
        thread.Start([&] { done = 1; });
        thread.Start([&] { done = done + 1; });  // waits for the first
        thread.Join();
        CHECK(done == 2);
        thread.Start([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
            done = 3;
        });
    }
    CHECK(done == 3);
}

TEST_CASE("a galloping lower bound is std::lower_bound, or from a hint not past the key") {
    std::vector<int64_t> keys;
    for (int64_t k = 0; k < 300; ++k) keys.push_back(k / 3 * 5);  // 0 0 0 5 5 5 10 …
    const auto keyAt = [&](size_t i) { return keys[i]; };
    for (int64_t key = -2; key < 505; ++key) {
        const size_t expected =
            static_cast<size_t>(std::lower_bound(keys.begin(), keys.end(), key) - keys.begin());
        for (size_t hint :
             {size_t{0}, size_t{7}, size_t{150}, size_t{299}, size_t{300}, size_t{100000}}) {
            // Among repeated keys, a hint inside them is where the search starts.
            const size_t fromHint =
                hint < keys.size() && keys[hint] <= key ? std::max(hint, expected) : expected;
            size_t left = hint;
            CHECK(GallopingLowerBound(keys.size(), key, left, keyAt) == fromHint);
            CHECK(left == fromHint);
        }
    }
    size_t hint = 0;
    CHECK(GallopingLowerBound(size_t{0}, int64_t{4}, hint, keyAt) == 0);
}

TEST_CASE("heaps are trimmed from several loading threads at once") {
    // Ranks load side by side, each trimming when its chunks are freed (under AddressSanitizer
    // glibc's trim crashed when two threads ran it at once).
    std::vector<std::thread> loaders;
    std::atomic<int> trimmed{0};
    for (int t = 0; t < 4; ++t)
        loaders.emplace_back([&] {
            for (int i = 0; i < 50; ++i) {
                std::vector<std::vector<char>> freed(64, std::vector<char>(4096 * (i + 1)));
                freed.clear();
                TrimFreedHeap();
            }
            ++trimmed;
        });
    for (std::thread& loader : loaders) loader.join();
    CHECK(trimmed == 4);
}
