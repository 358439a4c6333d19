#include "shell/Fonts.hpp"

#include "shell/InstallPaths.hpp"

#include <imgui.h>

#include <cstdio>
#include <string>

namespace marey {
namespace {

std::string FindFont(const char* name, const char* systemDir) {
    const std::string dir = ExecutableDir();
    return FirstReadable({dir + "/fonts/" + name, dir + "/../fonts/" + name,
                          dir + "/../share/marey/fonts/" + name,
                          std::string(systemDir) + "/" + name});
}

// Latin, Greek, Cyrillic, punctuation and the symbols the UI uses (arrows, ellipsis, µ, ×).
const ImWchar kLatinRanges[] = {0x0020, 0x024F, 0x0370, 0x03FF, 0x0400, 0x04FF, 0x2000, 0x206F,
                                0x2190, 0x21FF, 0x2200, 0x22FF, 0x25A0, 0x26FF, 0};

}  // namespace

FontSet LoadFonts(float sizePx) {
    ImGuiIO& io = ImGui::GetIO();
    FontSet fonts;
    const std::string regular = FindFont("DejaVuSans.ttf", "/usr/share/fonts/truetype/dejavu");
    const std::string mono = FindFont("DejaVuSansMono.ttf", "/usr/share/fonts/truetype/dejavu");
    const std::string cjk =
        FindFont("DroidSansFallbackFull.ttf", "/usr/share/fonts/truetype/droid");
    if (regular.empty()) {
        std::fprintf(
            stderr,
            "marey: DejaVuSans.ttf not found (install fonts-dejavu-core); using ImGui's font\n");
        fonts.regular = io.Fonts->AddFontDefault();
        fonts.mono = fonts.regular;
        return fonts;
    }
    ImFontConfig config;
    config.OversampleH = 2;
    fonts.regular = io.Fonts->AddFontFromFileTTF(regular.c_str(), sizePx, &config, kLatinRanges);
    if (!cjk.empty()) {
        // Operator and thread names are often Chinese: merge the common CJK glyphs in.
        ImFontConfig merge;
        merge.MergeMode = true;
        merge.OversampleH = 1;
        io.Fonts->AddFontFromFileTTF(cjk.c_str(), sizePx, &merge,
                                     io.Fonts->GetGlyphRangesChineseSimplifiedCommon());
    }
    fonts.mono = mono.empty() ? fonts.regular
                              : io.Fonts->AddFontFromFileTTF(mono.c_str(), sizePx - 1, &config,
                                                             kLatinRanges);
    return fonts;
}

}  // namespace marey
