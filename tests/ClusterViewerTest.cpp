// The cluster views through the real viewer under Xvfb: a generated cluster with a planted slow
// rank and slow link opens to each view, which shows them; a selected rank opens with Enter and
// compares with C; --step chooses the step every cluster view shows.
#include <doctest/doctest.h>
#include <stb/stb_image.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <vector>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

#include "TestSupport.hpp"

namespace {

namespace fs = std::filesystem;

const fs::path& Cluster() {
    static const fs::path root = [] {
        const fs::path dir =
            fs::temp_directory_path() / ("marey_cluster_viewer_" + std::to_string(::getpid()));
        fs::remove_all(dir);
        const std::string command =
            std::string(MAREY_GEN) + " --cluster " + dir.string() +
            " --ranks 16 --steps 5 --slow-rank 11 --slow-link 3-4 2>/dev/null";
        REQUIRE(std::system(command.c_str()) == 0);
        return dir;
    }();
    return root;
}

struct Run {
    std::string output;
    int status = -1;
    std::string png;
};

Run Viewer(const std::string& arguments, const std::string& name) {
    Run run;
    run.png = "/tmp/marey-cluster-" + std::to_string(::getpid()) + "-" + name + ".png";
    const std::string command = marey::test::XvfbRun() + std::string(MAREY_BINARY) + " " +
                                Cluster().string() + " --size 1600x900 --screenshot " + run.png +
                                " " + arguments + " 2>&1";
    run.output = marey::test::RunCommand(command, &run.status);
    return run;
}

// Pixels within a few levels of (r, g, b) in the whole image.
int CountColor(const std::string& png, int r, int g, int b) {
    int width = 0, height = 0, channels = 0;
    std::unique_ptr<unsigned char, void (*)(void*)> pixels(
        stbi_load(png.c_str(), &width, &height, &channels, 3), stbi_image_free);
    REQUIRE_MESSAGE(pixels != nullptr, "cannot read " << png);
    int count = 0;
    for (int i = 0; i < width * height; ++i) {
        const unsigned char* p = pixels.get() + static_cast<size_t>(i) * 3;
        if (std::abs(p[0] - r) <= 8 && std::abs(p[1] - g) <= 8 && std::abs(p[2] - b) <= 8) ++count;
    }
    return count;
}

struct Image {
    int width = 0, height = 0;
    std::unique_ptr<unsigned char, void (*)(void*)> pixels{nullptr, stbi_image_free};
    bool Near(int x, int y, int r, int g, int b, int tolerance) const {
        const unsigned char* p = pixels.get() + (static_cast<size_t>(y) * width + x) * 3;
        return std::abs(p[0] - r) <= tolerance && std::abs(p[1] - g) <= tolerance &&
               std::abs(p[2] - b) <= tolerance;
    }
    // The topmost row of column 'x' within 'tolerance' of (r, g, b) between rows 'top' and
    // 'bottom', or -1.
    int TopOf(int x, int top, int bottom, int r, int g, int b, int tolerance) const {
        for (int y = top; y < bottom && y < height; ++y)
            if (Near(x, y, r, g, b, tolerance)) return y;
        return -1;
    }
};

Image LoadImage(const std::string& png) {
    Image image;
    int channels = 0;
    image.pixels.reset(stbi_load(png.c_str(), &image.width, &image.height, &channels, 3));
    REQUIRE_MESSAGE(image.pixels != nullptr, "cannot read " << png);
    return image;
}

}  // namespace

TEST_CASE(
    "the overview by rank draws one bar per rank, the planted slow rank's computing share the "
    "tallest") {
    const Run run = Viewer("--view overview", "overview-bars");
    REQUIRE(run.status == 0);
    const Image image = LoadImage(run.png);
    // Pure computing (the time classes' blue) per pixel column; the bars are the runs of columns
    // holding more than a legend square's worth of it.
    std::vector<int> blue(static_cast<size_t>(image.width), 0);
    for (int x = 0; x < image.width; ++x)
        for (int y = 0; y < image.height; ++y) blue[x] += image.Near(x, y, 51, 140, 217, 8);
    std::vector<int> bars;  // the tallest column of each run
    for (int x = 0; x < image.width; ++x) {
        if (blue[x] <= 100) continue;
        if (x == 0 || blue[x - 1] <= 100) bars.push_back(0);
        bars.back() = std::max(bars.back(), blue[x]);
    }
    REQUIRE(bars.size() == 16);
    std::vector<int> sorted = bars;
    std::sort(sorted.begin(), sorted.end());
    const int tallest = static_cast<int>(std::max_element(bars.begin(), bars.end()) - bars.begin());
    CHECK(tallest == 11);  // --slow-rank 11: a slower card, more computing
    CHECK(bars[11] > sorted[8] * 11 / 10);
    CHECK(sorted[14] < sorted[8] * 11 / 10);  // every other rank about the median
    std::remove(run.png.c_str());
}

