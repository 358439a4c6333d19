// The one-file summary of a job (`marey summarize JOB --out FILE.jsonl`): who summarises which
// rank, the file read back as the same cluster as the job folder, damaged and unfinished files,
// --resume, and the same under mpirun with four processes.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "ClusterGenerator.hpp"
#include "KinetoTraceGenerator.hpp"
#include "TestSupport.hpp"
#include "cluster/ClusterFolder.hpp"
#include "cluster/ClusterJson.hpp"
#include "cluster/ClusterSummaryFile.hpp"
#include "cluster/RankInput.hpp"
#include "cluster/SummaryPlan.hpp"
#include "loading/ClusterLoader.hpp"
#include "loading/RankSummarizer.hpp"
#include "marey/Marey.hpp"

using namespace marey;
namespace fs = std::filesystem;

namespace {

std::string ReadText(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

void WriteText(const fs::path& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
}

std::vector<std::string> Lines(const std::string& text) {
    std::vector<std::string> lines;
    for (size_t at = 0; at < text.size();) {
        const size_t end = text.find('\n', at);
        lines.push_back(text.substr(at, end - at + 1));
        at = end == std::string::npos ? text.size() : end + 1;
    }
    return lines;
}

// A generated job of 'ranks' ranks in dir/job; the stats of its folder as JSON.
std::string GenerateJob(const fs::path& dir, int ranks) {
    ClusterOptions options;
    options.ranks = ranks;
    options.steps = 3;
    options.slowRank = 2;
    std::string error;
    REQUIRE_MESSAGE(WriteCluster(options, (dir / "job").string(), &error), error);
    auto cluster = LoadCluster((dir / "job").string(), 2);
    REQUIRE_MESSAGE(cluster.ok(), cluster.message());
    return ClusterToJson(cluster.value());
}

std::string StatsJson(const std::string& path) {
    auto cluster = LoadCluster(path, 2);
    REQUIRE_MESSAGE(cluster.ok(), cluster.message());
    return ClusterToJson(cluster.value());
}

std::string Summarize(const fs::path& dir, const std::string& arguments, int* status,
                      const std::string& launcher = "") {
    return test::RunCommand("cd " + dir.string() + " && " + launcher + MAREY_BINARY +
                                " summarize " + arguments + " 2>&1",
                            status);
}

}  // namespace

// [SECTION] The plan

TEST_CASE("a rank is summarised on the node that holds it, and the bytes are spread evenly") {
    CHECK(NodeOfPath("/scratch/node3/job/rank_1", {"node1", "node3"}, "") == "node3");
    CHECK(NodeOfPath("/scratch/node3.cluster.org/x", {"node3.cluster.org"}, "") ==
          "node3.cluster.org");
    CHECK(NodeOfPath("/data/job/node3-rank_1", {"node1", "node3"}, "{node}-rank") == "node3");
    CHECK(NodeOfPath("/data/job/rank_1", {"node1", "node3"}, "") == "");
    // Two nodes named: the path decides nothing.
    CHECK(NodeOfPath("/a/node1/node3/r", {"node1", "node3"}, "") == "");

    const std::vector<PlanProcess> processes{{"a"}, {"a"}, {"b"}, {"b"}};
    // A shared file system: every node sees everything; spread by bytes, largest first.
    std::vector<PlanInput> shared;
    for (int i = 0; i < 8; ++i)
        shared.push_back(
            {"/job/rank_" + std::to_string(i), static_cast<uint64_t>(100 + i), {"a", "b"}});
    std::vector<uint64_t> bytes(4, 0);
    const std::vector<int> owner = PlanSummaries(shared, processes, "");
    for (size_t i = 0; i < shared.size(); ++i)
        bytes[static_cast<size_t>(owner[i])] += shared[i].bytes;
    for (const uint64_t b : bytes)
        CHECK((b == 207 || b == 209 || b == 211 || b == 213 || b == 205));
    // Local disks: node b alone sees the odd ranks; they go to its processes only.
    std::vector<PlanInput> local;
    for (int i = 0; i < 8; ++i)
        local.push_back({"/job/rank_" + std::to_string(i), 100, {i % 2 ? "b" : "a"}});
    const std::vector<int> where = PlanSummaries(local, processes, "");
    for (size_t i = 0; i < local.size(); ++i)
        CHECK(processes[static_cast<size_t>(where[i])].host == local[i].hosts[0]);
    // A path naming a node that sees it goes there even on a shared file system.
    const std::vector<int> named = PlanSummaries(
        {{"/job/b/rank_0", 1, {"a", "b"}}, {"/job/b/rank_1", 1, {"a", "b"}}}, processes, "");
    CHECK(processes[static_cast<size_t>(named[0])].host == "b");
    CHECK(processes[static_cast<size_t>(named[1])].host == "b");
    CHECK(named[0] != named[1]);
    // Seen by no node of the job (listed by another's view only): still read by someone.
    CHECK(PlanSummaries({{"/elsewhere/rank_0", 1, {"c"}}}, processes, "")[0] >= 0);
}

// [SECTION] The file

TEST_CASE("a job summarised into one file opens as the same cluster as its folder") {
    const fs::path dir = test::TempDir("summary_file");
    const std::string expected = GenerateJob(dir, 6);
    int status = -1;
    const std::string output = Summarize(dir, "job --out sums/job.jsonl", &status);
    CHECK_MESSAGE(status == 0, output);
    CHECK(output.find("6 ranks summarised by 1 process") != std::string::npos);
    const fs::path file = dir / "sums" / "job.jsonl";
    CHECK(IsClusterPath(file.string()));
    CHECK(StatsJson(file.string()) == expected);
    // The rank's folder is found from the file, from another working folder too.
    auto cluster = LoadCluster(file.string(), 1);
    REQUIRE(cluster.ok());
    CHECK(fs::equivalent(cluster.value().ranks[2].path, dir / "job" / "rank_2_ascend_pt"));
    CHECK(cluster.value().root == file.string());
    // The job's folder gone from this machine: the summary still opens, the ranks' paths are the
    // ones the job recorded, and the Marey view says they cannot be reached.
    fs::rename(dir / "job", dir / "elsewhere");
    CHECK(StatsJson(file.string()).find("\"source\": \"rank folders\", \"ranks\": 6") !=
          std::string::npos);
    auto away = LoadCluster(file.string(), 1);
    REQUIRE(away.ok());
    CHECK(away.value().ranks[2].path == (dir / "job" / "rank_2_ascend_pt").string());
    const MareyStep marey = LoadMareyStep(away.value(), test::Ranks({0, 1, 2, 3, 4, 5}), "1", 2);
    const std::vector<std::string> reasons = SummarizeDeviceProblems(marey, 8, nullptr);
    REQUIRE(reasons.size() == 1);
    CHECK(reasons[0] == "ranks 0-5: their files, where the cluster says they are (" +
                            (dir / "job" / "rank_0_ascend_pt").string() +
                            " the first), cannot be reached from this machine");
    fs::remove_all(dir);
}

TEST_CASE("an unfinished summary names the ranks it lacks, and --resume makes only those") {
    const fs::path dir = test::TempDir("summary_resume");
    const std::string expected = GenerateJob(dir, 6);
    int status = -1;
    Summarize(dir, "job --out job.jsonl --threads 1", &status);  // lines in rank order
    REQUIRE(status == 0);
    const std::vector<std::string> lines = Lines(ReadText(dir / "job.jsonl"));
    REQUIRE(lines.size() == 8);  // header, six ranks, end
    // A job that died after three ranks, in the middle of the fourth's line.
    WriteText(dir / "job.jsonl",
              lines[0] + lines[1] + lines[2] + lines[3] + lines[4].substr(0, 40));
    auto cut = LoadCluster((dir / "job.jsonl").string(), 2);
    REQUIRE(cut.ok());
    CHECK(cut.value().ranks.size() == 3);
    const std::string problems = [&] {
        std::string all;
        for (const std::string& p : cut.value().problems) all += p + "\n";
        return all;
    }();
    CHECK(problems.find("job.jsonl:5: error: not JSON") != std::string::npos);
    CHECK(problems.find("incomplete: the summarising job ended before its end line; 3 of 6 ranks "
                        "have no summary yet") != std::string::npos);
    CHECK(problems.find("job/rank_5_ascend_pt: not summarised yet") != std::string::npos);
    CHECK(RankNumbers(cut.value().missingRanks) == std::vector<int>{3, 4, 5});

    const std::string output = Summarize(dir, "job --out job.jsonl --resume", &status);
    CHECK_MESSAGE(status == 0, output);
    CHECK(output.find("3 ranks summarised by 1 process") != std::string::npos);
    CHECK(output.find("; 3 kept from the earlier run)") != std::string::npos);
    CHECK(StatsJson((dir / "job.jsonl").string()) == expected);
    fs::remove_all(dir);
}

TEST_CASE("damaged summary lines are named by line and the other ranks still open") {
    const fs::path dir = test::TempDir("summary_damage");
    GenerateJob(dir, 4);
    int status = -1;
    Summarize(dir, "job --out job.jsonl", &status);
    REQUIRE(status == 0);
    const fs::path file = dir / "job.jsonl";
    const std::vector<std::string> lines = Lines(ReadText(file));
    REQUIRE(lines.size() == 6);
    const auto problemsOf = [&](const std::string& text) {
        WriteText(file, text);
        auto cluster = LoadCluster(file.string(), 2);
        REQUIRE_MESSAGE(cluster.ok(), cluster.message());
        std::string all;
        for (const std::string& p : cluster.value().problems) all += p + "\n";
        return std::make_pair(cluster.value().ranks.size(), all);
    };
    // A negative duration in rank line 2: that rank only is left out, named by its line.
    std::string damaged = lines[2];
    const std::string firstStep = "\"steps\": [ [\"1\", ";
    const size_t steps = damaged.find(firstStep);
    REQUIRE(steps != std::string::npos);
    damaged.insert(steps + firstStep.size(), "-");
    auto [ranks, problems] =
        problemsOf(lines[0] + lines[1] + damaged + lines[3] + lines[4] + lines[5]);
    CHECK(ranks == 3);
    CHECK(problems.find("job.jsonl:3: error: \"steps[0]\": expected an array of 10 values") !=
          std::string::npos);
    CHECK(problems.find("no summary in " + file.string() + " (its line is damaged)") !=
          std::string::npos);
    // A line twice, a line of another job, garbage: each named, the rest read.
    std::tie(ranks, problems) = problemsOf(lines[0] + lines[1] + lines[1] +
                                           "{\"missing\": \"/nowhere\", \"problems\": []}\n" +
                                           "garbage\n" + lines[2] + lines[3] + lines[4] + lines[5]);
    CHECK(ranks == 4);
    // Lines come in the order their ranks were summarised: whichever rank line 2 holds.
    CHECK(problems.find("job.jsonl:3: error: job/rank_") != std::string::npos);
    CHECK(problems.find(" summarised twice; the first line is kept") != std::string::npos);
    CHECK(problems.find("job.jsonl:4: error: \"/nowhere\" is not one of the header's inputs") !=
          std::string::npos);
    CHECK(problems.find("job.jsonl:5: error: not JSON") != std::string::npos);
    // Another version, or not a summary at all: refused by name.
    std::string other = lines[0];
    other.replace(other.find(": 1,"), 4, ": 7,");
    WriteText(file, other + lines[1]);
    auto refused = LoadCluster(file.string(), 1);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.message() == file.string() +
                                   ":1: error: a cluster summary of version 7; this marey reads "
                                   "version 1: summarise the job again with this marey");
    WriteText(file, "{\"marey_cluster_summary\": 1, \"job\": 3}\n");
    CHECK(LoadCluster(file.string(), 1)
              .message()
              .find(":1: error: \"job\", \"source\" (a kind of rank input) and \"layout\"") !=
          std::string::npos);
    WriteText(file, "{\"marey_cluster_summary\"");
    CHECK(LoadCluster(file.string(), 1).message().find(":1: error: not a cluster summary") !=
          std::string::npos);
    fs::remove_all(dir);
}

