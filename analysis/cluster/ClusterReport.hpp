#pragma once
// Everything the cluster views and `stats --json` derive from a loaded cluster, computed once
// (on the loading thread in the viewer): the averaged step table and its slow ranks, the matrix
// and its slow links, the findings, the time overview and the collectives.
#include <string>
#include <vector>

#include "cluster/Cluster.hpp"
#include "cluster/ClusterCommunication.hpp"
#include "cluster/ClusterFindings.hpp"
#include "cluster/ClusterLinks.hpp"
#include "cluster/ClusterSteps.hpp"

namespace marey {

struct ClusterReport {
    StepTable averagedSteps;
    std::vector<SlowRank> slowRanks;  // over the averaged steps, all ranks
    std::vector<MatrixCell> matrix;   // every link, summed over operators
    std::vector<SlowLink> slowLinks;
    std::vector<std::string> matrixOperators;
    std::vector<ClusterFinding> findings;
    std::vector<StepOverview> timeOverview;
    std::vector<CollectiveKey> collectives;
    std::vector<TimeNs> collectiveDurations;  // every collective on every rank, ascending
};

// O(ranks × (steps + collectives) + links log links).
ClusterReport BuildClusterReport(const Cluster& cluster);

}  // namespace marey
