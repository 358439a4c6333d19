#include "import/nsys/NsysLoader.hpp"

#include <algorithm>
#include <filesystem>
#include <set>
#include <thread>

#include "core/LoadTiming.hpp"
#include "import/RowArrows.hpp"
#include "import/TrackRoles.hpp"
#include "index/RowQuery.hpp"
#include "model/MergeRankModels.hpp"
#include "model/ModelBuilder.hpp"

namespace marey {
namespace {

// What each table holds, for the line that names the ones an export lacks.
struct TableMeaning {
    NsysTable table;
    const char* holds;
};
constexpr TableMeaning kTableMeanings[] = {
    {NsysTable::kKernel, "no kernels"},
    {NsysTable::kMemcpy, "no copies"},
    {NsysTable::kMemset, "no fills"},
    {NsysTable::kSynchronization, "no synchronisations"},
    {NsysTable::kRuntime, "no CUDA runtime calls"},
    {NsysTable::kDriver, "no CUDA driver calls"},
    {NsysTable::kNvtx, "no NVTX ranges"},
};

std::string NoteOf(const SqliteFile& db, const std::string& schemaVersion) {
    std::string note = schemaVersion.empty() ? "schema version unknown" : "schema " + schemaVersion;
    // The wall clock of the capture's start: the timeline's own clock is Nsight's.
    if (db.HasTable("TARGET_INFO_SESSION_START_TIME"))
        if (auto statement = db.Prepare("SELECT utcTime FROM TARGET_INFO_SESSION_START_TIME");
            statement.ok() && statement.value().Step() &&
            statement.value().Type(0) == SqliteType::kText)
            note += "; capture started " + std::string(statement.value().Text(0)) + " UTC";
    std::string absent;
    for (const TableMeaning& meaning : kTableMeanings)
        if (!db.HasTable(NsysTableName(meaning.table)))
            absent += std::string(absent.empty() ? "" : ", ") + NsysTableName(meaning.table) +
                      " (" + meaning.holds + ")";
    if (!absent.empty()) note += "; not in this export: " + absent;
    return note;
}

// One model of 'db': every process, or only one.
std::unique_ptr<TraceModel> BuildNsysModel(const std::shared_ptr<const SqliteFile>& connection,
                                           const NsysReadOptions& read, unsigned threads,
                                           LoadProgress* progress, std::string* schemaVersion) {
    const LoadTiming timing;
    NsysExport exported = ReadNsysExport(*connection, read, progress, threads);
    if (schemaVersion) *schemaVersion = exported.schemaVersion;
    auto model = std::make_unique<TraceModel>();
    TraceSource& source = model->sources.emplace_back();
    source.path = connection->Path();
    source.format = SourceFormat::kNsysExport;
    source.tableRows = exported.rowsRead;
    source.sliceFields = std::move(exported.sliceFields);
    source.copyBytes = std::move(exported.copyBytes);
    model->recordedColors = std::move(exported.recordedColors);
    source.database = connection;
    const auto chunkThreads = ChunkThreads(exported.chunks);
    BuildModel(exported.chunks, threads, *model, kFlowSortInPlaceBytes, BuildOverview);
    AssignTrackRoles(*model);
    AddRowArrows(exported.arrows, chunkThreads, *model);
    timing.Report("nsys: model built");
    return model;
}

}  // namespace

constexpr const char* kRankFromDevice = "its CUDA device";

namespace {

// The export at 'path', open read-only, or nullptr when it is not one (by its name's extension
// and its tables; no table is scanned).
std::shared_ptr<const SqliteFile> OpenIfExport(const std::string& path) {
    std::error_code error;
    const std::string extension = std::filesystem::path(path).extension().string();
    if ((extension != ".sqlite" && extension != ".sqlite3") ||
        !std::filesystem::is_regular_file(path, error))
        return nullptr;
    auto opened = SqliteFile::OpenReadOnly(path);
    if (!opened.ok() || !IsNsysExport(*opened.value())) return nullptr;
    return std::move(opened.value());
}

Status NotAnExport(const std::string& path) {
    return Status::Error(path +
                         ": error: not an Nsight Systems export: it has none of the tables "
                         "CUPTI_ACTIVITY_KIND_KERNEL, CUPTI_ACTIVITY_KIND_RUNTIME, "
                         "NVTX_EVENTS and the others nsys export writes");
}

// The export at 'path', open read-only, or why not (not SQLite, not an export).
Result<std::shared_ptr<const SqliteFile>> OpenExport(const std::string& path) {
    auto opened = SqliteFile::OpenReadOnly(path);
    if (!opened.ok()) return opened.status();
    std::shared_ptr<const SqliteFile> connection = std::move(opened.value());
    if (!IsNsysExport(*connection)) return NotAnExport(path);
    return connection;
}

unsigned ThreadsOf(const LoadOptions& options) {
    return options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency());
}

// The process of 'rank' alone: its rows only.
LoadedNsys LoadOneRank(const std::shared_ptr<const SqliteFile>& connection,
                       const LoadOptions& options, unsigned threads, LoadProgress* progress,
                       const NsysRank& rank) {
    LoadedNsys loaded;
    NsysReadOptions read;
    read.stepRange = options.stepRange;
    read.onlyGlobalPid = rank.process.globalPid;
    std::string schemaVersion;
    loaded.model = BuildNsysModel(connection, read, threads, progress, &schemaVersion);
    if (rank.rankFrom == kRankFromDevice)
        loaded.model->sources.front().deviceRank = RankId(static_cast<int>(rank.rank));
    loaded.ranks = {rank};
    loaded.note = NoteOf(*connection, schemaVersion);
    return loaded;
}

}  // namespace

