#pragma once
// Everything one event says, parsed from the trace text only when a person asks for it.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "load/TraceText.hpp"

namespace marey {

struct EventDetails {
    std::vector<std::pair<std::string, std::string>> fields;  // top-level keys except args
    std::vector<std::pair<std::string, std::string>> args;    // args keys, values as text
    std::string error;                                        // why nothing could be read
};

// Parses the event object starting at byte 'offset' of 'text'. Strings are shown decoded,
// other values as written in the file (nested objects and arrays as compact JSON text, cut
// at 'maxValueBytes'). O(size of the event).
EventDetails ReadEventDetails(const TraceText& text, uint64_t offset, size_t maxValueBytes = 4096);

// The same for a CSV row starting at 'offset': one arg per column of 'header'.
EventDetails ReadCsvRowDetails(const TraceText& text, uint64_t offset,
                               const std::vector<std::string>& header);

}  // namespace marey
