#pragma once
// Progress of one load that another thread may read while it runs, and its Cancel: the same for
// every kind of source (a trace's text, a profiler database).
#include <atomic>
#include <cstdint>

namespace marey {

struct LoadProgress {
    // The work in units of the source's own (a trace's bytes, a database's table shares).
    std::atomic<uint64_t> bytesTotal{0};
    std::atomic<uint64_t> bytesDone{0};
    std::atomic<int> stage{0};  // 0 reading, 1 parsing, 2 indexing, 3 done
    // The analysis being computed after the model is built ("finding the device activities"), a
    // string of static storage; null before the analyses start.
    std::atomic<const char*> analysis{nullptr};
    // Set by another thread to stop the load: it ends soon after (a trace after the chunks being
    // parsed, a database within a few thousand rows), failing with "<file>: cancelled".
    std::atomic<bool> cancel{false};
};

// Says which analysis 'progress' (may be null) is computing now.
inline void ReportAnalysis(LoadProgress* progress, const char* analysis) {
    if (progress) progress->analysis = analysis;
}

}  // namespace marey
