// The device analyses cached beside the model: a rank re-opened reads them with every figure as
// computed; analyses made from another cached model, damaged, or pointing past the model are said,
// ignored and written again; `marey stats` prints the same JSON either way.
#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <cstring>
#include <fstream>
#include <iterator>
#include <mutex>
#include <string>
#include <vector>

#include "TestSupport.hpp"
#include "TraceGenerator.hpp"
#include "cache/AnalysesCache.hpp"
#include "cache/AnalysesSerializer.hpp"
#include "cache/CacheFolder.hpp"
#include "cache/IndexCache.hpp"
#include "loading/RankLoader.hpp"

using namespace marey;
namespace fs = std::filesystem;

namespace {

// A generated Ascend-like trace (device streams, launches, steps) and a cache folder of its own.
struct Setup {
    fs::path dir, trace, cacheDir;
    std::mutex mutex;
    std::vector<std::string> said;

    explicit Setup(const std::string& name)
        : dir(test::TempDir(name)), trace(dir / "trace.json"), cacheDir(dir / "cache" / "marey") {
        GeneratorOptions options;
        options.events = 30000;
        options.seed = 11;
        std::ofstream(trace) << test::WrittenText(
            [&](std::FILE* out) { GenerateTrace(options, out); });
    }
    ~Setup() { fs::remove_all(dir); }

    LoadOptions Options() {
        LoadOptions options;
        options.threads = 2;
        options.cache.enabled = true;
        options.cache.folder = cacheDir.string();
        options.cache.say = [this](const std::string& line) {
            std::lock_guard<std::mutex> lock(mutex);
            said.push_back(line);
        };
        return options;
    }
    // The rank loaded with the cache, its cache files written.
    LoadedRank Load() {
        auto loaded = LoadRank(trace.string(), Options());
        REQUIRE_MESSAGE(loaded.ok(), (loaded.ok() ? "" : loaded.message()));
        loaded.value().model->cacheWrite.Join();
        return std::move(loaded.value());
    }
    fs::path AnalysesFile() const {
        return AnalysesCacheFilePath(cacheDir.string(), fs::canonical(trace).string());
    }
    std::vector<std::string> TakeSaid() {
        std::lock_guard<std::mutex> lock(mutex);
        return std::exchange(said, {});
    }
};

void CheckSameFigures(const ActivityFigures& a, const ActivityFigures& b) {
    CHECK(a.time.any == b.time.any);
    CHECK(a.time.busyNs == b.time.busyNs);
    CHECK(a.time.temporal.spanNs == b.time.temporal.spanNs);
    CHECK(a.time.temporal.idleNs == b.time.temporal.idleNs);
    CHECK(a.time.temporal.computeNs == b.time.temporal.computeNs);
    CHECK(a.time.communicationNs == b.time.communicationNs);
    CHECK(a.time.overlappedNs == b.time.overlappedNs);
    REQUIRE(a.time.classSets.size() == b.time.classSets.size());
    for (size_t i = 0; i < a.time.classSets.size(); ++i)
        CHECK(a.time.classSets[i].ns == b.time.classSets[i].ns);
    for (int c = 0; c < kActivityClassCount; ++c)
        CHECK(a.time.unions[c].size() == b.time.unions[c].size());
    REQUIRE(a.idle.size() == b.idle.size());
    for (size_t i = 0; i < a.idle.size(); ++i)
        for (int k = 0; k < kGapKindCount; ++k)
            CHECK(a.idle[i].gaps[k].totalNs == b.idle[i].gaps[k].totalNs);
    CHECK(a.launch.count == b.launch.count);
    CHECK(a.launch.delayNs == b.launch.delayNs);
    REQUIRE(a.queue.size() == b.queue.size());
    for (size_t i = 0; i < a.queue.size(); ++i) CHECK(a.queue[i].mean == b.queue[i].mean);
}

void CheckSameAnalyses(const TraceAnalyses& a, const TraceAnalyses& b) {
    REQUIRE(a.activities.activities.size() == b.activities.activities.size());
    for (size_t i = 0; i < a.activities.activities.size(); ++i) {
        const DeviceActivity& x = a.activities.activities[i];
        const DeviceActivity& y = b.activities.activities[i];
        const bool same = x.startNs == y.startNs && x.endNs == y.endNs && x.name == y.name &&
                          x.stream == y.stream && x.launch == y.launch && x.step == y.step &&
                          x.kind.activityClass == y.kind.activityClass &&
                          x.slice.track == y.slice.track && x.slice.index == y.slice.index;
        if (!same) FAIL_CHECK("activity " << i << " differs");
    }
    CHECK(a.activities.launches.size() == b.activities.launches.size());
    CHECK(a.activities.streams.size() == b.activities.streams.size());
    CHECK(a.activities.activitiesWithCorrelation == b.activities.activitiesWithCorrelation);
    CHECK(a.steps.size() == b.steps.size());
    CHECK(a.gaps.size() == b.gaps.size());
    REQUIRE(a.ranks.size() == b.ranks.size());
    for (size_t r = 0; r < a.ranks.size(); ++r) {
        CHECK(a.ranks[r].rank == b.ranks[r].rank);
        CheckSameFigures(a.ranks[r].all, b.ranks[r].all);
        REQUIRE(a.ranks[r].steps.size() == b.ranks[r].steps.size());
        for (size_t s = 0; s < a.ranks[r].steps.size(); ++s) {
            CHECK(a.ranks[r].steps[s].step == b.ranks[r].steps[s].step);
            CheckSameFigures(a.ranks[r].steps[s].figures, b.ranks[r].steps[s].figures);
        }
    }
}

// Rewrites the analyses file with 'analyses' under the cached model's checksum.
void WriteAnalysesFile(Setup& setup, const TraceModel& model, const TraceAnalyses& analyses) {
    const IndexCache cache(setup.Options().cache, setup.trace.string());
    auto writer =
        CacheFileWriter::Create(setup.AnalysesFile().string(), cache.Key(), AnalysesCacheFormat());
    REQUIRE(writer.ok());
    writer.value()->WriteValue(model.sources.front().indexCacheChecksum);
    SerializeAnalyses(analyses, *writer.value());
    REQUIRE(writer.value()->Commit().ok());
}

}  // namespace