bool IsNsysExportFile(const std::string& path) {
    return OpenIfExport(path) != nullptr;
}

bool IsNsysJob(const std::string& path) {
    const std::shared_ptr<const SqliteFile> db = OpenIfExport(path);
    return db && NsysRanks(*db).size() >= 2;
}

Result<LoadedNsys> LoadNsysRank(const std::string& path, const LoadOptions& options,
                                const NsysRank& rank) {
    auto connection = OpenExport(path);
    if (!connection.ok()) return connection.status();
    return LoadOneRank(connection.value(), options, ThreadsOf(options), nullptr, rank);
}

std::vector<NsysRank> NsysRanks(const SqliteFile& db) {
    std::vector<NsysRank> ranks;
    const std::vector<NsysProcess> processes = ListNsysGpuProcesses(db);
    std::set<int64_t> devices;
    bool oneDeviceEach = true;
    for (const NsysProcess& process : processes) {
        oneDeviceEach &= process.devices.size() == 1;
        if (oneDeviceEach) oneDeviceEach &= devices.insert(process.devices.front()).second;
    }
    for (size_t i = 0; i < processes.size(); ++i) {
        NsysRank rank;
        rank.process = processes[i];
        rank.rank = oneDeviceEach ? processes[i].devices.front() : static_cast<int64_t>(i);
        rank.rankFrom = oneDeviceEach ? kRankFromDevice : "its place among the processes";
        ranks.push_back(std::move(rank));
    }
    std::stable_sort(ranks.begin(), ranks.end(),
                     [](const NsysRank& a, const NsysRank& b) { return a.rank < b.rank; });
    return ranks;
}

Result<LoadedNsys> LoadNsysExport(const std::string& path, const LoadOptions& options,
                                  LoadProgress* progress, std::optional<int64_t> onlyRank) {
    auto opened = OpenExport(path);
    if (!opened.ok()) return opened.status();
    const std::shared_ptr<const SqliteFile>& connection = opened.value();
    const unsigned threads = ThreadsOf(options);
    LoadedNsys loaded;
    std::vector<NsysRank> ranks = NsysRanks(*connection);
    std::string schemaVersion;
    if (onlyRank) {
        const auto rank = std::find_if(ranks.begin(), ranks.end(),
                                       [&](const NsysRank& r) { return r.rank == *onlyRank; });
        if (rank == ranks.end())
            return Status::Error(path + ": error: no process of rank " + std::to_string(*onlyRank) +
                                 " ran GPU work in this export");
        LoadedNsys one = LoadOneRank(connection, options, threads, progress, *rank);
        if (progress && progress->cancel) return Status::Error(path + ": cancelled");
        return one;
    }
    if (ranks.size() <= 1) {
        NsysReadOptions read;
        read.stepRange = options.stepRange;
        loaded.model = BuildNsysModel(connection, read, threads, progress, &schemaVersion);
    } else {
        // A job in one file: a rank per process, each read on its own (its rows only), then
        // merged as several ranks' files are; one clock, so no shift.
        std::vector<RankModelPart> parts;
        for (const NsysRank& rank : ranks) {
            if (progress && progress->cancel) break;
            NsysReadOptions read;
            read.stepRange = options.stepRange;
            read.onlyGlobalPid = rank.process.globalPid;
            RankModelPart part;
            part.label = "rank " + std::to_string(rank.rank);
            part.note =
                "pid " + std::to_string(rank.process.pid) + ", rank id from " + rank.rankFrom;
            part.model = BuildNsysModel(connection, read, threads, nullptr, &schemaVersion);
            if (rank.rankFrom == kRankFromDevice)
                part.model->sources.front().deviceRank = RankId(static_cast<int>(rank.rank));
            parts.push_back(std::move(part));
        }
        loaded.model = MergeRankModels(std::move(parts), threads);
        // One file: its problems are listed as a file's are, each named with its rank.
        ImportReport& report = loaded.model->report;
        for (const ProcessGroup& group : loaded.model->groups)
            for (const ImportProblem& problem : group.report.problems)
                if (report.problems.size() < kMaxKeptProblems)
                    report.problems.push_back(
                        {problem.byteOffset, 0, 0, group.label + ": " + problem.message});
        loaded.ranks = std::move(ranks);
    }
    if (progress && progress->cancel) return Status::Error(path + ": cancelled");
    loaded.note = NoteOf(*connection, schemaVersion);
    return loaded;
}

}  // namespace marey