TEST_CASE(
    "the time overview draws the median step time, communication and wait as lines across the "
    "steps") {
    const Run run = Viewer("--view time", "time-lines");
    REQUIRE(run.status == 0);
    const Image image = LoadImage(run.png);
    // Columns between the first and the last step, clear of the axis labels; the plot spans rows
    // 90 to 820.
    struct Line {
        int first = -1, last = -1, found = 0;
        void Add(int y) { (first < 0 ? first : last) = y, ++found; }
    } median, comm, wait;
    int ordered = 0;
    for (int x = 200; x <= 1400; x += 50) {
        const int m = image.TopOf(x, 90, 820, 140, 191, 255, 24);
        const int c = image.TopOf(x, 90, 820, 245, 153, 56, 24);
        const int w = image.TopOf(x, 90, 820, 242, 89, 89, 24);
        if (m >= 0) median.Add(m);
        if (c >= 0) comm.Add(c);
        if (w >= 0) wait.Add(w);
        // Waiting is part of communication, on the same axis: its line is never above.
        ordered += c >= 0 && w >= 0 && c < w;
    }
    for (const Line* line : {&median, &comm, &wait}) {
        // A line across every column, flat: the generated steps take about as long.
        CHECK(line->found == 25);
        CHECK(std::abs(line->last - line->first) < 10);
    }
    CHECK(ordered == 25);
    // The median step time is near the slowest rank's, and the left axis ends at the next round
    // value above that: the median line lies in the upper half.
    CHECK(median.first < (90 + 820) / 2);
    std::remove(run.png.c_str());
}

TEST_CASE(
    "each cluster view opens on a generated cluster and shows its planted slow rank and slow "
    "link") {
    for (const char* view : {"steps", "overview", "matrix", "communication", "time", "marey"}) {
        CAPTURE(view);
        const Run run = Viewer(std::string("--view ") + view, view);
        REQUIRE(run.status == 0);
        CHECK(run.output.find("cluster ranks 16 steps 5 groups 3 slow_ranks 1 slow_links 1") !=
              std::string::npos);
        if (std::string(view) == "matrix")
            CHECK(CountColor(run.png, 255, 70, 60) > 40);  // the slow link's red frame
        if (std::string(view) == "steps")
            CHECK(CountColor(run.png, 255, 115, 102) > 40);  // the slow rank's flag
        if (std::string(view) == "communication")
            CHECK(CountColor(run.png, 255, 80, 70) > 40);  // the rank all wait for
        if (std::string(view) == "marey")
            CHECK(CountColor(run.png, 255, 128, 115) > 40);  // the slowest device's finding
        std::remove(run.png.c_str());
    }
}

TEST_CASE("--step chooses the step of every cluster view") {
    const Run run = Viewer("--view time --step 4", "step");
    REQUIRE(run.status == 0);
    CHECK(run.output.find("step 3 rank -1") != std::string::npos);  // the index of step "4"
    std::remove(run.png.c_str());
}

TEST_CASE(
    "a selected rank opens as a document with Enter, and C compares it with the median rank") {
    const Run opened = Viewer("--rank 11 --keys {Enter}", "enter");
    REQUIRE(opened.status == 0);
    CHECK(opened.output.find("view ") !=
          std::string::npos);  // a timeline is shown: the rank's document
    CHECK(opened.output.find("cluster ranks") == std::string::npos);
    std::remove(opened.png.c_str());
    const Run compared = Viewer("--rank 11 --keys c", "compare");
    REQUIRE(compared.status == 0);
    CHECK(compared.output.find("view_b ") != std::string::npos);
    CHECK(compared.output.find("offset 0") !=
          std::string::npos);  // one clock: the steps start together
    std::remove(compared.png.c_str());
}

