#pragma once
// The tables of `marey sql` that describe a model's structure, with Perfetto's names and columns:
// process, thread, track, thread_track, process_track, counter_track, and counter (every counter
// sample). The `slice` table is SliceRows.
#include <memory>
#include <vector>

#include "model/TraceModel.hpp"
#include "sql/SqlRows.hpp"

namespace marey {

// Every table of 'model' (slice included). 'model' must outlive them. O(tracks + rows).
std::vector<std::unique_ptr<SqlRows>> MakeModelTables(const TraceModel& model);

}  // namespace marey
