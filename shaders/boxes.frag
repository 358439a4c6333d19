#version 330 core
// Slices get a one-pixel darker edge once they are wide enough to show one; merged runs are
// hatched so that a person sees many slices stand behind one box; the selection is outlined;
// marks behind the slices (host waits) are hatched the other way, so that none reads as a slice.
in vec4 vColor;
in vec2 vLocalPx;
in vec2 vSizePx;
flat in float vStyle;

out vec4 outColor;

void main() {
    vec4 color = vColor;
    bool edge = vLocalPx.x < 1.0 || vLocalPx.y < 1.0 || vLocalPx.x > vSizePx.x - 1.0 || vLocalPx.y > vSizePx.y - 1.0;
    if (vStyle < 0.5) {
        if (edge && vSizePx.x > 4.0) color.rgb *= 0.72;
    } else if (vStyle < 1.5) {
        float stripe = mod(gl_FragCoord.x + gl_FragCoord.y, 6.0);
        color.rgb *= stripe < 3.0 ? 0.62 : 0.85;
    } else if (vStyle < 2.5) {
        bool thick = vLocalPx.x < 2.0 || vLocalPx.y < 2.0 || vLocalPx.x > vSizePx.x - 2.0 || vLocalPx.y > vSizePx.y - 2.0;
        if (thick) color = vec4(1.0, 1.0, 1.0, 1.0);
    } else if (vStyle > 3.5) {
        float stripe = mod(gl_FragCoord.x - gl_FragCoord.y, 7.0);
        if (stripe >= 2.0) color.rgb *= 0.5;
    }
    outColor = color;
}
