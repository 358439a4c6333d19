// The cluster cache (loading/ClusterRankCache.hpp): a cluster re-opened takes its walk and its
// ranks' summaries from the cache with the same figures; a rank whose files changed, a folder
// added or removed, a file still being written, a damaged or foreign cache file: each read again
// and said.
#include <doctest/doctest.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "ClusterGenerator.hpp"
#include "TraceGenerator.hpp"
#include "KinetoTraceGenerator.hpp"
#include "TestSupport.hpp"
#include "cache/CacheFile.hpp"
#include "cache/CacheFolder.hpp"
#include "cache/FileStamp.hpp"
#include "cluster/ClusterJson.hpp"
#include "loading/ClusterLoader.hpp"
#include "loading/ClusterRankCache.hpp"
#include "marey/Marey.hpp"

using namespace marey;
namespace fs = std::filesystem;

namespace {

// A cache in a folder of its own, and the lines it says.
struct CacheSetup {
    IndexCacheOptions options;
    std::vector<std::string> said;

    explicit CacheSetup(const fs::path& folder) {
        options.enabled = true;
        options.folder = folder.string();
        options.say = [this](const std::string& line) { said.push_back(line); };
    }
    std::string Said() const {
        std::string all;
        for (const std::string& line : said) all += line + "\n";
        return all;
    }
};

// What an open gives: the cluster's JSON and how many ranks came from the cache.
struct Opened {
    std::string json;
    uint32_t fromCache = 0;
};

Opened Open(const fs::path& path, CacheSetup* cache, const RankReadOptions& options = {}) {
    ClusterProgress progress;
    auto cluster = LoadCluster(path.string(), 2, &progress, options,
                               cache ? cache->options : IndexCacheOptions{});
    REQUIRE_MESSAGE(cluster.ok(), cluster.message());
    return {ClusterToJson(cluster.value()), progress.ranksCached.load()};
}

// Files written less than a clock tick before they are read are not cached (FileStamp.hpp's
// kStampSettleNs): the tests wait that long after writing what they want cached.
void WaitUntilSettled() {
    std::this_thread::sleep_for(std::chrono::nanoseconds(kStampSettleNs) +
                                std::chrono::milliseconds(50));
}

fs::path GenerateJob(const fs::path& dir, int ranks) {
    ClusterOptions options;
    options.ranks = ranks;
    options.steps = 3;
    options.slowRank = 1;
    std::string error;
    REQUIRE_MESSAGE(WriteCluster(options, (dir / "job").string(), &error), error);
    return dir / "job";
}

void Rewrite(const fs::path& path, const std::string& from, const std::string& to) {
    std::ifstream in(path, std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), {});
    const size_t at = text.find(from);
    REQUIRE(at != std::string::npos);
    text.replace(at, from.size(), to);
    std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

}  // namespace

TEST_CASE("a file's stamp tells it was written to, grown, replaced or removed") {
    const fs::path dir = test::TempDir("file_stamp");
    const fs::path file = dir / "step_trace_time.csv";
    std::ofstream(file) << "Step,Computing\n";
    const FileStamp before = StampOf(file.string());
    const fs::file_time_type written = fs::last_write_time(file);
    CHECK(before.kind == StampKind::kFile);
    CHECK(before.sizeBytes == 15);
    CHECK(StampChange(before, StampOf(file.string())).empty());
    CHECK(StampOf(dir.string()).kind == StampKind::kFolder);
    CHECK(StampOf((dir / "none").string()).kind == StampKind::kMissing);
    // Written in place with its modification time put back: its change time still moves.
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    std::ofstream(file, std::ios::trunc) << "Step,Computinx\n";
    fs::last_write_time(file, written);
    CHECK(StampOf(file.string()).modifiedNs == before.modifiedNs);
    CHECK(StampChange(before, StampOf(file.string())) == "written to");
    std::ofstream(file, std::ios::app) << "1,2\n";
    CHECK(StampChange(before, StampOf(file.string())) == "its size changed from 15 to 19 bytes");
    fs::rename(file, dir / "old.csv");
    std::ofstream(file) << "Step,Computing\n";
    CHECK(StampChange(before, StampOf(file.string())) == "replaced");
    fs::remove(file);
    CHECK(StampChange(before, StampOf(file.string())) == "removed");
    fs::create_directory(file);
    CHECK(StampChange(before, StampOf(file.string())) == "now a folder");
    // Settled: changed at least kStampSettleNs before the reading began.
    const FileStamp now = StampOf(file.string());
    CHECK_FALSE(Settled(now, WallClockNs()));
    CHECK(Settled(now, WallClockNs() + kStampSettleNs + 10'000'000));
    fs::remove_all(dir);
}

