#include "loading/ClusterLoader.hpp"

#include <algorithm>
#include <filesystem>

#include "cluster/AnalysisOutputReader.hpp"
#include "cluster/ClusterAnalysisDb.hpp"
#include "cluster/ClusterFolder.hpp"
#include "cluster/ClusterSummaryFile.hpp"
#include "cluster/RankInput.hpp"
#include "core/LoadTiming.hpp"
#include "core/ParallelFor.hpp"
#include "cluster/TraceRanks.hpp"
#include "import/nsys/NsysLoader.hpp"
#include "loading/ClusterRankCache.hpp"
#include "loading/RankLoader.hpp"
#include "loading/RankSummarizer.hpp"
#include "import/chrome_json/TraceLoader.hpp"
#include "trace/TraceAnalyses.hpp"
#include "trace/TraceRankTables.hpp"

namespace marey {
namespace {

// The kernel table of a rank's trace, from its device activities: the Marey view's input.
Result<KernelTable> ReadTraceKernels(const std::string& path) {
    LoadOptions options;
    options.threads = 1;
    auto loaded = LoadRankTimeline(path, options);
    if (!loaded.ok()) return loaded.status();
    const TraceAnalyses analyses = AnalyzeTrace(*loaded.value(), TraceAnalysisOptions{});
    if (analyses.activities.activities.empty())
        return Status::Error(path + ": no device activities: " + analyses.activities.unavailable);
    return KernelTableFromActivities(*loaded.value(), analyses);
}

// Reads every rank of 'inputs' on 'threads' threads; the waits of collectives read from traces
// estimated across them.
// Each rank whose files are as they were when the cache was written is taken from it (unless
// its kernel table is to be kept: the cache holds summaries only).
std::vector<ClusterRank> ReadRanks(const ClusterWalk& walk, unsigned threads,
                                   ClusterProgress* progress, const RankReadOptions& options,
                                   ClusterRankCache& cache) {
    const RankInputList& inputs = walk.ranks;
    const size_t count = inputs.inputs.size();
    std::vector<ClusterRank> ranks(count);
    if (progress) progress->ranksTotal = static_cast<uint32_t>(count);
    std::vector<uint64_t> sizes(count);
    for (size_t i = 0; i < count; ++i) sizes[i] = inputs.inputs[i].bytes;
    ParallelFor(count, threads, sizes, [&](size_t i) {
        if (progress && progress->cancel) return;
        std::optional<ClusterRank> cached;
        if (!options.keepKernelTable) cached = cache.Take(i);
        if (cached) {
            ranks[i] = std::move(*cached);
            if (progress) ++progress->ranksCached;
        } else {
            cache.StampBeforeRead(i);
            // A rank folder's files as the walk found them: not looked for a second time.
            ranks[i] = i < walk.rankFiles.size() ? SummarizeRankFolder(walk.rankFiles[i], options)
                                                 : SummarizeRankInput(inputs.inputs[i], options);
            cache.Keep(i, ranks[i]);
        }
        if (progress) ++progress->ranksDone;
    });
    if (progress && progress->cancel) return ranks;
    cache.Finish();
    if (RanksAreTraces(inputs.source))
        EstimateCollectiveWaits(ranks, std::vector<bool>(ranks.size(), true));
    return ranks;
}

// A cluster summary file (`marey summarize --out FILE.jsonl`): the ranks of its lines in the job
// folder's order, settled as the folder's own ranks are, so that both open as the same cluster.
Result<Cluster> LoadClusterSummary(const std::string& path, unsigned threads,
                                   ClusterProgress* progress) {
    auto read = ReadClusterSummary(path, threads);
    if (!read.ok()) return read.status();
    ClusterSummaryContents& contents = read.value();
    Cluster cluster;
    cluster.root = path;
    cluster.source = contents.header.ranks.source;
    cluster.layout = contents.header.ranks.layout;
    cluster.problems = std::move(contents.header.problems);
    for (std::string& problem : contents.problems) cluster.problems.push_back(std::move(problem));
    // An input without a summary is a folder not read: named, with the rank id its name gives.
    std::vector<SkippedFolder> skipped = std::move(contents.header.skipped);
    size_t unsummarised = 0;
    for (size_t i = 0; i < contents.rankOfInput.size(); ++i) {
        if (contents.rankOfInput[i] >= 0) continue;
        const std::string& input = contents.header.ranks.inputs[i].path;
        skipped.push_back({input,
                           contents.complete ? "no summary in " + path + " (its line is damaged)"
                                             : "not summarised yet",
                           RankIdFromFolderName(std::filesystem::path(input).filename().string())});
        ++unsummarised;
    }
    if (!contents.complete)
        cluster.problems.push_back(
            path + ": incomplete: the summarising job ended before its " + "end line; " +
            std::to_string(unsummarised) + " of " + std::to_string(contents.rankOfInput.size()) +
            " ranks have no summary yet (marey summarize --resume makes " + "only those)");
    cluster.ranks = std::move(contents.ranks);
    if (progress)
        progress->ranksDone = progress->ranksTotal = static_cast<uint32_t>(cluster.ranks.size());
    if (RanksAreTraces(cluster.source)) {
        EstimateCollectiveWaits(cluster.ranks, std::vector<bool>(cluster.ranks.size(), true));
        cluster.readTraceKernels = ReadTraceKernels;
    }
    // Groups once the ids are settled: a left-out duplicate or a rank of no id joins none.
    SettleCluster(cluster, skipped);
    cluster.groups = GroupsFromCollectives(cluster.ranks);
    return cluster;
}

// A cluster_analysis_output folder: its cluster_analysis.db when it has one (what MindStudio
// Insight reads too when both are there), else its text files. A database that cannot be read
// gives way to the text files beside it, when they give the ranks.
Status ReadAnalysisOutputFolder(const std::string& folder, Cluster& cluster) {
    const std::string db = ClusterAnalysisDbPath(folder);
    if (db.empty()) {
        cluster.source = ClusterSource::kAnalysisOutput;
        return ReadAnalysisOutput(folder, cluster);
    }
    cluster.source = ClusterSource::kClusterAnalysisDb;
    const Status status = ReadClusterAnalysisDb(db, cluster);
    if (status.ok()) return status;
    Cluster text;
    text.root = cluster.root;
    if (!ReadAnalysisOutput(folder, text).ok()) return status;
    cluster.problems.push_back(status.message() + "; the text files beside it were read instead");
    for (std::string& problem : text.problems) cluster.problems.push_back(std::move(problem));
    cluster.ranks = std::move(text.ranks);
    cluster.groups = std::move(text.groups);
    cluster.source = ClusterSource::kAnalysisOutput;
    return Status();
}

// A job recorded in one Nsight Systems export: a rank per process that ran GPU work, each read on
// its own (its rows only, on a thread of its own) and summarised as a rank's trace is.
Result<Cluster> LoadExportCluster(const std::string& path, unsigned threads,
                                  ClusterProgress* progress, const RankReadOptions& options) {
    auto opened = SqliteFile::OpenReadOnly(path);
    if (!opened.ok()) return opened.status();
    const std::vector<NsysRank> ranks = NsysRanks(*opened.value());
    if (ranks.size() < 2)
        return Status::Error(path + ": error: not a job: " + std::to_string(ranks.size()) +
                             " of its processes ran GPU work; it opens as one rank");
    Cluster cluster;
    cluster.root = path;
    cluster.source = ClusterSource::kExportProcesses;
    cluster.ranks.resize(ranks.size());
    if (progress) progress->ranksTotal = static_cast<uint32_t>(ranks.size());
    ParallelFor(ranks.size(), std::max(1u, threads), std::vector<uint64_t>(ranks.size(), 1),
                [&](size_t i) {
                    if (progress && progress->cancel) return;
                    cluster.ranks[i] = SummarizeExportProcess(path, ranks[i], options.stepRange);
                    if (progress) ++progress->ranksDone;
                });
    if (progress && progress->cancel) return Status::Error(path + ": cancelled");
    EstimateCollectiveWaits(cluster.ranks, std::vector<bool>(cluster.ranks.size(), true));
    SettleCluster(cluster, {});
    cluster.groups = GroupsFromCollectives(cluster.ranks);
    return cluster;
}

// The cluster 'path' holds, read by the reader of its kind, before its layout is made.
Result<Cluster> ReadCluster(const std::string& path, unsigned threads, ClusterProgress* progress,
                            const RankReadOptions& options, const IndexCacheOptions& cacheOptions) {
    if (IsClusterSummaryFile(path)) return LoadClusterSummary(path, threads, progress);
    // An export of one process says so ("not a job"): its processes are listed once, there.
    if (IsNsysExportFile(path)) return LoadExportCluster(path, threads, progress, options);
    const LoadTiming timing;
    ClusterRankCache cache(cacheOptions, path, options);
    std::optional<ClusterWalk> walk = cache.TakeWalk(threads);
    if (!walk) walk = WalkClusterFolder(path);
    cache.SetWalk(*walk);
    timing.Report(cache.WalkTaken() ? "cluster: folders known from the cache"
                                    : "cluster: folders walked");
    Cluster cluster;
    cluster.root = path;
    cluster.problems = walk->problems;
    const RankInputList& inputs = walk->ranks;
    if (!inputs.inputs.empty()) {
        cluster.source = inputs.source;
        cluster.layout = inputs.layout;
        cluster.ranks = ReadRanks(*walk, std::max(1u, threads), progress, options, cache);
        timing.Report("cluster: ranks read");
        if (RanksAreTraces(inputs.source)) cluster.readTraceKernels = ReadTraceKernels;
        if (progress && progress->cancel) return Status::Error(path + ": cancelled");
    } else if (!walk->analysisOutput.empty()) {
        if (Status status = ReadAnalysisOutputFolder(walk->analysisOutput, cluster); !status.ok())
            return status;
    } else {
        return Status::Error(
            path +
            ": error: not a cluster folder: no rank folders (*_ascend_pt, *_ascend_ms, "
            "ASCEND_PROFILER_OUTPUT), no rank traces (*.pt.trace.json[.gz]), no "
            "rank_summary_N.json files and no cluster_analysis_output in it");
    }
    SettleCluster(cluster, walk->skipped);
    // Groups once the ids are settled: a left-out duplicate or a rank of no id joins none.
    if (!inputs.inputs.empty()) cluster.groups = GroupsFromCollectives(cluster.ranks);
    return cluster;
}

}  // namespace

Result<Cluster> LoadCluster(const std::string& path, unsigned threads, ClusterProgress* progress,
                            const RankReadOptions& options, const IndexCacheOptions& cache) {
    const LoadTiming timing;
    Result<Cluster> cluster = ReadCluster(path, threads, progress, options, cache);
    if (cluster.ok()) {
        cluster.value().parallel = BuildParallelLayout(cluster.value());
        cluster.value().rankSource = options.source;
    }
    timing.Report("cluster: loaded and settled");
    return cluster;
}

}  // namespace marey
