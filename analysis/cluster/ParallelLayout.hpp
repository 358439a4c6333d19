#pragma once
// The parallel job's layout: the size of each parallel dimension, every group with its kind and
// ranks, the pipeline stages and each rank's coordinates. Read from what the ranks' files say
// (load/ParallelMetadata.hpp), the stages msprof-analyze names, or inferred from the
// communication groups; where it comes from and what was inferred is said.
#include <string>
#include <vector>

#include "load/ParallelMetadata.hpp"

namespace marey {

struct Cluster;

struct ParallelGroup {
    std::string kind;  // "tp", "pp", "dp", "cp", "ep" or "other"
    std::string name;  // as the source names it ("tp", "TENSOR_MODEL_PARALLEL_GROUP"), or made
    std::vector<int> ranks;  // ascending
};

struct ParallelStage {
    int stage = 0;           // from 0, in pipeline order
    std::vector<int> ranks;  // ascending
};

// A rank's index in each dimension's group (its place in it), -1 where the layout does not say.
struct RankPlace {
    int rank = -1;
    int tp = -1, cp = -1, ep = -1, dp = -1, pp = -1;
};

struct ParallelLayout {
    std::string source;     // what the layout was read from; empty when nothing says
    std::string how;        // how the groups were made, one line for the header and the JSON
    bool inferred = false;  // the groups (some or all) made by rule, not read
    ParallelSizes sizes;    // every dimension the layout knows, 1 for those it has none of
    std::vector<ParallelGroup> groups;  // by kind (tp, cp, ep, dp, pp, other), then first rank
    std::vector<ParallelStage> stages;  // empty without a pipeline
    std::vector<RankPlace> places;      // one per rank of the cluster, ascending id
    std::vector<std::string> notes;     // where the ranks' files disagree, or a rule could not

    bool Known() const { return !source.empty(); }
    // The stage of rank 'rank', or -1. O(log ranks).
    int StageOf(int rank) const;
    // "TP 2 × PP 2 × DP 2": the sizes above 1, in that order; "" when unknown.
    std::string SizesText() const;
};

// A kind as people write it: "TP" for "tp" (each dimension upper-cased); any other kind ("world",
// "other") as it is.
std::string ParallelKindLabel(const std::string& kind);

// Megatron's rank order (tp, cp, dp, pp from the fastest-varying): the rank at these
// coordinates of a job of 'sizes' (every size at least 1).
int MegatronRank(const ParallelSizes& sizes, int tp, int cp, int dp, int pp);

// The layout of 'cluster': from the ranks' files (their groups, else their sizes laid out in
// Megatron's rank order), else msprof-analyze's stage groups, else inferred from the
// communication groups (equal groups of consecutive ranks as tensor parallel, pairs of send and
// receive at one distance as pipeline stages). O(ranks + the groups' ranks).
ParallelLayout BuildParallelLayout(const Cluster& cluster);

// "TP 2 × PP 2 × DP 2, 12 groups, 2 stages (from profiler_metadata.json; groups as the ranks'
// files list them)": the layout in one line, for the cluster's header and `stats`.
std::string ParallelLayoutText(const ParallelLayout& layout);

}  // namespace marey
