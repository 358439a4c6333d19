#pragma once
// What the Marey view reads besides the operators: each device's memory over the step shown
// (memory_record.csv), as plain numbers, for the blocks and the line chart.
#include <string>
#include <vector>

#include "core/Time.hpp"
#include "load/MemoryCsv.hpp"

namespace marey {

// Memory over the step on one device.
struct MareyMemory {
    bool present = false;
    double peakMb = 0;           // over the whole record, not only the step
    std::vector<TimeNs> timeNs;  // from the device's step start, within [0, spanNs]
    std::vector<double> megabytes;
};

// The samples of 'series' within the step [stepStartNs, stepStartNs + spanNs], made relative to
// its start. O(samples).
MareyMemory MareyMemoryOf(const MemorySeries& series, TimeNs stepStartNs, TimeNs spanNs);

// Reads the memory_record.csv of the rank folder 'rankPath' and keeps its allocated series
// (ChooseAllocatedSeries) over the
// step; not present when the folder has no such file or it cannot be read. Reads a file: call
// it off the UI thread.
MareyMemory LoadMareyMemory(const std::string& rankPath, TimeNs stepStartNs, TimeNs spanNs);

}  // namespace marey
