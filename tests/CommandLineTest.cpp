// Command lines that ask for what cannot be: each is refused with the value and what was
// expected, exit status 2, and never a hang (a cluster as one side of a comparison used to wait
// forever for a comparison that could not open).
#include <doctest/doctest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "TestSupport.hpp"

namespace {

namespace fs = std::filesystem;

const fs::path& SmallCluster() {
    static const fs::path root = [] {
        const fs::path dir = marey::test::TempDir("command_line_cluster");
        const std::string command = std::string(MAREY_GEN) + " --cluster " + dir.string() +
                                    " --ranks 4 --steps 3 2>/dev/null";
        REQUIRE(std::system(command.c_str()) == 0);
        return dir;
    }();
    return root;
}

struct Outcome {
    std::string output;  // standard output and error together
    int status = -1;     // the exit status
};

// The program with 'arguments' (with a 60 s limit: a hang fails the test, not ctest); under Xvfb
// when it takes a screenshot, since a command line it refuses never opens a window.
Outcome Marey(const std::string& arguments) {
    Outcome outcome;
    int status = -1;
    const bool display = arguments.find("--screenshot") != std::string::npos;
    outcome.output =
        marey::test::RunCommand("timeout 60 " + (display ? marey::test::XvfbRun() : std::string()) +
                                    MAREY_BINARY + " " + arguments + " 2>&1",
                                &status);
    outcome.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return outcome;
}

std::string Png(const std::string& name) {
    return "/tmp/marey-command-line-" + std::to_string(::getpid()) + "-" + name + ".png";
}

}  // namespace

TEST_CASE("a cluster as one side of a comparison is refused at once, in the viewer and in stats") {
    const std::string cluster = SmallCluster().string();
    const std::string rank = cluster + "/rank_0_ascend_pt";
    REQUIRE(fs::exists(rank));
    for (const std::string& arguments :
         {"--compare " + cluster + " " + rank + " --screenshot " + Png("compare"),
          "--compare " + rank + " " + cluster}) {
        const Outcome outcome = Marey(arguments);
        CHECK(outcome.status == 2);
        CHECK(
            outcome.output ==
            "marey: --compare: " + cluster +
                " is a cluster folder, not one rank: a comparison is of two traces or rank folders "
                "(open the cluster, select a rank and press C to compare it)\n");
    }
    const Outcome stats = Marey("stats --compare " + rank + " " + cluster + " --json");
    CHECK(stats.status == 2);
    CHECK(
        stats.output ==
        "marey stats --compare: " + cluster +
            ": a cluster folder, not one rank: stats --compare compares two traces or rank folders "
            "(marey stats " +
            cluster + " summarises the cluster)\n");
}

TEST_CASE("values the command line cannot mean are named with what was expected") {
    const std::string cluster = SmallCluster().string();
    const std::string rank = cluster + "/rank_0_ascend_pt";
    SUBCASE("a rank that is not a number") {
        const Outcome outcome = Marey(cluster + " --rank abc --screenshot " + Png("rank"));
        CHECK(outcome.status == 2);
        CHECK(outcome.output == "marey: --rank: expected a rank id (0 or more), got \"abc\"\n");
    }
    SUBCASE("a view the cluster does not have") {
        const Outcome outcome = Marey(cluster + " --view operators --screenshot " + Png("view"));
        CHECK(outcome.status == 2);
        CHECK(outcome.output ==
              "marey: --view: expected one of steps, overview, matrix, communication, time, marey, "
              "parallel, pipeline here, got \"operators\"\n");
    }
    SUBCASE("an alignment that is not one") {
        const Outcome outcome = Marey("stats --compare " + rank + " " + rank + " --align step");
        CHECK(outcome.status == 2);
        CHECK(outcome.output ==
              "marey stats --compare: --align: expected step:N, operator:NAME[#K] (K from 1) or "
              "start, got \"step\"\n");
        CHECK(Marey("stats --compare " + rank + " " + rank + " --align operator:MatMul#0").status ==
              2);
        CHECK(Marey("stats --compare " + rank + " " + rank + " --top 0").output ==
              "marey stats --compare: --top: expected a count of at least 1, got \"0\"\n");
        CHECK(Marey("stats " + rank + " --top x").output ==
              "marey stats: --top: expected a count of at least 1, got \"x\"\n");
    }
    SUBCASE("a cache limit that is not a size, in the viewer, stats, stats --compare and check") {
        setenv("MAREY_CACHE_LIMIT", "lots", 1);
        const std::string said =
            "MAREY_CACHE_LIMIT: expected a size such as 4G, 500M or 0 (no cache), got \"lots\"\n";
        const Outcome viewer = Marey(rank + " --screenshot " + Png("limit"));
        const Outcome stats = Marey("stats " + rank);
        const Outcome compare = Marey("stats --compare " + rank + " " + rank);
        const Outcome check = Marey("check " + rank + " " + rank);
        unsetenv("MAREY_CACHE_LIMIT");
        CHECK(
            (viewer.status == 2 && stats.status == 2 && compare.status == 2 && check.status == 2));
        CHECK(viewer.output == "marey: " + said);
        CHECK(stats.output == "marey stats: " + said);
        CHECK(compare.output == "marey stats --compare: " + said);
        CHECK(check.output == "marey check: " + said);
    }
    SUBCASE("a rank named twice, or past any rank id") {
        CHECK(Marey(cluster + " --ranks 3,3").output ==
              "marey: ranks: rank 3 named twice at column 3 of \"3,3\"\n");
        CHECK(Marey(cluster + " --ranks 1 0-2").output == "marey: ranks: rank 1 named twice\n");
        CHECK(Marey(cluster + " --ranks 0-4000000000").output ==
              "marey: ranks: a rank id past the largest one (16777216) at column 1 of "
              "\"0-4000000000\"\n");
    }
}

