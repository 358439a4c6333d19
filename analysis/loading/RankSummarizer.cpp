#include "loading/RankSummarizer.hpp"

#include <memory>

#include "cluster/ClusterRankFile.hpp"
#include "cluster/MindInsightReader.hpp"
#include "cluster/TraceRanks.hpp"
#include "load/AnalysisFile.hpp"
#include "import/chrome_json/TraceLoader.hpp"
#include "import/nsys/NsysLoader.hpp"
#include "loading/RankLoader.hpp"
#include "trace/TraceAnalyses.hpp"
#include "trace/TraceRankTables.hpp"

namespace marey {
namespace {

// A rank whose trace or export could not be read: named with the reason, never dropped.
ClusterRank UnreadableRank(const std::string& path, const std::string& message) {
    ClusterRank rank;
    rank.path = path;
    rank.unreadable = true;
    rank.problems.push_back(message);
    return rank;
}

// One loaded rank timeline summarised from its device activities, whatever importer read it.
ClusterRank SummarizeLoadedTimeline(const TraceModel& model, const std::string& path) {
    const TraceAnalyses analyses = AnalyzeTrace(model, TraceAnalysisOptions{});
    ClusterRank rank = SummarizeTraceRank(model, analyses, path);
    for (const ImportProblem& problem : model.report.problems)
        rank.problems.push_back(FormatProblem(path, problem));
    return rank;
}

// One rank of a folder of traces: its trace (or Nsight Systems export) loaded on one thread (the
// ranks load side by side) by its format's importer.
ClusterRank SummarizeTraceFile(const std::string& path, const std::string& stepRange) {
    LoadOptions options;
    options.threads = 1;
    options.stepRange = stepRange;
    auto loaded = LoadRankTimeline(path, options);
    if (!loaded.ok()) return UnreadableRank(path, loaded.message());
    return SummarizeLoadedTimeline(*loaded.value(), path);
}

}  // namespace

ClusterRank SummarizeExportProcess(const std::string& path, const NsysRank& rank,
                                   const std::string& stepRange) {
    LoadOptions options;
    options.threads = 1;
    options.stepRange = stepRange;
    auto loaded = LoadNsysRank(path, options, rank);
    if (!loaded.ok()) {
        ClusterRank unread = UnreadableRank(path, loaded.message());
        unread.rankId = RankId(static_cast<int>(rank.rank));
        return unread;
    }
    ClusterRank summary = SummarizeLoadedTimeline(*loaded.value().model, path);
    if (!summary.rankId) {
        summary.rankId = RankId(static_cast<int>(rank.rank));
        summary.rankSource = "its process's place among the export's processes";
    }
    return summary;
}

namespace {

ClusterRank ReadSummaryFile(const std::string& path) {
    ClusterRank rank;
    bool read = false;
    ReadAnalysisFile(path, rank.problems, [&](std::string_view text) {
        auto summary = ReadRankSummary(text, path);
        read = summary.ok();
        if (read)
            rank = std::move(summary.value());
        else
            rank.problems.push_back(summary.message());
    });
    rank.unreadable = !read;
    if (rank.path.empty()) rank.path = path;
    return rank;
}

}  // namespace

ClusterRank SummarizeRankInput(const RankInput& input, const RankReadOptions& options) {
    switch (input.kind) {
        case RankInputKind::kFolder: {
            auto files = FindRankFiles(input.path);
            if (files.ok()) return SummarizeRankFolder(files.value(), options);
            ClusterRank rank;
            rank.path = input.path;
            rank.unreadable = true;
            rank.problems.push_back(files.message());
            return rank;
        }
        case RankInputKind::kSummaryFile:
            return ReadSummaryFile(input.path);
        case RankInputKind::kTrace:
            return SummarizeTraceFile(input.path, options.stepRange);
        case RankInputKind::kStepTraceRaw:
            return ReadMindInsightRank(input.path);
    }
    return {};
}

}  // namespace marey
