#pragma once
// What a rank folder's kernel_details.csv and step_trace_time.csv hold, made from a trace's device
// activities: so that Overview, Operators and Steps work on a trace that came alone.
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

}  // namespace marey
