//! GLSL's own ways with functions, in a hand-written shader linked for
//! `glsl-no-subgroup` at virtual sizes 4 to 32 (and for `glsl` at the
//! adapter's size) and run on the Vulkan adapter:
//!
//! - a function declared by a prototype before `main` and defined after
//!   it, which the if-conversion gives the caller's activity: the
//!   prototype must take it too;
//! - two overloads of one name, one calling the other, called in the two
//!   arms of a branch: which overload a call calls depends on its
//!   arguments' types, so both take the activity;
//! - a `#pragma unroll` before a loop inside a converted loop: a
//!   preprocessor line must still start its own line.
//!
//! Under maximal reconvergence (DESIGN.md, "Hand-written shaders on
//! emulated targets") the lanes that reach a ballot by the same path run
//! it together. Invocations 45 and up return first; in the virtual
//! subgroup of invocation `i` at size `v`, its members are the indices
//! from `i - i % v` below 45. Then:
//!
//! - an even lane writes `a = 1 + the count of its even members`, an odd
//!   lane `b = 2 * (10 + the count of its odd members)`, as each arm's
//!   call counts the lanes of its arm;
//! - every lane writes, in `loops`, two ballot counts per iteration of a
//!   loop of `lane % 3` trips, where at iteration `k` the members with
//!   `lane % 3 > k` are active.
//!
//! Without an adapter the test says why and passes, unless
//! `BALLOT_REQUIRE_GPU=1`.

use ballot_runner::job::UNWRITTEN;
use ballot_shader::back::Target;

use crate::common::assert_linked_agree;

const GLSL: &str = "#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Out { uint words[]; };

uint count_set(uint bias);
uint count_set(uint bias, uint scale);

void main() {
    uint i = gl_LocalInvocationIndex;
    if (i >= 45u) { return; }
    uint lane = gl_SubgroupInvocationID;
    uint a = 0u;
    uint b = 0u;
    if (lane % 2u == 0u) {
        a = count_set(1u);
    } else {
        b = count_set(10u, 2u);
    }
    uint loops = 0u;
    for (uint k = 0u; k < lane % 3u; ++k) {
        #pragma unroll
        for (uint j = 0u; j < 2u; ++j) {
            loops += subgroupBallotBitCount(subgroupBallot(true));
        }
    }
    words[i * 3u] = a;
    words[i * 3u + 1u] = b;
    words[i * 3u + 2u] = loops;
}

uint count_set(uint bias) {
    return subgroupBallotBitCount(subgroupBallot(true)) + bias;
}

uint count_set(uint bias, uint scale) {
    return scale * count_set(bias);
}
";

const INVOCATIONS: u32 = 64;

/// The words invocation `i` writes at subgroup size `v` (module docs).
fn expected(i: u32, v: u32) -> [u32; 3] {
    if i >= 45 {
        return [UNWRITTEN; 3];
    }
    let lane = i % v;
    let base = i - lane;
    let members: Vec<u32> = (base..base + v)
        .filter(|&j| j < 45)
        .map(|j| j % v)
        .collect();
    let count = |keep: &dyn Fn(u32) -> bool| members.iter().filter(|&&m| keep(m)).count() as u32;
    let (a, b) = if lane.is_multiple_of(2) {
        (1 + count(&|m| m.is_multiple_of(2)), 0)
    } else {
        (0, 2 * (10 + count(&|m| !m.is_multiple_of(2))))
    };
    let loops = (0..lane % 3).map(|k| 2 * count(&|m| m % 3 > k)).sum();
    [a, b, loops]
}

#[test]
fn prototypes_overloads_and_pragmas_keep_their_meaning() {
    assert_linked_agree(
        "glsl functions",
        (GLSL, "functions.comp"),
        [Target::GlslNoSubgroup, Target::Glsl],
        INVOCATIONS,
        expected,
    );
}
