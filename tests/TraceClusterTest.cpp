// A folder of PyTorch profiler traces, one per rank, opens as a cluster: ranks from their traces'
// distributedInfo or file names, steps and operators from their device activities, collectives
// matched across ranks with their waits estimated, and the Marey view's tables.
#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "KinetoTraceGenerator.hpp"
#include "TestSupport.hpp"
#include "cluster/Cluster.hpp"
#include "cluster/ClusterFolder.hpp"
#include "cluster/TraceRanks.hpp"
#include "loading/ClusterLoader.hpp"
#include "marey/Marey.hpp"

using namespace marey;
namespace fs = std::filesystem;

namespace {

void WriteKinetoTrace(const fs::path& path, uint32_t rank, uint64_t seed, uint32_t steps) {
    KinetoTraceOptions options;
    options.rank = rank;
    options.seed = seed;
    options.steps = steps;
    options.worldSize = 2;
    std::FILE* file = std::fopen(path.c_str(), "wb");
    REQUIRE(file);
    GenerateKinetoTrace(options, file);
    std::fclose(file);
}

}  // namespace

TEST_CASE("rank trace file names are told from other files of a folder") {
    CHECK(IsRankTraceFileName("worker0.1623143089861.pt.trace.json.gz"));
    CHECK(IsRankTraceFileName("rank-3.Apr_03_18_51_38.1102.pt.trace.json"));
    CHECK(IsRankTraceFileName("sampled_rank-1.json.gz"));
    CHECK(IsRankTraceFileName("benchmark_result_2869224_1695835535_trace.json.gz"));
    CHECK_FALSE(IsRankTraceFileName("rank_summary_3.json"));
    CHECK_FALSE(IsRankTraceFileName("profiler_info_0.json"));
    CHECK_FALSE(IsRankTraceFileName("notes.txt"));
    CHECK_FALSE(IsRankTraceFileName("trace.csv"));
}

TEST_CASE(
    "a folder of Kineto rank traces opens as a cluster with collectives matched across ranks") {
    const fs::path dir = test::TempDir("trace-cluster");
    WriteKinetoTrace(dir / "job.rank0.pt.trace.json", 0, 11, 3);
    WriteKinetoTrace(dir / "job.rank1.pt.trace.json", 1, 12, 3);
    CHECK(IsClusterPath(dir.string()));

    auto loaded = LoadCluster(dir.string(), 2);
    REQUIRE(loaded.ok());
    const Cluster& cluster = loaded.value();
    CHECK(cluster.source == ClusterSource::kRankTraces);
    REQUIRE(cluster.ranks.size() == 2);
    for (int r = 0; r < 2; ++r) {
        CHECK(cluster.ranks[r].rankId == RankId(r));
        CHECK(cluster.ranks[r].rankSource == "the trace's distributedInfo.rank");
        CHECK(cluster.ranks[r].steps.size() == 3);
        CHECK_FALSE(cluster.ranks[r].operatorTypes.empty());
        // Each trace is read once: its kernels are kept for the Marey view, asked or not.
        REQUIRE(cluster.ranks[r].kernels);
        CHECK_FALSE(cluster.ranks[r].kernels->rows.empty());
    }
    CHECK(cluster.steps.size() == 3);

    // Each collective (three all-reduces a step) is on both ranks; the one that took least is the
    // last to arrive (no wait) and the other waited the difference.
    std::map<std::pair<std::string, std::string>, std::vector<const RankCollective*>> byKey;
    for (const ClusterRank& rank : cluster.ranks)
        for (const RankCollective& c : rank.collectives)
            byKey[{c.step, rank.Name(c.name)}].push_back(&c);
    CHECK(byKey.size() == 3 * 3);
    for (const auto& [key, seen] : byKey) {
        CAPTURE(key.second);
        REQUIRE(seen.size() == 2);
        const TimeNs shortest = std::min(seen[0]->elapseNs, seen[1]->elapseNs);
        for (const RankCollective* c : seen) {
            CHECK(c->transitNs == shortest);
            CHECK(c->waitNs == c->elapseNs - shortest);
        }
        CHECK(std::min(seen[0]->waitNs, seen[1]->waitNs) == 0);
    }

    // The Marey view reads each rank's kernels from its trace.
    const MareyTables tables = LoadMareyTables(cluster, test::Ranks({0, 1}), 2);
    REQUIRE(tables.tables.size() == 2);
    CHECK(tables.tables[0] != nullptr);
    CHECK(tables.tables[1] != nullptr);
    CHECK(tables.rows > 0);
    fs::remove_all(dir);
}

