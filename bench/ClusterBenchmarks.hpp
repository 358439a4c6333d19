#pragma once
// The benchmark's modes that open many ranks: a generated cluster of rank folders, a job
// summarised across processes, and a folder of rank traces.
#include <cstdint>
#include <string>
#include <vector>

namespace marey::bench {

int RunClusterBenchmark(const std::vector<uint64_t>& sizes, uint32_t steps, const std::string& dir,
                        int repeat, unsigned threads, bool keep);
int RunSummarizeBenchmark(const std::vector<uint64_t>& sizes, uint32_t steps,
                          const std::string& dir, int repeat, unsigned threads, bool keep);
int RunGpuClusterBenchmark(const std::vector<uint64_t>& rankCounts, uint64_t eventsPerRank,
                           const std::string& dir, int repeat, unsigned threads, bool keep);

}  // namespace marey::bench
