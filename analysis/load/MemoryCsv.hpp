#pragma once
// memory_record.csv (memory in use over time, per component) and operator_memory.csv (each
// allocation an operator made: size, when it was allocated and released), written by the Ascend
// profilers with profile_memory=True.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/Status.hpp"
#include "core/Time.hpp"

namespace marey {

// One curve: a component's (APP, PTA, GE, PTA+GE …) total allocated, reserved or active memory.
struct MemorySeries {
    std::string component;
    std::string metric;          // "Allocated", "Reserved", "Active"
    std::vector<TimeNs> timeNs;  // sorted
    std::vector<double> megabytes;
    double peakMb = 0;
    TimeNs peakNs = 0;
};

struct MemoryRecord {
    std::vector<MemorySeries> series;  // by component, then metric, in first-seen order
    std::vector<ImportProblem> problems;
};

struct OperatorAllocation {
    std::string name;
    double sizeKb = 0;
    TimeNs allocationNs = 0;
    bool released = false;  // false: still held when the profile ended
    TimeNs releaseNs = 0;
};

struct OperatorMemory {
    std::vector<OperatorAllocation> allocations;  // in file order
    std::vector<ImportProblem> problems;
};

// Reads memory_record.csv: columns by header name (the 2023 file has no Total Active); empty cells
// are no sample; a row with a bad timestamp is skipped and reported. Fails only without
// "Timestamp(us)".
Result<MemoryRecord> ParseMemoryRecordCsv(std::string_view text, const std::string& name);

// The device's allocated memory as the views and the rank's resources show it: the framework's
// allocations (component "PTA") when recorded, else the "Allocated" series that peaks highest;
// null when there is no allocated series. O(series).
const MemorySeries* ChooseAllocatedSeries(const MemoryRecord& record);

// memory_record.csv's MB are MiB (the profiler divides bytes by 1024 twice).
inline constexpr double kBytesPerMemoryMb = 1024.0 * 1024.0;

// A device's peak allocated memory and where it was read: the one rule for a rank alone
// (its resources) and inside its cluster. bytes -1: not recorded.
struct PeakMemory {
    int64_t bytes = -1;
    std::string source;  // "memory_record.csv (PTA Allocated)"
};
PeakMemory PeakAllocatedMemory(const MemoryRecord& record);

// No device holds a pebibyte: past it, a peak is damage.
inline constexpr int64_t kMaxPeakMemoryBytes = int64_t{1} << 50;

// Reads operator_memory.csv; a row with a bad allocation time is skipped and reported, an empty
// release time means the memory was still held. Fails only without "Name" and "Allocation
// Time(us)".
Result<OperatorMemory> ParseOperatorMemoryCsv(std::string_view text, const std::string& name);

}  // namespace marey
