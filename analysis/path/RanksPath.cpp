#include "path/RanksPath.hpp"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "trace/TraceCollectives.hpp"

namespace marey {
namespace {

const StepWindow* StepOf(const TraceAnalyses& analyses, uint32_t group, const std::string& label) {
    for (const StepWindow& step : analyses.steps)
        if (step.group == group && step.label == label) return &step;
    return nullptr;
}

// 'part' appended to 'all': its events, and its edges with their nodes and events moved past
// what 'all' held. Returns the offset of its events.
uint32_t Append(PathGraph& all, const PathGraph& part) {
    const uint32_t offset = static_cast<uint32_t>(all.events.size());
    all.events.insert(all.events.end(), part.events.begin(), part.events.end());
    for (PathEdge edge : part.edges) {
        edge.from += 2 * offset;
        edge.to += 2 * offset;
        if (edge.event != kNoPathEvent) edge.event += offset;
        all.edges.push_back(edge);
    }
    for (int k = 0; k < kPathEdgeKindCount; ++k)
        all.edgesByKind[static_cast<size_t>(k)] += part.edgesByKind[static_cast<size_t>(k)];
    all.syncMarkers += part.syncMarkers;
    all.unmatchedSyncs += part.unmatchedSyncs;
    all.backwardEdges += part.backwardEdges;
    all.overlappingCalls += part.overlappingCalls;
    all.deviceShiftNs = std::max(all.deviceShiftNs, part.deviceShiftNs);
    return offset;
}

// One rank's part in a collective: a GPU's one kernel, or the tasks an Ascend HCCL operator ran
// on the rank's streams, by start.
struct Participant {
    uint32_t group = 0;
    std::vector<uint32_t> events;  // in the joined graph
    uint32_t first = 0, last = 0;  // the first to start, the last to end
};

// Each collective of the step, by name, with its work on each rank that ran it: the kernel that
// starts where the collective does, or the communication tasks inside its operator's span.
std::map<std::string, std::vector<Participant>> CollectivesOf(
    const TraceModel& model, const TraceAnalyses& analyses, const std::string& label,
    const PathGraph& all, const std::vector<std::pair<uint32_t, uint32_t>>& rankEvents,
    const std::vector<TimeNs>& shifts, const std::vector<const std::vector<uint32_t>*>& work) {
    std::map<std::string, std::vector<Participant>> byName;
    for (size_t r = 0; r < rankEvents.size(); ++r) {
        const auto [group, offset] = rankEvents[r];
        const uint32_t end = r + 1 < rankEvents.size() ? rankEvents[r + 1].second
                                                       : static_cast<uint32_t>(all.events.size());
        // Its communication work by start on its own clock (the graph's moved by its shift).
        std::vector<std::pair<TimeNs, uint32_t>> byStart;
        for (uint32_t e = offset; e < end; ++e)
            if (all.events[e].IsDevice() &&
                all.events[e].activityClass == ActivityClass::kCommunication)
                byStart.emplace_back(all.events[e].startNs - shifts[r], e);
        std::sort(byStart.begin(), byStart.end());
        for (const TraceCollective& collective :
             FindTraceCollectives(model, analyses, group, work[r])) {
            if (collective.step != label || collective.p2p) continue;
            Participant part;
            part.group = group;
            const TimeNs endNs = collective.startNs + collective.elapseNs;
            for (auto it = std::lower_bound(byStart.begin(), byStart.end(),
                                            std::pair{collective.startNs, uint32_t{0}});
                 it != byStart.end() && it->first <= endNs; ++it) {
                const PathEvent& task = all.events[it->second];
                if (task.endNs - shifts[r] > endNs) continue;  // not inside the operator
                part.events.push_back(it->second);
                if (collective.elapseNs == task.endNs - task.startNs) break;  // the kernel itself
            }
            if (part.events.empty()) continue;
            part.first = part.events.front();
            part.last = *std::max_element(
                part.events.begin(), part.events.end(),
                [&](uint32_t a, uint32_t b) { return all.events[a].endNs < all.events[b].endNs; });
            byName[collective.name].push_back(std::move(part));
        }
    }
    return byName;
}

// Joins one collective's participants: on each, only the time after the last rank arrived
// counts; from the last rank's arrival an edge runs to each other rank's end.
void JoinCollective(PathGraph& all, const std::string& name,
                    const std::vector<Participant>& participants,
                    const std::unordered_map<uint32_t, size_t>& ownEdge,
                    std::vector<std::pair<size_t, PathCollective>>& crossings) {
    const Participant* last = &participants.front();
    TimeNs firstNs = INT64_MAX;
    for (const Participant& p : participants) {
        if (all.events[p.first].startNs > all.events[last->first].startNs) last = &p;
        firstNs = std::min(firstNs, all.events[p.first].startNs);
    }
    const TimeNs arrivedNs = all.events[last->first].startNs;
    const PathCollective crossing{name, last->group, arrivedNs - firstNs,
                                  static_cast<uint32_t>(participants.size()), arrivedNs};
    for (const Participant& p : participants) {
        for (const uint32_t e : p.events) {
            const PathEvent& task = all.events[e];
            if (const auto own = ownEdge.find(2 * e); own != ownEdge.end())
                all.edges[own->second].weightNs =
                    std::max<TimeNs>(0, task.endNs - std::max(task.startNs, arrivedNs));
        }
        if (&p == last) continue;
        const PathEvent& end = all.events[p.last];
        if (end.endNs < arrivedNs) {  // ended before the last arrived: the clocks disagree
            ++all.backwardEdges;
            continue;
        }
        crossings.emplace_back(all.edges.size(), crossing);
        all.edges.push_back({2 * last->first, 2 * p.last + 1, end.endNs - arrivedNs,
                             PathEdgeKind::kCollective, p.last});
        ++all.edgesByKind[static_cast<size_t>(PathEdgeKind::kCollective)];
    }
}

}  // namespace

std::vector<std::string> StepsOfEveryRank(const TraceAnalyses& analyses) {
    std::vector<std::string> shared;
    if (analyses.ranks.empty()) return shared;
    for (const StepWindow& step : analyses.steps) {
        if (step.group != analyses.ranks.front().group) continue;
        const bool everywhere = std::all_of(
            analyses.ranks.begin(), analyses.ranks.end(), [&](const RankTraceAnalysis& rank) {
                return StepOf(analyses, rank.group, step.label) != nullptr;
            });
        if (everywhere) shared.push_back(step.label);
    }
    return shared;
}

std::optional<std::string> LongestSharedStep(const TraceAnalyses& analyses) {
    std::optional<std::string> longest;
    TimeNs longestNs = -1;
    for (const std::string& label : StepsOfEveryRank(analyses))
        for (const RankTraceAnalysis& rank : analyses.ranks) {
            const StepWindow* step = StepOf(analyses, rank.group, label);
            if (step->endNs - step->startNs > longestNs)
                longestNs = step->endNs - step->startNs, longest = label;
        }
    return longest;
}

std::optional<CriticalPath> CriticalPathAcrossRanks(const TraceModel& model,
                                                    const TraceAnalyses& analyses,
                                                    const std::string& stepLabel) {
    PathGraph all;
    std::vector<std::pair<uint32_t, uint32_t>> rankEvents;  // (group, its first event)
    std::vector<TimeNs> shifts;
    std::vector<const std::vector<uint32_t>*> work;  // each rank's step's device work
    const std::vector<std::vector<uint32_t>> workOfSteps = WorkOfSteps(analyses);
    TimeNs fromNs = INT64_MAX, toNs = INT64_MIN;
    for (const RankTraceAnalysis& rank : analyses.ranks) {
        const StepWindow* step = StepOf(analyses, rank.group, stepLabel);
        if (!step) continue;
        work.push_back(&workOfSteps[static_cast<size_t>(step - analyses.steps.data())]);
        const PathGraph part = BuildPathGraph(model, analyses.activities, rank.group, step->startNs,
                                              step->endNs, work.back());
        rankEvents.emplace_back(rank.group, Append(all, part));
        shifts.push_back(part.deviceShiftNs);
        fromNs = std::min(fromNs, step->startNs);
        toNs = std::max(toNs, step->endNs);
    }
    if (rankEvents.empty()) return std::nullopt;

    // Each kernel's own edge, to cut its wait for the last rank away.
    std::unordered_map<uint32_t, size_t> ownEdge;  // by the kernel's start node
    for (size_t i = 0; i < all.edges.size(); ++i) {
        const PathEdge& edge = all.edges[i];
        if (edge.kind == PathEdgeKind::kOperator && edge.from % 2 == 0 && edge.to == edge.from + 1)
            ownEdge.emplace(edge.from, i);
    }
    std::vector<std::pair<size_t, PathCollective>> crossings;  // (edge, what it crosses at)
    for (const auto& [name, participants] :
         CollectivesOf(model, analyses, stepLabel, all, rankEvents, shifts, work))
        if (participants.size() >= 2) JoinCollective(all, name, participants, ownEdge, crossings);

    std::vector<uint32_t> pathEdges;
    CriticalPath path = FindLongestPath(all, &pathEdges);
    path.step = stepLabel;
    path.fromNs = fromNs;
    path.toNs = toNs;
    std::sort(crossings.begin(), crossings.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const uint32_t e : pathEdges) {
        if (all.edges[e].kind != PathEdgeKind::kCollective) continue;
        const auto found = std::lower_bound(
            crossings.begin(), crossings.end(), static_cast<size_t>(e),
            [](const auto& crossing, size_t edge) { return crossing.first < edge; });
        if (found != crossings.end() && found->first == e)
            path.collectives.push_back(found->second);
    }
    for (const PathStretch& stretch : path.stretches) {
        const uint32_t group = model.GroupOf(stretch.slice.track);
        if (std::find(path.groups.begin(), path.groups.end(), group) == path.groups.end())
            path.groups.push_back(group);
    }
    return path;
}

}  // namespace marey
