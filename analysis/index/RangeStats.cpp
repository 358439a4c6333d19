#include "index/RangeStats.hpp"

#include <algorithm>

#include "index/RowQuery.hpp"

namespace marey {
namespace {

// Time of 'child' row slices inside [start, end), scanning from 'cursor' (rows sorted).
TimeNs ChildTime(const Row& child, size_t& cursor, TimeNs start, TimeNs end) {
    while (cursor < child.size() && child.start[cursor] < start) ++cursor;
    TimeNs covered = 0;
    size_t k = cursor;
    while (k < child.size() && child.start[k] < end) {
        covered += std::min(child.end[k], end) - child.start[k];
        ++k;
    }
    cursor = k;
    return covered;
}

}  // namespace

std::vector<uint32_t> AllSliceTracks(const TraceModel& model) {
    std::vector<uint32_t> tracks;
    for (const Process& process : model.processes)
        for (uint32_t t : process.tracks)
            if (!model.tracks[t].rows.empty()) tracks.push_back(t);
    return tracks;
}

RangeStatsResult ComputeRangeStats(const TraceModel& model, const std::vector<uint32_t>& tracks,
                                   TimeNs startNs, TimeNs endNs) {
    RangeStatsResult result;
    // Saturating: callers may ask for everything with INT64_MIN .. INT64_MAX.
    result.rangeNs = endNs <= startNs                               ? 0
                     : (startNs < 0 && endNs > INT64_MAX + startNs) ? INT64_MAX
                                                                    : endNs - startNs;
    std::vector<NameStats> byId(model.strings.size());
    for (uint32_t trackId : tracks) {
        const Track& track = model.tracks[trackId];
        for (size_t r = 0; r < track.rows.size(); ++r) {
            const Row& row = track.rows[r];
            if (row.size() == 0) continue;
            const Row* child = nullptr;
            if (row.kind == RowKind::kNested && r + 1 < track.rows.size() &&
                track.rows[r + 1].kind == RowKind::kNested)
                child = &track.rows[r + 1];
            size_t i = FirstEndingAfter(row, startNs);
            while (i > 0 && row.start[i - 1] == startNs && row.end[i - 1] == startNs) --i;
            size_t childCursor =
                child ? FirstEndingAfter(*child, row.start[std::min(i, row.size() - 1)]) : 0;
            if (childCursor > 0) --childCursor;
            for (; i < row.size() && row.start[i] < endNs; ++i) {
                const TimeNs dur = row.end[i] - row.start[i];
                NameStats& stats = byId[row.name[i]];
                ++stats.count;
                stats.totalNs += dur;
                stats.minNs = std::min(stats.minNs, dur);
                stats.maxNs = std::max(stats.maxNs, dur);
                stats.clippedNs += std::min(row.end[i], endNs) - std::max(row.start[i], startNs);
                stats.selfNs +=
                    child ? dur - ChildTime(*child, childCursor, row.start[i], row.end[i]) : dur;
                ++result.sliceCount;
            }
        }
    }
    for (StringId id = 0; id < byId.size(); ++id) {
        if (byId[id].count == 0) continue;
        byId[id].name = id;
        result.byName.push_back(byId[id]);
    }
    std::sort(result.byName.begin(), result.byName.end(),
              [&](const NameStats& a, const NameStats& b) {
                  if (a.totalNs != b.totalNs) return a.totalNs > b.totalNs;
                  return model.strings.Get(a.name) < model.strings.Get(b.name);
              });
    return result;
}

}  // namespace marey