TEST_CASE(
    "rank ids of traces come from the file name, else they are numbered, and a damaged trace is "
    "named") {
    const fs::path dir = test::TempDir("trace-cluster-ids");
    // Traces without distributedInfo: the generator's text with that key renamed.
    auto writeWithoutRank = [&](const fs::path& path, uint64_t seed) {
        WriteKinetoTrace(path, 0, seed, 2);
        std::ifstream in(path);
        std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        const size_t key = text.find("\"distributedInfo\"");
        REQUIRE(key != std::string::npos);
        text.replace(key, 17, "\"distributedNote\"");
        std::ofstream(path, std::ios::trunc) << text;
    };
    writeWithoutRank(dir / "rank-5.trace.json", 1);
    writeWithoutRank(dir / "worker.pt.trace.json", 2);
    std::ofstream(dir / "broken.pt.trace.json") << "{\"traceEvents\": [{\"ph\": \"X\", \"ts\": ";

    auto loaded = LoadCluster(dir.string(), 2);
    REQUIRE(loaded.ok());
    const Cluster& cluster = loaded.value();
    std::map<int, std::string> sources;
    for (const ClusterRank& rank : cluster.ranks) sources[rank.Id().value()] = rank.rankSource;
    CHECK(sources.count(5) == 1);
    CHECK(sources[5] == "the trace's file name");
    bool numbered = false;
    for (const auto& [id, source] : sources) numbered |= source == "numbered after the others";
    CHECK(numbered);
    bool brokenNamed = false;
    for (const std::string& problem : cluster.problems)
        brokenNamed |= problem.find("broken.pt.trace.json") != std::string::npos;
    CHECK(brokenNamed);
    fs::remove_all(dir);
}

TEST_CASE("HTA's pair of sampled rank traces opens as a two-rank cluster") {
    const std::string dir = test::FixturesDir() + "/hta/tests/data/trace_filter";
    if (!fs::exists(dir)) {
        MESSAGE("skipped: real fixtures not found");
        return;
    }
    auto loaded = LoadCluster(dir, 2);
    REQUIRE(loaded.ok());
    REQUIRE(loaded.value().ranks.size() == 2);
    CHECK(loaded.value().ranks[0].rankId == RankId(0));
    CHECK(loaded.value().ranks[1].rankId == RankId(1));
    CHECK(loaded.value().ranks[0].steps.size() == 2);
    CHECK_FALSE(loaded.value().ranks[0].collectives.empty());
}

