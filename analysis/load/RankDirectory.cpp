#include "load/RankDirectory.hpp"

#include <simdjson.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <iterator>
#include <set>

namespace marey {
namespace {

namespace fs = std::filesystem;

bool IsFile(const fs::path& path) {
    std::error_code error;
    return fs::is_regular_file(path, error);
}

}  // namespace

int NumberBetween(const std::string& name, const std::string& prefix, const std::string& suffix) {
    if (name.size() <= prefix.size() + suffix.size() ||
        name.compare(0, prefix.size(), prefix) != 0 ||
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
        return -1;
    const std::string digits =
        name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
    if (digits.empty() || digits.size() > 7 ||
        !std::all_of(digits.begin(), digits.end(), ::isdigit))
        return -1;
    return std::stoi(digits);
}

std::optional<RankId> RankIdFromFolderName(const std::string& name) {
    const size_t at = name.rfind("rank");
    if (at == std::string::npos) return std::nullopt;
    size_t i = at + 4;
    if (i < name.size() && name[i] == '_') ++i;
    size_t end = i;
    while (end < name.size() && end - i < 6 && std::isdigit(static_cast<unsigned char>(name[end])))
        ++end;
    if (end == i) return std::nullopt;
    return RankId(std::stoi(name.substr(i, end - i)));
}

namespace {

// rank_id and the profiler level from profiler_info_N.json; the file's own problems go to
// 'files.problems' and the rest of the folder still opens.
void ReadProfilerInfo(const fs::path& path, RankFiles& files) {
    simdjson::padded_string text;
    if (auto error = simdjson::padded_string::load(path.string()).get(text)) {
        files.problems.push_back(path.string() +
                                 ": error: cannot read: " + simdjson::error_message(error));
        return;
    }
    // A small file: the DOM parser validates all of it before any lookup, so a malformed file
    // fails once here instead of leaving a half-read On-Demand document behind.
    simdjson::dom::parser parser;
    simdjson::dom::element document;
    if (auto error = parser.parse(text).get(document)) {
        files.problems.push_back(path.string() +
                                 ": error: not JSON: " + simdjson::error_message(error));
        return;
    }
    simdjson::dom::element rankValue;
    if (!document.at_pointer("/rank_id").get(rankValue)) {
        int64_t rank = -1;
        if (!rankValue.get(rank) && rank >= 0 && rank <= kMaxRankId) {
            files.rankId = RankId(static_cast<int>(rank));
            files.rankSource = path.filename().string() + " (rank_id)";
        } else {
            files.problems.push_back(path.string() + ": error: \"rank_id\" is " +
                                     simdjson::minify(rankValue).substr(0, 40) +
                                     ": expected a rank id from 0 to 999999; the rank id is taken "
                                     "from the file's or the "
                                     "folder's name");
        }
    }
    std::string_view level;
    for (const char* pointer :
         {"/config/experimental_config/_profiler_level", "/config/common_config/_profiler_level"}) {
        if (!document.at_pointer(pointer).get(level)) {
            files.profilerLevel = std::string(level);
            break;
        }
    }
}

// Every known file name and where its path goes.
struct KnownFile {
    const RankFileKind* kind;
    std::string RankFiles::*path;
};
const KnownFile kKnownFiles[] = {
    {&kTraceViewFile, &RankFiles::traceView},
    {&kKernelDetailsFile, &RankFiles::kernelDetails},
    {&kStepTraceFile, &RankFiles::stepTrace},
    {&kOpStatisticFile, &RankFiles::opStatistic},
    {&kCommunicationFile, &RankFiles::communication},
    {&kCommunicationMatrixFile, &RankFiles::communicationMatrix},
    {&kMemoryRecordFile, &RankFiles::memoryRecord},
    {&kOperatorMemoryFile, &RankFiles::operatorMemory},
};

// The folder that holds the profiler's files: ASCEND_PROFILER_OUTPUT inside 'root' when there
// is one, else 'root' itself.
fs::path OutputFolder(const fs::path& root) {
    std::error_code error;
    const fs::path nested = root / "ASCEND_PROFILER_OUTPUT";
    return fs::is_directory(nested, error) ? nested : root;
}

// Where profiler_info and profiler_metadata.json are: the rank folder, or the folder above when
// the person opened ASCEND_PROFILER_OUTPUT itself.
fs::path InfoFolder(const fs::path& root) {
    std::error_code error;
    if (root.filename() == "ASCEND_PROFILER_OUTPUT" ||
        (root.filename().empty() && root.parent_path().filename() == "ASCEND_PROFILER_OUTPUT"))
        return fs::weakly_canonical(root / "..", error);
    return root;
}

// Why 'path', which exists, is not a regular file: "a folder", "a pipe", "a link to nothing"…
std::string NotAFileReason(const fs::path& path) {
    std::error_code error;
    const fs::file_status status = fs::symlink_status(path, error);
    if (fs::is_symlink(status) && !fs::exists(path, error)) return "a link to nothing";
    const fs::file_status target = fs::status(path, error);
    if (fs::is_directory(target)) return "a folder";
    if (fs::is_fifo(target)) return "a pipe";
    if (fs::is_socket(target)) return "a socket";
    if (fs::is_block_file(target) || fs::is_character_file(target)) return "a device";
    return "not a regular file";
}

}  // namespace

const std::string& RankFiles::PathOf(const RankFileKind& kind) const {
    for (const KnownFile& known : kKnownFiles)
        if (known.kind == &kind) return this->*known.path;
    static const std::string kNone;
    return kNone;
}

namespace {

// The entries of 'folder' named as a profiler database is, in name order.
std::vector<fs::path> ProfilerDatabaseEntries(const std::string& folder) {
    std::error_code error;
    std::vector<fs::path> found;
    for (fs::directory_iterator it(folder, fs::directory_options::skip_permission_denied, error),
         end;
         !error && it != end; it.increment(error)) {
        const std::string name = it->path().filename().string();
        const bool profilerName = name.rfind("ascend_pytorch_profiler", 0) == 0 ||
                                  name.rfind("ascend_mindspore_profiler", 0) == 0 ||
                                  name.rfind("msprof_", 0) == 0;
        if (profilerName && name.size() > 3 && name.compare(name.size() - 3, 3, ".db") == 0)
            found.push_back(it->path());
    }
    std::sort(found.begin(), found.end());
    return found;
}

}  // namespace

std::string FindProfilerDatabase(const std::string& folder) {
    for (const fs::path& entry : ProfilerDatabaseEntries(folder))
        if (IsFile(entry)) return entry.string();
    return "";
}

bool RankFiles::HasAnyAnalysisFile() const {
    return !kernelDetails.empty() || !stepTrace.empty() || !opStatistic.empty() ||
           !communication.empty() || !communicationMatrix.empty() || !stepTraceRaw.empty() ||
           dataPreparation.Any() || flops.Any();
}

namespace {

// The per-rank files of MindSpore's profiler folder, "<prefix>N<suffix>".
struct NumberedName {
    const char* prefix;
    const char* suffix;
};
const NumberedName kDataPreparationNames[] = {
    {"minddata_pipeline_raw_", ".csv"},      {"device_queue_profiling_", ".txt"},
    {"dataset_iterator_profiling_", ".txt"}, {"minddata_aicpu_", ".txt"},
    {"minddata_getnext_profiling_", ".txt"}, {"pipeline_profiling_", ".json"},
    {"minddata_cpu_utilization_", ".json"},  {"minddata_pipeline_summary_", ".json"},
    {"minddata_pipeline_summary_", ".csv"},  {"dataset_", ".csv"},
};
const NumberedName kFlopsNames[] = {
    {"flops_summary_", ".json"}, {"flops_scope_", ".json"}, {"flops_", ".txt"}};
const NumberedName kMindSporeTimelines[] = {{"ascend_timeline_display_", ".json"},
                                            {"gpu_timeline_display_", ".json"}};
const NumberedName kMindSporeStepTrace{"step_trace_raw_", "_detail_time.csv"};

// 'path' when it is a file, else "". Something else under its name (a folder, a pipe, a dangling
// link) is not "absent": it is named in 'problems'.
std::string FileOrProblem(const fs::path& path, std::vector<std::string>* problems) {
    if (IsFile(path)) return path.string();
    std::error_code error;
    if (problems && fs::exists(fs::symlink_status(path, error)))
        problems->push_back(path.string() + ": error: " + NotAFileReason(path) +
                            ", not a file; not read");
    return std::string();
}

// The file of 'rank' named 'name' in 'folder', or "" (see FileOrProblem).
std::string NumberedPath(const fs::path& folder, const NumberedName& name, int rank,
                         std::vector<std::string>* problems = nullptr) {
    return FileOrProblem(folder / (name.prefix + std::to_string(rank) + name.suffix), problems);
}

// The ranks the files of 'folder' named like 'names' give.
std::set<int> RanksNamed(const fs::path& folder, const NumberedName* names, size_t count) {
    std::set<int> ranks;
    std::error_code error;
    for (fs::directory_iterator it(folder, fs::directory_options::skip_permission_denied, error),
         end;
         !error && it != end; it.increment(error)) {
        const std::string name = it->path().filename().string();
        for (size_t i = 0; i < count; ++i) {
            const int rank = NumberBetween(name, names[i].prefix, names[i].suffix);
            if (rank >= 0 && rank <= kMaxRankId && IsFile(it->path())) ranks.insert(rank);
        }
    }
    return ranks;
}

// The rank of a MindSpore profiler folder of one rank: the one its timeline names, else the one
// its data-preparation files name, and its step traces name no other; none otherwise (a
// cluster's folder, whose step traces name several, is read as a cluster).
std::optional<RankId> MindSporeFolderRank(const fs::path& folder) {
    std::set<int> ranks = RanksNamed(folder, kMindSporeTimelines, std::size(kMindSporeTimelines));
    if (ranks.empty())
        ranks = RanksNamed(folder, kDataPreparationNames, std::size(kDataPreparationNames));
    if (ranks.size() != 1) return std::nullopt;
    const std::set<int> stepRanks = RanksNamed(folder, &kMindSporeStepTrace, 1);
    if (stepRanks.size() > 1 || (stepRanks.size() == 1 && *stepRanks.begin() != *ranks.begin()))
        return std::nullopt;
    return RankId(*ranks.begin());
}

// Data-preparation and FLOPs files of other ranks than 'rank' in 'folder': named, never read as
// its own.
void NoteOtherRanks(const fs::path& folder, RankId rank, std::vector<std::string>& problems) {
    std::vector<const NumberedName*> kinds;
    for (const NumberedName& kind : kDataPreparationNames) kinds.push_back(&kind);
    for (const NumberedName& kind : kFlopsNames) kinds.push_back(&kind);
    std::error_code error;
    for (fs::directory_iterator it(folder, fs::directory_options::skip_permission_denied, error),
         end;
         !error && it != end; it.increment(error)) {
        const std::string name = it->path().filename().string();
        for (const NumberedName* kind : kinds) {
            const int named = NumberBetween(name, kind->prefix, kind->suffix);
            if (named >= 0 && named != rank.value())
                problems.push_back(it->path().string() + ": error: names rank " +
                                   std::to_string(named) + ", not this folder's rank " +
                                   ToString(rank) + "; not read");
        }
    }
}

}  // namespace

FlopsFiles FindFlopsFiles(const std::string& folder, std::optional<RankId> rankId) {
    FlopsFiles files;
    if (!rankId) return files;
    const int rank = rankId->value();
    files.summary = NumberedPath(folder, {"flops_summary_", ".json"}, rank, &files.problems);
    files.operators = NumberedPath(folder, {"flops_", ".txt"}, rank, &files.problems);
    files.scope = NumberedPath(folder, {"flops_scope_", ".json"}, rank, &files.problems);
    return files;
}

DataPreparationFiles FindDataPreparationFiles(const std::string& folder,
                                              std::optional<RankId> rankId) {
    DataPreparationFiles files;
    // The files of one name in every rank's folder.
    files.datasetStages = FileOrProblem(fs::path(folder) / "dataset.csv", &files.problems);
    files.aicpuPreprocess =
        FileOrProblem(fs::path(folder) / "data_preprocess.csv", &files.problems);
    if (!rankId) {
        const std::set<int> ranks =
            RanksNamed(folder, kDataPreparationNames, std::size(kDataPreparationNames));
        if (ranks.size() != 1) return files;
        rankId = RankId(*ranks.begin());
    }
    const auto path = [&](size_t name) {
        return NumberedPath(folder, kDataPreparationNames[name], rankId->value(), &files.problems);
    };
    files.pipelineRaw = path(0);
    files.hostQueue = path(1);
    if (files.hostQueue.empty()) files.hostQueue = path(2);
    files.pipelineProfiling = path(5);
    files.cpuUtilization = path(6);
    files.summary = path(7);
    if (files.summary.empty()) files.summary = path(8);
    if (files.datasetStages.empty()) files.datasetStages = path(9);
    files.deviceQueue = path(3);
    if (files.deviceQueue.empty()) {
        files.deviceQueue = path(4);
        files.deviceQueueInNs = !files.deviceQueue.empty();
    }
    return files;
}

bool IsRankDirectory(const std::string& path) {
    std::error_code error;
    if (!fs::is_directory(path, error)) return false;
    const fs::path output = OutputFolder(path);
    for (const KnownFile& known : kKnownFiles)
        if (IsFile(output / known.kind->fileName)) return true;
    return !FindProfilerDatabase(output.string()).empty() ||
           MindSporeFolderRank(output).has_value();
}

Result<RankFiles> FindRankFiles(const std::string& path) {
    std::error_code error;
    if (!fs::is_directory(path, error)) return Status::Error(path + ": error: not a folder");
    RankFiles files;
    files.root = path;
    fs::path root(path);
    const fs::path infoFolder = InfoFolder(root);
    const fs::path output = OutputFolder(root);
    files.outputDir = output.string();
    bool any = false;
    for (const KnownFile& known : kKnownFiles) {
        const fs::path file = output / known.kind->fileName;
        if (IsFile(file)) {
            files.*known.path = file.string();
            any = true;
        } else if (fs::exists(fs::symlink_status(file, error))) {
            // A folder, a pipe or a dangling link under a data file's name is not "absent".
            files.problems.push_back(file.string() + ": error: " + NotAFileReason(file) +
                                     ", not a file; not read");
        }
    }
    files.profilerDb = FindProfilerDatabase(output.string());
    // A folder, pipe or dangling link under a database's name is not "no database".
    for (const fs::path& entry : ProfilerDatabaseEntries(output.string()))
        if (!IsFile(entry))
            files.problems.push_back(entry.string() + ": error: " + NotAFileReason(entry) +
                                     ", not a file; not read");
    if (!files.profilerDb.empty() && IsFile(output / "analysis.db"))
        files.analysisDb = (output / "analysis.db").string();
    else if (!files.profilerDb.empty() &&
             fs::exists(fs::symlink_status(output / "analysis.db", error)))
        files.problems.push_back((output / "analysis.db").string() + ": error: " +
                                 NotAFileReason(output / "analysis.db") + ", not a file; not read");
    // MindSpore's profiler folder of one rank (MindInsight's layout): numbered files.
    const std::optional<RankId> mindSporeRank =
        any || !files.profilerDb.empty() ? std::nullopt : MindSporeFolderRank(output);
    if (mindSporeRank) {
        for (const NumberedName& timeline : kMindSporeTimelines)
            if (files.traceView.empty())
                files.traceView = NumberedPath(output, timeline, mindSporeRank->value());
        files.stepTraceRaw = NumberedPath(output, kMindSporeStepTrace, mindSporeRank->value());
        files.rankId = mindSporeRank;
        files.rankSource = "the MindSpore profiler's file names";
        any = true;
    }
    if (!any && files.profilerDb.empty())
        return Status::Error(
            path +
            ": error: not a profiler folder: none of trace_view.json, kernel_details.csv, "
            "step_trace_time.csv, communication.json, ascend_pytorch_profiler_N.db in it or in "
            "its ASCEND_PROFILER_OUTPUT");
    // The rank: profiler_info_N.json (its rank_id, else its N), else the folder's name.
    std::vector<fs::path> infos;
    for (fs::directory_iterator
             it(infoFolder, fs::directory_options::skip_permission_denied, error),
         end;
         !error && it != end; it.increment(error)) {
        if (NumberBetween(it->path().filename().string(), "profiler_info_", ".json") >= 0)
            infos.push_back(it->path());
    }
    std::sort(infos.begin(), infos.end());
    if (!infos.empty()) {
        ReadProfilerInfo(infos.front(), files);
        const int named =
            NumberBetween(infos.front().filename().string(), "profiler_info_", ".json");
        if (!files.rankId && named >= 0) {
            files.rankId = RankId(named);
            files.rankSource = infos.front().filename().string() + " (file name)";
        }
    }
    // torch_npu writes the job's shape beside profiler_info.
    files.parallel =
        ReadProfilerMetadata((infoFolder / "profiler_metadata.json").string(), files.problems);
    if (!files.rankId) {
        const std::string folderName = fs::weakly_canonical(infoFolder, error).filename().string();
        files.rankId = RankIdFromFolderName(folderName);
        if (files.rankId) files.rankSource = "folder name " + folderName;
    }
    // MindSpore writes its data-preparation files beside the others, named by the rank (in its
    // own layout, the rank its file names give, which a profiler_info file may contradict).
    const std::optional<RankId> dataRank = mindSporeRank ? mindSporeRank : files.rankId;
    files.dataPreparation = FindDataPreparationFiles(output.string(), dataRank);
    if (dataRank) NoteOtherRanks(output, *dataRank, files.problems);
    files.flops = FindFlopsFiles(output.string(), dataRank);
    return files;
}

std::optional<RankSource> ParseRankSource(std::string_view text) {
    if (text == "text") return RankSource::kText;
    if (text == "db" || text == "database") return RankSource::kDatabase;
    return std::nullopt;
}

std::vector<std::string> RankFolderFolders(const std::string& path) {
    const fs::path root(path);
    std::vector<std::string> folders{path};
    for (const fs::path& folder : {OutputFolder(root), InfoFolder(root)})
        if (folder != root &&
            std::find(folders.begin(), folders.end(), folder.string()) == folders.end())
            folders.push_back(folder.string());
    return folders;
}

std::string MissingFileMessage(const RankFileKind& kind) {
    return std::string(kind.fileName) +
           " is not in this folder. The Ascend profiler writes it with " + kind.producedBy + ".";
}

RankFiles FindRankFor(const std::string& path) {
    std::error_code error;
    fs::path folder = fs::is_directory(path, error) ? fs::path(path) : fs::path(path).parent_path();
    if (folder.filename() == "ASCEND_PROFILER_OUTPUT") folder = folder.parent_path();
    if (!folder.empty() && IsRankDirectory(folder.string())) {
        auto files = FindRankFiles(folder.string());
        if (files.ok()) return std::move(files.value());
    }
    return RankFiles{};
}

}  // namespace marey
