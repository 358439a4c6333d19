#include "import/RowArrows.hpp"

#include <algorithm>
#include <map>
#include <thread>

namespace marey {

std::vector<std::vector<std::pair<int64_t, int64_t>>> ChunkThreads(
    const std::vector<ChunkEvents>& chunks) {
    std::vector<std::vector<std::pair<int64_t, int64_t>>> threads;
    for (const ChunkEvents& chunk : chunks) {
        auto& ofChunk = threads.emplace_back();
        for (const ChunkTrack& track : chunk.tracks)
            ofChunk.emplace_back(track.pid.number, track.tid.number);
    }
    return threads;
}

void AddRowArrows(const std::vector<DbArrow>& arrows,
                  const std::vector<std::vector<std::pair<int64_t, int64_t>>>& chunkThreads,
                  TraceModel& model) {
    std::map<std::pair<int64_t, int64_t>, uint32_t> byThread;
    for (uint32_t t = 0; t < model.tracks.size(); ++t) {
        const Track& track = model.tracks[t];
        // A process without any event is left out of the model (its tracks name no process).
        if (track.kind == TrackKind::kThread && track.process < model.processes.size())
            byThread[{model.processes[track.process].pid.number, track.tid.number}] = t;
    }
    // The origin (model track, category) of each chunk track and arrow kind, made on first use:
    // an arrow's two ends then cost two array reads.
    constexpr size_t kKinds = kDbFlowKinds;
    std::vector<std::vector<uint32_t>> origins(chunkThreads.size());
    for (size_t c = 0; c < chunkThreads.size(); ++c)
        origins[c].assign(chunkThreads[c].size() * kKinds, UINT32_MAX);
    auto origin = [&](const DbFlowEnd& end, DbFlowKind kind) {
        uint32_t& cached = origins[end.chunk][end.track * kKinds + static_cast<size_t>(kind)];
        if (cached == UINT32_MAX) {
            const uint32_t track = byThread.at(chunkThreads[end.chunk][end.track]);
            cached = static_cast<uint32_t>(model.flowOrigins.size());
            model.flowOrigins.push_back({track, model.strings.Intern(DbFlowCategory(kind))});
        }
        return cached;
    };
    PodArray<Flow>& flows = model.flows;  // filled, then ordered where it lies
    for (const DbArrow& arrow : arrows) {
        Flow flow{};
        flow.fromTs = arrow.from.ts;
        flow.toTs = arrow.to.ts;
        flow.fromRef = arrow.from.ref;
        flow.toRef = arrow.to.ref;
        flow.fromOrigin = origin(arrow.from, arrow.kind);
        flow.toOrigin = origin(arrow.to, arrow.kind);
        flow.fromEnclosing = true;
        flow.toEnclosing = true;
        flows.push_back(flow);
    }
    auto earlier = [](const Flow& a, const Flow& b) {
        if (a.fromTs != b.fromTs) return a.fromTs < b.fromTs;
        if (a.fromRef != b.fromRef) return a.fromRef < b.fromRef;
        return a.toRef < b.toRef;
    };
    // Two halves sorted at once, then merged: millions of arrows on two cores.
    const auto middle = flows.begin() + static_cast<ptrdiff_t>(flows.size() / 2);
    std::thread firstHalf([&] { std::sort(flows.begin(), middle, earlier); });
    std::sort(middle, flows.end(), earlier);
    firstHalf.join();
    std::inplace_merge(flows.begin(), middle, flows.end(), earlier);
    model.report.matchedFlows = flows.size();
}

}  // namespace marey
