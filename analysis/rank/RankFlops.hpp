#pragma once
// A rank's FLOPs, from MindSpore's FLOPs files (load/FlopsFiles.hpp): the totals the profiler
// wrote, its operators by FLOPs and the FLOPs by scope. One place for the figures that the rank's
// JSON, its cluster's rank figures and the Marey view's blocks show.
#include <string>
#include <vector>

#include "load/FlopsFiles.hpp"
#include "load/RankDirectory.hpp"

namespace marey {

struct RankFlops {
    // flops_summary_N.json; without it, made from flops_N.txt by the profiler's own rule (the
    // operators' MFLOPs summed, their GFLOPS and utilisation averaged).
    FlopsSummary summary;
    std::string summarySource;             // "flops_summary_3.json", "flops_3.txt"; empty: none
    std::vector<OperatorFlops> operators;  // largest MFLOPs first
    FlopsScopeTree scopes;
    std::vector<std::string> problems;  // "file:line:column: error: …"

    bool Known() const { return !summarySource.empty(); }
};

// Reads the files 'files' names. Never fails: what cannot be read is in 'problems'.
// O(operators log operators + links).
RankFlops ReadRankFlops(const FlopsFiles& files);

// The profiler's summary rule over 'operators': MFLOPs summed, GFLOPS and utilisation averaged.
FlopsSummary SummarizeOperatorFlops(const std::vector<OperatorFlops>& operators);

}  // namespace marey
