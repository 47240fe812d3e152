//! Collectives in the right operands of nested short circuits, after an
//! early `return`, in a hand-written shader linked for the emulated
//! targets at virtual sizes 4 to 32 (and their hardware ones at the
//! adapter's size) and run on the Vulkan adapter.
//!
//! `(b || subgroupAny(c)) || subgroupAny(d)`: the outer `||`'s left
//! operand holds a short circuit around a collective of its own, so it is
//! computed, with that collective, before the outer right operand runs
//! where it is false (dxil-spirv's `quad_all_any` test shader writes this
//! form). Each collective runs over the members of the invocation's
//! subgroup that evaluate it: invocations 45 and up return first, and a
//! short circuit's operand is evaluated only where its left operand lets
//! it.
//!
//! Without an adapter the test says why and passes, unless
//! `BALLOT_REQUIRE_GPU=1`.

use ballot_runner::job::UNWRITTEN;
use ballot_shader::back::Target;

use crate::common::assert_linked_agree;

const GLSL: &str = "#version 450
#extension GL_KHR_shader_subgroup_vote : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Out { uint words[]; };
void main() {
    uint i = gl_LocalInvocationIndex;
    if (i >= 45u) { return; }
    bool b = i % 3u == 0u;
    bool r1 = (b || subgroupAny(i % 5u == 1u)) || subgroupAny(i % 7u == 3u);
    bool r2 = (b && subgroupAll(i % 2u == 0u)) && subgroupAny(i % 7u == 3u);
    bool r3 = (b ? subgroupAny(i > 40u) : false) || subgroupAll(i < 40u);
    words[i * 3u] = uint(r1);
    words[i * 3u + 1u] = uint(r2);
    words[i * 3u + 2u] = uint(r3);
}
";

const WGSL: &str = "@group(0) @binding(0) var<storage, read_write> words: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32) {
    if (i >= 45u) { return; }
    let b = i % 3u == 0u;
    let r1 = (b || subgroupAny(i % 5u == 1u)) || subgroupAny(i % 7u == 3u);
    let r2 = (b && subgroupAll(i % 2u == 0u)) && subgroupAny(i % 7u == 3u);
    words[i * 3u] = u32(r1);
    words[i * 3u + 1u] = u32(r2);
    words[i * 3u + 2u] = 7u;
}
";

/// The members of invocation `i`'s subgroup of `v` that run past the
/// early `return`, and satisfy `p`.
fn members(i: u32, v: u32, p: impl Fn(u32) -> bool) -> Vec<u32> {
    let base = i - i % v;
    (base..base + v).filter(|&j| j < 45 && p(j)).collect()
}

/// The words invocation `i` writes in subgroups of `v`, from the spec:
/// each vote over the members that evaluate it. `r3` is GLSL's (`?:`);
/// the WGSL shader writes 7 there.
fn expected(i: u32, v: u32, r3: bool) -> [u32; 3] {
    if i >= 45 {
        return [UNWRITTEN; 3];
    }
    let b = |j: u32| j.is_multiple_of(3);
    // r1: where `b` is false, the inner vote over those members; where it
    // is false too, the outer one over the same members.
    let not_b = members(i, v, |j| !b(j));
    let inner = not_b.iter().any(|&j| j % 5 == 1);
    let r1 = b(i) || inner || not_b.iter().any(|&j| j % 7 == 3);
    // r2: the inner vote over the members where `b` holds, the outer one
    // over those where the left operand holds: the same members, or none.
    let with_b = members(i, v, b);
    let all_even = with_b.iter().all(|&j| j % 2 == 0);
    let r2 = b(i) && all_even && with_b.iter().any(|&j| j % 7 == 3);
    // r3: the arm's vote over the members where `b` holds; the right
    // operand's over those where the left operand is false.
    let left = |j: u32| b(j) && with_b.iter().any(|&k| k > 40);
    let r3_value = left(i) || members(i, v, |j| !left(j)).iter().all(|&j| j < 40);
    [
        u32::from(r1),
        u32::from(r2),
        if r3 { u32::from(r3_value) } else { 7 },
    ]
}

#[test]
fn nested_short_circuits_around_collectives_run_as_the_spec_says_glsl() {
    assert_linked_agree(
        "nested short circuits (GLSL)",
        (GLSL, "circuits.comp"),
        [Target::GlslNoSubgroup, Target::Glsl],
        64,
        |i, v| expected(i, v, true),
    );
}

#[test]
fn nested_short_circuits_around_collectives_run_as_the_spec_says_wgsl() {
    assert_linked_agree(
        "nested short circuits (WGSL)",
        (WGSL, "circuits.wgsl"),
        [Target::WgslNoSubgroup, Target::Wgsl],
        64,
        |i, v| expected(i, v, false),
    );
}
