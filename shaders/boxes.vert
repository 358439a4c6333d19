#version 330 core
// One instance per timeline box: a quad from pixel rectangle and colour attributes.
layout(location = 0) in vec4 inRect;     // x0, y0, x1, y1 in window pixels (origin top-left)
layout(location = 1) in vec4 inColor;    // normalised RGBA
layout(location = 2) in float inStyle;   // 0 slice, 1 merged run, 2 selected, 3 counter bar, 4 mark

uniform vec2 uViewportPx;

out vec4 vColor;
out vec2 vLocalPx;
out vec2 vSizePx;
flat out float vStyle;

void main() {
    // Triangle strip corners: (0,0) (1,0) (0,1) (1,1).
    vec2 corner = vec2(float(gl_VertexID & 1), float((gl_VertexID >> 1) & 1));
    vec2 pixel = mix(inRect.xy, inRect.zw, corner);
    vec2 ndc = vec2(pixel.x / uViewportPx.x * 2.0 - 1.0, 1.0 - pixel.y / uViewportPx.y * 2.0);
    gl_Position = vec4(ndc, 0.0, 1.0);
    vColor = inColor;
    vSizePx = inRect.zw - inRect.xy;
    vLocalPx = corner * vSizePx;
    vStyle = inStyle;
}
