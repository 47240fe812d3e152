//! A `switch` whose cases each reach a collective, in a hand-written shader
//! linked for the emulated targets (`glsl-no-subgroup`, `wgsl-no-subgroup`)
//! at virtual sizes 4 to 32 and run on the Vulkan adapter. wgpu's own
//! subgroup test (`tests/subgroup_operations/shader.wgsl`) has this shape:
//! each case broadcasts the first active lane's id.
//!
//! Under maximal reconvergence (DESIGN.md, "Hand-written shaders on
//! emulated targets") the invocations that take a case execute its
//! collectives together, so in case `c` the first active lane is the
//! lowest lane of the virtual subgroup whose id is `c` mod 3: lane `c`
//! itself (every virtual size here is at least 3). Each invocation takes
//! the one case its selector named on entry, even where an earlier case's
//! body changes what the selector reads: the second switch sets the
//! selector's variable to the next case's value inside each case, and
//! counts the cases it ran. Invocations 45 and up return first.
//!
//! A GLSL `case` that falls through into the next (`FALLS`): the
//! invocations of lane 0 mod 4 add 1000 and run on into the next case,
//! whose ballot the lanes 1 mod 4 reach directly. SPV_KHR_maximal_
//! reconvergence lets a case's label take any subset of the switch's
//! invocations that reach it; the emulation takes them all, so the ballot
//! counts both kinds of lane. A lane that breaks out of the first case
//! (lane 4 mod 8) runs nothing of the second.
//!
//! Without an adapter the test says why and passes, unless
//! `BALLOT_REQUIRE_GPU=1`.

use ballot_naga::link::LinkOptions;
use ballot_runner::job::UNWRITTEN;
use ballot_runner::Gpu;
use ballot_shader::back::Target;

use crate::common::{linked_mismatches_on, loud, required, skip};

const GLSL: &str = "#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Out { uint words[]; };
void main() {
    uint i = gl_LocalInvocationIndex;
    if (i >= 45u) { return; }
    uint lane = gl_SubgroupInvocationID;
    uint first = 99u;
    switch (lane % 3u) {
        case 0u: first = subgroupBroadcastFirst(lane); break;
        case 1u: first = subgroupBroadcastFirst(lane); break;
        case 2u: first = subgroupBroadcastFirst(lane); break;
        default: break;
    }
    uint x = lane % 2u;
    uint ran = 0u;
    uint count = 0u;
    switch (x) {
        case 0u: x = 1u; ran += 1u; count = subgroupBallotBitCount(subgroupBallot(true)); break;
        case 1u: x = 0u; ran += 16u; count += 100u * subgroupBallotBitCount(subgroupBallot(true)); break;
    }
    words[i * 3u] = first;
    words[i * 3u + 1u] = ran;
    words[i * 3u + 2u] = count;
}
";

const WGSL: &str = "@group(0) @binding(0) var<storage, read_write> words: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32, @builtin(subgroup_invocation_id) lane: u32) {
    if (i >= 45u) { return; }
    var first = 99u;
    switch lane % 3u {
        case 0u: { first = subgroupBroadcastFirst(lane); }
        case 1u: { first = subgroupBroadcastFirst(lane); }
        case 2u: { first = subgroupBroadcastFirst(lane); }
        default: { }
    }
    var x = lane % 2u;
    var ran = 0u;
    var count = 0u;
    switch x {
        case 0u: { x = 1u; ran += 1u; count = subgroupBallotBitCount(subgroupBallot(true)); }
        case 1u: { x = 0u; ran += 16u; count += 100u * subgroupBallotBitCount(subgroupBallot(true)); }
        default: { }
    }
    words[i * 3u] = first;
    words[i * 3u + 1u] = ran;
    words[i * 3u + 2u] = count;
}
";

const INVOCATIONS: u32 = 64;

/// The words invocation `i` writes at virtual size `v` (module docs):
/// virtual subgroup `i / v`, lane `i % v`.
fn expected(i: u32, v: u32) -> [u32; 3] {
    if i >= 45 {
        return [UNWRITTEN; 3];
    }
    let lane = i % v;
    let base = i - lane;
    // The lanes of `i`'s virtual subgroup that reach the switches.
    let members = (base..base + v).filter(|&j| j < 45);
    let same_parity = members.filter(|j| (j % v) % 2 == lane % 2).count() as u32;
    let (ran, count) = if lane.is_multiple_of(2) {
        (1, same_parity)
    } else {
        (16, 100 * same_parity)
    };
    [lane % 3, ran, count]
}

#[test]
fn each_invocation_runs_the_one_case_its_selector_named_with_that_case_s_lanes() {
    let gpu = match Gpu::new() {
        Ok(gpu) => gpu,
        Err(e) => return skip("switch", &e.to_string()),
    };
    both_targets(
        &gpu,
        "switch",
        [(GLSL, "switch.comp"), (WGSL, "switch.wgsl")],
        expected,
    );
}

