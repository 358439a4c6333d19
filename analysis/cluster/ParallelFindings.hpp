#pragma once
// Findings that name a unit of the parallel layout (cluster/ParallelLayout.hpp): when the slow
// ranks of one phase are exactly one pipeline stage, one tensor-, context- or expert-parallel
// group, or one data-parallel replica, the finding says so ("stage 2, ranks 8-11, computes 25 %
// longer; the other stages wait for it") rather than naming four unrelated ranks. A single slow
// rank stays a rank.
#include <vector>

#include "cluster/ClusterFindings.hpp"
#include "cluster/ClusterSteps.hpp"

namespace marey {

// The units whose every rank computes (or waits for its input) longer than every other rank of
// the job by at least 10 % of the others' median and kSlowShareOfStep of the median step: a unit
// standing apart as a whole, however many ranks it holds (half the job for one of two replicas,
// where no rank is an outlier). Free time and bubble are not judged: downstream of a slow stage
// they are its effect. The most time lost first; a rank set named once (a stage that is also a
// replica is named as the stage). O(units × ranks).
std::vector<ClusterFinding> FindParallelUnitProblems(const Cluster& cluster,
                                                     const StepTable& averaged);

}  // namespace marey
