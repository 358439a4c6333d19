#pragma once
// The code's shape rules that a formatter cannot check: how long a function may grow and where a
// long file needs `// [SECTION]` banners. Read by marey-style-check (CI) and its unit tests.
#include <string>
#include <vector>

namespace marey::style {

constexpr int kMaxFunctionLines = 120;
constexpr int kBannerFileLines = 600;  // a longer file is cut into sections with banners

struct FunctionSpan {
    int firstLine = 0;  // 1-based: where the function's signature starts
    int lastLine = 0;   // its closing brace
    std::string head;   // the signature, spaces squeezed (for messages)
};

// The bodies of functions in C++ source 'text' at namespace or class level (lambdas and local
// classes count as part of the function that holds them). Comments, string and character literals
// (raw strings too) are skipped. A heuristic, not a parser: enough for this project's code. O(n).
std::vector<FunctionSpan> FindFunctions(const std::string& text);

// Messages "path:line: ..." for every rule 'text' (the file at 'path') breaks: functions over
// kMaxFunctionLines lines, no `// [SECTION]` banner in a file over kBannerFileLines lines, a
// doctest name with ';' (ctest cuts discovered names there).
std::vector<std::string> CheckFile(const std::string& path, const std::string& text);

}  // namespace marey::style
