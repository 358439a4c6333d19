// marey-bench: load, index and query speed and memory on generated Ascend-like traces.
//
//   marey-bench [--sizes 1e5,1e6,1e7] [--dir DIR] [--repeat N] [--threads T] [--keep] [--compare]
//
// For each size it writes a trace with the project's generator, then, each in a fresh child
// process so that peak memory is its own and with the file just read into the page cache: a
// bare single-threaded simdjson On-Demand walk over the file (every field of every event
// touched), and marey's load + index. It prints both
// times and their ratio, throughput, peak resident memory and bytes per event beyond the mapped
// file, and viewport query times for random windows from the whole trace down to 1 µs.
// With --compare it writes a comparison pair of each size instead and times loading both one
// after the other against loading them at once, and the diff once both are loaded.
// With --database it writes one run of each size as a rank folder holding both exports and times
// opening each to the timeline (trace_view.json against ascend_pytorch_profiler_0.db).
// With --nsys it writes a Kineto trace of one GPU rank of each size and its Nsight Systems export
// twin, and times opening each to the timeline.
// With --gpu it writes a Kineto trace of one GPU rank of each size and times its load, then
// every analysis of docs/trace-analyses.md on it.
// With --cache it times a load without the index cache, a first load that writes it (and the
// write, on its own thread), and a re-open from it; the cache goes to DIR/marey-bench-index-cache.
// Then `marey stats --json` and the window (under xvfb-run) as processes of their own, opened
// with an empty cache and re-opened from it.
// With --sql it loads the load benchmark's trace of each size and times `marey sql`'s queries on
// it: count(*) in 1 ms windows of ts (answered from the index) and a count and sum by name.
// With --cluster RANKS[,RANKS…] [--steps S] it writes a generated cluster of each size (rank
// folders with a planted slow rank and slow link), then times opening it to the cluster views
// (every rank's summary read on every core, then every view's derivation) with peak memory and
// the speed the rank files were read at, `marey stats DIR --json` as a process of its own (which
// adds the Marey view's figures), and, in the same run, bench/cluster_read.py reading the same
// files with Python's csv and json.
#include <fcntl.h>
#include <simdjson.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iterator>
#include <fstream>
#include <functional>
#include <random>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "BenchSupport.hpp"
#include "ClusterBenchmarks.hpp"
#include "PathBenchmark.hpp"
#include "SqlBenchmark.hpp"
#include "ClusterGenerator.hpp"
#include "KinetoTraceGenerator.hpp"
#include "NsysTwinWriter.hpp"
#include "TraceGenerator.hpp"
#include "cluster/Cluster.hpp"
#include "cluster/ClusterFolder.hpp"
#include "cluster/ClusterReport.hpp"
#include "loading/ClusterLoader.hpp"
#include "compare/Comparison.hpp"
#include "compare/RegressionCheck.hpp"
#include "index/RowQuery.hpp"
#include "load/TraceText.hpp"
#include "loading/RankLoader.hpp"
#include "import/chrome_json/TraceLoader.hpp"
#include "report/CheckHtml.hpp"
#include "report/CheckReport.hpp"
#include "path/CriticalPath.hpp"
#include "trace/TraceAnalyses.hpp"

using namespace marey;
using namespace marey::bench;
namespace ondemand = simdjson::ondemand;

