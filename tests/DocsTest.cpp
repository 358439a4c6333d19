// The README and the pages of docs/ as a newcomer follows them: every link to a file of the
// repository resolves, to a heading that exists where it names one; the README starts with the
// two commands, the second being exactly what CI runs; and the five things it says to try first
// run as written (their /tmp paths in a folder of the test's own; a command that opens the window
// takes a screenshot under Xvfb and exits); and every `marey` command the pages' shell blocks show
// runs, its placeholders (TRACE, RANK_DIR, CLUSTER, …) given generated inputs.
#include <doctest/doctest.h>

#include <sys/wait.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "TestSupport.hpp"

namespace fs = std::filesystem;

namespace {

const fs::path kSource = fs::path(MAREY_TESTS_DIR).parent_path();

std::string ReadText(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

// The lines of 'text' outside its fenced code blocks.
std::vector<std::string> ProseLines(const std::string& text) {
    std::vector<std::string> lines;
    bool fenced = false;
    size_t start = 0;
    while (start <= text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        const std::string line = text.substr(start, end - start);
        if (line.rfind("```", 0) == 0)
            fenced = !fenced;
        else if (!fenced)
            lines.push_back(line);
        start = end + 1;
    }
    return lines;
}

// GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens.
std::string Slug(const std::string& heading) {
    std::string slug;
    for (const char c : heading) {
        const unsigned char u = static_cast<unsigned char>(c);
        if (std::isalnum(u) || c == '-' || c == '_' || u >= 0x80)
            slug += static_cast<char>(std::tolower(u));
        else if (c == ' ')
            slug += '-';
    }
    return slug;
}

std::set<std::string> Anchors(const fs::path& page) {
    std::set<std::string> anchors;
    for (const std::string& line : ProseLines(ReadText(page))) {
        size_t level = 0;
        while (level < line.size() && line[level] == '#') ++level;
        if (level > 0 && level < line.size() && line[level] == ' ')
            anchors.insert(Slug(line.substr(level + 1)));
    }
    return anchors;
}

std::vector<fs::path> Pages() {
    std::vector<fs::path> pages = {kSource / "README.md"};
    for (const auto& entry : fs::directory_iterator(kSource / "docs"))
        if (entry.path().extension() == ".md") pages.push_back(entry.path());
    return pages;
}

}  // namespace

TEST_CASE("every link of the README and of docs/ to a file of the repository resolves") {
    const std::regex link(R"(\]\(([^)\s]+)\))");
    size_t links = 0;
    for (const fs::path& page : Pages()) {
        for (const std::string& line : ProseLines(ReadText(page))) {
            for (std::sregex_iterator it(line.begin(), line.end(), link), end; it != end; ++it) {
                const std::string target = (*it)[1];
                if (target.rfind("http://", 0) == 0 || target.rfind("https://", 0) == 0) continue;
                ++links;
                const size_t hash = target.find('#');
                const std::string file = target.substr(0, hash);
                const fs::path resolved =
                    file.empty() ? page : (page.parent_path() / file).lexically_normal();
                CAPTURE(page.string());
                CAPTURE(target);
                CHECK(fs::exists(resolved));
                if (hash != std::string::npos && fs::exists(resolved) &&
                    resolved.extension() == ".md")
                    CHECK(Anchors(resolved).count(target.substr(hash + 1)) == 1);
            }
        }
    }
    CHECK(links > 40);
}

TEST_CASE("the README starts with the two commands, the second the one CI runs") {
    const std::string readme = ReadText(kSource / "README.md");
    const std::string ci = ReadText(kSource / ".ci" / "run");
    const size_t first = readme.find("```sh\n");
    REQUIRE(first != std::string::npos);
    const size_t second = readme.find("```sh\n", first + 1);
    REQUIRE(second != std::string::npos);
    const std::string viewer = readme.substr(first + 6, readme.find('\n', first + 6) - first - 6);
    const std::string tests = readme.substr(second + 6, readme.find('\n', second + 6) - second - 6);
    CHECK(viewer.rfind("sh tools/install-deps.sh viewer && ", 0) == 0);
    CHECK(viewer.find("./build/marey") != std::string::npos);
    CHECK(ci.find(tests) != std::string::npos);
}

TEST_CASE("the five things the README says to try first run as written") {
    const std::string readme = ReadText(kSource / "README.md");
    const size_t from = readme.find("## Five things to try first");
    REQUIRE(from != std::string::npos);
    const std::string part = readme.substr(from, readme.find("\n## ", from + 1) - from);
    const fs::path dir = marey::test::TempDir("readme_five");
    const fs::path build = fs::path(MAREY_BINARY).parent_path();
    // Inline commands, joined where the text wraps them.
    std::string joined;
    for (const char c : part) joined += c == '\n' ? ' ' : c;
    const std::regex command(R"(`(\./build/marey[^`]*)`)");
    size_t run = 0;
    for (std::sregex_iterator it(joined.begin(), joined.end(), command), end; it != end; ++it) {
        std::string line = (*it)[1];
        while (line.find("   ") != std::string::npos) line.replace(line.find("   "), 3, " ");
        if (line == "./build/marey") continue;  // the window: the screenshot tests open it
        const std::string written = line;
        for (size_t at; (at = line.find("./build/")) != std::string::npos;)
            line.replace(at, 8, build.string() + "/");
        for (size_t at = 0; (at = line.find("/tmp/", at)) != std::string::npos;) {
            line.replace(at, 5, dir.string() + "/");
            at += dir.string().size() + 1;
        }
        // "marey PATH" alone opens the window: under Xvfb it draws one frame to a PNG and exits.
        const std::regex window("(^|&& )(" + build.string() + R"(/marey) (\S+)$)");
        line = std::regex_replace(line, window,
                                  "$1" + marey::test::XvfbRun("1600x1000x24") +
                                      "$2 $3 --screenshot " + (dir / "shot.png").string());
        int status = 0;
        const std::string output = marey::test::RunCommand(line + " 2>&1", &status);
        status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        CAPTURE(written);
        CAPTURE(output.substr(0, 400));
        // `marey check` exits 1 on the regression the generated pair was given.
        const bool gate = written.find("marey check") != std::string::npos;
        CHECK(status == (gate ? 1 : 0));
        ++run;
    }
    CHECK(run == 4);
    fs::remove_all(dir);
}

namespace {

// The `marey …` lines of the pages' ```sh blocks, with the page each is on.
std::vector<std::pair<std::string, std::string>> ShellCommands() {
    std::vector<std::pair<std::string, std::string>> commands;
    for (const fs::path& page : Pages()) {
        const std::string text = ReadText(page);
        bool shell = false;
        size_t start = 0;
        while (start < text.size()) {
            size_t end = text.find('\n', start);
            if (end == std::string::npos) end = text.size();
            const std::string line = text.substr(start, end - start);
            if (line.rfind("```", 0) == 0)
                shell = !shell && line == "```sh";
            else if (shell && line.rfind("marey ", 0) == 0)
                commands.emplace_back(page.filename().string(), line);
            start = end + 1;
        }
    }
    return commands;
}

// 'line' as it runs here: its comment, optional [parts] and "…" dropped, each placeholder given
// its input; empty when it names a placeholder that has none.
std::string Runnable(std::string line,
                     const std::vector<std::pair<std::string, std::string>>& inputs) {
    if (const size_t comment = line.find("  #"); comment != std::string::npos) line.erase(comment);
    line = std::regex_replace(line, std::regex(R"( \[[^\]]*\])"), "");
    for (const char* ellipsis : {" …", " ..."})
        for (size_t at; (at = line.find(ellipsis)) != std::string::npos;)
            line.erase(at, std::string(ellipsis).size());
    std::string out;
    const std::regex word(R"([A-Za-z0-9_./-]+)");
    size_t last = 0;
    for (std::sregex_iterator it(line.begin(), line.end(), word), end; it != end; ++it) {
        std::string token = it->str();
        for (const auto& [name, input] : inputs)
            if (token == name) token = input;
        // A word in capitals with no input (NAME, N, RUN.sqlite): this line cannot run here.
        if (std::regex_match(token, std::regex(R"([A-Z][A-Z_]*(\.[a-z]+)?)"))) return "";
        out += line.substr(last, static_cast<size_t>(it->position()) - last) + token;
        last = static_cast<size_t>(it->position() + it->length());
    }
    out += line.substr(last);
    while (!out.empty() && out.back() == ' ') out.pop_back();
    return out;
}

}  // namespace

TEST_CASE("every marey command the pages' shell blocks show runs, given generated inputs") {
    const fs::path dir = marey::test::TempDir("docs_commands");
    int made = 0;
    const std::string generated =
        marey::test::RunCommand(std::string(MAREY_GEN) + " --cluster " + (dir / "job").string() +
                                    " --ranks 8 --steps 6 && " + MAREY_GEN + " --gpu-trace " +
                                    (dir / "trace.json").string() + " --events 4000 --steps 8 2>&1",
                                &made);
    REQUIRE_MESSAGE(made == 0, generated);
    std::ofstream(dir / "queries.sql") << "select count(*) from slice;\n";
    const std::string rank0 = (dir / "job" / "rank_0_ascend_pt").string();
    const std::string rank1 = (dir / "job" / "rank_1_ascend_pt").string();
    const std::vector<std::pair<std::string, std::string>> inputs = {
        {"TRACE", (dir / "trace.json").string()},
        {"TRACE_OR_RANK", (dir / "trace.json").string()},
        {"trace.json", (dir / "trace.json").string()},
        {"RANK_DIR", rank0},
        {"RANK_DIR_A", rank0},
        {"RANK_DIR_B", rank1},
        {"RANK_A", rank0},
        {"RANK_B", rank1},
        {"CLUSTER", (dir / "job").string()},
        {"JOB", (dir / "job").string()},
        {"/scratch/job42", (dir / "job").string()},
        {"job42.jsonl", (dir / "job42.jsonl").string()},
        {"queries.sql", (dir / "queries.sql").string()}};
    // The subcommands; any other line opens the window, which draws one frame under Xvfb.
    const std::set<std::string> subcommands = {"critical-path", "stats", "sql",    "summarize",
                                               "check",         "mcp",   "compare"};
    size_t ran = 0;
    for (const auto& [page, written] : ShellCommands()) {
        std::string line = Runnable(written, inputs);
        if (line.empty()) continue;
        const std::string second = line.substr(6, line.find(' ', 6) - 6);
        line = std::string(MAREY_BINARY) + line.substr(5);
        if (!subcommands.count(second))
            line = marey::test::XvfbRun("1600x1000x24") + line + " --screenshot " +
                   (dir / "shot.png").string();
        int status = 0;
        const std::string output =
            marey::test::RunCommand("cd " + dir.string() + " && " + line + " 2>&1", &status);
        status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        CAPTURE(page);
        CAPTURE(written);
        CAPTURE(line);
        CAPTURE(output.substr(0, 600));
        CHECK(status == 0);
        ++ran;
    }
    // Every page's commands but those naming an input no test can make (an annotation's NAME,
    // a step N, a RUN.sqlite at a prompt).
    CHECK(ran >= 16);
    fs::remove_all(dir);
}
