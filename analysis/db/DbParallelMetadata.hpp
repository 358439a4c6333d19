#pragma once
// The parallel job as a profiler database says it: torch_npu copies each key of
// profiler_metadata.json into the META_DATA table (name, value) as JSON text, distributed_args and
// parallel_group_info among them.
#include <string>
#include <vector>

#include "load/ParallelMetadata.hpp"

namespace marey {

class SqliteFile;

// META_DATA's distributed_args and parallel_group_info, read as profiler_metadata.json's are;
// nothing (empty source) without the table or those rows. 'path' names the database in problems.
// O(the two rows).
RankParallelInfo ReadDbParallelInfo(const SqliteFile& db, const std::string& path,
                                    std::vector<std::string>& problems);

}  // namespace marey
