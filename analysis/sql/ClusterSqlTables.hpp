#pragma once
// The tables of `marey sql` over a cluster, as its views read it: rank (each rank's overview
// figures, as `stats --json`'s rank_figures), rank_step (each rank's step phases), collective
// (each rank's communication operators), link (each rank's links, summed per operator and
// transport) and cluster_group (the communication groups). rank_id joins them.
#include <memory>
#include <vector>

#include "cluster/Cluster.hpp"
#include "sql/SqlRows.hpp"

namespace marey {

// 'cluster' must outlive them. O(ranks).
std::vector<std::unique_ptr<SqlRows>> MakeClusterSqlTables(const Cluster& cluster);

}  // namespace marey
