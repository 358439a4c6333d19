#pragma once
// Finds what a cluster folder holds: rank folders at any depth (*_ascend_pt, *_ascend_ms,
// ASCEND_PROFILER_OUTPUT, folders holding the profiler's files), rank traces of PyTorch's
// profiler (one file per rank), rank summary files written by
// `marey summarize`, msprof-analyze's cluster_analysis_output (text files or cluster_analysis.db),
// and MindInsight's older
// step_trace_raw_N_detail_time.csv files.
#include <string>
#include <vector>

#include "core/Ids.hpp"
#include "load/RankDirectory.hpp"

namespace marey {

// A folder the walk did not read ranks from although it may hold one, and why: what a missing
// rank id is explained by.
struct SkippedFolder {
    std::string path;
    std::string reason;  // "no profiler data in it", "behind a symbolic link, not followed", …
    std::optional<RankId> rankId;  // as the folder's name says, if it does
};

struct ClusterFolders {
    std::string root;
    std::vector<RankFiles> rankFolders;          // in path order
    std::vector<std::string> summaryFiles;       // rank_summary_N.json, in path order
    std::string analysisOutput;                  // a cluster_analysis_output folder, or empty
    std::vector<std::string> stepTraceRawFiles;  // MindInsight's step_trace_raw_N_detail_time.csv
    std::vector<std::string> traceFiles;  // rank traces (*.pt.trace.json.gz …), in path order
    std::vector<std::string> problems;    // rank folders that could not be read
    std::vector<SkippedFolder> skipped;   // in walk order
    // The folders the walk listed (the rank folders not among them: it does not walk into them).
    std::vector<std::string> listedFolders;
    // False when what the walk found depends on more than those folders and the rank folders'
    // own files: a link to a folder, or a folder past the depth, was looked into.
    bool repeatable = true;

    size_t RankCount() const {
        return rankFolders.size() + summaryFiles.size() + stepTraceRawFiles.size() +
               traceFiles.size();
    }
};

// Walks 'path' up to 8 levels deep without following links; a rank folder's inside is not
// walked further. Links to folders, folders past the depth and folders named like a rank folder
// without a rank in them are listed in 'skipped'. With 'enoughRanks' > 0 the walk stops once it
// has found that many ranks (what is found then is only a beginning). O(entries walked).
ClusterFolders FindClusterFolders(const std::string& path, size_t enoughRanks = 0);

// True when 'path' is a folder holding two or more ranks (folders, summary or step_trace_raw files)
// or a cluster_analysis_output, or a cluster summary file (`marey summarize --out FILE.jsonl`):
// what opens as a cluster rather than as one document.
bool IsClusterPath(const std::string& path);

}  // namespace marey
