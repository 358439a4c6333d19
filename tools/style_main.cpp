// marey-style-check SOURCE_DIR [CLANG_FORMAT]: checks every C++ file of the project against the
// root .clang-format (through clang-format --dry-run) and the shape rules of StyleCheck.hpp;
// prints each problem as "path:line: message" and exits 1 when there is any.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "StyleCheck.hpp"

namespace fs = std::filesystem;

namespace {

// The project's own C++ sources, sorted; build trees and generated files are not among them.
std::vector<std::string> SourceFiles(const fs::path& root) {
    std::vector<std::string> files;
    for (const char* folder : {"analysis", "app", "bench", "tests", "tools", "viewer"}) {
        std::error_code error;
        for (fs::recursive_directory_iterator it(root / folder, error), end; !error && it != end;
             it.increment(error)) {
            const std::string ext = it->path().extension().string();
            if (it->is_regular_file() && (ext == ".cpp" || ext == ".hpp"))
                files.push_back(fs::relative(it->path(), root).string());
        }
    }
    std::sort(files.begin(), files.end());
    return files;
}

std::string ShellQuoted(const std::string& s) {
    std::string out = "'";
    for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: marey-style-check SOURCE_DIR [CLANG_FORMAT]\n");
        return 2;
    }
    const fs::path root = argv[1];
    const std::string clangFormat = argc > 2 ? argv[2] : "clang-format";
    const std::vector<std::string> files = SourceFiles(root);
    if (files.empty()) {
        std::fprintf(stderr, "%s: no C++ sources found\n", root.c_str());
        return 2;
    }
    int problems = 0;
    for (const std::string& file : files) {
        std::ifstream in(root / file, std::ios::binary);
        std::stringstream text;
        text << in.rdbuf();
        for (const std::string& problem : marey::style::CheckFile(file, text.str())) {
            std::printf("%s\n", problem.c_str());
            ++problems;
        }
    }
    // clang-format reports each difference as "file:line:col: error: code should be
    // clang-formatted".
    std::string command = "cd " + ShellQuoted(root.string()) + " && " + ShellQuoted(clangFormat) +
                          " --dry-run --Werror";
    for (const std::string& file : files) command += " " + ShellQuoted(file);
    command += " 2>&1";
    FILE* pipe = popen(command.c_str(), "r");
    if (!pipe) {
        std::fprintf(stderr, "cannot run %s\n", clangFormat.c_str());
        return 2;
    }
    char buffer[4096];
    int formatLines = 0;
    while (fgets(buffer, sizeof buffer, pipe)) {
        if (std::string(buffer).find(": error: ") != std::string::npos) ++problems;
        if (formatLines++ < 200) std::fputs(buffer, stdout);
    }
    const int status = pclose(pipe);
    if (status != 0 && problems == 0) {
        std::printf("%s exited with status %d\n", clangFormat.c_str(), status);
        ++problems;
    }
    std::printf("%zu files checked, %d problems\n", files.size(), problems);
    return problems ? 1 : 0;
}
