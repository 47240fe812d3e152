#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require

layout(local_size_x = 2, local_size_y = 3, local_size_z = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer ballot_in0_block { uint ballot_in0[]; };
layout(std430, set = 0, binding = 1) readonly buffer ballot_in1_block { uint ballot_in1[]; };
layout(std430, set = 0, binding = 2) buffer ballot_out_block { uint ballot_out[]; };
layout(std430, set = 0, binding = 3) buffer ballot_lanes_block { uvec4 ballot_lanes[]; };

uint reserved_names(uint input_1, bool sample_1) {
    uvec4 active_1 = uvec4(0u);
    uint shared_1 = 0u;
    uint texture_1 = 0u;
    uint v_gl_thing = 0u;
    uint a_b = 0u;
    active_1 = subgroupBallot(sample_1);
    shared_1 = subgroupBallotBitCount(active_1);
    texture_1 = (input_1 + shared_1);
    v_gl_thing = (texture_1 * 2u);
    a_b = (v_gl_thing ^ 1u);
    return a_b;
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
    bool ballot_arg1 = false;
    if (ballot_global < uint(ballot_in1.length())) { ballot_arg1 = (ballot_in1[ballot_global] != 0u); }
    uint ballot_result = reserved_names(ballot_arg0, ballot_arg1);
    if (ballot_global < uint(ballot_out.length())) { ballot_out[ballot_global] = ballot_result; }
}
