#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_clustered : require

layout(local_size_x = 2, local_size_y = 3, local_size_z = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer ballot_in0_block { uint ballot_in0[]; };
layout(std430, set = 0, binding = 1) readonly buffer ballot_in1_block { int ballot_in1[]; };
layout(std430, set = 0, binding = 2) readonly buffer ballot_in2_block { float ballot_in2[]; };
layout(std430, set = 0, binding = 3) buffer ballot_out_block { uint ballot_out[]; };
layout(std430, set = 0, binding = 4) buffer ballot_lanes_block { uvec4 ballot_lanes[]; };

// On the bits, which fast-math compilers cannot fold away as they may isnan().
bool ballot_is_nan(float x) {
    return (floatBitsToUint(x) & 0x7FFFFFFFu) > 0x7F800000u;
}

// x % 0 == 0, as in WGSL.
uint ballot_rem_u32(uint a, uint b) {
    if (b == 0u) {
        return 0u;
    }
    return a % b;
}

// Rust's `as`: saturating, NaN to 0 (GLSL leaves out-of-range values undefined).
uint ballot_f32_to_u32(float x) {
    if (ballot_is_nan(x) || x <= 0.0) {
        return 0u;
    }
    if (x >= 4294967296.0) {
        return 4294967295u;
    }
    return uint(x);
}

uint clustered(uint x, int i, float f) {
    uint out_1 = 0u;
    out_1 = 0u;
    if ((ballot_rem_u32(x, 2u) == 0u)) {
        out_1 = (subgroupClusteredAdd(x, 4u) + subgroupClusteredMax(x, 2u));
    } else {
        out_1 = (subgroupClusteredXor(x, 8u) ^ uint(subgroupClusteredMin(i, 2u)));
    }
    return ((out_1 + ballot_f32_to_u32(subgroupClusteredMul(f, 8u))) + subgroupClusteredAnd(x, 1u));
}

void main() {
    uvec3 ballot_id = gl_WorkGroupID;
    uvec3 ballot_groups = gl_NumWorkGroups;
    uint ballot_workgroup = (ballot_id.x + (ballot_id.y * ballot_groups.x)) + ((ballot_id.z * ballot_groups.x) * ballot_groups.y);
    uint ballot_global = (ballot_workgroup * 12u) + gl_LocalInvocationIndex;
    uint ballot_key = subgroupBroadcastFirst(gl_LocalInvocationIndex);
    if (ballot_global < uint(ballot_lanes.length())) {
        ballot_lanes[ballot_global] = uvec4(gl_SubgroupInvocationID, gl_SubgroupSize, ballot_key, ballot_workgroup);
    }
    uint ballot_arg0 = 0u;
    if (ballot_global < uint(ballot_in0.length())) { ballot_arg0 = ballot_in0[ballot_global]; }
    int ballot_arg1 = 0;
    if (ballot_global < uint(ballot_in1.length())) { ballot_arg1 = ballot_in1[ballot_global]; }
    float ballot_arg2 = 0.0;
    if (ballot_global < uint(ballot_in2.length())) { ballot_arg2 = ballot_in2[ballot_global]; }
    uint ballot_result = clustered(ballot_arg0, ballot_arg1, ballot_arg2);
    if (ballot_global < uint(ballot_out.length())) { ballot_out[ballot_global] = ballot_result; }
}
