#include <doctest/doctest.h>

#include "core/Time.hpp"

using namespace tracelens;

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
