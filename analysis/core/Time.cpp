#include "core/Time.hpp"

#include <cstring>
#include <limits>

#include "core/DigitRun.hpp"

namespace marey {
namespace {

bool IsSpace(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

std::string_view Trim(std::string_view text) {
    while (!text.empty() && IsSpace(text.front())) text.remove_prefix(1);
    while (!text.empty() && IsSpace(text.back())) text.remove_suffix(1);
    if (text.size() >= 2 && text.front() == '"' && text.back() == '"') {
        text = text.substr(1, text.size() - 2);
        while (!text.empty() && IsSpace(text.front())) text.remove_prefix(1);
        while (!text.empty() && IsSpace(text.back())) text.remove_suffix(1);
    }
    return text;
}

// "1736408883688177.930" with its quotes, as Ascend profilers write every timestamp: 16 digits,
// a point and 3 digits, read as three words. False for anything else.
bool ParseAscendTimestamp(std::string_view token, TimeNs* outNs) {
    using namespace digit_run_detail;
    if (token.size() != 22 || token[0] != '"' || token[17] != '.' || token[21] != '"') return false;
    uint64_t high, low, fraction;
    std::memcpy(&high, token.data() + 1, 8);
    std::memcpy(&low, token.data() + 9, 8);
    std::memcpy(&fraction, token.data() + 18, 8);
    fraction = (fraction & 0xFFFFFFull) | 0x3030303030000000ull;  // the 3 decimals, then '0's
    if (NonDigitBytes(high) | NonDigitBytes(low) | NonDigitBytes(fraction)) return false;
    const uint64_t micros = ValueOfDigits(high, 8) * 100000000 + ValueOfDigits(low, 8);
    const uint64_t ns = micros * 1000 + ValueOfDigits(fraction, 3);
    if (ns > static_cast<uint64_t>(INT64_MAX)) return false;
    *outNs = static_cast<TimeNs>(ns);
    return true;
}

}  // namespace

DecimalError ParseScaledDecimal(std::string_view text, int decimalShift, int64_t* out) {
    if (decimalShift == 0 && !text.empty() && text.size() <= 18) {
        // Plain non-negative integers (pids, tids, sort indices) need none of the general path.
        uint64_t value = 0;
        size_t i = 0;
        while (i < text.size() && static_cast<unsigned>(text[i] - '0') < 10)
            value = value * 10 + static_cast<unsigned>(text[i++] - '0');
        if (i == text.size()) {
            *out = static_cast<int64_t>(value);
            return DecimalError::kNone;
        }
    }
    if (decimalShift > 0 && decimalShift <= 9 && !text.empty() && text.size() <= 20) {
        // What the profilers' JSON holds ("25.70345" ms to 25703450 ns): digits and a point with
        // no more decimals than the scale keeps, exact in one integer. Anything else (signs,
        // exponents, white space, more decimals to round) takes the general path.
        uint64_t value = 0;
        size_t i = 0;
        while (i < text.size() && static_cast<unsigned>(text[i] - '0') < 10)
            value = value * 10 + static_cast<unsigned>(text[i++] - '0');
        const size_t integerDigits = i;
        int fractionDigits = 0;
        if (i + 1 < text.size() && text[i] == '.') {
            ++i;
            while (i < text.size() && fractionDigits < decimalShift &&
                   static_cast<unsigned>(text[i] - '0') < 10)
                value = value * 10 + static_cast<unsigned>(text[i++] - '0'), ++fractionDigits;
        }
        if (i == text.size() && integerDigits > 0 &&
            integerDigits + static_cast<size_t>(decimalShift) <= 18) {
            for (; fractionDigits < decimalShift; ++fractionDigits) value *= 10;
            *out = static_cast<int64_t>(value);
            return DecimalError::kNone;
        }
    }
    text = Trim(text);
    if (text.empty()) return DecimalError::kEmpty;
    size_t pos = 0;
    bool negative = false;
    if (text[pos] == '-' || text[pos] == '+') {
        negative = text[pos] == '-';
        ++pos;
    }
    // Mantissa digits with the decimal point remembered as an exponent adjustment.
    const size_t digitsBegin = pos;
    size_t integerDigits = 0, fractionDigits = 0;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') ++pos, ++integerDigits;
    const size_t fractionBegin = pos + 1;
    if (pos < text.size() && text[pos] == '.') {
        ++pos;
        while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') ++pos, ++fractionDigits;
    }
    if (integerDigits + fractionDigits == 0) return DecimalError::kSyntax;
    int64_t exponent = 0;
    if (pos < text.size() && (text[pos] == 'e' || text[pos] == 'E')) {
        ++pos;
        bool expNegative = false;
        if (pos < text.size() && (text[pos] == '-' || text[pos] == '+'))
            expNegative = text[pos++] == '-';
        size_t expDigits = 0;
        while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
            if (exponent < 100000) exponent = exponent * 10 + (text[pos] - '0');
            ++pos, ++expDigits;
        }
        if (expDigits == 0) return DecimalError::kSyntax;
        if (expNegative) exponent = -exponent;
    }
    if (pos != text.size()) return DecimalError::kSyntax;

