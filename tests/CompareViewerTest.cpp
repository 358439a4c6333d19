// The comparison through the real viewer under Xvfb: two timelines on one aligned axis that keys
// move together, or one at a time with sync off; and the diff view.
#include <doctest/doctest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "TestSupport.hpp"

namespace {

namespace fs = std::filesystem;

struct CompareRun {
    std::string output;
    int status = -1;
    long long startA = 0, endA = 0, startB = 0, endB = 0, offset = 0;
    bool parsed = false;
};

const fs::path& Pair() {
    static const fs::path root = [] {
        const fs::path dir =
            fs::temp_directory_path() / ("marey_compare_viewer_" + std::to_string(::getpid()));
        fs::remove_all(dir);
        const std::string command = std::string(MAREY_GEN) + " --events 30000 --compare-pair " +
                                    dir.string() + " 2>/dev/null";
        REQUIRE(std::system(command.c_str()) == 0);
        return dir;
    }();
    return root;
}

CompareRun Compare(const std::string& arguments) {
    const std::string png = "/tmp/marey-compare-" + std::to_string(::getpid()) + ".png";
    const std::string command = marey::test::XvfbRun() + std::string(MAREY_BINARY) + " --compare " +
                                (Pair() / "a").string() + " " + (Pair() / "b").string() +
                                " --screenshot " + png + " --size 1600x900 " + arguments + " 2>&1";
    CompareRun run;
    run.output = marey::test::RunCommand(command, &run.status);
    const size_t at = run.output.find("view ");
    run.parsed =
        at != std::string::npos &&
        std::sscanf(run.output.c_str() + at, "view %lld %lld\nview_b %lld %lld\noffset %lld",
                    &run.startA, &run.endA, &run.startB, &run.endB, &run.offset) == 5;
    std::remove(png.c_str());
    return run;
}

// B's view shows the aligned times of A's: B's clock plus the offset is A's clock.
void CheckAligned(const CompareRun& run) {
    CHECK(std::llabs(run.startB + run.offset - run.startA) <= 2);
    CHECK(std::llabs(run.endB + run.offset - run.endA) <= 2);
}

}  // namespace

TEST_CASE("the two timelines open on the aligned first step and keys move both together") {
    const CompareRun opened = Compare("");
    REQUIRE_MESSAGE(opened.status == 0, opened.output);
    REQUIRE_MESSAGE(opened.parsed, opened.output);
    CHECK(opened.offset == -5000001373);  // B's clock is 5 s ahead
    CheckAligned(opened);
    // The first screen is the aligned step (about 3 ms of the pair's 330 ms), whether or not A
    // was drawn alone while B still loaded.
    CHECK(opened.endA - opened.startA < 10000000);
    CHECK(opened.endA - opened.startA > 1000000);

    const CompareRun moved = Compare("--keys WWWWDD");
    REQUIRE_MESSAGE(moved.parsed, moved.output);
    CHECK(moved.endA - moved.startA < (opened.endA - opened.startA) / 2);  // zoomed in
    CHECK(moved.startA > opened.startA);                                   // and panned right
    CheckAligned(moved);
}

TEST_CASE("with sync off (L) the keys move only the half they belong to (Tab switches)") {
    const CompareRun opened = Compare("");
    REQUIRE_MESSAGE(opened.parsed, opened.output);
    const CompareRun onlyA = Compare("--keys LWWWW");
    REQUIRE_MESSAGE(onlyA.parsed, onlyA.output);
    CHECK(onlyA.endA - onlyA.startA < (opened.endA - opened.startA) / 2);
    CHECK(onlyA.startB == opened.startB);
    CHECK(onlyA.endB == opened.endB);

    const CompareRun onlyB = Compare("--keys L{Tab}WWWW");
    REQUIRE_MESSAGE(onlyB.parsed, onlyB.output);
    CHECK(onlyB.startA == opened.startA);
    CHECK(onlyB.endA == opened.endA);
    CHECK(onlyB.endB - onlyB.startB < (opened.endB - opened.startB) / 2);

    // Sync back on: B is placed on A's aligned times again.
    const CompareRun resynced = Compare("--keys L{Tab}WWWWL");
    REQUIRE_MESSAGE(resynced.parsed, resynced.output);
    CheckAligned(resynced);
}

