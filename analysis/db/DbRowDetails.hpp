#pragma once
// Everything one row of a profiler database says, read when a person selects its slice: its
// columns with string ids and codes resolved, and what other tables add (a task's operator and
// PMU figures, a PyTorch operator's call chain).
#include <cstdint>
#include <string>
#include <vector>

#include "db/SqliteFile.hpp"
#include "load/EventDetails.hpp"

namespace marey {

// 'ref' is a slice's reference into the database 'path' (see DbRef). Never fails: what cannot be
// read is in 'error'.
// 'farRowids' are the source's lists of rowids too large for a reference.
EventDetails ReadDbRowDetails(const std::string& path, uint64_t ref,
                              const std::vector<std::vector<int64_t>>& farRowids = {});
// The same on a database already open (a loaded model's source keeps its connection).
EventDetails ReadDbRowDetails(const SqliteFile& db, uint64_t ref,
                              const std::vector<std::vector<int64_t>>& farRowids = {});

}  // namespace marey
