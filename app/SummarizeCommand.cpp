#include "SummarizeCommand.hpp"

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "cluster/ClusterFolder.hpp"
#include "cluster/ClusterRankFile.hpp"
#include "load/JsonString.hpp"

namespace marey {

int RunSummarizeCommand(int argc, char** argv) {
    std::vector<std::string> folders;
    std::string outDir = ".";
    for (int i = 2; i < argc; ++i) {
        if (std::strcmp(argv[i], "--out") == 0 && i + 1 < argc)
            outDir = argv[++i];
        else if (argv[i][0] != '-')
            folders.push_back(argv[i]);
        else
            folders.clear(), i = argc;
    }
    if (folders.empty()) {
        std::fprintf(
            stderr,
            "usage: marey summarize RANK_DIR... [--out DIR]\n"
            "  writes DIR/rank_summary_<rank>.json for each rank folder (DIR defaults to .);\n"
            "  a folder of these files opens as a cluster\n");
        return 2;
    }
    int exitCode = 0;
    std::error_code ignored;
    std::filesystem::create_directories(outDir, ignored);
    std::map<int, std::string> written;  // rank id → the folder its summary came from, this run
    for (const std::string& folder : folders) {
        // A cluster folder given whole: each of its rank folders.
        std::vector<RankFiles> ranks = FindClusterFolders(folder).rankFolders;
        if (IsRankDirectory(folder)) {
            auto files = FindRankFiles(folder);
            ranks.clear();
            if (files.ok()) ranks.push_back(std::move(files.value()));
        }
        if (ranks.empty()) {
            std::fprintf(stderr, "%s: error: not a rank folder and holds none\n", folder.c_str());
            exitCode = 1;
        }
        for (const RankFiles& files : ranks) {
            const ClusterRank rank = SummarizeRankFolder(files);
            if (rank.rankId < 0) {
                std::fprintf(stderr,
                             "%s: error: no rank id (no profiler_info_N.json, no rank in the "
                             "folder name); not written\n",
                             files.root.c_str());
                exitCode = 1;
                continue;
            }
            const std::string path = outDir + "/" + RankSummaryFileName(rank.rankId);
            const auto [earlier, first] = written.emplace(rank.rankId, files.root);
            if (!first) {
                std::fprintf(stderr,
                             "%s: error: rank %d again (also %s); %s keeps the first, this one is "
                             "not written\n",
                             files.root.c_str(), rank.rankId, earlier->second.c_str(),
                             path.c_str());
                exitCode = 1;
                continue;
            }
            // The rank's folder as seen from the summary's, so that the summaries can move with
            // the job's folder; the absolute path beside it for when they are copied elsewhere.
            ClusterRank stored = rank;
            const std::filesystem::path absolute =
                std::filesystem::absolute(files.root, ignored).lexically_normal();
            stored.path = absolute
                              .lexically_relative(
                                  std::filesystem::absolute(outDir, ignored).lexically_normal())
                              .string();
            if (stored.path.empty()) stored.path = absolute.string();
            if (!IsValidUtf8(absolute.string()))
                std::fprintf(stderr,
                             "%s: warning: the path is not UTF-8; the summary holds it with U+FFFD "
                             "for the bytes "
                             "that are not, so the cluster opens but this rank's own files cannot "
                             "be opened from it\n",
                             files.root.c_str());
            std::ofstream out(path, std::ios::binary);
            out << WriteRankSummary(stored, absolute.string());
            if (!out) {
                std::fprintf(stderr, "%s: error: cannot write\n", path.c_str());
                exitCode = 1;
                continue;
            }
            std::fprintf(stderr, "%s: rank %d, %zu steps, %zu collectives, %zu problems\n",
                         path.c_str(), rank.rankId, rank.steps.size(), rank.collectives.size(),
                         rank.problems.size());
        }
    }
    return exitCode;
}

}  // namespace marey
