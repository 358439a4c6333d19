#pragma once
// Data preparation of one rank: did the device wait for its batches, and if so which part of the
// input pipeline held it up. MindSpore's MindData files, and PyTorch's data loader in the trace
// (rank/DataLoaderWait.hpp). The step-interval side follows the tuning method of MindSpore's
// documents (the device's data queue empty → the step waited for data; the host queue empty
// too → processing is slow; the host queue full while the device's stays empty → sending is
// slow); the pipeline side finds the bottleneck operator by their three queue rules and gives
// their suggestion for its type. docs/data-preparation.md has the rules and thresholds.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/Time.hpp"
#include "load/AicpuPreprocessCsv.hpp"
#include "load/DatasetStagesCsv.hpp"
#include "load/MindDataFiles.hpp"
#include "load/MindDataSummary.hpp"
#include "load/RankDirectory.hpp"
#include "load/StepTraceCsv.hpp"
#include "rank/DataLoaderWait.hpp"

namespace marey {

// What one step's queues say about its batch.
enum class BatchVerdict : uint8_t {
    kUnknown,           // no queue recorded for the step
    kReady,             // the device's data queue held batches: the step did not wait
    kWaitedProcessing,  // both queues empty: the pipeline did not produce in time
    kWaitedSending,     // the device's queue empty, the host's not: sending was slow
    kWaited,            // the device's queue empty, the host queue not recorded
};
const char* BatchVerdictName(BatchVerdict verdict);  // "ready", "waited: processing", …

struct DataPreparationStep {
    std::string step;        // the step number, as the files write it
    TimeNs intervalNs = -1;  // the step interval (DataPreparation::intervalSource); -1 unknown
    int deviceQueue = -1;    // the device's data queue when the step took its batch; -1 unknown
    TimeNs getNextNs = -1;   // how long the device's GetNext took; -1 unknown
    int hostQueue = -1;      // the host queue's size then; -1 unknown
    int hostCapacity = 0;    // 0 unknown
    TimeNs pushNs = -1;      // the time to push the batch to the device; -1 unknown
    BatchVerdict verdict = BatchVerdict::kUnknown;
};

// What the whole record says: MindInsight's own rule (its analyse_queue_summary), which asks
// the tuning method's questions in numbers.
enum class DataVerdictKind : uint8_t {
    kNoRecord,       // no queue file: data preparation was not profiled
    kNotBottleneck,  // the host queue rarely ran empty and the device's never did
    kProcessing,     // the host queue ran empty in over 30 % of the steps: the pipeline is slow
    kSending,        // it rarely did, yet the device's data queue ran empty: sending is slow
    kWaiting,        // no host queue record, and the device's queue ran empty in over 30 %
};

struct DataVerdict {
    DataVerdictKind kind = DataVerdictKind::kNoRecord;
    int deviceSteps = 0;       // steps with a record of the device's data queue
    int emptyDeviceSteps = 0;  // of them, steps whose device queue was empty
    int hostSteps = 0;         // steps with a host queue record
    int emptyHostSteps = 0;    // of them, steps whose host queue was empty
    std::string text;          // the sentence the view and the report show

    // The queues say the steps waited for data: processing, sending or (unknown which) waiting.
    bool HeldUp() const {
        return kind == DataVerdictKind::kProcessing || kind == DataVerdictKind::kSending ||
               kind == DataVerdictKind::kWaiting;
    }
};

// The kind the step counts of 'counts' give (MindInsight's rule, with kEmptyQueueShare): the one
// place it is decided, for a rank's own queues and to check a summary file's.
DataVerdictKind VerdictKindOf(const DataVerdict& counts);

// "data_processing", "sending_to_device", "waited_for_data", "not_the_bottleneck",
// "no_queue_record": the JSON's name of each kind.
const char* DataVerdictKey(DataVerdictKind kind);
// The kind DataVerdictKey names; false for any other text.
bool DataVerdictFromKey(std::string_view key, DataVerdictKind* kind);

// The share of steps with an empty queue above which that queue holds the steps up:
// MindInsight's DEVICE_QUEUE_EMPTY_WARNING_THRESHOLD.
inline constexpr double kEmptyQueueShare = 0.3;
// A queue at least this full on average is full, below kLowQueueUsage it is nearly empty.
// MindInsight's proposer uses 0.8 and 0.6; "nearly empty" here is 0.2, as two of its own tests
// use, so that a source feeding a half-full queue is not called slow.
inline constexpr double kHighQueueUsage = 0.8;
inline constexpr double kLowQueueUsage = 0.2;

// An operator the queue rules name, with the rule and the suggestion for its type.
struct DataBottleneck {
    int opId = -1;
    std::string opType;
    std::string rule;        // which rule, in words with the queues' usage
    std::string suggestion;  // what to change
};

struct DataPipeline {
    std::vector<PipelineOperator> operators;  // as the file lists them
    // Each operator's column when drawn left to right: the longest run of operators below it, so
    // the sources are at 0 and the root (whose output goes to the device) last; 0 for an operator
    // on a loop of parents. Same order as 'operators'.
    std::vector<int> column;
    std::vector<DataBottleneck> bottlenecks;
};

struct DataPreparation {
    DataPreparationFiles files;
    std::vector<DataPreparationStep> steps;  // by step number
    std::string intervalSource;              // where intervalNs came from; empty when nowhere
    DataVerdict verdict;
    DataPipeline pipeline;
    // The profiler's own analysis of the pipeline (minddata_pipeline_summary_N.json or .csv):
    // its bottleneck warning and suggestion, each operator's CPU share and queue figures.
    // Shown beside the queue rules' bottlenecks, never merged into them: two judges, two names.
    MindDataSummary profilerSummary;
    bool hasProfilerSummary = false;
    // Each dataset operation's stages with their counts and mean times (dataset.csv), the
    // longest in all (count × mean) first.
    std::vector<DatasetStage> datasetStages;
    // The AI CPU tasks that prepared data on the device, per node (data_preprocess.csv); its
    // problems are in 'problems'.
    AicpuPreprocessTable aicpuPreprocess;
    bool hasAicpuPreprocess = false;
    DataLoaderRecord loader;            // PyTorch's data loader in the rank's trace
    double processCpuPercent = -1;      // the process's CPU use (user + system, % of one core)
    std::vector<std::string> problems;  // "file:line:column: error: …"

    bool HasRecord() const {
        return !steps.empty() || !pipeline.operators.empty() || loader.Found() ||
               processCpuPercent >= 0 || hasProfilerSummary || !datasetStages.empty() ||
               hasAicpuPreprocess;
    }
};

// What the profiler's own summary warns of, in one line: "bottleneck at Map(id=1): <its
// suggestion>", its suggestion alone, or "no bottleneck warning".
std::string ProfilerWarningText(const MindDataSummary& summary);

// The pipeline's columns and its bottlenecks by the queue rules. Parents and children must name
// operators of 'operators' (ParsePipelineRawCsv drops those that do not; others are ignored).
// O(operators log operators + links).
DataPipeline AnalyzePipeline(std::vector<PipelineOperator> operators);

// The whole analysis from the files 'files' names and the rank's step table ('steps', may be
// null: the interval is then unknown). 'stepTable' names the table in intervalSource
// ("Preparing in step_trace_time.csv"); empty: "the steps". Never fails: what cannot be read is in
// 'problems'.
DataPreparation AnalyzeDataPreparation(const DataPreparationFiles& files, const StepTrace* steps,
                                       const std::string& stepTable = {});

}  // namespace marey
