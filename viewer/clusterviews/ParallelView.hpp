#pragma once
// The parallel layout of a cluster: ranks placed by their coordinates (pipeline stages as
// columns, data-parallel replicas as rows, tensor- and context-parallel ranks inside a cell),
// coloured by a phase of a step; the groups of the rank under the mouse outlined, their members'
// figures side by side. Where the layout comes from, and what was inferred, above it.
#include <optional>
#include <string>
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

    // The colours beyond the step table's columns: each rank's communication wait, and its
    // device's resources over the profile.
    static constexpr int kWaitMetric = kStepColumnCount;
    static constexpr int kFlopsMetric = kStepColumnCount + 1;
    static constexpr int kFlopsPerSecondMetric = kStepColumnCount + 2;
    static constexpr int kUtilizationMetric = kStepColumnCount + 3;
    static constexpr int kPeakMemoryMetric = kStepColumnCount + 4;
    static bool IsResourceMetric(int metric) { return metric >= kFlopsMetric; }
    // How a figure of 'metric' reads: "12.345 ms", "162.0 GFLOPs", "45.0 %", "33.60 GB".
    static std::string (*FormatOf(int metric))(double);

private:
    // The figure of each rank (the cluster's order) for the chosen step and phase; recomputed
    // when either changes. O(ranks × steps).
    void Refresh();
    void DrawControls();
    void DrawResourceChoices();
    void DrawLegend();
    // The name of what the ranks are coloured by.
    const char* MetricName() const;

    ClusterDocument& m_document;
    int m_column = -1;  // the step table's column shown; -1 until the first frame picks one
    std::optional<StepIndex> m_shownStep;
    int m_shownColumn = -2;
    std::vector<double> m_values;  // per cluster rank; -1 where the rank has no such figure
    double m_lowest = 0, m_highest = 0;
    RankStepCommunication m_communication;  // summed the first time the wait is shown
    int m_benchmarkRank = -1;               // the rank the benchmark hovers, by index
};

}  // namespace marey
