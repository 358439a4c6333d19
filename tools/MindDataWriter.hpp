#pragma once
// Writes MindSpore's data-preparation (MindData) files of one rank into a folder, with a planted
// input-bound run: the device's data queue empty in every step but the first, the host queue
// empty in three steps of four (the pipeline does not keep up), and the pipeline's MapOp (op 1)
// the bottleneck by the queue rules (its input queue about 94 % full, its output queue about 6 %).
#include <cstdint>
#include <string>

namespace marey {

// The planted bottleneck's op_id, and the host queue's capacity.
inline constexpr int kPlantedBottleneckOp = 1;
inline constexpr int kHostQueueCapacity = 64;

// Writes FOLDER/minddata_pipeline_raw_R.csv, device_queue_profiling_R.txt,
// minddata_aicpu_R.txt, minddata_pipeline_summary_R.json and .csv, dataset.csv and
// data_preprocess.csv for 'steps' steps (steps from 1): the planted input-bound run, or with
// 'inputBound' false a healthy one (both queues half full in every step, every pipeline queue
// half used: no bottleneck). Returns false with 'error' set when a file cannot be written.
bool WriteMindDataFiles(const std::string& folder, int rank, uint32_t steps, std::string* error,
                        bool inputBound = true);

}  // namespace marey
