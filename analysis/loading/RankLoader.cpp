#include "loading/RankLoader.hpp"

#include <algorithm>
#include <filesystem>
#include <thread>

#include "import/Importer.hpp"

namespace marey {

Result<std::unique_ptr<TraceModel>> LoadRankTimeline(const std::string& path,
                                                     const LoadOptions& options,
                                                     LoadProgress* progress) {
    auto importer = ChooseImporter(path, options.source, false);
    if (!importer.ok()) return importer.status();
    return importer.value()->loadTimeline(path, options, progress);
}

Result<LoadedRank> LoadRank(const std::string& path, const LoadOptions& options,
                            LoadProgress* progress) {
    auto importer = ChooseImporter(path, options.source, false);
    if (!importer.ok()) return importer.status();
    return importer.value()->loadRank(path, options, progress);
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
