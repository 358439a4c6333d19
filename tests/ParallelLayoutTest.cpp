// The parallel job's layout: torch_npu's real profiler_metadata.json (TP 2, PP 2, DP 2) read with
// its groups, Kineto's distributedInfo, MindInsight's pipeline file names, damaged metadata named
// value by value, the layout completed by Megatron's rank order, inferred from the communication
// groups, kept in a rank's summary file, and a planted slow stage named as a stage.
#include <doctest/doctest.h>
#include <simdjson.h>

#include <filesystem>
#include <fstream>

#include "ClusterGenerator.hpp"
#include "TestSupport.hpp"
#include "cluster/ClusterFindings.hpp"
#include "cluster/ClusterJson.hpp"
#include "cluster/ClusterRankFile.hpp"
#include "cluster/ParallelCommunication.hpp"
#include "cluster/ParallelFindings.hpp"
#include "cluster/ParallelLayout.hpp"
#include "db/DbParallelMetadata.hpp"
#include "db/SqliteFile.hpp"
#include "load/ParallelMetadata.hpp"
#include "loading/ClusterLoader.hpp"

using namespace marey;
namespace fs = std::filesystem;

namespace {

std::string Joined(const std::vector<std::string>& lines) {
    std::string text;
    for (const std::string& line : lines) text += line + "\n";
    return text;
}

const NamedRankGroup* FindGroup(const RankParallelInfo& info, const std::string& name) {
    for (const NamedRankGroup& group : info.groups)
        if (group.name == name) return &group;
    return nullptr;
}

std::vector<std::vector<int>> GroupsOfKind(const ParallelLayout& layout, const std::string& kind) {
    std::vector<std::vector<int>> groups;
    for (const ParallelGroup& group : layout.groups)
        if (group.kind == kind) groups.push_back(group.ranks);
    return groups;
}

// A cluster of ranks 0..n-1, each saying 'info' (rank 0 only when 'onlyFirst').
Cluster ClusterOf(int n, const RankParallelInfo& info, bool onlyFirst) {
    Cluster cluster;
    for (int r = 0; r < n; ++r) {
        ClusterRank rank;
        rank.rankId = RankId(r);
        if (r == 0 || !onlyFirst) rank.parallel = info;
        cluster.ranks.push_back(std::move(rank));
    }
    return cluster;
}

void WriteText(const fs::path& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
}

}  // namespace

// [SECTION] Reading the ranks' files

TEST_CASE("torch_npu's real profiler_metadata.json reads as TP 2, PP 2, DP 2 with its groups") {
    const std::string fixtures = test::FixturesDir();
    if (fixtures.empty()) {
        MESSAGE("skipped: real fixtures not found");
        return;
    }
    const std::string path =
        fixtures + "/msinsight/server/src/test/test_data/metadata/profiler_metadata.json";
    std::vector<std::string> problems;
    const RankParallelInfo info = ReadProfilerMetadata(path, problems);
    CHECK(problems.empty());
    CHECK(info.source == "profiler_metadata.json");
    CHECK(info.worldSize == 8);
    CHECK(info.sizes == ParallelSizes{2, 2, 2, 1, 1});
    REQUIRE(FindGroup(info, "tp"));
    CHECK(FindGroup(info, "tp")->ranks == std::vector<int>{0, 1});
    CHECK(FindGroup(info, "dp")->ranks == std::vector<int>{0, 2});
    CHECK(FindGroup(info, "pp")->ranks == std::vector<int>{0, 4});
    CHECK(FindGroup(info, "exp")->kind == "ep");
    CHECK(FindGroup(info, "mp")->kind == "other");
    CHECK(FindGroup(info, "mp")->ranks == std::vector<int>{0, 1, 4, 5});
    CHECK_FALSE(FindGroup(info, "default_group"));  // the world is no group of the layout
    // 21 entries: the world left out, "mp_exp", "tp_exp", "exp" and "dp_modulo_exp" twice alike.
    CHECK(info.groups.size() == 16);

    // Only rank 0's file: its groups, the other ranks' by Megatron's order, which they follow.
    const Cluster cluster = ClusterOf(8, info, true);
    const ParallelLayout layout = BuildParallelLayout(cluster);
    CHECK(layout.source == "profiler_metadata.json");
    CHECK(layout.inferred);
    CHECK(layout.SizesText() == "TP 2 × PP 2 × DP 2");
    CHECK(GroupsOfKind(layout, "tp") ==
          std::vector<std::vector<int>>{{0, 1}, {2, 3}, {4, 5}, {6, 7}});
    CHECK(GroupsOfKind(layout, "dp") ==
          std::vector<std::vector<int>>{{0, 2}, {1, 3}, {4, 6}, {5, 7}});
    CHECK(GroupsOfKind(layout, "pp") ==
          std::vector<std::vector<int>>{{0, 4}, {1, 5}, {2, 6}, {3, 7}});
    REQUIRE(layout.stages.size() == 2);
    CHECK(layout.stages[1].ranks == std::vector<int>{4, 5, 6, 7});
    REQUIRE(layout.places.size() == 8);
    CHECK(layout.places[6].tp == 0);
    CHECK(layout.places[6].dp == 1);
    CHECK(layout.places[6].pp == 1);
    CHECK(layout.StageOf(3) == 0);
    CHECK(layout.notes.empty());
}

