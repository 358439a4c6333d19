#pragma once
// The per-rank overview read across a communication group with the rules of the tuning method:
// a computing problem is a spread of the computing share across cards, a scheduling problem a
// spread of the free share, an input problem a spread of the step interval (the Preparing time
// before each step, when the steps record it), a communication problem a long communication not
// overlapped (its cause, the rank the others wait for, named first); and what the step table shows
// that no single slow rank explains: ranks that differ in groups, a step that dominates the
// average. Each finding names the ranks and steps and quotes the figures.
#include <optional>
#include <string>
#include <vector>

#include "cluster/Cluster.hpp"
#include "cluster/GroupDifference.hpp"
#include "rank/RankOverview.hpp"

namespace marey {

enum class ClusterFindingKind {
    kCompute,
    kScheduling,
    kInput,  // the step interval (Preparing), or the data queues: ranks that wait for their data
    kCommunication,
    kRanksDiffer,
    kStepDominates,
    kFlopsUnbalanced,  // the ranks carry unequal FLOPs (MindSpore's FLOPs summaries)
    kMemoryPeak        // a few devices' memory peaks stand above the others' (memory_record.csv)
};

// "compute", "scheduling", "input", "communication", "ranks_differ", "step_dominates",
// "flops_unbalanced", "memory_peak".
const char* ClusterFindingKindName(ClusterFindingKind kind);

struct ClusterFinding {
    ClusterFindingKind kind = ClusterFindingKind::kCompute;
    std::string group;  // the group's name, "all ranks" for the whole cluster
    std::string text;   // quotes the figures
    // The ranks it names: first the 'causes' ranks the others wait for, then the most affected.
    std::vector<int> ranks;
    size_t causes = 0;
    std::vector<std::string> steps;  // the steps that carry it, largest share first
    // A unit of the parallel layout it names (cluster/ParallelFindings.hpp): "stage", "tp",
    // "cp", "ep" or "replica", and the stage or replica (-1 for a group); empty when none.
    std::string unitKind;
    int unitIndex = -1;
    std::optional<GroupDifference> difference;  // kRanksDiffer
    std::optional<DominantStep> dominant;       // kStepDominates
};

// Ranks whose FLOPs lie within this factor of each other carry the same work; a job whose ranks
// fall into more than one such level carries unequal FLOPs.
inline constexpr double kFlopsLevelFactor = 1.10;

// A device whose peak allocated memory passes the median device's by this factor stands out,
// when fewer than half the devices do (else the peaks differ by group, not by device).
inline constexpr double kMemoryPeakFactor = 1.20;

// A spread (largest share minus the median share) above this many points of the total time is
// a finding; so is communication not overlapped above this share of the median rank's time.
inline constexpr double kShareSpreadPoints = 0.05;
inline constexpr double kCommunicationShare = 0.10;

// Findings over 'rankIds' (a group; every rank when empty), named 'groupName'; 'averaged' is
// BuildStepTable(cluster, -1). Ranks that differ in groups and a dominant step come first.
// O(ranks × steps).
std::vector<ClusterFinding> FindGroupProblems(const Cluster& cluster, const StepTable& averaged,
                                              const std::vector<int>& rankIds,
                                              const std::string& groupName);

// Over the whole cluster and over each collective or stage group that is not the whole cluster;
// a finding that names the same ranks as one before it is left out. The ranks that are exactly
// one unit of the parallel layout (a stage, a group, a replica) are named as that unit, first.
// Once, over the whole cluster: the ranks whose MindData queues say they waited for data
// (ClusterRank::dataVerdict), ranks whose FLOPs fall into levels more than kFlopsLevelFactor
// apart, and devices whose memory peak passes the median's by kMemoryPeakFactor.
// O(groups × ranks × steps).
std::vector<ClusterFinding> FindClusterProblems(const Cluster& cluster, const StepTable& averaged);
std::vector<ClusterFinding> FindClusterProblems(const Cluster& cluster);

}  // namespace marey