namespace {

struct Measure {
    double seconds = 0;
    uint64_t peakBytes = 0;
    uint64_t baseBytes = 0;
    uint64_t items = 0;  // events walked or loaded
    double queryMedianUs[8] = {};
    double queryP99Us[8] = {};
    double queryItems[8] = {};
    double queryWindowNs[8] = {};
    double rowMedianUs[8] = {};
    double rowP99Us[8] = {};
    int zoomLevels = 0;
};

// The reference: one thread, simdjson On-Demand, every field of every event visited.
Measure BareWalk(const std::string& path) {
    Measure measure;
    measure.baseBytes = ReadStatusKb("VmRSS:") * 1024;
    ResetPeakRss();
    const double start = Now();
    auto text = TraceText::Open(path);
    if (!text.ok()) std::abort();
    ondemand::parser parser;
    ondemand::document doc;
    const TraceText& t = text.value();
    if (parser.iterate(t.data(), t.size(), t.size() + kTextPaddingBytes).get(doc)) std::abort();
    ondemand::array events;
    if (doc.get_array().get(events)) std::abort();
    uint64_t checksum = 0;
    for (auto eventResult : events) {
        ondemand::object event;
        if (eventResult.get_object().get(event)) std::abort();
        for (auto fieldResult : event) {
            ondemand::field field;
            if (std::move(fieldResult).get(field)) std::abort();
            const std::string_view token = field.value().raw_json_token();
            checksum += token.size() + static_cast<unsigned char>(*field.key().raw());
        }
        ++measure.items;
    }
    measure.seconds = Now() - start;
    measure.peakBytes = ReadStatusKb("VmHWM:") * 1024;
    if (checksum == 42) std::puts("");
    return measure;
}

Measure LoadAndQuery(const std::string& path, unsigned threads) {
    Measure measure;
    measure.baseBytes = ReadStatusKb("VmRSS:") * 1024;
    ResetPeakRss();
    LoadOptions options;
    options.threads = threads;
    const double start = Now();
    auto loaded = LoadTrace(path, options);
    measure.seconds = Now() - start;
    measure.peakBytes = ReadStatusKb("VmHWM:") * 1024;
    if (!loaded.ok()) {
        std::fprintf(stderr, "%s\n", loaded.message().c_str());
        std::abort();
    }
    const TraceModel& model = *loaded.value();
    measure.items = model.report.eventCount;

    // Viewport queries: every row of every track, as a frame at 1920 px would ask.
    std::mt19937_64 random(7);
    const TimeNs span = std::max<TimeNs>(1, model.lastNs - model.firstNs);
    std::vector<TimeNs> windows;
    for (TimeNs w = span; w >= 1000; w /= 10) windows.push_back(w);
    windows.push_back(1000);
    if (windows.size() > 8)
        windows.erase(windows.begin() + 1, windows.begin() + (windows.size() - 7));
    std::vector<VisibleItem> items;
    for (size_t level = 0; level < windows.size(); ++level) {
        const TimeNs window = windows[level];
        std::vector<double> times, rowTimes;
        uint64_t returned = 0;
        constexpr int kQueries = 200;
        for (int q = 0; q < kQueries; ++q) {
            const TimeNs startNs =
                model.firstNs +
                static_cast<TimeNs>(random() %
                                    static_cast<uint64_t>(std::max<TimeNs>(1, span - window + 1)));
            const double t0 = Now();
            items.clear();
            for (const Track& track : model.tracks)
                for (const Row& row : track.rows) {
                    const double r0 = Now();
                    QueryVisible(row, startNs, startNs + window, std::max<TimeNs>(1, window / 1920),
                                 items);
                    rowTimes.push_back((Now() - r0) * 1e6);
                }
            times.push_back((Now() - t0) * 1e6);
            returned += items.size();
        }
        std::sort(times.begin(), times.end());
        std::sort(rowTimes.begin(), rowTimes.end());
        measure.rowMedianUs[level] = rowTimes[rowTimes.size() / 2];
        measure.rowP99Us[level] = rowTimes[rowTimes.size() * 99 / 100];
        measure.queryMedianUs[level] = times[times.size() / 2];
        measure.queryP99Us[level] = times[times.size() * 99 / 100];
        measure.queryItems[level] = static_cast<double>(returned) / kQueries;
        measure.queryWindowNs[level] = static_cast<double>(window);
    }
    measure.zoomLevels = static_cast<int>(windows.size());
    return measure;
}

struct CompareMeasure {
    double sequentialSeconds = 0, pairSeconds = 0, diffSeconds = 0;
    // `marey check` once both are loaded: both sides' series, the comparison and every report
    // written to its file.
    double checkSeconds = 0;
    uint64_t events = 0;
};

// Both sides one after the other on every core, then both at once (LoadRankPair), then the diff,
// then the check with its reports written to reportPrefix.txt, .md, .html, .xml and .json.
// Run in a child process, so that the heap of one run does not help the next.
CompareMeasure LoadPairAndDiff(const std::string& pathA, const std::string& pathB,
                               const std::string& reportPrefix) {
    CompareMeasure measure;
    double start = Now();
    {
        auto a = LoadRank(pathA);
        auto b = LoadRank(pathB);
        if (!a.ok() || !b.ok()) std::abort();
        measure.sequentialSeconds = Now() - start;
    }
    ReadIntoPageCache(pathA);
    ReadIntoPageCache(pathB);
    start = Now();
    LoadedPair pair = LoadRankPair(pathA, pathB);
    measure.pairSeconds = Now() - start;
    if (!pair.a.ok() || !pair.b.ok()) std::abort();
    start = Now();
    const Comparison comparison = CompareRanks(pair.a.value(), pair.b.value(), {});
    measure.diffSeconds = Now() - start;
    measure.events =
        pair.a.value().model->report.eventCount + pair.b.value().model->report.eventCount;
    if (comparison.diff.operators.empty()) std::abort();
    start = Now();
    const Result<CheckResult> check =
        CheckSides(MakeCheckSide(pair.a.value()), MakeCheckSide(pair.b.value()), CheckRules{});
    if (!check.ok()) std::abort();
    // What `marey check --markdown --html --junit --json` writes: every report, to its file.
    uint64_t reportBytes = 0;
    const std::pair<const char*, std::string> reports[] = {
        {".txt", CheckToText(check.value())},  {".md", CheckToMarkdown(check.value())},
        {".html", CheckToHtml(check.value())}, {".xml", CheckToJunit(check.value())},
        {".json", CheckToJson(check.value())},
    };
    for (const auto& [extension, text] : reports) {
        std::ofstream out(reportPrefix + extension, std::ios::binary);
        out << text;
        if (!out) std::abort();
        reportBytes += text.size();
    }
    measure.checkSeconds = Now() - start;
    for (const auto& report : reports) std::remove((reportPrefix + report.first).c_str());
    if (reportBytes == 0 || !check.value().Failed()) std::abort();  // the pair's planted changes
    return measure;
}

int RunCompareBenchmark(const std::vector<uint64_t>& sizes, const std::string& dir, int repeat,
                        bool keep) {
    for (const uint64_t size : sizes) {
        GeneratorOptions options;
        options.events = size;
        options.seed = 42;
        const std::string pathA = dir + "/marey-bench-compare-" + std::to_string(size) + "-a.json";
        const std::string pathB = dir + "/marey-bench-compare-" + std::to_string(size) + "-b.json";
        const std::string reportPrefix =
            dir + "/marey-bench-compare-" + std::to_string(size) + "-check";
        if (!WriteTrace(pathA, ComparisonSideA(options)) ||
            !WriteTrace(pathB, ComparisonSideB(options)))
            return 1;
        CompareMeasure best;
        best.sequentialSeconds = best.pairSeconds = best.diffSeconds = best.checkSeconds = 1e30;
        for (int r = 0; r < repeat; ++r) {
            ReadIntoPageCache(pathA);
            ReadIntoPageCache(pathB);
            const CompareMeasure m =
                InChild([&] { return LoadPairAndDiff(pathA, pathB, reportPrefix); });
            best.sequentialSeconds = std::min(best.sequentialSeconds, m.sequentialSeconds);
            best.pairSeconds = std::min(best.pairSeconds, m.pairSeconds);
            best.diffSeconds = std::min(best.diffSeconds, m.diffSeconds);
            best.checkSeconds = std::min(best.checkSeconds, m.checkSeconds);
            best.events = m.events;
        }
        std::printf("\ncomparison pair of %llu events in all (%s, %s)\n",
                    static_cast<unsigned long long>(best.events), pathA.c_str(), pathB.c_str());
        std::printf("  load A, then B, each on every core : %8.3f s\n", best.sequentialSeconds);
        std::printf(
            "  load A and B at once, half each    : %8.3f s  (%.2f of one after the other)\n",
            best.pairSeconds, best.pairSeconds / best.sequentialSeconds);
        std::printf("  summaries, alignment and diff      : %8.3f s\n", best.diffSeconds);
        std::printf(
            "  marey check after the load, reports: %8.3f s  (load and check %.2f of the load)\n",
            best.checkSeconds, (best.pairSeconds + best.checkSeconds) / best.pairSeconds);
        std::fflush(stdout);
        if (!keep) std::remove(pathA.c_str()), std::remove(pathB.c_str());
    }
    return 0;
}

// [SECTION] Text against database

// One run written as text and as a database: the time to open each to the timeline on every
// core, and peak resident memory (the text's mapped file included: what a person's machine holds).
struct DatabaseMeasure {
    double seconds = 0;
    uint64_t peakBytes = 0, baseBytes = 0, slices = 0, flows = 0;
};

DatabaseMeasure OpenTimeline(const std::string& path, bool database, unsigned threads) {
    DatabaseMeasure measure;
    measure.baseBytes = ReadStatusKb("VmRSS:") * 1024;
    ResetPeakRss();
    LoadOptions options;
    options.threads = threads;
    const double start = Now();
    auto loaded = database ? LoadRankTimeline(path, options) : LoadTrace(path, options);
    measure.seconds = Now() - start;
    measure.peakBytes = ReadStatusKb("VmHWM:") * 1024;
    if (!loaded.ok()) {
        std::fprintf(stderr, "%s\n", loaded.message().c_str());
        std::abort();
    }
    measure.slices = loaded.value()->sliceCount;
    measure.flows = loaded.value()->flows.size();
    return measure;
}

int RunDatabaseBenchmark(const std::vector<uint64_t>& sizes, const std::string& dir, int repeat,
                         unsigned threads, bool keep) {
    for (const uint64_t size : sizes) {
        const std::string folder = dir + "/marey-bench-db-" + std::to_string(size);
        const std::string output = folder + "/ASCEND_PROFILER_OUTPUT";
        const std::string text = output + "/trace_view.json";
        const std::string database = output + "/ascend_pytorch_profiler_0.db";
        struct stat info {};
        if (stat(database.c_str(), &info) != 0 || stat(text.c_str(), &info) != 0) {
            GeneratorOptions options;
            options.events = size;
            options.seed = 42;
            std::string error;
            if (!WriteRankDirectory(options, folder, &error, nullptr, RankExport::kBoth)) {
                std::fprintf(stderr, "%s\n", error.c_str());
                return 1;
            }
        }
        struct stat textInfo {
        }, dbInfo{};
        stat(text.c_str(), &textInfo);
        stat(database.c_str(), &dbInfo);
        DatabaseMeasure best[2];
        best[0].seconds = best[1].seconds = 1e30;
        for (int r = 0; r < repeat; ++r) {
            for (int kind = 0; kind < 2; ++kind) {
                ReadIntoPageCache(kind ? database : text);
                const DatabaseMeasure m =
                    InChild([&] { return OpenTimeline(kind ? folder : text, kind == 1, threads); });
                if (m.seconds < best[kind].seconds) best[kind] = m;
            }
        }
        const double slices = static_cast<double>(best[0].slices);
        std::printf("\none run, %llu slices and %llu arrows (%s)\n",
                    static_cast<unsigned long long>(best[0].slices),
                    static_cast<unsigned long long>(best[0].flows), folder.c_str());
        const char* names[] = {"text (trace_view.json)", "database (.db)"};
        const struct stat* infos[] = {&textInfo, &dbInfo};
        for (int kind = 0; kind < 2; ++kind)
            std::printf(
                "  %-24s %8.1f MB  open %8.3f s  peak resident %8.1f MB (%.1f bytes/slice)"
                "%s\n",
                names[kind], static_cast<double>(infos[kind]->st_size) / 1e6, best[kind].seconds,
                static_cast<double>(best[kind].peakBytes) / 1e6,
                static_cast<double>(best[kind].peakBytes - best[kind].baseBytes) / slices,
                best[kind].slices == best[0].slices && best[kind].flows == best[0].flows
                    ? ""
                    : "  (a different model!)");
        std::printf("  database / text: time %.2f, memory %.2f\n",
                    best[1].seconds / best[0].seconds,
                    static_cast<double>(best[1].peakBytes - best[1].baseBytes) /
                        static_cast<double>(best[0].peakBytes - best[0].baseBytes));
        std::fflush(stdout);
        if (!keep) std::filesystem::remove_all(folder);
    }
    return 0;
}

std::string WindowText(double ns) {
    char text[32];
    if (ns >= 1e9)
        std::snprintf(text, sizeof text, "%.3g s", ns / 1e9);
    else if (ns >= 1e6)
        std::snprintf(text, sizeof text, "%.3g ms", ns / 1e6);
    else
        std::snprintf(text, sizeof text, "%.3g µs", ns / 1e3);
    return text;
}

}  // namespace

