#include "timeline/ElideText.hpp"

#include <imgui.h>

#include <cfloat>

namespace marey {

std::string_view ElideToWidth(std::string_view text, float widthPx, std::string& scratch) {
    // An empty view may hold no pointer at all, and CalcTextSizeA reads a null end as "up to the
    // terminating NUL": strlen on null.
    if (text.empty()) return {};
    const ImFont* font = ImGui::GetFont();
    const float size = ImGui::GetFontSize();
    if (font->CalcTextSizeA(size, FLT_MAX, 0, text.data(), text.data() + text.size()).x <= widthPx)
        return text;
    const float ellipsis = font->CalcTextSizeA(size, FLT_MAX, 0, "…").x;
    size_t low = 0, high = text.size();
    while (low < high) {
        const size_t mid = (low + high + 1) / 2;
        if (font->CalcTextSizeA(size, FLT_MAX, 0, text.data(), text.data() + mid).x + ellipsis <=
            widthPx)
            low = mid;
        else
            high = mid - 1;
    }
    // Do not cut a UTF-8 sequence in half.
    while (low > 0 && (static_cast<unsigned char>(text[low]) & 0xC0) == 0x80) --low;
    if (low == 0) return {};
    scratch.assign(text.substr(0, low));
    scratch += "…";
    return scratch;
}

}  // namespace marey
