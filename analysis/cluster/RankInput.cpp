#include "cluster/RankInput.hpp"

#include <filesystem>

namespace marey {
namespace {

namespace fs = std::filesystem;

uint64_t FileBytes(const std::string& path) {
    std::error_code error;
    if (path.empty()) return 0;
    const uintmax_t size = fs::file_size(path, error);
    return error ? 0 : static_cast<uint64_t>(size);
}

// The files a rank folder's summary reads (the database instead of the text files when it has
// one, as SummarizeRankFolder does).
uint64_t SummaryBytes(const RankFiles& files) {
    if (!files.profilerDb.empty()) return FileBytes(files.profilerDb) + FileBytes(files.analysisDb);
    return FileBytes(files.stepTrace) + FileBytes(files.kernelDetails) +
           FileBytes(files.communication) + FileBytes(files.communicationMatrix);
}

RankInput MakeInput(RankInputKind kind, const std::string& path, uint64_t bytes) {
    std::error_code error;
    fs::path absolute = fs::absolute(path, error).lexically_normal();
    return {kind, path, error ? path : absolute.string(), bytes};
}

constexpr const char* kKindNames[] = {"folder", "summary", "trace", "step_trace_raw"};

}  // namespace

RankInputList ListRankInputs(const ClusterFolders& folders) {
    RankInputList list;
    if (!folders.rankFolders.empty()) {
        list.source = ClusterSource::kRankFolders;
        for (const RankFiles& files : folders.rankFolders)
            list.inputs.push_back(
                MakeInput(RankInputKind::kFolder, files.root, SummaryBytes(files)));
    } else if (!folders.summaryFiles.empty()) {
        list.source = ClusterSource::kRankSummaryFiles;
        for (const std::string& path : folders.summaryFiles)
            list.inputs.push_back(MakeInput(RankInputKind::kSummaryFile, path, FileBytes(path)));
    } else if (!folders.traceFiles.empty()) {
        list.source = ClusterSource::kRankTraces;
        for (const std::string& path : folders.traceFiles)
            list.inputs.push_back(MakeInput(RankInputKind::kTrace, path, FileBytes(path)));
    } else if (!folders.stepTraceRawFiles.empty()) {
        list.source = ClusterSource::kMindInsightStepTraceRaw;
        list.layout = StepLayout::kMindInsight;
        for (const std::string& path : folders.stepTraceRawFiles)
            list.inputs.push_back(MakeInput(RankInputKind::kStepTraceRaw, path, FileBytes(path)));
    }
    return list;
}

const char* RankInputKindName(RankInputKind kind) {
    return kKindNames[static_cast<int>(kind)];
}

bool ParseRankInputKind(const std::string& text, RankInputKind& kind) {
    for (int k = 0; k < 4; ++k)
        if (text == kKindNames[k]) {
            kind = static_cast<RankInputKind>(k);
            return true;
        }
    return false;
}

}  // namespace marey