// [SECTION] Analyses of a GPU trace

// A generated Kineto trace of one GPU rank: the time to load it, then to compute every analysis
// of docs/trace-analyses.md (what the viewer does off the UI thread after the load).
struct GpuAnalysisMeasure {
    double loadSeconds = 0, analysisSeconds = 0;
    uint64_t events = 0, activities = 0, launches = 0;
    // The critical path of the longest step, and of the whole trace as one window (the most a
    // person can ask for), after the analyses; the events of each graph.
    double stepPathSeconds = 0, wholePathSeconds = 0;
    uint64_t stepPathEvents = 0, wholePathEvents = 0;
};

GpuAnalysisMeasure LoadAndAnalyze(const std::string& path, unsigned threads) {
    GpuAnalysisMeasure measure;
    LoadOptions options;
    options.threads = threads;
    double start = Now();
    auto loaded = LoadTrace(path, options);
    measure.loadSeconds = Now() - start;
    if (!loaded.ok()) {
        std::fprintf(stderr, "%s\n", loaded.message().c_str());
        std::abort();
    }
    TraceAnalysisOptions analysisOptions;
    analysisOptions.threads = threads ? threads : std::max(1u, std::thread::hardware_concurrency());
    start = Now();
    const TraceAnalyses analyses = AnalyzeTrace(*loaded.value(), analysisOptions);
    measure.analysisSeconds = Now() - start;
    measure.events = loaded.value()->report.eventCount;
    measure.activities = analyses.activities.activities.size();
    measure.launches = analyses.activities.launches.size();
    const TraceModel& model = *loaded.value();
    start = Now();
    const CriticalPath stepPath = *CriticalPathOfStep(model, analyses, kNoGroup);
    measure.stepPathSeconds = Now() - start;
    measure.stepPathEvents = stepPath.events;
    start = Now();
    const CriticalPath wholePath =
        CriticalPathOfWindow(model, analyses.activities, kNoGroup, model.firstNs, model.lastNs + 1);
    measure.wholePathSeconds = Now() - start;
    measure.wholePathEvents = wholePath.events;
    return measure;
}

