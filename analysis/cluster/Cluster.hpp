#pragma once
// A whole multi-rank job as the cluster views see it: every rank's small summary (ClusterRank),
// the communication groups, the steps, and what was wrong with the folder (duplicate or missing
// rank ids, unreadable files). Loaded in parallel; never the ranks' traces.
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/Ids.hpp"
#include "cluster/ClusterRank.hpp"
#include "cluster/ClusterSource.hpp"
#include "cluster/ParallelLayout.hpp"
#include "core/Status.hpp"
#include "load/KernelTable.hpp"

namespace marey {

struct ClusterGroup {
    std::string name;        // the group's hash, or the profiler's own name ("(0, 1, 2, 3)")
    std::string kind;        // "collective", "p2p" or "stage"
    std::vector<int> ranks;  // rank ids, ascending
};

// What the step phases mean. MindInsight's older cluster layout (step_trace_raw files) divides a
// step into the interval before it, forward and backward, and the tail after backward (mostly
// the gradient AllReduce); they are kept in the Free, Computing and Communication (not
// overlapped) phases, which they sum to the step like those do, and named as MindInsight names
// them.
enum class StepLayout { kAscend, kMindInsight };

struct Cluster {
    std::string root;
    StepLayout layout = StepLayout::kAscend;
    ClusterSource source = ClusterSource::kNone;
    std::vector<ClusterRank> ranks;      // ascending rank id, each id once
    std::vector<ClusterGroup> groups;    // largest first
    std::vector<std::string> steps;      // every step any rank has, in step order
    std::vector<RankId> missingRanks;    // ids below the largest that no rank has
    std::vector<RankId> duplicateRanks;  // ids that more than one folder claimed (the first kept)
    std::vector<std::string> problems;   // folder-level problems, then each rank's file problems
    // The parallel job's layout (BuildParallelLayout), made once the ranks and groups are read.
    ParallelLayout parallel;
    // For ranks read from their traces: reads a trace's kernel table (the Marey view's input).
    // Set by the loader, which alone can load a trace.
    std::function<Result<KernelTable>(const std::string& tracePath)> readTraceKernels;
    // Which export of a rank folder holding both its ranks were read from (--source): the
    // Marey view reads their kernels from the same.
    RankSource rankSource = RankSource::kAuto;

    // Index into 'ranks' of rank 'rankId', if the cluster has it. O(log ranks).
    std::optional<size_t> IndexOfRank(RankId rankId) const;
    // The index of 'step' in 'steps', if a rank has it. O(steps).
    std::optional<StepIndex> IndexOfStep(const std::string& step) const;
};

struct SkippedFolder;

// What a cluster's ranks say once read (loading/ClusterLoader reads them): ranks whose summary
// cannot be read left out, ids settled (duplicates, ranks without one), the world size, links to
// ranks outside the job left out, missing ranks with why, the steps, every rank's problems.
// O(ranks log ranks + links + missing ids).
void SettleCluster(Cluster& cluster, const std::vector<SkippedFolder>& skipped);

// How most ranks' overview figures are made (OverviewFigures::rule); kNone without any. A rank
// whose figures are made another way (its step file could not be read, so they come from its
// tasks) measures other things, and is not compared with them. O(ranks).
OverviewRule CommonOverviewRule(const Cluster& cluster);

// Groups from the ranks' communication operators: the ranks that ran operators of the same group
// hash form a group. Used when the folder has no communication_group.json.
std::vector<ClusterGroup> GroupsFromCollectives(const std::vector<ClusterRank>& ranks);

// Moves the ranks that msprof-analyze's cluster output named (by id, ascending) into 'cluster'
// with their overview from the step phases, and orders its groups largest first, made from the
// ranks' operators when the output had none: the last step of both readers of that output.
void AddAnalysisOutputRanks(std::map<int, ClusterRank>& ranks, Cluster& cluster);

// Each rank of 'ranks' gets the groups of 'groups' it is in, as its own parallel layout from
// 'source' (msprof-analyze's outputs name each group of the job: "tp", "pp", "dp_cp"); the world
// group is left out, and so is a group naming a rank the job does not have (named in 'problems'
// with 'path', the file read).
// O(groups' ranks × log ranks).
void AddNamedParallelGroups(const std::vector<NamedRankGroup>& groups, const std::string& source,
                            const std::string& path, std::map<int, ClusterRank>& ranks,
                            std::vector<std::string>& problems);

// Steps in step order: numeric names by value, then the others by name.
void SortSteps(std::vector<std::string>& steps);

// "0-7, 9, 12-15": rank ids as ranges, for messages.
std::string FormatRankList(const std::vector<int>& ranks);
std::string FormatRankList(const std::vector<RankId>& ranks);

// The rank ids written in 'text' in its order: "(0, 1, 2, 3)" and "(0,1,2,3)" give 0, 1, 2, 3,
// "3" gives 3; empty when an id is past 2^24. How msprof-analyze writes a stage or group. O(n).
std::vector<int> RanksInText(const std::string& text);

// How many of the cluster's problems name the file 'fileName' (a step_trace_time.csv that is
// there but cannot be read, on any rank), and the first 'most' of them. O(problems).
struct FileProblems {
    size_t count = 0;
    std::vector<std::string> first;
};
FileProblems ProblemsNamingFile(const Cluster& cluster, std::string_view fileName, size_t most);

// Sorted rank ids as runs of consecutive ids, [first, last] each ("0-3, 7" is {0, 3}, {7, 7}):
// a million missing ids are one run. O(ids).
std::vector<std::pair<int, int>> RankRuns(const std::vector<int>& ranks);

}  // namespace marey
