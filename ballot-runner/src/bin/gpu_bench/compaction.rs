//! Ordered stream compaction: keep the `u32`s below a threshold, in order,
//! as `torch.masked_select` does, in one pass with decoupled look-back.

use std::borrow::Cow;

use ballot::prelude::*;
use ballot_runner::Gpu;

use crate::timing::{self, fill, grid, ratios};
use crate::{compaction_step, shader_text, RATIO_HEADERS, REPEATS, VARIANTS};

/// Elements per invocation per tile, for subgroups of `subgroup`: 16, or
/// fewer where the subgroups are so small that the tile's subgroup counts
/// (one per item per subgroup) would outnumber the workgroup's invocations,
/// which scan them one each.
fn items(subgroup: u32) -> u32 {
    16.min(subgroup)
}

const GLSL: &str = include_str!("compact.glsl");
const WGSL: &str = include_str!("compact.wgsl");

/// The compaction shader for `target`, its tile layout built on subgroups
/// (real or virtual) of `subgroup` lanes.
pub fn shader(target: Target, subgroup: u32) -> Result<String, String> {
    let text = shader_text(target, Form::Helpers, &compaction_step::kernels(), subgroup)?;
    let emulated = !target.has_subgroups();
    let (template, init, builtins) = match (target, emulated) {
        (Target::Glsl, _) => (GLSL, "", ""),
        (Target::GlslNoSubgroup, _) => (GLSL, "ballot_init(gl_LocalInvocationIndex);", ""),
        (_, false) => (
            WGSL,
            "ballot_init(ballot_lane_id, ballot_lanes);",
            ", @builtin(subgroup_invocation_id) ballot_lane_id: u32, \
             @builtin(subgroup_size) ballot_lanes: u32",
        ),
        (_, true) => (WGSL, "ballot_init(lid);", ""),
    };
    Ok(fill(
        template,
        &[
            ("HELPERS", Cow::Owned(text)),
            ("INIT", Cow::Borrowed(init)),
            ("BUILTINS", Cow::Borrowed(builtins)),
            ("ITEMS", Cow::Owned(items(subgroup).to_string())),
            ("SUBGROUP", Cow::Owned(subgroup.to_string())),
        ],
    ))
}

/// Times every target at every size and selectivity, next to a device copy.
pub fn run(gpu: &Gpu, subgroup: u32, quick: bool) -> Result<(), String> {
    let sizes: &[u32] = if quick { &[10, 16] } else { &[20, 24, 28] };
    let mut pipelines = Vec::new();
    for (target, checks) in VARIANTS {
        let text = shader(target, subgroup)?;
        let read_only = [true, false, false, true];
        pipelines.push(timing::Kernel::with_checks(
            gpu, target, "compact", &text, &read_only, checks,
        )?);
    }
    let copy = timing::Kernel::new(gpu, Target::Wgsl, "copy", timing::COPY_WGSL, &[true, false])?;
    println!("## Ordered stream compaction (u32, keep x < threshold)\n");
    println!("| n | kept | copy (ms) | glsl (ms) | glsl, of copy speed | {RATIO_HEADERS} |");
    println!("|---|---|---|---|---|---|---|---|---|");
    for &log in sizes {
        let n = 1u32 << log;
        // A fixed xorshift stream, the same for every run.
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let xs: Vec<u32> = (0..n)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                (state >> 32) as u32
            })
            .collect();
        let input = timing::storage(gpu, "xs", xs.len());
        gpu.queue().write_buffer(&input, 0, timing::bytes(&xs));
        let output = timing::storage(gpu, "ys", n as usize);
        let tiles = n.div_ceil(256 * items(subgroup));
        let status = timing::storage(gpu, "status", tiles as usize + 1);
        let copy_group = copy.bind(gpu, &[&input, &output]);
        let copy_ms = timing::time(gpu, &copy, &copy_group, grid(n / 4 / 256), REPEATS, &|_| {});
        for percent in [50u64, 5] {
            let threshold = ((1u64 << 32) * percent / 100) as u32;
            let expected: Vec<u32> = xs.iter().copied().filter(|&x| x < threshold).collect();
            let params = timing::upload(gpu, "params", &[n, threshold, tiles]);
            let mut times = Vec::new();
            for ((target, _), pipeline) in VARIANTS.iter().zip(&pipelines) {
                let group = pipeline.bind(gpu, &[&input, &output, &status, &params]);
                let reset = |encoder: &mut wgpu::CommandEncoder| {
                    encoder.clear_buffer(&status, 0, None);
                };
                let ms = timing::time(gpu, pipeline, &group, grid(tiles), REPEATS, &reset);
                let got = timing::download(gpu, &output, expected.len());
                if got != expected {
                    let first = got.iter().zip(&expected).position(|(a, b)| a != b);
                    return Err(format!(
                        "compaction on {target}, n = 2^{log}, {percent}%: wrong output \
                         (first difference at {first:?} of {})",
                        expected.len()
                    ));
                }
                let last = timing::download(gpu, &status, tiles as usize + 1)[tiles as usize];
                if last & ((1 << 30) - 1) != expected.len() as u32 {
                    return Err(format!(
                        "compaction on {target}, n = 2^{log}, {percent}%: the last tile's \
                         prefix is {last:#x}, not {}",
                        expected.len()
                    ));
                }
                times.push(ms);
            }
            let base = times[0];
            println!(
                "| 2^{log} | {percent}% | {copy_ms:.3} | {base:.3} | {:.2} | {} |",
                copy_ms / base,
                ratios(&times)
            );
        }
    }
    println!();
    Ok(())
}

/// The device copy alone at every size from 2^20 to 2^28: where the
/// bandwidth limit itself changes with size.
pub fn copy_sweep(gpu: &Gpu) -> Result<(), String> {
    let copy = timing::Kernel::new(gpu, Target::Wgsl, "copy", timing::COPY_WGSL, &[true, false])?;
    println!("## Device copy (read + write)\n");
    println!("| n (u32) | copy (ms) | TB/s |");
    println!("|---|---|---|");
    for log in 20..=28u32 {
        let n = 1usize << log;
        let input = timing::storage(gpu, "src", n);
        let output = timing::storage(gpu, "dst", n);
        let group = copy.bind(gpu, &[&input, &output]);
        let ms = timing::time(
            gpu,
            &copy,
            &group,
            grid((n / 4 / 256) as u32),
            REPEATS,
            &|_| {},
        );
        println!("| 2^{log} | {ms:.3} | {:.2} |", (8 * n) as f64 / ms / 1e9);
    }
    println!();
    Ok(())
}
