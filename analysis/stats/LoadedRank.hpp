#pragma once
// Loads whatever a person points at (a trace file, a rank folder, a kernel_details.csv) together
// with its rank folder's analysis: what one document of the viewer, one side of a comparison and
// `marey stats` all start from.
#include <memory>
#include <string>

#include "core/Status.hpp"
#include "load/RankDirectory.hpp"
#include "load/TraceLoader.hpp"
#include "stats/RankAnalysis.hpp"

namespace marey {

struct LoadedRank {
    std::string path;
    std::unique_ptr<TraceModel> model;  // null for a rank folder that holds no timeline file
    std::unique_ptr<RankAnalysis> analysis;  // never null; its files are empty outside a rank folder
};

// The rank folder 'path' belongs to: the path itself, or for a file its folder, or the folder
// above an ASCEND_PROFILER_OUTPUT folder; an empty RankFiles when there is none.
RankFiles FindRankFor(const std::string& path);

// Loads the timeline of 'path' and analyses its rank folder. Fails when the timeline cannot be
// read, unless 'path' is a rank folder without any timeline file (its analysis still has value).
Result<LoadedRank> LoadRank(const std::string& path, const LoadOptions& options = {},
                            LoadProgress* progress = nullptr);

}  // namespace marey
