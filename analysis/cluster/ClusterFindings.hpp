#pragma once
// The per-rank overview read across a communication group with the rules of the tuning method:
// a computing problem is a spread of the computing share across cards, a scheduling problem a
// spread of the free share, a communication problem a long communication not overlapped. Each
// finding names the ranks and quotes the figures.
#include <string>
#include <vector>

#include "cluster/Cluster.hpp"
#include "rank/RankOverview.hpp"

namespace marey {

struct ClusterFinding {
    AdviceKind kind = AdviceKind::kHealthy;
    std::string group;       // the group's name, "all ranks" for the whole cluster
    std::string text;        // quotes the figures
    std::vector<int> ranks;  // the ranks it names, most affected first
};

// A spread (largest share minus the median share) above this many points of the total time is
// a finding; so is communication not overlapped above this share of the median rank's time.
inline constexpr double kShareSpreadPoints = 0.05;
inline constexpr double kCommunicationShare = 0.10;

// Findings over 'rankIds' (a group; every rank when empty), named 'groupName'. O(ranks).
std::vector<ClusterFinding> FindGroupProblems(const Cluster& cluster,
                                              const std::vector<int>& rankIds,
                                              const std::string& groupName);

// Over the whole cluster and over each collective or stage group that is not the whole cluster;
// a finding that names the same ranks as one before it is left out. O(groups × ranks).
std::vector<ClusterFinding> FindClusterProblems(const Cluster& cluster);

}  // namespace marey