TEST_CASE("Damaged profiler_metadata.json: each damaged value named and left out, the rest kept") {
    const fs::path dir = test::TempDir("parallel_metadata");
    const fs::path path = dir / "profiler_metadata.json";
    WriteText(path,
              R"({"distributed_args": {"tensor_model_parallel_size": 2, )"
              R"("pipeline_model_parallel_size": -3, "data_parallel_size": "two", "world_size": 4},
 "parallel_group_info": {"a": {"group_name": "tp", "global_ranks": [0, 1]},
  "b": {"group_name": "dp", "global_ranks": [0, 9]},
  "c": {"group_name": "pp", "global_ranks": [1, 1]},
  "d": {"group_name": "cp"},
  "e": {"group_name": "tp", "global_ranks": [0, 1]}}})");
    std::vector<std::string> problems;
    const RankParallelInfo info = ReadProfilerMetadata(path.string(), problems);
    const std::string p = path.string();
    CHECK(Joined(problems) ==
          p +
              ": error: \"pipeline_model_parallel_size\" is -3: expected a count from 1 to "
              "16777216; ignored\n" +
              p +
              ": error: \"data_parallel_size\" is \"two\": expected a count from 1 to "
              "16777216; ignored\n" +
              p +
              ": parallel_group_info \"b\": error: the group's ranks [0,9]: expected distinct "
              "rank ids from 0 to 3; the group left out\n" +
              p +
              ": parallel_group_info \"c\": error: the group's ranks [1,1]: expected distinct "
              "rank ids from 0 to 3; the group left out\n" +
              p +
              ": parallel_group_info \"d\": error: expected \"group_name\" and "
              "\"global_ranks\"; the group left out\n");
    CHECK(info.sizes == ParallelSizes{2, 0, 0, 0, 0});
    CHECK(info.worldSize == 4);
    REQUIRE(info.groups.size() == 1);  // the second tp group is the first again
    CHECK(info.groups[0].ranks == std::vector<int>{0, 1});

    for (const char* text : {"", "{", "[1, 2]", "{\"distributed_args\": 7}"}) {
        CAPTURE(text);
        WriteText(path, text);
        problems.clear();
        const RankParallelInfo damaged = ReadProfilerMetadata(path.string(), problems);
        CHECK(damaged.groups.empty());
        CHECK_FALSE(damaged.sizes.Any());
    }
    problems.clear();
    CHECK(ReadProfilerMetadata((dir / "absent.json").string(), problems).Empty());
    CHECK(problems.empty());
    // Named, not silent: a value that is no object, a key that is no object, a folder in place.
    WriteText(path, "[1, 2]");
    ReadProfilerMetadata(path.string(), problems);
    WriteText(path, R"({"distributed_args": [2]})");
    ReadProfilerMetadata(path.string(), problems);
    fs::remove(path);
    fs::create_directory(path);
    ReadProfilerMetadata(path.string(), problems);
    CHECK(Joined(problems) ==
          p + ": error: expected a JSON object, got [1,2]\n" + p +
              ": error: \"distributed_args\" is [2]: expected an object; ignored\n" + p +
              ": error: not a readable file; the layout not read from it\n");
}

