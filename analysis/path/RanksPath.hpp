#pragma once
// The critical path of one step across the ranks of a model of several (several ranks in one
// timeline, their clocks aligned on a step): each rank's graph, joined where their collectives
// meet. A collective ends on every rank once its last rank has arrived, so the path of a slow
// step jumps from a rank that waited to the rank that came last, and on to what made it late.
#include <optional>
#include <string>
#include <vector>

#include "path/CriticalPath.hpp"

namespace marey {

// The labels of the steps every rank of 'analyses' marks, by start on the first rank.
std::vector<std::string> StepsOfEveryRank(const TraceAnalyses& analyses);

// The one of those whose longest rank took longest; nullopt when the ranks share no step.
std::optional<std::string> LongestSharedStep(const TraceAnalyses& analyses);

// The path of step 'stepLabel' over every rank that marks it. Each rank's graph is built as for
// a rank alone (PathGraph); then each collective of the step (matched across ranks by name, as
// FindTraceCollectives names them; sends and receives are not joined yet) has, on each rank,
// only its time after the last rank arrived, and an edge from the last rank's arrival to every
// other rank's end. nullopt when no rank marks the step. O(events of the step on every rank).
std::optional<CriticalPath> CriticalPathAcrossRanks(const TraceModel& model,
                                                    const TraceAnalyses& analyses,
                                                    const std::string& stepLabel);

}  // namespace marey
