#version 450
// Shape 2 of ballot-runner/tests/shapes.rs (loop.wgsl in GLSL): a ballot
// in a loop whose trip count differs per invocation (i % 5), with a
// `continue` before the ballot (iteration 1, even invocations) and a
// `break` after it (iteration 2, multiples of 3).
//
// Record at words[8 * i]: lane id, subgroup key, subgroup size, then
// `acc` (acc * 67 + the bit count of ballot(true), per iteration that
// reaches it) and `acc2` (the sum of (k + 1) * its exclusive bit count).
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require

layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Buffer {
    uint n;
    uint counter;
    uint pad0;
    uint pad1;
    uint words[];
};

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint r = 8u * i;
    words[r] = gl_SubgroupInvocationID;
    words[r + 1u] = subgroupBroadcastFirst(gl_LocalInvocationIndex);
    words[r + 2u] = gl_SubgroupSize;
    uint trips = i % 5u;
    uint acc = 0u;
    uint acc2 = 0u;
    for (uint k = 0u; k < trips; k++) {
        if (k == 1u && (i & 1u) == 0u) {
            continue;
        }
        uvec4 everyone = subgroupBallot(true);
        acc = acc * 67u + subgroupBallotBitCount(everyone);
        acc2 = acc2 + (k + 1u) * subgroupBallotExclusiveBitCount(everyone);
        if (k == 2u && i % 3u == 0u) {
            break;
        }
    }
    words[r + 3u] = acc;
    words[r + 4u] = acc2;
}
