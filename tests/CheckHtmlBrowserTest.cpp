// The HTML report of `marey check` in a real browser: Debian's headless Chromium renders the page
// of a generated pair with planted regressions to a PNG, and the test reads the pixels back (the
// page is not blank, the verdict's red and both series' colours are there) and Chromium's log (no
// console message at all: the page has no script, and nothing failed to load). Without Chromium
// the test fails in CI (CI=true) and says it is skipped elsewhere.
#include <doctest/doctest.h>
#include <stb/stb_image.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "TestSupport.hpp"
#include "TraceGenerator.hpp"
#include "report/CheckHtml.hpp"

using namespace marey;
namespace fs = std::filesystem;

namespace {

constexpr int kWidthPx = 1200, kHeightPx = 1600;

// The Chromium binary on PATH, or "".
std::string FindChromium() {
    int status = -1;
    std::string path = test::RunCommand("command -v chromium 2>/dev/null", &status);
    while (!path.empty() && (path.back() == '\n' || path.back() == '\r')) path.pop_back();
    return status == 0 ? path : "";
}

bool InCi() {
    const char* ci = std::getenv("CI");
    return ci && std::string(ci) != "" && std::string(ci) != "false" && std::string(ci) != "0";
}

std::string ReadText(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

struct Rgb {
    int r, g, b;
};

// "#2563eb" → {37, 99, 235}.
Rgb ParseColour(const char* hex) {
    const long value = std::strtol(hex + 1, nullptr, 16);
    return {static_cast<int>((value >> 16) & 0xff), static_cast<int>((value >> 8) & 0xff),
            static_cast<int>(value & 0xff)};
}

struct Screenshot {
    int width = 0, height = 0;
    std::unique_ptr<unsigned char, void (*)(void*)> pixels{nullptr, stbi_image_free};

    const unsigned char* At(int x, int y) const {
        return pixels.get() + (static_cast<size_t>(y) * width + x) * 3;
    }
    static bool Near(const unsigned char* p, const Rgb& c, int tolerance) {
        return std::abs(p[0] - c.r) <= tolerance && std::abs(p[1] - c.g) <= tolerance &&
               std::abs(p[2] - c.b) <= tolerance;
    }
    int Count(const Rgb& colour, int tolerance = 10) const {
        int count = 0;
        for (int y = 0; y < height; ++y)
            for (int x = 0; x < width; ++x) count += Near(At(x, y), colour, tolerance);
        return count;
    }
};

}  // namespace

TEST_CASE("the HTML report renders in headless Chromium with its plots and no console message") {
    const std::string chromium = FindChromium();
    if (chromium.empty()) {
        if (InCi())
            FAIL("chromium not installed, and CI is set: tools/install-deps.sh installs it");
        MESSAGE("skipped: chromium not installed");
        return;
    }
    const fs::path dir = test::TempDir("check_browser");
    GeneratorOptions options;
    options.events = 20000;
    options.seed = 1;
    const GeneratorOptions a = ComparisonSideA(options);
    GeneratorOptions b = a;
    b.slowOperatorKind = 0, b.slowOperatorPercent = 100, b.extraOperator = true;
    std::string error;
    REQUIRE_MESSAGE(WriteRankDirectory(a, (dir / "a").string(), &error), error);
    REQUIRE_MESSAGE(WriteRankDirectory(b, (dir / "b").string(), &error), error);
    const fs::path page = dir / "check.html";
    int status = -1;
    const std::string lines =
        test::RunCommand(std::string(MAREY_BINARY) + " check " + (dir / "a").string() + " " +
                             (dir / "b").string() + " --html " + page.string() + " 2>&1",
                         &status);
    REQUIRE_MESSAGE(WIFEXITED(status), lines);
    REQUIRE_MESSAGE(WEXITSTATUS(status) == 1, lines);

    // Chromium's profile, caches and crash reports all go to the test's folder, never the home
    // folder. As root it needs --no-sandbox.
    const fs::path home = dir / "home", shot = dir / "check.png";
    fs::create_directories(home);
    const std::string command =
        "cd " + dir.string() + " && HOME=" + home.string() + " XDG_CONFIG_HOME=" + home.string() +
        "/config XDG_CACHE_HOME=" + home.string() + "/cache timeout 60 " + chromium +
        " --headless --disable-gpu --no-sandbox --hide-scrollbars --no-first-run"
        " --user-data-dir=" +
        (dir / "profile").string() + " --window-size=" + std::to_string(kWidthPx) + "," +
        std::to_string(kHeightPx) + " --screenshot=" + shot.string() +
        " --dump-dom --enable-logging=stderr --v=1 file://" + page.string() + " 2>" +
        (dir / "chromium.log").string();
    const std::string dom = test::RunCommand(command, &status);
    const std::string log = ReadText(dir / "chromium.log");
    REQUIRE_MESSAGE(status == 0, log.substr(0, 4000));

    // The DOM Chromium built is the page: the verdict, both plots, no script.
    CHECK(dom.find("<div class=\"verdict fail\">FAIL: ") != std::string::npos);
    CHECK(dom.find("<svg class=\"plot\"") != std::string::npos);
    CHECK(dom.find("<h2>Operator that regressed most</h2>") != std::string::npos);
    CHECK(dom.find("<script") == std::string::npos);
    // Chromium logs every console message as ":CONSOLE(…)"; a page without script logs none unless
    // something failed (a resource, a parse error).
    CHECK_MESSAGE(log.find(":CONSOLE") == std::string::npos, log.substr(log.find(":CONSOLE")));
    CHECK(log.find("Uncaught") == std::string::npos);

    Screenshot image;
    int channels = 0;
    image.pixels.reset(stbi_load(shot.c_str(), &image.width, &image.height, &channels, 3));
    REQUIRE_MESSAGE(image.pixels != nullptr, "cannot read " << shot.string());
    CHECK(image.width == kWidthPx);
    CHECK(image.height == kHeightPx);
    // Not blank: text, tables and plots cover a good part of the page (the background is white
    // and a light grey).
    int ink = 0;
    for (int y = 0; y < image.height; ++y)
        for (int x = 0; x < image.width; ++x)
            ink += !Screenshot::Near(image.At(x, y), {255, 255, 255}, 12) &&
                   !Screenshot::Near(image.At(x, y), {245, 247, 250}, 6);
    CHECK(ink > kWidthPx * kHeightPx / 50);
    // The verdict's red, and both series' lines in the step-time plot.
    CHECK(image.Count({180, 35, 24}, 12) > 300);
    CHECK(image.Count(ParseColour(kBaselineColour)) > 500);
    CHECK(image.Count(ParseColour(kCandidateColour)) > 500);
    fs::remove_all(dir);
}
