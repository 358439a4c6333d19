#pragma once
// A breakdown of where a load spends its time and memory, for profiling the loader: printed to
// stderr when the environment variable MAREY_TIMING is set, nothing otherwise.
#include <chrono>

namespace marey {

class LoadTiming {
public:
    LoadTiming();
    // One line: seconds since construction, CPU seconds of all threads since construction,
    // resident memory now and at most so far, and the stage just finished.
    void Report(const char* stage) const;

private:
    bool m_enabled;
    std::chrono::steady_clock::time_point m_start;
    double m_cpuStart;
};

}  // namespace marey
