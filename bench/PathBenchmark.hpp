#pragma once
// The benchmark's critical path across ranks: generated rank traces in one timeline, and the path
// of one step over all of them.
#include <cstdint>
#include <string>
#include <vector>

namespace marey::bench {

int RunRanksPathBenchmark(const std::vector<uint64_t>& rankCounts, uint64_t eventsPerRank,
                          const std::string& dir, int repeat, unsigned threads, bool keep);

}  // namespace marey::bench
