#pragma once
// Where an ImportProblem happened, as a person reads it: line and column, and the compiler's
// "file:line:column: error: message" form. Shared by every parser.
#include <string>
#include <string_view>
#include <vector>

#include "core/Status.hpp"

namespace marey {

// Fills in line and column of 'problems', which are sorted by byte offset: one pass over 'text',
// O(text up to the last offset + problems). Offsets past the end count as the end.
void FillLineColumns(std::string_view text, std::vector<ImportProblem>& problems);

// "file:line:column: error: message", the place counted in bytes of the (inflated) text.
std::string FormatProblem(const std::string& file, const ImportProblem& problem);

}  // namespace marey