TEST_CASE(
    "a step or a rank the cluster lacks is said, and the screenshot's exit status says it is not "
    "what was asked") {
    const std::string cluster = SmallCluster().string();
    const Outcome step = Marey(cluster + " --view steps --step 99 --screenshot " + Png("step"));
    CHECK_MESSAGE(step.status == 2, step.output);
    CHECK(step.output.find("marey: --step 99: not a step of this cluster (steps 1 to 3); showing "
                           "the average over steps\n") != std::string::npos);
    const Outcome rank = Marey(cluster + " --view steps --rank 7 --screenshot " + Png("rank7"));
    CHECK_MESSAGE(rank.status == 2, rank.output);
    CHECK(rank.output.find("marey: --rank 7: not a rank of this cluster (4 ranks, ids 0 to 3)\n") !=
          std::string::npos);
    const Outcome fine =
        Marey(cluster + " --view steps --step 2 --rank 3 --screenshot " + Png("fine"));
    CHECK_MESSAGE(fine.status == 0, fine.output);
    CHECK(fine.output.find("marey: --") == std::string::npos);
    for (const char* name : {"step", "rank7", "fine"}) fs::remove(Png(name));
}

TEST_CASE("the viewer writes the index cache of a trace it opens, and with --no-cache none") {
    const fs::path dir = marey::test::TempDir("command_line_cache");
    const std::string trace = (dir / "trace.json").string();
    REQUIRE(
        std::system((std::string(MAREY_GEN) + " --events 20000 --out " + trace + " >/dev/null 2>&1")
                        .c_str()) == 0);
    const fs::path cache = dir / "xdg";
    const char* before = std::getenv("XDG_CACHE_HOME");
    const std::string saved = before ? before : "";
    setenv("XDG_CACHE_HOME", cache.c_str(), 1);
    const Outcome parsed = Marey(trace + " --no-cache --screenshot " + Png("no-cache"));
    CHECK_MESSAGE(parsed.status == 0, parsed.output);
    CHECK_FALSE(fs::exists(cache / "marey"));  // (Mesa keeps its shader cache beside it)
    const Outcome written = Marey(trace + " --screenshot " + Png("cache"));
    CHECK_MESSAGE(written.status == 0, written.output);
    size_t models = 0, analyses = 0;
    for (const fs::directory_entry& entry : fs::directory_iterator(cache / "marey")) {
        const std::string name = entry.path().filename().string();
        analyses += name.size() > 16 && name.substr(16) == ".analyses.index";
        models += name.size() > 16 && name.substr(16) == ".index";
    }
    CHECK(models == 1);    // the model's file
    CHECK(analyses == 1);  // and its device analyses beside it
    const Outcome read = Marey(trace + " --screenshot " + Png("cache"));
    if (before)
        setenv("XDG_CACHE_HOME", saved.c_str(), 1);
    else
        unsetenv("XDG_CACHE_HOME");
    CHECK_MESSAGE(read.status == 0, read.output);
    CHECK(read.output.find("index cache") == std::string::npos);
    for (const char* name : {"no-cache", "cache"}) fs::remove(Png(name));
    fs::remove_all(dir);
}

