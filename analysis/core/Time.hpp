#pragma once
// Exact decimal time parsing: microseconds written as text become int64 nanoseconds.
#include <cstdint>
#include <string_view>

namespace tracelens {

using TimeNs = int64_t;

enum class DecimalError : uint8_t { kNone, kEmpty, kSyntax, kOutOfRange };

// Parses a decimal number of microseconds ("1736408883688177.930", "5.0200000000000005",
// "-12", "1.5e3", optionally surrounded by quotes or white space) into nanoseconds, exactly:
// digits past the nanosecond are rounded half away from zero; nothing passes through double.
// O(length).
DecimalError ParseMicrosToNs(std::string_view text, TimeNs* outNs);

// Same parser with another scale: value × 10^decimalShift, rounded to an integer.
DecimalError ParseScaledDecimal(std::string_view text, int decimalShift, int64_t* out);

// Human text for a DecimalError, for import messages.
const char* DescribeDecimalError(DecimalError error);

}  // namespace tracelens