int RunGpuBenchmark(const std::vector<uint64_t>& sizes, const std::string& dir, int repeat,
                    unsigned threads, bool keep) {
    for (const uint64_t size : sizes) {
        const std::string path = dir + "/marey-bench-gpu-" + std::to_string(size) + ".json";
        struct stat info {};
        if (stat(path.c_str(), &info) != 0) {
            std::FILE* file = std::fopen(path.c_str(), "wb");
            if (!file) {
                std::perror(path.c_str());
                return 1;
            }
            KinetoTraceOptions options;
            options.events = size;
            GenerateKinetoTrace(options, file);
            std::fclose(file);
            stat(path.c_str(), &info);
        }
        GpuAnalysisMeasure best;
        best.loadSeconds = best.analysisSeconds = 1e30;
        for (int r = 0; r < repeat; ++r) {
            ReadIntoPageCache(path);
            const GpuAnalysisMeasure m = InChild([&] { return LoadAndAnalyze(path, threads); });
            best.loadSeconds = std::min(best.loadSeconds, m.loadSeconds);
            if (m.analysisSeconds < best.analysisSeconds) {
                const double load = best.loadSeconds;
                best = m;
                best.loadSeconds = load;
            }
        }
        std::printf("\nGPU trace, %llu events, %.1f MB (%s)\n",
                    static_cast<unsigned long long>(best.events),
                    static_cast<double>(info.st_size) / 1e6, path.c_str());
        std::printf("  load                          : %8.3f s\n", best.loadSeconds);
        std::printf(
            "  every analysis after the load : %8.3f s  (%llu device activities, %llu launches)\n",
            best.analysisSeconds, static_cast<unsigned long long>(best.activities),
            static_cast<unsigned long long>(best.launches));
        std::printf("  critical path, longest step  : %8.3f s  (%llu events in its graph)\n",
                    best.stepPathSeconds, static_cast<unsigned long long>(best.stepPathEvents));
        std::printf("  critical path, whole trace   : %8.3f s  (%llu events in its graph)\n",
                    best.wholePathSeconds, static_cast<unsigned long long>(best.wholePathEvents));
        std::fflush(stdout);
        if (!keep) std::remove(path.c_str());
    }
    return 0;
}

