//! A broadcast of a GLSL global inside a branch (dxvk's `dxvk_mipgen`
//! broadcasts a file-scope variable so), linked for `glsl-no-subgroup` at
//! virtual sizes 4 to 32 (and for `glsl` at the adapter's size) and run on
//! the Vulkan adapter. The if-conversion declares the broadcast's value
//! where not every invocation runs it, and takes its type from glslang,
//! as a global is declared where the pass does not look.
//!
//! Invocations 45 and up return first. The even ones broadcast the
//! global from lane 0 of their subgroup (an even index, so active: the
//! subgroups start at multiples of 4); the odd ones take the first active
//! lane's, the lowest odd index of their subgroup. `g` is `3i + 1`.
//!
//! The same with `main` marked `[[subgroup_uniform_control_flow]]`
//! (GL_EXT_subgroup_uniform_control_flow, as dxvk's mipgen marks it) and
//! the odd arm in a function of its own: the emulation drops the
//! attribute and its extension, which ask the device for subgroups, and
//! still reads `main` as the function it converts.

use ballot_naga::link::LinkOptions;
use ballot_runner::job::UNWRITTEN;
use ballot_runner::Gpu;
use ballot_shader::back::Target;

use crate::common::{assert_linked_agree, linked_mismatches, skip};

const GLSL: &str = "#version 450
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Out { uint words[]; };
uint g;
uvec2 pair;
void main() {
    uint i = gl_LocalInvocationIndex;
    g = i * 3u + 1u;
    pair = uvec2(i, g);
    if (i >= 45u) { return; }
    if (i % 2u == 0u) {
        words[i * 2u] = subgroupBroadcast(g, 0u);
        words[i * 2u + 1u] = subgroupBroadcast(pair, 0u).y;
    } else {
        words[i * 2u] = subgroupBroadcastFirst(g);
        words[i * 2u + 1u] = subgroupBroadcastFirst(pair).x;
    }
}
";

/// The two words invocation `i` writes in subgroups of `v` (module docs).
fn expected(i: u32, v: u32) -> [u32; 2] {
    if i >= 45 {
        return [UNWRITTEN; 2];
    }
    let base = i - i % v;
    let g = |j: u32| j * 3 + 1;
    if i.is_multiple_of(2) {
        [g(base), g(base)]
    } else {
        [g(base + 1), base + 1]
    }
}

#[test]
fn a_global_broadcast_in_a_branch_gives_the_spec_s_lane() {
    assert_linked_agree(
        "a global's broadcast",
        (GLSL, "globals.comp"),
        [Target::GlslNoSubgroup, Target::Glsl],
        64,
        expected,
    );
}

#[test]
fn main_s_uniform_control_flow_attribute_goes_with_the_subgroups() {
    let marked = GLSL
        .replace(
            "#extension GL_KHR_shader_subgroup_ballot : require\n",
            "#extension GL_KHR_shader_subgroup_ballot : require\n\
             #extension GL_EXT_subgroup_uniform_control_flow : enable\n",
        )
        .replace(
            "void main() {",
            "void odd(uint i) {\n    words[i * 2u] = subgroupBroadcastFirst(g);\n    \
             words[i * 2u + 1u] = subgroupBroadcastFirst(pair).x;\n}\n\
             void main() [[subgroup_uniform_control_flow]] {",
        )
        .replace(
            "    } else {\n        words[i * 2u] = subgroupBroadcastFirst(g);\n        \
             words[i * 2u + 1u] = subgroupBroadcastFirst(pair).x;\n    }",
            "    } else {\n        odd(i);\n    }",
        );
    assert!(marked.contains("odd(i);") && marked.contains("[[subgroup_uniform"));
    let gpu = match Gpu::new() {
        Ok(gpu) => gpu,
        Err(e) => return skip("main's attribute", &e.to_string()),
    };
    let failures = linked_mismatches(
        &gpu,
        (&marked, "marked.comp"),
        &[4, 8, 16, 32],
        |v| LinkOptions::default().subgroup_size(v),
        64,
        expected,
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
