#pragma once
// Comparing two loaded ranks: loads both at once, summarises them (the whole run, or step M of A
// against step N of B), aligns B's clock on A's and diffs. What `marey stats --compare`, the
// viewer's comparison and the benchmark share.
#include <string>

#include "stats/LoadedRank.hpp"
#include "stats/RankSummary.hpp"
#include "stats/TraceDiff.hpp"

namespace marey {

struct ComparisonOptions {
    AlignmentRequest align;
    // Compare only these steps ("50" and "50": step 50 of a slow card against step 50 of a
    // normal one); empty: the whole run. Setting them aligns on them as well.
    std::string stepA, stepB;
};

struct Comparison {
    RankSummary a, b;
    TraceDiff diff;
    std::string note;  // why a step asked for could not be compared alone, empty otherwise
};

// Summaries, alignment and diff of two loaded ranks. O(slices of both) for the summaries, then
// O(n log n) in what they hold.
Comparison CompareRanks(const LoadedRank& a, const LoadedRank& b, const ComparisonOptions& options);

struct LoadedPair {
    Result<LoadedRank> a, b;
};

// Loads both paths at once, each on half of the cores, so that the pair costs no more than
// loading them one after the other. Progress may be null.
LoadedPair LoadRankPair(const std::string& pathA, const std::string& pathB, LoadProgress* progressA = nullptr,
                        LoadProgress* progressB = nullptr);

}  // namespace marey
