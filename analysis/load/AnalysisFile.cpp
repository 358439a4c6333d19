#include "load/AnalysisFile.hpp"

#include <filesystem>

#include "core/Problem.hpp"

namespace marey {

namespace {
constexpr size_t kProblemsPerFile = 100;
}

void AddFileProblems(const std::string& path, const std::vector<ImportProblem>& problems,
                     std::vector<std::string>& out) {
    const std::string name = std::filesystem::path(path).filename().string();
    for (size_t i = 0; i < problems.size() && i < kProblemsPerFile; ++i)
        out.push_back(FormatProblem(name, problems[i]));
    if (problems.size() > kProblemsPerFile)
        out.push_back(name + ": " + std::to_string(problems.size() - kProblemsPerFile) +
                      " more problems not listed");
}

}  // namespace marey
