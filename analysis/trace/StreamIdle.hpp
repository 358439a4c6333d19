#pragma once
// Why each device stream sat idle between its activities: waiting for the host to launch the
// next one, the short gap of launching back to back, or something else (another stream, a
// synchronisation).
#include <array>
#include <cstdint>
#include <vector>

#include "trace/DeviceActivities.hpp"

namespace marey {

enum class GapKind : uint8_t { kHostWait, kKernelWait, kOther };
constexpr int kGapKindCount = 3;
const char* GapKindName(GapKind kind);  // "host wait", "kernel wait", "other"

struct GapStats {
    uint64_t count = 0;
    TimeNs totalNs = 0, minNs = 0, maxNs = 0;
    double MeanNs() const { return count ? static_cast<double>(totalNs) / count : 0.0; }
    void Add(TimeNs ns);
};

struct StreamIdle {
    uint32_t stream = 0;  // index into DeviceActivities::streams
    std::array<GapStats, kGapKindCount> gaps;
};

// One idle gap, to show on the timeline.
struct IdleGap {
    TimeNs startNs = 0, endNs = 0;
    uint32_t stream = 0;
    GapKind kind = GapKind::kOther;
};

// Per stream that ran any of 'indices' (ascending, as activities are sorted): the gaps from the
// latest end so far to the next start. Host wait when the next activity's launch started after
// that end, kernel wait when shorter than 'kernelWaitBelowNs', other otherwise. Appends every
// gap to 'gaps' when given. O(n).
std::vector<StreamIdle> BreakDownIdle(const DeviceActivities& activities,
                                      const std::vector<uint32_t>& indices,
                                      TimeNs kernelWaitBelowNs, std::vector<IdleGap>* gaps);

}  // namespace marey
