#version 330 core
// One instance per Marey shape: an operator's bar on a device row, or the band joining it to the
// same operator on the row below. Times are ns from the step's start; the view transform is in
// uniforms, so the instance buffer is written once per step and layout, not per frame.
layout(location = 0) in vec4 inTimes;   // top start, top end, bottom start, bottom end (ns)
layout(location = 1) in vec2 inRow;     // row index, 0 bar / 1 band
layout(location = 2) in vec4 inColor;

uniform vec2 uViewportPx;
uniform vec2 uOriginPx;      // the plot's top-left, window pixels
uniform float uViewStartNs;  // the time at the plot's left edge
uniform float uNsPerPx;
uniform float uRowPx;        // pixels from one row's top to the next
uniform float uBarPx;        // a bar's height; a band fills the gap below it

out vec4 vColor;

void main() {
    // Triangle strip corners: top-left, top-right, bottom-left, bottom-right.
    bool right = (gl_VertexID & 1) == 1;
    bool bottom = (gl_VertexID & 2) == 2;
    float ns = bottom ? (right ? inTimes.w : inTimes.z) : (right ? inTimes.y : inTimes.x);
    float rowTop = uOriginPx.y + inRow.x * uRowPx;
    float y = inRow.y < 0.5 ? (bottom ? rowTop + uBarPx : rowTop) : (bottom ? rowTop + uRowPx : rowTop + uBarPx);
    float x = uOriginPx.x + (ns - uViewStartNs) / uNsPerPx;
    // A bar at least a pixel wide, so that short operators stay visible zoomed out.
    if (inRow.y < 0.5 && right) x = max(x, uOriginPx.x + (inTimes.x - uViewStartNs) / uNsPerPx + 1.0);
    vec2 ndc = vec2(x / uViewportPx.x * 2.0 - 1.0, 1.0 - y / uViewportPx.y * 2.0);
    gl_Position = vec4(ndc, 0.0, 1.0);
    vColor = inColor;
}
