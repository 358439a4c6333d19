#pragma once
// Long values (call stacks, paths) broken into lines that fit a panel: at line ends first, then
// after a space, ';' or ',', or before a '/' or '\', never inside a name unless one name alone is
// wider than the panel. No drawing, so it is tested headless.
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "timeline/ElideText.hpp"  // ElideMiddle, for the callers that cut panel text

namespace marey {

// The lines of 'text' no wider than 'widthPx' as 'measure' gives widths ('\r' dropped).
// O(length · log(length)) calls of 'measure' at most.
std::vector<std::string> WrapAtSeparators(std::string_view text, float widthPx,
                                          const std::function<float(std::string_view)>& measure);

}  // namespace marey
