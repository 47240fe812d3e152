#version 450
// tests/linked/four.wgsl in GLSL: four ballot functions of
// GL_KHR_shader_subgroup_ballot, and a mask.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require

layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Records { uvec4 records[]; };

bool keep(uint i) {
    return (i % 3u == 0u) || (((i * 2654435761u) >> 28u) & 1u) == 1u;
}

void main() {
    uint id = gl_GlobalInvocationID.x;
    uvec4 kept = subgroupBallot(keep(id));
    records[2u * id] = uvec4(
        subgroupBallotBitCount(kept),
        subgroupBallotExclusiveBitCount(kept & gl_SubgroupLtMask),
        subgroupBallotFindLSB(kept),
        subgroupBallotBitExtract(kept, 3u) ? 1u : 0u);
    records[2u * id + 1u] = uvec4(gl_SubgroupInvocationID, gl_SubgroupSize, 0u, 0u);
}
