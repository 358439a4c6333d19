#pragma once
// The pipeline view's figures as the "pipeline" key of `marey stats CLUSTER --json` (schema in
// docs/stats-json.md): the first pipeline's ranks, and per step its microbatches, transfers and
// each stage's computing and bubble against the 1F1B ideal.
#include <string>

#include "cluster/Cluster.hpp"

namespace marey {

// "null" when the layout has no pipeline stages; else reads the kernel_details.csv of the
// pipeline's ranks once (none when the loader kept the tables) and builds every step, on
// 'threads' threads. O(rows of those files).
std::string PipelineToJson(const Cluster& cluster, unsigned threads);

}  // namespace marey
