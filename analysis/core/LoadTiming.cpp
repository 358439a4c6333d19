#include "core/LoadTiming.hpp"

#include <cstdio>
#include <cstdlib>

namespace tracelens {

LoadTiming::LoadTiming()
    : m_enabled(std::getenv("TRACELENS_TIMING") != nullptr), m_start(std::chrono::steady_clock::now()) {}

void LoadTiming::Report(const char* stage) const {
    if (!m_enabled) return;
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
    long pages = 0, residentPages = 0;
    if (std::FILE* statm = std::fopen("/proc/self/statm", "r")) {
        if (std::fscanf(statm, "%ld %ld", &pages, &residentPages) != 2) residentPages = 0;
        std::fclose(statm);
    }
    std::fprintf(stderr, "%8.3f s  rss %9ld kB  %s\n", seconds, residentPages * 4, stage);
}

}  // namespace tracelens
