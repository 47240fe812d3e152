#version 450
// Shape 3 of ballot-runner/tests/shapes.rs (call.wgsl in GLSL): a function
// of the shader's own holding a ballot, called in both arms of a branch
// on i % 3, which returns early, before its ballot, where x % 4 == 1; and
// a copy of it, `whole`, called only at the top of main, where every
// invocation is active.
//
// Record at words[8 * i]: lane id, subgroup key, subgroup size, then
// what the call in this invocation's arm returned (the else arm adds
// 50000), then what `whole` returned.
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

// 1000 + x where x % 4 == 1; otherwise the bit count of the ballot of
// bit 1 of x, times 256, plus its exclusive bit count.
uint tally(uint x) {
    if (x % 4u == 1u) {
        return 1000u + x;
    }
    uvec4 b = subgroupBallot((x & 2u) != 0u);
    return subgroupBallotBitCount(b) * 256u + subgroupBallotExclusiveBitCount(b);
}

uint whole(uint x) {
    if (x % 4u == 1u) {
        return 1000u + x;
    }
    uvec4 b = subgroupBallot((x & 2u) != 0u);
    return subgroupBallotBitCount(b) * 256u + subgroupBallotExclusiveBitCount(b);
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint r = 8u * i;
    words[r] = gl_SubgroupInvocationID;
    words[r + 1u] = subgroupBroadcastFirst(gl_LocalInvocationIndex);
    words[r + 2u] = gl_SubgroupSize;
    words[r + 4u] = whole((i * 3u) % 11u);
    if (i % 3u != 0u) {
        words[r + 3u] = tally((i * 5u) % 11u);
    } else {
        words[r + 3u] = tally((i * 7u + 3u) % 11u) + 50000u;
    }
}
