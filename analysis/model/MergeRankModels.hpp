#pragma once
// Several ranks in one timeline (as MindStudio Insight imports several cards): the models of
// several ranks moved into one, each rank a ProcessGroup of its own, its clock shifted so that
// the ranks line up.
#include <memory>
#include <string>
#include <vector>

#include "core/Time.hpp"
#include "model/TraceModel.hpp"

namespace marey {

// One rank's model and its place in the merged timeline.
struct RankModelPart {
    std::string label;                  // the group's header: "rank 3"
    std::string note;                   // how its clock is aligned, shown beside the label
    std::unique_ptr<TraceModel> model;  // consumed by the merge; a merged model is refused
    TimeNs shiftNs = 0;                 // added to every time of this rank
};

// Moves every part's processes, tracks, flows, text and problems into one model, the parts'
// groups in the order given. Rows are moved, not copied: the cost is one pass over every slice
// to shift its times and name it in the merged string pool, spread over 'threads'. Flows whose
// ends would not fit the 21-bit origin index are dropped and counted as a problem of their rank.
std::unique_ptr<TraceModel> MergeRankModels(std::vector<RankModelPart> parts, unsigned threads = 1);

}  // namespace marey
