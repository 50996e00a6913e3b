#version 450
// A constant colour: the cheapest pass that writes every pixel of a target, the floor a drawn
// conversion is compared with in benchmarks (ycbcr's BenchmarkFloor).
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;

void main() {
    color = vec4(uv, 0.5, 1.0);
}
