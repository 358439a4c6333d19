#pragma once
// MindSpore's data-preparation files written as JSON: pipeline_profiling_N.json (the pipeline
// and its queues, what minddata_pipeline_raw_N.csv is made from; read when the CSV is absent) and
// minddata_cpu_utilization_N.json (the CPU share of each pipeline operator and of the process).
// Formats as MindInsight's analysers read them. A value that is no count or share is named with
// its JSON path and left out; the rest is read.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/Status.hpp"
#include "load/MindDataFiles.hpp"

namespace marey {

struct PipelineJson {
    std::vector<PipelineOperator> operators;  // parents from the children lists
    std::vector<std::string> problems;        // "file: error: op_info[2].num_workers: …"
};

// Reads pipeline_profiling_N.json. Fails when the text is not JSON or has no "op_info" array.
Result<PipelineJson> ParsePipelineProfilingJson(std::string_view text, const std::string& name);

struct CpuUtilization {
    // Each operator's average CPU use over the samples (user + system), in % of one core.
    std::map<int, double> operatorPercent;
    double processPercent = -1;  // the whole process's; -1 when not recorded
    std::vector<std::string> problems;
};

// Reads minddata_cpu_utilization_N.json. Fails when the text is not JSON.
Result<CpuUtilization> ParseCpuUtilizationJson(std::string_view text, const std::string& name);

}  // namespace marey
