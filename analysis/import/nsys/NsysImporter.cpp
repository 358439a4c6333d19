#include "import/nsys/NsysImporter.hpp"

#include <filesystem>

#include "import/nsys/NsysLoader.hpp"
#include "import/nsys/NsysRowDetails.hpp"
#include "load/RankDirectory.hpp"
#include "rank/RankAnalysis.hpp"

namespace marey {
namespace {

bool IsSqliteName(const std::string& path) {
    const std::string extension = std::filesystem::path(path).extension().string();
    return extension == ".sqlite" || extension == ".sqlite3";
}

ProbeAnswer Probe(const std::string& path, RankSource) {
    std::error_code error;
    if (!IsSqliteName(path) || std::filesystem::is_directory(path, error)) return {0, ""};
    // Opening reads the header and the schema, not the tables.
    // A .sqlite file of another program is still best read here: the load says what it lacks
    // (any reader with more confidence takes it first).
    auto opened = SqliteFile::OpenReadOnly(path);
    if (opened.ok() && !IsNsysExport(*opened.value()))
        return {1, "a SQLite file, but not an Nsight Systems export"};
    // A file that does not open is still ours to say why.
    return {100, "an Nsight Systems export"};
}

Result<LoadedRank> LoadRank(const std::string& path, const LoadOptions& options,
                            LoadProgress* progress) {
    auto loaded = LoadNsysExport(path, options, progress);
    if (!loaded.ok()) return loaded.status();
    LoadedRank rank;
    rank.path = path;
    rank.model = std::move(loaded.value().model);
    rank.source = "Nsight Systems export " + std::filesystem::path(path).filename().string();
    rank.note = std::move(loaded.value().note);
    // The window draws the timeline while the rank's analyses are computed.
    if (options.timelineReady) options.timelineReady(rank.model);
    rank.analysis =
        std::make_unique<RankAnalysis>(AnalyzeRank(RankFiles{}, rank.model.get(), progress));
    return rank;
}

Result<std::unique_ptr<TraceModel>> LoadTimeline(const std::string& path,
                                                 const LoadOptions& options,
                                                 LoadProgress* progress) {
    auto loaded = LoadNsysExport(path, options, progress);
    if (!loaded.ok()) return loaded.status();
    return std::move(loaded.value().model);
}

// On the connection its load kept open, else (a model read without one) on the file.
EventDetails RowDetails(const TraceSource& source, uint64_t ref) {
    if (source.database) return ReadNsysRowDetails(*source.database, ref);
    auto opened = SqliteFile::OpenReadOnly(source.path);
    if (!opened.ok()) {
        EventDetails details;
        details.error = opened.status().message();
        return details;
    }
    return ReadNsysRowDetails(*opened.value(), ref);
}

}  // namespace

Importer NsysImporter() {
    return {SourceKind::kNsysExport,
            "Nsight Systems export",
            SourceFormat::kNsysExport,
            Probe,
            LoadRank,
            LoadTimeline,
            RowDetails};
}

}  // namespace marey
