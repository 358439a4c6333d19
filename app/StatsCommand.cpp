#include "StatsCommand.hpp"

#include "CompareCommand.hpp"

#include <charconv>
#include <cstdio>
#include <algorithm>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "cluster/Cluster.hpp"
#include "loading/ClusterLoader.hpp"
#include "cluster/ClusterFolder.hpp"
#include "cluster/ClusterJson.hpp"
#include "load/RankDirectory.hpp"
#include "import/Importer.hpp"
#include "loading/RankLoader.hpp"
#include "import/chrome_json/TraceLoader.hpp"
#include "marey/MareyJson.hpp"
#include "marey/PipelineJson.hpp"
#include "rank/RankAnalysis.hpp"
#include "rank/TraceSummary.hpp"
#include "compare/CheckRules.hpp"
#include "path/CriticalPath.hpp"
#include "report/CriticalPathJson.hpp"
#include "report/TraceAnalysesJson.hpp"
#include "trace/HtaCompatible.hpp"
#include "trace/TraceAnalyses.hpp"
#include "report/RankJson.hpp"
#include "report/SummaryJson.hpp"

namespace marey {
namespace {

// Reads the duration after an option ("30us", "1ms") into 'ns'; false after saying why.
bool ReadDurationOption(const char* option, const char* text, TimeNs* ns) {
    if (!ParseCheckDuration(text, ns) && *ns >= 0) return true;
    std::fprintf(stderr, "marey stats: %s: expected a duration such as 30us or 1.5ms, got \"%s\"\n",
                 option, text);
    return false;
}

// Adds "analyses" (the device analyses of the trace alone) to a JSON object's text.
std::string WithKey(const std::string& objectText, const std::string& keyAndValue) {
    if (objectText.empty()) return "{" + keyAndValue + "}\n";
    return objectText.substr(0, objectText.rfind('}')) + ", " + keyAndValue + "}\n";
}

// The critical path of each rank's longest step (of the whole trace without steps), as JSON.
std::string CriticalPathsJson(const TraceModel& model, const TraceAnalyses& analyses) {
    std::string out = "[";
    for (const RankTraceAnalysis& rank : analyses.ranks) {
        if (out.size() > 1) out += ", ";
        out +=
            CriticalPathToJson(model, *CriticalPathOfStep(model, analyses, rank.group), rank.rank);
    }
    return out + "]";
}

std::string CriticalPathsText(const TraceModel& model, const TraceAnalyses& analyses) {
    std::string out;
    for (const RankTraceAnalysis& rank : analyses.ranks) {
        if (analyses.ranks.size() > 1) out += "rank " + std::to_string(rank.rank) + ": ";
        out += CriticalPathToText(model, *CriticalPathOfStep(model, analyses, rank.group),
                                  model.firstNs, 5);
    }
    return out;
}

// The trace's summary text with its device analyses added: marey's, or HTA 0.5's.
// 'computed': the analyses a rank's load already made, reused when made with the same cut-offs.
std::string WithAnalyses(const std::string& summary, const TraceModel& model, bool json,
                         bool htaCompatible, const TraceAnalysisOptions& options,
                         const TraceAnalyses* computed) {
    if (htaCompatible) {
        HtaOptions hta;
        hta.kernelWaitBelowNs = options.kernelWaitBelowNs;
        hta.cutoffs = options.cutoffs;
        const HtaAnalysis analysis = AnalyzeTraceAsHta(model, hta);
        return json ? WithKey(summary, "\"analyses\": " + HtaAnalysisToJson(analysis))
                    : summary + HtaAnalysisToText(analysis);
    }
    const bool reusable = computed &&
                          computed->options.kernelWaitBelowNs == options.kernelWaitBelowNs &&
                          computed->options.cutoffs.runtimeNs == options.cutoffs.runtimeNs &&
                          computed->options.cutoffs.launchDelayNs == options.cutoffs.launchDelayNs;
    std::optional<TraceAnalyses> made;
    if (!reusable) made = AnalyzeTrace(model, options);
    const TraceAnalyses& analyses = reusable ? *computed : *made;
    return json ? WithKey(WithKey(summary, "\"analyses\": " + TraceAnalysesToJson(analyses)),
                          "\"critical_path\": " + CriticalPathsJson(model, analyses))
                : summary + TraceAnalysesToText(analyses) + CriticalPathsText(model, analyses);
}

void Usage() {
    std::fprintf(stderr,
                 "usage: marey stats PATH [--json] [--top N] [--source text|db] [--no-cache]\n"
                 "                   [--step-range NVTX_RANGE_NAME]\n"
                 "                   [--idle-threshold 30us] [--runtime-cutoff 50us]\n"
                 "                   [--launch-delay-cutoff 100us] [--hta-compatible]\n"
                 "       marey stats --compare A B [--json]\n");
}

// The summary of the cluster at 'path': its views' figures and, with --json, the Marey key.
// The cluster cache is written (for the window) but only read without --json, whose Marey key
// needs every rank's kernel table, which the cache does not hold.
int PrintClusterStats(const std::string& path, bool json, const LoadOptions& options) {
    // The rank's kernel tables are kept from the one read: the "marey" key needs them again.
    RankReadOptions readOptions;
    readOptions.keepKernelTable = json;
    readOptions.source = options.source;
    readOptions.stepRange = options.stepRange;
    const IndexCacheOptions& cache = options.cache;
    const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    auto cluster = LoadCluster(path, threads, nullptr, readOptions, cache);
    if (!cluster.ok()) {
        std::fprintf(stderr, "%s\n", cluster.message().c_str());
        return 1;
    }
    const std::string text =
        json ? "{\"cluster\": " + ClusterToJson(cluster.value()) +
                   ",\n \"marey\": " + MareyToJson(cluster.value(), threads) +
                   ",\n \"pipeline\": " + PipelineToJson(cluster.value(), threads) + "}\n"
             : ClusterToText(cluster.value());
    std::fwrite(text.data(), 1, text.size(), stdout);
    return 0;
}

}  // namespace

int RunStatsCommand(int argc, char** argv) {
    if (argc >= 3 && std::strcmp(argv[2], "--compare") == 0) return RunCompareCommand(argc, argv);
    std::string path;
    bool json = false, htaCompatible = false;
    bool noCache = false;
    int top = 20;
    LoadOptions options;
    TraceAnalysisOptions analysisOptions;
    analysisOptions.threads = std::max(1u, std::thread::hardware_concurrency());
    for (int i = 2; i < argc; ++i) {
        if (std::strcmp(argv[i], "--json") == 0) {
            json = true;
        } else if (std::strcmp(argv[i], "--hta-compatible") == 0) {
            htaCompatible = true;
        } else if (std::strcmp(argv[i], "--no-cache") == 0) {
            noCache = true;
        } else if (std::strcmp(argv[i], "--idle-threshold") == 0 && i + 1 < argc) {
            if (!ReadDurationOption(argv[i], argv[i + 1], &analysisOptions.kernelWaitBelowNs))
                return 2;
            ++i;
        } else if (std::strcmp(argv[i], "--runtime-cutoff") == 0 && i + 1 < argc) {
            if (!ReadDurationOption(argv[i], argv[i + 1], &analysisOptions.cutoffs.runtimeNs))
                return 2;
            ++i;
        } else if (std::strcmp(argv[i], "--launch-delay-cutoff") == 0 && i + 1 < argc) {
            if (!ReadDurationOption(argv[i], argv[i + 1], &analysisOptions.cutoffs.launchDelayNs))
                return 2;
            ++i;
        } else if (std::strcmp(argv[i], "--step-range") == 0 && i + 1 < argc) {
            options.stepRange = argv[++i];
            if (options.stepRange.empty()) {
                std::fprintf(stderr, "marey stats: --step-range: expected an NVTX range's name\n");
                return 2;
            }
        } else if (std::strcmp(argv[i], "--source") == 0 && i + 1 < argc) {
            const char* source = argv[++i];
            const std::optional<RankSource> parsed = ParseRankSource(source);
            if (!parsed) {
                std::fprintf(stderr, "marey stats: --source: expected text or db, got \"%s\"\n",
                             source);
                return 2;
            }
            options.source = *parsed;
        } else if (std::strcmp(argv[i], "--top") == 0 && i + 1 < argc) {
            const std::string count = argv[++i];
            const char* end = count.data() + count.size();
            if (std::from_chars(count.data(), end, top).ptr != end || top < 1) {
                std::fprintf(stderr,
                             "marey stats: --top: expected a count of at least 1, got \"%s\"\n",
                             count.c_str());
                return 2;
            }
        } else if (path.empty() && argv[i][0] != '-') {
            path = argv[i];
        } else {
            std::fprintf(stderr, "marey stats: %s \"%s\"\n",
                         argv[i][0] == '-' ? "unknown option" : "unexpected argument", argv[i]);
            return 2;
        }
    }
    if (path.empty()) return Usage(), 2;
    Result<IndexCacheOptions> cache = IndexCacheFromEnvironment(noCache);
    if (!cache.ok()) {
        std::fprintf(stderr, "marey stats: %s\n", cache.message().c_str());
        return 2;
    }
    options.cache = std::move(cache.value());
    // A cluster folder: the cluster's summary, under its own key.
    const auto importer = ChooseImporter(path, options.source);
    if (importer.ok() && importer.value()->kind == SourceKind::kCluster)
        return PrintClusterStats(path, json, options);
    // Whatever the path, the rank as the window opens it (LoadRank): its summaries (overview,
    // operators, steps, communication) join the trace's, so that every figure the window shows
    // is here with the same value; a trace that came alone has them from its device activities.
    LoadedRank rank;
    {
        auto loaded = LoadRank(path, options);
        if (!loaded.ok()) {
            std::fprintf(stderr, "%s\n", loaded.message().c_str());
            return 1;
        }
        rank = std::move(loaded.value());
    }
    const bool isRank = rank.analysis != nullptr;
    std::string text;
    if (rank.model) {
        const TraceSummary summary =
            Summarize(*rank.model, top > 0 ? static_cast<size_t>(top) : 20);
        text = WithAnalyses(
            json ? SummaryToJson(*rank.model, summary) : SummaryToText(*rank.model, summary),
            *rank.model, json, htaCompatible, analysisOptions,
            rank.analysis ? rank.analysis->trace.get() : nullptr);
    }
    if (isRank) {
        if (json) {
            // The trace summary's object gets two more keys.
            text = WithKey(text, "\"source\": " + SourceToJson(rank) +
                                     ", \"rank\": " + RankAnalysisToJson(*rank.analysis));
        } else {
            text += SourceToText(rank) + RankAnalysisToText(*rank.analysis);
        }
    }
    std::fwrite(text.data(), 1, text.size(), stdout);
    return 0;
}

}  // namespace marey
