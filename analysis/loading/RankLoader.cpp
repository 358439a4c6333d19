#include "loading/RankLoader.hpp"

#include <algorithm>
#include <filesystem>
#include <thread>

#include "core/Problem.hpp"
#include "loading/DatabaseLoader.hpp"

namespace marey {

RankFiles FindRankFor(const std::string& path) {
    namespace fs = std::filesystem;
    std::error_code error;
    fs::path folder = fs::is_directory(path, error) ? fs::path(path) : fs::path(path).parent_path();
    if (folder.filename() == "ASCEND_PROFILER_OUTPUT") folder = folder.parent_path();
    if (!folder.empty() && IsRankDirectory(folder.string())) {
        auto files = FindRankFiles(folder.string());
        if (files.ok()) return std::move(files.value());
    }
    return RankFiles{};
}

namespace {

bool EndsWith(const std::string& text, const char* suffix) {
    const size_t n = std::char_traits<char>::length(suffix);
    return text.size() >= n && text.compare(text.size() - n, n, suffix) == 0;
}

// Whether 'path' opens the folder's database: a .db file named, or a folder that has one unless
// the text was asked for; a trace file named opens itself.
Result<bool> ChooseDatabase(const std::string& path, const RankFiles& files, RankSource source) {
    std::error_code error;
    const bool isFolder = std::filesystem::is_directory(path, error);
    if (EndsWith(path, ".db")) return true;
    if (!isFolder) return false;
    if (source == RankSource::kDatabase) {
        if (files.profilerDb.empty())
            return Status::Error(path +
                                 ": error: --source db: no profiler database "
                                 "(ascend_pytorch_profiler_N.db, ascend_mindspore_profiler_N.db, "
                                 "msprof_*.db) in this folder");
        return true;
    }
    if (source == RankSource::kText) {
        if (!files.HasTextExport())
            return Status::Error(path +
                                 ": error: --source text: no trace_view.json or "
                                 "kernel_details.csv in this folder");
        return false;
    }
    return !files.profilerDb.empty();
}

Result<LoadedRank> LoadDatabaseRank(const std::string& path, const RankFiles& folder,
                                    const LoadOptions& options, LoadProgress* progress) {
    RankFiles files = folder;
    if (EndsWith(path, ".db")) files.profilerDb = path;  // the file named, not the folder's first
    auto loaded =
        LoadProfilerDatabase(files.profilerDb, files.analysisDb, options, false, progress);
    if (!loaded.ok()) return loaded.status();
    LoadedDatabase& db = loaded.value();
    LoadedRank rank;
    rank.path = path;
    rank.model = std::move(db.model);
    rank.source = "database " + std::filesystem::path(files.profilerDb).filename().string();
    if (files.HasTextExport()) rank.otherSource = "text";
    auto analysis = std::make_unique<RankAnalysis>();
    analysis->files = files;
    analysis->problems = files.problems;
    for (const ImportProblem& problem : db.kernels.problems)
        analysis->problems.push_back(FormatProblem(files.profilerDb, problem));
    analysis->kernels = std::move(db.kernels);
    analysis->steps = std::move(db.tables.steps);
    analysis->communication = std::move(db.tables.communication);
    analysis->matrix = std::move(db.tables.matrix);
    analysis->memoryRecord = std::move(db.tables.memoryRecord);
    analysis->operatorMemory = std::move(db.tables.operatorMemory);
    for (std::string& problem : db.tables.problems)
        analysis->problems.push_back(std::move(problem));
    analysis->database = files.profilerDb;  // before the summaries, which name their source
    AnalyzeDeviceActivities(
        *analysis, *rank.model,
        options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency()));
    SummarizeRank(*analysis, rank.model.get());
    analysis->operators.source = "the database's TASK and COMMUNICATION_OP";
    rank.analysis = std::move(analysis);
    return rank;
}

}  // namespace

Result<std::unique_ptr<TraceModel>> LoadRankTimeline(const std::string& path,
                                                     const LoadOptions& options,
                                                     LoadProgress* progress) {
    const RankFiles files = FindRankFor(path);
    const Result<bool> database = ChooseDatabase(path, files, options.source);
    if (!database.ok()) return database.status();
    if (!database.value()) return LoadTrace(path, options, progress);
    auto loaded = LoadProfilerDatabase(EndsWith(path, ".db") ? path : files.profilerDb, "", options,
                                       true, progress);
    if (!loaded.ok()) return loaded.status();
    return std::move(loaded.value().model);
}

Result<LoadedRank> LoadRank(const std::string& path, const LoadOptions& options,
                            LoadProgress* progress) {
    const RankFiles files = FindRankFor(path);
    const Result<bool> database = ChooseDatabase(path, files, options.source);
    if (!database.ok()) return database.status();
    if (database.value()) return LoadDatabaseRank(path, files, options, progress);
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
    rank.analysis = std::make_unique<RankAnalysis>(AnalyzeRank(files, rank.model.get()));
    return rank;
}

LoadedPair LoadRankPair(const std::string& pathA, const std::string& pathB,
                        const LoadOptions& options, LoadProgress* progressA,
                        LoadProgress* progressB) {
    LoadOptions half = options;
    half.threads = std::max(1u, std::thread::hardware_concurrency() / 2);
    LoadedPair pair{Status::Error("not loaded"), Status::Error("not loaded")};
    std::thread second([&] { pair.b = LoadRank(pathB, half, progressB); });
    pair.a = LoadRank(pathA, half, progressA);
    second.join();
    return pair;
}

}  // namespace marey
