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

/// Overloads with different return types, called in a branch (the
/// FidelityFX SDK's `ffxWaveSum` and `ffxQuadReadX` are so): which
/// overload a call calls, and so its temporary's type, comes from
/// glslang. And a converted function called on its own result,
/// `twice(twice(1u))`, where the outer call's activity argument must
/// survive the inner call's temporary.
const OVERLOADS: &str = "#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Out { uint words[]; };
float total(float x) { return subgroupAdd(x); }
vec2 total(vec2 x) { return subgroupAdd(x); }
uint twice(uint x) { return subgroupAdd(x); }
void main() {
    uint i = gl_LocalInvocationIndex;
    if (i >= 45u) { return; }
    if (i % 2u == 0u) {
        float a = total(1.0);
        vec2 b = total(vec2(1.0, 2.0));
        words[i * 3u] = uint(a) + uint(b.y) * 100u;
    }
    words[i * 3u + 1u] = twice(twice(1u));
    words[i * 3u + 2u] = uint(total(total(vec2(float(i)))).x);
}
";

/// The words invocation `i` writes in subgroups of `v` ([`OVERLOADS`]):
/// in the branch, the count of the even members, and twice it; then the
/// square of the member count, and that count times the members' sum.
fn expected_overloads(i: u32, v: u32) -> [u32; 3] {
    if i >= 45 {
        return [UNWRITTEN; 3];
    }
    let base = i - i % v;
    let members: Vec<u32> = (base..base + v).filter(|&j| j < 45).collect();
    let n = members.len() as u32;
    let evens = members.iter().filter(|&&j| j % 2 == 0).count() as u32;
    let first = if i.is_multiple_of(2) {
        evens + 200 * evens
    } else {
        UNWRITTEN
    };
    [first, n * n, n * members.iter().sum::<u32>()]
}

#[test]
fn overloads_by_return_type_and_nested_calls_keep_their_meaning() {
    assert_linked_agree(
        "overloads and nested calls",
        (OVERLOADS, "overloads.comp"),
        [Target::GlslNoSubgroup, Target::Glsl],
        64,
        expected_overloads,
    );
}
