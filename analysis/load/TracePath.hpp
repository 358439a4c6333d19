#pragma once
// Which file to open for a path a person gives: the file itself, or the trace inside a
// profiler folder.
#include <string>

#include "core/Status.hpp"

namespace marey {

// A file is returned as is. In a folder: ASCEND_PROFILER_OUTPUT/trace_view.json, then
// trace_view.json, then kernel_details.csv (in either place), then the first *.json or *.json.gz
// by name that is not one of the profiler's communication or profiler_* files. Looks at a fixed set
// of places only (no recursive walk), so link loops cannot trap it.
Result<std::string> ResolveTraceFile(const std::string& path);

}  // namespace marey
