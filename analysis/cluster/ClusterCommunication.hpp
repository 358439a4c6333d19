#pragma once
// Communication across ranks: one collective (say the third allReduce of step 50) on every rank
// that ran it, with where each rank's time went; and per step, every rank's step time beside the
// average communication and wait time (the time overview).
#include <optional>
#include <string>
#include <vector>

#include "core/Ids.hpp"
#include "cluster/Cluster.hpp"

namespace marey {

// A collective of the cluster: the same operator name in the same step on several ranks.
struct CollectiveKey {
    std::string step, name;
    uint32_t ranks = 0;  // how many ranks ran it
    TimeNs maxElapseNs = 0;
};

// Every collective, in step order and, within a step, in the order the first rank ran them.
// O(collectives of all ranks).
std::vector<CollectiveKey> ListCollectives(const Cluster& cluster);

struct CollectiveOnRank {
    RankId rankId;
    TimeNs startNs = 0, elapseNs = 0, transitNs = 0, waitNs = 0, syncNs = 0, idleNs = 0;
    double WaitRatio() const {
        const double busy = static_cast<double>(waitNs + transitNs);
        return busy > 0 ? static_cast<double>(waitNs) / busy : 0.0;
    }
};

// The collective 'name' of step 'step' on every rank that ran it, in rank order (the first run
// when a rank ran it more than once). O(collectives of all ranks).
std::vector<CollectiveOnRank> CollectiveAcrossRanks(const Cluster& cluster, const std::string& step,
                                                    const std::string& name);

// The rank the others wait for: the one that waits least, when it waits clearly less than the
// median (a tenth of the median wait at most). None when no rank stands out.
std::optional<RankId> RankEveryoneWaitsFor(const std::vector<CollectiveOnRank>& ranks);

// One step of the time overview.
struct StepOverview {
    std::string step;
    std::vector<TimeNs> rankStepNs;  // per cluster rank; -1 when the rank lacks the step
    TimeNs minNs = 0, medianNs = 0, maxNs = 0;
    std::optional<RankId> slowestRank;  // none when no rank has the step
    TimeNs meanCommunicationNs = 0;     // collectives' elapse summed per rank, averaged over ranks
    TimeNs meanWaitNs = 0;              // their wait, the same way
};

// One entry per cluster step. O(ranks × (steps + collectives)).
std::vector<StepOverview> BuildTimeOverview(const Cluster& cluster);

// Each rank's communication summed per step: its operators' elapse and wait (communication.json's
// Elapse Time and Wait Time, or what a trace's collectives give). [rank][step] in the cluster's
// orders; -1 where the rank records no communication operator in the step. The one place a rank's
// wait per step is summed: the time overview and the parallel layout's colours read it.
// O(ranks × (steps + collectives)).
struct RankStepCommunication {
    std::vector<std::vector<TimeNs>> elapseNs, waitNs;
};
RankStepCommunication SumCommunicationByRankStep(const Cluster& cluster);

// A rank's wait in one step ('step' an index into cluster.steps), or averaged over the steps it
// records communication in; -1 when it records none there.
TimeNs RankWaitNs(const RankStepCommunication& sums, size_t rank, std::optional<size_t> step);

}  // namespace marey
