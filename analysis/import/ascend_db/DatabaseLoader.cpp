#include "import/ascend_db/DatabaseLoader.hpp"

#include <algorithm>
#include <map>
#include <thread>

#include "core/LoadTiming.hpp"
#include "db/DbTimeline.hpp"
#include "index/RowQuery.hpp"
#include "model/ModelBuilder.hpp"

namespace marey {
namespace {

// The model's arrows from the database's, once the builder has numbered the tracks.
void AddArrows(const DbTimeline& timeline,
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
    constexpr size_t kKinds = 4;
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
    for (const DbArrow& arrow : timeline.arrows) {
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

}  // namespace

Result<LoadedDatabase> LoadProfilerDatabase(const std::string& profilerDb,
                                            const std::string& analysisDb,
                                            const LoadOptions& options, bool timelineOnly,
                                            LoadProgress* progress) {
    const LoadTiming timing;
    auto opened = SqliteFile::OpenReadOnly(profilerDb);
    if (!opened.ok()) return opened.status();
    std::shared_ptr<const SqliteFile> connection = std::move(opened.value());
    const SqliteFile& db = *connection;
    if (!db.HasTable("TASK") && !db.HasTable("PYTORCH_API") && !db.HasTable("CANN_API") &&
        !db.HasTable("COMMUNICATION_OP"))
        return Status::Error(profilerDb +
                             ": error: not a profiler database: none of the tables TASK, "
                             "PYTORCH_API, CANN_API, COMMUNICATION_OP is in it");
    LoadedDatabase loaded;
    const unsigned threads =
        options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency());
    if (progress) progress->stage = 1;
    DbTimeline timeline = ReadDbTimeline(db, threads, progress);
    if (progress && progress->cancel) return Status::Error(profilerDb + ": cancelled");
    if (progress) progress->stage = 2;
    timing.Report("database: tables read");
    for (const std::string& writer : db.WriterFilesBeside())
        timeline.chunks.front().problems.Add(
            0, writer +
                   " is beside it: a program still writes the database; what it has not "
                   "yet written to the main file is not shown");
    loaded.model = std::make_unique<TraceModel>();
    TraceModel& model = *loaded.model;
    TraceSource& source = model.sources.emplace_back();
    source.path = profilerDb;
    source.format = SourceFormat::kDatabase;
    source.tableRows = timeline.rowsRead;
    source.farRowids = std::move(timeline.farRowids);
    source.taskFields = std::move(timeline.taskFields);
    source.database = connection;
    // The (pid, tid) of every chunk track, for the arrows once the chunks are merged.
    std::vector<std::vector<std::pair<int64_t, int64_t>>> chunkThreads;
    for (const ChunkEvents& chunk : timeline.chunks) {
        auto& threads = chunkThreads.emplace_back();
        for (const ChunkTrack& track : chunk.tracks)
            threads.emplace_back(track.pid.number, track.tid.number);
    }
    BuildModel(timeline.chunks, threads, model, kFlowSortInPlaceBytes, BuildOverview);
    timing.Report("database: model built");
    AddArrows(timeline, chunkThreads, model);
    timing.Report("database: arrows");
    loaded.kernels = std::move(timeline.kernels);

    if (!analysisDb.empty()) {
        auto analysis = SqliteFile::OpenReadOnly(analysisDb);
        if (analysis.ok())
            ReadAnalysisDb(*analysis.value(), loaded.tables);
        else
            loaded.tables.problems.push_back(analysis.status().message());
    }
    if (!loaded.tables.steps && !timeline.steps.empty())
        loaded.tables.steps = StepsFromTimeline(timeline);
    if (!timelineOnly) ReadDbMemory(db, loaded.tables);
    if (progress) progress->stage = 3;
    return loaded;
}

}  // namespace marey