TEST_CASE("a cluster opened again takes its walk and every rank from the cache, same figures") {
    const fs::path dir = test::TempDir("cluster_cache_reopen");
    const fs::path job = GenerateJob(dir, 6);
    WaitUntilSettled();
    const std::string expected = Open(job, nullptr).json;
    CacheSetup cache(dir / "cache");
    const Opened first = Open(job, &cache);
    CHECK(first.fromCache == 0);
    CHECK(first.json == expected);
    CHECK(fs::exists(ClusterCacheFilePath(cache.options.folder, fs::canonical(job).string())));
    const Opened again = Open(job, &cache);
    CHECK(again.fromCache == 6);
    CHECK(again.json == expected);
    CHECK_MESSAGE(cache.said.empty(), cache.Said());

    // A rank's step file written to: that rank alone is read again, and said.
    const fs::path stepFile =
        job / "rank_2_ascend_pt" / "ASCEND_PROFILER_OUTPUT" / "step_trace_time.csv";
    std::ifstream in(stepFile);
    std::string header, row;
    std::getline(in, header), std::getline(in, row);
    in.close();
    const std::string firstValue =
        row.substr(row.find(',') + 1, row.find(',', row.find(',') + 1) - row.find(',') - 1);
    Rewrite(stepFile, "," + firstValue + ",", ",9" + firstValue + ",");
    const std::string changedExpected = Open(job, nullptr).json;
    CHECK(changedExpected != expected);
    const Opened changed = Open(job, &cache);
    CHECK(changed.fromCache == 5);
    CHECK(changed.json == changedExpected);
    REQUIRE(cache.said.size() == 1);
    CHECK(cache.said[0].find("cluster cache: 1 of 6 ranks read again, their files changed since "
                             "it was written: ") != std::string::npos);
    CHECK(cache.said[0].find("step_trace_time.csv") != std::string::npos);
    cache.said.clear();

    // A file removed from a rank folder, a rank folder removed: the walk is made again.
    fs::remove(job / "rank_3_ascend_pt" / "ASCEND_PROFILER_OUTPUT" / "communication_matrix.json");
    fs::remove_all(job / "rank_5_ascend_pt");
    const std::string fewerExpected = Open(job, nullptr).json;
    const Opened fewer = Open(job, &cache);
    CHECK(fewer.json == fewerExpected);
    CHECK(fewer.json.find("\"ranks\": 5") != std::string::npos);
    // Ranks 0, 1 and 4 as they were; rank 2 was written just now (not kept), rank 3 changed.
    CHECK(fewer.fromCache == 3);
    REQUIRE(cache.said.size() == 1);
    CHECK(cache.said[0].find("1 of 5 ranks read again") != std::string::npos);
    CHECK(cache.said[0].find("rank_3_ascend_pt/ASCEND_PROFILER_OUTPUT its entries changed") !=
          std::string::npos);
    fs::remove_all(dir);
}

TEST_CASE("a rank written just before it was read is read again the next time, not cached") {
    const fs::path dir = test::TempDir("cluster_cache_settle");
    const fs::path job = GenerateJob(dir, 4);
    CacheSetup cache(dir / "cache");
    // Written within the second: a later write in the same clock tick would leave the same times.
    CHECK(Open(job, &cache).fromCache == 0);
    CHECK(Open(job, &cache).fromCache == 0);
    WaitUntilSettled();
    CHECK(Open(job, &cache).fromCache == 0);
    const Opened settled = Open(job, &cache);
    CHECK(settled.fromCache == 4);
    CHECK(settled.json == Open(job, nullptr).json);
    // The kernel tables asked for (stats --json): every rank read, none taken from the cache.
    RankReadOptions keep;
    keep.keepKernelTable = true;
    auto kept = LoadCluster(job.string(), 2, nullptr, keep, cache.options);
    REQUIRE(kept.ok());
    for (const ClusterRank& rank : kept.value().ranks) CHECK(rank.kernels != nullptr);
    CHECK_MESSAGE(cache.said.empty(), cache.Said());
    fs::remove_all(dir);
}

TEST_CASE("a damaged or foreign cluster cache file is named, ignored and written again") {
    const fs::path dir = test::TempDir("cluster_cache_damaged");
    const fs::path job = GenerateJob(dir, 4);
    WaitUntilSettled();
    const std::string expected = Open(job, nullptr).json;
    CacheSetup cache(dir / "cache");
    Open(job, &cache);
    const std::string file =
        ClusterCacheFilePath(cache.options.folder, fs::canonical(job).string());
    const uint64_t size = fs::file_size(file);
    const auto damage = [&](const std::string& what, const auto& spoil) {
        CAPTURE(what);
        spoil();
        cache.said.clear();
        const Opened opened = Open(job, &cache);
        CHECK(opened.fromCache == 0);
        CHECK(opened.json == expected);
        REQUIRE(cache.said.size() == 1);
        CHECK(cache.said[0].find(job.string() + ": cluster cache " + file + " ignored: ") == 0);
        CHECK(cache.said[0].find("; it is written again after this load") != std::string::npos);
        // Written again: the next open takes every rank.
        CHECK(Open(job, &cache).fromCache == 4);
    };
    damage("truncated", [&] { fs::resize_file(file, size / 2); });
    damage("empty", [&] { fs::resize_file(file, 0); });
    damage("a byte of its payload flipped", [&] {
        std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
        f.seekp(static_cast<std::streamoff>(size - 10));
        f.put('\x7f');
    });
    damage("another version", [&] {
        CacheKey key;
        key.path = fs::canonical(job).string();
        auto writer = CacheFileWriter::Create(file, key, {kClusterRankCacheVersion + 1, 48});
        REQUIRE(writer.ok());
        REQUIRE(writer.value()->Commit().ok());
    });
    fs::remove_all(dir);
}

