#pragma once
// Whether a model read from the index cache only points where it may: every string id into its
// pool, every track, row, slice and flow origin index into its table, every ref into the trace's
// text. A checksum finds damage by accident; this keeps a file that passes it anyway (written by
// a faulty build, or by hand) from sending a view out of bounds.
#include "core/Status.hpp"
#include "model/TraceModel.hpp"

namespace marey {

// Checks 'model' (read from one file, its text in sources[0]); fails naming the first index out
// of range. O(model), a few milliseconds for ten million slices.
Status CheckCachedModel(const TraceModel& model);

}  // namespace marey
