#include "loading/DatabaseLoader.hpp"

#include <algorithm>
#include <map>
#include <thread>

#include "db/DbTimeline.hpp"
#include "index/RowQuery.hpp"
#include "model/ModelBuilder.hpp"

namespace marey {
namespace {

// The model's arrows from the database's, once the builder has numbered the tracks.
void AddArrows(const DbTimeline& timeline, const std::vector<ChunkTrack>& chunkTracks,
               TraceModel& model) {
    std::map<std::pair<int64_t, int64_t>, uint32_t> byThread;
    for (uint32_t t = 0; t < model.tracks.size(); ++t) {
        const Track& track = model.tracks[t];
        // A process without any event is left out of the model (its tracks name no process).
        if (track.kind == TrackKind::kThread && track.process < model.processes.size())
            byThread[{model.processes[track.process].pid.number, track.tid.number}] = t;
    }
    auto modelTrack = [&](uint32_t chunkTrack) {
        const ChunkTrack& track = chunkTracks[chunkTrack];
        return byThread.at({track.pid.number, track.tid.number});
    };
    auto origin = [&](uint32_t track, DbFlowKind kind) {
        const FlowOrigin wanted{track, model.strings.Intern(DbFlowCategory(kind))};
        const auto found = std::find(model.flowOrigins.begin(), model.flowOrigins.end(), wanted);
        if (found != model.flowOrigins.end())
            return static_cast<uint32_t>(found - model.flowOrigins.begin());
        model.flowOrigins.push_back(wanted);
        return static_cast<uint32_t>(model.flowOrigins.size() - 1);
    };
    std::vector<Flow> flows;
    flows.reserve(timeline.arrows.size());
    for (const DbArrow& arrow : timeline.arrows) {
        Flow flow{};
        flow.fromTs = arrow.from.ts;
        flow.toTs = arrow.to.ts;
        flow.fromRef = arrow.from.ref;
        flow.toRef = arrow.to.ref;
        flow.fromOrigin = origin(modelTrack(arrow.from.track), arrow.kind);
        flow.toOrigin = origin(modelTrack(arrow.to.track), arrow.kind);
        flow.fromEnclosing = true;
        flow.toEnclosing = true;
        flows.push_back(flow);
    }
    std::sort(flows.begin(), flows.end(), [](const Flow& a, const Flow& b) {
        if (a.fromTs != b.fromTs) return a.fromTs < b.fromTs;
        if (a.fromRef != b.fromRef) return a.fromRef < b.fromRef;
        return a.toRef < b.toRef;
    });
    for (const Flow& flow : flows) model.flows.push_back(flow);
    model.report.matchedFlows = flows.size();
}

}  // namespace

Result<LoadedDatabase> LoadProfilerDatabase(const std::string& profilerDb,
                                            const std::string& analysisDb,
                                            const LoadOptions& options) {
    auto opened = SqliteFile::OpenReadOnly(profilerDb);
    if (!opened.ok()) return opened.status();
    const SqliteFile& db = *opened.value();
    if (!db.HasTable("TASK") && !db.HasTable("PYTORCH_API") && !db.HasTable("CANN_API") &&
        !db.HasTable("COMMUNICATION_OP"))
        return Status::Error(profilerDb +
                             ": error: not a profiler database: none of the tables TASK, "
                             "PYTORCH_API, CANN_API, COMMUNICATION_OP is in it");
    LoadedDatabase loaded;
    DbTimeline timeline = ReadDbTimeline(db);
    for (const std::string& writer : db.WriterFilesBeside())
        timeline.events.problems.Add(
            0, writer +
                   " is beside it: a program still writes the database; what it has not "
                   "yet written to the main file is not shown");
    loaded.model = std::make_unique<TraceModel>();
    TraceModel& model = *loaded.model;
    TraceSource& source = model.sources.emplace_back();
    source.path = profilerDb;
    source.format = SourceFormat::kDatabase;
    source.tableRows = timeline.rowsRead;
    const std::vector<ChunkTrack> chunkTracks = [&] {
        std::vector<ChunkTrack> copy;
        for (const ChunkTrack& track : timeline.events.tracks)
            copy.push_back({track.pid, track.tid, {}, {}, {}});
        return copy;
    }();
    std::vector<ChunkEvents> chunks;
    chunks.push_back(std::move(timeline.events));
    const unsigned threads =
        options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency());
    BuildModel(chunks, threads, model, kFlowSortInPlaceBytes, BuildOverview);
    AddArrows(timeline, chunkTracks, model);
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
    ReadDbMemory(db, loaded.tables);
    return loaded;
}

}  // namespace marey
