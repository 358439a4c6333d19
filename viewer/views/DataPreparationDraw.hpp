#pragma once
// What the three files of the data-preparation view draw with alike: its colours and a legend
// entry.
#include <imgui.h>

namespace marey {

inline constexpr ImU32 kDataAxisText = IM_COL32(160, 165, 175, 255);
inline constexpr ImU32 kDataPlotBackground = IM_COL32(30, 33, 38, 255);
// The steps that waited, the device's idle time, the bottleneck's outline: one warning red.
inline constexpr ImU32 kDataWarning = IM_COL32(235, 90, 70, 255);

// A coloured square and its label at the cursor, the next entry on the same line.
void DataLegendItem(ImU32 color, const char* label);

}  // namespace marey