TEST_CASE(
    "Kineto's distributedInfo: groups named by their descriptions, a cut ranks list left out") {
    const std::string trace =
        R"({"schemaVersion": 1, "distributedInfo": {"backend": "nccl", "rank": 3, )"
        R"("world_size": 64, "pg_count": 4, "pg_config": [)"
        R"({"pg_name": "0", "pg_desc": "default_pg", "pg_size": 64, "ranks": [0, 1]},)"
        R"({"pg_name": "1", "pg_desc": "TENSOR_MODEL_PARALLEL_GROUP", "pg_size": 2, "ranks": [2, 3]},)"
        R"({"pg_name": "2", "pg_desc": "DATA_PARALLEL_GROUP", "pg_size": 32, "ranks": [1, 3, 5]},)"
        R"({"pg_name": "3", "pg_desc": "undefined", "pg_size": 2, "ranks": [3, 7]}]},)"
        R"( "traceEvents": []})";
    std::vector<std::string> problems;
    const RankParallelInfo info = ReadDistributedInfo(trace, "t.json", problems);
    CHECK(Joined(problems) ==
          "t.json: distributedInfo.pg_config \"DATA_PARALLEL_GROUP\": error: \"ranks\" lists 3 of "
          "its pg_size 32 ranks; the group left out\n");
    CHECK(info.source == "distributedInfo");
    CHECK(info.worldSize == 64);
    REQUIRE(info.groups.size() == 2);
    CHECK(info.groups[0].kind == "tp");
    CHECK(info.groups[0].name == "TENSOR_MODEL_PARALLEL_GROUP");
    CHECK(info.groups[1].name == "3");  // no description: its name
    CHECK(info.groups[1].kind == "other");

    problems.clear();
    CHECK(ReadDistributedInfo(R"({"distributedInfo": {"rank": 0, "pg_config": [)", "cut.json",
                              problems)
              .Empty());
    CHECK(Joined(problems) ==
          "cut.json: error: the \"distributedInfo\" object at byte 1 does not end in the first "
          "MiB; not read\n");
    problems.clear();
    CHECK(ReadDistributedInfo(R"({"traceEvents": []})", "none.json", problems).Empty());
    CHECK(problems.empty());
    // A null is named, never taken for the first event's object after it.
    CHECK(ReadDistributedInfo(R"({"distributedInfo": null, "traceEvents": [{"world_size": 4}]})",
                              "null.json", problems)
              .Empty());
    CHECK(Joined(problems) ==
          "null.json: error: \"distributedInfo\" is null: expected an object; not read\n");
    problems.clear();
    const RankParallelInfo noGroups = ReadDistributedInfo(
        R"({"distributedInfo": {"world_size": 4, "pg_config": {"a": 1}}})", "obj.json", problems);
    CHECK(noGroups.worldSize == 4);
    CHECK(Joined(problems) ==
          "obj.json: error: \"pg_config\" is {\"a\":1}: expected an array of "
          "process groups; not read\n");
}

// [SECTION] The layout's rules and inference

TEST_CASE("The layout's rules: sizes that do not fill the job, groups against Megatron's order") {
    RankParallelInfo info;
    info.source = "profiler_metadata.json";
    info.worldSize = 12;
    info.sizes.tp = 4;
    info.sizes.pp = 4;  // 16 ranks' worth in a job of 12
    ParallelLayout layout = BuildParallelLayout(ClusterOf(12, info, false));
    CHECK(GroupsOfKind(layout, "tp").empty());
    CHECK(Joined(layout.notes) ==
          "the parallel sizes (TP 4 × PP 4) make 16 ranks, the job has 12; the ranks not laid out "
          "by rule\n");

    // A damaged world of 16,777,216 ranks in a job of 4 read: only the groups of the ranks
    // read, and none of a size far past them (no million-group layout).
    info.worldSize = 1 << 24;
    info.sizes = {2, 0, 1 << 23, 0, 0};
    layout = BuildParallelLayout(ClusterOf(4, info, false));
    CHECK(GroupsOfKind(layout, "tp") == std::vector<std::vector<int>>{{0, 1}, {2, 3}});
    CHECK(layout.SizesText() == "TP 2 × DP 2");  // DP from the ranks read, said to be inferred
    CHECK(layout.inferred);
    CHECK(Joined(layout.notes) ==
          "the world size 16777216 in the ranks' files is far more than the 4 ranks read: not "
          "used\nthe dp size 8388608 is far more ranks than the 4 read: not used\n");

    info.sizes = {};
    info.worldSize = 8;
    info.groups = {{"tp", "tp", {0, 2}}};  // strided: not Megatron's tensor-parallel group
    layout = BuildParallelLayout(ClusterOf(8, info, true));
    CHECK(layout.sizes.tp == 2);
    CHECK(layout.sizes.dp == 4);
    CHECK(GroupsOfKind(layout, "tp") == std::vector<std::vector<int>>{{0, 2}});
    CHECK(layout.notes.front() ==
          "the tp groups read do not follow Megatron's rank order; ranks outside them are not "
          "placed in that dimension");
    CHECK(layout.places[1].tp == -1);
    CHECK(layout.places[2].tp == 1);
}

