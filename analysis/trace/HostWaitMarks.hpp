#pragma once
// The idle gaps where a device stream waited for the host (GapKind::kHostWait), per stream, as
// the timeline marks them: sorted columns for a visible-range query that folds gaps narrower
// than a pixel, as slices are folded.
#include <cstdint>
#include <vector>

#include "trace/TraceAnalyses.hpp"

namespace marey {

struct HostWaitMarks {
    uint32_t track = 0;   // the stream's model track
    uint32_t stream = 0;  // index into DeviceActivities::streams
    // One entry per host-wait gap, by time; gaps of one stream never overlap, so ends ascend too.
    std::vector<TimeNs> startNs, endNs;
    // How long after the stream ran dry (startNs) the host began the launch of the activity that
    // ended the gap.
    std::vector<TimeNs> launchAfterNs;
    TimeNs totalNs = 0;  // the gaps' durations summed
    size_t size() const { return startNs.size(); }
};

// The host-wait gaps of 'analyses.gaps', one entry per stream that has any, by stream. Finds each
// gap's next activity by binary search. O(gaps · log activities).
std::vector<HostWaitMarks> CollectHostWaits(const TraceAnalyses& analyses);

struct HostWaitItem {
    TimeNs startNs = 0, endNs = 0;
    uint32_t first = 0;  // index of the first gap
    uint32_t count = 1;  // > 1: a run of gaps each narrower than minVisibleNs, folded into one
};

// Appends the gaps overlapping [viewStartNs, viewEndNs): a gap at least 'minVisibleNs' long is an
// item of its own; gaps starting within 'minVisibleNs' of a narrower one fold into it, and the
// next item is found by galloping, so a zoomed-out view costs O(log n + items · log gaps per
// item) whatever the number of gaps.
void QueryHostWaits(const HostWaitMarks& marks, TimeNs viewStartNs, TimeNs viewEndNs,
                    TimeNs minVisibleNs, std::vector<HostWaitItem>& out);

}  // namespace marey
