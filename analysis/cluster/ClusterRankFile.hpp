#pragma once
// A ClusterRank as a small JSON file ("rank_summary_<rank>.json") and back: `marey summarize`
// writes it next to the data, and a folder of these files opens as a cluster without the ranks'
// own files. Arrays of arrays keep it to a few hundred bytes per step.
#include <string>
#include <string_view>

#include "cluster/ClusterRank.hpp"
#include "core/Status.hpp"

namespace marey {

// The file name a summary of rank 'rankId' is written under.
std::string RankSummaryFileName(int rankId);

// True for "rank_summary_<N>.json".
bool IsRankSummaryFileName(const std::string& fileName);

// The summary as JSON. rank.path is written as it is; 'absolutePath', when given, is written
// beside it ("absolute_path") for a reader that cannot find a relative path from where it is.
// 'input', when given, is what the summary was read from (a cluster summary file's key for it).
std::string WriteRankSummary(const ClusterRank& rank, const std::string& absolutePath = {},
                             const std::string& input = {});

// Reads what WriteRankSummary wrote. 'text' needs simdjson::SIMDJSON_PADDING readable bytes past
// its end. Fails, naming the file and the field or item, when the text is not such a summary.
// 'name' is the summary file's path: a relative rank path is taken from the summary's folder,
// else from "absolute_path" when that one exists, so the summaries read the same from anywhere.
// 'input', when not null, receives the "input" that WriteRankSummary wrote (else empty).
Result<ClusterRank> ReadRankSummary(std::string_view paddedText, const std::string& name,
                                    std::string* input = nullptr);

}  // namespace marey
