#pragma once
// `marey check` on two clusters: every rank both have is checked as two runs are (RegressionCheck),
// and the cluster fails when any rank regressed. The ranks are ordered worst first:
//   1. ranks that regressed before those that did not;
//   2. the largest regression of the rank's own work: any figure but step time and communication
//      (communication operators, HCCL's operators and types, the phase
//      communication_not_overlapped). In a synchronous job one rank's slower operator makes every
//      rank's step slower, and the others show it as longer collectives (they wait for it); the
//      rank whose own work grew is the one to look at;
//   3. more regressions; 4. the lower rank id.
#include <string>
#include <vector>

#include "compare/RegressionCheck.hpp"

namespace marey {

struct RankCheck {
    int rank = 0;
    CheckResult result;
};

struct ClusterCheckResult {
    std::string baselinePath, candidatePath;
    std::vector<RankCheck> ranks;                      // the ranks both have, worst first
    std::vector<int> onlyInBaseline, onlyInCandidate;  // ascending

    bool Failed() const { return RanksRegressed() > 0; }
    size_t RanksRegressed() const;
    size_t Improvements() const;  // over every rank
    // The first of 'ranks', or null when none was compared.
    const RankCheck* Worst() const { return ranks.empty() ? nullptr : &ranks.front(); }
};

// The largest regression of the rank's own work (2. above), or null. O(regressions).
const CheckFinding* LargestOwnWorkRegression(const CheckResult& result);

// Orders 'ranks' worst first, as the header says. O(r log r).
void OrderWorstFirst(std::vector<RankCheck>& ranks);

}  // namespace marey
