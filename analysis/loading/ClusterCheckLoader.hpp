#pragma once
// `marey check` on two cluster folders: finds the rank folders of each, pairs them by rank id and
// checks every pair as two runs are checked.
#include <string>

#include "compare/CheckRules.hpp"
#include "compare/ClusterCheck.hpp"
#include "core/Status.hpp"
#include "import/chrome_json/TraceLoader.hpp"

namespace marey {

// Checks every rank both clusters have under 'rules', loading one pair at a time (both sides at
// once, as LoadRankPair does) so that memory holds two ranks, not two clusters. Fails, naming the
// folder or rank, when a cluster has no rank folder (rank summaries and cluster_analysis_output
// hold no per-step operators), a rank folder has no rank id or shares one with another, the two
// share no rank, or a rank cannot be loaded or compared. Ranks load with 'options' (their index
// cache, their export). O(ranks × one rank's load).
Result<ClusterCheckResult> CheckClusterFolders(const std::string& baseline,
                                               const std::string& candidate,
                                               const CheckRules& rules,
                                               const LoadOptions& options = {});

}  // namespace marey
