#pragma once
// Loading a cluster folder: its ranks found, each rank's small summary read in parallel (rank
// folders, else rank summary files, else MindInsight's step_trace_raw files; or msprof-analyze's
// cluster_analysis_output, its cluster_analysis.db first), then what they say settled
// (cluster/Cluster.hpp).
#include <atomic>
#include <cstdint>
#include <string>

#include "cache/IndexCache.hpp"
#include "cluster/Cluster.hpp"
#include "core/Status.hpp"

namespace marey {

// Shared with the thread that loads a cluster: how far it is, and a request to stop.
struct ClusterProgress {
    std::atomic<uint32_t> ranksDone{0}, ranksTotal{0};
    std::atomic<uint32_t> ranksCached{0};  // of those done: taken from the cluster cache
    std::atomic<bool> cancel{false};
};

// Loads the cluster folder 'path' on up to 'threads' threads. Rank folders are preferred; without
// them, rank summary files; without those, a cluster_analysis_output. Each rank file is read once;
// 'options' says what of it to keep beyond the summary. With 'cache' enabled, the summaries of
// rank folders and rank traces whose files have not changed are taken from the cluster cache
// (ClusterRankCache.hpp), and what was read afresh is written to it. Fails when the folder holds
// none of these, or when cancelled. O(ranks × a rank's small files).
Result<Cluster> LoadCluster(const std::string& path, unsigned threads,
                            ClusterProgress* progress = nullptr,
                            const RankReadOptions& options = {},
                            const IndexCacheOptions& cache = {});

}  // namespace marey
