#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require

layout(local_size_x = 2, local_size_y = 3, local_size_z = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer ballot_in0_block { uint ballot_in0[]; };
layout(std430, set = 0, binding = 1) readonly buffer ballot_in1_block { int ballot_in1; };
layout(std430, set = 0, binding = 2) buffer ballot_out_block { int ballot_out[]; };
layout(std430, set = 0, binding = 3) buffer ballot_lanes_block { uvec4 ballot_lanes[]; };

int divergent(uint n, int limit) {
    int total = 0;
    int for0 = 0;
    int end1 = 0;
    int i = 0;
    total = 0;
    for0 = 0;
    end1 = limit;
    bool ballot_first1 = true;
    while (true) {
        if (!ballot_first1) {
            for0 = (for0 + 1);
        }
        ballot_first1 = false;
        if ((!(for0 < end1))) {
            break;
        }
        i = for0;
        if ((uint(i) >= n)) {
            break;
        }
        if (subgroupElect()) {
            continue;
        }
        total = (total + int(subgroupBallotBitCount(subgroupBallot(true))));
    }
    while (true) {
        if ((!(total > 100))) {
            break;
        }
        total = (total - 7);
    }
    if ((total == 0)) {
        return (-1);
    }
    return total;
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
    int ballot_arg1 = ballot_in1;
    int ballot_result = divergent(ballot_arg0, ballot_arg1);
    if (ballot_global < uint(ballot_out.length())) { ballot_out[ballot_global] = ballot_result; }
}
