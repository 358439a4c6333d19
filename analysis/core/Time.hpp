#pragma once
// Exact decimal time parsing: microseconds written as text become int64 nanoseconds.
#include <cstdint>
#include <string_view>

namespace marey {

using TimeNs = int64_t;

enum class DecimalError : uint8_t { kNone, kEmpty, kSyntax, kOutOfRange };

// Parses a decimal number of microseconds ("1736408883688177.930", "5.0200000000000005",
// "-12", "1.5e3", optionally surrounded by quotes or white space) into nanoseconds, exactly:
// digits past the nanosecond are rounded half away from zero; nothing passes through double.
// O(length).
DecimalError ParseMicrosToNs(std::string_view text, TimeNs* outNs);

// ParseMicrosToNs for a raw JSON token inside a simdjson-padded buffer (16 bytes readable past
// each of its digits). What profilers write (16 integer digits, up to 3 decimals, in quotes or
// not) takes a path without a branch per digit; anything else goes to ParseMicrosToNs.
DecimalError ParseMicrosToNsPadded(std::string_view token, TimeNs* outNs);

// Same parser with another scale: value × 10^decimalShift, rounded to an integer.
DecimalError ParseScaledDecimal(std::string_view text, int decimalShift, int64_t* out);

// a + b, held at the int64 limits instead of overflowing: sums of durations read from files that
// may hold anything.
inline TimeNs SaturatingAdd(TimeNs a, TimeNs b) {
    TimeNs sum;
    if (__builtin_add_overflow(a, b, &sum)) return b > 0 ? INT64_MAX : INT64_MIN;
    return sum;
}

// end - start for end >= start, held at INT64_MAX when the span does not fit.
inline TimeNs SaturatingSpan(TimeNs startNs, TimeNs endNs) {
    TimeNs span;
    if (__builtin_sub_overflow(endNs, startNs, &span)) return INT64_MAX;
    return span;
}

// Human text for a DecimalError, for import messages.
const char* DescribeDecimalError(DecimalError error);

}  // namespace marey
