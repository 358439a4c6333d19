#pragma once
// The Marey view's figures as the "marey" key of `marey stats CLUSTER --json` (schema in
// docs/stats-json.md): the devices in order, per step the operators matched and unmatched between
// neighbouring devices, and the slowest device by the slant it adds.
#include <string>

#include "cluster/Cluster.hpp"

namespace marey {

// Reads every rank's kernel_details.csv once (none when the loader kept the tables), then builds
// the steps, on 'threads' threads. O(rows of those files).
std::string MareyToJson(const Cluster& cluster, unsigned threads);

}  // namespace marey
