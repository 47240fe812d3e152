//! Each library's self-test entry point: one record per operation and
//! invocation, which the driver tests compare with the spec (see the
//! module docs of [`super`]).

use super::header::init_call;
use super::{function_name, SELF_TEST_RECORDS};
use crate::back::{ShaderOptions, Target};
use crate::op::Op;

/// The WGSL self-test entry point (see the module docs).
pub(super) fn wgsl_self_test(target: Target, options: &ShaderOptions) -> String {
    let emulated = !target.has_subgroups();
    let [x, y, z] = options.workgroup_size;
    let n = options.invocations_per_workgroup();
    let r = SELF_TEST_RECORDS;
    // naga rejects subgroup built-ins in a multi-dimensional workgroup.
    // Flattened, it has the same invocations under the same
    // local_invocation_index, which is all the self-test reads.
    let size = if emulated || y * z == 1 {
        format!("{x}, {y}, {z}")
    } else {
        n.to_string()
    };
    let init = target.init().map_or_else(String::new, |i| {
        if emulated {
            i.call(&["local_index"])
        } else {
            i.documented()
        }
    });
    let (builtins, ballot_even, elect, first, from0, split) = if emulated {
        (
            "",
            "subgroupBallot(true, even)",
            "subgroupElect(true)",
            "subgroupBroadcastFirst(true, ((g * 3u) + 1u))",
            "subgroupBroadcast(true, ((g * 5u) + 2u), 0u)",
            // Collectives run in every invocation, taking the branch as `on`.
            "    let inside = ((lane & 2u) != 0u);\n    \
             let inside_elect = subgroupElect(inside);\n    \
             let inside_ballot = subgroupBallot(inside, true);\n    \
             var split = 0xffffffffu;\n    \
             if (inside) {\n        \
             split = (select(0u, 1u, inside_elect) | (subgroupBallotBitCount(inside_ballot) << 1u));\n    \
             }\n",
        )
    } else {
        (
            "    @builtin(subgroup_invocation_id) subgroup_invocation_id: u32,\n    \
             @builtin(subgroup_size) subgroup_size: u32,\n",
            "subgroupBallot(even)",
            "subgroupElect()",
            "subgroupBroadcastFirst(((g * 3u) + 1u))",
            "subgroupBroadcast(((g * 5u) + 2u), 0u)",
            "    var split = 0xffffffffu;\n    \
             if ((lane & 2u) != 0u) {\n        \
             split = (select(0u, 1u, subgroupElect()) | (subgroupBallotBitCount(subgroupBallot(true)) << 1u));\n    \
             }\n",
        )
    };
    format!(
        "
// Self-test: not part of the library. It calls every function and writes
// {r} records per invocation to binding 0 (see ballot::polyfill).
@group(0) @binding(0) var<storage, read_write> ballot_self_test: array<vec4<u32>>;

@compute @workgroup_size({size})
fn main(
    @builtin(local_invocation_index) local_index: u32,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
    @builtin(num_workgroups) num_workgroups: vec3<u32>,
{builtins}) {{
    {init};
    let lane = ballot_lane;
    let size = ballot_size;
    let workgroup = ((workgroup_id.x + (workgroup_id.y * num_workgroups.x)) + ((workgroup_id.z * num_workgroups.x) * num_workgroups.y));
    let g = ((workgroup * {n}u) + local_index);
    let at = (g * {r}u);
    let even = ((lane & 1u) == 0u);
    let b = {ballot_even};
    let elected = {elect};
    let first = {first};
    let from0 = {from0};
{split}    ballot_self_test[at] = b;
    ballot_self_test[(at + 1u)] = vec4<u32>(subgroupBallotBitCount(b), subgroupBallotInclusiveBitCount(b), subgroupBallotExclusiveBitCount(b), subgroupBallotFindLSB(b));
    ballot_self_test[(at + 2u)] = vec4<u32>(subgroupBallotFindMSB(b), select(0u, 1u, subgroupBallotBitExtract(b, ((lane + 1u) % size))), select(0u, 1u, subgroupInverseBallot(b)), select(0u, 1u, elected));
    ballot_self_test[(at + 3u)] = subgroupEqMask();
    ballot_self_test[(at + 4u)] = subgroupGeMask();
    ballot_self_test[(at + 5u)] = subgroupGtMask();
    ballot_self_test[(at + 6u)] = subgroupLeMask();
    ballot_self_test[(at + 7u)] = subgroupLtMask();
    ballot_self_test[(at + 8u)] = vec4<u32>(first, from0, split, lane);
    ballot_self_test[(at + 9u)] = vec4<u32>(size, subgroupBallotFindLSB(vec4<u32>(0u)), subgroupBallotFindMSB(vec4<u32>(0u)), select(0u, 1u, subgroupBallotBitExtract(vec4<u32>(0xffffffffu), size)));
}}
"
    )
}

