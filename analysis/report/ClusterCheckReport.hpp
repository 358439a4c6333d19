#pragma once
// What `marey check` writes for two clusters, rank by rank: the same lines, Markdown, JSON and
// JUnit as for two runs, each saying which rank, with the ranks worst first and the ranks only
// one side has named. O(ranks + findings).
#include <string>

#include "compare/ClusterCheck.hpp"

namespace marey {

// "FAIL: 2 of 16 ranks regressed; worst rank 3: 4 regressions, 0 improvements" or
// "PASS: no regression in 16 ranks, 2 improvements".
std::string ClusterVerdictText(const ClusterCheckResult& cluster);

// "rank 7 only in the baseline; ranks 9, 10 only in the candidate", or empty.
std::string UnpairedRanksText(const ClusterCheckResult& cluster);

// "regression: rank 3: operator MatMul_0: …" for every finding of every rank, worst rank first,
// then the unpaired ranks, then the verdict with the worst rank's steps.
std::string ClusterCheckToText(const ClusterCheckResult& cluster);

// The verdict, a table of every rank (verdict, counts, step time, largest regression), then the
// regressions and improvements of each rank that has any.
std::string ClusterCheckToMarkdown(const ClusterCheckResult& cluster);

// {"verdict", "baseline", "candidate", "ranks_compared", "ranks_regressed", "worst_rank",
//  "only_in_baseline", "only_in_candidate", "ranks": [{"rank", …CheckToJson's keys}]}.
std::string ClusterCheckToJson(const ClusterCheckResult& cluster);

// <testsuites> with one <testsuite> per rank ("marey check rank 3", as CheckToJunit's), and the
// unpaired ranks as skipped test cases of a suite "marey check: ranks not compared".
std::string ClusterCheckToJunit(const ClusterCheckResult& cluster);

}  // namespace marey
