//! A hand-written GLSL shader's clustered reductions
//! (GL_KHR_shader_subgroup_clustered) linked for `glsl-no-subgroup` at
//! virtual sizes 4 to 32 and run on the Vulkan adapter; every word is
//! checked against the spec (DESIGN.md, "Clustered"): each reduction
//! combines the values of the active lanes of the invocation's cluster,
//! the `n` lanes whose ids share the bits above log2(n), within its
//! virtual subgroup (virtual subgroup k holds local indices [k·V, (k+1)·V),
//! so a lane's id is its index mod V).
//!
//! Invocations 60 and up, and those whose index is 3 mod 7, return before
//! the reductions: the others' clusters have holes, which must not count.
//! The sizes are a literal of each spelling, a `const` name and a define
//! (`WIDE`, the smaller of 16 and the subgroup, as `-D` gives it).
//!
//! Without an adapter, or without glslang, the test says why and passes,
//! unless `BALLOT_REQUIRE_GPU=1`.

use ballot_naga::link::LinkOptions;
use ballot_runner::job::UNWRITTEN;
use ballot_runner::Gpu;
use ballot_shader::back::Target;

use crate::common::{assert_linked_agree, linked_mismatches, loud, required, skip};

const SHADER: &str = "#version 450
#extension GL_KHR_shader_subgroup_clustered : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Out { uint words[]; };
const uint PAIR = 2u;
void main() {
    uint i = gl_LocalInvocationIndex;
    if (i >= 60u || i % 7u == 3u) { return; }
    uint at = i * 8u;
    uint v = i * i + 1u;
    int k = int(i) - 30;
    float f = float(i) - 20.5;
    words[at] = subgroupClusteredAdd(v, 4u);
    words[at + 1u] = uint(subgroupClusteredMin(k, 4));
    words[at + 2u] = subgroupClusteredMax(v ^ 0x2Au, PAIR);
    words[at + 3u] = floatBitsToUint(subgroupClusteredAdd(f, WIDE));
    uvec2 m = subgroupClusteredMul(uvec2(v, i + 2u), 0x2u);
    words[at + 4u] = m.x ^ (m.y << 16u);
    words[at + 5u] = subgroupClusteredAnd(v | 0x100u, 04u) ^ subgroupClusteredXor(v, 1u);
    bvec2 flags = subgroupClusteredOr(bvec2(i % 5u == 0u, i == 7u), WIDE);
    words[at + 6u] = uint(flags.x) | (uint(flags.y) << 1u) | (uint(subgroupClusteredXor(i % 3u == 0u, 4u)) << 2u);
    words[at + 7u] = floatBitsToUint(subgroupClusteredMax(f * 2.0, 4u)) ^ uint(subgroupClusteredMax(-k, 1u));
}
";

const INVOCATIONS: u32 = 64;
const WORDS: u32 = 8;

fn active(i: u32) -> bool {
    i < 60 && i % 7 != 3
}

/// The active invocations of `i`'s cluster of `n` lanes at virtual size
/// `v`: the local indices that share `i`'s virtual subgroup and its lane
/// id's bits above log2(n). `n` divides `v`, so the cluster is the `n`
/// indices from `i` rounded down to a multiple of `n`.
fn cluster(i: u32, n: u32, v: u32) -> Vec<u32> {
    assert!(n.is_power_of_two() && n <= v);
    let first = i / n * n;
    (first..first + n).filter(|&j| active(j)).collect()
}

