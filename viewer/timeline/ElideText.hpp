#pragma once
// Text cut to a width in pixels, for labels drawn where room is short.
#include <string>
#include <string_view>

namespace marey {

// The part of 'text' that fits 'widthPx' in the current font, with an ellipsis when cut (never
// inside a UTF-8 sequence); empty when not even one character and the ellipsis fit. 'scratch'
// holds a cut text. Binary search on the length: O(log n) measurements.
std::string_view ElideToWidth(std::string_view text, float widthPx, std::string& scratch);

}  // namespace marey