TEST_CASE("the parallel layout colours the devices by peak memory: the planted device stands out") {
    const fs::path dir =
        fs::temp_directory_path() / ("marey-cluster-memory-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    const std::string generate =
        std::string(MAREY_GEN) + " --cluster " + dir.string() +
        " --tp 2 --pp 4 --dp 2 --microbatches 4 --memory-peak-rank 9 2>/dev/null";
    REQUIRE(std::system(generate.c_str()) == 0);
    const std::string png = dir.string() + ".png";
    // The colour list, then its last entry, Peak memory.
    const std::string command = marey::test::XvfbRun() + std::string(MAREY_BINARY) + " " +
                                dir.string() + " --view parallel --size 1600x900 --screenshot " +
                                png + " --keys '{Click 813,85}{Click 760,291}' 2>&1";
    int status = -1;
    const std::string output = marey::test::RunCommand(command, &status);
    REQUIRE(status == 0);
    CHECK(output.find("tab parallel") != std::string::npos);
    // One square at the bright end of the scale (rank 9, 1.4 times the others' peak), the 15
    // others at its dark end.
    const int bright = CountColor(png, 253, 231, 37), dark = CountColor(png, 68, 1, 84);
    CHECK(bright > 1000);
    CHECK(bright < 2500);
    CHECK(dark > 14 * 1000);
    std::remove(png.c_str());
    fs::remove_all(dir);
}

TEST_CASE("coming back to the cluster from a rank opened in it shows the view it was left on") {
    // Overview by rank (Ctrl+2), rank 11 opened with Enter, then the cluster's tab in the
    // document bar clicked: the overview again, not the first view.
    const Run back = Viewer("--rank 11 --keys '{Ctrl+2}{Enter}{Click 308,31}'", "back");
    REQUIRE(back.status == 0);
    CHECK(back.output.find("cluster ranks 16") != std::string::npos);
    CHECK(back.output.find("tab overview") != std::string::npos);
    std::remove(back.png.c_str());
}

TEST_CASE("the real 16-rank cluster_analysis_output opens to the step trace") {
    const std::string fixtures = marey::test::FixturesDir();
    if (fixtures.empty()) return;
    const std::string png = "/tmp/marey-cluster-" + std::to_string(::getpid()) + "-real.png";
    int status = -1;
    const std::string output = marey::test::RunCommand(
        marey::test::XvfbRun() + std::string(MAREY_BINARY) + " " + fixtures +
            "/msinsight/server/src/test/test_data/cluster_analysis_output --size 1600x900 "
            "--screenshot " +
            png + " 2>&1",
        &status);
    CHECK(status == 0);
    CHECK(output.find("cluster ranks 16 steps 1") != std::string::npos);
    std::remove(png.c_str());
}

TEST_CASE("a job in one Nsight Systems export: ranks in one timeline, and the cluster views") {
    const std::string fixtures = marey::test::FixturesDir();
    if (fixtures.empty()) return;
    const std::string path = fixtures + "/nsys-ai/tests/fixtures/mfu_2gpu_before.sqlite";
    const std::string png = "/tmp/marey-nsys-job-" + std::to_string(::getpid()) + ".png";
    auto run = [&](const std::string& arguments) {
        int status = -1;
        const std::string output = marey::test::RunCommand(
            marey::test::XvfbRun("1600x1000x24") + std::string(MAREY_BINARY) + " " + path +
                " --size 1400x800 --screenshot " + png + " " + arguments + " 2>&1",
            &status);
        CHECK(status == 0);
        return output;
    };
    // Without a cluster view: its two processes as two ranks in one timeline.
    const std::string timeline = run("");
    CHECK(timeline.find("view ") != std::string::npos);
    CHECK(timeline.find("cluster ranks") == std::string::npos);
    // With one: the cluster views over its processes; steps from an NVTX range when asked.
    CHECK(run("--view communication").find("cluster ranks 2 steps 0") != std::string::npos);
    CHECK(run("--view steps --step-range nccl:all_to_all").find("cluster ranks 2 steps 34") !=
          std::string::npos);
    // Traces carry no bytes per link: the matrix says so, with no colour scale and no green
    // "none" under Slow links.
    CHECK(run("--view matrix").find("cluster ranks 2") != std::string::npos);
    CHECK(CountColor(png, 140, 217, 140) == 0);
    CHECK(CountColor(png, 253, 231, 37) == 0);
    std::remove(png.c_str());
}

TEST_CASE("the Marey view of step 3 draws the bars and bands of every device") {
    const Run run = Viewer("--view marey --step 3", "marey");
    REQUIRE(run.status == 0);
    CHECK(run.output.find("step 2") != std::string::npos);
    // Computing bars (green, shaded per operator) fill much of the plot.
    int green = 0;
    for (const int g : {150, 170, 190, 210})
        green += CountColor(run.png, g * 30 / 72, g, g * 36 / 72);
    CHECK(green > 2000);
    std::remove(run.png.c_str());
}

TEST_CASE("the pipeline view draws a generated 1F1B pipeline: receives, arrows, the slow stage") {
    const fs::path dir =
        fs::temp_directory_path() / ("marey_pipeline_viewer_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    REQUIRE(std::system((std::string(MAREY_GEN) + " --cluster " + dir.string() +
                         " --tp 2 --pp 4 --dp 2 --microbatches 8 --steps 2 --slow-stage 2 "
                         "2>/dev/null >/dev/null")
                            .c_str()) == 0);
    const std::string png = "/tmp/marey-cluster-" + std::to_string(::getpid()) + "-pipeline.png";
    int status = -1;
    const std::string output = marey::test::RunCommand(
        marey::test::XvfbRun() + std::string(MAREY_BINARY) + " " + dir.string() +
            " --size 1600x900 --view pipeline --step 2 --screenshot " + png + " 2>&1",
        &status);
    REQUIRE_MESSAGE(status == 0, output);
    CHECK(output.find("cluster ranks 16 steps 2") != std::string::npos);
    CHECK(CountColor(png, 242, 102, 115) > 3000);  // the receives' red: every stage waits
    CHECK(CountColor(png, 150, 200, 255) > 30);    // forward arrows
    CHECK(CountColor(png, 255, 150, 170) > 30);    // backward arrows
    CHECK(CountColor(png, 255, 200, 100) > 20);    // the busiest stage's label, in amber
    // A double click on an operator of stage 2 opens its rank's timeline at it: about its length.
    const std::string opened = marey::test::RunCommand(
        marey::test::XvfbRun() + std::string(MAREY_BINARY) + " " + dir.string() +
            " --size 1600x900 --view pipeline --step 2 --keys {DoubleClick\\ 700,300} "
            "--screenshot " +
            png + " 2>&1",
        &status);
    REQUIRE_MESSAGE(status == 0, opened);
    CHECK(opened.find("cluster ranks") == std::string::npos);
    long long viewStart = 0, viewEnd = 0;
    REQUIRE(std::sscanf(opened.c_str() + opened.find("view "), "view %lld %lld", &viewStart,
                        &viewEnd) == 2);
    CHECK(viewEnd - viewStart < 5000000);
    std::remove(png.c_str());
    // A cluster without stages says so and draws no lanes.
    const Run plain = Viewer("--view pipeline", "no-pipeline");
    REQUIRE(plain.status == 0);
    CHECK(CountColor(plain.png, 242, 102, 115) == 0);
    std::remove(plain.png.c_str());
    fs::remove_all(dir);
}

