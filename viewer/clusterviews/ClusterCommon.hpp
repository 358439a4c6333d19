#pragma once
// What the cluster views share: the step and group pickers at their top, the actions on a rank
// (open its timeline, overview or operators; compare it with another), a value axis with round
// ticks, and the colours of the phases.
#include <optional>
#include <string>
#include <vector>

#include "base/Colors.hpp"
#include "workspace/ClusterDocument.hpp"

struct ImDrawList;

namespace marey {

// What a cluster view asks the application to do with the cluster's ranks.
struct ClusterRequest {
    enum Kind { kNone, kOpenRank, kCompareRanks, kOpenRanksInOneTimeline } kind = kNone;
    std::optional<DocumentId> cluster;
    std::optional<RankId> rankA, rankB;
    std::string
        view;  // the view to show once the rank is open: "timeline", "overview", "operators"
    TimeNs startNs = 0,
           endNs =
               0;  // with the timeline: show and mark this range (absolute), when endNs > startNs
    std::string label;          // names the marked range
    std::vector<RankId> ranks;  // kOpenRanksInOneTimeline: in the order shown
    std::string alignStep;      // and the step they are aligned on (empty: the first they share)
};

// The step picker (averaged or one step) and the group picker, on one line.
void DrawStepAndGroupPickers(ClusterDocument& cluster, bool withStep = true);

// What a cluster view shows when no rank gave it 'kind': that the file is there but could not be
// read (with the first problems that name it), else that it is missing and what writes it.
void DrawNoClusterData(const ClusterDocument& cluster, const RankFileKind& kind,
                       const char* whatNeedsIt);

// Selects 'rankId' in every cluster view (the one selected before becomes the "compare with").
void SelectRank(ClusterDocument& cluster, RankId rankId);

// A right click on the last item selects rank 'rankId' and asks for its menu.
void RankRightClick(ClusterDocument& cluster, RankId rankId);

// The menu of the selected rank, once asked for (call once per frame, outside tables): open its
// timeline, overview or operators, compare it with the rank selected before or the median rank.
void DrawRankMenu(ClusterDocument& cluster, ClusterRequest& request);

// A row of buttons acting on the selected rank (Enter opens its timeline; a hint when none is
// selected), and below it the ranks to open in one timeline.
void DrawSelectedRankActions(ClusterDocument& cluster, ClusterRequest& request);

// Adds rank 'rankId' to the ranks to open in one timeline (once).
void AddToOneTimeline(ClusterDocument& cluster, RankId rankId);

// The ranks to open in one timeline: a field ("0-3,7"), filled by typing or by adding ranks, and
// the button that opens them, aligned on the step shown.
void DrawOneTimelinePicker(ClusterDocument& cluster, ClusterRequest& request);

// The rank whose averaged step time is the median: the yardstick to compare an odd rank with
// (the upper of the middle two for an even count: a rank, not a value); none without ranks.
std::optional<RankId> MedianRank(const ClusterDocument& cluster);

// Round tick spacing (1, 2 or 5 × a power of ten) giving about 'count' ticks over 'range'.
double NiceTickStep(double range, int count);

// The colour of a step table column (phases in their time-class colours).
Rgba StepColumnColor(int column);

// A value in ms with three significant digits, for axes and cards.
std::string Ms(TimeNs ns);

}  // namespace marey
