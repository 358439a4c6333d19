#pragma once
// Recognises an Ascend profiler rank folder (a *_ascend_pt or *_ascend_ms folder, its
// ASCEND_PROFILER_OUTPUT folder, or any folder holding the profiler's files) and says which of
// its files are there.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/Ids.hpp"
#include "core/Status.hpp"
#include "load/ParallelMetadata.hpp"

namespace marey {

// Which export of a rank folder to open when it holds both: the database by default, as the
// profiler's own tools do.
enum class RankSource : uint8_t { kAuto, kText, kDatabase };

// The value of a command line's --source: "text", or "db" (also "database"); nullopt otherwise.
std::optional<RankSource> ParseRankSource(std::string_view text);

// One file a rank folder may hold, with the profiler setting that writes it (for the message a
// view shows when it is missing).
struct RankFileKind {
    const char* fileName;
    const char* producedBy;
};

inline constexpr RankFileKind kTraceViewFile{"trace_view.json",
                                             "any profiler level with export type Text"};
inline constexpr RankFileKind kKernelDetailsFile{
    "kernel_details.csv", "ProfilerActivity.NPU with export type Text (any level)"};
inline constexpr RankFileKind kStepTraceFile{
    "step_trace_time.csv", "ProfilerActivity.NPU with export type Text (any level)"};
inline constexpr RankFileKind kOpStatisticFile{"op_statistic.csv",
                                               "profiler_level=ProfilerLevel.Level1 or Level2"};
inline constexpr RankFileKind kCommunicationFile{
    "communication.json", "profiler_level=ProfilerLevel.Level1 or Level2, on more than one card"};
inline constexpr RankFileKind kCommunicationMatrixFile{
    "communication_matrix.json",
    "profiler_level=ProfilerLevel.Level1 or Level2, on more than one card"};
inline constexpr RankFileKind kMemoryRecordFile{"memory_record.csv", "profile_memory=True"};
inline constexpr RankFileKind kOperatorMemoryFile{"operator_memory.csv", "profile_memory=True"};

// MindSpore's data-preparation (MindData) files of one rank, read by load/MindDataFiles.hpp;
// full paths, empty when absent.
struct DataPreparationFiles {
    std::string pipelineRaw;  // minddata_pipeline_raw_N.csv
    // pipeline_profiling_N.json: the same pipeline, read when the CSV is absent.
    std::string pipelineProfiling;
    std::string cpuUtilization;  // minddata_cpu_utilization_N.json
    // The profiler's own analysis: minddata_pipeline_summary_N.json, else its .csv twin.
    std::string summary;
    // Each dataset operation's stages: dataset.csv (MindSpore 2.5 on), else dataset_N.csv.
    std::string datasetStages;
    // The AI CPU tasks that prepared the data on the device: data_preprocess.csv.
    std::string aicpuPreprocess;
    // The host queue: device_queue_profiling_N.txt, else dataset_iterator_profiling_N.txt.
    std::string hostQueue;
    // The device's data queue: minddata_aicpu_N.txt (Ascend, microseconds), else
    // minddata_getnext_profiling_N.txt (GPU, nanoseconds: deviceQueueInNs).
    std::string deviceQueue;
    bool deviceQueueInNs = false;
    // A folder, a pipe or a dangling link under one of these names: named, never read.
    std::vector<std::string> problems;

    bool Any() const {
        return !pipelineRaw.empty() || !pipelineProfiling.empty() || !hostQueue.empty() ||
               !deviceQueue.empty() || !cpuUtilization.empty() || !summary.empty() ||
               !datasetStages.empty() || !aicpuPreprocess.empty();
    }
};

// MindSpore's FLOPs files of one rank (load/FlopsFiles.hpp); full paths, empty when missing.
struct FlopsFiles {
    std::string summary;    // flops_summary_N.json
    std::string operators;  // flops_N.txt
    std::string scope;      // flops_scope_N.json
    // A folder, a pipe or a dangling link under one of these names: named, never read.
    std::vector<std::string> problems;

