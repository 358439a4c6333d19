#pragma once
// Numbers as a person reads them: durations with a unit chosen by size, shares as percentages.
#include <cstddef>
#include <string>
#include <string_view>

#include "core/Time.hpp"

namespace marey {

// "1.234 ms" style text for a duration, choosing the unit by size (ns, µs, ms, s). O(1).
std::string FormatDuration(TimeNs ns);

// "12.5 %" for a share of 0.125: one decimal. O(1).
std::string FormatPercent(double share);

// "1 problem", "3 problems": a count with its noun in the number it needs. O(1).
std::string Plural(size_t count, std::string_view one, std::string_view many);

}  // namespace marey
