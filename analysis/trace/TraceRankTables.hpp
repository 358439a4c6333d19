#pragma once
// What a rank folder's kernel_details.csv, step_trace_time.csv and communication.json hold, made
// from a trace's device activities: so that Overview, Operators, Steps and Communication work on
// a trace that came alone.
#include "load/CommunicationJson.hpp"
#include "load/KernelTable.hpp"
#include "load/StepTraceCsv.hpp"
#include "trace/TraceAnalyses.hpp"

namespace marey {

// One row per device activity of the first rank: its name, a type (the Ascend task type, or
// "Kernel", "Memcpy HtoD", "Memset", "Communication"), its class as a core (GPU kernels, AI Core,
// Communication, Other for memory) and its step. O(activities).
KernelTable KernelTableFromActivities(const TraceModel& model, const TraceAnalyses& analyses);

// One row per ProfilerStep of the first rank, in step_trace_time.csv's phases: Communication =
// the union of communication, Overlapped = its part under computation, Communication(Not
// Overlapped) = the rest, Computing = the busy time that is not that rest (memory alone counts
// as computing, as the Ascend profiler counts it), Free = idle, Stage = their sum (the span of the
// step's activities), Preparing = from the host's step start to its first activity.
StepTrace StepTraceFromAnalyses(const TraceAnalyses& analyses);

// One operator per collective of the first rank (FindTraceCollectives), as communication.json
// lists them: step "step<label>", kind "collective" or "p2p", the group, its start and elapse;
// elapseOnly set. O(activities).
CommunicationOps CommunicationFromTrace(const TraceModel& model, const TraceAnalyses& analyses);

}  // namespace marey
