#include <doctest/doctest.h>

#include <string>

#include "StyleCheck.hpp"

using namespace marey::style;

namespace {

// A function whose body has 'bodyLines' lines of statements.
std::string FunctionOf(const std::string& name, int bodyLines) {
    std::string text = "int " + name + "(int x) {\n";
    for (int i = 0; i < bodyLines; ++i) text += "    x += " + std::to_string(i) + ";\n";
    return text + "    return x;\n}\n";
}

}  // namespace

TEST_CASE("functions are found at namespace and class level with their first and last lines") {
    const std::string text =
        "#include <vector>\n"                           // 1
        "namespace a {\n"                               // 2
        "struct S {\n"                                  // 3
        "    int Get() const { return 1; }\n"           // 4
        "};\n"                                          // 5
        "int F(int x,\n"                                // 6
        "      int y) {\n"                              // 7
        "    auto g = [&](int z) { return z + x; };\n"  // 8
        "    const char* s = \"}{\";  // }\n"           // 9
        "    return g(y) + s[0] + '}';\n"               // 10
        "}\n"                                           // 11
        "const int kTable[] = {1, 2};\n"                // 12
        "}  // namespace a\n";                          // 13
    const auto functions = FindFunctions(text);
    REQUIRE(functions.size() == 2);
    CHECK(functions[0].firstLine == 4);
    CHECK(functions[0].lastLine == 4);
    CHECK(functions[1].firstLine == 6);
    CHECK(functions[1].lastLine == 11);
    CHECK(functions[1].head == "int F(int x, int y)");
}

TEST_CASE(
    "raw strings, operators and default arguments in braces do not confuse the function finder") {
    const std::string text =
        "const char* kText = R\"x({ not code )\" })x\";\n"
        "bool operator==(const A& a, const A& b) { return a.v == b.v; }\n"
        "A& A::operator=(const A& o) {\n    v = o.v;\n    return *this;\n}\n"
        "void Draw(Options options = {}) {\n    Use(options);\n}\n"
        "int n = 1'000'000;\n"
        "void Last() {}\n";
    const auto functions = FindFunctions(text);
    REQUIRE(functions.size() == 4);
    CHECK(functions[0].firstLine == 2);
    CHECK(functions[1].firstLine == 3);
    CHECK(functions[1].lastLine == 6);
    CHECK(functions[2].firstLine == 7);
    CHECK(functions[2].lastLine == 9);
    CHECK(functions[3].firstLine == 11);
}

TEST_CASE("a function over 120 lines and a long file without banners are named with their lines") {
    const std::string fits =
        FunctionOf("Fits", kMaxFunctionLines - 3);  // signature, body, return, brace
    CHECK(CheckFile("a.cpp", fits).empty());
    const std::string tooLong = "\n" + FunctionOf("TooLong", kMaxFunctionLines - 2);
    const auto problems = CheckFile("b.cpp", tooLong);
    REQUIRE(problems.size() == 1);
    CHECK(problems[0] == "b.cpp:2: function of 121 lines (at most 120): int TooLong(int x)");

    std::string longFile;
    for (int i = 0; i < 10; ++i) longFile += FunctionOf("F" + std::to_string(i), 60);
    const auto noBanner = CheckFile("c.cpp", longFile);
    REQUIRE(noBanner.size() == 1);
    CHECK(noBanner[0] ==
          "c.cpp:1: 630 lines and no \"// [SECTION]\" banner (needed past 600 lines)");
    CHECK(CheckFile("c.cpp", "// [SECTION] Drawing\n" + longFile).empty());
}

TEST_CASE("a test name with a semicolon is named with its line") {
    const auto problems = CheckFile("t.cpp",
                                    "\nTEST_CASE(\"one thing, then another\") {}\n"
                                    "TEST_CASE(\"one thing; \"\n    \"another\") {}\n");
    REQUIRE(problems.size() == 1);
    CHECK(problems[0] == "t.cpp:3: a test name with ';' (ctest splits names there)");
}
