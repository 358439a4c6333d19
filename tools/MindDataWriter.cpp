#include "MindDataWriter.hpp"

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "GeneratedText.hpp"

namespace marey {
namespace {

// An output queue sampled every 10 ms at sizes around 'usage' of 'capacity'.
std::string QueueCells(double usage, int capacity, int samples) {
    std::string sizes = "\"[";
    double sum = 0;
    for (int i = 0; i < samples; ++i) {
        // Sizes alternate a little around the mean so that the curve is not flat.
        const int size = static_cast<int>(usage * capacity + (i % 2 ? 1 : -1) + 0.5);
        sizes += (i ? ", " : "") + std::to_string(size);
        sum += size;
    }
    char cells[96];
    std::snprintf(cells, sizeof cells, "]\",%.4f,%d,%.6f", sum / samples, capacity,
                  sum / samples / capacity);
    return sizes + cells;
}

// minddata_pipeline_summary_R.json and its CSV twin as MindSpore writes them: every value a list,
// per operator in the order of op_ids; the bottleneck warning only for the planted run.
void SummaryTexts(bool inputBound, std::string* json, std::string* csv) {
    const char* usage = inputBound ? "6.25, 6.25, 94.375" : "50.0, 50.0, 50.0";
    const char* empty = inputBound ? "50.0, 50.0, 0.0" : "0.0, 0.0, 0.0";
    const char* average = inputBound ? "4.0, 8.0, 120.8" : "32.0, 64.0, 64.0";
    std::vector<std::pair<std::string, std::string>> rows = {
        {"op_ids", "0, 1, 2"},
        {"op_names", "\"Batch\", \"Map\", \"TFReader\""},
        {"pipeline_ops", "\"Batch(id=0)\", \"Map(id=1)\", \"TFReader(id=2)\""},
        {"num_workers", "4, 2, 8"},
        {"queue_average_size", average},
        {"queue_utilization_pct", usage},
        {"queue_empty_freq_pct", empty},
        {"children_ids", "[1], [2], []"},
        {"parent_id", "-1, 0, 1"},
        {"avg_cpu_pct", inputBound ? "20.5, 195.0, 40.0" : "20.5, 60.0, 40.0"},
        {"per_pipeline_time", "-1"},
        {"per_push_queue_time", "1.25"},
        {"per_batch_time", inputBound ? "6.0" : "0.04"},
        {"avg_cpu_pct_per_worker", inputBound ? "5.125, 97.5, 5.0" : "5.125, 30.0, 5.0"},
    };
    if (inputBound) {
        rows.push_back({"bottleneck_warning", "\"Map(id=1)\""});
        rows.push_back({"bottleneck_suggestion",
                        "\"Map(id=1) may be a bottleneck: its workers are near full use; try "
                        "raising its num_parallel_workers.\""});
    }
    *json = "{";
    *csv = "";
    for (size_t i = 0; i < rows.size(); ++i) {
        *json += (i ? ", \"" : "\"") + rows[i].first + "\": [" + rows[i].second + "]";
        // Python's csv: a list in a cell as "[1]", a text with a comma quoted, CRLF ends.
        std::string cells = rows[i].second;
        if (rows[i].first == "children_ids")
            cells = "\"[1]\",\"[2]\",[]";
        else if (rows[i].first == "bottleneck_suggestion") {
            cells = rows[i].second;  // a quoted sentence with commas
        } else {
            std::string plain;
            for (const char c : cells)
                if (c != '"' && c != ' ') plain += c;
            cells = plain;
        }
        *csv += rows[i].first + "," + cells + "\r\n";
    }
    *json += "}\n";
}

// dataset.csv: each operation's stages, the Map's work the longest when input-bound.
std::string DatasetStagesText(bool inputBound, uint32_t steps) {
    const std::string batches = std::to_string(steps * 8);
    return "Operation,Stage,Occurrences,Avg. time (us),Custom Info\r\n"
           "Pipeline,Build,1,1520.5,\r\n"
           "BatchOp(ID:0),GetFromPreviousOp," +
           batches + ",45.0,\r\nMapOp(ID:1),WorkerGet," + batches +
           ",12.5,\r\nMapOp(ID:1),WorkerProcess," + batches + "," +
           (inputBound ? "5980.25" : "410.0") +
           ",\"{'num_workers': 2}\"\r\nTFReader(ID:2),WorkerProcess," + batches +
           ",310.0,\"{'num_workers': 8}\"\r\n";
}

// data_preprocess.csv: a GetNext and a Cast AI CPU task per step, timestamps ending with a tab
// as the profiler writes them.
std::string AicpuPreprocessText(uint32_t steps) {
    std::string text =
        "Device_id,Timestamp(us),Node,Compute_time(us),Memcpy_time(us),Task_time(us),"
        "Dispatch_time(us),Total_time(us),Stream ID,Task ID\r\n";
    const long long firstUs = 1736408883000000LL;
    for (uint32_t step = 1; step <= steps; ++step) {
        const std::string at = std::to_string(firstUs + static_cast<long long>(step) * 100000);
        text +=
            "0," + at + ".000\t,GetNext,5.2,1.1,6.3,2.0,8.3,3," + std::to_string(step * 2) + "\r\n";
        text += "0," + at + ".050\t,Cast,1.5,0.0,1.5,0.5,2.0,3," + std::to_string(step * 2 + 1) +
                "\r\n";
    }
    return text;
}

}  // namespace

bool WriteMindDataFiles(const std::string& folder, int rank, uint32_t steps, std::string* error,
                        bool inputBound) {
    const std::string suffix = std::to_string(rank);
    const int samples = 16;
    // BatchOp (root, to the device) ← MapOp (the bottleneck) ← TFReader (the source).
    const std::string pipeline =
        "op_id,op_type,num_workers,output_queue_size,output_queue_average_size,"
        "output_queue_length,output_queue_usage_rate,sample_interval,parent_id,children_id\n"
        "0,BatchOp,4," +
        QueueCells(inputBound ? 0.0625 : 0.5, 64, samples) + ",10,,[1]\n1,MapOp,2," +
        QueueCells(inputBound ? 0.0625 : 0.5, 128, samples) + ",10,0,[2]\n2,TFReader,8," +
        QueueCells(inputBound ? 0.94375 : 0.5, 128, samples) + ",10,1,\n";
    std::string host, device;
    const long long firstUs = 1736408883000000LL;
    for (uint32_t step = 1; step <= steps; ++step) {
        // The host queue holds batches only every fourth step; the device's queue only in step 1.
        // A healthy run keeps both queues half full.
        const int hostSize = !inputBound ? kHostQueueCapacity / 2 : step % 4 == 1 ? 2 : 0;
        const int deviceSize = !inputBound ? 2 : step == 1 ? 1 : 0;
        host += "1 " + std::to_string(kHostQueueCapacity) + " " + std::to_string(step) + " " +
                std::to_string(hostSize) + " 10\n";
        host += "0 1 " + std::to_string(step) + " 1.25 10\n";
        // A batch taken from an empty queue waits for the next one: 6 ms against 40 us.
        const long long startUs = firstUs + static_cast<long long>(step) * 100000;
        const long long waitUs = deviceSize == 0 ? 6000 : 40;
        device += "GetNext_dequeue_wait " + std::to_string(startUs) + " " +
                  std::to_string(startUs + waitUs) + " " + std::to_string(deviceSize) + "\n";
    }
    std::string summaryJson, summaryCsv;
    SummaryTexts(inputBound, &summaryJson, &summaryCsv);
    return WriteTextFile(folder + "/dataset.csv", DatasetStagesText(inputBound, steps), error) &&
           WriteTextFile(folder + "/data_preprocess.csv", AicpuPreprocessText(steps), error) &&
           WriteTextFile(folder + "/minddata_pipeline_summary_" + suffix + ".json", summaryJson,
                         error) &&
           WriteTextFile(folder + "/minddata_pipeline_summary_" + suffix + ".csv", summaryCsv,
                         error) &&
           WriteTextFile(folder + "/minddata_pipeline_raw_" + suffix + ".csv", pipeline, error) &&
           WriteTextFile(folder + "/device_queue_profiling_" + suffix + ".txt", host, error) &&
           WriteTextFile(folder + "/minddata_aicpu_" + suffix + ".txt", device, error);
}

}  // namespace marey
