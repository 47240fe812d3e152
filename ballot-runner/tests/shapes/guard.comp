#version 450
// Shape 1 of ballot-runner/tests/shapes.rs (guard.wgsl in GLSL): a bounds
// guard, then a ballot. Invocations at or past `n` return before it.
//
// Each invocation writes an 8-word record at words[8 * i]: its lane id,
// its subgroup's key (the first active lane's local index, taken while
// every invocation is active), the subgroup size, then the bit count,
// exclusive bit count and FindLSB of the ballot of `keep` (0xfffffffe for
// FindLSB of an empty ballot).
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

bool keep(uint i) {
    return (i % 3u == 0u) || (((i * 2654435761u) >> 28u) & 1u) == 1u;
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint r = 8u * i;
    words[r] = gl_SubgroupInvocationID;
    words[r + 1u] = subgroupBroadcastFirst(gl_LocalInvocationIndex);
    words[r + 2u] = gl_SubgroupSize;
    if (i >= n) {
        return;
    }
    uvec4 kept = subgroupBallot(keep(i));
    uint count = subgroupBallotBitCount(kept);
    words[r + 3u] = count;
    words[r + 4u] = subgroupBallotExclusiveBitCount(kept);
    uint lsb = 0xfffffffeu;
    if (count > 0u) {
        lsb = subgroupBallotFindLSB(kept);
    }
    words[r + 5u] = lsb;
}
