// The benchmark's modes that open many ranks (ClusterBenchmarks.hpp).
#include "ClusterBenchmarks.hpp"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <thread>

#include "BenchSupport.hpp"
#include "ClusterGenerator.hpp"
#include "KinetoTraceGenerator.hpp"
#include "cluster/ClusterFolder.hpp"

namespace marey::bench {
namespace {

// The bytes of the files the cluster loader reads from each rank folder (never its trace): the
// figure a read speed is quoted against.
uint64_t RankFileBytes(const std::string& dir) {
    uint64_t bytes = 0;
    std::error_code error;
    for (const RankFiles& files : FindClusterFolders(dir).rankFolders)
        for (const std::string* path : {&files.stepTrace, &files.communication,
                                        &files.communicationMatrix, &files.kernelDetails})
            if (!path->empty()) bytes += std::filesystem::file_size(*path, error);
    return bytes;
}

// The cluster re-opened through its cluster cache (filled by one open first, in a folder of its
// own that goes after): its best time, and how many of its ranks the cache gave.
void PrintCachedReopen(const std::string& path, const std::string& dir, int repeat,
                       unsigned threads, const ClusterMeasure& first) {
    const std::string cacheFolder = dir + "/marey-bench-cluster-cache";
    std::filesystem::remove_all(cacheFolder);
    InChild([&] { return OpenCluster(path, threads, cacheFolder); });
    ClusterMeasure best;
    best.loadSeconds = 1e30;
    for (int r = 0; r < repeat; ++r) {
        ReadTreeIntoPageCache(path);
        const ClusterMeasure m = InChild([&] { return OpenCluster(path, threads, cacheFolder); });
        if (m.loadSeconds + m.reportSeconds < best.loadSeconds + best.reportSeconds) best = m;
    }
    uint64_t cacheBytes = 0;
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(cacheFolder, error))
        cacheBytes += entry.is_regular_file(error) ? entry.file_size(error) : 0;
    std::printf(
        "  re-opened from the cluster cache  : %8.3f s to the cluster views (%.3f s read, "
        "%u of %u ranks from the cache, %.1f MB), %.2fx the first open\n",
        best.loadSeconds + best.reportSeconds, best.loadSeconds, best.ranksFromCache, best.ranks,
        static_cast<double>(cacheBytes) / 1e6,
        (best.loadSeconds + best.reportSeconds) / (first.loadSeconds + first.reportSeconds));
    std::filesystem::remove_all(cacheFolder);
}

}  // namespace

// [SECTION] Rank folders