TEST_CASE("Without the ranks' files the layout is inferred from the communication groups") {
    Cluster cluster = ClusterOf(8, RankParallelInfo{}, false);
    cluster.groups = {{"world", "collective", {0, 1, 2, 3, 4, 5, 6, 7}},
                      {"h1", "collective", {0, 1}},
                      {"h2", "collective", {2, 3}},
                      {"h3", "collective", {4, 5}},
                      {"h4", "collective", {6, 7}},
                      {"p1", "p2p", {0, 4}},
                      {"p2", "p2p", {1, 5}}};
    const ParallelLayout layout = BuildParallelLayout(cluster);
    CHECK(layout.source == "the communication groups");
    CHECK(layout.inferred);
    CHECK(layout.SizesText() == "TP 2 × PP 2 × DP 2");
    REQUIRE(layout.stages.size() == 2);
    CHECK(layout.stages[0].ranks == std::vector<int>{0, 1, 2, 3});

    // Groups that do not split the job (overlapping, uneven) say nothing.
    cluster.groups = {{"a", "collective", {0, 1, 2}}, {"b", "collective", {2, 3, 4}}};
    CHECK_FALSE(BuildParallelLayout(cluster).Known());
}

TEST_CASE("MindInsight's cluster_propose reads as a pipeline of two stages") {
    const std::string fixtures = test::FixturesDir();
    if (fixtures.empty()) {
        MESSAGE("skipped: real fixtures not found");
        return;
    }
    auto cluster = LoadCluster(fixtures + "/mindinsight/tests/utils/resource/cluster_propose", 1);
    REQUIRE_MESSAGE(cluster.ok(), cluster.message());
    const ParallelLayout& layout = cluster.value().parallel;
    CHECK(layout.source == "MindInsight's pipeline-parallel file names");
    CHECK(layout.sizes.pp == 2);
    REQUIRE(layout.stages.size() == 2);
    CHECK(layout.stages[0].ranks == std::vector<int>{0, 1});
    CHECK(layout.stages[1].ranks == std::vector<int>{2, 3});
}

// [SECTION] Findings by unit, on generated jobs

TEST_CASE("A generated layout: its metadata read back, a slow stage named as a stage") {
    const fs::path dir = test::TempDir("parallel_stage");
    ClusterOptions options;
    options.tp = 2, options.pp = 4, options.dp = 2, options.ranks = 16;
    options.steps = 4;
    options.slowStage = 2;
    std::string error;
    REQUIRE_MESSAGE(WriteCluster(options, dir.string(), &error), error);
    auto loaded = LoadCluster(dir.string(), 1);
    REQUIRE_MESSAGE(loaded.ok(), loaded.message());
    const Cluster& cluster = loaded.value();
    const ParallelLayout& layout = cluster.parallel;
    CHECK(layout.source == "profiler_metadata.json");
    CHECK_FALSE(layout.inferred);
    CHECK(layout.SizesText() == "TP 2 × PP 4 × DP 2");
    CHECK(GroupsOfKind(layout, "pp").size() == 4);
    CHECK(GroupsOfKind(layout, "pp")[3] == std::vector<int>{3, 7, 11, 15});
    REQUIRE(layout.stages.size() == 4);
    CHECK(layout.stages[2].ranks == std::vector<int>{8, 9, 10, 11});

    const std::vector<ClusterFinding> findings = FindClusterProblems(cluster);
    REQUIRE_FALSE(findings.empty());
    const ClusterFinding& first = findings.front();
    CHECK(first.kind == ClusterFindingKind::kCompute);
    CHECK(first.unitKind == "stage");
    CHECK(first.unitIndex == 2);
    CHECK(first.ranks == std::vector<int>{8, 9, 10, 11});
    CHECK(first.text.rfind("Slow pipeline stage 2 (ranks 8-11): Computing ", 0) == 0);
    // The ranks of the stage are not named again one by one as a computing problem.
    for (size_t i = 1; i < findings.size(); ++i)
        CHECK_FALSE(findings[i].kind == ClusterFindingKind::kCompute);

    const std::string json = ClusterToJson(cluster);
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    REQUIRE_FALSE(parser.parse(json).get(root));
    int64_t stage = -1, tp = 0;
    CHECK_FALSE(root["findings"].at(0)["stage"].get(stage));
    CHECK(stage == 2);
    CHECK_FALSE(root["parallel"]["sizes"]["tp"].get(tp));
    CHECK(tp == 2);
    std::string_view kind;
    CHECK_FALSE(root["parallel"]["groups"].at(0)["kind"].get(kind));
    CHECK(kind == "tp");
}

