#include "BenchSupport.hpp"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <thread>

#include "cluster/ClusterReport.hpp"
#include "cluster/ParallelFindings.hpp"
#include "cluster/ParallelLayout.hpp"
#include "loading/ClusterLoader.hpp"

namespace marey::bench {

std::string MareyBinary() {
    std::error_code error;
    return (std::filesystem::read_symlink("/proc/self/exe", error).parent_path() / "marey")
        .string();
}

std::pair<double, uint64_t> TimeStatsCommand(const std::string& path,
                                             const std::string& cacheHome) {
    const std::string marey = MareyBinary();
    const double start = Now();
    const pid_t child = fork();
    if (child == 0) {
        const int null = open("/dev/null", O_WRONLY);
        dup2(null, STDOUT_FILENO);
        if (cacheHome.empty()) {
            execl(marey.c_str(), marey.c_str(), "stats", path.c_str(), "--json", "--no-cache",
                  static_cast<char*>(nullptr));
        } else {
            setenv("XDG_CACHE_HOME", cacheHome.c_str(), 1);
            execl(marey.c_str(), marey.c_str(), "stats", path.c_str(), "--json",
                  static_cast<char*>(nullptr));
        }
        _exit(127);
    }
    int status = 0;
    struct rusage usage {};
    if (child < 0 || wait4(child, &status, 0, &usage) != child || !WIFEXITED(status) ||
        WEXITSTATUS(status) != 0)
        return {-1.0, 0};
    return {Now() - start, static_cast<uint64_t>(usage.ru_maxrss) * 1024};
}

WindowMeasure TimeWindowOpen(const std::string& path, const std::string& cacheHome) {
    WindowMeasure measure;
    if (std::system("command -v xvfb-run >/dev/null 2>&1") != 0) return measure;
    const std::string png = cacheHome + "/window.png";
    const std::string command = "MAREY_TIMING=1 XDG_CACHE_HOME='" + cacheHome +
                                "' xvfb-run -a -s '-screen 0 1600x1000x24' '" + MareyBinary() +
                                "' '" + path + "' --screenshot '" + png +
                                "' --size 1500x900 2>&1 >/dev/null";
    std::FILE* output = popen(command.c_str(), "r");
    if (!output) return measure;
    // MAREY_TIMING's lines: "   0.312 s  cpu … window: first frame of the document, 98.1 ms
    // after its model" and "… window: analyses drawn, 721.0 ms after the model".
    char line[512];
    while (std::fgets(line, sizeof line, output)) {
        const double seconds = std::strtod(line, nullptr);
        if (const char* at = std::strstr(line, "first frame of the document, ")) {
            measure.firstFrameSeconds = seconds;
            measure.firstFrameAfterModelMs =
                std::strtod(at + std::strlen("first frame of the document, "), nullptr);
        } else if (std::strstr(line, "window: analyses drawn")) {
            measure.analysesSeconds = seconds;
        }
    }
    if (pclose(output) != 0) return WindowMeasure{};
    std::remove(png.c_str());
    return measure;
}

double Now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

uint64_t ReadStatusKb(const char* key) {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind(key, 0) == 0)
            return std::strtoull(line.c_str() + std::strlen(key), nullptr, 10);
    return 0;
}

void ResetPeakRss() {
    std::ofstream clear("/proc/self/clear_refs");
    clear << "5";
}

void ReadIntoPageCache(const std::string& path) {
    static char block[1 << 20];
    const int fd = open(path.c_str(), O_RDONLY);
    if (fd < 0) return;
    while (read(fd, block, sizeof block) > 0) {
    }
    close(fd);
}

uint64_t ReadTreeIntoPageCache(const std::string& dir) {
    uint64_t bytes = 0;
    std::error_code error;
    for (auto it = std::filesystem::recursive_directory_iterator(dir, error);
         !error && it != std::filesystem::recursive_directory_iterator(); it.increment(error)) {
        if (!it->is_regular_file(error)) continue;
        ReadIntoPageCache(it->path().string());
        bytes += it->file_size(error);
    }
    return bytes;
}

ClusterMeasure OpenCluster(const std::string& dir, unsigned threads,
                           const std::string& cacheFolder) {
    ClusterMeasure measure;
    measure.baseBytes = ReadStatusKb("VmRSS:") * 1024;
    IndexCacheOptions cache;
    cache.enabled = !cacheFolder.empty();
    cache.folder = cacheFolder;
    ClusterProgress progress;
    ResetPeakRss();
    const double start = Now();
    auto cluster =
        LoadCluster(dir, threads ? threads : std::max(1u, std::thread::hardware_concurrency()),
                    &progress, {}, cache);
    if (!cluster.ok()) std::abort();
    measure.ranksFromCache = progress.ranksCached;
    measure.loadSeconds = Now() - start;
    const ClusterReport report = BuildClusterReport(cluster.value());
    measure.reportSeconds = Now() - start - measure.loadSeconds;
    measure.peakBytes = ReadStatusKb("VmHWM:") * 1024;
    const double layoutStart = Now();
    const ParallelLayout layout = BuildParallelLayout(cluster.value());
    const size_t units = FindParallelUnitProblems(cluster.value(), report.averagedSteps).size();
    measure.layoutSeconds = Now() - layoutStart;
    const std::string said = layout.Known() ? ParallelLayoutText(layout) + ", " +
                                                  std::to_string(units) + " unit findings"
                                            : "none";
    std::snprintf(measure.layout, sizeof measure.layout, "%s", said.c_str());
    measure.ranks = static_cast<uint32_t>(cluster.value().ranks.size());
    measure.steps = static_cast<uint32_t>(cluster.value().steps.size());
    measure.slowRanks = static_cast<uint32_t>(report.slowRanks.size());
    measure.slowLinks = static_cast<uint32_t>(report.slowLinks.size());
    measure.links = report.matrix.size();
    return measure;
}

bool WriteTrace(const std::string& path, const GeneratorOptions& options) {
    struct stat info {};
    if (stat(path.c_str(), &info) == 0) return true;
    std::FILE* file = std::fopen(path.c_str(), "wb");
    if (!file) {
        std::perror(path.c_str());
        return false;
    }
    GenerateTrace(options, file);
    return std::fclose(file) == 0;
}

}  // namespace marey::bench
