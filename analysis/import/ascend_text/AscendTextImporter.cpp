#include "import/ascend_text/AscendTextImporter.hpp"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <thread>

#include "cache/AnalysesCache.hpp"
#include "load/RankDirectory.hpp"
#include "rank/RankAnalysis.hpp"

namespace marey {
namespace {

ProbeAnswer Probe(const std::string& path, RankSource preference) {
    const RankFiles files = FindRankFor(path);
    if (files.root.empty()) return {0, ""};
    std::error_code error;
    // A file named opens itself, whatever --source says; a database file is the database's.
    if (!std::filesystem::is_directory(path, error)) {
        if (std::filesystem::path(path).extension() == ".db") return {0, ""};
        return {100, "a file of the rank folder " + files.root};
    }
    if (preference == RankSource::kDatabase) return {0, ""};
    if (preference == RankSource::kText) {
        if (!files.HasTextExport())
            return {0, "--source text: no trace_view.json or kernel_details.csv in this folder"};
        return {100, "--source text: the rank folder's text export"};
    }
    // Below the database of a folder that holds both, as the profiler's own tools choose.
    return {80, files.HasTextExport() ? "a rank folder's text export"
                                      : "a rank folder without a timeline file"};
}

}  // namespace

Result<std::unique_ptr<TraceModel>> LoadTraceTimeline(const std::string& path,
                                                      const LoadOptions& options,
                                                      LoadProgress* progress) {
    return LoadTrace(path, options, progress);
}

Result<LoadedRank> LoadTraceRank(const std::string& path, const LoadOptions& options,
                                 LoadProgress* progress) {
    const RankFiles files = FindRankFor(path);
    LoadedRank rank;
    rank.path = path;
    auto loaded = LoadTrace(path, options, progress);
    if (loaded.ok()) {
        rank.model = std::move(loaded.value());
        rank.source = "text " + std::filesystem::path(rank.model->Path()).filename().string();
    } else {
        std::error_code error;
        const bool folderWithoutTimeline = std::filesystem::is_directory(path, error) &&
                                           files.HasAnyAnalysisFile() && files.traceView.empty() &&
                                           files.kernelDetails.empty();
        if (!folderWithoutTimeline) return loaded.status();
        rank.source = "text (no timeline)";
    }
    if (!files.profilerDb.empty()) rank.otherSource = "database";
    if (rank.model && options.timelineReady) options.timelineReady(rank.model);
    // The device analyses, read from the index cache beside the model when it has them (a
    // re-open), else computed and written there for the next open.
    std::optional<IndexCache> cache;
    std::shared_ptr<TraceAnalyses> cached;
    if (rank.model && options.cache.enabled) {
        cache.emplace(options.cache, rank.model->Path());
        TraceAnalysisOptions figures;
        figures.threads = std::max(1u, std::thread::hardware_concurrency());
        cached = ReadCachedAnalyses(*cache, *rank.model, figures);
    }
    const bool fromCache = cached != nullptr;
    rank.analysis = std::make_unique<RankAnalysis>(
        AnalyzeRank(files, rank.model.get(), progress, std::move(cached)));
    if (cache && !fromCache && rank.analysis->trace)
        WriteAnalysesInBackground(*cache, *rank.model, rank.analysis->trace);
    return rank;
}

Importer TraceFileImporter(SourceKind kind, const char* name,
                           ProbeAnswer (*probe)(const std::string&, RankSource)) {
    return {
        kind,
        name,
        SourceFormat::kChromeJson,
        probe,
        LoadTraceRank,
        LoadTraceTimeline,
        [](const TraceSource& source, uint64_t ref) { return ReadEventDetails(source.text, ref); }};
}

Importer AscendTextImporter() {
    return TraceFileImporter(SourceKind::kAscendText, "Ascend rank folder (text export)", Probe);
}

}  // namespace marey
