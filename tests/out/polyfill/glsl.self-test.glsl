#version 450
// ballot polyfill library for target `glsl` (Vulkan 1.1 (or GL) with
// GL_KHR_shader_subgroup_ballot).
//
// Include: paste this text right after your shader's `#version` line; its
// #extension lines must precede all other code.
//
// No init call: GL_KHR_shader_subgroup_basic and _ballot provide every
// operation under its own name (subgroupBallotFindMSB, gl_SubgroupEqMask, …),
// callable anywhere. Their undefined cases are the driver's.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
#extension GL_KHR_shader_subgroup_quad : require

// Self-test: not part of the library. It calls every function and writes
// 20 records per invocation to binding 0 (see ballot::polyfill).
layout(local_size_x = 64, local_size_y = 1, local_size_z = 1) in;
layout(std430, set = 0, binding = 0) buffer ballot_self_test_block { uvec4 ballot_self_test[]; };

void main() {
    uint lane = gl_SubgroupInvocationID;
    uint size = gl_SubgroupSize;
    uvec3 id = gl_WorkGroupID;
    uvec3 groups = gl_NumWorkGroups;
    uint workgroup = (id.x + id.y * groups.x) + (id.z * groups.x) * groups.y;
    uint g = workgroup * 64u + gl_LocalInvocationIndex;
    uint at = g * 20u;
    bool even = (lane & 1u) == 0u;
    uvec4 b = subgroupBallot(even);
    bool elected = subgroupElect();
    uint first = subgroupBroadcastFirst(g * 3u + 1u);
    uint from0 = subgroupBroadcast(g * 5u + 2u, 0u);
    uint split = 0xFFFFFFFFu;
    if ((lane & 2u) != 0u) {
        split = uint(subgroupElect()) | (subgroupBallotBitCount(subgroupBallot(true)) << 1u);
    }
    ballot_self_test[at] = b;
    ballot_self_test[at + 1u] = uvec4(subgroupBallotBitCount(b), subgroupBallotInclusiveBitCount(b), subgroupBallotExclusiveBitCount(b), subgroupBallotFindLSB(b));
    ballot_self_test[at + 2u] = uvec4(subgroupBallotFindMSB(b), uint(subgroupBallotBitExtract(b, (lane + 1u) % size)), uint(subgroupInverseBallot(b)), uint(elected));
    ballot_self_test[at + 3u] = gl_SubgroupEqMask;
    ballot_self_test[at + 4u] = gl_SubgroupGeMask;
    ballot_self_test[at + 5u] = gl_SubgroupGtMask;
    ballot_self_test[at + 6u] = gl_SubgroupLeMask;
    ballot_self_test[at + 7u] = gl_SubgroupLtMask;
    ballot_self_test[at + 8u] = uvec4(first, from0, split, lane);
    ballot_self_test[at + 9u] = uvec4(size, subgroupBallotFindLSB(uvec4(0u)), subgroupBallotFindMSB(uvec4(0u)), uint(subgroupBallotBitExtract(uvec4(0xFFFFFFFFu), size)));
    ballot_self_test[at + 10u] = uvec4(((uint(subgroupAll((lane < size))) << 0u) | (uint(subgroupAll(even)) << 1u) | (uint(subgroupAny(even)) << 2u) | (uint(subgroupAny((lane >= size))) << 3u)), ((uint(subgroupAllEqual(size)) << 0u) | (uint(subgroupAllEqual(lane)) << 1u) | (uint(subgroupAllEqual(-1)) << 2u) | (uint(subgroupAllEqual(1.5)) << 3u) | (uint(subgroupAllEqual(true)) << 4u) | (uint(subgroupAllEqual(b)) << 5u) | (uint(subgroupAllEqual(float(lane))) << 6u)), subgroupAdd(g), subgroupInclusiveAdd(g));
    ballot_self_test[at + 11u] = uvec4(subgroupExclusiveAdd(g), subgroupMin(g), subgroupInclusiveMax(g), subgroupExclusiveXor(g));
    ballot_self_test[at + 12u] = uvec4(floatBitsToUint(subgroupAdd(float(lane))), floatBitsToUint(subgroupInclusiveMin(float((size - lane)))), uint(subgroupMax((int(lane) - 5))), uint(subgroupExclusiveAnd((~int(lane)))));
    ballot_self_test[at + 13u] = uvec4(subgroupMul((1u + (lane & 1u))), subgroupInclusiveMul((1u + (lane & 1u))), subgroupExclusiveOr((1u << (lane & 31u))), subgroupInclusiveAnd((~(1u << (lane & 31u)))));
    ballot_self_test[at + 14u] = uvec4(floatBitsToUint(subgroupExclusiveMul(float((1u + (lane & 1u))))), uint(subgroupInclusiveMin((5 - int(lane)))), floatBitsToUint(subgroupExclusiveMax((-float(lane)))), uint(subgroupXor(int(lane))));
    ballot_self_test[at + 15u] = uvec4(subgroupShuffle(g, ((lane + 1u) % size)), subgroupShuffleXor(g, (1u % size)), subgroupShuffleUp(g, min(1u, lane)), subgroupShuffleDown(g, ((lane + 1u) < size ? 1u : 0u)));
    ballot_self_test[at + 16u] = uvec4(subgroupQuadBroadcast(g, 1u), subgroupQuadSwapHorizontal(g), subgroupQuadSwapVertical(g), subgroupQuadSwapDiagonal(g));
    ballot_self_test[at + 18u] = uvec4(subgroupAnd((~(1u << (lane & 31u)))), subgroupOr((1u << (lane & 31u))), subgroupInclusiveOr((1u << (lane & 31u))), subgroupInclusiveXor(g));
    ballot_self_test[at + 19u] = uvec4(subgroupExclusiveMin(g), subgroupExclusiveMax(g), subgroupExclusiveMul((1u + (lane & 1u))), subgroupInclusiveMin(g));
    ballot_self_test[at + 17u] = uvec4(0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu);
    if (((lane & 2u) != 0u)) {
        uint inside_scan = subgroupInclusiveAdd(1u);
        uint inside_sum = subgroupAdd(1u);
        uint inside_xor = subgroupShuffleXor(g, 1u);
        uint inside_votes = ((uint(subgroupAll(even)) << 0u) | (uint(subgroupAny((lane == 3u))) << 1u));
        ballot_self_test[at + 17u] = uvec4(inside_scan, inside_sum, inside_xor, inside_votes);
    }
}
