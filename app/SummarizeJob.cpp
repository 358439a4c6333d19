#include "SummarizeJob.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <exception>
#include <filesystem>
#include <map>
#include <mutex>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <vector>

#include "cluster/ClusterFolder.hpp"
#include "cluster/ClusterSummaryFile.hpp"
#include "cluster/SummaryPlan.hpp"
#include "loading/RankSummarizer.hpp"

namespace marey {
namespace {

namespace fs = std::filesystem;

// A line for process 0 starts with its kind: a rank's summary or a missing one.
constexpr char kRankLine = 'R', kMissingLine = 'M';

// [SECTION] What each node sees

// The job folder as this node sees it: its ranks, the walk's problems and skipped folders, as a
// summary header (hosts and processes not yet known).
ClusterSummaryHeader DescribeJob(const std::string& job) {
    ClusterFolders folders = FindClusterFolders(job);
    if (IsRankDirectory(job)) {
        folders = ClusterFolders{};
        folders.root = job;
        auto files = FindRankFiles(job);
        if (files.ok())
            folders.rankFolders.push_back(std::move(files.value()));
        else
            folders.problems.push_back(files.message());
    }
    ClusterSummaryHeader header;
    header.job = job;
    header.ranks = ListRankInputs(folders);
    header.problems = folders.problems;
    header.skipped = folders.skipped;
    return header;
}

// What identifies the job folder a node sees: the same on every node of a shared file system (its
// inode, times and top-level names), different on nodes that each hold a folder of that path on
// their own disks. Empty when the folder cannot be read.
std::string JobFingerprint(const std::string& job) {
    struct stat info {};
    if (stat(job.c_str(), &info) != 0) return {};
    std::vector<std::string> names;
    std::error_code error;
    for (fs::directory_iterator it(job, error), end; !error && it != end; it.increment(error))
        names.push_back(it->path().filename().string());
    std::sort(names.begin(), names.end());
    std::string text = std::to_string(info.st_ino) + " " + std::to_string(info.st_mtim.tv_sec) +
                       "." + std::to_string(info.st_mtim.tv_nsec) + " " +
                       std::to_string(info.st_ctim.tv_sec) + "." +
                       std::to_string(info.st_ctim.tv_nsec);
    for (const std::string& name : names) text += "/" + name;
    return std::to_string(std::hash<std::string>{}(text)) + "-" + std::to_string(names.size());
}

// From every process's "host\nfingerprint" (a fingerprint from node leaders only): which processes
// walk the job folder ('1' or '0' per process), one per distinct folder, so that a shared file
// system is walked once and not once per node; and for each walker the hosts that see its folder.
std::string ChooseWalkers(const std::vector<std::string>& texts,
                          std::vector<std::vector<std::string>>& hostsSeeing) {
    std::string walkers(texts.size(), '0');
    hostsSeeing.assign(texts.size(), {});
    std::map<std::string, size_t> walkerOf;  // fingerprint → the process that walks it
    for (size_t p = 0; p < texts.size(); ++p) {
        const size_t newline = texts[p].find('\n');
        const std::string host = texts[p].substr(0, newline);
        const std::string print = newline == std::string::npos ? "" : texts[p].substr(newline + 1);
        if (print.empty()) continue;
        const auto [at, first] = walkerOf.emplace(print, p);
        if (first) walkers[p] = '1';
        std::vector<std::string>& hosts = hostsSeeing[at->second];
        if (std::find(hosts.begin(), hosts.end(), host) == hosts.end()) hosts.push_back(host);
    }
    return walkers;
}

// Process 0's view of the job from every walker's: the inputs of the best kind any node has (as
// the cluster loader chooses), in process 0's order first, each with the nodes that see it.
ClusterSummaryHeader MergeNodeViews(const std::vector<std::string>& texts,
                                    const std::vector<std::vector<std::string>>& hostsSeeing,
                                    std::vector<std::vector<std::string>>& seenBy,
                                    std::vector<std::string>& problems) {
    ClusterSummaryHeader merged;
    std::vector<std::pair<std::vector<std::string>, ClusterSummaryHeader>> views;  // hosts, view
    for (size_t p = 0; p < texts.size(); ++p) {
        const size_t newline = texts[p].find('\n');
        merged.hosts.push_back(texts[p].substr(0, newline));
        if (newline + 1 >= texts[p].size()) continue;  // not a walker
        auto view = ReadSummaryHeader(std::string_view(texts[p]).substr(newline + 1),
                                      "the view of process " + std::to_string(p));
        if (!view.ok()) {
            problems.push_back(view.message());
            continue;
        }
        views.emplace_back(hostsSeeing[p], std::move(view.value()));
    }
    int bestKind = 4;
    for (const auto& [hosts, view] : views)
        if (!view.ranks.inputs.empty())
            bestKind = std::min(bestKind, static_cast<int>(view.ranks.inputs[0].kind));
    std::unordered_map<std::string, size_t> indexOf;
    for (auto& [hosts, view] : views) {
        if (merged.job.empty()) merged.job = view.job;
        for (std::string& problem : view.problems)
            if (std::find(merged.problems.begin(), merged.problems.end(), problem) ==
                merged.problems.end())
                merged.problems.push_back(std::move(problem));
        for (SkippedFolder& folder : view.skipped)
            if (std::none_of(merged.skipped.begin(), merged.skipped.end(),
                             [&](const SkippedFolder& f) { return f.path == folder.path; }))
                merged.skipped.push_back(std::move(folder));
        if (view.ranks.inputs.empty() || static_cast<int>(view.ranks.inputs[0].kind) != bestKind)
            continue;
        if (merged.ranks.source == ClusterSource::kNone) merged.ranks.source = view.ranks.source;
        merged.ranks.layout = view.ranks.layout;
        for (RankInput& input : view.ranks.inputs) {
            const auto [at, added] = indexOf.emplace(input.absolute, merged.ranks.inputs.size());
            if (added) {
                merged.ranks.inputs.push_back(std::move(input));
                seenBy.emplace_back();
            }
            for (const std::string& host : hosts)
                if (std::find(seenBy[at->second].begin(), seenBy[at->second].end(), host) ==
                    seenBy[at->second].end())
                    seenBy[at->second].push_back(host);
        }
    }
    return merged;
}

// [SECTION] The plan, on process 0

struct Plan {
    ClusterSummaryHeader header;
    std::vector<std::string> keptLines;  // from the earlier run (--resume), whole lines
    size_t keptRanks = 0;
};

// Which process summarises which input; with --resume, the inputs the file already holds a rank
// line for are kept (process -1) and not summarised again.
Result<Plan> MakePlan(const SummarizeJobOptions& options, const std::vector<std::string>& texts,
                      const std::vector<std::vector<std::string>>& hostsSeeing,
                      std::vector<std::string>& problems) {
    std::vector<std::vector<std::string>> seenBy;
    Plan plan;
    plan.header = MergeNodeViews(texts, hostsSeeing, seenBy, problems);
    if (plan.header.ranks.inputs.empty())
        return Status::Error(options.job + ": error: no ranks: no rank folders, rank traces, " +
                             "rank_summary_N.json or step_trace_raw files in it");
    std::vector<bool> kept(plan.header.ranks.inputs.size(), false);
    if (options.resume && fs::exists(options.out)) {
        auto earlier = ReadClusterSummary(options.out, 1, true);
        if (!earlier.ok()) return Status::Error(earlier.message() + "; cannot resume from it");
        std::unordered_map<std::string, size_t> lineOf;
        const ClusterSummaryContents& old = earlier.value();
        for (size_t i = 0; i < old.header.ranks.inputs.size(); ++i)
            if (old.rankOfInput[i] >= 0 &&
                !old.ranks[static_cast<size_t>(old.rankOfInput[i])].unreadable)
                lineOf.emplace(old.header.ranks.inputs[i].absolute, i);
        for (size_t i = 0; i < kept.size(); ++i)
            if (const auto found = lineOf.find(plan.header.ranks.inputs[i].absolute);
                found != lineOf.end()) {
                kept[i] = true;
                plan.keptLines.push_back(old.lines[found->second]);
            }
        plan.keptRanks = plan.keptLines.size();
    }
    std::vector<PlanInput> todo;
    std::vector<size_t> todoIndex;
    for (size_t i = 0; i < kept.size(); ++i)
        if (!kept[i]) {
            const RankInput& input = plan.header.ranks.inputs[i];
            todo.push_back({input.absolute, input.bytes, seenBy[i]});
            todoIndex.push_back(i);
        }
    std::vector<PlanProcess> processes;
    for (const std::string& host : plan.header.hosts) processes.push_back({host});
    const std::vector<int> owner = PlanSummaries(todo, processes, options.nodeRule);
    plan.header.process.assign(kept.size(), -1);
    for (size_t t = 0; t < todo.size(); ++t) plan.header.process[todoIndex[t]] = owner[t];
    return plan;
}

// [SECTION] Summarising a share

// Lines made by the worker threads, taken by the thread that talks to the other processes.
class LineQueue {
public:
    void Push(std::string line) {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_lines.push_back(std::move(line));
        m_ready.notify_one();
    }
    void Finish() {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_finished = true;
        m_ready.notify_all();
    }
    // A line if one is ready, waiting at most 'wait'; false when none came.
    bool Pop(std::string& line, std::chrono::milliseconds wait) {
        std::unique_lock<std::mutex> lock(m_mutex);
        m_ready.wait_for(lock, wait, [&] { return !m_lines.empty() || m_finished; });
        if (m_lines.empty()) return false;
        line = std::move(m_lines.front());
        m_lines.pop_front();
        return true;
    }
    bool Drained() {
        std::lock_guard<std::mutex> lock(m_mutex);
        return m_finished && m_lines.empty();
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_ready;
    std::deque<std::string> m_lines;
    bool m_finished = false;
};

std::string SummaryLine(const RankInput& input, const std::string& summaryFolder) {
    try {
        const ClusterRank rank = SummarizeRankInput(input);
        if (rank.unreadable) return kMissingLine + WriteSummaryMissingLine(input, rank.problems);
        // The rank id and input before the line, so that process 0 refuses a second line of one
        // id without parsing the JSON: "R<id> <bytes of the path> <path><line>".
        // A rank of no id writes the line format's -1; process 0 numbers it after the others.
        return kRankLine + std::to_string(ValueOr(rank.rankId, -1)) + ' ' +
               std::to_string(input.path.size()) + ' ' + input.path +
               WriteSummaryRankLine(rank, input, summaryFolder);
    } catch (const std::exception& error) {
        return kMissingLine +
               WriteSummaryMissingLine(
                   input, {input.path + ": error: summarising it failed: " + error.what()});
    }
}

// Summarises 'share' on 'threads' threads into 'queue', which is finished at the end.
std::thread StartSummarizing(const std::vector<RankInput>& share, unsigned threads,
                             const std::string& summaryFolder, LineQueue& queue) {
    return std::thread([&share, threads, summaryFolder, &queue] {
        std::atomic<size_t> next{0};
        std::vector<std::thread> workers;
        for (unsigned t = 0; t < std::max(1u, threads); ++t)
            workers.emplace_back([&] {
                for (size_t i = next++; i < share.size(); i = next++)
                    queue.Push(SummaryLine(share[i], summaryFolder));
            });
        for (std::thread& worker : workers) worker.join();
        queue.Finish();
    });
}

// [SECTION] Gathering on process 0

struct Gathered {
    size_t ranks = 0, missing = 0, repeated = 0;
    uint64_t rankBytes = 0;
};

// A rank line's id and input path, and the summary line after them (see SummaryLine); false when
// the line is not of that form.
bool SplitRankLine(std::string_view line, int& rank, std::string_view& path,
                   std::string_view& summary) {
    const size_t idEnd = line.find(' ', 1);
    if (line.empty() || line[0] != kRankLine || idEnd == std::string_view::npos) return false;
    const size_t sizeEnd = line.find(' ', idEnd + 1);
    if (sizeEnd == std::string_view::npos) return false;
    const std::string id(line.substr(1, idEnd - 1)),
        size(line.substr(idEnd + 1, sizeEnd - idEnd - 1));
    char* end = nullptr;
    rank = static_cast<int>(std::strtol(id.c_str(), &end, 10));
    const size_t pathBytes = std::strtoul(size.c_str(), &end, 10);
    if (pathBytes > line.size() - sizeEnd - 1) return false;
    path = line.substr(sizeEnd + 1, pathBytes);
    summary = line.substr(sizeEnd + 1 + pathBytes);
    return true;
}

// Writes this process's lines and every other process's as they arrive, until all have sent
// their last; each line flushed whole, so that a job that dies leaves the ones before readable.
// A second line of a rank id already written is refused, as the summary of rank folders does:
// opening the summary would keep one and drop the other.
Gathered GatherLines(JobProcesses& processes, LineQueue& queue, std::FILE* out,
                     const std::string& outPath) {
    Gathered gathered;
    std::map<int, std::string> written;  // rank id → its input
    const auto write = [&](const std::string& line) {
        if (line.size() < 2) return;
        int rank = -1;
        std::string_view path, summary;
        if (line[0] != kRankLine || !SplitRankLine(line, rank, path, summary)) {
            std::fwrite(line.data() + 1, 1, line.size() - 1, out);
            std::fflush(out);
            ++gathered.missing;
            return;
        }
        const auto [earlier, first] = written.emplace(rank, std::string(path));
        if (!first) {
            std::fprintf(stderr,
                         "%.*s: error: rank %d again (also %s); %s keeps the first, this one is "
                         "not written\n",
                         static_cast<int>(path.size()), path.data(), rank, earlier->second.c_str(),
                         outPath.c_str());
            ++gathered.repeated;
            return;
        }
        std::fwrite(summary.data(), 1, summary.size(), out);
        std::fflush(out);
        ++gathered.ranks, gathered.rankBytes += summary.size();
    };
    int sending = processes.Count() - 1;
    while (sending > 0 || !queue.Drained()) {
        bool any = false;
        std::string text;
        int from = 0;
        bool last = false;
        while (processes.TryReceive(text, from, last)) {
            write(text);
            sending -= last ? 1 : 0;
            any = true;
        }
        if (queue.Pop(text, std::chrono::milliseconds(any ? 0 : 1))) write(text);
    }
    return gathered;
}

}  // namespace

// [SECTION] The job

int RunSummarizeJob(const SummarizeJobOptions& options, JobProcesses& processes) {
    const auto started = std::chrono::steady_clock::now();
    const std::vector<std::string> prints = processes.GatherOnFirst(
        processes.Host() + "\n" + (processes.LeadsNode() ? JobFingerprint(options.job) : ""));
    std::vector<std::vector<std::string>> hostsSeeing;
    const std::string walkers =
        processes.BroadcastFromFirst(processes.IsFirst() ? ChooseWalkers(prints, hostsSeeing) : "");
    std::string mine = processes.Host() + "\n";
    double listSeconds = 0;  // this process's walk of the job folder
    if (walkers.size() > static_cast<size_t>(processes.Index()) &&
        walkers[static_cast<size_t>(processes.Index())] == '1') {
        const auto listing = std::chrono::steady_clock::now();
        mine += WriteSummaryHeader(DescribeJob(options.job));
        listSeconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - listing).count();
    }
    const std::vector<std::string> views = processes.GatherOnFirst(mine);
    std::string planText;  // empty: nothing to do, every process ends
    std::vector<std::string> problems;
    std::FILE* out = nullptr;
    Plan plan;
    std::error_code error;
    const std::string summaryFolder =
        fs::absolute(fs::path(options.out).parent_path(), error).lexically_normal().string();
    if (processes.IsFirst()) {
        auto made = MakePlan(options, views, hostsSeeing, problems);
        for (const std::string& problem : problems) std::fprintf(stderr, "%s\n", problem.c_str());
        if (!made.ok()) {
            std::fprintf(stderr, "%s\n", made.message().c_str());
        } else if (fs::create_directories(summaryFolder, error),
                   !(out = std::fopen(options.out.c_str(), "wb"))) {
            std::fprintf(stderr, "%s: error: cannot write the summary here\n", options.out.c_str());
        } else {
            plan = std::move(made.value());
            planText = WriteSummaryHeader(plan.header);
            std::fwrite(planText.data(), 1, planText.size(), out);
            for (const std::string& line : plan.keptLines)
                std::fwrite(line.data(), 1, line.size(), out);
            std::fflush(out);
        }
    }
    planText = processes.BroadcastFromFirst(planText);
    if (planText.empty()) return 2;
    if (!processes.IsFirst()) {
        auto header = ReadSummaryHeader(planText, "the plan");
        if (!header.ok()) processes.Abort(2);
        plan.header = std::move(header.value());
    }
    std::vector<RankInput> share;
    for (size_t i = 0; i < plan.header.ranks.inputs.size(); ++i)
        if (plan.header.process[i] == processes.Index())
            share.push_back(plan.header.ranks.inputs[i]);
    const long onNode =
        std::count(plan.header.hosts.begin(), plan.header.hosts.end(), processes.Host());
    const unsigned threads = options.threads
                                 ? options.threads
                                 : std::max(1u, std::thread::hardware_concurrency() /
                                                    static_cast<unsigned>(std::max(1L, onNode)));
    LineQueue queue;
    std::thread summarizing = StartSummarizing(share, threads, summaryFolder, queue);
    if (!processes.IsFirst()) {
        for (std::string line; !queue.Drained();)
            if (queue.Pop(line, std::chrono::milliseconds(50))) processes.SendToFirst(line, false);
        processes.SendToFirst("", true);
        summarizing.join();
        return 0;
    }
    const Gathered gathered = GatherLines(processes, queue, out, options.out);
    summarizing.join();
    const std::string end = WriteSummaryEndLine(gathered.ranks + plan.keptRanks, gathered.missing);
    std::fwrite(end.data(), 1, end.size(), out);
    const bool written = std::fclose(out) == 0;
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::fprintf(stderr,
                 "%s: %zu ranks summarised by %d process%s in %.2f s (the job folder listed in "
                 "%.2f s; %zu kept from the earlier run), %zu missing; %.0f bytes gathered per "
                 "rank\n",
                 options.out.c_str(), gathered.ranks, processes.Count(),
                 processes.Count() == 1 ? "" : "es", seconds, listSeconds, plan.keptRanks,
                 gathered.missing,
                 gathered.ranks
                     ? static_cast<double>(gathered.rankBytes) / static_cast<double>(gathered.ranks)
                     : 0.0);
    if (!written)
        std::fprintf(stderr, "%s: error: cannot write the summary\n", options.out.c_str());
    return written && gathered.missing == 0 && gathered.repeated == 0 ? 0 : 1;
}

}  // namespace marey
