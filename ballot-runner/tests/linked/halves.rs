//! 16-bit arithmetic collectives: f16 in WGSL (`enable f16;`), linked for
//! `wgsl-no-subgroup`, and `float16_t`, `int16_t` and `uint16_t` in GLSL,
//! linked for `glsl-no-subgroup`, at virtual sizes 4 to 32 (and for the
//! hardware target at the adapter's size, where it takes them), run on
//! the Vulkan adapter: inference shaders reduce f16 values, and browsers
//! without subgroups need the fallback.
//!
//! Invocations 45 and up return first, so the last subgroups that run are
//! partly active. The others write, as f32 bits: `subgroupAdd(x)`,
//! `subgroupExclusiveAdd(x)`, `subgroupInclusiveMul` of 2 on multiples of
//! 4 and 1 elsewhere, and the second component of
//! `subgroupMax(vec2<f16>(x, -x))`, with `x = (i + 1) / 4`. Every value
//! and partial result is exact in f16, so the answer is the spec's
//! whatever the order of the steps. The GLSL shader writes the same, and
//! an inclusive minimum, an exclusive xor of a `u16vec2` with bits past
//! the eighth, and a product of 16-bit integers.
//!
//! Without an adapter, or where it lacks f16, the test says why and
//! passes, unless `BALLOT_REQUIRE_GPU=1`.

use ballot_runner::job::UNWRITTEN;
use ballot_shader::back::Target;

use crate::common::assert_linked_agree;

const WGSL: &str = "enable f16;
@group(0) @binding(0) var<storage, read_write> words: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32) {
    if (i >= 45u) { return; }
    let x = f16(i + 1u) * 0.25h;
    words[i * 4u] = bitcast<u32>(f32(subgroupAdd(x)));
    words[i * 4u + 1u] = bitcast<u32>(f32(subgroupExclusiveAdd(x)));
    words[i * 4u + 2u] = bitcast<u32>(f32(subgroupInclusiveMul(select(1.0h, 2.0h, i % 4u == 0u))));
    words[i * 4u + 3u] = bitcast<u32>(f32(subgroupMax(vec2<f16>(x, -x)).y));
}
";

/// The four words invocation `i` writes in subgroups of `v` (module docs).
fn expected(i: u32, v: u32) -> [u32; 4] {
    if i >= 45 {
        return [UNWRITTEN; 4];
    }
    let base = i - i % v;
    let members: Vec<u32> = (base..base + v).filter(|&j| j < 45).collect();
    let x = |j: u32| (j + 1) as f32 * 0.25;
    // From FAdd's identity, +0.0 (Rust's `sum` starts from -0.0): the
    // first lane's exclusive sum is +0.0.
    let add = members.iter().fold(0.0f32, |s, &j| s + x(j));
    let exclusive = members
        .iter()
        .filter(|&&j| j < i)
        .fold(0.0f32, |s, &j| s + x(j));
    let mul: f32 = members
        .iter()
        .filter(|&&j| j <= i && j % 4 == 0)
        .map(|_| 2.0)
        .product();
    [add, exclusive, mul, -x(base)].map(f32::to_bits)
}

#[test]
fn f16_reductions_and_scans_give_the_spec_s_answers() {
    assert_linked_agree(
        "f16 arithmetic",
        (WGSL, "halves.wgsl"),
        [Target::WgslNoSubgroup, Target::Wgsl],
        64,
        expected,
    );
}

const GLSL: &str = "#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_subgroup_extended_types_float16 : require
#extension GL_EXT_shader_subgroup_extended_types_int16 : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Out { uint words[]; };
void main() {
    uint i = gl_LocalInvocationIndex;
    if (i >= 45u) { return; }
    float16_t x = float16_t(i + 1u) * float16_t(0.25);
    words[i * 7u] = floatBitsToUint(float(subgroupAdd(x)));
    words[i * 7u + 1u] = floatBitsToUint(float(subgroupExclusiveAdd(x)));
    words[i * 7u + 2u] = floatBitsToUint(float(subgroupMax(f16vec2(x, -x)).y));
    words[i * 7u + 3u] = uint(int(subgroupInclusiveMin(int16_t((i * 7u) % 11u) - int16_t(5))));
    u16vec2 q = subgroupExclusiveXor(u16vec2(uint16_t(i << 10u), uint16_t(3u)));
    words[i * 7u + 4u] = uint(q.x);
    words[i * 7u + 5u] = uint(q.y);
    words[i * 7u + 6u] = uint(int(subgroupMul(int16_t(i % 3u == 0u ? -2 : 1))));
}
";

/// The seven words invocation `i` writes in subgroups of `v`: the f16
/// results as f32 bits, the 16-bit integers' as 32-bit words (sign
/// extended for `int16_t`), from the spec.
fn expected_glsl(i: u32, v: u32) -> [u32; 7] {
    if i >= 45 {
        return [UNWRITTEN; 7];
    }
    let base = i - i % v;
    let members: Vec<u32> = (base..base + v).filter(|&j| j < 45).collect();
    let [add, exclusive, _, max_neg] = expected(i, v);
    let min = members
        .iter()
        .filter(|&&j| j <= i)
        .map(|&j| ((j * 7) % 11) as i32 - 5)
        .min()
        .expect("i is a member");
    let xor = members
        .iter()
        .filter(|&&j| j < i)
        .fold((0u32, 0u32), |(a, b), &j| (a ^ (j << 10), b ^ 3));
    let mul = members
        .iter()
        .map(|&j| if j % 3 == 0 { -2i32 } else { 1 })
        .product::<i32>();
    [
        add, exclusive, max_neg, min as u32, xor.0, xor.1, mul as u32,
    ]
}

#[test]
fn glsl_16_bit_reductions_and_scans_give_the_spec_s_answers() {
    assert_linked_agree(
        "16-bit arithmetic (GLSL)",
        (GLSL, "halves.comp"),
        [Target::GlslNoSubgroup, Target::Glsl],
        64,
        expected_glsl,
    );
}