TEST_CASE(
    "--ranks opens chosen ranks of a cluster in one timeline, one coloured group per rank, aligned "
    "on a step") {
    const Run run = Viewer("--ranks 11,3-4 --step 2", "ranks");
    REQUIRE(run.status == 0);
    // One clock in the generated job: the step starts together and no rank moves.
    CHECK(run.output.find("ranks 3 aligned 2 [rank 11 0] [rank 3 0] [rank 4 0]") !=
          std::string::npos);
    CHECK(run.output.find("cluster ranks") == std::string::npos);
    // The step asked for is the one shown: about one step wide (the run is five).
    long long viewStart = 0, viewEnd = 0;
    REQUIRE(std::sscanf(run.output.c_str() + run.output.find("view "), "view %lld %lld", &viewStart,
                        &viewEnd) == 2);
    CHECK(viewEnd - viewStart < 130000000);
    CHECK(viewEnd - viewStart > 60000000);
    // Each rank's colour runs down the side of its group and fills its folded processes' strips.
    CHECK(CountColor(run.png, 77, 166, 242) > 400);  // the first rank's blue
    CHECK(CountColor(run.png, 242, 153, 51) > 400);  // the second rank's orange
    std::remove(run.png.c_str());

    const Run clock = Viewer("--ranks 0 1 --step clock", "ranks-clock");
    REQUIRE(clock.status == 0);
    CHECK(clock.output.find("ranks 2 aligned clock [rank 0 0] [rank 1 0]") != std::string::npos);
    std::remove(clock.png.c_str());
}

TEST_CASE("more than eight ranks open folded, each rank a band per process in its colour") {
    const Run run = Viewer("--ranks 0-15 --step 3", "ranks-folded");
    REQUIRE(run.status == 0);
    CHECK(run.output.find("ranks 16 aligned 3 [rank 0 0]") != std::string::npos);
    // Ranks 0 and 10 share the first colour: their bands and their headers' edges.
    CHECK(CountColor(run.png, 77, 166, 242) > 4000);  // the header edges alone are about 400 px
    std::remove(run.png.c_str());
}

