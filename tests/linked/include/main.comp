#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_ballot : enable
// The counting is in lib/count.glsl, which includes its neighbour.
#include "lib/count.glsl"
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Out { uint data[]; };

void main() {
    data[gl_LocalInvocationIndex] = kept(gl_LocalInvocationIndex % 3u == 0u);
}
