//! A GLSL shader whose workgroup size the pipeline specialises
//! (`layout(local_size_x_id = 0, local_size_x = 64) in;`, ggml's usual
//! form), linked for `glsl-no-subgroup` at virtual sizes 4 to 32 and run
//! on the Vulkan adapter at several workgroup sizes.
//!
//! The emulation sizes its exchange memory, and finds its ragged last
//! subgroup, from `gl_WorkGroupSize`, so one linked text serves every size
//! the pipeline gives. The runner takes a module's default sizes, so each
//! size is given as the default of the linked text's layout line: what a
//! specialisation constant does to `gl_WorkGroupSize`.
//!
//! Invocations below `min(45, size)` write the count of even invocations
//! among their virtual subgroup's active members (a ballot), the sum of
//! their indices (`subgroupAdd`), and `gl_NumSubgroups`; the others return
//! first. The hardware `glsl` target runs the default size too.
//!
//! The same shader with a literal size of 512 or 1,024 invocations, past
//! WebGPU's 256 but within Vulkan's usual limit, links for
//! `glsl-no-subgroup` and runs too.
//!
//! Without an adapter the tests say why and pass, unless
//! `BALLOT_REQUIRE_GPU=1`.

use ballot_naga::link::{link, LinkOptions};
use ballot_runner::job::UNWRITTEN;
use ballot_runner::Gpu;
use ballot_shader::back::Target;

use crate::common::{loud, required, skip};

const GLSL: &str = "#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x_id = 0, local_size_x = 64) in;
layout(constant_id = 0) const uint BLOCK = 64;
layout(std430, binding = 0) buffer Out { uint words[]; };
void main() {
    uint i = gl_LocalInvocationIndex;
    if (i >= 45u) { return; }
    uint even = subgroupBallotBitCount(subgroupBallot((i & 1u) == 0u));
    uint sum = subgroupAdd(i);
    words[i * 3u] = even;
    words[i * 3u + 1u] = sum;
    words[i * 3u + 2u] = gl_NumSubgroups;
}
";

/// The layout line, whose default size each run replaces.
const LAYOUT: &str = "layout(local_size_x_id = 0, local_size_x = 64) in;";

/// The words invocation `i` writes in a workgroup of `size` in subgroups
/// of `v` (module docs); those past the workgroup, none. The WGSL shader
/// of [`super::overridden`] writes the same.
pub(crate) fn expected(i: u32, v: u32, size: u32) -> [u32; 3] {
    if i >= 45 || i >= size {
        return [UNWRITTEN; 3];
    }
    let base = i - i % v;
    let members: Vec<u32> = (base..base + v).filter(|&j| j < 45 && j < size).collect();
    let even = members.iter().filter(|&&j| j % 2 == 0).count() as u32;
    [even, members.iter().sum(), size.div_ceil(v)]
}

#[test]
fn one_linked_text_serves_every_workgroup_size_the_pipeline_gives() {
    let gpu = match Gpu::new() {
        Ok(gpu) => gpu,
        Err(e) => return skip("specialised workgroup", &e.to_string()),
    };
    let mut runs: Vec<(Target, u32, u32)> = Vec::new();
    if gpu.unsupported(Target::GlslNoSubgroup).is_none() {
        for v in [4, 8, 16, 32] {
            // Whole subgroups, a ragged last one, and fewer invocations
            // than the default, down to fewer than one virtual subgroup.
            for size in [64, 40, 37, 32, 16, 5] {
                runs.push((Target::GlslNoSubgroup, v, size));
            }
        }
    }
    let info = gpu.info();
    if gpu.unsupported(Target::Glsl).is_none() && info.subgroup_min_size == info.subgroup_max_size {
        runs.push((Target::Glsl, info.subgroup_min_size, 64));
    }
    if runs.is_empty() {
        if required() {
            panic!("specialised workgroup: no GLSL target runs on this adapter");
        }
        loud("specialised workgroup: no GLSL target runs on this adapter: skipped");
        return;
    }
    let mut failures = Vec::new();
    for (target, v, size) in runs {
        let linked = linked_for_the_pipeline((GLSL, "specialised.comp"), LAYOUT, target, v);
        let text = linked.replace(
            LAYOUT,
            &format!("layout(local_size_x_id = 0, local_size_x = {size}) in;"),
        );
        failures.extend(run(&gpu, target, &text, v, size));
    }
    assert_none(&failures);
}

/// `shader` (and its path) linked for `target` at subgroup size `v`,
/// where the pipeline gives the workgroup size: the linker says it sized
/// the emulation for none, and `declaration`, the shader's line that
/// gives the size, is kept.
pub(crate) fn linked_for_the_pipeline(
    (shader, path): (&str, &str),
    declaration: &str,
    target: Target,
    v: u32,
) -> String {
    let linked = link(
        shader,
        path,
        target,
        &LinkOptions::default().subgroup_size(v),
    )
    .unwrap_or_else(|e| panic!("{target}, size {v}: {e}"));
    assert_eq!(
        linked.workgroup_size, None,
        "{target}: the size is the pipeline's"
    );
    assert!(
        linked.text.contains(declaration),
        "{target}: `{declaration}` is kept"
    );
    linked.text
}

/// Runs `text`, linked for `target` at subgroup size `v`, in one
/// workgroup of `size`: [`mismatches`].
fn run(gpu: &Gpu, target: Target, text: &str, v: u32, size: u32) -> Vec<String> {
    let got = gpu
        .run_storage(target, text, [size, 1, 1], [1, 1, 1], 64 * 3)
        .unwrap_or_else(|e| panic!("{target}, size {v}, workgroup {size}: {e}"));
    mismatches("wgpu", (target, v, size), &got)
}

/// The words of the first 64 invocations, run `on` a driver for
/// `target` at subgroup size `v` in a workgroup of `size`, against
/// [`expected`]: one line for each that differs.
pub(crate) fn mismatches(
    on: &str,
    (target, v, size): (Target, u32, u32),
    got: &[u32],
) -> Vec<String> {
    (0..64)
        .filter_map(|i| {
            let at = i as usize * 3;
            let want = expected(i, v, size);
            (got[at..at + 3] != want).then(|| {
                format!(
                    "{on}: {target}, size {v}, workgroup {size}, invocation {i}: \
                     expected {want:?}, got {:?}",
                    &got[at..at + 3]
                )
            })
        })
        .collect()
}

pub(crate) fn assert_none(failures: &[String]) {
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures[..failures.len().min(20)].join("\n")
    );
}

#[test]
fn workgroups_of_512_and_1024_invocations_link_for_glsl_without_subgroups() {
    let gpu = match Gpu::new() {
        Ok(gpu) => gpu,
        Err(e) => return skip("large workgroups", &e.to_string()),
    };
    if let Some(why) = gpu.unsupported(Target::GlslNoSubgroup) {
        if required() {
            panic!("large workgroups: {why}");
        }
        loud(&format!("large workgroups: skipped: {why}"));
        return;
    }
    let mut failures = Vec::new();
    for size in [512, 1024] {
        let text = GLSL.replace(LAYOUT, &format!("layout(local_size_x = {size}) in;"));
        for v in [8, 32] {
            let linked = link(
                &text,
                "large.comp",
                Target::GlslNoSubgroup,
                &LinkOptions::default().subgroup_size(v),
            )
            .unwrap_or_else(|e| panic!("workgroup {size}, size {v}: {e}"));
            assert_eq!(linked.workgroup_size, Some([size, 1, 1]));
            failures.extend(run(&gpu, Target::GlslNoSubgroup, &linked.text, v, size));
        }
    }
    assert_none(&failures);
}
