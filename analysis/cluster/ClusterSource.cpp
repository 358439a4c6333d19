#include "cluster/ClusterSource.hpp"

namespace marey {
namespace {

struct SourceName {
    ClusterSource source;
    const char* name;
};

constexpr SourceName kNames[] = {
    {ClusterSource::kNone, ""},
    {ClusterSource::kRankFolders, "rank folders"},
    {ClusterSource::kRankSummaryFiles, "rank summary files"},
    {ClusterSource::kRankTraces, "rank traces"},
    {ClusterSource::kMindInsightStepTraceRaw, "MindInsight step_trace_raw files"},
    {ClusterSource::kAnalysisOutput, "cluster_analysis_output"},
    {ClusterSource::kClusterAnalysisDb, "cluster_analysis.db"},
    {ClusterSource::kExportProcesses, "processes of one Nsight Systems export"},
};

}  // namespace

const char* ClusterSourceName(ClusterSource source) {
    for (const SourceName& entry : kNames)
        if (entry.source == source) return entry.name;
    return "";
}

bool ParseClusterSource(std::string_view name, ClusterSource& source) {
    for (const SourceName& entry : kNames)
        if (entry.name == name) return source = entry.source, true;
    return false;
}

}  // namespace marey