/// The words invocation `i` writes at virtual subgroup size `v`, from the
/// spec (module docs).
fn expected(i: u32, v: u32) -> [u32; WORDS as usize] {
    if !active(i) {
        return [UNWRITTEN; WORDS as usize];
    }
    let wide = v.min(16);
    let value = |j: u32| j * j + 1;
    let int = |j: u32| j as i32 - 30;
    let float = |j: u32| j as f32 - 20.5;
    let over = |n: u32| cluster(i, n, v);
    let add: u32 = over(4).iter().map(|&j| value(j)).fold(0, u32::wrapping_add);
    let min = over(4).iter().map(|&j| int(j)).min().unwrap();
    let max = over(2).iter().map(|&j| value(j) ^ 0x2A).max().unwrap();
    // Sums of halves below 2^24: exact in any order.
    let fadd: f32 = over(wide).iter().map(|&j| float(j)).sum();
    let mul_x = over(2).iter().map(|&j| value(j)).fold(1, u32::wrapping_mul);
    let mul_y = over(2).iter().map(|&j| j + 2).fold(1, u32::wrapping_mul);
    let and = over(4)
        .iter()
        .map(|&j| value(j) | 0x100)
        .fold(!0, |a, b| a & b);
    // A cluster of one lane: the lane's own value.
    let xor1 = value(i);
    let any_x = over(wide).iter().any(|&j| j % 5 == 0);
    let any_y = over(wide).contains(&7);
    let xor_b = over(4).iter().filter(|&&j| j % 3 == 0).count() % 2 == 1;
    let fmax = over(4)
        .iter()
        .map(|&j| float(j) * 2.0)
        .fold(f32::NEG_INFINITY, f32::max);
    [
        add,
        min as u32,
        max,
        fadd.to_bits(),
        mul_x ^ (mul_y << 16),
        and ^ xor1,
        u32::from(any_x) | (u32::from(any_y) << 1) | (u32::from(xor_b) << 2),
        fmax.to_bits() ^ (-int(i)) as u32,
    ]
}

