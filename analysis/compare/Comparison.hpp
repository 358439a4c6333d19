#pragma once
// Comparing two loaded ranks: summarises them (the whole run, or step M of A against step N of
// B), aligns B's clock on A's and diffs. What `marey stats --compare`, the viewer's comparison
// and the benchmark share; loading/RankLoader.hpp loads the pair (LoadRankPair).
#include <string>

#include "compare/RankSummary.hpp"
#include "compare/TraceDiff.hpp"
#include "rank/LoadedRank.hpp"

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
    // The steps asked for that a side lacks ("step 5 of A (PATH)"); empty when none.
    std::string missingSteps;
};

// Summaries, alignment and diff of two loaded ranks. O(slices of both) for the summaries, then
// O(n log n) in what they hold.
Comparison CompareRanks(const LoadedRank& a, const LoadedRank& b, const ComparisonOptions& options);

}  // namespace marey
