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
