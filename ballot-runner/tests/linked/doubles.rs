//! `double` arithmetic collectives (GL_KHR_shader_subgroup_arithmetic's
//! `genDType`) in a hand-written shader linked for `glsl-no-subgroup` at
//! virtual sizes 4 to 32 (and for `glsl` at the adapter's size) and run
//! on the Vulkan adapter: CFD and scientific shaders reduce `double`s.
//!
//! Invocations 45 and up return first, so the last subgroups that run are
//! partly active. The others write, as two words each (`unpackDouble2x32`):
//! `subgroupAdd(i + 0.5)`, `subgroupInclusiveMul` of 2 on multiples of 4
//! and 1 elsewhere, `subgroupExclusiveMin(50 - i)` (+infinity in the
//! first active lane, the identity over no lane) and `subgroupMax` of
//! `dvec2(i + 0.5, -(i + 0.5))`. Every value and result is exact in a
//! `double`, so the answer is the spec's whatever the order of the sums.
//!
//! Without an adapter the test says why and passes, unless
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
