#pragma once
// Ranks of a cluster read from their traces alone (a folder of PyTorch profiler traces, one per
// rank): each rank's summary from its device activities, and the waits of its collectives, which
// no trace records, estimated across the ranks.
#include <string>
#include <vector>

#include "cluster/ClusterRank.hpp"
#include "trace/TraceAnalyses.hpp"

namespace marey {

// The summary of the rank whose trace 'model' is, from 'analyses' of it: the step phases (as
// StepTraceFromAnalyses makes them), operator types of its activities, and one collective per
// communication kernel of a GPU stream, named so that the same collective has the same name on
// every rank: "pg <group> <collective> seq <n>" where PyTorch recorded the collective's process
// group, kind and sequence number on the kernel (its group: the process group; "#<place>" in the
// step without a sequence number), else "<kernel name before '('>#<its place among the kernels
// of that name in its step>". Rank id from distributedInfo or the file name, else none (numbered
// after the others). O(activities).
ClusterRank SummarizeTraceRank(const TraceModel& model, const TraceAnalyses& analyses,
                               const std::string& path);

// A collective ends on every rank at about the same moment (none can finish before the last one
// has joined), so a rank's wait in it is its kernel's time minus the shortest time of that
// collective among the ranks, and the shortest time is what the transfer took. Sets waitNs and
// transitNs of every collective of ranks[i] where fromTrace[i], by (step, name) across those
// ranks; a collective seen on one rank only keeps wait 0. O(collectives log collectives).
void EstimateCollectiveWaits(std::vector<ClusterRank>& ranks, const std::vector<bool>& fromTrace);

// Whether a file name looks like a rank's trace in a folder of them: "*.pt.trace.json[.gz]",
// a ".json[.gz]" whose name holds "rank-N", "rank_N" or "trace", or an Nsight Systems export
// (".sqlite").
bool IsRankTraceFileName(const std::string& fileName);

}  // namespace marey
