#pragma once
// The Overlap Analysis the profiler's text export draws (Computing, Communication, the part of it
// not hidden by computing, Free), computed from the device's tasks: a database holds only the
// tasks, and the rank views read these tracks as they read the text export's.
#include <utility>
#include <vector>

#include "core/TimeRanges.hpp"

namespace marey {

struct OverlapAnalysis {
    std::vector<TimeRange> computing, communication, notOverlapped, free;
};

// 'computing' and 'communication' in any order, overlapping or not; 'steps' as [start, end].
// Free is the time covered by neither between the first and the last device activity of each
// step (of the whole run without steps), as the profiler counts it. O(n log n).
OverlapAnalysis AnalyzeOverlap(std::vector<TimeRange> computing,
                               std::vector<TimeRange> communication,
                               const std::vector<std::pair<TimeNs, TimeNs>>& steps);

}  // namespace marey
