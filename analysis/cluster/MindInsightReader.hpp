#pragma once
// MindInsight's older cluster layout (run/hccl.json, host_ips_mapping.txt,
// cluster_profiler/N/profiler/step_trace_raw_<rank>_detail_time.csv, or the same files side by
// side): each rank's steps from its step_trace_raw file (in the device's 10 ns counter ticks, as
// MindInsight reads them: 100,000 to the millisecond), its communication and wait time per step
// from hccl_raw_<rank>.csv, and its stage and bubble from
// ascend_cluster_analyse_pipeline-parallel_*_<rank>.csv when those are there.
#include <string>

#include "cluster/ClusterRank.hpp"

namespace marey {

// The rank of "step_trace_raw_<rank>_detail_time.csv", or -1.
int RankOfStepTraceRaw(const std::string& fileName);

// Reads the rank whose step_trace_raw file is 'path'. Never fails: what cannot be read is in
// the rank's problems.
ClusterRank ReadMindInsightRank(const std::string& path);

}  // namespace marey
