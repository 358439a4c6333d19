#pragma once
// What `marey stats` reports about one loaded trace.
#include <cstdint>
#include <string>
#include <vector>

#include "index/RangeStats.hpp"
#include "model/TraceModel.hpp"

namespace marey {

struct TraceSummary {
    uint64_t events = 0;
    std::vector<std::pair<std::string, uint64_t>> eventsByPhase;  // phase text, count; sorted
    uint64_t processes = 0;
    uint64_t tracks = 0;
    uint64_t slices = 0;
    uint64_t overlappingSlices = 0;
    uint64_t flowsMatched = 0;
    uint64_t flowsUnmatched = 0;
    uint64_t counterSamples = 0;
    uint64_t instants = 0;
    TimeNs firstNs = 0, lastNs = 0;
    uint64_t problemCount = 0;
    std::vector<ImportProblem> problems;
    std::vector<NameStats> top;  // by total slice time, largest first
};

// Counts and the 'topCount' names with the most slice time. O(slices).
TraceSummary Summarize(const TraceModel& model, size_t topCount = 20);

}  // namespace marey
