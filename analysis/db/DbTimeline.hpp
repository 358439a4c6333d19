#pragma once
// Reads the timeline tables of an Ascend profiler database (PYTORCH_API, CANN_API, TASK,
// COMMUNICATION_OP, COMMUNICATION_TASK_INFO, counters) into the decoded events the model builder
// takes, with the processes, threads and names the profiler's text export gives them, and the
// arrows between them from the connection ids. docs/profiler-database.md has the mapping.
#include <cstdint>
#include <string>
#include <vector>

#include "core/LoadProgress.hpp"
#include "core/Time.hpp"
#include "db/DbOverlap.hpp"
#include "db/SqliteFile.hpp"
#include "load/KernelTable.hpp"
#include "load/SliceFieldTable.hpp"
#include "load/RawEvents.hpp"

namespace marey {

// A slice of a database refers to its row: the table in the bits above kDbRowBits, the rowid below
// (the 40 bits a model keeps of a reference). A rowid of kDbFarRow or more (CANN_API's rowid is its
// connection id, which can pass 2^42) is kept in a list instead: the reference then holds
// kDbFarRow, the chunk that read it (bit 32) and its index in that chunk's list.
enum class DbTable : uint8_t {
    kComputed = 0,  // made by marey (Overlap Analysis): no row
    kPytorchApi = 1,
    kCannApi = 2,
    kTask = 3,
    kCommunicationOp = 4,
    kCommunicationTask = 5,  // a TASK row shown on its HCCL plane
};
constexpr int kDbRowBits = 34;
constexpr uint64_t kDbFarRow = uint64_t{1} << 33;
// A reference to a row whose rowid is below kDbFarRow.
inline uint64_t DbRef(DbTable table, int64_t rowid) {
    return uint64_t{static_cast<uint8_t>(table)} << kDbRowBits |
           (static_cast<uint64_t>(rowid) & (kDbFarRow - 1));
}
// A reference to entry 'index' of chunk 'chunk's list of far rowids.
inline uint64_t DbFarRef(DbTable table, uint32_t chunk, uint32_t index) {
    return uint64_t{static_cast<uint8_t>(table)} << kDbRowBits | kDbFarRow |
           uint64_t{chunk & 1} << 32 | index;
}
inline DbTable DbRefTable(uint64_t ref) {
    return static_cast<DbTable>(ref >> kDbRowBits);
}
// The rowid of 'ref'; 'farRowids' holds each chunk's list of far rowids. -1 when it is not there.
inline int64_t DbRefRow(uint64_t ref, const std::vector<std::vector<int64_t>>& farRowids = {}) {
    if (!(ref & kDbFarRow)) return static_cast<int64_t>(ref & (kDbFarRow - 1));
    const size_t chunk = (ref >> 32) & 1, index = ref & 0xFFFFFFFF;
    if (chunk >= farRowids.size() || index >= farRowids[chunk].size()) return -1;
    return farRowids[chunk][index];
}
const char* DbTableName(DbTable table);

// kCudaLaunch: a CUDA launch call to the work it put on a stream (an Nsight Systems export; the
// category Kineto gives the same arrow).
enum class DbFlowKind : uint8_t { kHostToDevice, kAsyncNpu, kAsyncTaskQueue, kFwdBwd, kCudaLaunch };
constexpr size_t kDbFlowKinds = 5;
const char* DbFlowCategory(DbFlowKind kind);

// One end of an arrow: the thread (a track of one of the chunks), time and row.
struct DbFlowEnd {
    uint32_t chunk;  // in DbTimeline::chunks
    uint32_t track;  // in that chunk's tracks
    TimeNs ts;
    uint64_t ref;
};
struct DbArrow {
    DbFlowEnd from, to;
    DbFlowKind kind;
};

struct DbStep {
    int64_t id;
    TimeNs startNs, endNs;
};

struct DbTimeline {
    // Tracks, slices, counters, metadata and problems: the host tables' chunk, then the device
    // tables' (read at once on two connections).
    std::vector<ChunkEvents> chunks;
    std::vector<DbArrow> arrows;
    KernelTable kernels;  // compute tasks and communication operators, in start order
    std::vector<DbStep> steps;
    OverlapAnalysis overlap;  // as drawn in its Overlap Analysis process
    // The task type and connection id of each TASK row and CANN_API call read (the device
    // analyses' fields), by reference.
    SliceFieldTable sliceFields;
    // Per chunk, the rowids too large for a reference (see DbFarRef).
    std::vector<std::vector<int64_t>> farRowids;
    std::string schemaVersion;
    // Rows read per table, for the import report ("every row ends up somewhere").
    std::vector<std::pair<std::string, uint64_t>> rowsRead;
};

// Reads 'db'. Never fails: a missing table or column, or a row that cannot be read, is a problem
// in events.problems (message naming the table and row id) and the rest is read.
// The host tables and the device tables are read at once on two connections when 'threads' > 1.
// 'progress' (may be null) gets the tables' shares (DbReadProgress.hpp) as they are read, and its
// cancel stops every query soon after it is set: what was read is then incomplete, and the
// caller, who set it, drops it.
DbTimeline ReadDbTimeline(const SqliteFile& db, unsigned threads = 2,
                          LoadProgress* progress = nullptr);

// Only what a cluster summary and the Marey view need: the steps, the operators (kernels) and
// the Overlap Analysis, from STEP_TIME, TASK and COMMUNICATION_OP; no host tables, no arrows.
DbTimeline ReadDbOperators(const SqliteFile& db);

}  // namespace marey