TEST_CASE("values out of range or contradicting each other are named, in every subcommand") {
    const std::string cluster = SmallCluster().string();
    const std::string rank = cluster + "/rank_0_ascend_pt";
    SUBCASE("the viewer's sizes, panels, ranges and steps") {
        const std::pair<std::string, std::string> cases[] = {
            {" --size 99999x99999",
             "marey: --size: expected WxH from 200x150 to 16384x16384, got \"99999x99999\"\n"},
            {" --size 800x",
             "marey: --size: expected WxH from 200x150 to 16384x16384, got "
             "\"800x\"\n"},
            {" --panel nonsense",
             "marey: --panel: expected details, range, search or issues, got \"nonsense\"\n"},
            {" --range 5,1", "marey: --range: 5,1 ends before it starts (expected A < B)\n"},
            {" --range 1e300,2e300",
             "marey: --range: 1e300,2e300 lies past what a trace's clock holds (±9.2e12 ms)\n"},
            {" --range -3,1",
             "marey: --range: -3,1 starts before the trace (expected A of 0 or more)\n"},
            {" --step -1",
             "marey: --step: expected a step number (0 or more) or clock, got "
             "\"-1\"\n"},
        };
        for (const auto& [arguments, said] : cases) {
            const Outcome outcome = Marey(rank + arguments + " --screenshot " + Png("values"));
            CHECK_MESSAGE(outcome.status == 2, arguments);
            CHECK(outcome.output == said);
        }
        CHECK_FALSE(fs::exists(Png("values")));
    }
    SUBCASE("a step that no rank of --ranks marks") {
        const Outcome outcome =
            Marey(cluster + " --ranks 0-3 --step 999999 --screenshot " + Png("ranks_step"));
        CHECK_MESSAGE(outcome.status == 2, outcome.output);
        CHECK(outcome.output.find("marey: --step 999999: no rank marks ProfilerStep#999999 (steps "
                                  "they share: 1 to 3); each rank keeps its own clock\n") !=
              std::string::npos);
        fs::remove(Png("ranks_step"));
    }
    SUBCASE("a range that starts after the trace ends") {
        const Outcome outcome =
            Marey(rank + " --range 100000,200000 --screenshot " + Png("late_range"));
        CHECK_MESSAGE(outcome.status == 2, outcome.output);
        CHECK(outcome.output.find("marey: --range 100000,200000: starts after the trace ends (") !=
              std::string::npos);
        fs::remove(Png("late_range"));
    }
    SUBCASE("stats --compare with a step a side lacks") {
        const Outcome outcome = Marey("stats --compare " + rank + " " + rank + " --step 5:2");
        CHECK(outcome.status == 2);
        CHECK(outcome.output == "marey stats --compare: --step: step 5 of A (" + rank +
                                    ") has no ProfilerStep slice\n");
    }
    SUBCASE("summarize with a negative thread count") {
        const Outcome outcome = Marey("summarize " + rank + " --threads -3 --out " +
                                      marey::test::TempDir("threads").string());
        CHECK(outcome.status == 2);
        CHECK(outcome.output ==
              "marey summarize: --threads: expected a count from 0 (all cores) to 4096, got "
              "\"-3\"\n");
    }
    SUBCASE("an unknown option is named as unknown by every subcommand") {
        CHECK(Marey(rank + " --bogus --screenshot " + Png("bogus")).output ==
              "marey: unknown option \"--bogus\" (marey --help lists them)\n");
        CHECK(Marey("stats " + rank + " --bogus").output ==
              "marey stats: unknown option \"--bogus\"\n");
        CHECK(Marey("stats --compare " + rank + " " + rank + " --bogus").output ==
              "marey stats --compare: unknown option \"--bogus\"\n");
        CHECK(Marey("check " + rank + " " + rank + " --bogus").output ==
              "marey check: unknown option \"--bogus\"\n");
        const Outcome summarize = Marey("summarize " + rank + " --bogus");
        CHECK(summarize.status == 2);
        CHECK(summarize.output.find("marey summarize: unknown option \"--bogus\"\n") == 0);
        for (const std::string& arguments : {rank + " --bogus", "stats " + rank + " --bogus",
                                             "check " + rank + " " + rank + " --bogus"})
            CHECK(Marey(arguments).status == 2);
    }
}

TEST_CASE("a screenshot that cannot be written is an error, with exit status 2") {
    const std::string rank = SmallCluster().string() + "/rank_0_ascend_pt";
    const Outcome outcome = Marey(rank + " --screenshot /dev/full");
    CHECK(outcome.status == 2);
    CHECK_MESSAGE(outcome.output.find("marey: cannot write /dev/full: No space left on device\n") !=
                      std::string::npos,
                  outcome.output);
}

TEST_CASE("a profiler database whose string table holds NULLs draws its timeline, no crash") {
    const std::string fixtures = marey::test::FixturesDir();
    if (fixtures.empty()) return;
    const fs::path rank = marey::test::TempDir("null_strings") / "rank0_ascend_pt";
    fs::copy(fs::path(fixtures) / "msinsight/test/data/pytorch/db/level1/rank0_ascend_pt", rank,
             fs::copy_options::recursive);
    for (const auto& entry : fs::recursive_directory_iterator(rank))
        fs::permissions(entry.path(), fs::perms::owner_write, fs::perm_options::add);
    // Every name of the host's operators and of the device's kernels.
    marey::test::ExecuteSql(rank / "ASCEND_PROFILER_OUTPUT" / "ascend_pytorch_profiler_0.db",
                            "UPDATE STRING_IDS SET value = NULL WHERE id IN (SELECT name FROM "
                            "PYTORCH_API) OR id IN (SELECT name FROM COMPUTE_TASK_INFO);");
    const Outcome outcome = Marey(rank.string() + " --no-cache --screenshot " + Png("nulls"));
    CHECK_MESSAGE(outcome.status == 0, outcome.output);
    CHECK(fs::file_size(Png("nulls")) > 0);
    fs::remove(Png("nulls"));
    const Outcome stats = Marey("stats " + rank.string() + " --no-cache");
    CHECK(stats.status == 0);
    CHECK(stats.output.find("table STRING_IDS, row ") != std::string::npos);
}
