#pragma once
// Overview by rank: how each rank of a cluster spent its time, with the findings across ranks.
#include <optional>
#include <vector>

#include "cluster/ClusterFindings.hpp"
#include "viewkit/View.hpp"
#include "base/Ids.hpp"

namespace marey {

class RankOverviewView : public View {
public:
    void Draw(ViewContext& context) override;

private:
    std::optional<GroupIndex> m_findingsFor;  // the group m_groupFindings are of
    std::vector<ClusterFinding> m_groupFindings;
};

}  // namespace marey