TEST_CASE("a rank re-opened reads its device analyses from the cache, every figure as computed") {
    Setup setup("analyses_cache_round_trip");
    const LoadedRank first = setup.Load();
    REQUIRE(first.analysis->trace);
    CHECK_FALSE(first.analysis->trace->fromIndexCache);
    REQUIRE(first.analysis->trace->activities.activities.size() > 1000);
    CHECK(fs::is_regular_file(setup.AnalysesFile()));

    const LoadedRank again = setup.Load();
    CHECK(again.model->sources.front().fromIndexCache);
    REQUIRE(again.analysis->trace);
    CHECK(again.analysis->trace->fromIndexCache);
    CheckSameAnalyses(*first.analysis->trace, *again.analysis->trace);
    // The rank's tables made from them are the same too.
    CHECK(again.analysis->overview.computingNs == first.analysis->overview.computingNs);
    CHECK(again.analysis->operators.byName.size() == first.analysis->operators.byName.size());
    CHECK(setup.TakeSaid().empty());

    // Without the cache nothing is read: the analyses are computed.
    auto fresh = LoadRank(setup.trace.string(), LoadOptions{});
    REQUIRE(fresh.ok());
    CHECK_FALSE(fresh.value().analysis->trace->fromIndexCache);
}

TEST_CASE("cached analyses that do not fit are said, ignored and written again") {
    Setup setup("analyses_cache_refused");
    const LoadedRank first = setup.Load();
    const fs::path file = setup.AnalysesFile();
    std::string reason;
    SUBCASE("truncated") {
        fs::resize_file(file, fs::file_size(file) / 2);
        reason = "it is truncated: ";
    }
    SUBCASE("made from another cached model of the trace") {
        // The model's cache file written again from another model: its checksum changes.
        const LoadedRank cached = setup.Load();
        TraceModel& model = *cached.model;
        model.tracks.front().sortIndex += 1;
        const IndexCache cache(setup.Options().cache, setup.trace.string());
        REQUIRE(cache.Write(model).ok());
        reason = "they were made from another cached model of the trace";
    }
    SUBCASE("an activity's stream past the streams, under a checksum that holds") {
        TraceAnalyses damaged = *first.analysis->trace;
        damaged.activities.activities[7].stream =
            static_cast<uint32_t>(damaged.activities.streams.size());
        WriteAnalysesFile(setup, *first.model, damaged);
        reason = "it is damaged: a device activity points past the model";
    }
    SUBCASE("a launch's slice past its row") {
        TraceAnalyses damaged = *first.analysis->trace;
        REQUIRE_FALSE(damaged.activities.launches.empty());
        damaged.activities.launches[0].slice.index = 1u << 30;
        WriteAnalysesFile(setup, *first.model, damaged);
        reason = "it is damaged: a launch points past the model";
    }
    SUBCASE("a step's window past the steps") {
        TraceAnalyses damaged = *first.analysis->trace;
        REQUIRE_FALSE(damaged.ranks.front().steps.empty());
        damaged.ranks.front().steps[0].window = static_cast<uint32_t>(damaged.steps.size());
        WriteAnalysesFile(setup, *first.model, damaged);
        reason = "it is damaged: a step's window out of range";
    }
    setup.TakeSaid();
    const LoadedRank again = setup.Load();
    CHECK_FALSE(again.analysis->trace->fromIndexCache);
    CheckSameAnalyses(*first.analysis->trace, *again.analysis->trace);
    const std::vector<std::string> said = setup.TakeSaid();
    REQUIRE(said.size() == 1);
    const std::string expected =
        setup.trace.string() + ": analyses cache " + file.string() + " ignored: " + reason;
    CHECK(said[0].substr(0, expected.size()) == expected);
    CHECK(said[0].find("; they are written again after this load") != std::string::npos);
    // Written again: the next open reads them.
    const LoadedRank rewritten = setup.Load();
    CHECK(rewritten.analysis->trace->fromIndexCache);
    CHECK(setup.TakeSaid().empty());
}

