#version 450
#extension GL_KHR_shader_subgroup_ballot : require

layout(local_size_x = 64, local_size_y = 1, local_size_z = 1) in;

layout(std430, set = 0, binding = 0) readonly buffer ballot_in0_block { uint ballot_in0[]; };
layout(std430, set = 0, binding = 1) buffer ballot_out_block { uint ballot_out[]; };

uint compaction_slot(bool keep) {
    return subgroupBallotExclusiveBitCount(subgroupBallot(keep));
}

uint leader(bool p) {
    uint result = 0u;
    result = 0u;
    if (p) {
        result = compaction_slot(p);
    }
    return result;
}

void main() {
    uvec3 ballot_id = gl_WorkGroupID;
    uvec3 ballot_groups = gl_NumWorkGroups;
    uint ballot_workgroup = (ballot_id.x + (ballot_id.y * ballot_groups.x)) + ((ballot_id.z * ballot_groups.x) * ballot_groups.y);
    uint ballot_global = (ballot_workgroup * 64u) + gl_LocalInvocationIndex;
    bool ballot_arg0 = false;
    if (ballot_global < uint(ballot_in0.length())) { ballot_arg0 = (ballot_in0[ballot_global] != 0u); }
    uint ballot_result = leader(ballot_arg0);
    if (ballot_global < uint(ballot_out.length())) { ballot_out[ballot_global] = ballot_result; }
}
