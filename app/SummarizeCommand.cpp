#include "SummarizeCommand.hpp"

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cluster/ClusterFolder.hpp"
#include "cluster/ClusterRankFile.hpp"

namespace marey {

int RunSummarizeCommand(int argc, char** argv) {
    std::vector<std::string> folders;
    std::string outDir = ".";
    for (int i = 2; i < argc; ++i) {
        if (std::strcmp(argv[i], "--out") == 0 && i + 1 < argc) outDir = argv[++i];
        else if (argv[i][0] != '-') folders.push_back(argv[i]);
        else folders.clear(), i = argc;
    }
    if (folders.empty()) {
        std::fprintf(stderr, "usage: marey summarize RANK_DIR... [--out DIR]\n"
                             "  writes DIR/rank_summary_<rank>.json for each rank folder (DIR defaults to .);\n"
                             "  a folder of these files opens as a cluster\n");
        return 2;
    }
    int exitCode = 0;
    std::error_code ignored;
    std::filesystem::create_directories(outDir, ignored);
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
                std::fprintf(stderr, "%s: error: no rank id (no profiler_info_N.json, no rank in the folder name); not written\n",
                             files.root.c_str());
                exitCode = 1;
                continue;
            }
            const std::string path = outDir + "/" + RankSummaryFileName(rank.rankId);
            std::ofstream out(path, std::ios::binary);
            out << WriteRankSummary(rank);
            if (!out) {
                std::fprintf(stderr, "%s: error: cannot write\n", path.c_str());
                exitCode = 1;
                continue;
            }
            std::fprintf(stderr, "%s: rank %d, %zu steps, %zu collectives, %zu problems\n", path.c_str(), rank.rankId,
                         rank.steps.size(), rank.collectives.size(), rank.problems.size());
        }
    }
    return exitCode;
}

}  // namespace marey
