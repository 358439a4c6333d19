#include "ViewerMain.hpp"

#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "App.hpp"
#include "InstallPaths.hpp"
#include "cluster/ClusterFolder.hpp"
#include "loading/RanksTimeline.hpp"
#include "views/ViewRegistry.hpp"

#ifndef MAREY_ASSETS_DIR
#define MAREY_ASSETS_DIR ""
#endif

namespace marey {
namespace {

void Usage() {
    std::fprintf(
        stderr,
        "usage: marey [PATH] [--screenshot OUT.png] [--size WxH] [--keys KEYS] [--panel NAME]\n"
        "                 [--source text|db] [--no-cache]\n"
        "       marey --compare A B [--screenshot OUT.png] [--view timeline|compare] [--keys "
        "KEYS]\n"
        "                 [--view NAME] [--search TEXT] [--range A,B] [--frame-benchmark]\n"
        "       marey CLUSTER_DIR [--view steps|overview|matrix|communication|time|marey] [--step "
        "N] [--rank R]\n"
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
        "communication, memory;\n"
        "                with --compare: timeline or compare; a cluster: steps, overview, matrix, "
        "communication, time, marey\n"
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
            if (!size || std::sscanf(size, "%dx%d", &options.width, &options.height) != 2 ||
                options.width < 200 || options.height < 150)
                return Usage(), 2;
        } else if (arg == "--keys") {
            const char* keys = value();
            if (!keys) return Usage(), 2;
            options.keys = keys;
        } else if (arg == "--panel") {
            const char* panel = value();
            if (!panel) return Usage(), 2;
            options.panel = panel;
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
            if (!range ||
                std::sscanf(range, "%lf,%lf", &options.rangeFromMs, &options.rangeToMs) != 2)
                return Usage(), 2;
        } else if (arg == "--frame-benchmark") {
            options.frameBenchmark = true;
        } else if (arg == "--no-cache") {
            noCache = true;
        } else if (arg == "--help" || arg == "-h") {
            Usage();
            return 0;
        } else if (!arg.empty() && arg[0] != '-' && options.path.empty()) {
            options.path = arg;
        } else {
            Usage();
            return 2;
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
    if (!options.view.empty()) {
        const ViewScope scope = !options.ranks.empty()         ? ViewScope::kRanks
                                : !options.comparePath.empty() ? ViewScope::kComparison
                                : IsClusterPath(options.path)  ? ViewScope::kCluster
                                                               : ViewScope::kDocument;
        std::string names;
        bool known = false;
        for (const ViewEntry* view : ViewsOf(scope)) {
            known = known || options.view == view->name;
            names += (names.empty() ? "" : ", ") + std::string(view->name);
        }
        if (!known)
            return Fail("--view: expected one of " + names + " here, got \"" + options.view + "\"");
    }
    App app;
    return app.Run(options);
}

}  // namespace marey
