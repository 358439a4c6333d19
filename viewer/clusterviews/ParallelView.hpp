#pragma once
// The parallel layout of a cluster: ranks placed by their coordinates (pipeline stages as
// columns, data-parallel replicas as rows, tensor- and context-parallel ranks inside a cell),
// coloured by a phase of a step; the groups of the rank under the mouse outlined, their members'
// figures side by side. Where the layout comes from, and what was inferred, above it.
#include <optional>
#include <vector>

#include "cluster/ClusterCommunication.hpp"
#include "core/Time.hpp"
#include "cluster/ClusterSteps.hpp"
#include "viewkit/View.hpp"
#include "base/Ids.hpp"

namespace marey {

struct ClusterDocument;

class ParallelView : public View {
public:
    explicit ParallelView(ClusterDocument& cluster);

    void Draw(ViewContext& context) override;
    // Moves the mouse over every rank in turn, as a person reading the figures would.
    void BenchmarkFrame(int frame, int frameCount) override;

private:
    // The figure of each rank (the cluster's order) for the chosen step and phase; recomputed
    // when either changes. O(ranks × steps).
    void Refresh();
    void DrawControls();
    void DrawLegend();
    // The name of what the ranks are coloured by.
    const char* MetricName() const;

    // A colour beyond the step table's columns: each rank's communication wait.
    static constexpr int kWaitMetric = kStepColumnCount;

    ClusterDocument& m_document;
    int m_column = -1;  // the step table's column shown; -1 until the first frame picks one
    std::optional<StepIndex> m_shownStep;
    int m_shownColumn = -2;
    std::vector<TimeNs> m_values;  // per cluster rank; -1 where the rank lacks the step
    TimeNs m_lowest = 0, m_highest = 0;
    RankStepCommunication m_communication;  // summed the first time the wait is shown
    int m_benchmarkRank = -1;               // the rank the benchmark hovers, by index
};

}  // namespace marey
