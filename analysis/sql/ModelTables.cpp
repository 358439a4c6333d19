#include "sql/ModelTables.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <functional>
#include <string>

#include "index/RowQuery.hpp"
#include "sql/FunctionRows.hpp"
#include "sql/SliceRows.hpp"

namespace marey {
namespace {

// A pid or tid: its number, or its text where the trace wrote one.
void SetEntity(sqlite3_context* out, const EntityId& id, const TraceModel& model) {
    if (id.text)
        SetSqlText(out, model.Name(id.text));
    else
        sqlite3_result_int64(out, id.number);
}

const char* TrackType(TrackKind kind) {
    switch (kind) {
        case TrackKind::kThread:
            return "thread_track";
        case TrackKind::kAsync:
            return "process_track";
        case TrackKind::kCounter:
            return "counter_track";
    }
    return "track";
}

// The tracks a person sees (those of the processes' lists, as `stats` counts them) and any
// other that holds something, so that every slice's track_id joins.
std::vector<uint32_t> ShownTracks(const TraceModel& model) {
    std::vector<bool> shown(model.tracks.size(), false);
    for (const Process& process : model.processes)
        for (uint32_t track : process.tracks) shown[track] = true;
    std::vector<uint32_t> ids;
    for (uint32_t t = 0; t < model.tracks.size(); ++t) {
        const Track& track = model.tracks[t];
        if (shown[t] || track.sliceCount > 0 || !track.instantTs.empty() ||
            !track.counterTs.empty())
            ids.push_back(t);
    }
    return ids;
}

// The ids of the shown tracks of one kind, in track order: thread_track's rows, or the threads.
std::vector<uint32_t> TracksOfKind(const TraceModel& model, TrackKind kind) {
    std::vector<uint32_t> ids;
    for (uint32_t t : ShownTracks(model))
        if (model.tracks[t].kind == kind) ids.push_back(t);
    return ids;
}

std::unique_ptr<SqlRows> ProcessTable(const TraceModel& model) {
    return std::make_unique<FunctionRows>(
        "process",
        std::vector<SqlColumn>{{"upid", "INTEGER", true}, {"pid", "INTEGER"}, {"name", "TEXT"}},
        static_cast<int64_t>(model.processes.size()),
        [&model](int64_t id, int column, sqlite3_context* out) {
            const Process& process = model.processes[static_cast<size_t>(id)];
            if (column == 0) sqlite3_result_int64(out, id);
            if (column == 1) SetEntity(out, process.pid, model);
            if (column == 2) SetSqlText(out, model.Name(process.name));
        });
}

// utid: a thread's row in `thread`; thread_track.utid joins it.
std::unique_ptr<SqlRows> ThreadTable(const TraceModel& model,
                                     std::shared_ptr<const std::vector<uint32_t>> threads) {
    return std::make_unique<FunctionRows>(
        "thread",
        std::vector<SqlColumn>{
            {"utid", "INTEGER", true}, {"tid", "INTEGER"}, {"name", "TEXT"}, {"upid", "INTEGER"}},
        static_cast<int64_t>(threads->size()),
        [&model, threads](int64_t id, int column, sqlite3_context* out) {
            const Track& track = model.tracks[(*threads)[static_cast<size_t>(id)]];
            if (column == 0) sqlite3_result_int64(out, id);
            if (column == 1) SetEntity(out, track.tid, model);
            if (column == 2) SetSqlText(out, model.Name(track.name));
            if (column == 3) sqlite3_result_int64(out, track.process);
        });
}

std::unique_ptr<SqlRows> TrackTable(const TraceModel& model) {
    auto ids = std::make_shared<const std::vector<uint32_t>>(ShownTracks(model));
    return std::make_unique<FunctionRows>(
        "track",
        std::vector<SqlColumn>{{"id", "INTEGER"},
                               {"name", "TEXT"},
                               {"type", "TEXT"},
                               {"role", "TEXT"},
                               {"upid", "INTEGER"},
                               {"slice_count", "INTEGER"}},
        static_cast<int64_t>(ids->size()),
        [&model, ids](int64_t row, int column, sqlite3_context* out) {
            const uint32_t id = (*ids)[static_cast<size_t>(row)];
            const Track& track = model.tracks[id];
            if (column == 0) sqlite3_result_int64(out, id);
            if (column == 1) SetSqlText(out, model.Name(track.name));
            if (column == 2) sqlite3_result_text(out, TrackType(track.kind), -1, SQLITE_STATIC);
            if (column == 3) sqlite3_result_text(out, TrackRoleName(track.role), -1, SQLITE_STATIC);
            if (column == 4) sqlite3_result_int64(out, track.process);
            if (column == 5)
                sqlite3_result_int64(
                    out, static_cast<int64_t>(track.sliceCount + track.instantTs.size()));
        });
}

// thread_track, process_track and counter_track: the tracks of one kind, by their track id.
std::unique_ptr<SqlRows> TracksTable(const TraceModel& model, const char* name, TrackKind kind) {
    auto ids = std::make_shared<const std::vector<uint32_t>>(TracksOfKind(model, kind));
    const char* ownerColumn = kind == TrackKind::kThread ? "utid" : "upid";
    return std::make_unique<FunctionRows>(
        name, std::vector<SqlColumn>{{"id", "INTEGER"}, {"name", "TEXT"}, {ownerColumn, "INTEGER"}},
        static_cast<int64_t>(ids->size()),
        [&model, ids, kind](int64_t row, int column, sqlite3_context* out) {
            const uint32_t id = (*ids)[static_cast<size_t>(row)];
            const Track& track = model.tracks[id];
            if (column == 0) sqlite3_result_int64(out, id);
            if (column == 1) SetSqlText(out, model.Name(track.name));
            if (column != 2) return;
            if (kind == TrackKind::kThread)  // thread tracks and threads are in the same order
                sqlite3_result_int64(out, row);
            else
                sqlite3_result_int64(out, track.process);
        });
}

// Every counter sample, counter track by counter track, in time order within each.
std::unique_ptr<SqlRows> CounterTable(const TraceModel& model) {
    auto starts = std::make_shared<std::vector<std::pair<int64_t, uint32_t>>>();
    int64_t count = 0;
    for (uint32_t t = 0; t < model.tracks.size(); ++t) {
        const size_t samples = model.tracks[t].counterTs.size();
        if (samples == 0) continue;
        starts->push_back({count, t});
        count += static_cast<int64_t>(samples);
    }
    return std::make_unique<FunctionRows>(
        "counter",
        std::vector<SqlColumn>{
            {"id", "INTEGER", true}, {"ts", "INTEGER"}, {"track_id", "INTEGER"}, {"value", "REAL"}},
        count, [&model, starts](int64_t id, int column, sqlite3_context* out) {
            const auto after =
                std::upper_bound(starts->begin(), starts->end(), id,
                                 [](int64_t value, const std::pair<int64_t, uint32_t>& start) {
                                     return value < start.first;
                                 });
            const auto& [first, trackId] = *(after - 1);
            const Track& track = model.tracks[trackId];
            const size_t index = static_cast<size_t>(id - first);
            if (column == 0) sqlite3_result_int64(out, id);
            if (column == 1) sqlite3_result_int64(out, track.counterTs[index]);
            if (column == 2) sqlite3_result_int64(out, trackId);
            if (column == 3) sqlite3_result_double(out, track.counterValue[index]);
        });
}

// Perfetto's flow: the slices an arrow leaves and enters, bound as the timeline binds them
// (EnclosingSlice: the deepest slice holding each end's time on its track), with each end's
// time and track and the arrow's category. A slice id is NULL where no slice holds the end.
std::unique_ptr<SqlRows> FlowTable(const TraceModel& model, const SliceRows& slices) {
    return std::make_unique<FunctionRows>(
        "flow",
        std::vector<SqlColumn>{{"id", "INTEGER", true},
                               {"slice_out", "INTEGER"},
                               {"slice_in", "INTEGER"},
                               {"ts_out", "INTEGER"},
                               {"ts_in", "INTEGER"},
                               {"track_out", "INTEGER"},
                               {"track_in", "INTEGER"},
                               {"category", "TEXT"}},
        static_cast<int64_t>(model.flows.size()),
        [&model, &slices](int64_t id, int column, sqlite3_context* out) {
            const Flow& flow = model.flows[static_cast<size_t>(id)];
            const bool in = column == 2 || column == 4 || column == 6;
            const uint32_t track = in ? model.FlowToTrack(flow) : model.FlowFromTrack(flow);
            const TimeNs ts = in ? flow.toTs : flow.fromTs;
            switch (column) {
                case 0:
                    return sqlite3_result_int64(out, id);
                case 1:
                case 2: {
                    const SlicePlace place = EnclosingSlice(model.tracks[track], ts);
                    if (place.row < 0) return sqlite3_result_null(out);
                    return sqlite3_result_int64(
                        out, slices.IdOf(track, static_cast<uint32_t>(place.row), place.index));
                }
                case 3:
                case 4:
                    return sqlite3_result_int64(out, ts);
                case 5:
                case 6:
                    return sqlite3_result_int64(out, track);
                default:
                    return SetSqlText(out, model.Name(model.FlowCategory(flow)));
            }
        });
}

}  // namespace

std::vector<std::unique_ptr<SqlRows>> MakeModelTables(const TraceModel& model) {
    auto threads =
        std::make_shared<const std::vector<uint32_t>>(TracksOfKind(model, TrackKind::kThread));
    std::vector<std::unique_ptr<SqlRows>> tables;
    auto slices = std::make_unique<SliceRows>(model);
    const SliceRows& sliceRows = *slices;
    tables.push_back(std::move(slices));
    tables.push_back(ProcessTable(model));
    tables.push_back(ThreadTable(model, threads));
    tables.push_back(TrackTable(model));
    tables.push_back(TracksTable(model, "thread_track", TrackKind::kThread));
    tables.push_back(TracksTable(model, "process_track", TrackKind::kAsync));
    tables.push_back(TracksTable(model, "counter_track", TrackKind::kCounter));
    tables.push_back(CounterTable(model));
    tables.push_back(FlowTable(model, sliceRows));
    return tables;
}

}  // namespace marey
