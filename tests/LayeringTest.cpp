// The one-way flow of analysis/ (docs/DESIGN.md): each folder may include only the folders below
// it. Read from the sources, so that a wrong #include fails the tests, naming file, line and edge.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

// Folder of analysis/ → the folders its files may include (a folder may always include itself).
const std::map<std::string, std::set<std::string>>& AllowedEdges() {
    static const std::map<std::string, std::set<std::string>> kAllowed = {
        {"core", {}},
        {"load", {"core"}},
        {"db", {"core", "load"}},
        {"model", {"core", "load"}},
        {"index", {"core", "model"}},
        {"trace", {"core", "load", "model", "index"}},
        {"rank", {"core", "load", "model", "index", "trace"}},
        {"compare", {"core", "load", "model", "index", "trace", "rank"}},
        {"report", {"core", "load", "model", "index", "trace", "rank", "compare"}},
        {"cluster", {"core", "load", "db", "model", "index", "trace", "rank", "compare", "report"}},
        {"marey",
         {"core", "load", "db", "model", "index", "trace", "rank", "compare", "report", "cluster"}},
        // The index cache keeps models: it stands on model/ and only the loading layer uses it.
        {"cache", {"core", "load", "model"}},
        // One importer per format (import/<format>/) and their registry: below them the shared
        // readers (load/ for JSON and CSV, db/ for SQLite) and what a rank's tables become.
        {"import",
         {"core", "load", "db", "model", "index", "trace", "rank", "compare", "report", "cluster",
          "cache"}},
        // `marey sql`'s tables: the model read in place, through SQLite.
        // Its args table reads a row's details through the importer of its format.
        {"sql",
         {"core", "load", "db", "model", "index", "trace", "rank", "compare", "report", "cluster",
          "cache", "import"}},
        {"loading",
         {"core", "load", "db", "model", "index", "trace", "rank", "compare", "report", "cluster",
          "marey", "cache", "import"}},
    };
    return kAllowed;
}

// Headers of the GUI: no file of analysis/ may include them, by any path.
bool IsGuiHeader(const std::string& header) {
    for (const char* prefix : {"imgui", "GL/", "GLFW/", "epoxy/", "viewer/", "stb"})
        if (header.rfind(prefix, 0) == 0) return true;
    return header.find("imgui") != std::string::npos;
}

// The header an #include line names, or "" for any other line; 'quoted' tells "" from <>.
std::string IncludedHeader(const std::string& line, bool* quoted) {
    size_t at = line.find_first_not_of(" \t");
    if (at == std::string::npos || line[at] != '#') return "";
    at = line.find_first_not_of(" \t", at + 1);
    if (at == std::string::npos || line.compare(at, 7, "include") != 0) return "";
    at = line.find_first_of("\"<", at + 7);
    if (at == std::string::npos) return "";
    const char close = line[at] == '"' ? '"' : '>';
    const size_t end = line.find(close, at + 1);
    if (end == std::string::npos) return "";
    *quoted = close == '"';
    return line.substr(at + 1, end - at - 1);
}

// Every forbidden #include in 'text', the file 'path' of folder 'folder', one message each:
// "analysis/load/X.cpp:7: load/ must not include model/ (model/TraceModel.hpp)". O(text).
std::vector<std::string> Violations(const std::string& folder, const std::string& path,
                                    const std::string& text) {
    std::vector<std::string> found;
    const auto& table = AllowedEdges();
    const auto allowed = table.find(folder);
    if (allowed == table.end()) {
        found.push_back(path + ": the folder " + folder + "/ has no place in the layering table");
        return found;
    }
    std::istringstream lines(text);
    std::string line;
    for (int number = 1; std::getline(lines, line); ++number) {
        bool quoted = false;
        const std::string header = IncludedHeader(line, &quoted);
        if (header.empty()) continue;
        const std::string where = path + ":" + std::to_string(number) + ": ";
        if (IsGuiHeader(header)) {
            found.push_back(where + folder + "/ must not include the GUI (" + header + ")");
            continue;
        }
        const size_t slash = header.find('/');
        if (!quoted || slash == std::string::npos)
            continue;  // the standard library, simdjson, zlib
        const std::string target = header.substr(0, slash);
        if (target == folder || allowed->second.count(target)) continue;
        if (!table.count(target))
            found.push_back(where + folder + "/ includes " + target +
                            "/, which is not a folder of analysis/ (" + header + ")");
        else
            found.push_back(where + folder + "/ must not include " + target + "/ (" + header + ")");
    }
    return found;
}

}  // namespace