// [SECTION] Kineto JSON against its Nsight Systems twin

// A GPU trace and its export twin (the same kernels, copies, fills and calls; the twin has no GPU
// user annotations and no flow events, so fewer slices): the time to open each to the timeline
// on every core, and peak resident memory.
int RunNsysBenchmark(const std::vector<uint64_t>& sizes, const std::string& dir, int repeat,
                     unsigned threads, bool keep) {
    for (const uint64_t size : sizes) {
        const std::string trace = dir + "/marey-bench-nsys-" + std::to_string(size) + ".json";
        const std::string twin = dir + "/marey-bench-nsys-" + std::to_string(size) + ".sqlite";
        struct stat traceInfo {
        }, twinInfo{};
        if (stat(trace.c_str(), &traceInfo) != 0 || stat(twin.c_str(), &twinInfo) != 0) {
            std::FILE* file = std::fopen(trace.c_str(), "wb");
            if (!file) return std::perror(trace.c_str()), 1;
            KinetoTraceOptions options;
            options.events = size;
            GenerateKinetoTrace(options, file);
            std::fclose(file);
            std::ifstream in(trace, std::ios::binary);
            const std::string text((std::istreambuf_iterator<char>(in)),
                                   std::istreambuf_iterator<char>());
            std::string error;
            if (!WriteNsysTwin(text, twin, nullptr, &error)) {
                std::fprintf(stderr, "%s: %s\n", twin.c_str(), error.c_str());
                return 1;
            }
        }
        stat(trace.c_str(), &traceInfo);
        stat(twin.c_str(), &twinInfo);
        DatabaseMeasure best[2];
        best[0].seconds = best[1].seconds = 1e30;
        for (int r = 0; r < repeat; ++r) {
            for (int kind = 0; kind < 2; ++kind) {
                ReadIntoPageCache(kind ? twin : trace);
                const DatabaseMeasure m =
                    InChild([&] { return OpenTimeline(kind ? twin : trace, kind == 1, threads); });
                if (m.seconds < best[kind].seconds) best[kind] = m;
            }
        }
        std::printf("\nGPU trace of %llu events and its Nsight Systems export twin\n",
                    static_cast<unsigned long long>(size));
        const char* names[] = {"Kineto JSON", "Nsight Systems export"};
        const std::string* paths[] = {&trace, &twin};
        const struct stat* infos[] = {&traceInfo, &twinInfo};
        for (int kind = 0; kind < 2; ++kind)
            std::printf(
                "  %-22s %8.1f MB  open %8.3f s  peak resident %8.1f MB (%.1f bytes/slice, "
                "%llu slices)  %s\n",
                names[kind], static_cast<double>(infos[kind]->st_size) / 1e6, best[kind].seconds,
                static_cast<double>(best[kind].peakBytes) / 1e6,
                static_cast<double>(best[kind].peakBytes - best[kind].baseBytes) /
                    static_cast<double>(std::max<uint64_t>(1, best[kind].slices)),
                static_cast<unsigned long long>(best[kind].slices), paths[kind]->c_str());
        std::printf("  export / JSON: time %.2f, memory %.2f\n", best[1].seconds / best[0].seconds,
                    static_cast<double>(best[1].peakBytes - best[1].baseBytes) /
                        static_cast<double>(best[0].peakBytes - best[0].baseBytes));
        std::fflush(stdout);
        if (!keep) {
            std::remove(trace.c_str());
            std::remove(twin.c_str());
        }
    }
    return 0;
}

// [SECTION] Index cache

// One load of a trace with the index cache in 'cacheDir' (or without it): the time until the
// model is ready, then until its cache file is written on its own thread.
struct CacheMeasure {
    double loadSeconds = 0, writeSeconds = 0;
    uint64_t events = 0, peakBytes = 0, baseBytes = 0;
    bool fromCache = false;
};

