#pragma once
// Reads a run of decimal digits eight bytes at a time, without a branch per digit.
//
// A timestamp has 19 digits and a pid ten: read one by one, each digit waits for the multiply
// of the one before, and the run's varying length costs a mispredicted branch at its end.
#include <cstdint>
#include <cstring>

namespace marey {

namespace digit_run_detail {

// Bit 7 of each byte of the result is set where 'word' holds something other than '0'..'9'.
inline uint64_t NonDigitBytes(uint64_t word) {
    constexpr uint64_t kHighNibbles = 0xF0F0F0F0F0F0F0F0ull;
    constexpr uint64_t kZeros = 0x3030303030303030ull;
    // A digit is 0x30..0x39: high nibble 3, and still 3 after adding 6. A carry out of a byte
    // of 0xFA or more can only spoil the bytes after a non-digit, which are not looked at.
    const uint64_t wrong = ((word & kHighNibbles) ^ kZeros) |
                           (((word + 0x0606060606060606ull) & kHighNibbles) ^ kZeros);
    return (wrong | (wrong << 1) | (wrong << 2) | (wrong << 3)) & 0x8080808080808080ull;
}

// The value of 'count' (1..8) digits in the low bytes of 'word', first digit in the lowest byte.
inline uint64_t ValueOfDigits(uint64_t word, int count) {
    word = (word - 0x3030303030303030ull) << (8 * (8 - count));  // leading zero digits on the left
    word = (word * 10 + (word >> 8)) & 0x00FF00FF00FF00FFull;
    word = (word * 100 + (word >> 16)) & 0x0000FFFF0000FFFFull;
    return (word * 10000 + (word >> 32)) & 0xFFFFFFFFull;
}

}  // namespace digit_run_detail

// Counts the digits at 'p' (at most 16) and stores their value. 16 bytes from 'p' must be
// readable: the parsers call it only inside simdjson's padded buffers.
inline int ReadDigitRun(const char* p, uint64_t* value) {
    using namespace digit_run_detail;
    uint64_t low, high;
    std::memcpy(&low, p, 8);
    std::memcpy(&high, p + 8, 8);
    const uint64_t lowStops = NonDigitBytes(low);
    if (lowStops) {
        const int count = __builtin_ctzll(lowStops) / 8;
        *value = count ? ValueOfDigits(low, count) : 0;
        return count;
    }
    const uint64_t highStops = NonDigitBytes(high);
    const int highCount = highStops ? __builtin_ctzll(highStops) / 8 : 8;
    static constexpr uint64_t kPowers[9] = {1,      10,      100,      1000,     10000,
                                            100000, 1000000, 10000000, 100000000};
    *value = ValueOfDigits(low, 8) * kPowers[highCount] +
             (highCount ? ValueOfDigits(high, highCount) : 0);
    return 8 + highCount;
}

}  // namespace marey
