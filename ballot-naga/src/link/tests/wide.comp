// Every subgroup move (broadcasts, shuffles, quads, AllEqual) of values of
// 8, 16 and 64 bits, after a bounds guard, for glsl-no-subgroup's overloads
// over its 32-bit words (link/tests/real_glsl.rs).
#version 450
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
#extension GL_KHR_shader_subgroup_quad : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_subgroup_extended_types_int64 : require
#extension GL_EXT_shader_subgroup_extended_types_int8 : require
#extension GL_EXT_shader_subgroup_extended_types_int16 : require
#extension GL_EXT_shader_subgroup_extended_types_float16 : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B {
    double d[64];
    dvec3 d3[64];
    int64_t i[64];
    u64vec2 u2[64];
    uint r[64];
} b;
void main() {
    uint x = gl_LocalInvocationIndex;
    if (x >= 60u) { return; }
    b.d[x] = subgroupBroadcastFirst(b.d[x]) + subgroupShuffle(b.d[x], 3u);
    b.d3[x] = subgroupShuffleXor(b.d3[x], 1u);
    b.i[x] = subgroupBroadcast(b.i[x], 2u) + subgroupQuadSwapDiagonal(b.i[x]);
    b.u2[x] = subgroupShuffleDown(b.u2[x], 1u);
    int8_t s = subgroupShuffleUp(int8_t(x), 1u);
    f16vec2 h = subgroupQuadBroadcast(f16vec2(float16_t(x), 1.5hf), 1u);
    uint16_t t = subgroupBroadcastFirst(uint16_t(x));
    bool e = subgroupAllEqual(b.d[x]) && subgroupAllEqual(b.i[x]);
    bool f = subgroupAllEqual(b.d3[x]);
    b.r[x] = uint(s) + uint(h.x) + uint(t) + uint(e) + uint(f);
}