CacheMeasure LoadWithCache(const std::string& path, const std::string& cacheDir, bool useCache,
                           unsigned threads) {
    CacheMeasure measure;
    measure.baseBytes = ReadStatusKb("VmRSS:") * 1024;
    ResetPeakRss();
    LoadOptions options;
    options.threads = threads;
    options.cache.enabled = useCache;
    options.cache.folder = cacheDir;
    options.cache.say = [](const std::string& line) { std::fprintf(stderr, "%s\n", line.c_str()); };
    const double start = Now();
    auto loaded = LoadTrace(path, options);
    measure.loadSeconds = Now() - start;
    if (!loaded.ok()) {
        std::fprintf(stderr, "%s\n", loaded.message().c_str());
        std::abort();
    }
    loaded.value()->cacheWrite.Join();
    measure.writeSeconds = Now() - start - measure.loadSeconds;
    measure.peakBytes = ReadStatusKb("VmHWM:") * 1024;
    measure.events = loaded.value()->report.eventCount;
    measure.fromCache = loaded.value()->sources.front().fromIndexCache;
    return measure;
}

// `marey stats --json` and the window, each a process of its own as a person runs them: opened
// with an empty index cache (which the first open writes), then re-opened from it. The cache is
// CACHEHOME/marey, never the user's.
void TimeCommandsWithCache(const std::string& path, const std::string& cacheHome, int repeat) {
    if (!std::filesystem::exists(MareyBinary())) {
        std::printf("  (stats and window not timed: no marey beside marey-bench)\n");
        return;
    }
    double first = 1e30, again = 1e30;
    uint64_t againPeak = 0;
    WindowMeasure window;
    for (int r = 0; r < repeat; ++r) {
        std::filesystem::remove_all(cacheHome);
        std::filesystem::create_directories(cacheHome);
        ReadIntoPageCache(path);
        first = std::min(first, TimeStatsCommand(path, cacheHome).first);
        ReadTreeIntoPageCache(cacheHome);
        const auto [seconds, peak] = TimeStatsCommand(path, cacheHome);
        if (seconds >= 0 && seconds < again) again = seconds, againPeak = peak;
        ReadTreeIntoPageCache(cacheHome);
        const WindowMeasure opened = TimeWindowOpen(path, cacheHome);
        if (opened.firstFrameSeconds >= 0 &&
            (window.firstFrameSeconds < 0 || opened.firstFrameSeconds < window.firstFrameSeconds))
            window = opened;
    }
    std::filesystem::remove_all(cacheHome);
    if (first < 0 || again < 0 || first >= 1e30) {
        std::printf("  marey stats --json failed\n");
        return;
    }
    std::printf("  marey stats --json, first open  : %8.3f s (the process, writing the cache)\n",
                first);
    std::printf(
        "  marey stats --json, re-opened   : %8.3f s (%.2fx the first), peak resident %.1f MB\n",
        again, again / first, static_cast<double>(againPeak) / 1e6);
    if (window.firstFrameSeconds < 0) {
        std::printf("  window not timed: no xvfb-run, or it failed\n");
        return;
    }
    std::printf(
        "  window re-opened                : first frame %.3f s after its start (%.0f ms after "
        "the model), analyses drawn %.3f s\n",
        window.firstFrameSeconds, window.firstFrameAfterModelMs, window.analysesSeconds);
}

// For each size: a load without the cache (as before it existed), a first load that writes the
// cache after the model is ready, and a re-open from the cache; each in a fresh child, with the
// trace (and the cache file) just read into the page cache. The cache goes to DIR, never to the
// user's cache folder.
int RunCacheBenchmark(const std::vector<uint64_t>& sizes, const std::string& dir, int repeat,
                      unsigned threads, bool keep) {
    const std::string cacheDir = dir + "/marey-bench-index-cache";
    for (const uint64_t size : sizes) {
        const std::string path = dir + "/marey-bench-" + std::to_string(size) + ".json";
        GeneratorOptions options;
        options.events = size;
        options.seed = 42;
        if (!WriteTrace(path, options)) return 1;
        CacheMeasure plain, first, again;
        plain.loadSeconds = first.loadSeconds = again.loadSeconds = 1e30;
        uint64_t cacheBytes = 0;
        for (int r = 0; r < repeat; ++r) {
            std::filesystem::remove_all(cacheDir);
            ReadIntoPageCache(path);
            const CacheMeasure p =
                InChild([&] { return LoadWithCache(path, cacheDir, false, threads); });
            if (p.loadSeconds < plain.loadSeconds) plain = p;
            ReadIntoPageCache(path);
            const CacheMeasure f =
                InChild([&] { return LoadWithCache(path, cacheDir, true, threads); });
            if (f.loadSeconds < first.loadSeconds) first = f;
            cacheBytes = 0;
            for (const auto& entry : std::filesystem::directory_iterator(cacheDir)) {
                cacheBytes += entry.file_size();
                ReadIntoPageCache(entry.path().string());
            }
            const CacheMeasure a =
                InChild([&] { return LoadWithCache(path, cacheDir, true, threads); });
            if (!a.fromCache) {
                std::fprintf(stderr, "the re-open did not come from the cache\n");
                return 1;
            }
            if (a.loadSeconds < again.loadSeconds) again = a;
        }
        struct stat info {};
        stat(path.c_str(), &info);
        std::printf("\n%llu events, %.1f MB (%s)\n", static_cast<unsigned long long>(plain.events),
                    static_cast<double>(info.st_size) / 1e6, path.c_str());
        std::printf("  load, no index cache           : %8.3f s\n", plain.loadSeconds);
        std::printf(
            "  first load, cache written after: %8.3f s  (then %.3f s writing %.1f MB, %.1f "
            "bytes/event, on its own thread)\n",
            first.loadSeconds, first.writeSeconds, static_cast<double>(cacheBytes) / 1e6,
            static_cast<double>(cacheBytes) / static_cast<double>(plain.events));
        std::printf(
            "  re-open from the index cache   : %8.3f s  (%.1fx faster), peak resident %.1f MB\n",
            again.loadSeconds, plain.loadSeconds / again.loadSeconds,
            static_cast<double>(again.peakBytes) / 1e6);
        std::fflush(stdout);
        std::filesystem::remove_all(cacheDir);
        TimeCommandsWithCache(path, dir + "/marey-bench-cache-home", repeat);
        if (!keep) std::remove(path.c_str());
    }
    return 0;
}

