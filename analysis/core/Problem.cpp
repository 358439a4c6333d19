#include "core/Problem.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace marey {

void FillLineColumns(std::string_view text, std::vector<ImportProblem>& problems) {
    // Problems are sorted by offset: one pass over the text counts the lines.
    const char* base = text.data();
    uint64_t line = 1, lineStart = 0, scanned = 0;
    for (ImportProblem& problem : problems) {
        const uint64_t target = std::min<uint64_t>(problem.byteOffset, text.size());
        while (scanned < target) {
            const void* newline = std::memchr(base + scanned, '\n', target - scanned);
            if (!newline) {
                scanned = target;
                break;
            }
            scanned = static_cast<uint64_t>(static_cast<const char*>(newline) - base) + 1;
            ++line;
            lineStart = scanned;
        }
        problem.line = static_cast<uint32_t>(std::min<uint64_t>(line, UINT32_MAX));
        problem.column =
            static_cast<uint32_t>(std::min<uint64_t>(target - lineStart + 1, UINT32_MAX));
    }
}

std::string FormatProblem(const std::string& file, const ImportProblem& problem) {
    // A problem with no line has no place in a text (a database's rows are named in the message).
    if (problem.line == 0) return file + ": error: " + problem.message;
    return file + ":" + std::to_string(problem.line) + ":" + std::to_string(problem.column) +
           ": error: " + problem.message;
}

}  // namespace marey
