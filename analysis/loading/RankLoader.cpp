#include "loading/RankLoader.hpp"

#include <algorithm>
#include <filesystem>
#include <thread>

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

Result<LoadedRank> LoadRank(const std::string& path, const LoadOptions& options,
                            LoadProgress* progress) {
    LoadedRank rank;
    rank.path = path;
    const RankFiles files = FindRankFor(path);
    auto loaded = LoadTrace(path, options, progress);
    if (loaded.ok()) {
        rank.model = std::move(loaded.value());
    } else {
        std::error_code error;
        const bool folderWithoutTimeline = std::filesystem::is_directory(path, error) &&
                                           files.HasAnyAnalysisFile() && files.traceView.empty() &&
                                           files.kernelDetails.empty();
        if (!folderWithoutTimeline) return loaded.status();
    }
    rank.analysis = std::make_unique<RankAnalysis>(AnalyzeRank(files, rank.model.get()));
    return rank;
}

LoadedPair LoadRankPair(const std::string& pathA, const std::string& pathB, LoadProgress* progressA,
                        LoadProgress* progressB) {
    LoadOptions half;
    half.threads = std::max(1u, std::thread::hardware_concurrency() / 2);
    LoadedPair pair{Status::Error("not loaded"), Status::Error("not loaded")};
    std::thread second([&] { pair.b = LoadRank(pathB, half, progressB); });
    pair.a = LoadRank(pathA, half, progressA);
    second.join();
    return pair;
}

}  // namespace marey
