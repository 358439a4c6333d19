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
        // The critical path: a graph over the trace's calls and device work (path/).
        {"path", {"core", "load", "model", "index", "trace"}},
        {"rank", {"core", "load", "model", "index", "trace", "path"}},
        {"compare", {"core", "load", "model", "index", "trace", "path", "rank"}},
        {"report", {"core", "load", "model", "index", "trace", "path", "rank", "compare"}},
        {"cluster",
         {"core", "load", "db", "model", "index", "trace", "path", "rank", "compare", "report"}},
        {"marey",
         {"core", "load", "db", "model", "index", "trace", "path", "rank", "compare", "report",
          "cluster"}},
        // The index cache keeps models and their device analyses: it stands on model/ and trace/,
        // and only the loading layer uses it.
        {"cache", {"core", "load", "model", "index", "trace"}},
        // One importer per format (import/<format>/) and their registry: below them the shared
        // readers (load/ for JSON and CSV, db/ for SQLite) and what a rank's tables become.
        {"import",
         {"core", "load", "db", "model", "index", "trace", "path", "rank", "compare", "report",
          "cluster", "cache"}},
        // `marey sql`'s tables: the model read in place, through SQLite.
        // Its args table reads a row's details through the importer of its format.
        {"sql",
         {"core", "load", "db", "model", "index", "trace", "path", "rank", "compare", "report",
          "cluster", "cache", "import"}},
        {"loading",
         {"core", "load", "db", "model", "index", "trace", "path", "rank", "compare", "report",
          "cluster", "marey", "cache", "import"}},
    };
    return kAllowed;
}

// Folder of viewer/ → the folders of viewer/ its files may include (and every folder of
// analysis/, which lies below the whole window). The view kit lies below the documents and the
// views; the shell (the application, the view registry) above them all.
const std::map<std::string, std::set<std::string>>& ViewerEdges() {
    static const std::map<std::string, std::set<std::string>> kAllowed = {
        {"base", {}},
        {"render", {"base"}},
        {"timeline", {"base", "render"}},
        {"panels", {"base", "render", "timeline"}},
        {"viewkit", {"base", "render", "timeline", "panels"}},
        {"workspace", {"base", "render", "timeline", "panels", "viewkit"}},
        // The three kinds of views stand side by side: none includes another's.
        {"views", {"base", "render", "timeline", "panels", "viewkit", "workspace"}},
        {"clusterviews", {"base", "render", "timeline", "panels", "viewkit", "workspace"}},
        {"compareviews", {"base", "render", "timeline", "panels", "viewkit", "workspace"}},
        {"shell",
         {"base", "render", "timeline", "panels", "viewkit", "workspace", "views", "clusterviews",
          "compareviews"}},
    };
    return kAllowed;
}

// app/ (the command line and its MCP server) is one layer: it reaches the window only through
// the shell's entry point.
const std::map<std::string, std::set<std::string>>& AppEdges() {
    static const std::map<std::string, std::set<std::string>> kAllowed = {
        {"app", {"mcp", "shell"}},
    };
    return kAllowed;
}

// One tree of the sources and its rule: which folder may include which, and what lies below
// the whole tree (any of its folders may include those).
struct Layering {
    std::string tree;  // "analysis", "viewer", "app"
    const std::map<std::string, std::set<std::string>>& allowed;
    std::set<std::string> below;  // folders of lower trees
    bool guiAllowed = false;
};

std::set<std::string> FoldersOf(const std::map<std::string, std::set<std::string>>& table) {
    std::set<std::string> folders;
    for (const auto& [folder, allowed] : table) folders.insert(folder);
    return folders;
}

const Layering& AnalysisLayering() {
    static const Layering kLayering{"analysis", AllowedEdges(), {}, false};
    return kLayering;
}

const Layering& ViewerLayering() {
    static const Layering kLayering{"viewer", ViewerEdges(), FoldersOf(AllowedEdges()), true};
    return kLayering;
}

