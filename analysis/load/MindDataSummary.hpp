#pragma once
// MindSpore's own analysis of the dataset pipeline: minddata_pipeline_summary_N.json and its
// twin minddata_pipeline_summary_N.csv, which MindSpore's MinddataProfilingAnalyzer writes beside
// the raw files. The JSON is one object whose every value is a list: per-operator lists in the
// order of "op_ids", one-element lists of times, and the profiler's bottleneck warning and
// suggestion when it has one. The CSV is the same object transposed by Python's csv module: one
// row per key, the key first, then its values ("[1, 2]" for a list of children). Read by key, so
// that writers that order the keys differently read alike.
#include <string>
#include <string_view>
#include <vector>

#include "core/Status.hpp"

namespace marey {

// One operator as the summary gives it; -1 where the summary holds no value ("-1" is also how
// MindSpore writes "none").
struct MindDataSummaryOperator {
    int id = -1;
    std::string name;          // op_names: "Batch", "Map", "TFReader"
    std::string pipelineName;  // pipeline_ops: "Map(id=1)"; empty when not written
    int workers = -1;
    double queueAverageSize = -1;     // the output queue's average size, in batches
    double queueUtilizationPct = -1;  // its average size over its capacity, 0..100
    double queueEmptyPct = -1;        // how often it was empty when sampled, 0..100
    double cpuPercent = -1;           // user + system, % of one core (may pass 100)
    double cpuPercentPerWorker = -1;  // cpuPercent over the workers
    int parent = -1;                  // -1 for the root
    std::vector<int> children;
};

struct MindDataSummary {
    std::vector<MindDataSummaryOperator> operators;  // in the order of op_ids
    // Times of the whole pipeline, in ms: one pass, one push to the device queue, one batch.
    double perPipelineMs = -1, perPushQueueMs = -1, perBatchMs = -1;
    std::vector<std::string> bottleneckOperators;  // bottleneck_warning: ["Map(id=1)"]
    std::string suggestion;                        // bottleneck_suggestion
    std::string cpuAnalysis, queueAnalysis;        // the *_analysis_details sentences
    std::vector<std::string> problems;             // "file: error: key[2]: …; left out"

    bool HasWarning() const { return !bottleneckOperators.empty() || !suggestion.empty(); }
};

// Reads the JSON summary. A value of the wrong kind or out of its range is named with its key and
// place and left out; a list of another length than op_ids is named and left out whole (it cannot
// be matched to operators); a parent or child naming no operator of the file is named and
// dropped. Fails when the text is not a JSON object or has no readable "op_ids" list.
Result<MindDataSummary> ParseMindDataSummaryJson(std::string_view text, const std::string& name);

// Reads the CSV summary, with the same rules; a row whose key repeats an earlier row's is named
// and left out. Fails when no row is "op_ids".
Result<MindDataSummary> ParseMindDataSummaryCsv(std::string_view text, const std::string& name);

}  // namespace marey
