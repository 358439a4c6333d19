#pragma once
// The arrows a database reader joined between its rows (a launch to its task or kernel), put into
// the model once the builder has numbered the tracks: shared by the readers of profiler databases
// and of Nsight Systems exports.
#include <cstdint>
#include <utility>
#include <vector>

#include "db/DbTimeline.hpp"
#include "model/TraceModel.hpp"

namespace marey {

// The (pid, tid) of every track of every chunk, taken before the builder consumes the chunks.
std::vector<std::vector<std::pair<int64_t, int64_t>>> ChunkThreads(
    const std::vector<ChunkEvents>& chunks);

// 'chunkThreads' gives the (pid, tid) of every track of every chunk the arrows name; the arrows
// are added to model.flows by start, and counted as matched. O(arrows log arrows).
void AddRowArrows(const std::vector<DbArrow>& arrows,
                  const std::vector<std::vector<std::pair<int64_t, int64_t>>>& chunkThreads,
                  TraceModel& model);

}  // namespace marey
