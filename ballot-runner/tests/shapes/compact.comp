#version 450
// Shape 4 of ballot-runner/tests/shapes.rs (compact.wgsl in GLSL): stream
// compaction as Khronos' subgroup tutorial writes it, inside a branch:
// the kept invocations of a subgroup count themselves, one of them
// (subgroupElect) reserves that many slots with an atomicAdd, the base is
// broadcast, and each writes its index at base + its exclusive bit count.
// The count is taken by every kept invocation, before the elect: a ballot
// inside `if (subgroupElect())` would see the elected invocation alone.
//
// Record at words[8 * i]: lane id, subgroup key, subgroup size, then (kept
// invocations only) the slot written. The slots are words[1024 + slot].
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
    if (keep(i)) {
        uvec4 everyone = subgroupBallot(true);
        uint count = subgroupBallotBitCount(everyone);
        uint base = 0u;
        if (subgroupElect()) {
            base = atomicAdd(counter, count);
        }
        base = subgroupBroadcastFirst(base);
        uint slot = base + subgroupBallotExclusiveBitCount(everyone);
        words[1024u + slot] = i;
        words[r + 3u] = slot;
    }
}
