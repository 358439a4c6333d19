#pragma once
// Numbers with units for people: counter values in bytes or with SI prefixes, and short
// durations for narrow table columns.
#include <string>
#include <string_view>

#include "core/Time.hpp"

namespace marey {

// A counter sample with its series' key as unit: "KB", "MB", "B", "bytes" become bytes shown as
// "2.06 GB" (KB, MB and GB of 1024, as the profilers write them); other keys follow the number
// ("1800 MHz"); large plain numbers get k, M, G.
std::string CounterValueText(double value, std::string_view unitKey);

// Three significant digits: "3.73 ms", "124 µs", "12 ns", for columns of numbers.
std::string CompactDuration(TimeNs ns);

}  // namespace marey
