#pragma once
// msprof-analyze's cluster_analysis_output folder (what MindStudio Insight's cluster pass
// writes): cluster_step_trace_time.csv, cluster_communication.json,
// cluster_communication_matrix.json and communication_group.json, turned into one ClusterRank per
// rank, so that every cluster view works on it as on rank folders.
#include <string>

#include "cluster/Cluster.hpp"
#include "core/Status.hpp"

namespace marey {

// Fills cluster.ranks and cluster.groups from the files of 'folder'; each file is optional and
// its problems go to cluster.problems. Fails only when none of the files gives a rank.
Status ReadAnalysisOutput(const std::string& folder, Cluster& cluster);

}  // namespace marey