TEST_CASE("A single slow rank in a layout stays a rank, and a rank's layout survives its summary") {
    const fs::path dir = test::TempDir("parallel_rank");
    ClusterOptions options;
    options.tp = 2, options.pp = 2, options.dp = 2, options.ranks = 8;
    options.steps = 4;
    options.slowRank = 5;
    std::string error;
    REQUIRE_MESSAGE(WriteCluster(options, dir.string(), &error), error);
    auto loaded = LoadCluster(dir.string(), 1);
    REQUIRE_MESSAGE(loaded.ok(), loaded.message());
    for (const ClusterFinding& finding : FindClusterProblems(loaded.value()))
        CHECK(finding.unitKind.empty());

    const ClusterRank& rank = loaded.value().ranks[5];
    REQUIRE_FALSE(rank.parallel.Empty());
    const std::string text = WriteRankSummary(rank);
    const simdjson::padded_string padded(text);
    auto read = ReadRankSummary(std::string_view(padded.data(), padded.size()), "s.json");
    REQUIRE_MESSAGE(read.ok(), read.message());
    CHECK(read.value().parallel.source == rank.parallel.source);
    CHECK(read.value().parallel.sizes == rank.parallel.sizes);
    CHECK(read.value().parallel.worldSize == 8);
    CHECK(read.value().parallel.groups == rank.parallel.groups);

    // A damaged value in a summary file's layout is named and left out; the rank is kept.
    std::string damaged = text;
    const size_t at = damaged.find("\"global_ranks\": [");
    REQUIRE(at != std::string::npos);
    damaged.insert(at + 17, "-4, ");
    const simdjson::padded_string paddedDamaged(damaged);
    auto bad =
        ReadRankSummary(std::string_view(paddedDamaged.data(), paddedDamaged.size()), "s.json");
    REQUIRE_MESSAGE(bad.ok(), bad.message());
    CHECK(bad.value().parallel.groups.size() + 1 == rank.parallel.groups.size());
    CHECK(Joined(bad.value().problems)
              .find("s.json \"parallel\": parallel_group_info \"0\": "
                    "error: the group's ranks [-4,") != std::string::npos);
    // A source the layout is never read from is no layout.
    std::string unknown = text;
    const size_t source = unknown.find("\"source\": \"profiler_metadata.json\"");
    REQUIRE(source != std::string::npos);
    unknown.replace(source, 34, "\"source\": \"\\u001b[31mevil\"");
    const simdjson::padded_string paddedUnknown(unknown);
    auto strange =
        ReadRankSummary(std::string_view(paddedUnknown.data(), paddedUnknown.size()), "s.json");
    REQUIRE_MESSAGE(strange.ok(), strange.message());
    CHECK(strange.value().parallel.Empty());
    CHECK(Joined(strange.value().problems)
              .find("s.json \"parallel\": error: expected an object "
                    "with a \"source\"") != std::string::npos);
}

