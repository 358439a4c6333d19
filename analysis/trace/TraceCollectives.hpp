#pragma once
// The collectives of one rank's trace: what a rank's communication view and a cluster of rank
// traces read when no communication.json came with the trace.
#include <cstdint>
#include <string>
#include <vector>

#include "core/Time.hpp"
#include "model/TraceModel.hpp"
#include "trace/TraceAnalyses.hpp"

namespace marey {

struct TraceCollective {
    std::string step;                  // the host step's label ("50"); empty outside every step
    std::string name;                  // named alike on every rank (see FindTraceCollectives)
    std::string group;                 // the process group, where the trace records it; else empty
    bool p2p = false;                  // a send or receive rather than a collective of the group
    TimeNs startNs = 0, elapseNs = 0;  // the kernel's or the operator's span
};

// The collectives of rank 'group' of 'model' (kNoGroup for a trace alone), in start order per
// kind: one per communication kernel of a GPU stream, named "pg <group> <collective> seq <n>"
// where PyTorch recorded the collective's process group, kind and sequence number on the kernel
// ("…#<place>" among the group's collectives of that kind in the step without a sequence), else
// "<kernel name before '('>#<its place among the kernels of that name in its step>"; and, for
// Ascend, one per slice of HCCL's "Group N Communication" threads, the trace's own record of
// each operator ("hcom_allReduce__586_0_1", named alike on every rank). 'activities': the
// indices into analyses.activities.activities to read (one step's, in order: a kernel's place
// is counted within its step), else all. O(activities read).
std::vector<TraceCollective> FindTraceCollectives(
    const TraceModel& model, const TraceAnalyses& analyses, uint32_t group,
    const std::vector<uint32_t>* activities = nullptr);

}  // namespace marey
