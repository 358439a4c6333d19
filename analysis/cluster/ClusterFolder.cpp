#include "cluster/ClusterFolder.hpp"

#include <algorithm>
#include <filesystem>

#include "cluster/ClusterRankFile.hpp"
#include "cluster/MindInsightReader.hpp"

namespace marey {
namespace {

namespace fs = std::filesystem;

constexpr int kMaxDepth = 8;

bool IsAnalysisOutput(const fs::path& folder) {
    std::error_code error;
    return fs::is_regular_file(folder / "cluster_step_trace_time.csv", error) ||
           fs::is_regular_file(folder / "cluster_communication_matrix.json", error) ||
           fs::is_regular_file(folder / "cluster_communication.json", error);
}

void Walk(const fs::path& folder, int depth, ClusterFolders& found) {
    if (depth > 0 && IsRankDirectory(folder.string())) {
        auto files = FindRankFiles(folder.string());
        if (files.ok()) found.rankFolders.push_back(std::move(files.value()));
        else found.problems.push_back(files.message());
        return;
    }
    if (IsAnalysisOutput(folder)) {
        if (found.analysisOutput.empty()) found.analysisOutput = folder.string();
        return;
    }
    if (depth >= kMaxDepth) return;
    std::error_code error;
    std::vector<fs::path> children;
    for (fs::directory_iterator it(folder, fs::directory_options::skip_permission_denied, error), end; !error && it != end;
         it.increment(error)) {
        std::error_code typeError;
        if (it->is_symlink(typeError)) continue;  // a link loop must not trap the walk
        if (it->is_directory(typeError)) children.push_back(it->path());
        else if (IsRankSummaryFileName(it->path().filename().string())) found.summaryFiles.push_back(it->path().string());
        else if (RankOfStepTraceRaw(it->path().filename().string()) >= 0) found.stepTraceRawFiles.push_back(it->path().string());
    }
    std::sort(children.begin(), children.end());
    for (const fs::path& child : children) Walk(child, depth + 1, found);
}

}  // namespace

ClusterFolders FindClusterFolders(const std::string& path) {
    ClusterFolders found;
    found.root = path;
    std::error_code error;
    if (!fs::is_directory(path, error)) return found;
    Walk(fs::path(path), 0, found);
    std::sort(found.summaryFiles.begin(), found.summaryFiles.end());
    std::sort(found.stepTraceRawFiles.begin(), found.stepTraceRawFiles.end());
    return found;
}

bool IsClusterDirectory(const std::string& path) {
    std::error_code error;
    if (!fs::is_directory(path, error)) return false;
    // A rank folder is one document, even when it holds a summary file of its own.
    if (IsRankDirectory(path)) return false;
    const ClusterFolders found = FindClusterFolders(path);
    return found.RankCount() >= 2 || !found.analysisOutput.empty();
}

}  // namespace marey