TEST_CASE(
    "collectives PyTorch recorded on their kernels are matched by process group and sequence") {
    const fs::path dir = test::TempDir("trace-cluster-pg");
    // Rank 1 runs a broadcast of another group first: by kernel name and place the allreduce
    // would still match, by group and sequence number it does whatever came before.
    const auto kernel = [](const char* name, int ts, int dur, const char* collective,
                           const char* group, int seq) {
        return std::string("{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"") + name +
               "(ncclDevComm*)\", \"pid\": 0, \"tid\": 7, \"ts\": " + std::to_string(ts) +
               ", \"dur\": " + std::to_string(dur) +
               ", \"args\": {\"stream\": 7, \"Collective name\": \"" + collective +
               "\", \"Process Group Name\": \"" + group +
               "\", \"Process Group Ranks\": \"[0, 1]\", \"Seq\": " + std::to_string(seq) + "}}";
    };
    const auto trace = [](int rank, const std::string& kernels) {
        return "{\"distributedInfo\": {\"rank\": " + std::to_string(rank) +
               ", \"world_size\": 2}, \"traceEvents\": [{\"ph\": \"X\", \"cat\": "
               "\"user_annotation\", \"name\": \"ProfilerStep#1\", \"pid\": 1, \"tid\": 1, "
               "\"ts\": 0, \"dur\": 1000}, " +
               kernels + "]}";
    };
    std::ofstream(dir / "r0.pt.trace.json") << trace(
        0, kernel("ncclDevKernel_AllReduce_Sum_f32_RING_LL", 100, 50, "allreduce", "0", 5));
    std::ofstream(dir / "r1.pt.trace.json") << trace(
        1, kernel("ncclDevKernel_Broadcast_RING_LL", 20, 10, "broadcast", "1", 0) + ", " +
               kernel("ncclDevKernel_AllReduce_Sum_f32_RING_LL", 60, 90, "allreduce", "0", 5));
    auto loaded = LoadCluster(dir.string(), 2);
    REQUIRE(loaded.ok());
    const Cluster& cluster = loaded.value();
    REQUIRE(cluster.ranks.size() == 2);
    const auto find = [&](const ClusterRank& rank, const std::string& name) {
        for (const RankCollective& c : rank.collectives)
            if (rank.Name(c.name) == name) return c;
        FAIL("no collective " << name);
        return RankCollective{};
    };
    const RankCollective a = find(cluster.ranks[0], "pg 0 allreduce seq 5");
    const RankCollective b = find(cluster.ranks[1], "pg 0 allreduce seq 5");
    CHECK(a.waitNs == 0);
    CHECK(b.waitNs == 40000);  // 90 µs against the 50 µs the transfer took on rank 0
    CHECK(b.transitNs == 50000);
    CHECK(cluster.ranks[1].Name(find(cluster.ranks[1], "pg 1 broadcast seq 0").group) == "1");
    // The groups are the process groups.
    std::map<std::string, std::vector<int>> groups;
    for (const ClusterGroup& group : cluster.groups) groups[group.name] = group.ranks;
    CHECK(groups["0"] == std::vector<int>{0, 1});
    CHECK(groups["1"] == std::vector<int>{1});
    fs::remove_all(dir);
}

TEST_CASE("bare Ascend traces as a cluster take their collectives from HCCL's operators") {
    const std::string level1 = test::FixturesDir() + "/msinsight/test/data/pytorch/text/level1";
    if (!fs::exists(level1)) {
        MESSAGE("skipped: real fixtures not found");
        return;
    }
    // The two ranks' trace_view.json alone, against the same ranks read with their CSV files.
    const fs::path dir = test::TempDir("ascend-trace-cluster");
    for (int rank = 0; rank < 2; ++rank)
        fs::copy_file(level1 + "/rank" + std::to_string(rank) +
                          "_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json",
                      dir / ("rank_" + std::to_string(rank) + "_trace_view.json"));
    auto traces = LoadCluster(dir.string(), 2);
    auto folders = LoadCluster(level1, 2);
    REQUIRE(traces.ok());
    REQUIRE(folders.ok());
    REQUIRE(traces.value().ranks.size() == 2);
    REQUIRE(folders.value().ranks.size() == 2);
    for (int r = 0; r < 2; ++r) {
        const ClusterRank& bare = traces.value().ranks[static_cast<size_t>(r)];
        const ClusterRank& full = folders.value().ranks[static_cast<size_t>(r)];
        CAPTURE(r);
        REQUIRE(bare.collectives.size() == full.collectives.size());
        for (size_t c = 0; c < bare.collectives.size(); ++c) {
            // communication.json names the operator "<name>@<group hash>": the trace has no hash.
            const std::string name = full.Name(full.collectives[c].name);
            CHECK(bare.Name(bare.collectives[c].name) == name.substr(0, name.find('@')));
            CHECK(bare.collectives[c].step == full.collectives[c].step);
            // Elapse to the µs the CSV writes with.
            CHECK(std::llabs(bare.collectives[c].elapseNs - full.collectives[c].elapseNs) < 1000);
        }
    }
    fs::remove_all(dir);
}
