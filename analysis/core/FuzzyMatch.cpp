#include "core/FuzzyMatch.hpp"

#include <cctype>

namespace marey {
namespace {

char Lower(char c) {
    return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
}

bool WordStart(std::string_view text, size_t i) {
    if (i == 0) return true;
    const unsigned char before = static_cast<unsigned char>(text[i - 1]),
                        here = static_cast<unsigned char>(text[i]);
    return !std::isalnum(before) || (std::islower(before) && std::isupper(here));
}

}  // namespace

int FuzzyScore(std::string_view pattern, std::string_view text) {
    if (pattern.empty()) return 0;
    // Greedy from the left, which is enough for short search patterns; a substring match is
    // found first and gets a large bonus, so exact words always rank above scattered letters.
    int score = 0;
    size_t p = 0, previous = std::string_view::npos;
    for (size_t i = 0; i < text.size() && p < pattern.size(); ++i) {
        if (Lower(text[i]) != Lower(pattern[p])) continue;
        score += 10;
        if (previous != std::string_view::npos && previous + 1 == i) score += 15;
        if (WordStart(text, i)) score += 20;
        previous = i;
        ++p;
    }
    if (p < pattern.size()) return -1;
    // A case-insensitive substring: strongest signal.
    for (size_t i = 0; i + pattern.size() <= text.size(); ++i) {
        size_t k = 0;
        while (k < pattern.size() && Lower(text[i + k]) == Lower(pattern[k])) ++k;
        if (k == pattern.size()) {
            score += 100 + (WordStart(text, i) ? 50 : 0);
            break;
        }
    }
    // Shorter names first among equals.
    return score * 4 - static_cast<int>(text.size() > 200 ? 200 : text.size()) / 8;
}

}  // namespace marey
