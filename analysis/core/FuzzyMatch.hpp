#pragma once
// Fuzzy matching for the operator search: the pattern's characters in order, not necessarily
// adjacent ("fas" finds FlashAttentionScore), case-insensitive, scored so that closer and
// word-start matches come first.
#include <string_view>

namespace marey {

// -1 when 'pattern' is not a subsequence of 'text' (ignoring case); otherwise a score, higher
// is better: a contiguous match scores above a scattered one, a match at the start or after a
// separator or a lower→upper case change above one inside a word. Empty pattern: 0. O(|text|).
int FuzzyScore(std::string_view pattern, std::string_view text);

}  // namespace marey
