#pragma once
// The training steps a trace marks with "ProfilerStep#N" slices (torch_npu, PyTorch's profiler
// schedule): where each lies on the trace's clock.
#include <string>
#include <vector>

#include "core/Time.hpp"
#include "model/TraceModel.hpp"

namespace marey {

struct ProfilerStepSpan {
    std::string step;               // "50" of "ProfilerStep#50"
    TimeNs startNs = 0, endNs = 0;  // absolute; the earliest slice of that name when repeated
};

// Every ProfilerStep#N slice of the trace, one per step, by start time. O(strings + slices).
std::vector<ProfilerStepSpan> FindProfilerSteps(const TraceModel& model);

}  // namespace marey
