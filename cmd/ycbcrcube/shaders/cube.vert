#version 450
// The cube is generated from gl_VertexIndex (36 vertices, no vertex buffer): six faces of two
// triangles, each face showing the whole video. Front (+z) first and back (−z) last, so that with
// the depth test off the back face would be drawn over the front one.
layout(push_constant) uniform Push {
    mat4 mvp;
    vec4 light;  // xyz: direction towards the light, in model space
    vec4 params; // xy: texture-coordinate scale (videotex Frame.UVScale); z: ambient light
} pc;
layout(location = 0) out vec2 uv;
layout(location = 1) out float shade;

const vec3 normals[6] = vec3[](vec3(0, 0, 1), vec3(1, 0, 0), vec3(0, 1, 0), vec3(-1, 0, 0), vec3(0, -1, 0), vec3(0, 0, -1));
// right and up of each face as seen from outside, so every face shows the picture upright.
const vec3 rights[6] = vec3[](vec3(1, 0, 0), vec3(0, 0, -1), vec3(1, 0, 0), vec3(0, 0, 1), vec3(1, 0, 0), vec3(-1, 0, 0));
const vec3 ups[6] = vec3[](vec3(0, 1, 0), vec3(0, 1, 0), vec3(0, 0, -1), vec3(0, 1, 0), vec3(0, 0, 1), vec3(0, 1, 0));
const vec2 corners[6] = vec2[](vec2(-1, -1), vec2(1, -1), vec2(1, 1), vec2(-1, -1), vec2(1, 1), vec2(-1, 1));

void main() {
    int face = gl_VertexIndex / 6;
    vec2 c = corners[gl_VertexIndex % 6];
    vec3 n = normals[face];
    vec3 pos = 0.5 * (n + c.x * rights[face] + c.y * ups[face]);
    uv = vec2(c.x + 1.0, 1.0 - c.y) * 0.5 * pc.params.xy; // v = 0 at the top of the picture
    // 1 − (1 − ambient)(1 − d) is exactly 1 for a face turned to the light.
    float d = max(dot(n, pc.light.xyz), 0.0);
    shade = 1.0 - (1.0 - pc.params.z) * (1.0 - d);
    gl_Position = pc.mvp * vec4(pos, 1.0);
}