TEST_CASE("the diff view draws its tables with the differences in colour") {
    const std::string png = "/tmp/marey-diff-" + std::to_string(::getpid()) + ".png";
    const std::string command = marey::test::XvfbRun() + std::string(MAREY_BINARY) + " --compare " +
                                (Pair() / "a").string() + " " + (Pair() / "b").string() +
                                " --screenshot " + png + " --size 1600x900 --view compare 2>&1";
    REQUIRE(std::system(command.c_str()) == 0);
    std::FILE* file = std::fopen(png.c_str(), "rb");
    REQUIRE(file != nullptr);
    std::fseek(file, 0, SEEK_END);
    CHECK(std::ftell(file) > 20000);  // a screen of text, not an empty window
    std::fclose(file);
    std::remove(png.c_str());
}

namespace {

// A comparison of 'a' and 'b' clicked at the diff's first operator row ({DoubleClick} or a click
// and Ctrl+1); returns the printed lines.
std::string ClickFirstDiffRow(const std::string& a, const std::string& b, const std::string& keys,
                              int* status) {
    const std::string png = "/tmp/marey-diffrow-" + std::to_string(::getpid()) + ".png";
    const std::string command = marey::test::XvfbRun() + std::string(MAREY_BINARY) + " --compare " +
                                a + " " + b + " --screenshot " + png +
                                " --size 1600x900 --view compare --keys '" + keys + "' 2>&1";
    const std::string output = marey::test::RunCommand(command, status);
    std::remove(png.c_str());
    return output;
}

// The value of the printed line "KEY ...", or "" when there is none.
std::string Line(const std::string& output, const std::string& key) {
    const size_t at = output.find("\n" + key + " ");
    const size_t from =
        at == std::string::npos ? (output.rfind(key + " ", 0) == 0 ? 0 : at) : at + 1;
    if (from == std::string::npos) return "";
    const size_t end = output.find('\n', from);
    return output.substr(from + key.size() + 1, end - from - key.size() - 1);
}

}  // namespace

TEST_CASE(
    "a double-clicked diff row shows the timelines at the operator's run, its track in view") {
    int status = -1;
    const std::string output = ClickFirstDiffRow((Pair() / "a").string(), (Pair() / "b").string(),
                                                 "{DoubleClick 110,243}", &status);
    REQUIRE_MESSAGE(status == 0, output);
    const std::string selected = Line(output, "selected");
    CHECK_MESSAGE(selected.find("| on screen") != std::string::npos, output);
    CHECK_MESSAGE(Line(output, "selected_b").find("| on screen") != std::string::npos, output);
    long long startA = 0, endA = 0;
    REQUIRE(std::sscanf(Line(output, "view").c_str(), "%lld %lld", &startA, &endA) == 2);
    CHECK(endA - startA < 100000000);  // the run framed, not the whole 5 s trace
}

TEST_CASE("on the real Level1 pair a diff row brings the HCCL and Ascend Hardware tracks up") {
    const std::string fixtures = marey::test::FixturesDir();
    if (fixtures.empty()) return;  // the real fixtures are not on this machine
    const std::string level1 = fixtures + "/msinsight/test/data/pytorch/text/level1/";
    int status = -1;
    // Row 1: hcom_allReduce__586_0_1 (79 ms), double-clicked: the timelines show it.
    std::string output = ClickFirstDiffRow(level1 + "rank0_ascend_pt", level1 + "rank1_ascend_pt",
                                           "{DoubleClick 110,243}", &status);
    REQUIRE_MESSAGE(status == 0, output);
    CHECK_MESSAGE(Line(output, "selected") ==
                      "hcom_allReduce__586_0_1 | HCCL | Group 0 Communication | on screen",
                  output);
    CHECK_MESSAGE(Line(output, "selected_b") ==
                      "hcom_allReduce__586_0_1 | HCCL | Group 0 Communication | on screen",
                  output);
    long long startA = 0, endA = 0;
    REQUIRE(std::sscanf(Line(output, "view").c_str(), "%lld %lld", &startA, &endA) == 2);
    CHECK(endA - startA < 200000000);  // about twice the run, not the 424 ms trace
    CHECK(endA - startA > 79000000);

    // Row 2: an aclnn operator, clicked, then the timelines (Ctrl+1).
    output = ClickFirstDiffRow(level1 + "rank0_ascend_pt", level1 + "rank1_ascend_pt",
                               "{Click 110,262}{Ctrl+1}", &status);
    REQUIRE_MESSAGE(status == 0, output);
    CHECK_MESSAGE(Line(output, "selected") ==
                      "aclnnAddmm_MatMulCommon_MatMulV2 | Ascend Hardware | Stream 2 | on screen",
                  output);
    CHECK_MESSAGE(Line(output, "selected_b").find("| Ascend Hardware |") != std::string::npos,
                  output);
}
