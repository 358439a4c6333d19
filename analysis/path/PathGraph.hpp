#pragma once
// The graph a critical path is the longest path of: two nodes per event (its start and its end)
// and edges of HTA's kinds between them. Every edge that carries time runs forward from one
// node's time to the other's, so a path's length is time spent in what its edges stand for, and
// the longest path says what the window's length was made of.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/Time.hpp"
#include "trace/DeviceActivities.hpp"

namespace marey {

// What an edge stands for (HTA 0.5's CPEdgeType, docs/critical-path.md):
enum class PathEdgeKind : uint8_t {
    kOperator,      // time inside a host call or a device activity
    kDependency,    // order without time: one top-level call after the previous one
    kLaunchDelay,   // from a launch call's start to its activity's start, on an idle stream
    kKernelKernel,  // from an activity's end to the next one's start on a busy stream
    kSync,          // a synchronisation: the device's work before the host or stream that waited
    // across ranks: a collective ends on each rank once the last rank has arrived, from that
    // rank's arrival to each rank's end (the time after the arrival, communication)
    kCollective,
};
constexpr int kPathEdgeKindCount = 6;
const char* PathEdgeKindName(PathEdgeKind kind);  // "operator", "dependency", …

// What bounds the time of an edge on the path: the and HTA's bound types.
enum class BoundKind : uint8_t { kCpu, kCompute, kCommunication, kLaunch, kKernelKernel };
constexpr int kBoundKindCount = 5;
const char* BoundKindName(BoundKind kind);  // "cpu", "compute", "communication", "launch", …

constexpr uint32_t kNoPathEvent = UINT32_MAX;

// A host call or a device activity of the window.
struct PathEvent {
    TimeNs startNs = 0, endNs = 0;
    StringId name = 0;
    SliceAddress slice;
    uint32_t stream = kNoPathEvent;  // a device activity's index into DeviceActivities::streams
    ActivityClass activityClass = ActivityClass::kComputation;
    bool blocking = false;  // a host call that waits for the device (cudaStreamSynchronize, …)
    bool IsDevice() const { return stream != kNoPathEvent; }
};

// Nodes are numbered 2 × event (its start) and 2 × event + 1 (its end).
struct PathEdge {
    uint32_t from = 0, to = 0;
    TimeNs weightNs = 0;  // the time between the nodes; 0 for order and synchronisation
    PathEdgeKind kind = PathEdgeKind::kDependency;
    uint32_t event = kNoPathEvent;  // the event whose time it is, when it carries time
};

struct PathGraph {
    std::vector<PathEvent> events;
    std::vector<PathEdge> edges;
    std::array<uint64_t, kPathEdgeKindCount> edgesByKind{};
    uint64_t syncMarkers = 0;       // the device's synchronisation records read
    uint64_t unmatchedSyncs = 0;    // of those, the ones whose call or work was not found
    uint64_t backwardEdges = 0;     // left out: they would have run back in time
    uint64_t overlappingCalls = 0;  // host calls that overlap an earlier one without nesting
    TimeNs deviceShiftNs = 0;       // added to every device time (see ShiftDeviceClock)
    TimeNs NodeTime(uint32_t node) const {
        const PathEvent& event = events[node / 2];
        return node % 2 ? event.endNs : event.startNs;
    }
};

// The rank 'group' (kNoGroup: a trace of one rank) between 'fromNs' and 'toNs': its host calls
// that lie inside the window, the device activities launched inside it (or, without a launch,
// starting inside it), and the edges between them (docs/critical-path.md lists the rules).
// 'deviceWork': the indices into activities.activities to read, when the caller has them (the
// activities AssignSteps gave a step); null: every activity is searched. O(events of the window
// × log) plus the text of the device's synchronisation records, plus O(activities) without
// 'deviceWork'.
PathGraph BuildPathGraph(const TraceModel& model, const DeviceActivities& activities,
                         uint32_t group, TimeNs fromNs, TimeNs toNs,
                         const std::vector<uint32_t>* deviceWork = nullptr);

}  // namespace marey
