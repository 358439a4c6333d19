#include "SummarizeCommand.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "cluster/ClusterFolder.hpp"
#include "cluster/ClusterRankFile.hpp"
#include "JobProcesses.hpp"
#include "SummarizeJob.hpp"
#include "load/JsonString.hpp"

namespace marey {

namespace {

bool EndsWith(const std::string& text, const std::string& suffix) {
    return text.size() >= suffix.size() &&
           text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Each rank folder's summary as its own file, rank_summary_<rank>.json in 'outDir'.
int WriteRankSummaryFiles(const std::vector<std::string>& folders, const std::string& outDir) {
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
            if (!rank.rankId) {
                std::fprintf(stderr,
                             "%s: error: no rank id (no profiler_info_N.json, no rank in the "
                             "folder name); not written\n",
                             files.root.c_str());
                exitCode = 1;
                continue;
            }
            const std::string path = outDir + "/" + RankSummaryFileName(rank.Id().value());
            const auto [earlier, first] = written.emplace(rank.Id().value(), files.root);
            if (!first) {
                std::fprintf(stderr,
                             "%s: error: rank %d again (also %s); %s keeps the first, this one is "
                             "not written\n",
                             files.root.c_str(), rank.Id().value(), earlier->second.c_str(),
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
                         path.c_str(), rank.Id().value(), rank.steps.size(),
                         rank.collectives.size(), rank.problems.size());
        }
    }
    return exitCode;
}

void PrintUsage() {
    std::fprintf(
        stderr,
        "usage: [mpirun -n P] marey summarize JOB_DIR --out SUMMARY.jsonl [--resume]\n"
        "                                   [--ranks-of-node RULE] [--threads N]\n"
        "       marey summarize RANK_DIR... [--out DIR]\n"
        "  SUMMARY.jsonl: one file for the whole job, gathered from every process of an MPI run\n"
        "  (mpirun, srun) or made by this process alone; it opens as the job's cluster.\n"
        "  --resume keeps the ranks the file already holds and summarises only the others;\n"
        "  --ranks-of-node RULE names the node that holds a rank: {node} in RULE is a host name\n"
        "  and the rule must occur in the rank's path (default: a folder named as the host).\n"
        "  DIR (the default, .) gets rank_summary_<rank>.json for each rank folder; a folder of\n"
        "  these files opens as a cluster too\n");
}

}  // namespace

int RunSummarizeCommand(int argc, char** argv) {
    JobProcesses processes(argc, argv);
    std::vector<std::string> folders;
    std::string outDir = ".";
    SummarizeJobOptions job;
    bool usage = false;
    for (int i = 2; i < argc && !usage; ++i) {
        const std::string arg = argv[i];
        const bool hasValue = i + 1 < argc;
        if (arg == "--out" && hasValue)
            outDir = argv[++i];
        else if (arg == "--resume")
            job.resume = true;
        else if (arg == "--ranks-of-node" && hasValue)
            job.nodeRule = argv[++i];
        else if (arg == "--threads" && hasValue) {
            const std::string count = argv[++i];
            const char* end = count.data() + count.size();
            unsigned threads = 0;
            if (count.empty() || count[0] == '-' ||
                std::from_chars(count.data(), end, threads).ptr != end || threads > 4096) {
                if (processes.IsFirst())
                    std::fprintf(stderr,
                                 "marey summarize: --threads: expected a count from 0 (all cores) "
                                 "to 4096, got \"%s\"\n",
                                 count.c_str());
                return 2;
            }
            job.threads = threads;
        } else if (!arg.empty() && arg[0] != '-') {
            folders.push_back(arg);
        } else {
            if (processes.IsFirst() && arg != "--out" && arg != "--ranks-of-node" &&
                arg != "--threads")
                std::fprintf(stderr, "marey summarize: unknown option \"%s\"\n", arg.c_str());
            usage = true;
        }
    }
    const bool toFile = EndsWith(outDir, ".jsonl");
    if (usage || folders.empty() || (toFile && folders.size() != 1) ||
        (!toFile && (job.resume || !job.nodeRule.empty() || processes.Count() > 1))) {
        if (processes.IsFirst()) {
            PrintUsage();
            if (!toFile && processes.Count() > 1)
                std::fprintf(stderr, "several processes gather into one file: --out FILE.jsonl\n");
        }
        return 2;
    }
    if (!toFile) return WriteRankSummaryFiles(folders, outDir);
    job.job = folders[0];
    job.out = outDir;
    return RunSummarizeJob(job, processes);
}

}  // namespace marey
