//! Ordered stream compaction: keep the `u32`s below a threshold, in order,
//! as `torch.masked_select` does, in one pass with decoupled look-back.

use std::borrow::Cow;

use ballot::prelude::*;
use ballot_runner::Gpu;

use crate::timing::{self, fill, grid, ratios};
use crate::{compaction_step, shader_text, RATIO_HEADERS, REPEATS, VARIANTS};

/// `uvec4` loads per invocation per tile, for subgroups of `subgroup`: 8
/// (32 elements), or fewer where the subgroups are so small that the tile's
/// counts (one per load per subgroup) would outnumber the workgroup's
/// invocations, which scan them one each.
fn loads(subgroup: u32) -> u32 {
    8.min(subgroup)
}

/// Elements per tile with `loads` loads per invocation.
fn tile(loads: u32) -> u32 {
    256 * 4 * loads
}

const GLSL: &str = include_str!("compact.glsl");
const WGSL: &str = include_str!("compact.wgsl");

/// The compaction shader for `target`, its tile layout built on subgroups
/// (real or virtual) of `subgroup` lanes.
pub fn shader(target: Target, subgroup: u32) -> Result<String, String> {
    shader_with(target, subgroup, loads(subgroup), "")
}

/// [`shader`] with `loads` loads per invocation and, for GLSL, `defines`.
fn shader_with(target: Target, subgroup: u32, loads: u32, defines: &str) -> Result<String, String> {
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
            ("DEFINES", Cow::Borrowed(defines)),
            ("HELPERS", Cow::Owned(text)),
            ("INIT", Cow::Borrowed(init)),
            ("BUILTINS", Cow::Borrowed(builtins)),
            ("LOADS", Cow::Owned(loads.to_string())),
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
        let xs = random_words(n);
        let input = upload_input(gpu, &xs);
        let output = timing::storage(gpu, "ys", n as usize);
        let tiles = n.div_ceil(tile(loads(subgroup)));
        let status = timing::storage(gpu, "status", tiles as usize + 1);
        let copy_group = copy.bind(gpu, &[&input, &output]);
        let copy_ms =
            timing::time(gpu, &copy, &copy_group, grid(n / 4 / 256), REPEATS, &|_| {}).median;
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
                let ms = timing::time(gpu, pipeline, &group, grid(tiles), REPEATS, &reset).median;
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
        )
        .median;
        println!("| 2^{log} | {ms:.3} | {:.2} |", (8 * n) as f64 / ms / 1e9);
    }
    println!();
    Ok(())
}

/// One way to compact: the shader, its tile, and whether its output is the
/// compaction (an ablation's is not).
struct Design {
    name: String,
    kernel: timing::Kernel,
    tile: u32,
    checked: bool,
}

