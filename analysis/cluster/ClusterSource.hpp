#pragma once
// What a cluster's ranks were read from: a kind, never compared as text. Its name is for people
// and for the files that store it (`marey summarize`'s header, `stats --json`'s "source").
#include <cstdint>
#include <string_view>

namespace marey {

enum class ClusterSource : uint8_t {
    kNone,                     // no rank found
    kRankFolders,              // Ascend rank folders (text or profiler database)
    kRankSummaryFiles,         // rank_summary_<rank>.json files of `marey summarize`
    kRankTraces,               // a folder of Kineto / Chrome JSON traces, one per rank
    kMindInsightStepTraceRaw,  // MindInsight's step_trace_raw_<rank>_detail_time.csv files
    kAnalysisOutput,           // msprof-analyze's cluster_analysis_output text files
    kClusterAnalysisDb,        // msprof-analyze's cluster_analysis.db
    kExportProcesses,          // the processes of one Nsight Systems export, a rank each
};

// "rank folders", "rank summary files", "rank traces", "MindInsight step_trace_raw files",
// "cluster_analysis_output", "cluster_analysis.db", "processes of one Nsight Systems export"; ""
// for kNone.
const char* ClusterSourceName(ClusterSource source);

// The kind a name above stands for; false for any other text.
bool ParseClusterSource(std::string_view name, ClusterSource& source);

// Whether each rank of such a cluster is a folder a person can open as a document.
inline bool RanksAreFolders(ClusterSource source) {
    return source == ClusterSource::kRankFolders;
}

// Whether each rank of such a cluster was read from its trace (collective waits are estimated,
// the Marey view reads the trace's kernels).
inline bool RanksAreTraces(ClusterSource source) {
    return source == ClusterSource::kRankTraces || source == ClusterSource::kExportProcesses;
}

}  // namespace marey
