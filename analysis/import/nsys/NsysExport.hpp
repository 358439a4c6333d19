#pragma once
// Reads an Nsight Systems SQLite export (`nsys export --type sqlite`) into the decoded events the
// model builder takes: a process per profiled process, its threads holding their CUDA runtime and
// driver calls and NVTX ranges as nested as recorded; a "GPU N" process per device a process ran
// work on, a thread per stream holding its kernels, copies, fills and synchronisations; an arrow
// from each launch call to the work of the same correlation id in the same process. Tables and
// columns are found by name (Nsight creates them only when it has rows for them): what an export
// lacks is one line saying so. docs/nsight-systems.md has the mapping.
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/LoadProgress.hpp"
#include "db/DbTimeline.hpp"
#include "db/SqliteFile.hpp"
#include "load/SliceFieldTable.hpp"
#include "load/CopyBytesTable.hpp"
#include "load/RawEvents.hpp"

namespace marey {

// A slice of an export refers to its row: the table in the bits above kNsysRowBits, the rowid
// below (a row of a larger rowid is left out, named).
enum class NsysTable : uint8_t {
    kKernel = 1,
    kMemcpy = 2,
    kMemset = 3,
    kSynchronization = 4,
    kRuntime = 5,
    kDriver = 6,
    kNvtx = 7,
};
constexpr int kNsysRowBits = 34;
constexpr int64_t kNsysMaxRowid = (int64_t{1} << kNsysRowBits) - 1;
inline uint64_t NsysRef(NsysTable table, int64_t rowid) {
    return uint64_t{static_cast<uint8_t>(table)} << kNsysRowBits | static_cast<uint64_t>(rowid);
}
inline NsysTable NsysRefTable(uint64_t ref) {
    return static_cast<NsysTable>(ref >> kNsysRowBits);
}
inline int64_t NsysRefRow(uint64_t ref) {
    return static_cast<int64_t>(ref & static_cast<uint64_t>(kNsysMaxRowid));
}
// The export's name of 'table' ("CUPTI_ACTIVITY_KIND_KERNEL"); null for a value of no table.
const char* NsysTableName(NsysTable table);

// The parts of Nsight's serialised global ids: the process of a thread (its globalTid with the
// thread bits cleared), and the operating system's pid and tid.
inline int64_t NsysGlobalPidOf(int64_t globalTid) {
    return globalTid & ~int64_t{0xFFFFFF};
}
inline int64_t NsysPid(int64_t globalId) {
    return (globalId >> 24) & 0xFFFFFF;
}
inline int64_t NsysTid(int64_t globalTid) {
    return globalTid & 0xFFFFFF;
}

// A profiled process with rows in the export.
struct NsysProcess {
    int64_t globalPid = 0;
    int64_t pid = 0;
    std::string name;              // PROCESSES.name; empty when the table has none
    std::vector<int64_t> devices;  // the CUDA devices it ran work on, ascending
};

struct NsysExport {
    // Two chunks: the device tables' rows, then the host tables'; their tracks, slices, instants,
    // metadata and problems.
    std::vector<ChunkEvents> chunks;
    std::vector<DbArrow> arrows;
    // Kernels, copies, fills, synchronisations, runtime and driver calls: their Kineto category
    // and correlation id, for the device analyses; and the bytes of copies and fills.
    SliceFieldTable sliceFields;
    CopyBytesTable copyBytes;
    std::vector<NsysProcess> processes;  // those with rows read, by pid
    std::vector<std::pair<std::string, uint64_t>> rowsRead;
    std::string schemaVersion;  // META_DATA_EXPORT's EXPORT_SCHEMA_VERSION; empty when absent
    // The colour NVTX recorded for a range's name (ARGB), the first one met, by name.
    std::unordered_map<std::string, uint32_t> recordedColors;
};

struct NsysReadOptions {
    // Only the rows of this process (a rank of a job recorded in one export); nullopt: all.
    std::optional<int64_t> onlyGlobalPid;
    // NVTX ranges of this name are the steps (a thread "steps" per process, its slices named
    // ProfilerStep#1, #2, … in start order); empty: only PyTorch's own ProfilerStep#N ranges.
    std::string stepRange;
};

// Reads 'db'. Never fails: a missing table or column, or a row that cannot be read, is a problem
// in events.problems (naming the table and row) and the rest is read. 'progress' (may be null)
// gets the tables' shares as they are read; its cancel stops the reading soon after it is set.
// With 'threads' > 1 the host tables are read at once on a second connection.
NsysExport ReadNsysExport(const SqliteFile& db, const NsysReadOptions& options = {},
                          LoadProgress* progress = nullptr, unsigned threads = 2);

// Whether 'db' is an Nsight Systems export: it has one of the CUPTI activity or NVTX_EVENTS tables
// marey reads, or StringIds and one of the TARGET_INFO tables Nsight writes.
bool IsNsysExport(const SqliteFile& db);

// The processes that ran GPU work (kernels, copies, fills), by pid, read from the activity
// tables' globalPid columns only: how an export of several processes is split into ranks.
std::vector<NsysProcess> ListNsysGpuProcesses(const SqliteFile& db);

}  // namespace marey