TEST_CASE("the analyses file holds no stray memory: records' padding is written as zeros") {
    Setup setup("analyses_cache_padding");
    const LoadedRank rank = setup.Load();
    const TraceAnalyses& clean = *rank.analysis->trace;
    // The same records, their padding bytes set to what freed memory might hold.
    TraceAnalyses poisoned = clean;
    for (size_t i = 0; i < poisoned.activities.activities.size(); ++i) {
        DeviceActivity& to = poisoned.activities.activities[i];
        const DeviceActivity& from = clean.activities.activities[i];
        std::memset(static_cast<void*>(&to), 0xAB, sizeof to);
        to.startNs = from.startNs, to.endNs = from.endNs, to.name = from.name;
        to.stream = from.stream, to.kind = from.kind, to.launch = from.launch;
        to.step = from.step, to.slice = from.slice;
    }
    for (size_t i = 0; i < poisoned.gaps.size(); ++i) {
        IdleGap& to = poisoned.gaps[i];
        std::memset(static_cast<void*>(&to), 0xCD, sizeof to);
        to.startNs = clean.gaps[i].startNs, to.endNs = clean.gaps[i].endNs;
        to.stream = clean.gaps[i].stream, to.kind = clean.gaps[i].kind;
    }
    REQUIRE_FALSE(poisoned.gaps.empty());
    const IndexCache cache(setup.Options().cache, setup.trace.string());
    const auto write = [&](const TraceAnalyses& analyses, const fs::path& path) {
        auto writer = CacheFileWriter::Create(path.string(), cache.Key(), AnalysesCacheFormat());
        REQUIRE(writer.ok());
        SerializeAnalyses(analyses, *writer.value());
        REQUIRE(writer.value()->Commit().ok());
        std::ifstream in(path, std::ios::binary);
        return std::string(std::istreambuf_iterator<char>(in), {});
    };
    const std::string a = write(clean, setup.dir / "clean.index");
    const std::string b = write(poisoned, setup.dir / "poisoned.index");
    CHECK(a.size() == b.size());
    CHECK(a == b);
}

TEST_CASE("marey stats prints the same JSON with its analyses from the cache") {
    Setup setup("analyses_cache_stats");
    const std::string run = "XDG_CACHE_HOME=" + (setup.dir / "xdg").string() + " " + MAREY_BINARY +
                            " stats --json " + setup.trace.string();
    int status = 1;
    const std::string fresh = test::RunCommand(run + " --no-cache 2>&1", &status);
    REQUIRE(status == 0);
    CHECK(test::RunCommand(run + " 2>&1", &status) == fresh);  // computed, and cached
    const fs::path file = AnalysesCacheFilePath((setup.dir / "xdg" / "marey").string(),
                                                fs::canonical(setup.trace).string());
    REQUIRE(fs::is_regular_file(file));
    CHECK(test::RunCommand(run + " 2>&1", &status) == fresh);  // read from the cache
    CHECK(status == 0);
}