/// Links the GLSL and the WGSL text of `shaders` for their emulated
/// targets at sizes 4 to 32, runs each where the adapter can, and asserts
/// every word is `expected`'s.
fn both_targets<const WORDS: usize>(
    gpu: &Gpu,
    what: &str,
    shaders: [(&str, &str); 2],
    expected: impl Fn(u32, u32) -> [u32; WORDS] + Copy,
) {
    let mut failures = Vec::new();
    let mut ran = 0;
    for (target, (text, path)) in [Target::GlslNoSubgroup, Target::WgslNoSubgroup]
        .into_iter()
        .zip(shaders)
    {
        if let Some(why) = gpu.unsupported(target) {
            if required() {
                panic!("{target}: {why}");
            }
            loud(&format!("{what}: {target} skipped: {why}"));
            continue;
        }
        failures.extend(linked_mismatches_on(
            gpu,
            (text, path),
            &[4, 8, 16, 32].map(|v| (target, v)),
            |v| LinkOptions::default().subgroup_size(v),
            INVOCATIONS,
            expected,
        ));
        ran += 1;
    }
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures[..failures.len().min(20)].join("\n")
    );
    if ran == 0 {
        skip(what, "neither emulated target runs on this adapter");
    }
}

const FALLS: &str = "#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Out { uint words[]; };
void main() {
    uint i = gl_LocalInvocationIndex;
    if (i >= 45u) { return; }
    uint lane = gl_SubgroupInvocationID;
    uint n = 0u;
    switch (lane % 4u) {
        case 0u:
            n = 1000u;
            if (lane % 8u == 4u) { break; }
        case 1u:
            n += subgroupBallotBitCount(subgroupBallot(true));
            break;
        default:
            n = 7u;
    }
    words[i] = n;
}
";

/// The word invocation `i` writes at virtual size `v` ([`FALLS`]).
fn expected_falls(i: u32, v: u32) -> [u32; 1] {
    if i >= 45 {
        return [UNWRITTEN];
    }
    let lane = i % v;
    let base = i - lane;
    // The lanes that run the second case: 1 mod 4, and 0 mod 8 (those 4
    // mod 8 broke out of the first).
    let second = |l: u32| l % 4 == 1 || l.is_multiple_of(8);
    let count = (base..base + v)
        .filter(|&j| j < 45 && second(j % v))
        .count() as u32;
    [match lane % 4 {
        0 if lane % 8 == 4 => 1000,
        0 => 1000 + count,
        1 => count,
        _ => 7,
    }]
}

#[test]
fn a_glsl_case_falling_through_runs_on_with_the_next_case_s_lanes() {
    let gpu = match Gpu::new() {
        Ok(gpu) => gpu,
        Err(e) => return skip("switch fallthrough", &e.to_string()),
    };
    if let Some(why) = gpu.unsupported(Target::GlslNoSubgroup) {
        return skip("switch fallthrough", &why);
    }
    let failures = linked_mismatches_on(
        &gpu,
        (FALLS, "falls.comp"),
        &[4, 8, 16, 32].map(|v| (Target::GlslNoSubgroup, v)),
        |v| LinkOptions::default().subgroup_size(v),
        INVOCATIONS,
        expected_falls,
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A selector with a side effect: a call of the shader's own function
/// that counts its calls in a global (as a selector of `atomicAdd` would
/// have one), in a branch that only the even lanes take. Evaluated once,
/// by the invocations that reach the `switch`, as written: each even lane
/// counts 1 call and each odd lane none. In case `c` the first active lane
/// is the lowest even lane of the virtual subgroup whose id is `c` mod 3.
const EFFECT_GLSL: &str = "#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Out { uint words[]; };
uint calls = 0u;
uint sel(uint lane) { calls += 1u; return lane % 3u; }
void main() {
    uint i = gl_LocalInvocationIndex;
    if (i >= 45u) { return; }
    uint lane = gl_SubgroupInvocationID;
    uint first = 99u;
    if (lane % 2u == 0u) {
        switch (sel(lane)) {
            case 0u: first = subgroupBroadcastFirst(lane); break;
            case 1u: first = subgroupBroadcastFirst(lane); break;
            default: first = subgroupBroadcastFirst(lane); break;
        }
    }
    words[i * 2u] = first;
    words[i * 2u + 1u] = calls;
}
";

const EFFECT_WGSL: &str = "@group(0) @binding(0) var<storage, read_write> words: array<u32>;
var<private> calls: u32 = 0u;
fn sel(lane: u32) -> u32 { calls += 1u; return lane % 3u; }
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32, @builtin(subgroup_invocation_id) lane: u32) {
    if (i >= 45u) { return; }
    var first = 99u;
    if (lane % 2u == 0u) {
        switch sel(lane) {
            case 0u: { first = subgroupBroadcastFirst(lane); }
            case 1u: { first = subgroupBroadcastFirst(lane); }
            default: { first = subgroupBroadcastFirst(lane); }
        }
    }
    words[i * 2u] = first;
    words[i * 2u + 1u] = calls;
}
";

/// The words invocation `i` writes at virtual size `v` ([`EFFECT_GLSL`]).
fn expected_effect(i: u32, v: u32) -> [u32; 2] {
    if i >= 45 {
        return [UNWRITTEN; 2];
    }
    let lane = i % v;
    if lane % 2 == 1 {
        return [99, 0];
    }
    let base = i - lane;
    let first = (base..base + v)
        .filter(|&j| j < 45)
        .map(|j| j % v)
        .find(|l| l % 2 == 0 && l % 3 == lane % 3)
        .expect("the lane itself is one");
    [first, 1]
}

#[test]
fn a_selector_with_a_side_effect_is_evaluated_once_by_the_lanes_that_reach_it() {
    let gpu = match Gpu::new() {
        Ok(gpu) => gpu,
        Err(e) => return skip("switch selector", &e.to_string()),
    };
    both_targets(
        &gpu,
        "switch selector",
        [(EFFECT_GLSL, "effect.comp"), (EFFECT_WGSL, "effect.wgsl")],
        expected_effect,
    );
}