/// Where the time of the `glsl` compaction goes: variants that leave a
/// stage out or do it differently, side by side in one run.
pub fn probe(gpu: &Gpu, subgroup: u32, quick: bool) -> Result<(), String> {
    let read_only = [true, false, false, true];
    let mut designs = Vec::new();
    let chosen = loads(subgroup);
    for (loads, defines, what, checked) in [
        (chosen, "", "as benchmarked", true),
        (chosen / 2, "", "half the loads per invocation", true),
        (
            chosen,
            "#define ATOMIC_LOOK",
            "look-back reads by atomics",
            true,
        ),
        (
            chosen,
            "#define NO_LOOKBACK",
            "no look-back (wrong output)",
            false,
        ),
        (chosen, "", "as benchmarked, again", true),
    ] {
        if loads == 0 {
            continue;
        }
        let text = shader_with(Target::Glsl, subgroup, loads, defines)?;
        let name = format!("{loads} loads, {what}");
        designs.push(Design {
            kernel: timing::Kernel::new(gpu, Target::Glsl, &name, &text, &read_only)?,
            name,
            tile: tile(loads),
            checked,
        });
    }
    // The `wgsl` form without runtime checks, as benchmarked and with the
    // two kernels' ballot masks reduced to what a subgroup ballot needs:
    // the lanes below, computed once per invocation.
    let wgsl = shader(Target::Wgsl, subgroup)?;
    let reduced = wgsl
        .replace("compaction_slot(keep)", "reduced_slot(keep)")
        .replace("kept_in_subgroup(keep)", "reduced_count(keep)")
        .replace(
            "ballot_init(ballot_lane_id, ballot_lanes);",
            "ballot_init(ballot_lane_id, ballot_lanes);\n    reduced_lt = ballot_lt_mask();",
        )
        + REDUCED_WGSL;
    for (what, text) in [
        ("wgsl unchecked", wgsl),
        ("wgsl unchecked, masks once", reduced),
    ] {
        designs.push(Design {
            kernel: timing::Kernel::with_checks(gpu, Target::Wgsl, what, &text, &read_only, false)?,
            name: format!("{chosen} loads, {what}"),
            tile: tile(chosen),
            checked: true,
        });
    }
    let copy = timing::Kernel::new(gpu, Target::Wgsl, "copy", timing::COPY_WGSL, &[true, false])?;
    let sizes: &[u32] = if quick { &[16] } else { &[28, 24] };
    println!("## Compaction probe (glsl unless named; ms: median, min, max of {REPEATS})\n");
    println!("| n | kept | variant | median | min | max | of copy speed |");
    println!("|---|---|---|---|---|---|---|");
    for &log in sizes {
        let n = 1u32 << log;
        let xs = random_words(n);
        let input = upload_input(gpu, &xs);
        let output = timing::storage(gpu, "ys", n as usize);
        let most = designs
            .iter()
            .map(|d| n.div_ceil(d.tile))
            .max()
            .unwrap_or(1);
        let status = timing::storage(gpu, "status", most as usize + 1);
        let copy_group = copy.bind(gpu, &[&input, &output]);
        let copy_grid = grid(n / 4 / 256);
        let copy_ms = timing::time(gpu, &copy, &copy_group, copy_grid, REPEATS, &|_| {});
        let row = |percent: u64, name: &str, t: timing::Times| {
            println!(
                "| 2^{log} | {percent}% | {name} | {:.3} | {:.3} | {:.3} | {:.2} |",
                t.median,
                t.min,
                t.max,
                copy_ms.median / t.median
            );
        };
        row(100, "copy", copy_ms);
        for percent in [50u64, 5] {
            let threshold = ((1u64 << 32) * percent / 100) as u32;
            let expected: Vec<u32> = xs.iter().copied().filter(|&x| x < threshold).collect();
            for design in &designs {
                let tiles = n.div_ceil(design.tile);
                let params = timing::upload(gpu, "params", &[n, threshold, tiles]);
                let group = design
                    .kernel
                    .bind(gpu, &[&input, &output, &status, &params]);
                let reset = |encoder: &mut wgpu::CommandEncoder| {
                    encoder.clear_buffer(&status, 0, None);
                };
                let t = timing::time(gpu, &design.kernel, &group, grid(tiles), REPEATS, &reset);
                if design.checked && timing::download(gpu, &output, expected.len()) != expected {
                    return Err(format!(
                        "{}, n = 2^{log}, {percent}%: wrong output",
                        design.name
                    ));
                }
                row(percent, &design.name, t);
            }
        }
        row(
            100,
            "copy, again",
            timing::time(gpu, &copy, &copy_group, copy_grid, REPEATS, &|_| {}),
        );
    }
    println!();
    Ok(())
}

/// The input buffer holding `xs`, in whole `uvec4`s: the shader reads it
/// four words at a time.
fn upload_input(gpu: &Gpu, xs: &[u32]) -> wgpu::Buffer {
    let input = timing::storage(gpu, "xs", xs.len().next_multiple_of(4));
    gpu.queue().write_buffer(&input, 0, timing::bytes(xs));
    input
}

/// The probe's stand-ins for the two kernels in WGSL: a subgroup ballot has
/// no bits at or above the subgroup size, and the lanes below this one are
/// computed once, in `main`.
const REDUCED_WGSL: &str = "
var<private> reduced_lt: vec4<u32>;
fn reduced_slot(keep: bool) -> u32 {
    let c = countOneBits(subgroupBallot(keep) & reduced_lt);
    return (c.x + c.y) + (c.z + c.w);
}
fn reduced_count(keep: bool) -> u32 {
    let c = countOneBits(subgroupBallot(keep));
    return (c.x + c.y) + (c.z + c.w);
}
";

/// `n` words of a fixed xorshift stream, the same for every run.
fn random_words(n: u32) -> Vec<u32> {
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    (0..n)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 32) as u32
        })
        .collect()
}
