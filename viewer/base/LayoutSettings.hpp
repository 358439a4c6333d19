#pragma once
// Sizes a person chose, kept between runs in ~/.config/marey/layout.txt: the window, the side
// panel (and whether it is shown), the track-name column. Headless runs neither read nor write it,
// so that screenshots do not depend on the machine's history.
#include <string>

namespace marey {

struct LayoutSettings {
    int windowWidth = 0, windowHeight = 0;  // 0: size the first window to the screen
    float sidePanelWidth = 580.0f;          // the range table's every column in view
    bool sidePanelShown = true;
    float headerWidth = 290.0f;  // the timeline's track-name column

    static constexpr float kMinSidePanelWidth = 240.0f, kMinHeaderWidth = 120.0f;
    // The timeline keeps at least this share of the width beside the side panel; in a window
    // narrower than kNarrowWidthPx the panel yields more, to at most kNarrowPanelShare, since the
    // track names take their column out of the timeline's share too.
    static constexpr float kMinTimelineShare = 0.55f;
    static constexpr float kNarrowWidthPx = 1280.0f, kNarrowPanelShare = 0.30f;

    // The side panel's width in 'availableWidthPx': the one set while it leaves the timeline its
    // share, else the most that does (a small window), never under kMinSidePanelWidth.
    float SidePanelWidthFor(float availableWidthPx) const;
    // The widest a person may drag the side panel in 'availableWidthPx'.
    static float MaxSidePanelWidth(float availableWidthPx);

    // Reads 'path' ("key value" lines); unknown keys and bad values keep the defaults.
    static LayoutSettings Load(const std::string& path);
    // Writes them; returns false when the file cannot be written.
    bool Save(const std::string& path) const;
    // ~/.config/marey/layout.txt (copied from ~/.config/tracelens/ once when only that exists)
    static std::string DefaultPath();
};

}  // namespace marey
