#pragma once
// One opened cluster folder: every rank's small summary, what the cluster views derive from them
// (built on the loading thread), and the state of those views. A rank's own trace is never part
// of it: a person opens a rank from any cluster view, and it becomes a Document of its own.
#include <memory>
#include <string>
#include <vector>

#include "BackgroundJob.hpp"
#include "cluster/Cluster.hpp"
#include "cluster/ClusterCommunication.hpp"
#include "cluster/ClusterReport.hpp"
#include "clusterviews/MareyState.hpp"
#include "cluster/MatrixGrid.hpp"
#include "workspace/Document.hpp"

namespace marey {

// What the cluster views share: the step and the group a person chose, and the rank selected.
struct ClusterSelection {
    int step = -1;    // index into cluster.steps; -1: averaged over steps
    int group = -1;   // index into cluster.groups; -1: every rank
    int rank = -1;    // rank id selected in any cluster view; -1: none
    int previousRank = -1;  // the one selected before it ("compare with…")
};

// Per-view state of the cluster views (sort orders, zoom, choices).
struct ClusterViewsState {
    int stepSortColumn = -1;  // a step column, kStepColumnCount for the flags, -1 for the rank
    bool stepSortAscending = true;
    int stepDistributionColumn = kStepTimeColumn;
    int matrixMetric = 0;     // bandwidth, transit size, transit time, transport type
    int matrixOperator = -1;  // index into ClusterDocument::matrixOperators; -1: all summed
    double matrixZoom = 1.0;  // cells per pixel scale: 1 fits the whole matrix
    double matrixCenterX = 0.5, matrixCenterY = 0.5;  // the point of the matrix at the view's centre, 0..1
    int collective = 0;       // index into ClusterDocument::collectives
    bool rankMenuAsked = false;  // a right click on a rank this frame
    char oneTimelineRanks[256] = {};  // the ranks to open in one timeline, as typed: "0-3,7"
    std::string oneTimelineError;     // why they could not be opened
    int stepScrolledRank = -1;   // the selected rank the step table last scrolled to
};

// The step table as shown: for the chosen step and group, with its flags and row order; rebuilt
// only when one of them changes.
struct StepTableCache {
    int step = -2, group = -2, sortColumn = -2;
    bool ascending = false;
    StepTable table;
    std::vector<SlowRank> slow;
    std::vector<int> order;  // indexes into table.rows: the group's ranks in the shown order
};

// One collective on every rank, as Communication across ranks shows it (the cluster never
// changes, so the chosen collective is its key).
struct CollectiveCache {
    int collective = -1;  // index into report.collectives; -1 before the first
    std::vector<CollectiveOnRank> ranks;
    int waitedFor = -1;   // RankEveryoneWaitsFor(ranks)
};

// The matrix as drawn: the links of the chosen operator, their slow links and the grid of the
// chosen metric; rebuilt off the UI thread when the operator or the metric changes (a million
// links take tens of milliseconds, more than a frame).
struct MatrixCache {
    int metric = -1, op = -2;
    std::shared_ptr<const std::vector<MatrixCell>> cells;  // sorted by (source, destination)
    std::vector<SlowLink> slow;
    MatrixGrid grid;
};

struct ClusterDocument {
    DocumentId id = 0;
    Cluster cluster;
    ClusterReport report;  // derived on the loading thread
    ClusterSelection selection;
    ClusterViewsState views;
    StepTableCache stepCache;
    CollectiveCache collectiveCache;
    std::unique_ptr<MatrixCache> matrixCache;
    int matrixRequestedMetric = -1, matrixRequestedOp = -2;
    // Declared after what they read: destroyed (and so waited for) first.
    BackgroundJob<std::unique_ptr<MatrixCache>> matrixJob;
    MareyState marey;

    // The matrix last built (null before the first), and a build of the chosen operator and metric
    // started when they differ from it. O(1) on the UI thread.
    const MatrixCache* MatrixShown();
    // True while a newer matrix is being built.
    bool MatrixUpdating() const { return matrixJob.Busy(); }
    // Waits for the matrix being built (tests and headless runs).
    void WaitForMatrix();

    // The step table of the chosen step and group, sorted as chosen. O(ranks log ranks) when
    // something changed, else O(1).
    const StepTableCache& StepTableShown();
    // The chosen collective on every rank. O(ranks × collectives) when the choice changed, else O(1).
    const CollectiveCache& CollectiveShown();

    // "cluster · 64 ranks · name of the folder".
    std::string Title() const;
    // Everything derived from 'cluster'. O(ranks × (steps + collectives + links)).
    void Derive();
    // The rank ids of the chosen group (all ranks when none is chosen).
    std::vector<int> GroupRanks() const;
    // True when 'rankId' is in the chosen group.
    bool InGroup(int rankId) const;
    // The slow-rank flag of 'rankId' over the averaged steps, or null.
    const SlowRank* SlowRankOf(int rankId) const;
    // Whether ranks can be opened: the cluster came from rank folders.
    bool CanOpenRanks() const { return cluster.source == "rank folders"; }
};

}  // namespace marey
