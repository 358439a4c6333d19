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

// Writes 'ranks' generated Kineto rank traces of about 'eventsPerRank' events (10 steps each)
// under 'dir', unless they are there already; returns their folder, empty after saying why not.
std::string WriteRankTraces(const std::string& dir, uint64_t ranks, uint64_t eventsPerRank);
std::string RankTracePath(const std::string& folder, uint64_t rank);

}  // namespace marey::bench
