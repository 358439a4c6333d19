#pragma once
// Communication across ranks: one collective on every rank that ran it, with where each rank's
// time went (transit, wait, idle) and its wait ratio; the rank the others wait for is the one
// that waits least. Below, how long every collective of the cluster took.
#include <optional>
#include <vector>

#include "cluster/ClusterCommunication.hpp"
#include "viewkit/View.hpp"

namespace marey {

struct ClusterDocument;

// One collective on every rank (the cluster never changes, so the chosen collective is its key).
struct CollectiveCache {
    std::optional<int> collective;  // index into report.collectives; none before the first
    std::vector<CollectiveOnRank> ranks;
    std::optional<RankId> waitedFor;  // RankEveryoneWaitsFor(ranks)
    double medianWaitNs = 0;          // over 'ranks'
};

class CollectivesView : public View {
public:
    // Starts on the collective a person most likely wants first: the longest of the first step.
    explicit CollectivesView(ClusterDocument& cluster);

    void Draw(ViewContext& context) override;

    // The chosen collective on every rank. O(ranks × collectives) when the choice changed, else
    // O(1).
    const CollectiveCache& Shown();

private:
    void DrawPicker();

    ClusterDocument& m_document;
    int m_collective = 0;  // index into report.collectives
    CollectiveCache m_cache;
};

}  // namespace marey
