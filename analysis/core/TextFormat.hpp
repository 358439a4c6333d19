#pragma once
// Numbers as a person reads them: durations with a unit chosen by size, shares as percentages.
#include <cstddef>
#include <string>
#include <string_view>

#include "core/Time.hpp"

namespace marey {

// "1.234 ms" style text for a duration, choosing the unit by size (ns, µs, ms, s). O(1).
std::string FormatDuration(TimeNs ns);

// A moment as time since the trace's start, to the ns, so that lists of nearby moments tell
// them apart: "1064.312540 ms", "73.000 µs" under a millisecond. O(1).
std::string FormatInstant(TimeNs sinceStartNs);

// "1 step", "3 steps": the count and the word that agrees with it ('one' for exactly 1). O(1).
std::string CountText(size_t count, const char* one, const char* many);

// How far another moment is from this one: "6.937 µs later", "6.937 µs earlier" (for a
// negative 'otherMinusThisNs'), "at the same time". O(1).
std::string LaterOrEarlier(TimeNs otherMinusThisNs);

// "12.5 %" for a share of 0.125: one decimal. O(1).
std::string FormatPercent(double share);

// An amount of memory in 1024s, as the profilers count it: "0 B", "512.0 KB", "1.50 MB",
// "45.20 GB".
std::string FormatBytes(int64_t bytes);

// 'text' between double quotes for a message: bytes that are not UTF-8 and control bytes as
// \xNN, so that what a damaged file holds is shown and cannot garble a terminal; at most 'most'
// bytes of it, then "…". O(text).
std::string QuoteForMessage(std::string_view text, size_t most = 200);

}  // namespace marey
