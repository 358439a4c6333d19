#include "CriticalPathCommand.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <thread>

#include "compare/CheckRules.hpp"
#include "core/TextFormat.hpp"
#include "loading/RankLoader.hpp"
#include "loading/RanksTimeline.hpp"
#include "path/CriticalPath.hpp"
#include "path/RanksPath.hpp"
#include "rank/RankAnalysis.hpp"
#include "report/CriticalPathJson.hpp"

namespace marey {
namespace {

void Usage() {
    std::fprintf(
        stderr,
        "usage: marey critical-path PATH [--json] [--source text|db] [--rank N]\n"
        "           [--step LABEL | --range FROM,TO | --annotation NAME [--instance K]]\n"
        "  FROM and TO are times since the trace's start (\"43.3s\", \"120ms\");\n"
        "  --instance counts the annotation's slices from 0 by start (default 0).\n"
        "  Without a window: the rank's longest step, or the whole trace without steps.\n"
        "       marey critical-path RANK_A RANK_B ... [--json] [--step LABEL]\n"
        "       marey critical-path CLUSTER --ranks 0-3,7 [--json] [--step LABEL]\n"
        "  several traces or rank folders: one step's path across the ranks (their clocks\n"
        "  aligned on it), jumping at each collective to the rank that arrived last.\n");
}

struct Window {
    std::optional<std::string> step;
    std::optional<std::pair<TimeNs, TimeNs>> range;  // since the trace's start
    std::string annotation;
    uint64_t instance = 0;
    bool instanceGiven = false;
    std::optional<std::string> ranks;  // rank ids of a cluster folder ("0-3,7")
};

// Reads "1.2s,1.5s"; nullopt, or what is wrong with it.
std::optional<std::string> ParseRange(const char* text, std::pair<TimeNs, TimeNs>* range) {
    const std::string_view all = text;
    const size_t comma = all.find(',');
    if (comma == std::string_view::npos) return "expected FROM,TO, two times separated by a comma";
    for (const auto& [part, ns] : {std::pair{all.substr(0, comma), &range->first},
                                   std::pair{all.substr(comma + 1), &range->second}})
        if (const auto error = ParseCheckDuration(part, ns)) return error->message;
    if (range->first < 0) return "FROM is before the trace's start";
    if (range->first >= range->second) return "expected FROM before TO";
    return std::nullopt;
}

// The 'instance'-th slice named 'name' on the host threads of 'group', by start.
std::optional<std::pair<TimeNs, TimeNs>> AnnotationSpan(const TraceModel& model, uint32_t group,
                                                        const std::string& name,
                                                        uint64_t instance) {
    const StringId id = model.strings.Find(name);
    if (!id) return std::nullopt;
    std::vector<std::pair<TimeNs, TimeNs>> spans;
    for (uint32_t t = 0; t < model.tracks.size(); ++t) {
        const Track& track = model.tracks[t];
        if (track.role != TrackRole::kHostThread && track.role != TrackRole::kNpuLaunchThread)
            continue;
        if (model.GroupOf(t) != group) continue;
        for (const Row& row : track.rows)
            for (size_t i = 0; i < row.size(); ++i)
                if (row.name[i] == id) spans.emplace_back(row.start[i], row.end[i]);
    }
    std::sort(spans.begin(), spans.end());
    if (instance >= spans.size()) return std::nullopt;
    return spans[instance];
}

// Reads the options after PATH; false after saying what is wrong.
bool ParseOptions(int argc, char** argv, std::vector<std::string>& paths, bool& json,
                  LoadOptions& options, std::optional<int64_t>& rank, Window& window) {
    for (int i = 2; i < argc; ++i) {
        const std::string_view arg = argv[i];
        const bool hasValue = i + 1 < argc;
        if (arg == "--json") {
            json = true;
        } else if (arg == "--source" && hasValue) {
            const std::optional<RankSource> parsed = ParseRankSource(argv[++i]);
            if (!parsed) {
                std::fprintf(stderr,
                             "marey critical-path: --source: expected text or db, got \"%s\"\n",
                             argv[i]);
                return false;
            }
            options.source = *parsed;
        } else if (arg == "--rank" && hasValue) {
            const std::string_view text = argv[++i];
            int64_t number = 0;
            const auto [end, error] =
                std::from_chars(text.data(), text.data() + text.size(), number);
            if (error != std::errc() || end != text.data() + text.size() || number < 0) {
                std::fprintf(stderr,
                             "marey critical-path: --rank: expected a rank number, got \"%s\"\n",
                             argv[i]);
                return false;
            }
            rank = number;
        } else if (arg == "--ranks" && hasValue) {
            window.ranks = argv[++i];
        } else if (arg == "--step" && hasValue) {
            window.step = argv[++i];
        } else if (arg == "--range" && hasValue) {
            std::pair<TimeNs, TimeNs> range;
            if (const auto error = ParseRange(argv[++i], &range)) {
                std::fprintf(stderr,
                             "marey critical-path: --range \"%s\": %s (times since the trace's "
                             "start, as in 1.2s,1.5s)\n",
                             argv[i], error->c_str());
                return false;
            }
            window.range = range;
        } else if (arg == "--annotation" && hasValue) {
            window.annotation = argv[++i];
        } else if (arg == "--instance" && hasValue) {
            const std::string_view text = argv[++i];
            const auto [end, error] =
                std::from_chars(text.data(), text.data() + text.size(), window.instance);
            window.instanceGiven = true;
            if (error != std::errc() || end != text.data() + text.size()) {
                std::fprintf(
                    stderr,
                    "marey critical-path: --instance: expected a count from 0, got \"%s\"\n",
                    argv[i]);
                return false;
            }
        } else if (argv[i][0] != '-') {
            paths.push_back(argv[i]);
        } else {
            std::fprintf(
                stderr, "marey critical-path: %s \"%s\"\n",
                argv[i][0] == '-' ? "unknown option or missing value" : "unexpected argument",
                argv[i]);
            return false;
        }
    }
    const int windows = (window.step ? 1 : 0) + (window.range ? 1 : 0) + !window.annotation.empty();
    if (windows > 1) {
        std::fprintf(stderr, "marey critical-path: give one of --step, --range and --annotation\n");
        return false;
    }
    if (window.instanceGiven && window.annotation.empty()) {
        std::fprintf(stderr,
                     "marey critical-path: --instance counts the slices of --annotation; "
                     "give --annotation NAME too\n");
        return false;
    }
    if (window.ranks && paths.size() != 1) {
        std::fprintf(stderr,
                     "marey critical-path: --ranks takes rank ids of one cluster folder: "
                     "CLUSTER --ranks 0-3,7\n");
        return false;
    }
    if ((paths.size() > 1 || window.ranks) &&
        (window.range || !window.annotation.empty() || rank)) {
        std::fprintf(stderr,
                     "marey critical-path: across several ranks the window is a step "
                     "(--step); --range, --annotation and --rank take one trace\n");
        return false;
    }
    return !paths.empty();
}

// The path of one step across the ranks at 'paths', their clocks aligned on the step (as several
// ranks in one timeline align them): what made that step as long as it was on every rank.
int RunAcrossRanks(const std::vector<std::string>& paths, bool json, const LoadOptions& options,
                   const Window& window) {
    RanksTimelineOptions ranksOptions;
    ranksOptions.load = options;
    ranksOptions.alignStep = window.step.value_or("");
    auto loaded = LoadRanksTimeline(paths, ranksOptions);
    if (!loaded.ok()) {
        std::fprintf(stderr, "%s\n", loaded.message().c_str());
        return 1;
    }
    const RanksTimeline& ranks = loaded.value();
    for (const std::string& failure : ranks.failures)
        std::fprintf(stderr, "marey critical-path: left out: %s\n", failure.c_str());
    // A damaged rank still takes part, with what was read of it: said, never silent.
    for (size_t g = 0; g < ranks.model->groups.size() && g < ranks.paths.size(); ++g) {
        const ImportReport& report = ranks.model->groups[g].report;
        if (report.truncated || report.problemCount > 0)
            std::fprintf(stderr,
                         "marey critical-path: %s: %s%s while reading it; its part of the "
                         "path is of what was read\n",
                         ranks.paths[g].c_str(), report.truncated ? "the trace is cut short; " : "",
                         CountText(report.problemCount, "problem", "problems").c_str());
    }
    TraceAnalysisOptions analysisOptions;
    analysisOptions.threads = std::max(1u, std::thread::hardware_concurrency());
    const TraceAnalyses analyses = AnalyzeTrace(*ranks.model, analysisOptions);
    const std::optional<std::string> step = window.step ? window.step : LongestSharedStep(analyses);
    if (!step) {
        std::fprintf(stderr,
                     "marey critical-path: the ranks share no step to follow a path "
                     "through\n");
        return 1;
    }
    const std::optional<CriticalPath> path = CriticalPathAcrossRanks(*ranks.model, analyses, *step);
    if (!path) {
        std::fprintf(stderr, "marey critical-path: no rank marks step %s\n", step->c_str());
        return 1;
    }
    const std::string text =
        json ? CriticalPathAcrossRanksToJson(*ranks.model, *path, analyses) + "\n"
             : CriticalPathAcrossRanksToText(*ranks.model, *path, analyses, ranks.model->firstNs);
    std::fwrite(text.data(), 1, text.size(), stdout);
    return 0;
}

}  // namespace

int RunCriticalPathCommand(int argc, char** argv) {
    std::vector<std::string> paths;
    bool json = false;
    LoadOptions options;
    std::optional<int64_t> rankWanted;
    Window window;
    if (!ParseOptions(argc, argv, paths, json, options, rankWanted, window)) return Usage(), 2;
    Result<IndexCacheOptions> cache = IndexCacheFromEnvironment(false);
    if (!cache.ok()) {
        std::fprintf(stderr, "marey critical-path: %s\n", cache.message().c_str());
        return 2;
    }
    options.cache = std::move(cache.value());
    if (window.ranks) {
        auto resolved = ResolveRankPaths(paths.front(), {*window.ranks});
        if (!resolved.ok()) {
            std::fprintf(stderr, "marey critical-path: %s\n", resolved.message().c_str());
            return 2;
        }
        paths = std::move(resolved.value());
    }
    if (paths.size() > 1) return RunAcrossRanks(paths, json, options, window);
    const std::string& path = paths.front();
    auto loaded = LoadRank(path, options);
    if (!loaded.ok()) {
        std::fprintf(stderr, "%s\n", loaded.message().c_str());
        return 1;
    }
    const LoadedRank& rank = loaded.value();
    if (!rank.model) {
        std::fprintf(stderr, "marey critical-path: %s: no timeline to follow a path through\n",
                     path.c_str());
        return 1;
    }
    const TraceModel& model = *rank.model;
    // A damaged trace still has a path, of what was read: said, never silent.
    if (model.report.truncated || model.report.problemCount > 0)
        std::fprintf(stderr,
                     "marey critical-path: %s: %s%s while reading it; the path is of what was read "
                     "(marey stats lists the problems)\n",
                     path.c_str(), model.report.truncated ? "the trace is cut short; " : "",
                     CountText(model.report.problemCount, "problem", "problems").c_str());
    std::optional<TraceAnalyses> made;
    const TraceAnalyses* analyses = rank.analysis ? rank.analysis->trace.get() : nullptr;
    if (!analyses) {
        TraceAnalysisOptions analysisOptions;
        analysisOptions.threads = std::max(1u, std::thread::hardware_concurrency());
        made = AnalyzeTrace(model, analysisOptions);
        analyses = &*made;
    }
    std::string text = json ? "[" : "";
    bool any = false;
    for (const RankTraceAnalysis& traceRank : analyses->ranks) {
        if (rankWanted && traceRank.rank != *rankWanted) continue;
        std::optional<CriticalPath> found;
        const char* what = "";
        if (window.range) {
            found = CriticalPathOfWindow(model, analyses->activities, traceRank.group,
                                         model.firstNs + window.range->first,
                                         model.firstNs + window.range->second);
        } else if (!window.annotation.empty()) {
            const auto span =
                AnnotationSpan(model, traceRank.group, window.annotation, window.instance);
            if (span)
                found = CriticalPathOfWindow(model, analyses->activities, traceRank.group,
                                             span->first, span->second);
            what = "no such annotation instance";
        } else {
            found = CriticalPathOfStep(model, *analyses, traceRank.group,
                                       window.step ? &*window.step : nullptr);
            what = "no such step";
            const size_t marked = window.step ? static_cast<size_t>(std::count_if(
                                                    analyses->steps.begin(), analyses->steps.end(),
                                                    [&](const StepWindow& step) {
                                                        return step.group == traceRank.group &&
                                                               step.label == *window.step;
                                                    }))
                                              : 0;
            if (marked > 1)
                std::fprintf(stderr,
                             "marey critical-path: %s: rank %lld marks step %s %zu times; the "
                             "path of the first\n",
                             path.c_str(), static_cast<long long>(traceRank.rank),
                             window.step->c_str(), marked);
        }
        if (!found) {
            std::fprintf(stderr, "marey critical-path: %s: rank %lld: %s\n", path.c_str(),
                         static_cast<long long>(traceRank.rank), what);
            return 1;
        }
        if (json) {
            text +=
                std::string(any ? ",\n " : "") + CriticalPathToJson(model, *found, traceRank.rank);
        } else {
            if (analyses->ranks.size() > 1) text += "rank " + std::to_string(traceRank.rank) + ": ";
            text += CriticalPathToText(model, *found, model.firstNs);
        }
        any = true;
    }
    if (!any) {
        std::fprintf(stderr, "marey critical-path: %s: no rank %lld\n", path.c_str(),
                     static_cast<long long>(rankWanted.value_or(-1)));
        return 1;
    }
    if (json) text += "]\n";
    std::fwrite(text.data(), 1, text.size(), stdout);
    return 0;
}

}  // namespace marey
