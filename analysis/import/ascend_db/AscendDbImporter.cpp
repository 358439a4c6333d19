#include "import/ascend_db/AscendDbImporter.hpp"

#include <algorithm>
#include <filesystem>
#include <thread>

#include "core/Problem.hpp"
#include "db/DbRowDetails.hpp"
#include "import/ascend_db/DatabaseLoader.hpp"
#include "load/RankDirectory.hpp"
#include "rank/RankAnalysis.hpp"

namespace marey {
namespace {

bool IsDatabaseFile(const std::string& path) {
    return std::filesystem::path(path).extension() == ".db";
}

ProbeAnswer Probe(const std::string& path, RankSource preference) {
    if (IsDatabaseFile(path)) return {100, "a database file"};
    std::error_code error;
    if (!std::filesystem::is_directory(path, error)) return {0, ""};
    if (preference == RankSource::kText) return {0, ""};
    const RankFiles files = FindRankFor(path);
    if (files.profilerDb.empty()) {
        if (preference != RankSource::kDatabase) return {0, ""};
        return {0,
                "--source db: no profiler database (ascend_pytorch_profiler_N.db, "
                "ascend_mindspore_profiler_N.db, msprof_*.db) in this folder"};
    }
    // Above the text export of a folder that holds both, as the profiler's own tools choose.
    return {preference == RankSource::kDatabase ? 100 : 90,
            "a rank folder with " + std::filesystem::path(files.profilerDb).filename().string()};
}

// The database 'path' names: the file itself, or its rank folder's.
RankFiles DatabaseFiles(const std::string& path) {
    RankFiles files = FindRankFor(path);
    if (IsDatabaseFile(path)) files.profilerDb = path;  // the file named, not the folder's first
    return files;
}

Result<LoadedRank> LoadRank(const std::string& path, const LoadOptions& options,
                            LoadProgress* progress) {
    const RankFiles files = DatabaseFiles(path);
    auto loaded =
        LoadProfilerDatabase(files.profilerDb, files.analysisDb, options, false, progress);
    if (!loaded.ok()) return loaded.status();
    LoadedDatabase& db = loaded.value();
    LoadedRank rank;
    rank.path = path;
    rank.model = std::move(db.model);
    rank.source = "database " + std::filesystem::path(files.profilerDb).filename().string();
    if (files.HasTextExport()) rank.otherSource = "text";
    if (options.timelineReady) options.timelineReady(rank.model);
    // The folder's problems, the tasks', then the tables' (the order the text export's are in).
    std::vector<std::string> problems = files.problems;
    for (const ImportProblem& problem : db.kernels.problems)
        problems.push_back(FormatProblem(files.profilerDb, problem));
    for (std::string& problem : db.tables.problems) problems.push_back(std::move(problem));
    auto analysis = std::make_unique<RankAnalysis>();
    static_cast<RankTables&>(*analysis) = std::move(db.tables);
    analysis->kernels = std::move(db.kernels);
    analysis->problems = std::move(problems);
    analysis->files = files;
    analysis->database = files.profilerDb;  // before the summaries, which name their source
    AnalyzeDeviceActivities(
        *analysis, *rank.model,
        options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency()),
        progress);
    ReportAnalysis(progress, "summarising the overview, operators and data preparation");
    SummarizeRank(*analysis, rank.model.get());
    analysis->operators.source = "the database's TASK and COMMUNICATION_OP";
    rank.analysis = std::move(analysis);
    return rank;
}

Result<std::unique_ptr<TraceModel>> LoadTimeline(const std::string& path,
                                                 const LoadOptions& options,
                                                 LoadProgress* progress) {
    auto loaded = LoadProfilerDatabase(DatabaseFiles(path).profilerDb, "", options, true, progress);
    if (!loaded.ok()) return loaded.status();
    return std::move(loaded.value().model);
}

// On the connection its load kept open, else (a model read without one) on the file.
EventDetails RowDetails(const TraceSource& source, uint64_t ref) {
    return source.database ? ReadDbRowDetails(*source.database, ref, source.farRowids)
                           : ReadDbRowDetails(source.path, ref, source.farRowids);
}

}  // namespace

Importer AscendDbImporter() {
    return {SourceKind::kAscendDatabase,
            "Ascend profiler database",
            SourceFormat::kDatabase,
            Probe,
            LoadRank,
            LoadTimeline,
            RowDetails};
}

}  // namespace marey
