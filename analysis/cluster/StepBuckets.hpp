#pragma once
// The time overview's level of detail over steps: a chart has a few hundred pixels and a job may
// record hundreds of thousands of steps, so consecutive steps fold into at most one bucket per
// pixel, each keeping what the chart draws.
#include <cstddef>
#include <vector>

#include "cluster/ClusterCommunication.hpp"

namespace marey {

struct StepBucket {
    size_t first = 0, last = 0;                      // the steps it holds, [first, last] in 'steps'
    TimeNs minNs = 0, maxNs = 0;                     // fastest and slowest rank over those steps
    TimeNs medianNs = 0;                             // the median of the steps' median step times
    TimeNs meanCommunicationNs = 0, meanWaitNs = 0;  // averaged over its steps
};

// 'steps' folded into at most 'buckets' runs of consecutive steps of (nearly) equal length; one
// bucket per step when they fit. O(steps log(steps per bucket)).
std::vector<StepBucket> BucketSteps(const std::vector<StepOverview>& steps, size_t buckets);

// The bucket that holds step 'step' (buckets as BucketSteps makes them). O(log buckets).
size_t BucketOfStep(const std::vector<StepBucket>& buckets, size_t step);

}  // namespace marey
