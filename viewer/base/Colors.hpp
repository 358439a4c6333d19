#pragma once
// Stable colours: a slice name always gets the same colour, in any trace and any session;
// time classes of the tuning method (compute, communication, free) get fixed ones.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "path/PathGraph.hpp"

namespace marey {

struct Rgba {
    float r, g, b, a;
};

// Viridis, dark (0) to bright (1), for values on a scale (the communication matrix, the parallel
// layout): readable in grey and by the colour-blind.
Rgba Viridis(float t);

// Colour of a slice name: a hash picks a hue, lightness is kept readable under white text.
Rgba ColorForName(std::string_view name);

// A colour a profiler recorded as 0xAARRGGBB (an NVTX range's); drawn opaque, as every slice is.
Rgba ColorFromArgb(uint32_t argb);

// Fixed colours for Ascend time classes, or nullptr when 'name' is not one of them.
const Rgba* TimeClassColor(std::string_view name);

// What bounds a stretch of a critical path: one colour each, in the view and on the timeline.
Rgba BoundKindColor(BoundKind kind);

uint32_t PackColor(const Rgba& color);  // ImGui's IM_COL32 layout
Rgba Dimmed(const Rgba& color);         // for slices that do not match a search

// Clearly different colours for a few things drawn side by side or over each other (memory
// curves, the ranks of one timeline); they repeat after ten.
Rgba SeriesColor(size_t index);

// The window's style: Dear ImGui's dark style with our background, spacing and row colours. A
// selected row is the brightest (a clear blue), a hovered one a light grey under it, so that the
// mouse passing over a table never looks like a selection.
void ApplyViewerStyle();

// The legend of the fixed colours, in display order.
struct LegendEntry {
    const char* label;
    Rgba color;
};
extern const LegendEntry kTimeClassLegend[4];

}  // namespace marey
