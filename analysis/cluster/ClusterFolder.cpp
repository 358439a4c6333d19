#include "cluster/ClusterFolder.hpp"

#include <algorithm>
#include <filesystem>

#include "cluster/ClusterRankFile.hpp"
#include "cluster/ClusterSummaryFile.hpp"
#include "cluster/MindInsightReader.hpp"
#include "cluster/TraceRanks.hpp"

namespace marey {
namespace {

namespace fs = std::filesystem;

constexpr int kMaxDepth = 8;

// msprof-analyze's output: its text files, or the one SQLite file of --export_type db.
bool IsAnalysisOutput(const fs::path& folder) {
    std::error_code error;
    return fs::is_regular_file(folder / "cluster_analysis.db", error) ||
           fs::is_regular_file(folder / "cluster_step_trace_time.csv", error) ||
           fs::is_regular_file(folder / "cluster_communication_matrix.json", error) ||
           fs::is_regular_file(folder / "cluster_communication.json", error);
}

// Profilers name a rank's folder "<host>_<pid>_<time>_ascend_pt" (or _ascend_ms), tools "rank_N…".
bool LooksLikeRankFolder(const std::string& name) {
    const auto endsWith = [&](const char* suffix) {
        const std::string s = suffix;
        return name.size() >= s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0;
    };
    return endsWith("_ascend_pt") || endsWith("_ascend_ms") ||
           RankIdFromFolderName(name).has_value();
}

void Skip(const fs::path& folder, const std::string& reason, ClusterFolders& found) {
    found.skipped.push_back(
        {folder.string(), reason, RankIdFromFolderName(folder.filename().string())});
}

void Walk(const fs::path& folder, int depth, size_t enoughRanks, ClusterFolders& found) {
    if (enoughRanks > 0 && found.RankCount() >= enoughRanks) return;
    if (depth > 0 && IsRankDirectory(folder.string())) {
        auto files = FindRankFiles(folder.string());
        // MindInsight's layout (a rank's profiler folder with its step_trace_raw): the cluster
        // reads its step_trace_raw, hccl_raw and pipeline files (cluster/MindInsightReader).
        if (files.ok() && !files.value().stepTraceRaw.empty())
            found.stepTraceRawFiles.push_back(files.value().stepTraceRaw);
        else if (files.ok())
            found.rankFolders.push_back(std::move(files.value()));
        else
            found.problems.push_back(files.message());
        return;
    }
    if (IsAnalysisOutput(folder)) {
        if (found.analysisOutput.empty()) found.analysisOutput = folder.string();
        return;
    }
    std::error_code error;
    std::vector<fs::path> children;
    found.listedFolders.push_back(folder.string());
    for (fs::directory_iterator it(folder, fs::directory_options::skip_permission_denied, error),
         end;
         !error && it != end; it.increment(error)) {
        std::error_code typeError;
        if (it->is_symlink(typeError)) {  // a link loop must not trap the walk
            const std::string name = it->path().filename().string();
            if (!fs::is_directory(it->path(), typeError)) continue;
            found.repeatable = false;  // what is behind the link decides whether it is skipped
            if (LooksLikeRankFolder(name) || IsRankDirectory(it->path().string()))
                Skip(it->path(), "behind a symbolic link, not followed", found);
            continue;
        }
        if (it->is_directory(typeError))
            children.push_back(it->path());
        else if (IsRankSummaryFileName(it->path().filename().string()))
            found.summaryFiles.push_back(it->path().string());
        else if (RankOfStepTraceRaw(it->path().filename().string()) >= 0)
            found.stepTraceRawFiles.push_back(it->path().string());
        else if (IsRankTraceFileName(it->path().filename().string()))
            found.traceFiles.push_back(it->path().string());
    }
    std::sort(children.begin(), children.end());
    for (const fs::path& child : children) {
        if (depth + 1 > kMaxDepth) {
            found.repeatable = false;
            if (LooksLikeRankFolder(child.filename().string()) || IsRankDirectory(child.string()))
                Skip(child, "more than " + std::to_string(kMaxDepth) + " levels deep, not searched",
                     found);
            continue;
        }
        if (enoughRanks > 0 && found.RankCount() >= enoughRanks) return;
        const size_t before = found.RankCount();
        Walk(child, depth + 1, enoughRanks, found);
        if (found.RankCount() == before && LooksLikeRankFolder(child.filename().string()))
            Skip(child, "no profiler data in it", found);
    }
}

}  // namespace

ClusterFolders FindClusterFolders(const std::string& path, size_t enoughRanks) {
    ClusterFolders found;
    found.root = path;
    std::error_code error;
    if (!fs::is_directory(path, error)) return found;
    Walk(fs::path(path), 0, enoughRanks, found);
    std::sort(found.summaryFiles.begin(), found.summaryFiles.end());
    std::sort(found.stepTraceRawFiles.begin(), found.stepTraceRawFiles.end());
    std::sort(found.traceFiles.begin(), found.traceFiles.end());
    return found;
}

bool IsClusterPath(const std::string& path) {
    if (IsClusterSummaryFile(path)) return true;
    std::error_code error;
    if (!fs::is_directory(path, error)) return false;
    // A rank folder is one document, even when it holds a summary file of its own.
    if (IsRankDirectory(path)) return false;
    // Two ranks decide it: the walk stops there instead of reading every rank folder's id.
    const ClusterFolders found = FindClusterFolders(path, 2);
    return found.RankCount() >= 2 || !found.analysisOutput.empty();
}

}  // namespace marey
