#include "core/LoadTiming.hpp"

#include <cstdio>
#include <cstdlib>

namespace tracelens {

LoadTiming::LoadTiming()
    : m_enabled(std::getenv("TRACELENS_TIMING") != nullptr), m_start(std::chrono::steady_clock::now()) {}

void LoadTiming::Report(const char* stage) const {
    if (!m_enabled) return;
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
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
    std::fprintf(stderr, "%8.3f s  rss %9ld kB  peak %9ld kB  %s\n", seconds, residentKb, peakKb, stage);
}

}  // namespace tracelens
