#pragma once
// The cluster as the "cluster" object of `marey stats CLUSTER --json` (schema in
// docs/stats-json.md).
#include <string>

#include "cluster/Cluster.hpp"

namespace marey {

std::string ClusterToJson(const Cluster& cluster);

// The same for a terminal: ranks, steps, slow ranks, slow links, findings, problems.
std::string ClusterToText(const Cluster& cluster);

}  // namespace marey
