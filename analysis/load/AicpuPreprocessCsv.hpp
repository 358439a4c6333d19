#pragma once
// data_preprocess.csv: the AI CPU tasks that prepared the data on the device, as the Ascend
// profiler copies them from msprof's aicpu_*.csv: "Device_id,Timestamp(us),Node,Compute_time(us),
// Memcpy_time(us),Task_time(us),Dispatch_time(us),Total_time(us),Stream ID,Task ID" (older CANN
// writes no Device_id and its times in ms: the unit is read from each column's header). Summed
// per node, the table a person reads first.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/Status.hpp"
#include "core/Time.hpp"

namespace marey {

struct AicpuNodeTimes {
    std::string node;  // "GetNext", "Cast", …
    int64_t count = 0;
    // Summed over the node's tasks; a column the file lacks stays 0 (see the table's flags).
    TimeNs computeNs = 0, memcpyNs = 0, taskNs = 0, dispatchNs = 0, totalNs = 0;
    TimeNs longestNs = 0;  // the longest task's Total_time
};

struct AicpuPreprocessTable {
    std::vector<AicpuNodeTimes> nodes;  // the longest total first
    int64_t tasks = 0;                  // rows read
    TimeNs firstNs = -1, lastNs = -1;   // the earliest and latest Timestamp; -1 without the column
    bool hasCompute = false, hasMemcpy = false, hasTask = false, hasDispatch = false;
    std::vector<ImportProblem> problems;
};

// Reads data_preprocess.csv. A row whose times are not times from 0 up, of another width than the
// header, or cut at the file's end is named and left out; a missing time column is named. Fails
// without a Node or a Total_time column.
Result<AicpuPreprocessTable> ParseAicpuPreprocessCsv(std::string_view text,
                                                     const std::string& name);

}  // namespace marey
