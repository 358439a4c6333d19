#pragma once
// What the files of the data-preparation view draw with alike: its colours and file names.
#include <imgui.h>

#include <filesystem>
#include <string>

#include "base/Colors.hpp"

namespace marey {

inline constexpr ImU32 kDataAxisText = IM_COL32(160, 165, 175, 255);
inline constexpr ImU32 kDataPlotBackground = IM_COL32(30, 33, 38, 255);
// The steps that waited, the device's idle time, the bottleneck's outline: one warning red
// (235, 90, 70).
// A data file's name without its folder, for the view's section titles.
inline std::string DataFileName(const std::string& path) {
    return std::filesystem::path(path).filename().string();
}

inline constexpr Rgba kDataWarning{235 / 255.0f, 90 / 255.0f, 70 / 255.0f, 1.0f};

}  // namespace marey
