#include "panels/TextWrap.hpp"

namespace marey {
namespace {

bool IsContinuationByte(char c) {
    return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

// The longest prefix of 'line' (at least one character) no wider than 'widthPx'.
size_t FittingPrefix(std::string_view line, float widthPx,
                     const std::function<float(std::string_view)>& measure) {
    size_t low = 1, high = line.size();  // measure(line) > widthPx: high does not fit
    while (low + 1 < high) {
        const size_t mid = (low + high) / 2;
        if (measure(line.substr(0, mid)) <= widthPx)
            low = mid;
        else
            high = mid;
    }
    while (low < line.size() && IsContinuationByte(line[low])) ++low;  // whole characters
    return low;
}

// Where to break a line whose first 'fit' bytes fit: after the last space, ';' or ',', or before
// the last '/' or '\' among them; 'fit' itself when there is none.
size_t BreakAt(std::string_view line, size_t fit) {
    for (size_t i = fit; i > 0; --i) {
        const char before = line[i - 1];
        if (before == ' ' || before == ';' || before == ',') return i;
        if (i < line.size() && (line[i] == '/' || line[i] == '\\') && i > 1) return i;
    }
    return fit;
}

}  // namespace

std::vector<std::string> WrapAtSeparators(std::string_view text, float widthPx,
                                          const std::function<float(std::string_view)>& measure) {
    std::vector<std::string> lines;
    std::string clean;
    clean.reserve(text.size());
    for (const char c : text)
        if (c != '\r') clean.push_back(c);
    std::string_view rest = clean;
    while (true) {
        const size_t end = rest.find('\n');
        std::string_view line = rest.substr(0, end);
        while (!line.empty() && measure(line) > widthPx) {
            const size_t cut = BreakAt(line, FittingPrefix(line, widthPx, measure));
            std::string_view head = line.substr(0, cut);
            while (!head.empty() && head.back() == ' ') head.remove_suffix(1);
            lines.emplace_back(head);
            line.remove_prefix(cut);
            while (!line.empty() && line.front() == ' ') line.remove_prefix(1);
        }
        if (!line.empty() || end != std::string_view::npos) lines.emplace_back(line);
        if (end == std::string_view::npos) break;
        rest.remove_prefix(end + 1);
    }
    return lines;
}

}  // namespace marey