// [SECTION] Command line

// The trace loader on generated traces of each size: against a bare simdjson walk, the memory
// per event, and viewport queries at every zoom.
int RunLoadBenchmark(const std::vector<uint64_t>& sizes, const std::string& dir, int repeat,
                     unsigned threads, bool keep) {
    for (const uint64_t size : sizes) {
        const std::string path = dir + "/marey-bench-" + std::to_string(size) + ".json";
        GeneratorOptions options;
        options.events = size;
        options.seed = 42;
        if (!WriteTrace(path, options)) return 1;
        struct stat info {};
        stat(path.c_str(), &info);
        const double megabytes = static_cast<double>(info.st_size) / 1e6;
        Measure walk, load;
        walk.seconds = load.seconds = 1e30;
        for (int r = 0; r < repeat; ++r) {
            ReadIntoPageCache(path);
            const Measure w = InChild([&] { return BareWalk(path); });
            if (w.seconds < walk.seconds) walk = w;
            ReadIntoPageCache(path);
            const Measure l = InChild([&] { return LoadAndQuery(path, threads); });
            if (l.seconds < load.seconds) load = l;
        }
        const double extraBytes = static_cast<double>(load.peakBytes) -
                                  static_cast<double>(load.baseBytes) -
                                  static_cast<double>(info.st_size);
        std::printf("\n%llu events, %.1f MB (%s)\n", static_cast<unsigned long long>(load.items),
                    megabytes, path.c_str());
        std::printf("  bare simdjson walk, 1 thread : %8.3f s  %8.1f MB/s\n", walk.seconds,
                    megabytes / walk.seconds);
        std::printf(
            "  marey load + index           : %8.3f s  %8.1f MB/s  %6.2f M events/s  ratio to walk "
            "%.2f\n",
            load.seconds, megabytes / load.seconds,
            static_cast<double>(load.items) / load.seconds / 1e6, load.seconds / walk.seconds);
        std::printf(
            "  peak resident                : %8.1f MB  (%.1f bytes/event beyond the %.1f MB "
            "file)\n",
            static_cast<double>(load.peakBytes) / 1e6, extraBytes / static_cast<double>(load.items),
            megabytes);
        std::printf(
            "  viewport queries at 1920 px, 200 random windows per zoom: one row, and all rows (a "
            "frame)\n");
        for (int level = 0; level < load.zoomLevels; ++level)
            std::printf(
                "    window %-9s  row median %7.1f µs p99 %7.1f µs | all rows median %8.1f µs p99 "
                "%8.1f µs, %6.0f items\n",
                WindowText(load.queryWindowNs[level]).c_str(), load.rowMedianUs[level],
                load.rowP99Us[level], load.queryMedianUs[level], load.queryP99Us[level],
                load.queryItems[level]);
        std::fflush(stdout);
        if (!keep) std::remove(path.c_str());
    }
    return 0;
}

// [SECTION] Command line

// "1e5,1e6" or "64,1024": a comma-separated list of counts.
std::vector<uint64_t> ParseSizes(const std::string& list) {
    std::vector<uint64_t> sizes;
    for (size_t pos = 0; pos <= list.size();) {
        const size_t comma = std::min(list.find(',', pos), list.size());
        sizes.push_back(
            static_cast<uint64_t>(std::strtod(list.substr(pos, comma - pos).c_str(), nullptr)));
        pos = comma + 1;
    }
    return sizes;
}