const Layering& AppLayering() {
    static const Layering kLayering{"app", AppEdges(), FoldersOf(AllowedEdges()), true};
    return kLayering;
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

// Every forbidden #include in 'text', the file 'path' of folder 'folder' of the layering's tree,
// one message each: "analysis/load/X.cpp:7: load/ must not include model/ (model/TraceModel.hpp)".
// O(text).
std::vector<std::string> Violations(const Layering& layering, const std::string& folder,
                                    const std::string& path, const std::string& text) {
    std::vector<std::string> found;
    const auto& table = layering.allowed;
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
        if (!layering.guiAllowed && IsGuiHeader(header)) {
            found.push_back(where + folder + "/ must not include the GUI (" + header + ")");
            continue;
        }
        const size_t slash = header.find('/');
        if (!quoted || slash == std::string::npos)
            continue;  // the standard library, simdjson, zlib, a header of the same folder
        const std::string target = header.substr(0, slash);
        if (target == folder || allowed->second.count(target) || layering.below.count(target))
            continue;
        const std::string tree = layering.tree + "/";
        if (!table.count(target))
            found.push_back(
                where + folder + "/ includes " + target + "/, which is not a folder of " +
                (layering.below.empty() ? tree : tree + " nor one below it") + " (" + header + ")");
        else
            found.push_back(where + folder + "/ must not include " + target + "/ (" + header + ")");
    }
    return found;
}

// The analysis tree's rule, as the tests below were first written.
std::vector<std::string> Violations(const std::string& folder, const std::string& path,
                                    const std::string& text) {
    return Violations(AnalysisLayering(), folder, path, text);
}

// Every violation in the tree 'layering' names, read from the sources; 'filesRead' counts them.
// Files of app/ all belong to its one layer "app"; every other tree's files live in folders.
std::vector<std::string> TreeViolations(const Layering& layering, size_t* filesRead) {
    namespace fs = std::filesystem;
    const fs::path root = fs::path(MAREY_SOURCE_DIR) / layering.tree;
    std::vector<std::string> violations;
    for (const fs::directory_entry& entry : fs::recursive_directory_iterator(root)) {
        const std::string extension = entry.path().extension().string();
        if (!entry.is_regular_file() || (extension != ".hpp" && extension != ".cpp")) continue;
        const fs::path relative = fs::relative(entry.path(), root);
        const std::string path = layering.tree + "/" + relative.generic_string();
        ++*filesRead;
        std::string folder = relative.begin()->string();
        if (layering.tree == "app") {
            folder = "app";
        } else if (!relative.has_parent_path()) {
            violations.push_back(path + ": every file of " + layering.tree +
                                 "/ lives in one of its folders");
            continue;
        }
        std::ifstream file(entry.path());
        std::stringstream text;
        text << file.rdbuf();
        for (std::string& message : Violations(layering, folder, path, text.str()))
            violations.push_back(std::move(message));
    }
    std::sort(violations.begin(), violations.end());
    return violations;
}

}  // namespace

TEST_CASE("no file of analysis/ includes a folder its layer must not reach") {
    size_t filesRead = 0;
    for (const std::string& message : TreeViolations(AnalysisLayering(), &filesRead))
        FAIL_CHECK(message);
    CHECK(filesRead > 100);
}

TEST_CASE("no file of viewer/ or app/ includes a folder its layer must not reach") {
    size_t viewerFiles = 0, appFiles = 0;
    for (const std::string& message : TreeViolations(ViewerLayering(), &viewerFiles))
        FAIL_CHECK(message);
    for (const std::string& message : TreeViolations(AppLayering(), &appFiles)) FAIL_CHECK(message);
    CHECK(viewerFiles > 80);
    CHECK(appFiles > 10);
}

TEST_CASE("a back-include in viewer/ or app/ is named with its file, line and edge") {
    SUBCASE("a view reaching up to the shell") {
        const std::vector<std::string> found =
            Violations(ViewerLayering(), "views", "viewer/views/X.cpp",
                       "#include <imgui.h>\n#include \"model/TraceModel.hpp\"\n"
                       "#include \"shell/ViewRegistry.hpp\"\n");
        REQUIRE(found.size() == 1);
        CHECK(found[0] ==
              "viewer/views/X.cpp:3: views/ must not include shell/ (shell/ViewRegistry.hpp)");
    }
    SUBCASE("the view kit reaching up to the documents, a view to a view of another kind") {
        CHECK(Violations(ViewerLayering(), "viewkit", "viewer/viewkit/Y.hpp",
                         "#include \"workspace/Document.hpp\"\n")
                  .size() == 1);
        CHECK(Violations(ViewerLayering(), "compareviews", "viewer/compareviews/Z.cpp",
                         "#include \"views/TimelineTab.hpp\"\n")
                  .size() == 1);
    }
    SUBCASE("the command line reaching into the window past its shell") {
        const std::vector<std::string> found =
            Violations(AppLayering(), "app", "app/main.cpp",
                       "#include \"shell/ViewerMain.hpp\"\n#include \"workspace/Workspace.hpp\"\n");
        REQUIRE(found.size() == 1);
        CHECK(found[0] ==
              "app/main.cpp:2: app/ includes workspace/, which is not a folder of app/ nor one "
              "below it (workspace/Workspace.hpp)");
    }
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
