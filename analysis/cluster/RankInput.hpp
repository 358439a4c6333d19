#pragma once
// What each rank of a cluster folder is read from, as a plain list: the cluster loader reads it
// on its threads, and `marey summarize` hands it out to the processes of a job (the same choice
// both ways, so that a summary opens as the same cluster as its folder).
#include <cstdint>
#include <string>
#include <vector>

#include "cluster/Cluster.hpp"
#include "cluster/ClusterFolder.hpp"

namespace marey {

enum class RankInputKind : uint8_t { kFolder, kSummaryFile, kTrace, kStepTraceRaw };

struct RankInput {
    RankInputKind kind = RankInputKind::kFolder;
    std::string path;      // as the folder's walk found it: what messages name
    std::string absolute;  // the same, absolute: what identifies it across processes and runs
    uint64_t bytes = 0;    // what reading it reads, about (its summary's input files)
};

struct RankInputList {
    ClusterSource source = ClusterSource::kNone;  // kNone when there are no ranks
    StepLayout layout = StepLayout::kAscend;
    std::vector<RankInput> inputs;  // in the folders' path order
};

// The ranks of 'folders' of one kind, chosen as the cluster loader chooses: rank folders, else
// rank summary files, else rank traces, else MindInsight's step_trace_raw files. Stats each file
// read for its size. O(ranks).
RankInputList ListRankInputs(const ClusterFolders& folders);

// "folder", "summary", "trace", "step_trace_raw": the kind as a summary file writes it; and back
// (false for any other text).
const char* RankInputKindName(RankInputKind kind);
bool ParseRankInputKind(const std::string& text, RankInputKind& kind);

}  // namespace marey
