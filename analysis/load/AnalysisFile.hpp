#pragma once
// Reading one of a rank folder's small analysis files (CSV or JSON) into a list of problems that
// a view or `marey stats` shows: the file's own read errors and each parser's messages.
#include <string>
#include <string_view>
#include <vector>

#include "core/Status.hpp"
#include "load/TraceText.hpp"

namespace marey {

// Appends "file:line:column: error: message" for the first 100 of 'problems', then a count.
void AddFileProblems(const std::string& path, const std::vector<ImportProblem>& problems,
                     std::vector<std::string>& out);

// Opens 'path' (nothing happens when it is empty) and hands its text, padded for simdjson, to
// 'parse'; a file that cannot be read at all becomes one line in 'problems'.
template <typename Parse>
void ReadAnalysisFile(const std::string& path, std::vector<std::string>& problems, Parse parse) {
    if (path.empty()) return;
    auto text = TraceText::Open(path);
    if (!text.ok()) {
        problems.push_back(text.message());
        return;
    }
    for (const ImportProblem& problem : text.value().problems())
        problems.push_back(path + ": error: " + problem.message);
    parse(std::string_view(text.value().data(), text.value().size()));
}

}  // namespace marey
