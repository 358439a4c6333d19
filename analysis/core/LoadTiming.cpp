#include "core/LoadTiming.hpp"

#include <sys/resource.h>

#include <cstdio>
#include <cstdlib>

namespace marey {

namespace {

// User and system time of all the process's threads.
double CpuSeconds() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
           static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

}  // namespace

LoadTiming::LoadTiming()
    : m_enabled(std::getenv("MAREY_TIMING") != nullptr),
      m_start(std::chrono::steady_clock::now()),
      m_cpuStart(m_enabled ? CpuSeconds() : 0) {}

void LoadTiming::Report(const char* stage) const {
    if (!m_enabled) return;
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
    // VmRSS and VmHWM: resident now, and the most resident so far (the peak may fall between
    // two reports).
    long residentKb = 0, peakKb = 0;
    if (std::FILE* status = std::fopen("/proc/self/status", "r")) {
        char line[256];
        while (std::fgets(line, sizeof line, status)) {
            std::sscanf(line, "VmRSS: %ld", &residentKb);
            std::sscanf(line, "VmHWM: %ld", &peakKb);
        }
        std::fclose(status);
    }
    // Where CPU time grows by less than the cores times the wall time, cores stood idle.
    const double cpuSeconds = CpuSeconds() - m_cpuStart;
    std::fprintf(stderr, "%8.3f s  cpu %7.3f s  rss %9ld kB  peak %9ld kB  %s\n", seconds,
                 cpuSeconds, residentKb, peakKb, stage);
}

}  // namespace marey
