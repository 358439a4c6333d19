#pragma once
// Numbers as a person reads them: durations with a unit chosen by size, shares as percentages.
#include <string>

#include "core/Time.hpp"

namespace marey {

// "1.234 ms" style text for a duration, choosing the unit by size (ns, µs, ms, s). O(1).
std::string FormatDuration(TimeNs ns);

// "12.5 %" for a share of 0.125: one decimal. O(1).
std::string FormatPercent(double share);

}  // namespace marey