int RunClusterBenchmark(const std::vector<uint64_t>& sizes, uint32_t steps, const std::string& dir,
                        int repeat, unsigned threads, bool keep) {
    for (const uint64_t size : sizes) {
        ClusterOptions options;
        options.ranks = static_cast<uint32_t>(size);
        options.steps = steps;
        options.slowRank = static_cast<int>(size * 2 / 3);
        options.slowLinkSrc = static_cast<int>(size / 3),
        options.slowLinkDst = static_cast<int>(size / 3 + 1);
        // A layout without a pipeline (its metadata and groups only: the same timings) where
        // the ranks make one: TP 8 × DP size/8.
        if (size % 8 == 0)
            options.tp = 8, options.pp = 1, options.dp = static_cast<uint32_t>(size / 8);
        const std::string path = dir + "/marey-bench-cluster-" + std::to_string(size) + "x" +
                                 std::to_string(steps) + (size % 8 == 0 ? "-tp8" : "");
        struct stat info {};
        if (stat(path.c_str(), &info) != 0) {
            std::string error;
            if (!WriteCluster(options, path, &error)) {
                std::fprintf(stderr, "%s\n", error.c_str());
                return 1;
            }
        }
        ClusterMeasure best;
        best.loadSeconds = 1e30;
        uint64_t bytes = 0;
        for (int r = 0; r < repeat; ++r) {
            bytes = ReadTreeIntoPageCache(path);
            const ClusterMeasure m = InChild([&] { return OpenCluster(path, threads); });
            if (m.loadSeconds + m.reportSeconds < best.loadSeconds + best.reportSeconds) best = m;
        }
        std::printf("\ncluster of %u ranks x %u steps, %.1f MB of rank files (%s)\n", best.ranks,
                    best.steps, static_cast<double>(bytes) / 1e6, path.c_str());
        std::printf("  marey: read every rank's summary : %8.3f s\n", best.loadSeconds);
        std::printf(
            "  marey: every cluster view's data  : %8.3f s  (%u slow rank, %u slow link, %llu "
            "links)\n",
            best.reportSeconds, best.slowRanks, best.slowLinks,
            static_cast<unsigned long long>(best.links));
        std::printf("  marey: parallel layout, its units : %8.3f s  (%s)\n", best.layoutSeconds,
                    best.layout);
        std::printf("  marey: open to the cluster views  : %8.3f s, peak resident %.1f MB\n",
                    best.loadSeconds + best.reportSeconds,
                    static_cast<double>(best.peakBytes) / 1e6);
        const uint64_t readBytes = RankFileBytes(path);
        std::printf(
            "  rank files read (step trace, communication, matrix, kernels): %.1f MB, %.2f GB/s\n",
            static_cast<double>(readBytes) / 1e6,
            static_cast<double>(readBytes) / 1e9 / best.loadSeconds);
        PrintCachedReopen(path, dir, repeat, threads, best);
        std::pair<double, uint64_t> stats{1e30, 0};
        for (int r = 0; r < repeat; ++r) {
            ReadTreeIntoPageCache(path);
            const std::pair<double, uint64_t> run = TimeStatsCommand(path);
            if (run.first >= 0 && run.first < stats.first) stats = run;
        }
        if (stats.second > 0)
            std::printf("  marey stats --json, one process   : %8.3f s, peak resident %.1f MB\n",
                        stats.first, static_cast<double>(stats.second) / 1e6);
        else
            std::printf(
                "  marey stats --json not run: the marey beside marey-bench failed or is "
                "missing\n");
        const std::string script = std::string(MAREY_SOURCE_DIR) + "/bench/cluster_read.py";
        ReadTreeIntoPageCache(path);
        std::FILE* python = popen(("python3 " + script + " " + path + " 2>&1").c_str(), "r");
        char line[512] = {};
        double seconds = 0;
        unsigned long long peakKb = 0;
        const bool ran =
            python && std::fgets(line, sizeof line, python) &&
            std::sscanf(std::strstr(line, "seconds") ? std::strstr(line, "seconds") : "",
                        "seconds %lf peak_kb %llu", &seconds, &peakKb) == 2;
        if (python) pclose(python);
        if (ran)
            std::printf(
                "  Python csv + json, one process       : %8.3f s, peak resident %.1f MB  (%.1fx "
                "the time of marey)\n",
                seconds, static_cast<double>(peakKb) / 1e3,
                seconds / (best.loadSeconds + best.reportSeconds));
        else
            std::printf("  Python comparison not run: %s\n", line[0] ? line : "python3 not found");
        std::fflush(stdout);
        if (!keep) std::filesystem::remove_all(path);
    }
    return 0;
}

// [SECTION] Summarising a job across processes

// `marey summarize JOB --out FILE` run by P processes (under mpirun when P > 1): its wall time
// and the bytes per rank it gathered, as it reports them.
struct SummarizeMeasure {
    double seconds = 0, bytesPerRank = 0;
    bool ran = false;
};

SummarizeMeasure SummarizeWithProcesses(const std::string& job, const std::string& out,
                                        int processes) {
    std::error_code error;
    const std::string marey =
        (std::filesystem::read_symlink("/proc/self/exe", error).parent_path() / "marey").string();
    // OpenMPI refuses root unless told twice (a container's root, CI).
    const std::string launcher =
        processes > 1 ? "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun -n " +
                            std::to_string(processes) + " --oversubscribe "
                      : "";
    std::remove(out.c_str());
    const double start = Now();
    std::FILE* run =
        popen((launcher + marey + " summarize " + job + " --out " + out + " 2>&1").c_str(), "r");
    SummarizeMeasure measure;
    char line[1024];
    while (run && std::fgets(line, sizeof line, run))
        if (const char* at = std::strstr(line, "missing; "))
            measure.ran = std::sscanf(at, "missing; %lf bytes", &measure.bytesPerRank) == 1;
    if (run) measure.ran = pclose(run) == 0 && measure.ran;
    measure.seconds = Now() - start;
    return measure;
}

