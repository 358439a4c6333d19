#pragma once
// One rank of a cluster made into its small summary, whatever it was read from: a rank folder,
// a rank summary file, a rank's trace (loaded and analysed), or MindInsight's step_trace_raw file.
#include "cluster/ClusterRank.hpp"
#include "cluster/RankInput.hpp"
#include "import/nsys/NsysLoader.hpp"

namespace marey {

// The summary of 'input'. Never fails: what could not be read is in its problems, and a summary
// file that cannot be read at all gives a rank marked unreadable. A rank read from its trace has
// its collectives' waits still to be estimated across the ranks (EstimateCollectiveWaits).
// 'options.keepKernelTable' keeps the rank's kernel table in ClusterRank::kernels (rank folders
// and traces). O(the input's bytes).
ClusterRank SummarizeRankInput(const RankInput& input, const RankReadOptions& options = {});

// Rank 'rank' of a job recorded in one Nsight Systems export: its process's rows only, summarised
// as a rank's trace is (its kernel table kept for the Marey view).
ClusterRank SummarizeExportProcess(const std::string& path, const NsysRank& rank,
                                   const std::string& stepRange = "");

}  // namespace marey
