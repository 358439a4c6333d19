#pragma once
// One rank as a person opened it: its timeline (when it has one) and its rank folder's analysis.
// What one document of the viewer, one side of a comparison and `marey stats` all start from;
// loading/RankLoader.hpp makes it.
#include <memory>
#include <string>

#include "model/TraceModel.hpp"
#include "rank/RankAnalysis.hpp"

namespace marey {

struct LoadedRank {
    std::string path;
    // Null for a rank folder that holds no timeline file. Shared: the window shows the timeline
    // while the loading thread still computes the analyses from it.
    std::shared_ptr<TraceModel> model;
    std::unique_ptr<RankAnalysis>
        analysis;  // never null; its files are empty outside a rank folder
    // What was read: "database ascend_pytorch_profiler_0.db" or "text trace_view.json"; and the
    // other export the folder also holds ("text", "database"), empty when none.
    std::string source;
    std::string otherSource;
    // What a person should know of the source itself ("schema 3.25.0; not in this export: …");
    // empty when nothing.
    std::string note;
};

}  // namespace marey
