#pragma once
// What made a window (a step, or a range a person selects) of one rank as long as it was: the
// longest path through its graph of host calls, launches, device work and synchronisations, and
// the path's time split by what bounds it (docs/critical-path.md).
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "path/PathGraph.hpp"
#include "trace/TraceAnalyses.hpp"

namespace marey {

// A run of the path inside one event and of one bound kind: a host call's own time, a device
// activity, the wait for a launch, or the gap to the previous activity on a stream.
struct PathStretch {
    BoundKind bound = BoundKind::kCpu;
    TimeNs startNs = 0, endNs = 0;  // the part of the event's time on the path
    StringId name = 0;              // the event's (for a launch: the launched work's)
    SliceAddress slice;             // the event's, to select it
    // Where the stretch begins: the event itself, or for a launch's wait the launch call and
    // for a wait behind other work the work before it on the stream.
    SliceAddress fromSlice;
};

// A collective where a path across ranks went from the rank that arrived last to another.
struct PathCollective {
    std::string name;        // as FindTraceCollectives names it: "pg 0 allreduce seq 12"
    uint32_t lateGroup = 0;  // the rank (group of the model) that arrived last
    TimeNs lateByNs = 0;     // its arrival after the first rank's
    uint32_t ranks = 0;      // the ranks that took part
    TimeNs arrivedNs = 0;    // the last arrival: where the path left that rank
};

struct CriticalPath {
    std::string step;               // the step's label ("5"); empty for a range or the whole trace
    TimeNs fromNs = 0, toNs = 0;    // the window
    TimeNs startNs = 0, endNs = 0;  // the first and the last node of the path
    TimeNs lengthNs = 0;            // the time on the path: the sum of its edges
    std::array<TimeNs, kBoundKindCount> boundNs{};
    std::vector<PathStretch> stretches;  // in the path's order
    // The graph it was found in.
    uint64_t events = 0, edges = 0;
    std::array<uint64_t, kPathEdgeKindCount> edgesByKind{};
    uint64_t syncMarkers = 0, unmatchedSyncs = 0;
    uint64_t backwardEdges = 0;  // edges left out because they would run back in time
    // Host calls left off their thread's chain: they overlap an earlier call without nesting.
    uint64_t overlappingCalls = 0;
    // Added to the device's times in the graph (and in the stretches of device work), so that
    // work never starts before the call that launched it: its clock, converted to the host's,
    // runs up to this much behind (Ascend: a few µs). At most 50 µs; 0 for most traces.
    TimeNs deviceShiftNs = 0;
    // Nodes on a cycle (a clock that runs back between host and device) are left out of the
    // search: the path is found among the rest, and this says how many there were.
    uint64_t nodesOnCycles = 0;
    std::string unavailable;  // why there is no path; empty when there is
    // Across ranks (path/RanksPath.hpp): the ranks (groups) the path visits, in the order it
    // first reaches them, and the collectives where it crossed from the rank that came last.
    std::vector<uint32_t> groups;
    std::vector<PathCollective> collectives;
};

// What a path's time went to by name: each (name, bound kind)'s time on the path and stretches.
struct PathContributor {
    StringId name = 0;
    BoundKind bound = BoundKind::kCpu;
    TimeNs ns = 0;
    uint64_t stretches = 0;
};

// The 'most' names with the most time on 'path', most first. O(stretches log stretches).
std::vector<PathContributor> TopContributors(const CriticalPath& path, size_t most);

// The longest path of 'graph' (edges' weights summed; every node may start or end it), its
// stretches and its time by bound kind; 'pathEdges', when given, gets the path's edges (indices
// into graph.edges) in order. O(nodes + edges).
CriticalPath FindLongestPath(const PathGraph& graph, std::vector<uint32_t>* pathEdges = nullptr);

// The path of rank 'group' (kNoGroup: a trace of one rank) over [fromNs, toNs). O(events of the
// window × log) plus the text of its synchronisation records.
CriticalPath CriticalPathOfWindow(const TraceModel& model, const DeviceActivities& activities,
                                  uint32_t group, TimeNs fromNs, TimeNs toNs);

// The path of one step window (TraceAnalyses::steps), labelled with it. 'work': the step's device
// work when the caller has it (WorkOfSteps), else every activity is searched.
CriticalPath CriticalPathOfStepWindow(const TraceModel& model, const TraceAnalyses& analyses,
                                      const StepWindow& step,
                                      const std::vector<uint32_t>* work = nullptr);

// Each step window's device work (indices into analyses.activities.activities), by the step
// AssignSteps gave each activity, in start order: what a path of many steps reads step by step
// instead of every activity for each. O(activities).
std::vector<std::vector<uint32_t>> WorkOfSteps(const TraceAnalyses& analyses);

// The path of a rank's longest step (the step of 'stepLabel' when given), or of the whole trace
// when it has no step. nullopt when 'stepLabel' names no step of the rank.
std::optional<CriticalPath> CriticalPathOfStep(const TraceModel& model,
                                               const TraceAnalyses& analyses, uint32_t group,
                                               const std::string* stepLabel = nullptr);

// The path of every step of rank 'group' (TraceAnalyses::steps of that group, in their order),
// each with its step's label. The activities are split by the step AssignSteps gave them, so
// that the whole costs O(events) rather than O(steps × activities).
std::vector<CriticalPath> CriticalPathsOfSteps(const TraceModel& model,
                                               const TraceAnalyses& analyses, uint32_t group);

}  // namespace marey
