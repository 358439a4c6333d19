#pragma once
// Loads whatever a person points at (a trace file, a rank folder, a kernel_details.csv) together
// with its rank folder's analysis, or two such ranks at once for a comparison.
#include <string>

#include "core/Status.hpp"
#include "load/RankDirectory.hpp"
#include "import/chrome_json/TraceLoader.hpp"
#include "rank/LoadedRank.hpp"

namespace marey {

// Loads the timeline of 'path' and analyses its rank folder, by the importer that reads it
// (import/Importer.hpp: a trace, a CSV, a rank folder's text export or its database). Fails when
// the timeline cannot be read, unless 'path' is a rank folder without any timeline file (its
// analysis still has value).
Result<LoadedRank> LoadRank(const std::string& path, const LoadOptions& options = {},
                            LoadProgress* progress = nullptr);

// Only the timeline of 'path': the trace file, or a rank folder's database or trace as LoadRank
// chooses, without the rank tables (several ranks in one timeline).
Result<std::unique_ptr<TraceModel>> LoadRankTimeline(const std::string& path,
                                                     const LoadOptions& options = {},
                                                     LoadProgress* progress = nullptr);

struct LoadedPair {
    Result<LoadedRank> a, b;
};

// Loads both paths at once, each on half of the cores (with 'options' otherwise), so that the
// pair costs no more than loading them one after the other. Progress may be null.
LoadedPair LoadRankPair(const std::string& pathA, const std::string& pathB,
                        const LoadOptions& options = {}, LoadProgress* progressA = nullptr,
                        LoadProgress* progressB = nullptr);

}  // namespace marey
