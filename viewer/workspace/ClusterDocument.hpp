#pragma once
// One opened cluster folder: every rank's small summary, what the cluster views derive from them
// (built on the loading thread), the selection the cluster views share, and the objects of those
// views (made by the view registry; their types are not known here). A rank's own trace is never
// part of it: a person opens a rank from any cluster view, and it becomes a Document of its own.
#include <optional>
#include <string>
#include <vector>

#include "cluster/Cluster.hpp"
#include "cluster/ClusterReport.hpp"
#include "viewkit/View.hpp"
#include "base/Ids.hpp"
#include "workspace/Document.hpp"

namespace marey {

// What the cluster views share: the step and the group a person chose, the rank selected, and the
// ranks gathered to open in one timeline.
struct ClusterSelection {
    std::optional<StepIndex> step;       // none: averaged over steps
    std::optional<GroupIndex> group;     // none: every rank
    std::optional<RankId> rank;          // selected in any cluster view
    std::optional<RankId> previousRank;  // the one selected before it ("compare with…")
    bool rankMenuAsked = false;          // a right click on a rank this frame
    char oneTimelineRanks[256] = {};     // the ranks to open in one timeline, as typed: "0-3,7"
    std::string oneTimelineError;        // why they could not be opened
};

struct ClusterDocument {
    ClusterDocument();
    ~ClusterDocument();
    ClusterDocument(const ClusterDocument&) = delete;
    ClusterDocument& operator=(const ClusterDocument&) = delete;

    DocumentId id;
    Cluster cluster;
    ClusterReport report;  // derived on the loading thread
    ClusterSelection selection;

    // "cluster · 64 ranks · name of the folder".
    std::string Title() const;
    // Everything derived from 'cluster'. O(ranks × (steps + collectives + links)).
    void Derive();
    // The chosen group, when one is chosen and the cluster has it.
    const ClusterGroup* ChosenGroup() const;
    // The rank ids of the chosen group (all ranks when none is chosen).
    std::vector<int> GroupRanks() const;
    // True when 'rankId' is in the chosen group.
    bool InGroup(RankId rankId) const;
    // The slow-rank flag of 'rankId' over the averaged steps, or null.
    const SlowRank* SlowRankOf(RankId rankId) const;
    // The index into cluster.ranks of the selected rank, if one is selected and the cluster has it.
    std::optional<size_t> SelectedRankIndex() const {
        return selection.rank ? cluster.IndexOfRank(*selection.rank) : std::nullopt;
    }
    // Whether ranks can be opened: the cluster came from rank folders.
    bool CanOpenRanks() const { return RanksAreFolders(cluster.source); }

    // The objects of the views that show the cluster; declared last: they hold a reference to it
    // (and their background jobs read it), so they go first.
    ViewList views;
};

}  // namespace marey
