#pragma once
// What the benchmark's modes share: time and memory of this process, files read into the page
// cache before a measured run, each run in a fresh child process, and a cluster opened to its
// views.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <type_traits>

#include "TraceGenerator.hpp"

namespace marey::bench {

// Seconds of a steady clock.
double Now();
// A "VmRSS:"-like line of /proc/self/status, in kB.
uint64_t ReadStatusKb(const char* key);
// Starts the peak resident figure (VmHWM) again from the current one.
void ResetPeakRss();
// Reads the whole file once, so that the run measured next finds it in the page cache: the
// parse is measured, not the disk. Some machines give the page cache back within seconds (one
// of ours: a 167 MB file read just before was 64% cached 17 s later and 18% 37 s later), so
// this runs before every measured run, the walk's and the load's alike.
// The block is static: a heap block freed here would stay resident in the heap that the child
// inherits, and the load would reuse it unseen by the peak.
void ReadIntoPageCache(const std::string& path);
// Every file under 'dir' read once the same way; returns their bytes.
uint64_t ReadTreeIntoPageCache(const std::string& dir);

// Writes the generator's trace of 'options' to 'path' unless a file is there already (a size's
// trace serves every run and mode that asks for it). False, with the reason on standard error,
// when it cannot be written.
bool WriteTrace(const std::string& path, const GeneratorOptions& options);

// Runs 'work' in a fresh child process and returns what it measured (a plain struct).
template <typename Work, typename Result = std::invoke_result_t<Work>>
Result InChild(const Work& work) {
    int pipeFds[2];
    if (pipe(pipeFds) != 0) std::abort();
    const pid_t child = fork();
    if (child == 0) {
        close(pipeFds[0]);
        Result measure = work();
        if (write(pipeFds[1], &measure, sizeof measure) != sizeof measure) _exit(1);
        _exit(0);
    }
    close(pipeFds[1]);
    Result measure;
    if (read(pipeFds[0], &measure, sizeof measure) != sizeof measure) {
        std::fprintf(stderr, "benchmark child failed\n");
        std::exit(1);
    }
    close(pipeFds[0]);
    int status = 0;
    waitpid(child, &status, 0);
    return measure;
}

// The marey binary built beside this benchmark.
std::string MareyBinary();

// `marey stats PATH --json` run as its own process, its output thrown away: seconds from the
// start to the exit, and its peak resident bytes. With 'cacheHome', the process's index cache
// lives in CACHEHOME/marey (XDG_CACHE_HOME), else it runs with --no-cache. Negative seconds
// when it could not run.
std::pair<double, uint64_t> TimeStatsCommand(const std::string& path,
                                             const std::string& cacheHome = "");

// The window opened on 'path' under Xvfb (xvfb-run), as its own process with MAREY_TIMING=1 and
// its index cache in CACHEHOME/marey: seconds from the window's start to its first frame of the
// document and to the frame with its analyses, and the first frame's milliseconds after the
// model was ready. All negative when xvfb-run is missing or the window failed.
struct WindowMeasure {
    double firstFrameSeconds = -1, analysesSeconds = -1, firstFrameAfterModelMs = -1;
};
WindowMeasure TimeWindowOpen(const std::string& path, const std::string& cacheHome);

struct ClusterMeasure {
    double loadSeconds = 0, reportSeconds = 0;
    // The parallel layout and the findings that name its units, made again from the read cluster
    // (the load made them once), and what it says (a plain array: the struct crosses a pipe).
    double layoutSeconds = 0;
    char layout[200] = {};
    uint64_t peakBytes = 0, baseBytes = 0;
    uint32_t ranks = 0, steps = 0, slowRanks = 0, slowLinks = 0;
    uint64_t links = 0;
    uint32_t ranksFromCache = 0;  // of 'ranks': summaries taken from the cluster cache
};

// A cluster folder (or summary file) loaded on 'threads' threads (0: every core) and its views'
// data built, in this process; with 'cacheFolder', through the cluster cache kept there.
ClusterMeasure OpenCluster(const std::string& dir, unsigned threads,
                           const std::string& cacheFolder = "");

}  // namespace marey::bench
