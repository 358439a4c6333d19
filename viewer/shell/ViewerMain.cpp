#include "shell/ViewerMain.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

#include "shell/App.hpp"
#include "shell/InstallPaths.hpp"
#include "cluster/ClusterFolder.hpp"
#include "loading/RanksTimeline.hpp"
#include "shell/ViewRegistry.hpp"

#ifndef MAREY_ASSETS_DIR
#define MAREY_ASSETS_DIR ""
#endif

namespace marey {
namespace {

void Usage() {
    std::fprintf(
        stderr,
        "usage: marey [PATH] [--screenshot OUT.png] [--size WxH] [--keys KEYS] [--panel NAME]\n"
        "                 [--source text|db] [--no-cache] [--step-range NVTX_RANGE_NAME]\n"
        "       marey --compare A B [--screenshot OUT.png] [--view timeline|compare] [--keys "
        "KEYS]\n"
        "                 [--view NAME] [--search TEXT] [--range A,B] [--frame-benchmark]\n"
        "       marey CLUSTER_DIR "
        "[--view steps|overview|matrix|communication|time|marey|parallel|pipeline]\n"
        "                 [--step N] [--rank R]\n"
        "       marey --ranks A B C... [--step N|clock]     several ranks in one timeline\n"
        "       marey CLUSTER_DIR --ranks 0-3,7 [--step N|clock]\n"
        "       marey stats PATH [--json] [--source text|db]\n"
        "       [mpirun -n P] marey summarize JOB_DIR --out SUMMARY.jsonl [--resume]\n"
        "       marey summarize RANK_DIR... [--out DIR]\n"
        "       marey stats --compare A B [--json]\n"
        "       marey check BASELINE CANDIDATE [--markdown|--html|--junit FILE] [--json]\n"
        "  PATH          a trace (.json, .json.gz), a rank folder or a cluster folder (several "
        "rank folders,\n"
        "                rank_summary_N.json files or a cluster_analysis_output), or a job's "
        "SUMMARY.jsonl;\n"
        "                without it, the bundled sample\n"
        "  --screenshot  render through the real pipeline (needs an X server or Xvfb), write a "
        "PNG, exit\n"
        "  --keys        keys played first, each held 0.1 s: W/S zoom, A/D pan, F frame, {Home} "
        "all\n"
        "  --panel       side panel to show: details, range, search, issues\n"
        "  --compare     open A and B (traces, rank folders or kernel_details.csv) and compare "
        "them: two\n"
        "                timelines on one aligned time axis, and the diff (--view compare)\n"
        "  --view        view to show: timeline, overview, operators, steps, device, "
        "communication, memory, data;\n"
        "                with --compare: timeline or compare; a cluster: steps, overview, matrix, "
        "communication, time, marey, parallel,\n"
        "                pipeline\n"
        "  --step N      a cluster: show step N in the cluster views (else the average over "
        "steps)\n"
        "  --rank R      a cluster: select rank R (Enter then opens its timeline, C compares it)\n"
        "  --ranks       several ranks in one timeline, each a collapsible group: paths of traces "
        "or rank\n"
        "                folders, or after a cluster folder rank ids and ranges; aligned on the "
        "first step\n"
        "                they all mark, or on --step N, or each on its own clock with --step "
        "clock\n"
        "  --source      a rank folder with both exports: open its text (trace_view.json …) or "
        "its\n"
        "                database (ascend_pytorch_profiler_N.db; the default)\n"
        "  --step-range  an Nsight Systems export: NVTX ranges of this name are the steps (else "
        "PyTorch's\n"
        "                ProfilerStep#N ranges)\n"
        "  --search TEXT select the first slice whose name contains TEXT (as typing it and Enter)\n"
        "  --range A,B   select the range from A to B ms after the trace start, on every track\n"
        "  --frame-benchmark  time frames from the whole trace down to 1 µs, print a table, "
        "exit\n"
        "  --no-cache    parse traces, neither reading nor writing the index cache "
        "($XDG_CACHE_HOME/marey)\n");
}

// The bundled sample: in the source tree the build came from, or installed beside the program.
std::string DefaultSample() {
    const std::string name = "/sample_rank0_ascend_pt";
    const std::string found = FirstReadable(
        {std::string(MAREY_ASSETS_DIR) + name, ExecutableDir() + "/../share/marey/assets" + name});
    return found.empty() ? std::string(MAREY_ASSETS_DIR) + name : found;
}

// Says what is wrong with the command line; the exit status of a bad command line.
int Fail(const std::string& message) {
    std::fprintf(stderr, "marey: %s\n", message.c_str());
    return 2;
}

// The largest window side asked for: X servers and GL drivers refuse larger framebuffers (an X
// BadValue that ends the program, not a message).
constexpr int kMaxWindowSidePx = 16384;
// A time in ms after the trace start that int64 ns can hold (2^63 ns is about 9.2e12 ms).
constexpr double kMaxRangeMs = 9.2e12;

// 'text' read whole as an int (no sign, no trailing bytes); false otherwise.
bool ReadWholeInt(std::string_view text, int* value) {
    const char* end = text.data() + text.size();
    return !text.empty() && text[0] != '-' && text[0] != '+' &&
           std::from_chars(text.data(), end, *value).ptr == end;
}

// 'text' read whole as a finite double; false otherwise.
bool ReadWholeDouble(std::string_view text, double* value) {
    const char* end = text.data() + text.size();
    const auto [stop, error] = std::from_chars(text.data(), end, *value);
    return !text.empty() && error == std::errc() && stop == end && std::isfinite(*value);
}

// "WxH" within the sizes a window can have; an error message, or empty.
std::string ReadSize(const std::string& text, ViewerOptions& options) {
    const size_t x = text.find('x');
    int width = 0, height = 0;
    if (x == std::string::npos || !ReadWholeInt(std::string_view(text).substr(0, x), &width) ||
        !ReadWholeInt(std::string_view(text).substr(x + 1), &height) || width < 200 ||
        height < 150 || width > kMaxWindowSidePx || height > kMaxWindowSidePx)
        return "--size: expected WxH from 200x150 to " + std::to_string(kMaxWindowSidePx) + "x" +
               std::to_string(kMaxWindowSidePx) + ", got \"" + text + "\"";
    options.width = width, options.height = height;
    return {};
}

// "A,B" in ms after the trace start, A before B; an error message, or empty.
std::string ReadRange(const std::string& text, ViewerOptions& options) {
    const size_t comma = text.find(',');
    double from = 0, to = 0;
    if (comma == std::string::npos ||
        !ReadWholeDouble(std::string_view(text).substr(0, comma), &from) ||
        !ReadWholeDouble(std::string_view(text).substr(comma + 1), &to))
        return "--range: expected A,B in ms after the trace start, got \"" + text + "\"";
    if (from < 0) return "--range: " + text + " starts before the trace (expected A of 0 or more)";
    if (!(from < to)) return "--range: " + text + " ends before it starts (expected A < B)";
    if (std::fabs(from) > kMaxRangeMs || std::fabs(to) > kMaxRangeMs)
        return "--range: " + text + " lies past what a trace's clock holds (±9.2e12 ms)";
    options.rangeFromMs = from, options.rangeToMs = to;
    return {};
}

// --view names a view of what is opened; an error message, or empty.
std::string UnknownView(const ViewerOptions& options) {
    if (options.view.empty()) return {};
    const ViewScope scope = !options.ranks.empty()         ? ViewScope::kRanks
                            : !options.comparePath.empty() ? ViewScope::kComparison
                            : options.opensAsCluster       ? ViewScope::kCluster
                                                           : ViewScope::kDocument;
    std::string names;
    for (const ViewEntry* view : ViewsOf(scope)) {
        if (options.view == view->name) return {};
        names += (names.empty() ? "" : ", ") + std::string(view->name);
    }
    return "--view: expected one of " + names + " here, got \"" + options.view + "\"";
}

}  // namespace

int RunViewer(int argc, char** argv) {
    ViewerOptions options;
    bool noCache = false;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        auto value = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
        if (arg == "--compare") {
            const char* a = value();
            const char* b = value();
            if (!a || !b) return Usage(), 2;
            options.path = a;
            options.comparePath = b;
        } else if (arg == "--screenshot") {
            const char* path = value();
            if (!path) return Usage(), 2;
            options.screenshotPath = path;
        } else if (arg == "--size") {
            const char* size = value();
            options.sizeGiven = true;
            if (!size) return Usage(), 2;
            if (std::string error = ReadSize(size, options); !error.empty()) return Fail(error);
        } else if (arg == "--keys") {
            const char* keys = value();
            if (!keys) return Usage(), 2;
            options.keys = keys;
        } else if (arg == "--panel") {
            const char* panel = value();
            if (!panel) return Usage(), 2;
            options.panel = panel;
            if (options.panel != "details" && options.panel != "range" &&
                options.panel != "search" && options.panel != "issues")
                return Fail("--panel: expected details, range, search or issues, got \"" +
                            options.panel + "\"");
        } else if (arg == "--step-range") {
            const char* name = value();
            if (!name || !*name) return Fail("--step-range: expected an NVTX range's name");
            options.stepRange = name;
        } else if (arg == "--source") {
            const char* source = value();
            if (!source) return Usage(), 2;
            const std::optional<RankSource> parsed = ParseRankSource(source);
            if (!parsed)
                return Fail(std::string("--source: expected text or db, got \"") + source + "\"");
            options.source = *parsed;
        } else if (arg == "--view") {
            const char* view = value();
            if (!view) return Usage(), 2;
            options.view = view;
        } else if (arg == "--step") {
            const char* step = value();
            if (!step) return Usage(), 2;
            options.step = step;
            int number = 0;
            if (options.step != kAlignOnClock && !ReadWholeInt(options.step, &number))
                return Fail("--step: expected a step number (0 or more) or clock, got \"" +
                            options.step + "\"");
        } else if (arg == "--rank") {
            const char* rank = value();
            if (!rank) return Usage(), 2;
            const char* end = rank + std::strlen(rank);
            int id = -1;
            if (std::from_chars(rank, end, id).ptr != end || id < 0)
                return Fail(std::string("--rank: expected a rank id (0 or more), got \"") + rank +
                            "\"");
            options.rank = RankId(id);
        } else if (arg == "--ranks") {
            while (i + 1 < argc && argv[i + 1][0] != '-') options.ranks.push_back(argv[++i]);
            if (options.ranks.empty()) return Usage(), 2;
        } else if (arg == "--search") {
            const char* query = value();
            if (!query) return Usage(), 2;
            options.search = query;
        } else if (arg == "--range") {
            const char* range = value();
            if (!range) return Usage(), 2;
            if (std::string error = ReadRange(range, options); !error.empty()) return Fail(error);
        } else if (arg == "--frame-benchmark") {
            options.frameBenchmark = true;
        } else if (arg == "--no-cache") {
            noCache = true;
        } else if (arg == "--help" || arg == "-h") {
            Usage();
            return 0;
        } else if (!arg.empty() && arg[0] != '-' && options.path.empty()) {
            options.path = arg;
        } else if (!arg.empty() && arg[0] == '-') {
            return Fail("unknown option \"" + arg + "\" (marey --help lists them)");
        } else {
            return Fail("unexpected argument \"" + arg + "\": one PATH is opened (" + options.path +
                        " already)");
        }
    }
    if (!options.ranks.empty()) {
        auto paths = ResolveRankPaths(options.path, options.ranks);
        if (!paths.ok()) {
            std::fprintf(stderr, "marey: %s\n", paths.message().c_str());
            return 2;
        }
        options.ranks = std::move(paths.value());
    }
    Result<IndexCacheOptions> cache = IndexCacheFromEnvironment(noCache);
    if (!cache.ok()) return Fail(cache.message());
    options.cache = std::move(cache.value());
    if (options.path.empty()) options.path = DefaultSample();
    if (!options.comparePath.empty())
        for (const std::string& side : {options.path, options.comparePath})
            if (IsClusterPath(side))
                return Fail(
                    "--compare: " + side +
                    " is a cluster folder, not one rank: a comparison is of two traces "
                    "or rank folders (open the cluster, select a rank and press C to compare it)");
    options.opensAsCluster = OpensAsCluster(options.path, options.view);
    if (std::string error = UnknownView(options); !error.empty()) return Fail(error);
    App app;
    return app.Run(options);
}

}  // namespace marey