TEST_CASE("a folder of rank traces re-opened takes every trace's summary, the Marey view reads") {
    const fs::path dir = test::TempDir("cluster_cache_traces");
    KinetoTraceOptions options;
    options.seed = 40;
    options.steps = 3;
    std::string error;
    REQUIRE_MESSAGE(WriteKinetoRankTraces((dir / "job").string(), 3, options, &error), error);
    WaitUntilSettled();
    const std::string expected = Open(dir / "job", nullptr).json;
    CacheSetup cache(dir / "cache");
    Open(dir / "job", &cache);
    const Opened again = Open(dir / "job", &cache);
    CHECK(again.fromCache == 3);
    CHECK(again.json == expected);
    // Without the kernel tables the cache does not hold, the Marey view reads them from the
    // traces, as for a summary file of traces.
    ClusterProgress progress;
    auto cluster = LoadCluster((dir / "job").string(), 2, &progress, {}, cache.options);
    REQUIRE(cluster.ok());
    CHECK(progress.ranksCached == 3);
    const MareyStep step = LoadMareyStep(cluster.value(), test::Ranks({0, 1, 2}), "1", 2);
    size_t kernels = 0;
    for (const MareyDevice& device : step.devices) {
        CHECK_MESSAGE(device.problem.empty(), device.problem);
        kernels += device.ops.size();
    }
    CHECK(kernels > 0);
    // A trace replaced by another rank's: read again, said.
    fs::copy_file(dir / "job" / "rank-0.pt.trace.json", dir / "job" / "rank-1.pt.trace.json",
                  fs::copy_options::overwrite_existing);
    cache.said.clear();
    const Opened replaced = Open(dir / "job", &cache);
    CHECK(replaced.fromCache == 2);
    CHECK(replaced.json == Open(dir / "job", nullptr).json);
    REQUIRE(cache.said.size() == 1);
    CHECK(cache.said[0].find("rank-1.pt.trace.json") != std::string::npos);
    fs::remove_all(dir);
}

TEST_CASE("--source picks each rank folder's export, and the cache keeps their summaries apart") {
    const fs::path dir = test::TempDir("cluster_cache_source");
    fs::create_directories(dir / "job");
    for (int rank = 0; rank < 2; ++rank) {
        GeneratorOptions options;
        options.events = 20000;
        options.rank = static_cast<uint32_t>(rank);
        std::string error;
        REQUIRE_MESSAGE(
            WriteRankDirectory(
                options, (dir / "job" / ("rank_" + std::to_string(rank) + "_ascend_pt")).string(),
                &error, nullptr, RankExport::kBoth),
            error);
    }
    WaitUntilSettled();
    RankReadOptions text;
    text.source = RankSource::kText;
    const std::string fromDatabase = Open(dir / "job", nullptr).json;
    const std::string fromText = Open(dir / "job", nullptr, text).json;
    CHECK(fromDatabase.find("\"source\": \"the database's steps") != std::string::npos);
    CHECK(fromText.find("\"source\": \"step_trace_time.csv (the sum of its steps)\"") !=
          std::string::npos);
    CacheSetup cache(dir / "cache");
    Open(dir / "job", &cache);
    const Opened textOpened = Open(dir / "job", &cache, text);
    CHECK(textOpened.fromCache == 0);  // summaries read from the databases are not the text's
    CHECK(textOpened.json == fromText);
    const Opened textAgain = Open(dir / "job", &cache, text);
    CHECK(textAgain.fromCache == 2);
    CHECK(textAgain.json == fromText);
    // A folder without the export asked for is read from the other, and says so.
    for (const char* name : {"kernel_details.csv", "step_trace_time.csv", "trace_view.json",
                             "communication.json", "communication_matrix.json", "op_statistic.csv",
                             "memory_record.csv", "operator_memory.csv"})
        fs::remove(dir / "job" / "rank_1_ascend_pt" / "ASCEND_PROFILER_OUTPUT" / name);
    auto cluster = LoadCluster((dir / "job").string(), 2, nullptr, text);
    REQUIRE(cluster.ok());
    const ClusterRank& rank1 = cluster.value().ranks.at(1);
    REQUIRE_FALSE(rank1.problems.empty());
    CHECK(rank1.problems[0] == (dir / "job" / "rank_1_ascend_pt").string() +
                                   ": --source text: no text export in this folder; its database "
                                   "was read");
    fs::remove_all(dir);
}