TEST_CASE(
    "--ranks takes the paths of rank folders, and names a rank id the cluster does not hold") {
    Run run;
    run.png = "/tmp/marey-cluster-" + std::to_string(::getpid()) + "-ranks-paths.png";
    run.output =
        marey::test::RunCommand(marey::test::XvfbRun() + std::string(MAREY_BINARY) + " --ranks " +
                                    (Cluster() / "rank_5_ascend_pt").string() + " " +
                                    (Cluster() / "rank_6_ascend_pt").string() +
                                    " --size 1600x900 --screenshot " + run.png + " 2>&1",
                                &run.status);
    REQUIRE(run.status == 0);
    CHECK(run.output.find("ranks 2 aligned 1 [rank 5 0] [rank 6 0]") != std::string::npos);
    std::remove(run.png.c_str());

    const Run missing = Viewer("--ranks 99", "ranks-missing");
    CHECK(missing.status != 0);
    CHECK(missing.output.find(Cluster().string() +
                              ": error: no rank folder of rank 99 (it has 16 rank folders)") !=
          std::string::npos);
}

TEST_CASE(
    "the real cluster_propose shows its ranks that differ in amber, never a green no slow rank") {
    const std::string fixtures = marey::test::FixturesDir();
    if (fixtures.empty()) return;
    for (const char* view : {"steps", "overview"}) {
        CAPTURE(view);
        const std::string png =
            "/tmp/marey-cluster-" + std::to_string(::getpid()) + "-propose-" + view + ".png";
        int status = -1;
        const std::string output = marey::test::RunCommand(
            marey::test::XvfbRun() + std::string(MAREY_BINARY) + " " + fixtures +
                "/mindinsight/tests/utils/resource/cluster_propose --size 1600x900 --view " + view +
                " --screenshot " + png + " 2>&1",
            &status);
        REQUIRE(status == 0);
        CHECK(output.find("cluster ranks 4 steps 5 groups 0 slow_ranks 0") != std::string::npos);
        CHECK(CountColor(png, 255, 204, 89) > 200);  // the group difference's amber text
        CHECK(CountColor(png, 140, 217, 140) == 0);  // no green "No slow rank" or "Healthy"
        std::remove(png.c_str());
    }
}

TEST_CASE("Enter on a rank whose folder holds no trace leaves a notice over the cluster views") {
    const fs::path copy = marey::test::TempDir("cluster_no_trace");
    fs::copy(Cluster(), copy, fs::copy_options::recursive);
    const fs::path output = copy / "rank_3_ascend_pt" / "ASCEND_PROFILER_OUTPUT";
    fs::remove(output / "trace_view.json");
    fs::remove(output / "kernel_details.csv");
    Run run;
    run.png = "/tmp/marey-cluster-" + std::to_string(::getpid()) + "-no-trace.png";
    run.output = marey::test::RunCommand(marey::test::XvfbRun() + std::string(MAREY_BINARY) + " " +
                                             copy.string() +
                                             " --rank 3 --keys {Enter} --size 1600x900 "
                                             "--screenshot " +
                                             run.png + " 2>&1",
                                         &run.status);
    CHECK(run.status == 0);  // the cluster is still shown
    CHECK(run.output.find("notice Cannot open " + (copy / "rank_3_ascend_pt").string() + ": ") !=
          std::string::npos);
    CHECK(run.output.find("cluster ranks 16") != std::string::npos);
    std::remove(run.png.c_str());
    fs::remove_all(copy);
}

TEST_CASE("a double-click shows the whole matrix and selects no rank, a click selects its row's") {
    const Run twice = Viewer("--view matrix --keys '{DoubleClick 100,120}'", "matrix-twice");
    REQUIRE_MESSAGE(twice.status == 0, twice.output);
    CHECK_MESSAGE(twice.output.find(" rank -1") != std::string::npos, twice.output);
    // A click selects once the time for a second click has passed (two keys' worth of frames).
    const Run once = Viewer("--view matrix --keys '{Click 100,120}{Shift}{Shift}'", "matrix-once");
    REQUIRE_MESSAGE(once.status == 0, once.output);
    CHECK_MESSAGE(once.output.find(" rank 0") != std::string::npos, once.output);
    std::remove(twice.png.c_str());
    std::remove(once.png.c_str());
}
