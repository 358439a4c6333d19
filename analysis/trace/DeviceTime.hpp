#pragma once
// Where a device's time went over the span of its activities: idle, computing, only
// communicating or copying; each exact combination of classes running at once; and how much of
// the communication ran while computation did.
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "core/TimeRanges.hpp"
#include "trace/DeviceActivities.hpp"

namespace marey {

struct TemporalBreakdown {
    TimeNs spanNs = 0;        // first activity start to last activity end
    TimeNs idleNs = 0;        // span - busy
    TimeNs computeNs = 0;     // union of computation
    TimeNs nonComputeNs = 0;  // busy - computation: communication or memory alone
};

// A set of classes as bits: 1 << ActivityClass.
using ClassSet = uint8_t;
constexpr ClassSet ClassBit(ActivityClass activityClass) {
    return static_cast<ClassSet>(1u << static_cast<unsigned>(activityClass));
}

struct ClassSetTime {
    ClassSet classes = 0;
    TimeNs ns = 0;
};

struct DeviceTime {
    bool any = false;  // false: no activity, every figure 0
    TemporalBreakdown temporal;
    TimeNs busyNs = 0;
    std::vector<ClassSetTime> classSets;  // by bit mask, sets that held time only
    TimeNs communicationNs = 0;           // union of communication
    TimeNs overlappedNs = 0;              // of it, while computation ran
    // 100 × overlapped / communication; nullopt when no communication ran.
    std::optional<double> OverlapPercent() const;
    // The unions, kept for showing where the figures come from.
    std::array<std::vector<TimeRange>, kActivityClassCount> unions;
};

// The figures of the activities 'indices' (into activities.activities). O(n log n).
DeviceTime MeasureDeviceTime(const DeviceActivities& activities,
                             const std::vector<uint32_t>& indices);

// Human names of a set: "computation + communication".
std::vector<const char*> ClassSetNames(ClassSet classes);

}  // namespace marey