TEST_CASE(
    "A profiler database's META_DATA gives the layout, and a damaged value is named, never "
    "spliced") {
    const fs::path dir = test::TempDir("parallel_db");
    const fs::path db = dir / "ascend_pytorch_profiler_0.db";
    test::ExecuteSql(db,
                     "CREATE TABLE META_DATA (name TEXT, value TEXT);"
                     "INSERT INTO META_DATA VALUES ('SCHEMA_VERSION', '1.0.0');"
                     "INSERT INTO META_DATA VALUES ('distributed_args', "
                     "'{\"tensor_model_parallel_size\": 4, \"world_size\": 8}');"
                     "INSERT INTO META_DATA VALUES ('parallel_group_info', "
                     "'{\"a\": {\"group_name\": \"tp\", \"global_ranks\": [0, 1, 2, 3]}}');");
    auto opened = SqliteFile::OpenReadOnly(db.string());
    REQUIRE(opened.ok());
    std::vector<std::string> problems;
    RankParallelInfo info = ReadDbParallelInfo(*opened.value(), "p.db", problems);
    CHECK(problems.empty());
    CHECK(info.source == "META_DATA");
    CHECK(info.sizes.tp == 4);
    CHECK(info.worldSize == 8);
    REQUIRE(info.groups.size() == 1);
    CHECK(info.groups[0].ranks == std::vector<int>{0, 1, 2, 3});

    // A value that is not one JSON value (here one that would add a key of its own) is left out.
    test::ExecuteSql(db,
                     "UPDATE META_DATA SET value = '{}, \"distributed_args\": "
                     "{\"world_size\": 2}' WHERE name = 'parallel_group_info';");
    opened = SqliteFile::OpenReadOnly(db.string());
    REQUIRE(opened.ok());
    problems.clear();
    info = ReadDbParallelInfo(*opened.value(), "p.db", problems);
    REQUIRE(problems.size() == 1);
    CHECK(problems[0].rfind("p.db: META_DATA \"parallel_group_info\": error: not JSON: ", 0) == 0);
    CHECK(info.worldSize == 8);
    CHECK(info.groups.empty());
}

TEST_CASE("A slow TP group and a slow replica are named as such") {
    struct Plant {
        int tpGroup, replica;
        const char* kind;
        int index;
        std::vector<int> ranks;
        const char* text;
    };
    const Plant plants[] = {
        {3, -1, "tp", -1, {6, 7}, "Slow TP group (ranks 6-7): Computing "},
        {-1,
         1,
         "replica",
         1,
         {2, 3, 6, 7, 10, 11},
         "Slow data-parallel replica 1 (ranks 2-3, 6-7, 10-11): Computing "},
    };
    for (const Plant& plant : plants) {
        CAPTURE(plant.kind);
        const fs::path dir = test::TempDir(std::string("parallel_") + plant.kind);
        ClusterOptions options;
        options.tp = 2, options.pp = 3, options.dp = 2, options.ranks = 12;
        options.steps = 4;
        options.slowTpGroup = plant.tpGroup, options.slowReplica = plant.replica;
        std::string error;
        REQUIRE_MESSAGE(WriteCluster(options, dir.string(), &error), error);
        auto loaded = LoadCluster(dir.string(), 1);
        REQUIRE_MESSAGE(loaded.ok(), loaded.message());
        const std::vector<ClusterFinding> findings = FindClusterProblems(loaded.value());
        REQUIRE_FALSE(findings.empty());
        CHECK(findings.front().unitKind == plant.kind);
        CHECK(findings.front().unitIndex == plant.index);
        CHECK(findings.front().ranks == plant.ranks);
        CHECK(findings.front().text.rfind(plant.text, 0) == 0);
    }
}

