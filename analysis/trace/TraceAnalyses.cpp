#include "trace/TraceAnalyses.hpp"

#include <algorithm>
#include <charconv>
#include <string_view>

#include "core/LoadTiming.hpp"
#include "core/ParallelFor.hpp"

namespace marey {
namespace {

constexpr std::string_view kStepPrefix = "ProfilerStep#";
constexpr uint64_t kRankSearchBytes = 1 << 20;

// The host's ProfilerStep#N slices of each group: the earliest slice of each name.
std::vector<StepWindow> FindStepWindows(const TraceModel& model) {
    // Each name tested once: millions of slices share a few thousand names.
    std::vector<char> isStep(model.strings.size(), 0);
    for (StringId id = 0; id < isStep.size(); ++id) {
        const std::string_view name = model.Name(id);
        isStep[id] =
            name.size() > kStepPrefix.size() && name.substr(0, kStepPrefix.size()) == kStepPrefix;
    }
    std::vector<StepWindow> steps;
    for (uint32_t t = 0; t < model.tracks.size(); ++t) {
        const Track& track = model.tracks[t];
        if (track.process >= model.processes.size()) continue;  // a process left out
        for (const Row& row : track.rows) {
            for (size_t i = 0; i < row.size(); ++i) {
                if (row.name[i] >= isStep.size() || !isStep[row.name[i]]) continue;
                const std::string_view name = model.Name(row.name[i]);
                steps.push_back({std::string(name.substr(kStepPrefix.size())), row.start[i],
                                 row.end[i], model.GroupOf(t)});
            }
        }
    }
    std::sort(steps.begin(), steps.end(), [](const StepWindow& a, const StepWindow& b) {
        if (a.group != b.group) return a.group < b.group;
        if (a.label != b.label) return a.label < b.label;
        return a.startNs < b.startNs;
    });
    steps.erase(std::unique(steps.begin(), steps.end(),
                            [](const StepWindow& a, const StepWindow& b) {
                                return a.group == b.group && a.label == b.label;
                            }),
                steps.end());
    std::sort(steps.begin(), steps.end(), [](const StepWindow& a, const StepWindow& b) {
        if (a.group != b.group) return a.group < b.group;
        return a.startNs < b.startNs;
    });
    return steps;
}

std::optional<int64_t> RankInDistributedInfo(std::string_view text) {
    const size_t key = text.find("\"distributedInfo\"");
    if (key == std::string_view::npos) return std::nullopt;
    const size_t close = text.find('}', key);
    const std::string_view object =
        text.substr(key, close == std::string_view::npos ? 4096 : close - key);
    const size_t rankKey = object.find("\"rank\"");
    if (rankKey == std::string_view::npos) return std::nullopt;
    size_t p = rankKey + 6;
    while (p < object.size() && (object[p] == ' ' || object[p] == ':' || object[p] == '\n')) ++p;
    int64_t rank = 0;
    auto [next, error] = std::from_chars(object.data() + p, object.data() + object.size(), rank);
    // A whole number alone: "0.5" or "3e2" is no rank id (never read as 0 or 3).
    const bool whole = next == object.data() + object.size() || *next == ',' || *next == '}' ||
                       *next == ' ' || *next == '\n' || *next == '\r' || *next == '\t';
    if (error != std::errc() || rank < 0 || !whole) return std::nullopt;
    return rank;
}

std::optional<int64_t> RankInFileName(const std::string& path) {
    const size_t slash = path.find_last_of('/');
    const std::string_view name =
        std::string_view(path).substr(slash == std::string::npos ? 0 : slash + 1);
    for (std::string_view marker : {"rank-", "rank_"}) {
        const size_t at = name.find(marker);
        if (at == std::string_view::npos) continue;
        int64_t rank = 0;
        const char* digits = name.data() + at + marker.size();
        auto [next, error] = std::from_chars(digits, name.data() + name.size(), rank);
        if (error == std::errc() && next != digits) return rank;
    }
    return std::nullopt;
}

ActivityFigures Figure(const TraceAnalyses& analyses, const std::vector<uint32_t>& indices,
                       const TraceAnalysisOptions& options, std::vector<IdleGap>* gaps) {
    ActivityFigures figures;
    figures.time = MeasureDeviceTime(analyses.activities, indices);
    figures.idle = BreakDownIdle(analyses.activities, indices, options.kernelWaitBelowNs, gaps);
    figures.launch = SummarizeLaunches(analyses.activities, indices, options.cutoffs);
    figures.queue = MeasureQueues(analyses.activities, indices, false);
    return figures;
}

// 'gaps' by stream, each stream's in the order they were (by time): a counting pass, not a sort.
std::vector<IdleGap> ByStream(std::vector<IdleGap> gaps, size_t streams) {
    std::vector<size_t> start(streams + 1, 0);
    for (const IdleGap& gap : gaps) ++start[gap.stream + 1];
    for (size_t s = 1; s <= streams; ++s) start[s] += start[s - 1];
    std::vector<IdleGap> sorted(gaps.size());
    for (const IdleGap& gap : gaps) sorted[start[gap.stream]++] = gap;
    return sorted;
}

}  // namespace

const char* RankIdSourceName(RankIdSource source) {
    switch (source) {
        case RankIdSource::kDistributedInfo:
            return "distributedInfo";
        case RankIdSource::kFileName:
            return "file name";
        case RankIdSource::kOrder:
            return "order";
        case RankIdSource::kCudaDevice:
            return "CUDA device";
    }
    return "order";
}

TraceRank FindTraceRank(const TraceSource& source) {
    if (source.deviceRank) return {source.deviceRank->value(), RankIdSource::kCudaDevice};
    const std::string_view text(source.text.data(), source.text.size());
    const std::string_view head = text.substr(0, kRankSearchBytes);
    const std::string_view tail = text.size() > kRankSearchBytes
                                      ? text.substr(text.size() - kRankSearchBytes)
                                      : std::string_view{};
    if (std::optional<int64_t> rank = RankInDistributedInfo(head))
        return {*rank, RankIdSource::kDistributedInfo};
    if (std::optional<int64_t> rank = RankInDistributedInfo(tail))
        return {*rank, RankIdSource::kDistributedInfo};
    if (std::optional<int64_t> rank = RankInFileName(source.path))
        return {*rank, RankIdSource::kFileName};
    return {};
}

TraceAnalyses AnalyzeTrace(const TraceModel& model, const TraceAnalysisOptions& options,
                           LoadProgress* progress) {
    const LoadTiming timing;  // per stage, with MAREY_TIMING set
    TraceAnalyses analyses;
    analyses.options = options;
    ReportAnalysis(progress, "finding the device activities");
    analyses.activities = FindDeviceActivities(model, options.threads);
    timing.Report("analyses: device activities found");
    ReportAnalysis(progress, "placing the device activities in their steps");
    analyses.steps = FindStepWindows(model);
    AssignSteps(analyses.activities, analyses.steps, options.threads);
    timing.Report("analyses: steps assigned");
    ReportAnalysis(progress, "computing the figures of the rank and its steps");

    // One rank per group; a single trace is one rank of group kNoGroup.
    std::vector<uint32_t> groups;
    if (model.groups.empty())
        groups.push_back(kNoGroup);
    else
        for (uint32_t g = 0; g < model.groups.size(); ++g) groups.push_back(g);
    // Each rank's activities and steps, and each step's activities, in one pass over all of
    // them: a model of a thousand ranks is not walked once per rank.
    const auto orderOf = [&](uint32_t group) -> size_t {
        if (model.groups.empty()) return group == kNoGroup ? 0 : groups.size();
        return group < groups.size() ? group : groups.size();
    };
    std::vector<std::vector<uint32_t>> activitiesOfRank(groups.size());
    std::vector<std::vector<uint32_t>> perStep(analyses.steps.size());
    for (uint32_t i = 0; i < analyses.activities.activities.size(); ++i) {
        const DeviceActivity& activity = analyses.activities.activities[i];
        const size_t order = orderOf(analyses.activities.streams[activity.stream].group);
        if (order >= groups.size()) continue;
        activitiesOfRank[order].push_back(i);
        if (activity.step != kNoStep) perStep[activity.step].push_back(i);
    }
    std::vector<std::vector<uint32_t>> stepsOfRanks(groups.size());
    for (uint32_t s = 0; s < analyses.steps.size(); ++s)
        if (const size_t order = orderOf(analyses.steps[s].group); order < groups.size())
            stepsOfRanks[order].push_back(s);
    for (size_t order = 0; order < groups.size(); ++order) {
        RankTraceAnalysis rank;
        rank.group = groups[order];
        const TraceRank found =
            model.sources.empty()
                ? TraceRank{}
                : FindTraceRank(model.sources[rank.group == kNoGroup ? 0 : rank.group]);
        rank.rank = found.source == RankIdSource::kOrder ? static_cast<int64_t>(order) : found.rank;
        rank.rankFrom = found.source;

        const std::vector<uint32_t> indices = std::move(activitiesOfRank[order]);
        if (indices.empty()) {
            rank.unavailable = analyses.activities.unavailable.empty()
                                   ? "this rank's device streams hold no kernel, copy, fill or task"
                                   : analyses.activities.unavailable;
            analyses.ranks.push_back(std::move(rank));
            continue;
        }
        // The rank's figures and each step's are independent: side by side on the threads.
        const std::vector<uint32_t>& stepsOfRank = stepsOfRanks[order];
        std::vector<ActivityFigures> figures(stepsOfRank.size() + 1);
        std::vector<uint64_t> sizes{indices.size()};
        for (const uint32_t s : stepsOfRank) sizes.push_back(perStep[s].size());
        std::vector<IdleGap> rankGaps;  // by stream, on the thread that finds them
        ParallelFor(figures.size(), options.threads, sizes, [&](size_t f) {
            if (f > 0) {
                figures[f] = Figure(analyses, perStep[stepsOfRank[f - 1]], options, nullptr);
                return;
            }
            figures[f] = Figure(analyses, indices, options, &rankGaps);
            rankGaps = ByStream(std::move(rankGaps), analyses.activities.streams.size());
        });
        // Streams are in rank order: the ranks' gaps one after another stay by stream.
        if (analyses.gaps.empty())
            analyses.gaps = std::move(rankGaps);
        else
            analyses.gaps.insert(analyses.gaps.end(), rankGaps.begin(), rankGaps.end());
        timing.Report("analyses: figures of the rank and its steps, its gaps by stream");
        rank.all = std::move(figures[0]);
        for (size_t f = 1; f < figures.size(); ++f)
            rank.steps.push_back({analyses.steps[stepsOfRank[f - 1]].label, std::move(figures[f]),
                                  stepsOfRank[f - 1]});
        analyses.ranks.push_back(std::move(rank));
    }
    return analyses;
}

}  // namespace marey
