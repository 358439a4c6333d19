#include "TestSupport.hpp"

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>

namespace marey::test {

std::unique_ptr<TraceModel> LoadJson(const std::string& json, unsigned threads, uint64_t chunkBytes,
                                     uint64_t runBytes) {
    LoadOptions options;
    options.threads = threads;
    options.chunkBytes = chunkBytes;
    options.runBytes = runBytes;
    return LoadJson(json, options);
}

std::unique_ptr<TraceModel> LoadJson(const std::string& json, const LoadOptions& options) {
    auto result = LoadTraceText(TraceText::FromString(json), "test.json", options);
    REQUIRE_MESSAGE(result.ok(), (result.ok() ? "" : result.message()));
    return std::move(result.value());
}

std::filesystem::path TempDir(const std::string& name) {
    namespace fs = std::filesystem;
    const fs::path dir =
        fs::temp_directory_path() / ("marey_" + name + "_" + std::to_string(getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

// Every field of every process, track and row is written out: a field added to one of them must
// be added here too (and to the merge of several ranks, which shifts and renames them).
static_assert(sizeof(Process) == 72 && sizeof(Track) == 296 && sizeof(Row) == 256,
              "a field was added to Process, Track or Row: write it in DumpModel and move it in "
              "MergeRankModels");

std::string WrittenText(const std::function<void(std::FILE*)>& write) {
    char* buffer = nullptr;
    size_t size = 0;
    std::FILE* memory = open_memstream(&buffer, &size);
    write(memory);
    std::fclose(memory);
    std::string text(buffer, size);
    std::free(buffer);
    return text;
}

std::string DumpModel(const TraceModel& model) {
    std::string out;
    auto line = [&](const std::string& text) { out += text + "\n"; };
    auto entity = [&](const EntityId& id) { return EntityText(id, model.strings); };
    for (uint32_t p = 0; p < model.processes.size(); ++p) {
        const Process& process = model.processes[p];
        line("process " + model.ProcessLabel(p) + " pid=" + entity(process.pid) +
             " labels=" + std::string(model.Name(process.labels)) +
             " sort=" + std::to_string(process.sortIndex) +
             (process.hasSortIndex
                  ? ""
                  : "(none)"));  // its group: what a merge sets, checked where merges are
        for (uint32_t t : process.tracks) {
            const Track& track = model.tracks[t];
            line(" track " + model.TrackLabel(t) +
                 " kind=" + std::to_string(static_cast<int>(track.kind)) +
                 " process=" + std::to_string(track.process) + " tid=" + entity(track.tid) +
                 " sort=" + std::to_string(track.sortIndex) + (track.hasSortIndex ? "" : "(none)") +
                 " slices=" + std::to_string(track.sliceCount) +
                 " overlapping=" + std::to_string(track.overlapSliceCount) +
                 " counter_key=" + std::string(model.Name(track.counterKey)));
            for (const Row& row : track.rows) {
                line("  row kind=" + std::to_string(static_cast<int>(row.kind)) +
                     " depth=" + std::to_string(row.depth) +
                     " overview_resolution=" + std::to_string(row.overviewResolutionNs));
                for (size_t i = 0; i < row.size(); ++i)
                    line("   " + std::to_string(row.start[i]) + " " + std::to_string(row.end[i]) +
                         " " + std::string(model.Name(row.name[i])) + " @" +
                         std::to_string(row.Ref(i)));
                for (const OverviewItem& item : row.overview)
                    line("   overview " + std::to_string(item.startNs) + " " +
                         std::to_string(item.endNs) + " " + std::to_string(item.first) + "+" +
                         std::to_string(item.count));
            }
            for (size_t i = 0; i < track.instantTs.size(); ++i)
                line("  instant " + std::to_string(track.instantTs[i]) + " " +
                     std::string(model.Name(track.instantName[i])) + " @" +
                     std::to_string(track.instantRef[i]));
            for (size_t i = 0; i < track.counterTs.size(); ++i)
                line("  sample " + std::to_string(track.counterTs[i]) + " " +
                     std::to_string(track.counterValue[i]));
        }
    }
    for (const Flow& flow : model.flows)
        line("flow " + std::string(model.Name(model.FlowCategory(flow))) + " @" +
             std::to_string(flow.fromRef) + " " + std::to_string(flow.fromTs) + "@" +
             model.TrackLabel(model.FlowFromTrack(flow)) + " -> " + std::to_string(flow.toTs) +
             "@" + model.TrackLabel(model.FlowToTrack(flow)) + " @" + std::to_string(flow.toRef) +
             (flow.fromEnclosing ? " from-enclosing" : "") +
             (flow.toEnclosing ? " to-enclosing" : ""));
    for (const UnfinishedSlice& slice : model.unfinished)
        line("unfinished " + std::to_string(slice.track) + "/" + std::to_string(slice.row) + "/" +
             std::to_string(slice.index));
    line("span " + std::to_string(model.firstNs) + " " + std::to_string(model.lastNs) + " slices " +
         std::to_string(model.sliceCount) + " instants " + std::to_string(model.instantCount) +
         " samples " + std::to_string(model.counterSampleCount));
    line("events " + std::to_string(model.report.eventCount) + " problems " +
         std::to_string(model.report.problemCount));
    for (const ImportProblem& p : model.report.problems)
        line("problem " + std::to_string(p.byteOffset) + " " + p.message);
    return out;
}

std::string FixturesDir() {
    const std::string dir = MAREY_FIXTURES_DIR;
    struct stat info {};
    if (stat(dir.c_str(), &info) != 0) {
        MESSAGE("skipped: real fixtures not found at " << dir);
        return "";
    }
    return dir;
}

void ExecuteSql(const std::filesystem::path& path, const std::string& sql) {
    namespace fs = std::filesystem;
    const fs::path temporary = fs::weakly_canonical(fs::temp_directory_path());
    const fs::path target = fs::weakly_canonical(path);
    const auto [end, unused] =
        std::mismatch(temporary.begin(), temporary.end(), target.begin(), target.end());
    REQUIRE_MESSAGE(end == temporary.end(), "not a test's own database: " << path);
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
                            nullptr) == SQLITE_OK);
    char* error = nullptr;
    const int result = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error);
    const std::string message = error ? error : "";
    sqlite3_free(error);
    sqlite3_close(db);
    REQUIRE_MESSAGE(result == SQLITE_OK, message);
}

std::string ProblemText(const TraceModel& model) {
    std::string out;
    for (const ImportProblem& p : model.report.problems) {
        if (!out.empty()) out += "\n";
        out += std::to_string(p.line) + ":" + std::to_string(p.column) + ": " + p.message;
    }
    return out;
}

std::string ProblemsOf(const std::vector<ImportProblem>& problems) {
    std::string text;
    for (const ImportProblem& problem : problems)
        text += std::to_string(problem.line) + ":" + std::to_string(problem.column) + ": " +
                problem.message + "\n";
    return text;
}

std::string RunCommand(const std::string& command, int* status) {
    std::string out;
    std::FILE* pipe = popen(command.c_str(), "r");
    if (!pipe) {
        *status = -1;
        return out;
    }
    char buffer[65536];
    for (size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) out.append(buffer, n);
    *status = pclose(pipe);
    return out;
}

std::string XvfbRun(const std::string& screen) {
    // Removed when the test process ends; each command adds and removes its own display's entry.
    static const struct AuthorityFile {
        std::filesystem::path path = std::filesystem::temp_directory_path() /
                                     ("marey_xauthority_" + std::to_string(::getpid()));
        ~AuthorityFile() {
            std::error_code ignored;
            std::filesystem::remove(path, ignored);
        }
    } authority;
    return "xvfb-run -a -f " + authority.path.string() + " -s '-screen 0 " + screen + "' ";
}

}  // namespace marey::test
