#include "import/ascend_db/DatabaseLoader.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <thread>

#include "core/LoadTiming.hpp"
#include "db/DbTimeline.hpp"
#include "index/RowQuery.hpp"
#include "import/RowArrows.hpp"
#include "import/TrackRoles.hpp"
#include "model/ModelBuilder.hpp"

namespace marey {

Result<LoadedDatabase> LoadProfilerDatabase(const std::string& profilerDb,
                                            const std::string& analysisDb,
                                            const LoadOptions& options, bool timelineOnly,
                                            LoadProgress* progress) {
    const LoadTiming timing;
    auto opened = SqliteFile::OpenReadOnly(profilerDb);
    if (!opened.ok()) return opened.status();
    std::shared_ptr<const SqliteFile> connection = std::move(opened.value());
    const SqliteFile& db = *connection;
    if (Status profiler = CheckProfilerDatabase(db); !profiler.ok()) return profiler;
    LoadedDatabase loaded;
    const unsigned threads =
        options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency());
    if (progress) progress->stage = 1;
    DbTimeline timeline = ReadDbTimeline(db, threads, progress);
    if (progress && progress->cancel) return Status::Error(profilerDb + ": cancelled");
    if (progress) progress->stage = 2;
    timing.Report("database: tables read");
    if (!db.Salvaged().empty()) timeline.chunks.front().problems.Add(0, db.Salvaged());
    // A write-ahead log holds changes not in the main file yet; a rollback journal holds the
    // pages an unfinished change replaced in it, which only a writer may put back.
    for (const std::string& writer : db.WriterFilesBeside()) {
        const bool journal =
            writer.size() > 8 && writer.compare(writer.size() - 8, 8, "-journal") == 0;
        timeline.chunks.front().problems.Add(
            0, std::filesystem::path(writer).filename().string() +
                   (journal ? " is beside it: a program was writing the database; its last "
                              "change may be shown half made (the journal that would undo it is "
                              "not read)"
                            : " is beside it: a program still writes the database; what it has "
                              "not yet written to the main file is not shown"));
    }
    loaded.model = std::make_unique<TraceModel>();
    TraceModel& model = *loaded.model;
    TraceSource& source = model.sources.emplace_back();
    source.path = profilerDb;
    source.format = SourceFormat::kDatabase;
    source.tableRows = timeline.rowsRead;
    source.farRowids = std::move(timeline.farRowids);
    source.sliceFields = std::move(timeline.sliceFields);
    source.database = connection;
    // The (pid, tid) of every chunk track, for the arrows once the chunks are merged.
    const auto chunkThreads = ChunkThreads(timeline.chunks);
    BuildModel(timeline.chunks, threads, model, kFlowSortInPlaceBytes, BuildOverview);
    AssignTrackRoles(model);
    timing.Report("database: model built");
    AddRowArrows(timeline.arrows, chunkThreads, model);
    timing.Report("database: arrows");
    loaded.kernels = std::move(timeline.kernels);

    if (!analysisDb.empty()) {
        auto analysis = SqliteFile::OpenReadOnly(analysisDb);
        if (analysis.ok() && !analysis.value()->Salvaged().empty())
            loaded.tables.problems.push_back(analysisDb +
                                             ": error: " + analysis.value()->Salvaged());
        if (analysis.ok())
            ReadAnalysisDb(*analysis.value(), db, loaded.tables);
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