int main(int argc, char** argv) {
    std::vector<uint64_t> sizes{100000, 1000000, 10000000};
    std::string dir = "/tmp";
    int repeat = 3;
    unsigned threads = 0;
    bool keep = false;
    bool compare = false, cluster = false, database = false, gpu = false, summarize = false,
         gpuCluster = false, cache = false, nsys = false, sql = false, ranksPath = false;
    uint64_t eventsPerRank = 100000;
    uint32_t steps = 50;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--sizes") && i + 1 < argc) {
            sizes = ParseSizes(argv[++i]);
        } else if (!std::strcmp(argv[i], "--dir") && i + 1 < argc) {
            dir = argv[++i];
        } else if (!std::strcmp(argv[i], "--repeat") && i + 1 < argc) {
            repeat = std::max(1, std::atoi(argv[++i]));
        } else if (!std::strcmp(argv[i], "--threads") && i + 1 < argc) {
            threads = static_cast<unsigned>(std::atoi(argv[++i]));
        } else if (!std::strcmp(argv[i], "--keep")) {
            keep = true;
        } else if (!std::strcmp(argv[i], "--compare")) {
            compare = true;
        } else if (!std::strcmp(argv[i], "--database")) {
            database = true;
        } else if (!std::strcmp(argv[i], "--nsys")) {
            nsys = true;
        } else if (!std::strcmp(argv[i], "--gpu")) {
            gpu = true;
        } else if (!std::strcmp(argv[i], "--cache")) {
            cache = true;
        } else if (!std::strcmp(argv[i], "--sql")) {
            sql = true;
        } else if (!std::strcmp(argv[i], "--cluster") && i + 1 < argc) {
            cluster = true;
            sizes = ParseSizes(argv[++i]);
        } else if (!std::strcmp(argv[i], "--gpu-cluster") && i + 1 < argc) {
            gpuCluster = true;
            sizes = ParseSizes(argv[++i]);
        } else if (!std::strcmp(argv[i], "--critical-path-ranks") && i + 1 < argc) {
            ranksPath = true;
            sizes = ParseSizes(argv[++i]);
        } else if (!std::strcmp(argv[i], "--events") && i + 1 < argc) {
            eventsPerRank = ParseSizes(argv[++i]).front();
        } else if (!std::strcmp(argv[i], "--summarize") && i + 1 < argc) {
            summarize = true;
            sizes = ParseSizes(argv[++i]);
        } else if (!std::strcmp(argv[i], "--steps") && i + 1 < argc) {
            steps = static_cast<uint32_t>(std::max(1, std::atoi(argv[++i])));
        } else {
            std::fprintf(
                stderr,
                "usage: marey-bench [--sizes 1e5,1e6,1e7] [--dir DIR] [--repeat N] "
                "[--threads T] [--keep]\n"
                "                   [--compare | --database | --gpu | --nsys | --cache | --sql]\n"
                "       marey-bench --cluster RANKS[,RANKS...] [--steps S] [--dir DIR] "
                "[--repeat N] [--keep]\n"
                "       marey-bench --summarize RANKS[,RANKS...] [--steps S] [--dir DIR] "
                "[--repeat N] [--keep]\n"
                "       marey-bench --gpu-cluster RANKS[,RANKS...] [--events PER_RANK] "
                "[--dir DIR] [--repeat N] [--keep]\n"
                "       marey-bench --critical-path-ranks RANKS[,RANKS...] [--events PER_RANK] "
                "[--dir DIR] [--repeat N] [--keep]\n");
            return 2;
        }
    }
#define MAREY_TEXT(x) #x
#define MAREY_EXPAND_TEXT(x) MAREY_TEXT(x)
    std::printf("marey-bench: %ld cores, best of %d runs, simdjson %s, On-Demand compiled for %s\n",
                sysconf(_SC_NPROCESSORS_ONLN), repeat, MAREY_EXPAND_TEXT(SIMDJSON_VERSION),
                MAREY_EXPAND_TEXT(SIMDJSON_BUILTIN_IMPLEMENTATION));
    if (compare) return RunCompareBenchmark(sizes, dir, repeat, keep);
    if (database) return RunDatabaseBenchmark(sizes, dir, repeat, threads, keep);
    if (gpu) return RunGpuBenchmark(sizes, dir, repeat, threads, keep);
    if (nsys) return RunNsysBenchmark(sizes, dir, repeat, threads, keep);
    if (cache) return RunCacheBenchmark(sizes, dir, repeat, threads, keep);
    if (sql) return RunSqlBenchmark(sizes, dir, repeat, threads, keep);
    if (gpuCluster) return RunGpuClusterBenchmark(sizes, eventsPerRank, dir, repeat, threads, keep);
    if (ranksPath) return RunRanksPathBenchmark(sizes, eventsPerRank, dir, repeat, threads, keep);
    if (cluster) return RunClusterBenchmark(sizes, steps, dir, repeat, threads, keep);
    if (summarize) return RunSummarizeBenchmark(sizes, steps, dir, repeat, threads, keep);
    return RunLoadBenchmark(sizes, dir, repeat, threads, keep);
}
