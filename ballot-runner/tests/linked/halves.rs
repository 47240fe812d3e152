//! f16 arithmetic collectives (WGSL's `enable f16;`) in a hand-written
//! shader linked for `wgsl-no-subgroup` at virtual sizes 4 to 32 (and for
//! `wgsl` at the adapter's size, where it takes f16) and run on the Vulkan
//! adapter: WebGPU inference shaders reduce f16 values, and browsers
//! without subgroups need the fallback.
//!
//! Invocations 45 and up return first, so the last subgroups that run are
//! partly active. The others write, as f32 bits: `subgroupAdd(x)`,
//! `subgroupExclusiveAdd(x)`, `subgroupInclusiveMul` of 2 on multiples of
//! 4 and 1 elsewhere, and the second component of
//! `subgroupMax(vec2<f16>(x, -x))`, with `x = (i + 1) / 4`. Every value
//! and partial result is exact in f16, so the answer is the spec's
//! whatever the order of the steps.
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
