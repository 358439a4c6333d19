#pragma once
// Text cut to a width in pixels, for labels and cells drawn where room is short: cut in the
// middle, so that what tells names apart (the end of "hcom_allReduce__586_0_1", a path's file
// name, a number's unit) stays; the whole text belongs in the tooltip.
#include <functional>
#include <string>
#include <string_view>

namespace marey {

// 'text' when it fits 'widthPx'; else its start and end with "…" between, keeping more of the end,
// as wide as fits. Whole UTF-8 characters; "…" alone when nothing else fits. O(log(length)) calls
// of 'measure'.
std::string ElideMiddle(std::string_view text, float widthPx,
                        const std::function<float(std::string_view)>& measure);

// The same in the current font, as a view of 'text' or of 'scratch'; empty when not even one
// character with the ellipsis fits.
std::string_view ElideToWidth(std::string_view text, float widthPx, std::string& scratch);

}  // namespace marey
