#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "core/Time.hpp"

using namespace marey;

static TimeNs Ns(const char* text) {
    TimeNs value = -1;
    REQUIRE(ParseMicrosToNs(text, &value) == DecimalError::kNone);
    return value;
}

TEST_CASE("microsecond text with 16 integer digits becomes exact nanoseconds") {
    CHECK(Ns("\"1736408883688177.930\"") == 1736408883688177930);
    CHECK(Ns("1736408883688177.930") == 1736408883688177930);
    CHECK(Ns("\"1736405444092247\"") == 1736405444092247000);
    CHECK(Ns("9223372036854775.807") == INT64_MAX);
    // A double would round these: spacing near 1.7e15 µs is 0.25 µs.
    CHECK(Ns("1712195495521131.125") - Ns("1712195495521131.124") == 1);
}

TEST_CASE("float noise and extra decimals round to the nearest nanosecond") {
    CHECK(Ns("5.0200000000000005") == 5020);
    CHECK(Ns("0.60003125") == 600);
    CHECK(Ns("0.0005") == 1);
    CHECK(Ns("145.57") == 145570);
    CHECK(Ns("12") == 12000);
    CHECK(Ns("0") == 0);
}

TEST_CASE("signs, exponents and white space are accepted") {
    CHECK(Ns("-12.5") == -12500);
    CHECK(Ns("1.5e3") == 1500000);
    CHECK(Ns("1E-3") == 1);
    CHECK(Ns(" 7 ") == 7000);
    CHECK(Ns("\"42.000\t\"") == 42000);
}

TEST_CASE("what is not a number is refused with a reason") {
    TimeNs value;
    CHECK(ParseMicrosToNs("\"n/a\"", &value) == DecimalError::kSyntax);
    CHECK(ParseMicrosToNs("NaN", &value) == DecimalError::kSyntax);
    CHECK(ParseMicrosToNs("\"\"", &value) == DecimalError::kEmpty);
    CHECK(ParseMicrosToNs("1e300", &value) == DecimalError::kOutOfRange);
    CHECK(ParseMicrosToNs("9223372036854775.808", &value) == DecimalError::kOutOfRange);
    CHECK(ParseMicrosToNs("1.2.3", &value) == DecimalError::kSyntax);
    CHECK(ParseMicrosToNs("--1", &value) == DecimalError::kSyntax);
}

// The padded parser reads past the token, as it may inside simdjson's buffers: each case sits
// in a buffer with trailing bytes that are not part of it.
static DecimalError ParsePadded(const std::string& token, TimeNs* value) {
    std::string buffer = token + ",\"ts\": 12345678901234567890}";
    buffer.resize(buffer.size() + 64, '\0');
    return ParseMicrosToNsPadded(std::string_view(buffer.data(), token.size()), value);
}

TEST_CASE("the padded parser agrees with the general one") {
    const char* cases[] = {"\"1736408883688177.930\"",
                           "1736408883688177.930",
                           "\"1736405444092247\"",
                           "9223372036854775.807",
                           "9223372036854775.808",
                           "9999999999999999.999",
                           "17364088836881771.5",
                           "5.0200000000000005",
                           "0.60003125",
                           "0.0005",
                           "145.57",
                           "12",
                           "0",
                           "-12.5",
                           "1.5e3",
                           "1E-3",
                           " 7 ",
                           "7 ",
                           "\"42.000\t\"",
                           "\"42\" ",
                           "\"n/a\"",
                           "NaN",
                           "\"\"",
                           "1e300",
                           "1.2.3",
                           "--1",
                           "12.",
                           "\"12.\"",
                           "\"12",
                           "12\"",
                           ".5",
                           "007.25",
                           "\"1736408883688177.930\"\n  ",
                           "\"9999999999999999.999\"",
                           "\"0000000000000000.000\"",
                           "\"9223372036854775.808\"",
                           "\"173640888368817a.930\"",
                           "\"1736408883688177.93a\"",
                           "\"1736408883688177,930\"",
                           "\"1736408883688177.9301\""};
    for (const char* text : cases) {
        CAPTURE(text);
        TimeNs general = -1, padded = -1;
        const DecimalError generalError = ParseMicrosToNs(text, &general);
        CHECK(ParsePadded(text, &padded) == generalError);
        if (generalError == DecimalError::kNone) CHECK(padded == general);
    }
}

TEST_CASE("the padded parser agrees with the general one on random numbers") {
    uint64_t state = 12345;
    auto next = [&state](uint64_t range) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        return (state >> 33) % range;
    };
    for (int i = 0; i < 20000; ++i) {
        std::string text;
        const bool quoted = next(2);
        if (quoted) text += '"';
        const uint64_t integerDigits = next(20);
        for (uint64_t d = 0; d < integerDigits; ++d) text += static_cast<char>('0' + next(10));
        if (next(3)) {
            text += '.';
            const uint64_t fractionDigits = next(8);
            for (uint64_t d = 0; d < fractionDigits; ++d) text += static_cast<char>('0' + next(10));
        }
        if (quoted && next(8)) text += '"';
        if (!next(4)) text += ' ';
        CAPTURE(text);
        TimeNs general = -1, padded = -1;
        const DecimalError generalError = ParseMicrosToNs(text, &general);
        CHECK(ParsePadded(text, &padded) == generalError);
        if (generalError == DecimalError::kNone) CHECK(padded == general);
    }
}

TEST_CASE(
    "milliseconds with up to six decimals scale to exact nanoseconds, and more decimals round") {
    uint64_t state = 777;
    auto next = [&state](uint64_t range) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        return (state >> 33) % range;
    };
    for (int i = 0; i < 20000; ++i) {
        // A value of 'decimals' decimals written out, read at scale 6: the digits times 10^(6 -
        // decimals), whatever path the parser takes.
        const int decimals = static_cast<int>(next(7));
        uint64_t digits = next(1000000000) * 1000 + next(1000);
        std::string text = std::to_string(digits);
        if (decimals > 0) {
            text.insert(
                0, static_cast<size_t>(std::max(0, decimals + 1 - static_cast<int>(text.size()))),
                '0');
            text.insert(text.size() - static_cast<size_t>(decimals), ".");
        }
        for (int d = decimals; d < 6; ++d) digits *= 10;
        CAPTURE(text);
        int64_t ns = -1;
        REQUIRE(ParseScaledDecimal(text, 6, &ns) == DecimalError::kNone);
        CHECK(ns == static_cast<int64_t>(digits));
    }
    int64_t ns = 0;
    CHECK((ParseScaledDecimal("1.2345675", 6, &ns) == DecimalError::kNone && ns == 1234568));
    CHECK((ParseScaledDecimal("-0.5", 6, &ns) == DecimalError::kNone && ns == -500000));
    CHECK((ParseScaledDecimal("12.", 6, &ns) == DecimalError::kNone && ns == 12000000));
    CHECK((ParseScaledDecimal(".25", 6, &ns) == DecimalError::kNone && ns == 250000));
    CHECK((ParseScaledDecimal("2.5e-3", 6, &ns) == DecimalError::kNone && ns == 2500));
    CHECK((ParseScaledDecimal(" 7 ", 6, &ns) == DecimalError::kNone && ns == 7000000));
    CHECK(ParseScaledDecimal("9223372036854.775808", 6, &ns) == DecimalError::kOutOfRange);
    CHECK(ParseScaledDecimal("1.2.3", 6, &ns) == DecimalError::kSyntax);
    CHECK(ParseScaledDecimal("0x10", 6, &ns) == DecimalError::kSyntax);
    CHECK(ParseScaledDecimal("inf", 6, &ns) == DecimalError::kSyntax);
}