TEST_CASE("a rank folder that cannot be read is a missing line with why, the others summarised") {
    const fs::path dir = test::TempDir("summary_unreadable");
    GenerateJob(dir, 4);
    // A rank summary file of the job damaged, in a folder of summary files.
    fs::create_directories(dir / "sums");
    int status = -1;
    test::RunCommand(
        "cd " + dir.string() + " && " + MAREY_BINARY + " summarize job --out sums 2>&1", &status);
    REQUIRE(status == 0);
    WriteText(dir / "sums" / "rank_summary_1.json", "{\"tracelens_rank_summary\": 1, \"rank\":");
    const std::string output = Summarize(dir, "sums --out all.jsonl", &status);
    CHECK(status != 0);
    CHECK(output.find("3 ranks summarised by 1 process") != std::string::npos);
    CHECK(output.find("1 missing") != std::string::npos);
    const std::string text = ReadText(dir / "all.jsonl");
    CHECK(text.find("{\"missing\": \"" + (dir / "sums" / "rank_summary_1.json").string() +
                    "\", \"problems\": [\"sums/rank_summary_1.json: error: not JSON") !=
          std::string::npos);
    const auto stats = [&](const std::string& path) {
        return test::RunCommand(
            "cd " + dir.string() + " && " + MAREY_BINARY + " stats " + path + " --json", &status);
    };
    CHECK(stats("all.jsonl") == stats("sums"));
    fs::remove_all(dir);
}

