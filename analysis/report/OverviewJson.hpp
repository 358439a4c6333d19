#pragma once
// The overview figures as JSON keys, shared by `stats --json` and `stats --compare --json`.
#include "rank/RankOverview.hpp"
#include "report/JsonWriter.hpp"

namespace marey {

// computing_ns … total_ns of 'figures' into 'object'.
inline void WriteOverviewFigures(JsonObject& object, const OverviewFigures& figures) {
    object.Int("computing_ns", figures.computingNs);
    object.Int("pure_computing_ns", figures.pureComputingNs);
    object.Int("communication_overlapped_ns", figures.commOverlappedNs);
    object.Int("communication_not_overlapped_ns", figures.commNotOverlappedNs);
    object.Int("free_ns", figures.freeNs);
    object.Int("total_ns", figures.totalNs);
}

}  // namespace marey