int RunSummarizeBenchmark(const std::vector<uint64_t>& sizes, uint32_t steps,
                          const std::string& dir, int repeat, unsigned threads, bool keep) {
    for (const uint64_t size : sizes) {
        ClusterOptions options;
        options.ranks = static_cast<uint32_t>(size);
        options.steps = steps;
        const std::string job =
            dir + "/marey-bench-job-" + std::to_string(size) + "x" + std::to_string(steps);
        struct stat info {};
        std::string error;
        if (stat(job.c_str(), &info) != 0 && !WriteCluster(options, job, &error)) {
            std::fprintf(stderr, "%s\n", error.c_str());
            return 1;
        }
        const uint64_t bytes = ReadTreeIntoPageCache(job);
        std::printf("\njob of %llu ranks x %u steps, %.1f MB of rank files (%s)\n",
                    static_cast<unsigned long long>(size), steps, static_cast<double>(bytes) / 1e6,
                    job.c_str());
        const std::string summary = job + ".jsonl";
        for (const int processes : {1, 2, 4}) {
            SummarizeMeasure best;
            best.seconds = 1e30;
            for (int r = 0; r < repeat; ++r) {
                ReadTreeIntoPageCache(job);
                const SummarizeMeasure m = SummarizeWithProcesses(job, summary, processes);
                if (m.ran && m.seconds < best.seconds) best = m;
            }
            if (best.seconds > 1e29) {
                std::printf("  summarize, %d process(es)       : did not run (mpirun missing?)\n",
                            processes);
                continue;
            }
            std::printf(
                "  summarize, %d process%s%s        : %8.3f s, %.0f bytes gathered per rank\n",
                processes, processes == 1 ? "" : "es", processes == 1 ? "  " : "", best.seconds,
                best.bytesPerRank);
        }
        struct stat summaryInfo {};
        stat(summary.c_str(), &summaryInfo);
        ClusterMeasure open;
        open.loadSeconds = 1e30;
        for (int r = 0; r < repeat; ++r) {
            ReadIntoPageCache(summary);
            const ClusterMeasure m = InChild([&] { return OpenCluster(summary, threads); });
            if (m.loadSeconds + m.reportSeconds < open.loadSeconds + open.reportSeconds) open = m;
        }
        std::printf(
            "  open the summary (%.1f MB)       : %8.3f s to the cluster views (%.3f s "
            "read, %.3f s views' data), peak resident %.1f MB\n",
            static_cast<double>(summaryInfo.st_size) / 1e6, open.loadSeconds + open.reportSeconds,
            open.loadSeconds, open.reportSeconds, static_cast<double>(open.peakBytes) / 1e6);
        std::fflush(stdout);
        if (!keep) std::filesystem::remove_all(job), std::remove(summary.c_str());
    }
    return 0;
}

// [SECTION] Rank traces

std::string WriteRankTraces(const std::string& dir, uint64_t ranks, uint64_t eventsPerRank) {
    const std::string folder = dir + "/marey-bench-gpu-cluster-" + std::to_string(ranks) + "x" +
                               std::to_string(eventsPerRank);
    std::error_code error;
    std::filesystem::create_directories(folder, error);
    for (uint64_t r = 0; r < ranks; ++r) {
        const std::string path = RankTracePath(folder, r);
        struct stat info {};
        if (stat(path.c_str(), &info) == 0) continue;
        std::FILE* file = std::fopen(path.c_str(), "wb");
        if (!file) {
            std::perror(path.c_str());
            return {};
        }
        KinetoTraceOptions options;
        options.events = eventsPerRank;
        options.rank = static_cast<uint32_t>(r);
        options.worldSize = static_cast<uint32_t>(ranks);
        options.seed = 100 + r;
        options.steps = 10;
        GenerateKinetoTrace(options, file);
        std::fclose(file);
    }
    return folder;
}

std::string RankTracePath(const std::string& folder, uint64_t rank) {
    return folder + "/rank-" + std::to_string(rank) + ".pt.trace.json";
}

// A folder of generated Kineto rank traces opened as a cluster: every trace loaded and analysed,
// the ranks side by side on every core, then every cluster view's data.
int RunGpuClusterBenchmark(const std::vector<uint64_t>& rankCounts, uint64_t eventsPerRank,
                           const std::string& dir, int repeat, unsigned threads, bool keep) {
    for (const uint64_t ranks : rankCounts) {
        const std::string folder = WriteRankTraces(dir, ranks, eventsPerRank);
        if (folder.empty()) return 1;
        ClusterMeasure best;
        best.loadSeconds = 1e30;
        uint64_t bytes = 0;
        for (int r = 0; r < repeat; ++r) {
            bytes = ReadTreeIntoPageCache(folder);
            const ClusterMeasure m = InChild([&] { return OpenCluster(folder, threads); });
            if (m.loadSeconds + m.reportSeconds < best.loadSeconds + best.reportSeconds) best = m;
        }
        std::printf("\nfolder of %u Kineto rank traces of about %llu events, %.1f MB (%s)\n",
                    best.ranks, static_cast<unsigned long long>(eventsPerRank),
                    static_cast<double>(bytes) / 1e6, folder.c_str());
        std::printf("  every trace loaded and analysed : %8.3f s  (%.0f MB/s, %u threads)\n",
                    best.loadSeconds, static_cast<double>(bytes) / 1e6 / best.loadSeconds,
                    threads ? threads : std::max(1u, std::thread::hardware_concurrency()));
        std::printf("  every cluster view's data       : %8.3f s, peak resident %.1f MB\n",
                    best.reportSeconds, static_cast<double>(best.peakBytes) / 1e6);
        PrintCachedReopen(folder, dir, repeat, threads, best);
        std::fflush(stdout);
        if (!keep) std::filesystem::remove_all(folder);
    }
    return 0;
}

}  // namespace marey::bench
