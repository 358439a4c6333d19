#include <doctest/doctest.h>

#include <string>

#include "core/DigitRun.hpp"

using namespace marey;

TEST_CASE("a digit run is counted and valued like digit by digit, up to 16 digits") {
    uint64_t state = 99;
    auto next = [&state](uint64_t range) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        return (state >> 33) % range;
    };
    const std::string stops(" \",}]:.-eE\n\t/\xff\xfa\0", 16);
    for (int i = 0; i < 20000; ++i) {
        std::string text;
        const uint64_t digits = next(20);
        for (uint64_t d = 0; d < digits; ++d) text += static_cast<char>('0' + next(10));
        text += stops[next(stops.size())];
        while (text.size() < 32) text += static_cast<char>(next(256));
        uint64_t expectedValue = 0;
        int expectedCount = 0;
        while (expectedCount < 16 && text[expectedCount] >= '0' && text[expectedCount] <= '9')
            expectedValue = expectedValue * 10 + static_cast<uint64_t>(text[expectedCount++] - '0');
        uint64_t value = 1;
        CAPTURE(text);
        CHECK(ReadDigitRun(text.data(), &value) == expectedCount);
        CHECK(value == expectedValue);
    }
}
