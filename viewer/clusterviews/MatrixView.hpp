#pragma once
// The communication matrix: source ranks down, destination ranks across, each link a cell
// coloured by bandwidth, transit size, transit time or transport type, zoomable; the slow links
// beside it. The matrix of another operator or metric is built off the UI thread.
#include <memory>
#include <optional>
#include <vector>

#include "base/BackgroundJob.hpp"
#include "cluster/ClusterLinks.hpp"
#include "cluster/MatrixGrid.hpp"
#include "viewkit/View.hpp"

namespace marey {

struct ClusterDocument;

// What a person chose in the matrix view.
struct MatrixSettings {
    int metric = 0;         // a MatrixMetric: bandwidth, transit size, transit time, transport type
    std::optional<int> op;  // index into report.matrixOperators; none: all summed
    double zoom = 1.0;      // 1 fits the whole matrix
    double centerX = 0.5, centerY = 0.5;  // the point of the matrix at the view's centre, 0..1
    std::optional<int> pendingRank;       // clicked, selected unless a double-click follows
    double pendingAt = 0;                 // ImGui time of that click
};

// What the matrix drawn depends on: the metric and the operator (none: all summed).
struct MatrixKey {
    int metric = 0;
    std::optional<int> op;
    bool operator==(const MatrixKey&) const = default;
};

// The matrix as drawn: the links of the chosen operator, their slow links and the grid of the
// chosen metric (a million links take tens of milliseconds, more than a frame).
struct MatrixCache {
    MatrixKey key;
    std::shared_ptr<const std::vector<MatrixCell>> cells;  // sorted by (source, destination)
    std::vector<SlowLink> slow;
    MatrixGrid grid;
};

class MatrixView : public View {
public:
    explicit MatrixView(ClusterDocument& cluster);
    ~MatrixView() override;

    void Draw(ViewContext& context) override;
    // A newer matrix is being built.
    bool Busy() const override { return m_job.Busy(); }
    void Update() override;
    // Waits for the matrix being built.
    void Wait() override;
    // Zooms from the whole matrix into a corner, panning; another metric half way.
    void BenchmarkFrame(int frame, int frameCount) override;

    // The matrix last built (null before the first), and a build of the chosen operator and metric
    // started when they differ from it. O(1) on the UI thread.
    const MatrixCache* Shown();
    MatrixSettings& settings() { return m_settings; }

private:
    ClusterDocument& m_document;
    MatrixSettings m_settings;
    std::unique_ptr<MatrixCache> m_cache;
    std::optional<MatrixKey> m_requested;  // the last build asked for; none before the first
    // Declared last: destroyed (and so waited for) first.
    BackgroundJob<std::unique_ptr<MatrixCache>> m_job;
};

}  // namespace marey