    // The integer value is the digit string cut at 'pointAt' digits; the next digit rounds.
    auto digitAt = [&](size_t i) -> int {
        return i < integerDigits ? text[digitsBegin + i] - '0'
                                 : text[fractionBegin + (i - integerDigits)] - '0';
    };
    const size_t totalDigits = integerDigits + fractionDigits;
    const int64_t pointAt = static_cast<int64_t>(integerDigits) + exponent + decimalShift;
    constexpr __int128 kLimit = static_cast<__int128>(std::numeric_limits<int64_t>::max()) + 1;
    __int128 value = 0;
    for (int64_t i = 0; i < pointAt; ++i) {
        const int digit = static_cast<size_t>(i) < totalDigits ? digitAt(i) : 0;
        value = value * 10 + digit;
        if (value > kLimit) return DecimalError::kOutOfRange;
        if (static_cast<size_t>(i) >= totalDigits && value == 0 && i > 40) break;  // all zeros
    }
    if (pointAt >= 0 && static_cast<size_t>(pointAt) < totalDigits && digitAt(pointAt) >= 5)
        ++value;
    if (negative) value = -value;
    if (value > std::numeric_limits<int64_t>::max() || value < std::numeric_limits<int64_t>::min())
        return DecimalError::kOutOfRange;
    *out = static_cast<int64_t>(value);
    return DecimalError::kNone;
}

DecimalError ParseMicrosToNs(std::string_view text, TimeNs* outNs) {
    // Fast path for what profilers write: optional quotes, digits, optionally '.' and up to
    // three decimals ("1736408883688177.930", 145.57, 12). Anything else takes the general path.
    const char* p = text.data();
    const char* end = p + text.size();
    while (end > p && (end[-1] == ' ' || end[-1] == '\n' || end[-1] == '\r' || end[-1] == '\t'))
        --end;
    if (p < end && *p == '"') {
        ++p;
        if (end > p && end[-1] == '"') --end;
    }
    uint64_t value = 0;
    const char* digitsBegin = p;
    while (p < end && static_cast<unsigned>(*p - '0') < 10)
        value = value * 10 + static_cast<unsigned>(*p++ - '0');
    const size_t integerDigits = static_cast<size_t>(p - digitsBegin);
    // Up to 16 integer digits (µs since the epoch) and 3 decimals fit in a uint64.
    if (integerDigits > 0 && integerDigits <= 16) {
        int fractionDigits = 0;
        if (p < end && *p == '.') {
            ++p;
            while (p < end && fractionDigits < 3 && static_cast<unsigned>(*p - '0') < 10) {
                value = value * 10 + static_cast<unsigned>(*p++ - '0');
                ++fractionDigits;
            }
            // Digits past the nanosecond (float noise such as 237.2180000000000005) round half
            // away from zero, which only the first of them decides.
            if (fractionDigits == 3 && p < end && static_cast<unsigned>(*p - '0') < 10) {
                const bool roundUp = *p >= '5';
                while (p < end && static_cast<unsigned>(*p - '0') < 10) ++p;
                value += roundUp;
            }
        }
        if (p == end && (fractionDigits > 0 || p[-1] != '.')) {
            for (; fractionDigits < 3; ++fractionDigits) value *= 10;
            if (value <= static_cast<uint64_t>(INT64_MAX)) {
                *outNs = static_cast<TimeNs>(value);
                return DecimalError::kNone;
            }
        }
    }
    return ParseScaledDecimal(text, 3, outNs);
}

DecimalError ParseMicrosToNsPadded(std::string_view token, TimeNs* outNs) {
    if (ParseAscendTimestamp(token, outNs)) return DecimalError::kNone;
    if (token.empty()) return ParseMicrosToNs(token, outNs);
    const char* p = token.data();
    const char* const end = p + token.size();
    const bool quoted = *p == '"';
    p += quoted;
    uint64_t integer = 0, fraction = 0;
    const int integerDigits = ReadDigitRun(p, &integer);
    p += integerDigits;
    int fractionDigits = -1;  // no decimal point
    if (p < end && *p == '.') {
        fractionDigits = ReadDigitRun(p + 1, &fraction);
        p += 1 + fractionDigits;
    }
    bool closed = !quoted;
    if (quoted && p < end && *p == '"') ++p, closed = true;
    while (p < end && IsSpace(*p)) ++p;
    // Anything else (more digits than a run holds, more than 3 decimals, "12.", signs,
    // exponents, a missing quote) stops short of the end: the general parser takes it.
    const bool plain =
        p == end && closed && integerDigits > 0 && fractionDigits != 0 && fractionDigits <= 3;
    if (!plain) return ParseMicrosToNs(token, outNs);
    static constexpr uint64_t kScale[4] = {1000, 100, 10, 1};
    const uint64_t ns = integer * 1000 + fraction * kScale[fractionDigits < 0 ? 0 : fractionDigits];
    if (ns > static_cast<uint64_t>(INT64_MAX)) return ParseMicrosToNs(token, outNs);
    *outNs = static_cast<TimeNs>(ns);
    return DecimalError::kNone;
}

const char* DescribeDecimalError(DecimalError error) {
    switch (error) {
        case DecimalError::kNone:
            return "no error";
        case DecimalError::kEmpty:
            return "empty number";
        case DecimalError::kSyntax:
            return "not a decimal number";
        case DecimalError::kOutOfRange:
            return "out of the int64 nanosecond range";
    }
    return "unknown";
}

}  // namespace marey