TEST_CASE("a folder of rank traces summarised into one file reads as the same cluster") {
    const fs::path dir = test::TempDir("summary_traces");
    KinetoTraceOptions options;
    options.seed = 20;
    options.steps = 3;
    std::string error;
    REQUIRE_MESSAGE(WriteKinetoRankTraces((dir / "job").string(), 3, options, &error), error);
    int status = -1;
    const std::string output = Summarize(dir, "job --out job.jsonl", &status);
    REQUIRE_MESSAGE(status == 0, output);
    // The collectives' waits are estimated across the ranks when the file is opened, as when
    // the folder is.
    auto folder = LoadCluster((dir / "job").string(), 2);
    auto summary = LoadCluster((dir / "job.jsonl").string(), 2);
    REQUIRE(folder.ok());
    REQUIRE(summary.ok());
    CHECK(summary.value().source == ClusterSource::kRankTraces);
    CHECK(ClusterToJson(summary.value()) == ClusterToJson(folder.value()));
    TimeNs waits = 0;
    for (const ClusterRank& rank : summary.value().ranks)
        for (const RankCollective& c : rank.collectives) waits += c.waitNs;
    CHECK(waits > 0);
    fs::remove_all(dir);
}

TEST_CASE("four MPI processes gather the same summary as one") {
    if (std::system("command -v mpirun > /dev/null 2>&1") != 0) {
        const char* ci = std::getenv("CI");
        if (ci && std::string(ci) == "true") FAIL("mpirun not found (openmpi-bin)");
        MESSAGE("skipped: mpirun not found (openmpi-bin)");
        return;
    }
    const fs::path dir = test::TempDir("summary_mpi");
    const std::string expected = GenerateJob(dir, 9);
    int status = -1;
    // OpenMPI refuses root unless told twice; CI runs as root.
    // Under AddressSanitizer the MPI library's own allocations at exit are not ours to report.
    const std::string mpirun =
        "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 ASAN_OPTIONS=detect_leaks=0 "
        "mpirun -n 4 --oversubscribe ";
    const std::string output = Summarize(dir, "job --out job.jsonl", &status, mpirun);
    REQUIRE_MESSAGE(status == 0, output);
    CHECK(output.find("9 ranks summarised by 4 processes") != std::string::npos);
    CHECK(StatsJson((dir / "job.jsonl").string()) == expected);
    // Every process had a share.
    auto header = ReadClusterSummary((dir / "job.jsonl").string(), 1);
    REQUIRE(header.ok());
    std::vector<int> shares(4, 0);
    for (const int p : header.value().header.process) ++shares[static_cast<size_t>(p)];
    for (const int share : shares) CHECK(share >= 2);
    // Resumed under mpirun after losing its last four lines.
    const std::vector<std::string> lines = Lines(ReadText(dir / "job.jsonl"));
    std::string cut;
    for (size_t i = 0; i + 4 < lines.size(); ++i) cut += lines[i];
    WriteText(dir / "job.jsonl", cut);
    const std::string resumed = Summarize(dir, "job --out job.jsonl --resume", &status, mpirun);
    CHECK_MESSAGE(status == 0, resumed);
    CHECK(resumed.find("3 ranks summarised by 4 processes") != std::string::npos);
    CHECK(StatsJson((dir / "job.jsonl").string()) == expected);
    fs::remove_all(dir);
}
