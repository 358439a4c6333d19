#include "model/MergeRankModels.hpp"

#include <algorithm>
#include <cassert>
#include <limits>

#include "core/ParallelFor.hpp"

namespace marey {
namespace {

// Where one part's ids land in the merged model.
struct PartOffsets {
    std::vector<StringId> strings;  // the part's string id -> the merged pool's
    uint32_t process = 0, track = 0, origin = 0;
    TimeNs shiftNs = 0;
};

StringId Renamed(const PartOffsets& offsets, StringId id) {
    return offsets.strings[id];
}

EntityId Renamed(const PartOffsets& offsets, EntityId id) {
    id.text = offsets.strings[id.text];
    return id;
}

void Shift(PodArray<TimeNs>& times, TimeNs shiftNs) {
    if (shiftNs == 0) return;
    for (TimeNs& t : times) t += shiftNs;
}

void Rename(PodArray<StringId>& names, const PartOffsets& offsets) {
    for (StringId& name : names) name = offsets.strings[name];
}

// The part's own ids and times turned into the merged model's, in place; the track itself is then
// moved whole. Every field that holds a time, a string id or a process index is listed here: a
// field added to Track or Row breaks this assertion until it is considered here and in the test
// that dumps a merged model (tests/TestSupport.cpp).
static_assert(sizeof(Track) == 296 && sizeof(Row) == 256 && sizeof(Process) == 72,
              "a field was added to Track, Row or Process: shift or rename it here if it holds a "
              "time or an id");
void MoveTrack(Track& track, const PartOffsets& offsets) {
    track.process += offsets.process;
    track.tid = Renamed(offsets, track.tid);
    track.name = Renamed(offsets, track.name);
    track.counterKey = Renamed(offsets, track.counterKey);
    for (Row& row : track.rows) {
        Shift(row.start, offsets.shiftNs);
        Shift(row.end, offsets.shiftNs);
        Rename(row.name, offsets);
        for (OverviewItem& item : row.overview)
            item.startNs += offsets.shiftNs, item.endNs += offsets.shiftNs;
    }
    Shift(track.instantTs, offsets.shiftNs);
    Rename(track.instantName, offsets);
    Shift(track.counterTs, offsets.shiftNs);
}

void AddCounts(ImportReport& total, const ImportReport& part) {
    total.eventCount += part.eventCount;
    total.phases.Add(part.phases);
    total.problemCount += part.problemCount;
    total.matchedFlows += part.matchedFlows;
    total.unmatchedFlowEvents += part.unmatchedFlowEvents;
    total.unmatchedBegins += part.unmatchedBegins;
    total.unmatchedEnds += part.unmatchedEnds;
    total.truncated = total.truncated || part.truncated;
}

// Appends the part's flows (sorted by start, as the merged ones are) and keeps the whole sorted.
void MergeFlows(TraceModel& merged, TraceModel& part, const PartOffsets& offsets,
                ProcessGroup& group) {
    if (part.flows.empty()) return;
    if (uint64_t{offsets.origin} + part.flowOrigins.size() >= kNoFlowOrigin) {
        ImportProblem problem;
        problem.message = std::to_string(part.flows.size()) +
                          " flow arrows are not drawn: the ranks together have more flow origins "
                          "than one timeline holds";
        group.report.problems.push_back(problem);
        ++group.report.problemCount;
        ++merged.report.problemCount;
        return;
    }
    for (const FlowOrigin& origin : part.flowOrigins)
        merged.flowOrigins.push_back(
            {origin.track + offsets.track, Renamed(offsets, origin.category)});
    const size_t before = merged.flows.size();
    merged.flows.resize(before + part.flows.size());
    Flow* out = merged.flows.data() + before;
    for (const Flow& flow : part.flows) {
        Flow moved = flow;
        moved.fromTs += offsets.shiftNs;
        moved.toTs += offsets.shiftNs;
        moved.fromOrigin = flow.fromOrigin + offsets.origin;
        moved.toOrigin = flow.toOrigin + offsets.origin;
        *out++ = moved;
    }
    std::inplace_merge(merged.flows.begin(), merged.flows.begin() + before, merged.flows.end(),
                       [](const Flow& a, const Flow& b) { return a.fromTs < b.fromTs; });
}

}  // namespace

std::unique_ptr<TraceModel> MergeRankModels(std::vector<RankModelPart> parts, unsigned threads) {
    auto merged = std::make_unique<TraceModel>();
    merged->firstNs = std::numeric_limits<TimeNs>::max();
    merged->lastNs = std::numeric_limits<TimeNs>::min();
    for (RankModelPart& part : parts) {
        TraceModel& model = *part.model;
        assert(model.groups.empty());
        model.cacheWrite.Join();  // its arrays are about to move
        PartOffsets offsets;
        offsets.process = static_cast<uint32_t>(merged->processes.size());
        offsets.track = static_cast<uint32_t>(merged->tracks.size());
        offsets.origin = static_cast<uint32_t>(merged->flowOrigins.size());
        offsets.shiftNs = part.shiftNs;
        offsets.strings.resize(model.strings.size());
        for (StringId id = 1; id < model.strings.size(); ++id)
            offsets.strings[id] = merged->strings.Intern(model.strings.Get(id));

        const uint32_t groupIndex = static_cast<uint32_t>(merged->groups.size());
        ProcessGroup& group = merged->groups.emplace_back();
        group.label = part.label;
        group.note = part.note;
        group.shiftNs = part.shiftNs;

        std::vector<uint64_t> sizes;
        for (const Track& track : model.tracks)
            sizes.push_back(track.sliceCount + track.counterTs.size() + track.instantTs.size());
        ParallelFor(model.tracks.size(), threads, sizes,
                    [&](size_t t) { MoveTrack(model.tracks[t], offsets); });
        for (Track& track : model.tracks) merged->tracks.push_back(std::move(track));
        for (Process& process : model.processes) {
            process.pid = Renamed(offsets, process.pid);
            process.name = Renamed(offsets, process.name);
            process.labels = Renamed(offsets, process.labels);
            for (uint32_t& track : process.tracks) track += offsets.track;
            process.group = groupIndex;
            merged->processes.push_back(std::move(process));
        }
        for (UnfinishedSlice slice : model.unfinished) {
            slice.track += offsets.track;
            merged->unfinished.push_back(slice);
        }
        AddCounts(merged->report, model.report);
        group.report = std::move(model.report);
        MergeFlows(*merged, model, offsets, group);

        if (model.sliceCount + model.instantCount + model.counterSampleCount > 0) {
            merged->firstNs = std::min(merged->firstNs, model.firstNs + part.shiftNs);
            merged->lastNs = std::max(merged->lastNs, model.lastNs + part.shiftNs);
        }
        merged->sliceCount += model.sliceCount;
        merged->instantCount += model.instantCount;
        merged->counterSampleCount += model.counterSampleCount;
        merged->recordedColors.insert(model.recordedColors.begin(), model.recordedColors.end());
        assert(model.sources.size() == 1);
        merged->sources.push_back(std::move(model.sources.front()));
        part.model.reset();  // its rows are in the merged model now; the rest is freed rank by rank
    }
    if (merged->firstNs > merged->lastNs) merged->firstNs = merged->lastNs = 0;
    // Each part's unfinished slices were sorted and its track ids are above the ones before.
    return merged;
}

}  // namespace marey