    bool Any() const { return !summary.empty() || !operators.empty() || !scope.empty(); }
};

struct RankFiles {
    std::string root;       // the folder a person opened
    std::string outputDir;  // where the profiler's files are (ASCEND_PROFILER_OUTPUT or root)
    std::optional<RankId> rankId;  // none when neither profiler_info_N.json nor a name says
    std::string rankSource;        // where the rank id came from, for the overview
    std::string profilerLevel;     // "Level0", "Level1", "Level2" or empty
    // The parallel job as profiler_metadata.json describes it: its rank count
    // (distributed_args.world_size; 0 unknown), sizes and this rank's groups.
    RankParallelInfo parallel;
    // Full paths; empty when the file is not there.
    std::string traceView, kernelDetails, stepTrace, opStatistic, communication,
        communicationMatrix, memoryRecord, operatorMemory;
    // The profiler database (ascend_pytorch_profiler_N.db, ascend_mindspore_profiler_N.db or
    // msprof_*.db) and analysis.db; empty when not there.
    std::string profilerDb, analysisDb;
    // A MindSpore profiler folder of one rank (MindInsight's layout): its timeline
    // ascend_timeline_display_N.json is traceView, and its steps are step_trace_raw_N_detail_
    // time.csv's.
    std::string stepTraceRaw;
    DataPreparationFiles dataPreparation;
    FlopsFiles flops;
    std::vector<std::string> problems;  // unreadable profiler_info file and the like

    // The full path of 'kind' (empty when missing).
    const std::string& PathOf(const RankFileKind& kind) const;
    bool HasAnyAnalysisFile() const;
    bool HasTextExport() const { return !traceView.empty() || !kernelDetails.empty(); }
};

// The profiler database among the files of a folder, by name: ascend_pytorch_profiler*.db,
// ascend_mindspore_profiler*.db or msprof_*.db (the first in name order); empty when none.
std::string FindProfilerDatabase(const std::string& folder);

// True when 'path' is a folder that looks like a rank folder. Never follows more than the two
// fixed levels (root, ASCEND_PROFILER_OUTPUT), so link loops cannot trap it.
bool IsRankDirectory(const std::string& path);

// The largest rank id read from any file (a profiler's rank_id, a summary's "rank"): larger ones
// are damage, not ranks.
inline constexpr int kMaxRankId = 999999;

// The rank id a folder's name gives ("rank3_ascend_pt", "test_rank_3": the digits after the last
// "rank"), or none.
std::optional<RankId> RankIdFromFolderName(const std::string& name);

// The N of a file name "<prefix>N<suffix>" ("profiler_info_3.json", "step_trace_raw_3_
// detail_time.csv"): at most 7 digits (a rank id below ten million), else -1.
int NumberBetween(const std::string& name, const std::string& prefix, const std::string& suffix);

// The data-preparation files of rank 'rankId' in 'folder'; without a rank id, of the one rank
// their names give (none when they name several).
DataPreparationFiles FindDataPreparationFiles(const std::string& folder,
                                              std::optional<RankId> rankId);

// The FLOPs files of rank 'rankId' in 'folder' (none without a rank id).
FlopsFiles FindFlopsFiles(const std::string& folder, std::optional<RankId> rankId);

// The files of the rank folder 'path'. Fails when 'path' is not a folder or holds none of them.
Result<RankFiles> FindRankFiles(const std::string& path);

// The folders whose entries FindRankFiles lists or reads files of: 'path', its
// ASCEND_PROFILER_OUTPUT when there, and the folder above when 'path' is an
// ASCEND_PROFILER_OUTPUT (its profiler_info and metadata live there). What was read from a rank
// folder is out of date when one of these folders, or a file directly in them, changed. O(1).
std::vector<std::string> RankFolderFolders(const std::string& path);

// "Missing communication.json: it is written with profiler_level=... ." for a view to show.
std::string MissingFileMessage(const RankFileKind& kind);

// The rank folder 'path' belongs to: the path itself, or for a file its folder, or the folder
// above an ASCEND_PROFILER_OUTPUT folder; an empty RankFiles when there is none.
RankFiles FindRankFor(const std::string& path);

}  // namespace marey