TEST_CASE("Communication split by the kind of parallel group it ran in") {
    RankParallelInfo info;
    info.source = "profiler_metadata.json";
    info.worldSize = 8;
    info.sizes = {2, 2, 2, 1, 1};
    Cluster cluster = ClusterOf(8, info, false);
    cluster.groups = {{"world", "collective", {0, 1, 2, 3, 4, 5, 6, 7}},
                      {"h-tp", "collective", {0, 1}},
                      {"h-send", "p2p", {0, 4}},
                      {"h-odd", "collective", {0, 3, 5}}};
    cluster.parallel = BuildParallelLayout(cluster);
    ClusterRank& rank = cluster.ranks[0];
    auto add = [&](const char* group, TimeNs elapse, TimeNs wait) {
        RankCollective collective;
        collective.group = rank.Intern(group);
        collective.elapseNs = elapse, collective.waitNs = wait;
        rank.collectives.push_back(collective);
    };
    add("h-tp", 30000000, 5000000);
    add("h-tp", 10000000, 0);
    add("world", 16000000, 8000000);
    add("h-send", 3000000, 0);
    add("h-odd", 1000000, 0);
    add("not a group", 99000000, 0);  // resolves to no ranks: not counted
    const std::vector<GroupKindCommunication> split = CommunicationByGroupKind(cluster);
    REQUIRE(split.size() == 4);
    CHECK(split[0].kind == "tp");
    CHECK(split[0].elapseNs == 40000000);
    CHECK(split[0].operators == 2);
    CHECK(split[1].kind == "world");
    CHECK(split[2].kind == "pp");  // a send/receive pair inside a pipeline
    CHECK(split[3].kind == "outside");
    CHECK(DescribeCommunicationByGroupKind(split, 2) ==
          "TP 66.7 % (20.000 ms a rank, wait 2.500 ms), world 26.7 % (8.000 ms a rank, wait "
          "4.000 ms), PP 5.0 % (1.500 ms a rank, wait 0 ns), outside 1.7 % (500.000 µs a rank, "
          "wait 0 ns)");
}

TEST_CASE("A generated pipeline without its metadata: the layout inferred from its groups") {
    const fs::path dir = test::TempDir("parallel_inferred");
    ClusterOptions options;
    options.tp = 2, options.pp = 4, options.dp = 2, options.ranks = 16;
    options.steps = 3;
    options.ranksPerNode = 2;  // the all-gather of each node: the TP groups
    std::string error;
    REQUIRE_MESSAGE(WriteCluster(options, dir.string(), &error), error);
    for (int r = 0; r < 16; ++r)
        fs::remove(dir / ("rank_" + std::to_string(r) + "_ascend_pt") / "profiler_metadata.json");
    auto loaded = LoadCluster(dir.string(), 1);
    REQUIRE_MESSAGE(loaded.ok(), loaded.message());
    const ParallelLayout& layout = loaded.value().parallel;
    CHECK(layout.source == "the communication groups");
    CHECK(layout.inferred);
    CHECK(layout.SizesText() == "TP 2 × PP 4 × DP 2");
    REQUIRE(layout.stages.size() == 4);
    CHECK(layout.stages[1].ranks == std::vector<int>{4, 5, 6, 7});
    // The sends and receives between stages are pipeline communication.
    bool pipeline = false;
    for (const GroupKindCommunication& kind : CommunicationByGroupKind(loaded.value()))
        pipeline |= kind.kind == "pp" && kind.operators == 16 * 3 * 2 - 2 * 2 * 3 * 2;
    CHECK(pipeline);

    // One node of 8 ranks is no TP group of this pipeline: named, the stages still found.
    const fs::path wide = test::TempDir("parallel_inferred_wide");
    options.ranksPerNode = 8;
    REQUIRE_MESSAGE(WriteCluster(options, wide.string(), &error), error);
    for (int r = 0; r < 16; ++r)
        fs::remove(wide / ("rank_" + std::to_string(r) + "_ascend_pt") / "profiler_metadata.json");
    auto wideLoaded = LoadCluster(wide.string(), 1);
    REQUIRE_MESSAGE(wideLoaded.ok(), wideLoaded.message());
    CHECK(wideLoaded.value().parallel.sizes.pp == 4);
    CHECK(wideLoaded.value().parallel.sizes.tp == 1);
    CHECK(Joined(wideLoaded.value().parallel.notes) ==
          "groups of 8 consecutive ranks do not divide the pipeline's distance of 4: not taken as "
          "tensor parallel\n");
}

// [SECTION] msprof-analyze's named groups and stages

