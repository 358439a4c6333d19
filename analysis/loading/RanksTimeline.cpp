#include "loading/RanksTimeline.hpp"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <thread>
#include <unordered_set>

#include "cluster/ClusterFolder.hpp"
#include "loading/RankLoader.hpp"
#include "model/MergeRankModels.hpp"
#include "rank/ProfilerSteps.hpp"

namespace marey {
namespace {

struct LoadedPart {
    std::string path;
    std::unique_ptr<TraceModel> model;
    std::vector<ProfilerStepSpan> steps;
};

const ProfilerStepSpan* FindStep(const std::vector<ProfilerStepSpan>& steps,
                                 const std::string& step) {
    for (const ProfilerStepSpan& span : steps)
        if (span.step == step) return &span;
    return nullptr;
}

// The steps every part marks, in the first part's order (by start).
std::vector<std::string> CommonSteps(const std::vector<LoadedPart>& parts) {
    std::vector<std::string> common;
    for (const ProfilerStepSpan& span : parts.front().steps) {
        const bool everywhere = std::all_of(
            parts.begin(), parts.end(),
            [&](const LoadedPart& part) { return FindStep(part.steps, span.step) != nullptr; });
        if (everywhere) common.push_back(span.step);
    }
    return common;
}

}  // namespace

std::string RankLabel(const std::string& path) {
    const RankFiles files = FindRankFor(path);
    if (files.rankId) return "rank " + ToString(*files.rankId);
    std::filesystem::path name(path);
    if (name.filename().empty()) name = name.parent_path();
    return name.filename().string();
}

Result<RanksTimeline> LoadRanksTimeline(const std::vector<std::string>& paths,
                                        const RanksTimelineOptions& options,
                                        RanksProgress* progress) {
    RanksProgress unused;
    if (!progress) progress = &unused;
    progress->ranksTotal = static_cast<uint32_t>(paths.size());
    RanksTimeline timeline;
    std::vector<LoadedPart> parts;
    for (const std::string& path : paths) {
        auto loaded = LoadRankTimeline(path, options.load, &progress->rank);
        ++progress->ranksDone;
        if (progress->rank.cancel) return Status::Error(path + ": cancelled");
        if (!loaded.ok()) {
            timeline.failures.push_back(loaded.message());
            continue;
        }
        LoadedPart part{path, std::move(loaded.value()), {}};
        part.steps = FindProfilerSteps(*part.model);
        parts.push_back(std::move(part));
    }
    if (parts.empty()) {
        std::string message = paths.size() == 1 ? "the rank could not be read"
                                                : "none of the " + std::to_string(paths.size()) +
                                                      " ranks could be read";
        for (const std::string& failure : timeline.failures) message += "\n" + failure;
        return Status::Error(message);
    }

    timeline.steps = CommonSteps(parts);
    std::string step = options.alignStep;
    if (step.empty() && !timeline.steps.empty()) step = timeline.steps.front();
    if (step == kAlignOnClock) step.clear();
    // The first rank that marks the step keeps its clock; the others move to it.
    const ProfilerStepSpan* reference = nullptr;
    for (const LoadedPart& part : parts)
        if (!reference && !step.empty()) reference = FindStep(part.steps, step);
    if (reference) {
        timeline.alignedStep = step;
        timeline.alignedStartNs = reference->startNs;  // the reference keeps its clock
        timeline.alignedEndNs = reference->endNs;
    }

    std::vector<RankModelPart> merged;
    for (LoadedPart& part : parts) {
        RankModelPart rank;
        rank.label = RankLabel(part.path);
        const ProfilerStepSpan* own = reference ? FindStep(part.steps, step) : nullptr;
        if (own) {
            rank.shiftNs = reference->startNs - own->startNs;
            rank.note = "step " + step + " aligned";
        } else {
            rank.note = reference ? "no step " + step + ": its own clock" : "its own clock";
        }
        rank.model = std::move(part.model);
        timeline.paths.push_back(part.path);
        merged.push_back(std::move(rank));
    }
    timeline.model =
        MergeRankModels(std::move(merged), options.load.threads
                                               ? options.load.threads
                                               : std::max(1u, std::thread::hardware_concurrency()));
    return timeline;
}

Result<std::vector<std::string>> ResolveRankPaths(const std::string& cluster,
                                                  const std::vector<std::string>& ranks) {
    if (cluster.empty()) return ranks;
    if (!IsClusterPath(cluster))
        return Status::Error(cluster +
                             ": error: not a cluster folder, so the ranks cannot be rank ids; give "
                             "their paths alone");
    const ClusterFolders folders = FindClusterFolders(cluster);
    std::vector<std::string> paths;
    std::unordered_set<int> named;
    for (const std::string& text : ranks) {
        auto ids = ParseRankList(text);
        if (!ids.ok()) return ids.status();
        for (const int id : ids.value()) {
            if (!named.insert(id).second)
                return Status::Error("ranks: rank " + std::to_string(id) + " named twice");
            auto it =
                std::find_if(folders.rankFolders.begin(), folders.rankFolders.end(),
                             [id](const RankFiles& files) { return Holds(files.rankId, id); });
            if (it == folders.rankFolders.end())
                return Status::Error(cluster + ": error: no rank folder of rank " +
                                     std::to_string(id) + " (it has " +
                                     std::to_string(folders.rankFolders.size()) + " rank folders)");
            paths.push_back(it->root);
        }
    }
    return paths;
}

Result<std::vector<int>> ParseRankList(const std::string& text) {
    // Rank ids are as a rank summary bounds them; a longer range is a typo, not a job.
    constexpr long long kLargestRankId = 1 << 24;
    constexpr long long kMaxRangeRanks = 100000;
    std::vector<int> ranks;
    std::unordered_set<int> seen;
    size_t i = 0;
    auto fail = [&](size_t at, const std::string& what) {
        return Status::Error("ranks: " + what + " at column " + std::to_string(at + 1) + " of \"" +
                             text + "\"");
    };
    // The rank id at i; -1 when there is none, -2 when it is past kLargestRankId.
    auto number = [&]() -> long long {
        long long value = 0;
        const char* begin = text.data() + i;
        const auto [end, error] = std::from_chars(begin, text.data() + text.size(), value);
        if (end == begin || (error == std::errc() && value < 0)) return -1;
        i += static_cast<size_t>(end - begin);
        return error != std::errc() || value > kLargestRankId ? -2 : value;
    };
    while (i < text.size()) {
        if (text[i] == ',' || text[i] == ' ') {
            ++i;
            continue;
        }
        const size_t at = i;
        const long long first = number();
        long long last = first;
        if (first >= 0 && i < text.size() && text[i] == '-') {
            ++i;
            last = number();
        }
        if (first == -2 || last == -2)
            return fail(at,
                        "a rank id past the largest one (" + std::to_string(kLargestRankId) + ")");
        if (first < 0 || last < 0 || (i < text.size() && text[i] != ',' && text[i] != ' '))
            return fail(at, "expected a rank id or a range like 0-7");
        if (last < first) return fail(at, "a range from a higher rank id to a lower one");
        if (last - first >= kMaxRangeRanks)
            return fail(at, "a range of more than " + std::to_string(kMaxRangeRanks) + " ranks");
        for (long long rank = first; rank <= last; ++rank) {
            if (!seen.insert(static_cast<int>(rank)).second)
                return fail(at, "rank " + std::to_string(rank) + " named twice");
            ranks.push_back(static_cast<int>(rank));
        }
    }
    if (ranks.empty()) return Status::Error("ranks: no rank id in \"" + text + "\"");
    return ranks;
}

}  // namespace marey
