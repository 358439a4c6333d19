#version 330 core
// Bars opaque, bands translucent (their colour's alpha): crossing bands stay readable.
in vec4 vColor;
out vec4 outColor;

void main() {
    outColor = vColor;
}
