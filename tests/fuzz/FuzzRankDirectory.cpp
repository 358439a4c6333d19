// libFuzzer target: profiler-folder detection and everything a rank folder feeds, from a folder
// built out of the input (see RankFolderInput.hpp).
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>

#include "RankFolderInput.hpp"
#include "load/RankDirectory.hpp"
#include "rank/RankAnalysis.hpp"
#include "report/RankJson.hpp"

using namespace marey;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    static const std::filesystem::path root =
        std::filesystem::temp_directory_path() / ("marey-fuzz-rank-" + std::to_string(::getpid()));
    fuzz::WriteRankFolderInput(data, size, root);
    const bool detected = IsRankDirectory(root.string());
    auto files = FindRankFiles(root.string());
    if (detected != files.ok()) __builtin_trap();  // the two agree
    if (files.ok()) {
        const RankAnalysis analysis = AnalyzeRank(files.value(), nullptr);
        (void)RankAnalysisToJson(analysis);
        (void)RankAnalysisToText(analysis);
    }
    return 0;
}
