#pragma once
// Communication split by the kind of parallel group it ran in: each communication operator's
// group (its hash, resolved to ranks through the cluster's groups) is matched with the smallest
// group of the layout that holds all its ranks, so that "the TP all-reduces take most of it" is
// one line.
#include <string>
#include <vector>

#include "cluster/Cluster.hpp"

namespace marey {

struct GroupKindCommunication {
    std::string kind;  // "tp", "cp", "ep", "dp", "pp", "other" (a layout group of another kind),
                       // "world" (every rank), "outside" (no layout group holds its ranks)
    TimeNs elapseNs = 0, waitNs = 0;  // summed over every rank's operators
    uint64_t operators = 0;
};

// The kind of the smallest group of the cluster's layout that holds every rank of 'ranks'
// (ascending): a dimension ("tp"), "other", "world" for every rank, "outside"; "" without a layout.
// O(layout groups × ranks).
std::string LayoutKindHolding(const Cluster& cluster, const std::vector<int>& ranks);

// Every rank's operators summed by kind, the largest elapse first; empty without a layout or
// operators. O(ranks × operators + groups' ranks).
std::vector<GroupKindCommunication> CommunicationByGroupKind(const Cluster& cluster);

// "TP 61.2 % (8.0 ms a rank, wait 1.2 ms), world 38.8 % (…)": the split in one line.
std::string DescribeCommunicationByGroupKind(const std::vector<GroupKindCommunication>& split,
                                             size_t ranks);

}  // namespace marey
