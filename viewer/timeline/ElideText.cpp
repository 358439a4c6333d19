#include "timeline/ElideText.hpp"

#include <imgui.h>

#include <cfloat>

namespace marey {
namespace {

constexpr std::string_view kEllipsis = "\xE2\x80\xA6";

bool IsContinuationByte(char c) {
    return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

}  // namespace

std::string ElideMiddle(std::string_view text, float widthPx,
                        const std::function<float(std::string_view)>& measure) {
    if (measure(text) <= widthPx) return std::string(text);
    // 'kept' bytes of the text in all: a third from its start, the rest from its end.
    auto elided = [&](size_t kept) {
        size_t head = kept / 3, tail = kept - head;
        while (head > 0 && head < text.size() && IsContinuationByte(text[head])) --head;
        size_t from = text.size() - tail;
        while (from < text.size() && IsContinuationByte(text[from])) ++from;
        std::string out(text.substr(0, head));
        out += kEllipsis;
        out += text.substr(from);
        return out;
    };
    size_t low = 0, high = text.size();  // elided(low) fits or is the ellipsis alone
    while (low + 1 < high) {
        const size_t mid = (low + high) / 2;
        if (measure(elided(mid)) <= widthPx)
            low = mid;
        else
            high = mid;
    }
    return elided(low);
}

std::string_view ElideToWidth(std::string_view text, float widthPx, std::string& scratch) {
    // Nothing to show is an empty view of an empty string, never a view with no pointer: ImGui
    // (AddText, TextUnformatted, CalcTextSizeA) reads a null end as "up to the terminating NUL",
    // strlen on null, and a track with an empty name crashed the window that way.
    constexpr std::string_view kNothing = "";
    if (text.empty()) return kNothing;
    const ImFont* font = ImGui::GetFont();
    const float size = ImGui::GetFontSize();
    const auto measure = [&](std::string_view part) {
        return part.empty()
                   ? 0.0f
                   : font->CalcTextSizeA(size, FLT_MAX, 0, part.data(), part.data() + part.size())
                         .x;
    };
    if (measure(text) <= widthPx) return text;
    scratch = ElideMiddle(text, widthPx, measure);
    if (scratch.size() <= kEllipsis.size() || measure(scratch) > widthPx) return kNothing;
    return scratch;
}

}  // namespace marey
