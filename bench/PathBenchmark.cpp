#include "PathBenchmark.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <thread>

#include "BenchSupport.hpp"
#include "ClusterBenchmarks.hpp"
#include "loading/RanksTimeline.hpp"
#include "path/RanksPath.hpp"

namespace marey::bench {
namespace {

struct RanksPathMeasure {
    double loadSeconds = 0, analysesSeconds = 0, pathSeconds = 0;
    uint64_t ranks = 0, events = 0, pathEvents = 0, pathEdges = 0, crossings = 0;
    uint64_t peakKb = 0;
};

RanksPathMeasure MeasureRanksPath(const std::vector<std::string>& paths, unsigned threads) {
    RanksPathMeasure measure;
    RanksTimelineOptions options;
    options.load.threads = threads ? threads : std::max(1u, std::thread::hardware_concurrency());
    double start = Now();
    auto loaded = LoadRanksTimeline(paths, options);
    measure.loadSeconds = Now() - start;
    if (!loaded.ok()) {
        std::fprintf(stderr, "%s\n", loaded.message().c_str());
        std::abort();
    }
    const TraceModel& model = *loaded.value().model;
    measure.ranks = model.groups.size();
    measure.events = model.sliceCount;
    TraceAnalysisOptions analysisOptions;
    analysisOptions.threads = options.load.threads;
    start = Now();
    const TraceAnalyses analyses = AnalyzeTrace(model, analysisOptions);
    measure.analysesSeconds = Now() - start;
    start = Now();
    const std::optional<std::string> step = LongestSharedStep(analyses);
    const std::optional<CriticalPath> path =
        step ? CriticalPathAcrossRanks(model, analyses, *step) : std::nullopt;
    measure.pathSeconds = Now() - start;
    if (path) {
        measure.pathEvents = path->events;
        measure.pathEdges = path->edges;
        measure.crossings = path->collectives.size();
    }
    measure.peakKb = ReadStatusKb("VmHWM:");
    return measure;
}

}  // namespace

int RunRanksPathBenchmark(const std::vector<uint64_t>& rankCounts, uint64_t eventsPerRank,
                          const std::string& dir, int repeat, unsigned threads, bool keep) {
    for (const uint64_t ranks : rankCounts) {
        const std::string folder = WriteRankTraces(dir, ranks, eventsPerRank);
        if (folder.empty()) return 1;
        std::vector<std::string> paths;
        for (uint64_t r = 0; r < ranks; ++r) paths.push_back(RankTracePath(folder, r));
        RanksPathMeasure best;
        best.pathSeconds = 1e30;
        for (int r = 0; r < repeat; ++r) {
            ReadTreeIntoPageCache(folder);
            const RanksPathMeasure m = InChild([&] { return MeasureRanksPath(paths, threads); });
            if (m.pathSeconds < best.pathSeconds) best = m;
        }
        std::printf("\n%llu Kineto rank traces of about %llu events in one timeline (%s)\n",
                    static_cast<unsigned long long>(best.ranks),
                    static_cast<unsigned long long>(eventsPerRank), folder.c_str());
        std::printf("  loaded into one model        : %8.3f s  (%llu slices)\n", best.loadSeconds,
                    static_cast<unsigned long long>(best.events));
        std::printf("  device analyses of every rank: %8.3f s\n", best.analysesSeconds);
        std::printf(
            "  one step's path across ranks : %8.3f s  (%llu events, %llu edges, %llu "
            "collective crossings), peak resident %.1f MB\n",
            best.pathSeconds, static_cast<unsigned long long>(best.pathEvents),
            static_cast<unsigned long long>(best.pathEdges),
            static_cast<unsigned long long>(best.crossings),
            static_cast<double>(best.peakKb) / 1024.0);
        std::fflush(stdout);
        if (!keep) std::filesystem::remove_all(folder);
    }
    return 0;
}

}  // namespace marey::bench
