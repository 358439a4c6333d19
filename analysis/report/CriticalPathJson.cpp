#include "report/CriticalPathJson.hpp"

#include <algorithm>
#include <numeric>

#include "core/TextFormat.hpp"
#include "report/JsonWriter.hpp"

namespace marey {
namespace {

// The names with the most time on the path that "by_name" lists.
constexpr size_t kMostNamesWritten = 20;

// The indices of the 'most' longest stretches, in the path's order.
std::vector<size_t> LongestStretches(const CriticalPath& path, size_t most) {
    std::vector<size_t> kept(path.stretches.size());
    std::iota(kept.begin(), kept.end(), size_t{0});
    if (kept.size() <= most) return kept;
    const auto longer = [&](size_t a, size_t b) {
        const TimeNs la = path.stretches[a].endNs - path.stretches[a].startNs;
        const TimeNs lb = path.stretches[b].endNs - path.stretches[b].startNs;
        return la != lb ? la > lb : a < b;
    };
    std::nth_element(kept.begin(), kept.begin() + static_cast<ptrdiff_t>(most), kept.end(), longer);
    kept.resize(most);
    std::sort(kept.begin(), kept.end());
    return kept;
}

std::string StreamLabel(const TraceModel& model, const PathStretch& stretch) {
    return model.TrackLabel(stretch.slice.track);
}

// The rank number of 'group' among the analyses' ranks; none when it is not one of them.
std::optional<int64_t> RankOfGroup(const TraceAnalyses& analyses, uint32_t group) {
    for (const RankTraceAnalysis& rank : analyses.ranks)
        if (rank.group == group) return rank.rank;
    return std::nullopt;
}

void IntOrNull(JsonObject& object, const char* key, std::optional<int64_t> value) {
    if (value)
        object.Int(key, *value);
    else
        object.Null(key);
}

// The object of one path; 'across': the analyses of a path across ranks (each stretch's rank
// from its group), else null and 'rank' is every stretch's.
std::string PathToJson(const TraceModel& model, const CriticalPath& path,
                       std::optional<int64_t> rank, const TraceAnalyses* across,
                       size_t mostStretches) {
    auto rankOf = [&](const PathStretch& stretch) {
        return across ? RankOfGroup(*across, model.GroupOf(stretch.slice.track)) : rank;
    };
    std::string out;
    JsonObject object(out);
    IntOrNull(object, "rank", across ? std::nullopt : rank);
    if (across) {
        JsonArray(
            object.Key("ranks"), across->ranks,
            [](std::string& text, const RankTraceAnalysis& r) { text += std::to_string(r.rank); });
        JsonArray(object.Key("ranks_visited"), path.groups, [&](std::string& text, uint32_t g) {
            const std::optional<int64_t> number = RankOfGroup(*across, g);
            text += number ? std::to_string(*number) : std::string("null");
        });
        JsonArrayOfObjects(object.Key("collectives"), path.collectives,
                           [&](JsonObject& entry, const PathCollective& collective) {
                               entry.String("name", collective.name);
                               IntOrNull(entry, "last_rank",
                                         RankOfGroup(*across, collective.lateGroup));
                               entry.Int("late_by_ns", collective.lateByNs);
                               entry.Int("arrived_ns", collective.arrivedNs);
                               entry.Int("ranks", collective.ranks);
                           });
    }
    if (path.step.empty())
        object.Null("step");
    else
        object.String("step", path.step);
    if (!path.unavailable.empty()) object.String("unavailable", path.unavailable);
    object.Int("window_start_ns", path.fromNs);
    object.Int("window_end_ns", path.toNs);
    if (path.unavailable.empty()) {
        object.Int("start_ns", path.startNs);
        object.Int("end_ns", path.endNs);
    } else {
        object.Null("start_ns");
        object.Null("end_ns");
    }
    // What was read of the trace: a path of a damaged one is of what was read.
    object.Int("import_problems", static_cast<int64_t>(model.report.problemCount));
    object.Bool("truncated", model.report.truncated);
    object.Int("length_ns", path.lengthNs);
    {
        JsonObject bound(object.Key("bound_ns"));
        for (int k = 0; k < kBoundKindCount; ++k)
            bound.Int(BoundKindName(static_cast<BoundKind>(k)),
                      path.boundNs[static_cast<size_t>(k)]);
    }
    {
        JsonObject graph(object.Key("graph"));
        graph.Int("events", static_cast<int64_t>(path.events));
        graph.Int("edges", static_cast<int64_t>(path.edges));
        JsonObject kinds(graph.Key("edges_by_kind"));
        for (int k = 0; k < kPathEdgeKindCount; ++k)
            kinds.Int(PathEdgeKindName(static_cast<PathEdgeKind>(k)),
                      static_cast<int64_t>(path.edgesByKind[static_cast<size_t>(k)]));
    }
    object.Int("sync_records", static_cast<int64_t>(path.syncMarkers));
    object.Int("sync_records_unmatched", static_cast<int64_t>(path.unmatchedSyncs));
    object.Int("edges_running_back", static_cast<int64_t>(path.backwardEdges));
    object.Int("calls_off_chain", static_cast<int64_t>(path.overlappingCalls));
    object.Int("device_clock_shift_ns", path.deviceShiftNs);
    object.Int("nodes_on_cycles", static_cast<int64_t>(path.nodesOnCycles));
    JsonArrayOfObjects(object.Key("by_name"), TopContributors(path, kMostNamesWritten),
                       [&](JsonObject& entry, const PathContributor& contributor) {
                           entry.String("name", model.Name(contributor.name));
                           entry.String("kind", BoundKindName(contributor.bound));
                           entry.Int("ns", contributor.ns);
                           entry.Int("stretches", static_cast<int64_t>(contributor.stretches));
                       });
    object.Int("stretch_count", static_cast<int64_t>(path.stretches.size()));
    const std::vector<size_t> kept = LongestStretches(path, mostStretches);
    object.Int("stretches_left_out", static_cast<int64_t>(path.stretches.size() - kept.size()));
    JsonArrayOfObjects(object.Key("stretches"), kept, [&](JsonObject& entry, size_t s) {
        const PathStretch& stretch = path.stretches[s];
        IntOrNull(entry, "rank", rankOf(stretch));
        entry.String("kind", BoundKindName(stretch.bound));
        entry.String("name", model.Name(stretch.name));
        entry.Int("start_ns", stretch.startNs);
        entry.Int("end_ns", stretch.endNs);
        entry.String("track", StreamLabel(model, stretch));
    });
    return out;
}

}  // namespace

std::string CriticalPathToJson(const TraceModel& model, const CriticalPath& path,
                               std::optional<int64_t> rank, size_t mostStretches) {
    return PathToJson(model, path, rank, nullptr, mostStretches);
}

std::string CriticalPathAcrossRanksToJson(const TraceModel& model, const CriticalPath& path,
                                          const TraceAnalyses& analyses, size_t mostStretches) {
    return PathToJson(model, path, std::nullopt, &analyses, mostStretches);
}

std::string CriticalPathToText(const TraceModel& model, const CriticalPath& path, TimeNs originNs,
                               size_t longest) {
    std::string text = "critical path";
    text += path.step.empty() ? " of " + FormatInstant(path.fromNs - originNs) + " to " +
                                    FormatInstant(path.toNs - originNs)
                              : " of step " + path.step;
    if (!path.unavailable.empty()) return text + ": none (" + path.unavailable + ")\n";
    text += ": " + FormatDuration(path.lengthNs) + " on the path from " +
            FormatInstant(path.startNs - originNs) + " to " + FormatInstant(path.endNs - originNs) +
            "\n  bound by:";
    for (int k = 0; k < kBoundKindCount; ++k) {
        const TimeNs ns = path.boundNs[static_cast<size_t>(k)];
        text += std::string(k ? ", " : " ") + BoundKindName(static_cast<BoundKind>(k)) + " " +
                FormatDuration(ns) + " (" +
                FormatPercent(path.lengthNs ? static_cast<double>(ns) / path.lengthNs : 0.0) + ")";
    }
    text += "\n  graph: " + std::to_string(path.events) + " events, " + std::to_string(path.edges) +
            " edges, " + std::to_string(path.syncMarkers) + " synchronisation records (" +
            std::to_string(path.unmatchedSyncs) + " unmatched)";
    if (path.backwardEdges)
        text += "; " + std::to_string(path.backwardEdges) +
                " edges left out that would run back in time";
    if (path.nodesOnCycles)
        text += "; " + std::to_string(path.nodesOnCycles) +
                " nodes on cycles left out (a clock that runs back between host and device?)";
    if (longest == 0) return text + "\n";
    text += "\n  longest stretches, in the path's order:\n";
    for (const size_t s : LongestStretches(path, longest)) {
        const PathStretch& stretch = path.stretches[s];
        text += "    " + FormatInstant(stretch.startNs - originNs) + "  " +
                FormatDuration(stretch.endNs - stretch.startNs) + "  " +
                BoundKindName(stretch.bound) + "  " + std::string(model.Name(stretch.name)) +
                "  (" + StreamLabel(model, stretch) + ")\n";
    }
    return text;
}

std::string CriticalPathAcrossRanksToText(const TraceModel& model, const CriticalPath& path,
                                          const TraceAnalyses& analyses, TimeNs originNs,
                                          size_t longest) {
    auto rankText = [&](uint32_t group) {
        const std::optional<int64_t> number = RankOfGroup(analyses, group);
        return number ? "rank " + std::to_string(*number) : std::string("a rank");
    };
    std::string text = "across " + CountText(analyses.ranks.size(), "rank", "ranks") + ": ";
    text += CriticalPathToText(model, path, originNs, 0);
    // The longest stretches, by rank, after the jumps that explain them.
    std::string visited;
    for (const uint32_t group : path.groups)
        visited += (visited.empty() ? "" : ", ") + rankText(group);
    text += "  visits " + (visited.empty() ? std::string("no rank") : visited) + "\n";
    for (const PathCollective& collective : path.collectives) {
        text += "  " + rankText(collective.lateGroup) + " arrived last at " + collective.name +
                ", " + FormatDuration(collective.lateByNs) + " after the first of its " +
                std::to_string(collective.ranks) + " ranks; every other rank waited for it";
        // What that rank's path held before it arrived: its largest names.
        CriticalPath before;
        for (const PathStretch& stretch : path.stretches)
            if (model.GroupOf(stretch.slice.track) == collective.lateGroup &&
                stretch.endNs <= collective.arrivedNs)
                before.stretches.push_back(stretch);
        const std::vector<PathContributor> top = TopContributors(before, 3);
        if (!top.empty()) {
            text += "; before it, its path held";
            for (size_t i = 0; i < top.size(); ++i)
                text += std::string(i ? "," : "") + " " + std::string(model.Name(top[i].name)) +
                        " " + FormatDuration(top[i].ns) + " (" + BoundKindName(top[i].bound) + ")";
        }
        text += "\n";
    }
    text += "  longest stretches, in the path's order:\n";
    for (const size_t s : LongestStretches(path, longest)) {
        const PathStretch& stretch = path.stretches[s];
        text += "    " + rankText(model.GroupOf(stretch.slice.track)) + "  " +
                FormatInstant(stretch.startNs - originNs) + "  " +
                FormatDuration(stretch.endNs - stretch.startNs) + "  " +
                BoundKindName(stretch.bound) + "  " + std::string(model.Name(stretch.name)) + "\n";
    }
    return text;
}

}  // namespace marey