TEST_CASE("no file of analysis/ includes a folder its layer must not reach") {
    namespace fs = std::filesystem;
    const fs::path root = fs::path(MAREY_SOURCE_DIR) / "analysis";
    REQUIRE(fs::is_directory(root));
    size_t filesRead = 0;
    std::vector<std::string> violations;
    for (const fs::directory_entry& entry : fs::recursive_directory_iterator(root)) {
        const std::string extension = entry.path().extension().string();
        if (!entry.is_regular_file() || (extension != ".hpp" && extension != ".cpp")) continue;
        const fs::path relative = fs::relative(entry.path(), root);
        const std::string folder = relative.begin()->string();
        std::ifstream file(entry.path());
        std::stringstream text;
        text << file.rdbuf();
        const std::string path = "analysis/" + relative.generic_string();
        if (relative.has_parent_path()) {
            for (std::string& message : Violations(folder, path, text.str()))
                violations.push_back(std::move(message));
        } else {
            violations.push_back(path + ": every file of analysis/ lives in one of its folders");
        }
        ++filesRead;
    }
    CHECK(filesRead > 100);
    std::sort(violations.begin(), violations.end());
    for (const std::string& message : violations) FAIL_CHECK(message);
}

TEST_CASE("a forbidden include is named with its file, line and edge") {
    const std::string text =
        "#include \"load/ChunkDecoder.hpp\"\n\n#include <vector>\n#include "
        "\"model/TraceModel.hpp\"\n";
    const std::vector<std::string> found = Violations("load", "analysis/load/X.cpp", text);
    REQUIRE(found.size() == 1);
    CHECK(found[0] ==
          "analysis/load/X.cpp:4: load/ must not include model/ (model/TraceModel.hpp)");

    SUBCASE("the GUI is out of reach of every folder, the top one too") {
        const std::vector<std::string> gui =
            Violations("loading", "analysis/loading/Y.cpp", "#include <imgui.h>\n");
        REQUIRE(gui.size() == 1);
        CHECK(gui[0] == "analysis/loading/Y.cpp:1: loading/ must not include the GUI (imgui.h)");
    }
    SUBCASE("a folder outside analysis/ is named as such") {
        const std::vector<std::string> outside =
            Violations("rank", "analysis/rank/Z.hpp", "  #  include \"views/ViewCommon.hpp\"\n");
        REQUIRE(outside.size() == 1);
        CHECK(outside[0] ==
              "analysis/rank/Z.hpp:1: rank/ includes views/, which is not a folder of analysis/ "
              "(views/ViewCommon.hpp)");
    }
    SUBCASE("a lower folder may be included, and a folder may include itself") {
        CHECK(Violations("index", "analysis/index/W.cpp",
                         "#include \"index/RowQuery.hpp\"\n#include \"model/TraceModel.hpp\"\n")
                  .empty());
    }
}

TEST_CASE("every header of analysis/ is included by a test file") {
    namespace fs = std::filesystem;
    const fs::path source = MAREY_SOURCE_DIR;
    std::string tests;  // every test file's text, to look for each header's include in
    for (const fs::directory_entry& entry : fs::directory_iterator(source / "tests")) {
        if (!entry.is_regular_file() || entry.path().extension() != ".cpp") continue;
        std::ifstream file(entry.path());
        std::stringstream text;
        text << file.rdbuf();
        tests += text.str();
    }
    size_t headers = 0;
    std::vector<std::string> untested;
    for (const fs::directory_entry& entry : fs::recursive_directory_iterator(source / "analysis")) {
        if (!entry.is_regular_file() || entry.path().extension() != ".hpp") continue;
        ++headers;
        const std::string header = fs::relative(entry.path(), source / "analysis").generic_string();
        if (tests.find("#include \"" + header + "\"") == std::string::npos)
            untested.push_back("analysis/" + header + ": no test file includes it");
    }
    CHECK(headers > 60);
    std::sort(untested.begin(), untested.end());
    for (const std::string& message : untested) FAIL_CHECK(message);
}
