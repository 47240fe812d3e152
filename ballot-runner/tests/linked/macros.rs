//! A GLSL macro that only renames a collective (`#define shfl(v, m)
//! subgroupShuffleXor(v, m)`, as fast_bitonic_sort and nvpro's
//! pyramid do), called under a branch after an early `return`, in a shader
//! linked for `glsl-no-subgroup` at virtual sizes 4 to 32 (and for `glsl`
//! at the adapter's size) and run on the Vulkan adapter.
//!
//! The macro's calls are the collective's: on the emulated target they
//! are if-converted as its calls are. Invocations 45 and up return; of the
//! rest, only the even lanes call `shfl(i * 3 + 1, 2)`, which reads the
//! value of lane `lane ^ 2` (GL_KHR_shader_subgroup_shuffle), even too, so
//! active where it is below 45: in subgroups of 4 and more that lane is
//! invocation `i ^ 2`, and the call gives `(i ^ 2) * 3 + 1`. Where `i ^ 2`
//! returned (invocation 44's partner, 46) the value is undefined, and the
//! shader writes 7 instead; the odd lanes write 0.
//!
//! Without an adapter the test says why and passes, unless
//! `BALLOT_REQUIRE_GPU=1`.

use ballot_runner::job::UNWRITTEN;
use ballot_shader::back::Target;

use crate::common::assert_linked_agree;

const GLSL: &str = "#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_shuffle : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Out { uint words[]; };
#define shfl(v, m) subgroupShuffleXor(v, m)

void main() {
    uint i = gl_LocalInvocationIndex;
    if (i >= 45u) { return; }
    uint lane = gl_SubgroupInvocationID;
    uint got = 0u;
    if (lane % 2u == 0u) {
        uint other = shfl(i * 3u + 1u, 2u);
        got = (i ^ 2u) < 45u ? other : 7u;
    }
    words[i] = got;
}
";

/// The word invocation `i` writes (module docs); the same at every
/// subgroup size from 4.
fn expected(i: u32, _v: u32) -> [u32; 1] {
    match i {
        45.. => [UNWRITTEN],
        _ if i % 2 == 1 => [0],
        _ if (i ^ 2) >= 45 => [7],
        _ => [(i ^ 2) * 3 + 1],
    }
}

#[test]
fn a_macro_that_renames_a_collective_is_linked_as_the_collective() {
    assert_linked_agree(
        "a macro renaming a collective",
        (GLSL, "macros.comp"),
        [Target::GlslNoSubgroup, Target::Glsl],
        64,
        expected,
    );
}

const STATEMENTS: &str = "#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Out { uint words[]; };
// As Granite's SHUFFLE_PASS: a statement that calls a collective.
#define XOR_PASS(a, s) { \\
    uint b = subgroupShuffleXor(a, s); \\
    if ((gl_SubgroupInvocationID & (s)) == 0u) { \\
        a = a + b; \\
    } else { \\
        a = a - b; \\
    } \\
}
#define EVENS subgroupBallotBitCount(subgroupBallot((i & 1u) == 0u))
#define PASS_AND_COUNT(a, s) XOR_PASS(a, s); n = EVENS

void main() {
    uint i = gl_LocalInvocationIndex;
    if (i >= 32u) { return; }
    uint a = i * 5u + 3u;
    uint n = 0u;
    XOR_PASS(a, 1u);
    PASS_AND_COUNT(a,
                   2u);
    words[i * 2u] = a;
    words[i * 2u + 1u] = n;
}
";

/// One `XOR_PASS` at distance `s` of the values `a` (module docs of the
/// test below), for invocation `i`.
fn xor_pass(a: impl Fn(u32) -> u32, i: u32, s: u32) -> u32 {
    let b = a(i ^ s);
    match i & s {
        0 => a(i).wrapping_add(b),
        _ => a(i).wrapping_sub(b),
    }
}

/// The words invocation `i` writes in subgroups of `v`: invocations 32 and
/// up return, so every subgroup that runs is whole and each shuffle reads
/// an active lane, `i ^ s`; the ballot counts the even lanes, `v / 2`.
fn expected_statements(i: u32, v: u32) -> [u32; 2] {
    if i >= 32 {
        return [UNWRITTEN; 2];
    }
    let first = |j: u32| xor_pass(|k| k * 5 + 3, j, 1);
    [xor_pass(first, i, 2), v / 2]
}

/// Macros whose bodies call collectives beyond a rename: a statement (a
/// block holding a shuffle and a branch on the lane), an object-like macro
/// holding a ballot, and a macro calling both, its call over two lines.
/// Each is expanded where it is called and if-converted there.
#[test]
fn macros_that_call_collectives_are_expanded_where_called() {
    assert_linked_agree(
        "macros calling collectives",
        (STATEMENTS, "statements.comp"),
        [Target::GlslNoSubgroup, Target::Glsl],
        64,
        expected_statements,
    );
}
