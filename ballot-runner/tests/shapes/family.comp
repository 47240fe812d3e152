#version 450
// Shape 5 of ballot-runner/tests/shapes.rs (family.wgsl in GLSL): the rest
// of the subgroup family (arithmetic, votes, a vector shuffle) after a
// bounds guard, in both arms of a branch, and in a loop whose trip count
// differs per invocation.
//
// Record at words[8 * i]: lane id, subgroup key, subgroup size, then
// 3: subgroupAdd(i);
// 4: subgroupInclusiveAdd(i & 7), plus 1000 where i % 5 == 0 or, short of
//    that, subgroupAll(i is even) among the invocations where i % 5 != 0
//    (the vote is the right operand of `||`);
// 5: the y of an ivec2 shuffled from the first active lane, as bits;
// 6: subgroupMax(i) where i % 3 != 0, else (after a subgroupBarrier, which
//    changes no value) the bits of subgroupAdd(float(i));
// 7: acc = acc * 7 + subgroupAdd(k + 1), plus 100 where subgroupAll(i is
//    odd), per iteration k < i % 4.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_shuffle : require

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
    if (i >= n) {
        return;
    }
    words[r + 3u] = subgroupAdd(i);
    uint scan = subgroupInclusiveAdd(i & 7u);
    if ((i % 5u == 0u) || subgroupAll((i & 1u) == 0u)) {
        scan += 1000u;
    }
    words[r + 4u] = scan;
    uint first = subgroupBallotFindLSB(subgroupBallot(true));
    ivec2 pair = subgroupShuffle(ivec2(int(i), -int(i)), first);
    words[r + 5u] = uint(pair.y);
    if (i % 3u != 0u) {
        words[r + 6u] = subgroupMax(i);
    } else {
        subgroupBarrier();
        words[r + 6u] = floatBitsToUint(subgroupAdd(float(i)));
    }
    uint acc = 0u;
    for (uint k = 0u; k < i % 4u; k++) {
        acc = acc * 7u + subgroupAdd(k + 1u);
        if (subgroupAll((i & 1u) == 1u)) {
            acc += 100u;
        }
    }
    words[r + 7u] = acc;
}
