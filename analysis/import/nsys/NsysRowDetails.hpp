#pragma once
// Everything a row of an Nsight Systems export says, read when a person selects its slice: every
// column of its row, string ids as their text, enum values with their labels, global ids as pid
// and tid.
#include <cstdint>

#include "db/SqliteFile.hpp"
#include "load/EventDetails.hpp"

namespace marey {

// The row of 'ref' (import/nsys/NsysExport.hpp) of 'db'. O(that row).
EventDetails ReadNsysRowDetails(const SqliteFile& db, uint64_t ref);

}  // namespace marey
