#include "base/LayoutSettings.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "base/SettingsFolder.hpp"

namespace marey {

LayoutSettings LayoutSettings::Load(const std::string& path) {
    LayoutSettings settings;
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);) {
        std::istringstream fields(line);
        std::string key;
        double value = 0;
        if (!(fields >> key >> value)) continue;
        if (key == "window_width" && value >= 200 && value <= 16384)
            settings.windowWidth = static_cast<int>(value);
        else if (key == "window_height" && value >= 150 && value <= 16384)
            settings.windowHeight = static_cast<int>(value);
        else if (key == "side_panel_width" && value >= kMinSidePanelWidth && value <= 4000)
            settings.sidePanelWidth = static_cast<float>(value);
        else if (key == "side_panel_shown")
            settings.sidePanelShown = value != 0;
        else if (key == "header_width" && value >= kMinHeaderWidth && value <= 2000)
            settings.headerWidth = static_cast<float>(value);
    }
    return settings;
}

bool LayoutSettings::Save(const std::string& path) const {
    std::error_code ignored;
    std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ignored);
    std::ofstream out(path);
    out << "window_width " << windowWidth << "\nwindow_height " << windowHeight
        << "\nside_panel_width " << sidePanelWidth << "\nside_panel_shown "
        << (sidePanelShown ? 1 : 0) << "\nheader_width " << headerWidth << "\n";
    return static_cast<bool>(out);
}

std::string LayoutSettings::DefaultPath() {
    return SettingsFilePath("layout.txt");
}

float LayoutSettings::MaxSidePanelWidth(float availableWidthPx) {
    const float share =
        availableWidthPx < kNarrowWidthPx ? kNarrowPanelShare : 1.0f - kMinTimelineShare;
    return std::max(kMinSidePanelWidth, availableWidthPx * share);
}

float LayoutSettings::SidePanelWidthFor(float availableWidthPx) const {
    return std::clamp(sidePanelWidth, kMinSidePanelWidth, MaxSidePanelWidth(availableWidthPx));
}

}  // namespace marey
