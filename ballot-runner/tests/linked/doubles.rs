//! 64-bit arithmetic collectives, of `double`s (GL_KHR_shader_subgroup_
//! arithmetic's `genDType`) and of 64-bit integers (GL_EXT_shader_
//! subgroup_extended_types_int64), in hand-written shaders linked for
//! `glsl-no-subgroup` at virtual sizes 4 to 32 (and for `glsl` at the
//! adapter's size) and run on the Vulkan adapter: CFD and scientific
//! shaders reduce `double`s.
//!
//! Invocations 45 and up return first, so the last subgroups that run are
//! partly active. In the first shader the others write, as two words each
//! (`unpackDouble2x32`): `subgroupAdd(i + 0.5)`, `subgroupInclusiveMul` of
//! 2 on multiples of 4 and 1 elsewhere, `subgroupExclusiveMin(50 - i)`
//! (+infinity in the first active lane, the identity over no lane) and
//! `subgroupMax` of `dvec2(i + 0.5, -(i + 0.5))`. Every value and result
//! is exact in a `double`, so the answer is the spec's whatever the order
//! of the sums. The second shader's are over `int64_t`, `uint64_t` and a
//! `u64vec2`, with values past 32 bits.
//!
//! Without an adapter the tests say why and pass, unless
//! `BALLOT_REQUIRE_GPU=1`.

use ballot_runner::job::UNWRITTEN;
use ballot_shader::back::Target;

use crate::common::assert_linked_agree;

const GLSL: &str = "#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Out { uint words[]; };
void put(uint at, double x) {
    uvec2 b = unpackDouble2x32(x);
    words[at] = b.x;
    words[at + 1u] = b.y;
}
void main() {
    uint i = gl_LocalInvocationIndex;
    if (i >= 45u) { return; }
    double x = double(i) + 0.5;
    put(i * 10u, subgroupAdd(x));
    put(i * 10u + 2u, subgroupInclusiveMul(i % 4u == 0u ? double(2.0) : double(1.0)));
    put(i * 10u + 4u, subgroupExclusiveMin(double(50u - i)));
    dvec2 m = subgroupMax(dvec2(x, -x));
    put(i * 10u + 6u, m.x);
    put(i * 10u + 8u, m.y);
}
";

/// The ten words invocation `i` writes in subgroups of `v` (module docs).
fn expected(i: u32, v: u32) -> [u32; 10] {
    if i >= 45 {
        return [UNWRITTEN; 10];
    }
    let base = i - i % v;
    let members: Vec<u32> = (base..base + v).filter(|&j| j < 45).collect();
    let x = |j: u32| f64::from(j) + 0.5;
    let add: f64 = members.iter().map(|&j| x(j)).sum();
    let mul: f64 = members
        .iter()
        .filter(|&&j| j <= i && j % 4 == 0)
        .map(|_| 2.0)
        .product();
    let min = members
        .iter()
        .filter(|&&j| j < i)
        .map(|&j| f64::from(50 - j))
        .fold(f64::INFINITY, f64::min);
    let last = *members.last().expect("i is a member");
    let words = |d: f64| {
        let b = d.to_bits();
        [b as u32, (b >> 32) as u32]
    };
    let mut out = [0; 10];
    for (k, d) in [add, mul, min, x(last), -x(base)].into_iter().enumerate() {
        out[2 * k..2 * k + 2].copy_from_slice(&words(d));
    }
    out
}

#[test]
fn double_reductions_and_scans_give_the_spec_s_answers() {
    assert_linked_agree(
        "double arithmetic",
        (GLSL, "doubles.comp"),
        [Target::GlslNoSubgroup, Target::Glsl],
        64,
        expected,
    );
}

const INT64: &str = "#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_subgroup_extended_types_int64 : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Out { uint words[]; };
void put(uint at, uint64_t x) {
    words[at] = uint(x);
    words[at + 1u] = uint(x >> 32ul);
}
void main() {
    uint i = gl_LocalInvocationIndex;
    if (i >= 45u) { return; }
    put(i * 12u, uint64_t(subgroupAdd(int64_t(i) * (1l << 33l) - 5l)));
    put(i * 12u + 2u, uint64_t(subgroupInclusiveMin(int64_t((i * 7u) % 11u) - 5l)));
    put(i * 12u + 4u, subgroupExclusiveXor(uint64_t(i) << 35ul));
    u64vec2 m = subgroupMax(u64vec2(uint64_t(i) << 32ul, ~uint64_t(i)));
    put(i * 12u + 6u, m.x);
    put(i * 12u + 8u, m.y);
    put(i * 12u + 10u, uint64_t(subgroupMul(i % 3u == 0u ? -2l : 1l)));
}
";

/// The twelve words invocation `i` writes in subgroups of `v`: each
/// 64-bit result as its low and high words, from the spec (integers
/// wrap; the exclusive Xor is 0, its identity, in the first active lane).
fn expected_int64(i: u32, v: u32) -> [u32; 12] {
    if i >= 45 {
        return [UNWRITTEN; 12];
    }
    let base = i - i % v;
    let members: Vec<u64> = (base..base + v)
        .filter(|&j| j < 45)
        .map(u64::from)
        .collect();
    let i = u64::from(i);
    let add = members
        .iter()
        .map(|&j| (j as i64).wrapping_mul(1 << 33).wrapping_sub(5))
        .fold(0i64, i64::wrapping_add) as u64;
    let min = members
        .iter()
        .filter(|&&j| j <= i)
        .map(|&j| ((j * 7) % 11) as i64 - 5)
        .min()
        .expect("i is a member") as u64;
    let xor = members
        .iter()
        .filter(|&&j| j < i)
        .fold(0u64, |x, &j| x ^ (j << 35));
    let last = *members.last().expect("i is a member");
    let mul = members
        .iter()
        .map(|&j| if j % 3 == 0 { -2i64 } else { 1 })
        .fold(1i64, i64::wrapping_mul) as u64;
    let mut out = [0; 12];
    for (k, x) in [add, min, xor, last << 32, !members[0], mul]
        .into_iter()
        .enumerate()
    {
        out[2 * k] = x as u32;
        out[2 * k + 1] = (x >> 32) as u32;
    }
    out
}

#[test]
fn int64_reductions_and_scans_give_the_spec_s_answers() {
    assert_linked_agree(
        "64-bit integer arithmetic",
        (INT64, "int64.comp"),
        [Target::GlslNoSubgroup, Target::Glsl],
        64,
        expected_int64,
    );
}