TEST_CASE("msprof-analyze's communication_group.json names the groups of the layout") {
    const std::string fixtures = test::FixturesDir();
    if (fixtures.empty()) {
        MESSAGE("skipped: real fixtures not found");
        return;
    }
    // The real 16-rank cluster_analysis_output, its group file with the parallel names newer
    // msprof-analyze writes (comm_group_parallel_info, as in the real 8-rank file beside it).
    const fs::path dir = test::TempDir("parallel_groups") / "cluster_analysis_output";
    fs::copy(fixtures + "/msinsight/server/src/test/test_data/cluster_analysis_output", dir);
    std::string info;
    for (int base : {0, 8}) {
        info += std::string(info.empty() ? "" : ", ") + R"({"type": "collective", "rank_set": [)";
        for (int r = base; r < base + 8; ++r) info += (r > base ? ", " : "") + std::to_string(r);
        info += R"(], "group_name": "1", "group_id": "a", "pg_name": "tp"})";
    }
    for (int r = 0; r < 8; ++r)
        info += R"(, {"type": "p2p", "rank_set": [)" + std::to_string(r) + ", " +
                std::to_string(r + 8) +
                R"(], "group_name": "2", "group_id": "b", "pg_name": "pp"})";
    info += R"(, {"type": "collective", "rank_set": [1, 1], "group_name": "3", "pg_name": "dp"})";
    info += R"(, {"type": "collective", "group_name": "4"})";
    info += R"(, {"type": "collective", "rank_set": [0, 99], "group_name": "5", "pg_name": "dp"})";
    WriteText(dir / "communication_group.json",
              R"({"collective": [[0, 1, 2, 3, 4, 5, 6, 7], [8, 9, 10, 11, 12, 13, 14, 15]], )"
              R"("p2p": [], "comm_group_parallel_info": [)" +
                  info + "]}");
    auto loaded = LoadCluster(dir.parent_path().string(), 1);
    REQUIRE_MESSAGE(loaded.ok(), loaded.message());
    const ParallelLayout& layout = loaded.value().parallel;
    CHECK(layout.source == "communication_group.json");
    CHECK(layout.SizesText() == "TP 8 × PP 2");
    REQUIRE(layout.stages.size() == 2);
    CHECK(layout.stages[1].ranks == std::vector<int>{8, 9, 10, 11, 12, 13, 14, 15});
    const std::string path = (dir / "communication_group.json").string();
    const std::string problems = Joined(loaded.value().problems);
    CHECK(problems.find(path + ": comm_group_parallel_info[10]: error: the group's ranks [1,1]: "
                               "expected distinct rank ids from 0 to 16777215; the group left "
                               "out") != std::string::npos);
    CHECK(problems.find(path + ": comm_group_parallel_info[11]: error: expected a \"pg_name\" "
                               "string and a \"rank_set\"; the group left out") !=
          std::string::npos);
    CHECK(problems.find(path + ": the group \"dp\" names rank 99, which the job does not have: "
                               "the group left out of the layout") != std::string::npos);
    CHECK(layout.sizes.dp == 1);
}

TEST_CASE("Named TP groups without a pipeline take msprof-analyze's stages as theirs") {
    const std::string fixtures = test::FixturesDir();
    if (fixtures.empty()) {
        MESSAGE("skipped: real fixtures not found");
        return;
    }
    // The real 16-rank cluster_analysis_output (two stages of 8 ranks) with TP groups of 4 named,
    // and no pp group: the stages are the pipeline, the rest data parallel.
    const fs::path dir = test::TempDir("parallel_tp_stages") / "cluster_analysis_output";
    fs::copy(fixtures + "/msinsight/server/src/test/test_data/cluster_analysis_output", dir);
    std::string info;
    for (int base = 0; base < 16; base += 4) {
        info += std::string(info.empty() ? "" : ", ") + R"({"type": "collective", "rank_set": [)";
        for (int r = base; r < base + 4; ++r) info += (r > base ? ", " : "") + std::to_string(r);
        info += R"(], "group_name": "1", "group_id": "a", "pg_name": "tp"})";
    }
    WriteText(dir / "communication_group.json",
              R"({"collective": [], "p2p": [], "comm_group_parallel_info": [)" + info + "]}");
    auto loaded = LoadCluster(dir.parent_path().string(), 1);
    REQUIRE_MESSAGE(loaded.ok(), loaded.message());
    const ParallelLayout& layout = loaded.value().parallel;
    CHECK(layout.source == "communication_group.json");
    CHECK(layout.SizesText() == "TP 4 × PP 2 × DP 2");
    REQUIRE(layout.stages.size() == 2);
    CHECK(layout.stages[1].ranks == std::vector<int>{8, 9, 10, 11, 12, 13, 14, 15});
    CHECK(Joined(layout.notes)
              .find("the pipeline's 2 stages from msprof-analyze's cluster "
                    "analysis") != std::string::npos);
    CHECK(layout.StageOf(13) == 1);
}
