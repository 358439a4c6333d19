#pragma once
// Loads the UI fonts (DejaVu Sans with a CJK fallback merged in) into ImGui's atlas.

namespace marey {

struct FontSet {
    void* regular = nullptr;  // ImFont*
    void* mono = nullptr;
};

// Looks next to the executable (fonts/ copied at build time), then in Debian's font folders.
// Falls back to ImGui's built-in font with a message when none is found.
FontSet LoadFonts(float sizePx);

}  // namespace marey
