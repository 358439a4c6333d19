#include "cluster/StepBuckets.hpp"

#include <algorithm>

#include "core/RobustStats.hpp"

namespace marey {

std::vector<StepBucket> BucketSteps(const std::vector<StepOverview>& steps, size_t buckets) {
    std::vector<StepBucket> out;
    if (steps.empty() || buckets == 0) return out;
    const size_t count = std::min(buckets, steps.size());
    out.reserve(count);
    std::vector<TimeNs> medians;
    for (size_t b = 0; b < count; ++b) {
        StepBucket bucket;
        bucket.first = steps.size() * b / count;
        bucket.last = steps.size() * (b + 1) / count - 1;
        bucket.minNs = steps[bucket.first].minNs;
        bucket.maxNs = steps[bucket.first].maxNs;
        medians.clear();
        TimeNs communication = 0, wait = 0;
        for (size_t s = bucket.first; s <= bucket.last; ++s) {
            bucket.minNs = std::min(bucket.minNs, steps[s].minNs);
            bucket.maxNs = std::max(bucket.maxNs, steps[s].maxNs);
            medians.push_back(steps[s].medianNs);
            communication += steps[s].meanCommunicationNs;
            wait += steps[s].meanWaitNs;
        }
        const TimeNs n = static_cast<TimeNs>(bucket.last - bucket.first + 1);
        bucket.medianNs = Median(medians);
        bucket.meanCommunicationNs = communication / n;
        bucket.meanWaitNs = wait / n;
        out.push_back(bucket);
    }
    return out;
}

size_t BucketOfStep(const std::vector<StepBucket>& buckets, size_t step) {
    const auto it =
        std::upper_bound(buckets.begin(), buckets.end(), step,
                         [](size_t s, const StepBucket& bucket) { return s < bucket.first; });
    return it == buckets.begin() ? 0 : static_cast<size_t>(it - buckets.begin()) - 1;
}

}  // namespace marey
