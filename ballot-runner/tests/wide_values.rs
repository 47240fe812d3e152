//! `glsl-no-subgroup` moves values of 16 and 64 bits (`double`, `int64_t`,
//! `uint16_t`, `f16vec2`) through its 32-bit exchange words (issue 28:
//! broadcasts and shuffles of every scalar and vector type). A shader
//! written for hardware subgroups is linked at virtual sizes 4 to 32 and
//! run on the Vulkan adapter; every word is checked against the spec:
//!
//! - `subgroupBroadcastFirst` gives the lowest active lane's value, the
//!   subgroup's first (virtual subgroup k holds local indices
//!   [k·V, (k+1)·V), and every invocation below 60 is active);
//! - `subgroupShuffleXor(v, 1)` lane own ^ 1's, `subgroupQuadSwapDiagonal`
//!   lane own ^ 3's, `subgroupBroadcast(v, 1)` lane 1's, all active since
//!   60 is a multiple of 4;
//! - `subgroupAllEqual` compares as the type's `==` does: 0.0 and -0.0 are
//!   equal, two different doubles are not.
//!
//! Without an adapter with `SHADER_F64`, `SHADER_INT64`, `SHADER_I16` and
//! `SHADER_F16`, or without glslang, the test says why and passes, unless
//! `BALLOT_REQUIRE_GPU=1`.

use ballot_naga::link::LinkOptions;
use ballot_runner::job::UNWRITTEN;
use ballot_runner::Gpu;
use ballot_shader::back::Target;

mod common;

use common::{linked_mismatches, loud, required, skip};

const SHADER: &str = "#version 450
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_quad : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_subgroup_extended_types_int64 : require
#extension GL_EXT_shader_subgroup_extended_types_int16 : require
#extension GL_EXT_shader_subgroup_extended_types_float16 : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Out { uint words[]; };
void main() {
    uint i = gl_LocalInvocationIndex;
    if (i >= 60u) { return; }
    uint at = i * 8u;
    double first = subgroupBroadcastFirst(double(i) * 0.5 + 1.0e10);
    uvec2 d = unpackDouble2x32(first);
    int64_t x = subgroupShuffleXor(int64_t(i) * -3000000000l, 1u);
    uint16_t q = subgroupQuadSwapDiagonal(uint16_t(i * 1000u));
    f16vec2 h = subgroupBroadcast(f16vec2(float16_t(i), float16_t(-0.5)), 1u);
    bool zero = subgroupAllEqual((i % 2u == 0u) ? 0.0lf : -0.0lf);
    bool same = subgroupAllEqual(dvec2(double(i), 1.0));
    words[at] = d.x;
    words[at + 1u] = d.y;
    words[at + 2u] = uint(x);
    words[at + 3u] = uint(uint64_t(x) >> 32u);
    words[at + 4u] = uint(q);
    words[at + 5u] = uint(h.x);
    words[at + 6u] = floatBitsToUint(float(h.y));
    words[at + 7u] = uint(zero) | (uint(same) << 1u);
}
";

const INVOCATIONS: u32 = 64;
const ACTIVE: u32 = 60;
const WORDS: u32 = 8;

/// The words invocation `i` writes at virtual subgroup size `v`, from the
/// spec (module docs).
fn expected(i: u32, v: u32) -> [u32; WORDS as usize] {
    if i >= ACTIVE {
        return [UNWRITTEN; WORDS as usize];
    }
    let base = i / v * v;
    let first = (f64::from(base) * 0.5 + 1.0e10).to_bits();
    let x = (i64::from(i ^ 1) * -3_000_000_000i64) as u64;
    [
        first as u32,
        (first >> 32) as u32,
        x as u32,
        (x >> 32) as u32,
        ((i ^ 3) * 1000) & 0xFFFF,
        base + 1,
        (-0.5f32).to_bits(),
        1,
    ]
}

#[test]
fn values_of_16_and_64_bits_move_exactly_on_glsl_no_subgroup() {
    let gpu = match Gpu::new() {
        Ok(gpu) => gpu,
        Err(e) => return skip("16- and 64-bit moves", &e.to_string()),
    };
    let wanted = wgpu::Features::SHADER_F64
        | wgpu::Features::SHADER_INT64
        | wgpu::Features::SHADER_I16
        | wgpu::Features::SHADER_F16;
    let lacking = wanted - gpu.device().features();
    if !lacking.is_empty() {
        return skip(
            &format!("16- and 64-bit moves on {}", gpu.describe()),
            &format!("the device lacks {lacking:?}"),
        );
    }
    if let Some(why) = gpu.unsupported(Target::GlslNoSubgroup) {
        return skip("16- and 64-bit moves", &why);
    }
    if !ballot_testkit::have_tools("16- and 64-bit moves", &[ballot_testkit::GLSLANG]) {
        assert!(!required(), "glslang is required");
        return;
    }
    loud(&format!("16- and 64-bit moves on {}", gpu.describe()));
    let failures = linked_mismatches(
        &gpu,
        (SHADER, "wide.comp"),
        &[4, 8, 16, 32],
        |v| LinkOptions::default().subgroup_size(v),
        INVOCATIONS,
        expected,
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
