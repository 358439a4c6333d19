#pragma once
// A table's header row whose numeric columns have their titles right-aligned over their numbers.
#include <cstdint>

namespace marey {

// Inside a table after its columns are set up: the headers row, with the title of every column
// whose bit is set in 'rightAligned' (bit c for column c) right-aligned. No sorting. O(columns).
void HeadersRowAligned(uint32_t rightAligned);

}  // namespace marey
