// One figure, one value: every figure `marey stats --json` names in two places carries the same
// value in both. A rank opened alone and the same rank inside its cluster ("rank_figures"), and a
// rank as one side of a comparison, give the same overview; on generated runs of every kind
// (text rank folders, profiler databases, Kineto traces) and on the real samples.
#include <doctest/doctest.h>

#include <simdjson.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "TestSupport.hpp"

namespace fs = std::filesystem;

namespace {

const char* const kOverviewKeys[] = {"source",
                                     "computing_ns",
                                     "pure_computing_ns",
                                     "communication_overlapped_ns",
                                     "communication_not_overlapped_ns",
                                     "free_ns",
                                     "total_ns"};

// The overview's keys of one JSON object as text, key by key: "computing_ns=123".
std::map<std::string, std::string> OverviewOf(simdjson::dom::element object) {
    std::map<std::string, std::string> figures;
    for (const char* key : kOverviewKeys) {
        simdjson::dom::element value;
        if (object[key].get(value)) continue;
        figures[key] = simdjson::minify(value);
    }
    return figures;
}

std::string Run(const std::string& arguments) {
    int status = -1;
    const std::string out = marey::test::RunCommand(
        std::string(MAREY_BINARY) + " " + arguments + " 2>/dev/null", &status);
    CHECK_MESSAGE(status == 0, arguments);
    return out;
}

// The "overview" of `marey stats PATH --json`'s "rank" key (empty when it has none).
std::map<std::string, std::string> RankAlone(const std::string& path) {
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    const std::string out = Run("stats '" + path + "' --json --no-cache");
    REQUIRE_MESSAGE(parser.parse(out).get(root) == simdjson::SUCCESS, path);
    simdjson::dom::element overview;
    if (root["rank"]["overview"].get(overview)) return {};
    return OverviewOf(overview);
}

// Each rank's "rank_figures" object of `marey stats CLUSTER --json`, by rank id.
std::map<int64_t, std::map<std::string, std::string>> RanksInCluster(const std::string& path) {
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    const std::string out = Run("stats '" + path + "' --json --no-cache");
    REQUIRE_MESSAGE(parser.parse(out).get(root) == simdjson::SUCCESS, path);
    simdjson::dom::array figures;
    REQUIRE(root["cluster"]["rank_figures"].get(figures) == simdjson::SUCCESS);
    std::map<int64_t, std::map<std::string, std::string>> ranks;
    for (simdjson::dom::element rank : figures) ranks[int64_t(rank["rank"])] = OverviewOf(rank);
    return ranks;
}

// The cluster at 'cluster' holds the ranks 'paths' (rank id → its folder or trace): each rank's
// figures inside it equal the rank opened alone, and they are figures (not an empty object).
void CheckSameAloneAndInCluster(const std::string& cluster,
                                const std::map<int64_t, std::string>& paths) {
    const auto inCluster = RanksInCluster(cluster);
    CHECK(inCluster.size() == paths.size());
    for (const auto& [rank, path] : paths) {
        CAPTURE(path);
        const auto alone = RankAlone(path);
        REQUIRE(inCluster.count(rank) == 1);
        CHECK(alone.size() == std::size(kOverviewKeys));
        CHECK(alone == inCluster.at(rank));
    }
}

// `marey stats --compare A B --json`'s overview of each side equals each side alone.
void CheckSameAloneAndCompared(const std::string& a, const std::string& b) {
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    const std::string out = Run("stats --compare '" + a + "' '" + b + "' --json");
    REQUIRE(parser.parse(out).get(root) == simdjson::SUCCESS);
    CHECK(OverviewOf(root["overview"]["a"]) == RankAlone(a));
    CHECK(OverviewOf(root["overview"]["b"]) == RankAlone(b));
}

void Generate(const std::string& arguments) {
    int status = -1;
    marey::test::RunCommand(std::string(MAREY_GEN) + " " + arguments + " >/dev/null 2>&1", &status);
    REQUIRE_MESSAGE(status == 0, arguments);
}

}  // namespace

TEST_CASE("a generated cluster's ranks give the same overview alone, in the cluster and compared") {
    const fs::path dir = marey::test::TempDir("consistency_cluster");
    Generate("--cluster " + dir.string() + " --ranks 4 --steps 4 --slow-rank 2");
    std::map<int64_t, std::string> paths;
    for (int rank = 0; rank < 4; ++rank)
        paths[rank] = (dir / ("rank_" + std::to_string(rank) + "_ascend_pt")).string();
    CheckSameAloneAndInCluster(dir.string(), paths);
    CheckSameAloneAndCompared(paths[0], paths[2]);
    fs::remove_all(dir);
}

TEST_CASE("generated database ranks give the same overview alone and in their cluster") {
    const fs::path dir = marey::test::TempDir("consistency_db");
    fs::create_directories(dir);
    std::map<int64_t, std::string> paths;
    for (int rank = 0; rank < 2; ++rank) {
        paths[rank] = (dir / ("rank" + std::to_string(rank) + "_ascend_pt")).string();
        Generate("--events 20000 --seed " + std::to_string(7 + rank) + " --rank " +
                 std::to_string(rank) + " --rank-dir " + paths[rank] + " --export db");
    }
    CheckSameAloneAndInCluster(dir.string(), paths);
    CheckSameAloneAndCompared(paths[0], paths[1]);
    fs::remove_all(dir);
}

TEST_CASE("generated Kineto traces give the same overview alone and as a cluster of traces") {
    const fs::path dir = marey::test::TempDir("consistency_traces");
    std::map<int64_t, std::string> paths;
    for (int rank = 0; rank < 2; ++rank) {
        paths[rank] = (dir / ("rank-" + std::to_string(rank) + ".json")).string();
        Generate("--gpu-trace " + paths[rank] + " --events 20000 --steps 3 --seed " +
                 std::to_string(3 + rank) + " --rank " + std::to_string(rank));
    }
    CheckSameAloneAndInCluster(dir.string(), paths);
    CheckSameAloneAndCompared(paths[0], paths[1]);
    fs::remove_all(dir);
}

TEST_CASE("the real samples give the same overview alone, in their cluster and compared") {
    const std::string fixtures = marey::test::FixturesDir();
    if (fixtures.empty()) return;
    const std::string pytorch = fixtures + "/msinsight/test/data/pytorch";
    for (const std::string level : {"text/level0", "text/level1", "text/level2", "db/level1"}) {
        CAPTURE(level);
        const std::string cluster = pytorch + "/" + level;
        CheckSameAloneAndInCluster(
            cluster, {{0, cluster + "/rank0_ascend_pt"}, {1, cluster + "/rank1_ascend_pt"}});
        CheckSameAloneAndCompared(cluster + "/rank0_ascend_pt", cluster + "/rank1_ascend_pt");
    }
    const std::string hta = fixtures + "/hta/tests/data/trace_filter";
    CheckSameAloneAndInCluster(
        hta, {{0, hta + "/sampled_rank-0.json.gz"}, {1, hta + "/sampled_rank-1.json.gz"}});
}
