#include "StyleCheck.hpp"

#include <algorithm>
#include <cctype>

namespace marey::style {
namespace {

// 'text' with comments, string and character literals and preprocessor lines turned into spaces;
// line breaks stay, so positions keep their line numbers.
std::string CodeOnly(const std::string& text) {
    std::string code = text;
    const size_t n = text.size();
    size_t i = 0;
    auto blank = [&](size_t from, size_t to) {
        for (size_t k = from; k < to && k < n; ++k)
            if (code[k] != '\n') code[k] = ' ';
    };
    bool lineStart = true;
    while (i < n) {
        const char c = text[i];
        if (c == '\n') {
            lineStart = true;
            ++i;
            continue;
        }
        if (lineStart && c == '#') {  // a preprocessor line, with its continuations
            size_t end = i;
            while (end < n && !(text[end] == '\n' && text[end - 1] != '\\')) ++end;
            blank(i, end);
            i = end;
            continue;
        }
        if (!std::isspace(static_cast<unsigned char>(c))) lineStart = false;
        if (c == '/' && i + 1 < n && text[i + 1] == '/') {
            const size_t end = text.find('\n', i);
            blank(i, end == std::string::npos ? n : end);
            i = end == std::string::npos ? n : end;
        } else if (c == '/' && i + 1 < n && text[i + 1] == '*') {
            const size_t end = text.find("*/", i + 2);
            const size_t stop = end == std::string::npos ? n : end + 2;
            blank(i, stop);
            i = stop;
        } else if (c == 'R' && i + 1 < n && text[i + 1] == '"' &&
                   (i == 0 || !(std::isalnum(static_cast<unsigned char>(text[i - 1])) ||
                                text[i - 1] == '_'))) {
            const size_t open = text.find('(', i + 2);
            if (open == std::string::npos) break;
            const std::string close = ")" + text.substr(i + 2, open - i - 2) + "\"";
            const size_t end = text.find(close, open);
            const size_t stop = end == std::string::npos ? n : end + close.size();
            blank(i, stop);
            i = stop;
        } else if (c == '"' || c == '\'') {
            // A digit separator (1'000'000) is not a character literal.
            if (c == '\'' && i > 0 && std::isxdigit(static_cast<unsigned char>(text[i - 1]))) {
                ++i;
                continue;
            }
            size_t end = i + 1;
            while (end < n && text[end] != c && text[end] != '\n') end += text[end] == '\\' ? 2 : 1;
            blank(i, end + 1);
            i = end + 1;
        } else {
            ++i;
        }
    }
    return code;
}

std::string Squeezed(const std::string& s) {
    std::string out;
    for (char c : s) {
        const bool space = std::isspace(static_cast<unsigned char>(c));
        if (space && (out.empty() || out.back() == ' ')) continue;
        out += space ? ' ' : c;
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    return out;
}

bool StartsWithWord(const std::string& s, const char* word) {
    const std::string w = word;
    return s.compare(0, w.size(), w) == 0 &&
           (s.size() == w.size() ||
            !(std::isalnum(static_cast<unsigned char>(s[w.size()])) || s[w.size()] == '_'));
}

enum class Scope { kNamespace, kFunction, kData, kInHead, kInner };

// What a '{' opens at namespace or class level, from the text before it.
Scope Classify(std::string head) {
    head = Squeezed(head);
    if (StartsWithWord(head, "template")) {
        int depth = 0;
        size_t k = 0;
        for (; k < head.size(); ++k) {
            if (head[k] == '<') ++depth;
            if (head[k] == '>' && --depth == 0) break;
        }
        head = Squeezed(head.substr(k + 1 < head.size() ? k + 1 : head.size()));
    }
    for (const char* word : {"namespace", "struct", "class", "union", "enum", "extern"})
        if (StartsWithWord(head, word) && head.find('(') == std::string::npos)
            return Scope::kNamespace;
    const size_t paren = head.find('(');
    if (paren == std::string::npos) return Scope::kData;
    for (size_t k = head.find('='); k < paren; k = head.find('=', k + 1)) {
        const bool operatorName = k >= 8 && head.compare(k - 8, 8, "operator") == 0;
        const bool secondOfPair =
            k > 0 && std::string("=!<>+-*/%&|^").find(head[k - 1]) != std::string::npos;
        if (!operatorName && !secondOfPair) return Scope::kData;
    }
    return Scope::kFunction;
}

}  // namespace

std::vector<FunctionSpan> FindFunctions(const std::string& text) {
    const std::string code = CodeOnly(text);
    std::vector<FunctionSpan> functions;
    struct Open {
        Scope scope;
        int line;
        std::string head;
    };
    std::vector<Open> stack;
    std::string head;
    int headLine = 0, line = 1, parenDepth = 0;
    auto atTopLevel = [&] {
        for (const Open& o : stack)
            if (o.scope != Scope::kNamespace && o.scope != Scope::kInHead) return false;
        return true;
    };
    for (char c : code) {
        if (c == '\n') ++line;
        if (!atTopLevel()) {
            if (c == '{') stack.push_back({Scope::kInner, line, {}});
            if (c == '}') {
                const Open open = stack.back();
                stack.pop_back();
                if (open.scope == Scope::kFunction)
                    functions.push_back({open.line, line, Squeezed(open.head)});
                if (open.scope != Scope::kInner) head.clear(), parenDepth = 0;
            }
            continue;
        }
        if (c == '{') {
            const Scope scope = parenDepth > 0 ? Scope::kInHead : Classify(head);
            stack.push_back({scope, headLine ? headLine : line, head});
            if (scope != Scope::kInHead) head.clear(), headLine = 0, parenDepth = 0;
        } else if (c == '}') {
            if (!stack.empty()) {
                const Scope closed = stack.back().scope;
                stack.pop_back();
                if (closed == Scope::kInHead) continue;
            }
            head.clear(), headLine = 0, parenDepth = 0;
        } else if (c == ';') {
            head.clear(), headLine = 0, parenDepth = 0;
        } else if (c == ':' && parenDepth == 0) {
            const std::string word = Squeezed(head);
            if (word == "public" || word == "private" || word == "protected")
                head.clear(), headLine = 0;
            else
                head += c;
        } else {
            if (c == '(') ++parenDepth;
            if (c == ')' && parenDepth > 0) --parenDepth;
            if (!headLine && !std::isspace(static_cast<unsigned char>(c))) headLine = line;
            head += c;
        }
    }
    return functions;
}

std::vector<std::string> CheckFile(const std::string& path, const std::string& text) {
    std::vector<std::string> problems;
    for (const FunctionSpan& f : FindFunctions(text)) {
        const int lines = f.lastLine - f.firstLine + 1;
        if (lines > kMaxFunctionLines)
            problems.push_back(path + ":" + std::to_string(f.firstLine) + ": function of " +
                               std::to_string(lines) + " lines (at most " +
                               std::to_string(kMaxFunctionLines) + "): " + f.head.substr(0, 80));
    }
    // ctest splits a discovered test's name at ';': such a test runs as two that match nothing.
    for (size_t at = text.find("TEST_CASE("); at != std::string::npos;
         at = text.find("TEST_CASE(", at + 1)) {
        if (at > 0 && text[at - 1] != '\n') continue;  // a test starts a line
        const size_t close = text.find(") {", at);
        const std::string name = text.substr(at, close == std::string::npos ? 0 : close - at);
        if (name.find(';') != std::string::npos) {
            const int line = 1 + static_cast<int>(std::count(
                                     text.begin(), text.begin() + static_cast<long>(at), '\n'));
            problems.push_back(path + ":" + std::to_string(line) +
                               ": a test name with ';' (ctest splits names there)");
        }
    }
    int lines = 0;
    for (char c : text) lines += c == '\n';
    if (lines > kBannerFileLines && text.find("// [SECTION]") == std::string::npos)
        problems.push_back(path + ":1: " + std::to_string(lines) +
                           " lines and no \"// [SECTION]\" banner (needed past " +
                           std::to_string(kBannerFileLines) + " lines)");
    return problems;
}

}  // namespace marey::style
