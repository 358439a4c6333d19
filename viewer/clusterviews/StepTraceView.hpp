#pragma once
// Step trace across ranks: the distribution of each phase over the ranks (box plots), then one
// row per rank with every phase, sortable, with the slow ranks flagged.
#include <optional>
#include <vector>

#include "cluster/ClusterSteps.hpp"
#include "cluster/GroupDifference.hpp"
#include "core/RobustStats.hpp"
#include "viewkit/View.hpp"
#include "base/Ids.hpp"

namespace marey {

struct ClusterDocument;

// A box plot of one column over the ranks of the group (present in the step).
using StepBox = FiveNumbers;  // over the ranks

// What the rows of the step table depend on: the step (none: averaged) and the group (none: all).
struct StepTableKey {
    std::optional<StepIndex> step;
    std::optional<GroupIndex> group;
    bool operator==(const StepTableKey&) const = default;
};

// How the rows are ordered: by a step column, kStepColumnCount for the flags, -1 for the rank.
struct StepTableSort {
    int column = -1;
    bool ascending = true;
    bool operator==(const StepTableSort&) const = default;
};

// The step table as shown: for the chosen step and group, with its flags, box plots and row
// order; rebuilt only when one of them changes (none before the first).
struct StepTableCache {
    std::optional<StepTableKey> rows;
    std::optional<StepTableSort> sort;
    StepTable table;
    std::vector<SlowRank> slow;
    // What no single slow rank explains: ranks that differ in groups; averaged, a step that
    // dominates the average.
    std::optional<GroupDifference> difference;
    std::optional<DominantStep> dominant;
    std::vector<int> order;      // indexes into table.rows: the group's ranks in the shown order
    std::vector<StepBox> boxes;  // per column (kStepColumnCount), over the group's ranks
};

class StepTraceView : public View {
public:
    explicit StepTraceView(ClusterDocument& cluster);

    void Draw(ViewContext& context) override;
    // Sorts by another column every ten frames.
    void BenchmarkFrame(int frame, int frameCount) override;

    // The step table of the chosen step and group, sorted as chosen. O(ranks log ranks) when the
    // sort changed, O(ranks × columns) more when the step or group changed, else O(1).
    const StepTableCache& TableShown();
    // Sorts the table by 'column' (a step column, kStepColumnCount for the flags, -1 for the rank).
    void SortBy(int column, bool ascending) { m_sortColumn = column, m_sortAscending = ascending; }

private:
    ClusterDocument& m_document;
    int m_sortColumn = -1;
    bool m_sortAscending = true;
    std::optional<RankId> m_scrolledRank;  // the selected rank the table last scrolled to
    StepTableCache m_cache;
};

}  // namespace marey
