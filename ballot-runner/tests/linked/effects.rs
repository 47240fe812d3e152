//! What the emulated targets move, and what they may not.
//!
//! A WGSL `continuing` block reads the declarations of its loop's body:
//! the emulation keeps it in the body's scope.
//!
//! Every invocation of the workgroup makes a converted call, active or
//! not, so a GLSL `out` parameter must not be copied back where the
//! invocation is not active: the caller's variable keeps its value. Lanes
//! 6 and up of each virtual subgroup (and of the device's) call `red`,
//! whose `out` parameter takes the sum of their lanes; the others keep 7.
//! A pure function of the shader's own inside a collective's argument
//! (`twice`) is evaluated as before, and an `atomicAdd` around a
//! collective still adds once per invocation that reaches it.
//!
//! Without an adapter the test says why and passes, unless
//! `BALLOT_REQUIRE_GPU=1`.

use ballot_shader::back::Target;

use crate::common::assert_linked_agree;

const OUT_PARAM: &str = "#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Out { uint words[]; };
uint twice(uint v) { uint w = v; w *= 2u; return w; }
void red(uint v, out uint r) { r = subgroupAdd(twice(v)); }
void main() {
    uint i = gl_LocalInvocationIndex;
    uint lane = gl_SubgroupInvocationID;
    uint y = 7u;
    if (lane >= 6u) { red(1u, y); }
    words[i * 2u] = y;
    if (lane == 0u) { atomicAdd(words[128], subgroupAdd(1u)); }
    words[i * 2u + 1u] = 0u;
}
";

/// The words invocation `i` writes at size `v` ([`OUT_PARAM`]): `y`, and
/// a zero; word 128, once every invocation is done, is not read here (the
/// sums of the lanes 0 land there, one per subgroup).
fn expected(i: u32, v: u32) -> [u32; 2] {
    let lane = i % v;
    let y = if lane >= 6 { 2 * (v - 6) } else { 7 };
    [y, 0]
}

#[test]
fn an_out_parameter_of_a_converted_call_is_copied_back_only_where_active() {
    assert_linked_agree(
        "an out parameter",
        (OUT_PARAM, "out.comp"),
        [Target::GlslNoSubgroup, Target::Glsl],
        64,
        expected,
    );
}

/// A WGSL `continuing` block that reads a `let` of the loop's body, as
/// WGSL lets it: lane `l` runs `l % 4 + 1` iterations, and iteration `k`
/// adds `k` summed over the lanes still in the loop.
const CONTINUING: &str = "@group(0) @binding(0) var<storage, read_write> words: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32, @builtin(subgroup_invocation_id) lane: u32) {
    let x = lane % 4u + 1u;
    var s = 0u;
    var k = 0u;
    loop {
        let a = subgroupAdd(k);
        continuing {
            s += a;
            k++;
            break if k >= x;
        }
    }
    words[i] = s;
}
";

/// The word invocation `i` writes at size `v` ([`CONTINUING`]).
fn expected_continuing(i: u32, v: u32) -> [u32; 1] {
    let x = (i % v) % 4 + 1;
    let s = (0..x)
        .map(|k| k * (0..v).filter(|l| l % 4 + 1 > k).count() as u32)
        .sum();
    [s]
}

#[test]
fn a_continuing_block_reads_the_loop_body_s_declarations() {
    assert_linked_agree(
        "continuing",
        (CONTINUING, "continuing.wgsl"),
        [Target::WgslNoSubgroup, Target::Wgsl],
        64,
        expected_continuing,
    );
}

/// Operands that divide, index and call, after an early `return`: the
/// emulation evaluates them only where the invocation is active
/// (`(active ? operand : zero)`), and the results are the hardware's. Odd
/// lanes return; even lane `l` adds `steps(l + 2)` (`floor(log2)`) over
/// its subgroup's even lanes, passes half of that sum, read back from the
/// buffer, to a converted function that adds it up again, and reads `l`
/// from lane `(l + 2) % size`, which is even and active.
const OPERANDS: &str = "#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_shuffle : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Out { uint words[]; };
uint steps(uint v) { uint s = 0u; while (v > 1u) { v /= 2u; s++; } return s; }
uint red(uint v) { return subgroupAdd(v); }
void main() {
    uint i = gl_LocalInvocationIndex;
    uint lane = gl_SubgroupInvocationID;
    words[i * 3u] = 7u;
    words[i * 3u + 1u] = 7u;
    words[i * 3u + 2u] = 7u;
    if (lane % 2u == 1u) { return; }
    words[i * 3u] = subgroupAdd(steps(lane + 2u));
    words[i * 3u + 1u] = red(words[i * 3u] / 2u);
    words[i * 3u + 2u] = subgroupShuffle(lane, (lane + 2u) % gl_SubgroupSize);
}
";

/// The words invocation `i` writes at size `v` ([`OPERANDS`]).
fn expected_operands(i: u32, v: u32) -> [u32; 3] {
    let lane = i % v;
    if lane % 2 == 1 {
        return [7, 7, 7];
    }
    let steps = |x: u32| x.ilog2();
    let sum: u32 = (0..v).step_by(2).map(|l| steps(l + 2)).sum();
    [sum, v / 2 * (sum / 2), (lane + 2) % v]
}

#[test]
fn operands_are_evaluated_where_the_invocation_is_active() {
    assert_linked_agree(
        "operands",
        (OPERANDS, "operands.comp"),
        [Target::GlslNoSubgroup, Target::Glsl],
        64,
        expected_operands,
    );
}
