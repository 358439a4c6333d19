#pragma once
// What the three files of the data-preparation view draw with alike: its colours.
#include <imgui.h>

#include "base/Colors.hpp"

namespace marey {

inline constexpr ImU32 kDataAxisText = IM_COL32(160, 165, 175, 255);
inline constexpr ImU32 kDataPlotBackground = IM_COL32(30, 33, 38, 255);
// The steps that waited, the device's idle time, the bottleneck's outline: one warning red
// (235, 90, 70).
inline constexpr Rgba kDataWarning{235 / 255.0f, 90 / 255.0f, 70 / 255.0f, 1.0f};

}  // namespace marey
