#include "path/CriticalPath.hpp"

#include <algorithm>

#include "core/LoadTiming.hpp"

namespace marey {
namespace {

constexpr uint32_t kNoEdge = UINT32_MAX;

std::optional<BoundKind> BoundOf(const PathGraph& graph, const PathEdge& edge) {
    if (edge.weightNs == 0 || edge.event == kNoPathEvent) return std::nullopt;
    switch (edge.kind) {
        case PathEdgeKind::kLaunchDelay:
            return BoundKind::kLaunch;
        case PathEdgeKind::kKernelKernel:
            return BoundKind::kKernelKernel;
        case PathEdgeKind::kOperator: {
            const PathEvent& event = graph.events[edge.event];
            if (!event.IsDevice()) return BoundKind::kCpu;
            return event.activityClass == ActivityClass::kCommunication ? BoundKind::kCommunication
                                                                        : BoundKind::kCompute;
        }
        case PathEdgeKind::kCollective:
            return BoundKind::kCommunication;
        case PathEdgeKind::kDependency:
        case PathEdgeKind::kSync:
            return std::nullopt;
    }
    return std::nullopt;
}

// The nodes in an order where every edge runs forward (Kahn's): those on a cycle never come.
std::vector<uint32_t> TopologicalOrder(const std::vector<uint32_t>& firstOut,
                                       const std::vector<uint32_t>& outEdges,
                                       const std::vector<PathEdge>& edges, uint32_t nodeCount) {
    std::vector<uint32_t> incoming(nodeCount, 0);
    for (const PathEdge& edge : edges) ++incoming[edge.to];
    std::vector<uint32_t> order;
    order.reserve(nodeCount);
    for (uint32_t n = 0; n < nodeCount; ++n)
        if (incoming[n] == 0) order.push_back(n);
    for (size_t next = 0; next < order.size(); ++next) {
        const uint32_t node = order[next];
        for (uint32_t i = firstOut[node]; i < firstOut[node + 1]; ++i)
            if (--incoming[edges[outEdges[i]].to] == 0) order.push_back(edges[outEdges[i]].to);
    }
    return order;
}

// The path's edges, a stretch per run of one event and one bound kind.
void AddStretches(const PathGraph& graph, const std::vector<uint32_t>& pathEdges,
                  CriticalPath& path) {
    for (const uint32_t e : pathEdges) {
        const PathEdge& edge = graph.edges[e];
        path.lengthNs += edge.weightNs;
        const std::optional<BoundKind> bound = BoundOf(graph, edge);
        if (!bound) continue;
        path.boundNs[static_cast<int>(*bound)] += edge.weightNs;
        const PathEvent& event = graph.events[edge.event];
        const TimeNs startNs = graph.NodeTime(edge.from), endNs = graph.NodeTime(edge.to);
        if (!path.stretches.empty()) {
            PathStretch& last = path.stretches.back();
            if (last.bound == *bound && last.slice.track == event.slice.track &&
                last.slice.row == event.slice.row && last.slice.index == event.slice.index &&
                last.endNs == startNs) {
                last.endNs = endNs;
                continue;
            }
        }
        const SliceAddress fromSlice = graph.events[edge.from / 2].slice;
        path.stretches.push_back({*bound, startNs, endNs, event.name, event.slice, fromSlice});
    }
}

}  // namespace

CriticalPath FindLongestPath(const PathGraph& graph, std::vector<uint32_t>* pathEdgesOut) {
    CriticalPath path;
    path.events = graph.events.size();
    path.edges = graph.edges.size();
    path.edgesByKind = graph.edgesByKind;
    path.syncMarkers = graph.syncMarkers;
    path.unmatchedSyncs = graph.unmatchedSyncs;
    path.backwardEdges = graph.backwardEdges;
    path.overlappingCalls = graph.overlappingCalls;
    path.deviceShiftNs = graph.deviceShiftNs;
    if (graph.events.empty()) {
        path.unavailable = "no host call or device work lies inside the window";
        return path;
    }
    const LoadTiming timing;
    const uint32_t nodeCount = static_cast<uint32_t>(2 * graph.events.size());
    // The edges leaving each node, as offsets into one array.
    std::vector<uint32_t> firstOut(nodeCount + 1, 0), outEdges(graph.edges.size());
    for (const PathEdge& edge : graph.edges) ++firstOut[edge.from + 1];
    for (uint32_t n = 0; n < nodeCount; ++n) firstOut[n + 1] += firstOut[n];
    {
        std::vector<uint32_t> fill(firstOut.begin(), firstOut.end() - 1);
        for (uint32_t e = 0; e < graph.edges.size(); ++e) outEdges[fill[graph.edges[e].from]++] = e;
    }
    const std::vector<uint32_t> order =
        TopologicalOrder(firstOut, outEdges, graph.edges, nodeCount);
    path.nodesOnCycles = nodeCount - order.size();
    timing.Report("critical path: nodes ordered");

    // Longest distance to each node, from any node; the edge it came by.
    std::vector<TimeNs> distance(nodeCount, 0);
    std::vector<uint32_t> cameBy(nodeCount, kNoEdge);
    for (const uint32_t node : order) {
        for (uint32_t i = firstOut[node]; i < firstOut[node + 1]; ++i) {
            const PathEdge& edge = graph.edges[outEdges[i]];
            const TimeNs reached = distance[node] + edge.weightNs;
            if (reached > distance[edge.to] ||
                (reached == distance[edge.to] && cameBy[edge.to] == kNoEdge))
                distance[edge.to] = reached, cameBy[edge.to] = outEdges[i];
        }
    }
    // The path's end: the farthest node, the latest of equals (the path then reaches as far into
    // the window as its time allows).
    uint32_t end = order.empty() ? 0 : order.front();
    for (const uint32_t node : order)
        if (distance[node] > distance[end] ||
            (distance[node] == distance[end] && graph.NodeTime(node) > graph.NodeTime(end)))
            end = node;
    std::vector<uint32_t> pathEdges;
    uint32_t start = end;
    for (uint32_t node = end; cameBy[node] != kNoEdge; node = graph.edges[cameBy[node]].from) {
        pathEdges.push_back(cameBy[node]);
        start = graph.edges[cameBy[node]].from;
        if (pathEdges.size() > graph.edges.size()) break;  // a cycle: never, as the order is
    }
    std::reverse(pathEdges.begin(), pathEdges.end());
    if (pathEdgesOut) *pathEdgesOut = pathEdges;
    path.startNs = graph.NodeTime(start);
    path.endNs = graph.NodeTime(end);
    AddStretches(graph, pathEdges, path);
    timing.Report("critical path: longest path found");
    return path;
}

std::vector<PathContributor> TopContributors(const CriticalPath& path, size_t most) {
    std::vector<PathContributor> all;
    all.reserve(path.stretches.size());
    for (const PathStretch& stretch : path.stretches)
        all.push_back({stretch.name, stretch.bound, stretch.endNs - stretch.startNs, 1});
    std::sort(all.begin(), all.end(), [](const PathContributor& a, const PathContributor& b) {
        return a.name != b.name ? a.name < b.name : a.bound < b.bound;
    });
    std::vector<PathContributor> merged;
    for (const PathContributor& one : all) {
        if (!merged.empty() && merged.back().name == one.name && merged.back().bound == one.bound) {
            merged.back().ns += one.ns;
            ++merged.back().stretches;
        } else {
            merged.push_back(one);
        }
    }
    std::sort(merged.begin(), merged.end(), [](const PathContributor& a, const PathContributor& b) {
        if (a.ns != b.ns) return a.ns > b.ns;
        return a.name != b.name ? a.name < b.name : a.bound < b.bound;
    });
    if (merged.size() > most) merged.resize(most);
    return merged;
}

CriticalPath CriticalPathOfWindow(const TraceModel& model, const DeviceActivities& activities,
                                  uint32_t group, TimeNs fromNs, TimeNs toNs) {
    CriticalPath path = FindLongestPath(BuildPathGraph(model, activities, group, fromNs, toNs));
    path.fromNs = fromNs;
    path.toNs = toNs;
    return path;
}

CriticalPath CriticalPathOfStepWindow(const TraceModel& model, const TraceAnalyses& analyses,
                                      const StepWindow& step, const std::vector<uint32_t>* work) {
    CriticalPath path = FindLongestPath(
        BuildPathGraph(model, analyses.activities, step.group, step.startNs, step.endNs, work));
    path.fromNs = step.startNs;
    path.toNs = step.endNs;
    path.step = step.label;
    return path;
}

std::optional<CriticalPath> CriticalPathOfStep(const TraceModel& model,
                                               const TraceAnalyses& analyses, uint32_t group,
                                               const std::string* stepLabel) {
    const StepWindow* chosen = nullptr;
    for (const StepWindow& step : analyses.steps) {
        if (step.group != group) continue;
        // A label marked twice: the first (by start) of its windows.
        if (stepLabel ? step.label == *stepLabel && !chosen
                      : !chosen || step.endNs - step.startNs > chosen->endNs - chosen->startNs)
            chosen = &step;
    }
    if (stepLabel && !chosen) return std::nullopt;
    if (!chosen) {
        // No step: the whole trace (its last end included).
        return CriticalPathOfWindow(model, analyses.activities, group, model.firstNs,
                                    model.lastNs + 1);
    }
    return CriticalPathOfStepWindow(model, analyses, *chosen);
}

std::vector<std::vector<uint32_t>> WorkOfSteps(const TraceAnalyses& analyses) {
    std::vector<std::vector<uint32_t>> work(analyses.steps.size());
    const std::vector<DeviceActivity>& all = analyses.activities.activities;
    for (uint32_t a = 0; a < all.size(); ++a)
        if (all[a].step != kNoStep) work[all[a].step].push_back(a);
    return work;
}

std::vector<CriticalPath> CriticalPathsOfSteps(const TraceModel& model,
                                               const TraceAnalyses& analyses, uint32_t group) {
    const std::vector<std::vector<uint32_t>> work = WorkOfSteps(analyses);
    std::vector<CriticalPath> paths;
    for (uint32_t s = 0; s < analyses.steps.size(); ++s)
        if (analyses.steps[s].group == group)
            paths.push_back(CriticalPathOfStepWindow(model, analyses, analyses.steps[s], &work[s]));
    return paths;
}

}  // namespace marey