#[test]
fn clustered_reductions_of_a_linked_glsl_shader_follow_the_spec_on_glsl_no_subgroup() {
    let gpu = match Gpu::new() {
        Ok(gpu) => gpu,
        Err(e) => return skip("clustered reductions", &e.to_string()),
    };
    if let Some(why) = gpu.unsupported(Target::GlslNoSubgroup) {
        return skip("clustered reductions", &why);
    }
    if !ballot_testkit::have_tools("clustered reductions", &[ballot_testkit::GLSLANG]) {
        assert!(!required(), "glslang is required");
        return;
    }
    loud(&format!("clustered reductions on {}", gpu.describe()));
    let failures = linked_mismatches(
        &gpu,
        (SHADER, "clustered.comp"),
        &[4, 8, 16, 32],
        |v| {
            LinkOptions::default()
                .subgroup_size(v)
                .define("WIDE", format!("{}u", v.min(16)))
        },
        INVOCATIONS,
        expected,
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A cluster of 64 lanes at virtual sizes 4 to 32: undefined where it runs
/// (GL_KHR_shader_subgroup_clustered), and the emulation's documented
/// answer there (docs/design.md, "Clustered") is the reduction over the
/// whole virtual subgroup's active lanes.
const OVER: &str = "#version 450
#extension GL_KHR_shader_subgroup_clustered : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Out { uint words[]; };
void main() {
    uint i = gl_LocalInvocationIndex;
    if (i >= 60u || i % 7u == 3u) { return; }
    words[i] = subgroupClusteredAdd(i * i + 1u, 64u);
}
";

#[test]
fn a_cluster_over_the_virtual_subgroup_reduces_the_whole_subgroup() {
    let gpu = match Gpu::new() {
        Ok(gpu) => gpu,
        Err(e) => return skip("a cluster over the subgroup", &e.to_string()),
    };
    if let Some(why) = gpu.unsupported(Target::GlslNoSubgroup) {
        return skip("a cluster over the subgroup", &why);
    }
    if !ballot_testkit::have_tools("a cluster over the subgroup", &[ballot_testkit::GLSLANG]) {
        assert!(!required(), "glslang is required");
        return;
    }
    let failures = linked_mismatches(
        &gpu,
        (OVER, "over.comp"),
        &[4, 8, 16, 32],
        |v| LinkOptions::default().subgroup_size(v),
        INVOCATIONS,
        |i, v| {
            if !active(i) {
                return [UNWRITTEN];
            }
            [cluster(i, v, v)
                .iter()
                .map(|&j| j * j + 1)
                .fold(0, u32::wrapping_add)]
        },
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Clustered reductions of the types other than 32 bits
/// (GL_EXT_shader_subgroup_extended_types_*, and `genDType`): each
/// combines in the type, over the active lanes of the cluster, as the
/// 32-bit ones do. Every sum and product is exact in the type, or wraps as
/// it does (an `int8_t` product of 12s), so the answer is the spec's in
/// any order. The invocations of [`active`] run them.
const WIDE_TYPES: &str = "#version 450
#extension GL_KHR_shader_subgroup_clustered : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_subgroup_extended_types_int8 : require
#extension GL_EXT_shader_subgroup_extended_types_float16 : require
#extension GL_EXT_shader_subgroup_extended_types_int64 : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Out { uint words[]; };
const uint PAIR = 2u;
void main() {
    uint i = gl_LocalInvocationIndex;
    if (i >= 60u || i % 7u == 3u) { return; }
    uint at = i * 8u;
    double d = double(i) + 0.5;
    uvec2 sum = unpackDouble2x32(subgroupClusteredAdd(d, 4u));
    words[at] = sum.x;
    words[at + 1u] = sum.y;
    uint64_t top = subgroupClusteredMax(uint64_t(i) << 40ul, PAIR);
    words[at + 2u] = uint(top);
    words[at + 3u] = uint(top >> 32ul);
    words[at + 4u] = floatBitsToUint(float(subgroupClusteredAdd(float16_t(i) * float16_t(0.25), 4u)));
    words[at + 5u] = uint(int(subgroupClusteredMul(i % 2u == 0u ? int8_t(12) : int8_t(1), 4u)));
    uvec2 low = unpackDouble2x32(subgroupClusteredMin(dvec2(d, -d), PAIR).y);
    words[at + 6u] = low.x;
    words[at + 7u] = low.y ^ uint(subgroupClusteredXor(i64vec2(int64_t(i), -1l), 1u).x);
}
";

/// The eight words invocation `i` writes at virtual size `v`
/// ([`WIDE_TYPES`]), from the spec.
fn expected_wide(i: u32, v: u32) -> [u32; 8] {
    if !active(i) {
        return [UNWRITTEN; 8];
    }
    let over = |n: u32| cluster(i, n, v);
    let d = |j: u32| f64::from(j) + 0.5;
    let sum: f64 = over(4).iter().map(|&j| d(j)).sum();
    let top = over(2).iter().map(|&j| u64::from(j) << 40).max().unwrap();
    // Quarters summed up to 59: exact in a float16_t, and in an f32.
    let quarters: f32 = over(4).iter().map(|&j| j as f32 * 0.25).sum();
    let product = over(4)
        .iter()
        .map(|&j| if j % 2 == 0 { 12i8 } else { 1 })
        .fold(1i8, i8::wrapping_mul);
    let low = over(2).iter().map(|&j| -d(j)).fold(f64::INFINITY, f64::min);
    let words = |x: u64| [x as u32, (x >> 32) as u32];
    let [s0, s1] = words(sum.to_bits());
    let [t0, t1] = words(top);
    let [l0, l1] = words(low.to_bits());
    // A cluster of one lane: its own value, the low word of `i`.
    [
        s0,
        s1,
        t0,
        t1,
        quarters.to_bits(),
        i32::from(product) as u32,
        l0,
        l1 ^ i,
    ]
}

#[test]
fn clustered_reductions_of_other_types_combine_in_the_type() {
    assert_linked_agree(
        "clustered reductions of other types",
        (WIDE_TYPES, "clustered_wide.comp"),
        [Target::GlslNoSubgroup, Target::Glsl],
        INVOCATIONS,
        expected_wide,
    );
}
