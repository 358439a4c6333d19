#include "loading/ClusterLoader.hpp"

#include <algorithm>

#include "cluster/AnalysisOutputReader.hpp"
#include "cluster/ClusterAnalysisDb.hpp"
#include "cluster/ClusterFolder.hpp"
#include "cluster/ClusterRankFile.hpp"
#include "cluster/MindInsightReader.hpp"
#include "core/ParallelFor.hpp"
#include "cluster/TraceRanks.hpp"
#include "load/AnalysisFile.hpp"
#include "loading/TraceLoader.hpp"
#include "trace/TraceAnalyses.hpp"
#include "trace/TraceRankTables.hpp"

namespace marey {
namespace {

// One rank of a folder of traces: its trace loaded on one thread (the ranks load side by side)
// and summarised from its device activities.
ClusterRank SummarizeTraceFile(const std::string& path, const RankReadOptions& readOptions) {
    LoadOptions options;
    options.threads = 1;
    auto loaded = LoadTrace(path, options);
    if (!loaded.ok()) {
        ClusterRank rank;
        rank.path = path;
        rank.unreadable = true;
        rank.problems.push_back(loaded.message());
        return rank;
    }
    TraceAnalysisOptions analysisOptions;
    const TraceAnalyses analyses = AnalyzeTrace(*loaded.value(), analysisOptions);
    ClusterRank rank = SummarizeTraceRank(*loaded.value(), analyses, path);
    for (const ImportProblem& problem : loaded.value()->report.problems)
        rank.problems.push_back(FormatProblem(path, problem));
    // As ReadTraceKernels makes it; a trace without device activities keeps none, and the Marey
    // view asks ReadTraceKernels, which says why.
    if (readOptions.keepKernelTable && !analyses.activities.activities.empty())
        rank.kernels = std::make_shared<const KernelTable>(
            KernelTableFromActivities(*loaded.value(), analyses));
    return rank;
}

// The kernel table of a rank's trace, from its device activities: the Marey view's input.
Result<KernelTable> ReadTraceKernels(const std::string& path) {
    LoadOptions options;
    options.threads = 1;
    auto loaded = LoadTrace(path, options);
    if (!loaded.ok()) return loaded.status();
    const TraceAnalyses analyses = AnalyzeTrace(*loaded.value(), TraceAnalysisOptions{});
    if (analyses.activities.activities.empty())
        return Status::Error(path + ": no device activities: " + analyses.activities.unavailable);
    return KernelTableFromActivities(*loaded.value(), analyses);
}

// Reads every rank of 'folders' (folders, else summary files, else traces, else
// step_trace_raw files) on 'threads' threads.
std::vector<ClusterRank> ReadRanks(const ClusterFolders& folders, unsigned threads,
                                   ClusterProgress* progress, const RankReadOptions& options) {
    const bool fromFolders = !folders.rankFolders.empty();
    const bool fromSummaries = !fromFolders && !folders.summaryFiles.empty();
    const bool fromTraces = !fromFolders && !fromSummaries && !folders.traceFiles.empty();
    const size_t count = fromFolders     ? folders.rankFolders.size()
                         : fromSummaries ? folders.summaryFiles.size()
                         : fromTraces    ? folders.traceFiles.size()
                                         : folders.stepTraceRawFiles.size();
    std::vector<ClusterRank> ranks(count);
    if (progress) progress->ranksTotal = static_cast<uint32_t>(count);
    ParallelFor(count, threads, std::vector<uint64_t>(count, 1), [&](size_t i) {
        if (progress && progress->cancel) return;
        if (fromFolders) {
            ranks[i] = SummarizeRankFolder(folders.rankFolders[i], options);
        } else if (fromTraces) {
            ranks[i] = SummarizeTraceFile(folders.traceFiles[i], options);
        } else if (!fromSummaries) {
            ranks[i] = ReadMindInsightRank(folders.stepTraceRawFiles[i]);
        } else {
            const std::string& path = folders.summaryFiles[i];
            bool read = false;
            ReadAnalysisFile(path, ranks[i].problems, [&](std::string_view text) {
                auto summary = ReadRankSummary(text, path);
                read = summary.ok();
                if (read)
                    ranks[i] = std::move(summary.value());
                else
                    ranks[i].problems.push_back(summary.message());
            });
            ranks[i].unreadable = !read;
            if (ranks[i].path.empty()) ranks[i].path = path;
        }
        if (progress) ++progress->ranksDone;
    });
    if (fromTraces) EstimateCollectiveWaits(ranks, std::vector<bool>(ranks.size(), true));
    return ranks;
}

// A cluster_analysis_output folder: its cluster_analysis.db when it has one (what MindStudio
// Insight reads too when both are there), else its text files. A database that cannot be read
// gives way to the text files beside it, when they give the ranks.
Status ReadAnalysisOutputFolder(const std::string& folder, Cluster& cluster) {
    const std::string db = ClusterAnalysisDbPath(folder);
    if (db.empty()) {
        cluster.source = "cluster_analysis_output";
        return ReadAnalysisOutput(folder, cluster);
    }
    cluster.source = "cluster_analysis.db";
    const Status status = ReadClusterAnalysisDb(db, cluster);
    if (status.ok()) return status;
    Cluster text;
    text.root = cluster.root;
    if (!ReadAnalysisOutput(folder, text).ok()) return status;
    cluster.problems.push_back(status.message() + "; the text files beside it were read instead");
    for (std::string& problem : text.problems) cluster.problems.push_back(std::move(problem));
    cluster.ranks = std::move(text.ranks);
    cluster.groups = std::move(text.groups);
    cluster.source = "cluster_analysis_output";
    return Status();
}

}  // namespace

Result<Cluster> LoadCluster(const std::string& path, unsigned threads, ClusterProgress* progress,
                            const RankReadOptions& options) {
    const ClusterFolders folders = FindClusterFolders(path);
    Cluster cluster;
    cluster.root = path;
    cluster.problems = folders.problems;
    if (folders.RankCount() > 0) {
        cluster.source = !folders.rankFolders.empty()    ? "rank folders"
                         : !folders.summaryFiles.empty() ? "rank summary files"
                         : !folders.traceFiles.empty()   ? "rank traces"
                                                         : "MindInsight step_trace_raw files";
        if (folders.rankFolders.empty() && folders.summaryFiles.empty() &&
            folders.traceFiles.empty())
            cluster.layout = StepLayout::kMindInsight;
        cluster.ranks = ReadRanks(folders, std::max(1u, threads), progress, options);
        if (folders.rankFolders.empty() && folders.summaryFiles.empty() &&
            !folders.traceFiles.empty())
            cluster.readTraceKernels = ReadTraceKernels;
        if (progress && progress->cancel) return Status::Error(path + ": cancelled");
        cluster.groups = GroupsFromCollectives(cluster.ranks);
    } else if (!folders.analysisOutput.empty()) {
        if (Status status = ReadAnalysisOutputFolder(folders.analysisOutput, cluster); !status.ok())
            return status;
    } else {
        return Status::Error(
            path +
            ": error: not a cluster folder: no rank folders (*_ascend_pt, *_ascend_ms, "
            "ASCEND_PROFILER_OUTPUT), no rank traces (*.pt.trace.json[.gz]), no "
            "rank_summary_N.json files and no cluster_analysis_output in it");
    }
    SettleCluster(cluster, folders.skipped);
    return cluster;
}

}  // namespace marey