/// The GLSL self-test entry point (see the module docs).
pub(super) fn glsl_self_test(target: Target, options: &ShaderOptions) -> String {
    let emulated = !target.has_subgroups();
    let [x, y, z] = options.workgroup_size;
    let n = options.invocations_per_workgroup();
    let r = SELF_TEST_RECORDS;
    let f = |op: Op| function_name(target, op);
    // On `glsl` the masks are built-in variables; elsewhere functions.
    let mask = |op: Op| {
        if emulated {
            format!("{}()", f(op))
        } else {
            f(op).to_string()
        }
    };
    let (init, lane, size, ballot_even, elect, first, from0, split) = if emulated {
        (
            format!("    {};\n", init_call(target)),
            "ballot_lane",
            "ballot_subgroup_size",
            format!("{}(true, even)", f(Op::Ballot)),
            format!("{}(true)", f(Op::Elect)),
            format!("{}(true, g * 3u + 1u)", f(Op::BroadcastFirst)),
            format!("{}(true, g * 5u + 2u, 0u)", f(Op::Broadcast)),
            // Collectives run in every invocation, taking the branch as `on`.
            format!(
                "    bool inside = (lane & 2u) != 0u;\n    \
                 bool inside_elect = {}(inside);\n    \
                 uvec4 inside_ballot = {}(inside, true);\n    \
                 uint split = 0xFFFFFFFFu;\n    \
                 if (inside) {{\n        \
                 split = uint(inside_elect) | ({}(inside_ballot) << 1u);\n    \
                 }}\n",
                f(Op::Elect),
                f(Op::Ballot),
                f(Op::BitCount)
            ),
        )
    } else {
        (
            String::new(),
            "gl_SubgroupInvocationID",
            "gl_SubgroupSize",
            "subgroupBallot(even)".to_string(),
            "subgroupElect()".to_string(),
            "subgroupBroadcastFirst(g * 3u + 1u)".to_string(),
            "subgroupBroadcast(g * 5u + 2u, 0u)".to_string(),
            "    uint split = 0xFFFFFFFFu;\n    \
             if ((lane & 2u) != 0u) {\n        \
             split = uint(subgroupElect()) | (subgroupBallotBitCount(subgroupBallot(true)) << 1u);\n    \
             }\n"
                .to_string(),
        )
    };
    let (count, inclusive, exclusive) = (
        f(Op::BitCount),
        f(Op::InclusiveBitCount),
        f(Op::ExclusiveBitCount),
    );
    let (lsb, msb, extract, inverse) = (
        f(Op::FindLsb),
        f(Op::FindMsb),
        f(Op::BitExtract),
        f(Op::InverseBallot),
    );
    let (eq, ge, gt, le, lt) = (
        mask(Op::EqMask),
        mask(Op::GeMask),
        mask(Op::GtMask),
        mask(Op::LeMask),
        mask(Op::LtMask),
    );
    format!(
        "
// Self-test: not part of the library. It calls every function and writes
// {r} records per invocation to binding 0 (see ballot::polyfill).
layout(local_size_x = {x}, local_size_y = {y}, local_size_z = {z}) in;
layout(std430, set = 0, binding = 0) buffer ballot_self_test_block {{ uvec4 ballot_self_test[]; }};

void main() {{
{init}    uint lane = {lane};
    uint size = {size};
    uvec3 id = gl_WorkGroupID;
    uvec3 groups = gl_NumWorkGroups;
    uint workgroup = (id.x + id.y * groups.x) + (id.z * groups.x) * groups.y;
    uint g = workgroup * {n}u + gl_LocalInvocationIndex;
    uint at = g * {r}u;
    bool even = (lane & 1u) == 0u;
    uvec4 b = {ballot_even};
    bool elected = {elect};
    uint first = {first};
    uint from0 = {from0};
{split}    ballot_self_test[at] = b;
    ballot_self_test[at + 1u] = uvec4({count}(b), {inclusive}(b), {exclusive}(b), {lsb}(b));
    ballot_self_test[at + 2u] = uvec4({msb}(b), uint({extract}(b, (lane + 1u) % size)), uint({inverse}(b)), uint(elected));
    ballot_self_test[at + 3u] = {eq};
    ballot_self_test[at + 4u] = {ge};
    ballot_self_test[at + 5u] = {gt};
    ballot_self_test[at + 6u] = {le};
    ballot_self_test[at + 7u] = {lt};
    ballot_self_test[at + 8u] = uvec4(first, from0, split, lane);
    ballot_self_test[at + 9u] = uvec4(size, {lsb}(uvec4(0u)), {msb}(uvec4(0u)), uint({extract}(uvec4(0xFFFFFFFFu), size)));
}}
"
    )
}
