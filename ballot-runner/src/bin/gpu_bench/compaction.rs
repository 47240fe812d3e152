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
            ("DEFINES", Cow::Borrowed("")),
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
        let xs = random_words(n);
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

const GLSL4: &str = include_str!("compact4.glsl");
const SCAN: &str = include_str!("scan.glsl");

/// One way to compact, as the passes it dispatches.
struct Design {
    name: String,
    /// Each pass, and whether it runs one workgroup per tile (or just one).
    passes: Vec<(timing::Kernel, bool)>,
    /// Elements per tile.
    tile: u32,
    /// Whether its output is the compaction (ablations are not).
    checked: bool,
}

/// Where the time of the `glsl` compaction goes, by variants that leave a
/// stage out or do it differently, side by side in one run.
pub fn probe(gpu: &Gpu, subgroup: u32, quick: bool) -> Result<(), String> {
    let helpers = shader_text(Target::Glsl, Form::Helpers, &compaction_step::kernels(), subgroup)?;
    let text = |template: &str, defines: &str, loads: u32| {
        fill(
            template,
            &[
                ("DEFINES", Cow::Owned(defines.to_string())),
                ("HELPERS", Cow::Borrowed(helpers.as_str())),
                ("INIT", Cow::Borrowed("")),
                ("ITEMS", Cow::Owned(items(subgroup).to_string())),
                ("LOADS", Cow::Owned(loads.to_string())),
                ("SUBGROUP", Cow::Owned(subgroup.to_string())),
            ],
        )
    };
    let read_only = [true, false, false, true];
    let kernel = |name: &str, source: String| {
        timing::Kernel::new(gpu, Target::Glsl, name, &source, &read_only)
    };
    let mut designs = Vec::new();
    let one = 256 * items(subgroup);
    for (name, defines, checked) in [("one pass", "", true)] {
        designs.push(Design {
            name: name.into(),
            passes: vec![(kernel(name, text(GLSL, defines, 0))?, true)],
            tile: one,
            checked,
        });
    }
    let fits = |loads: u32| loads * (256 / subgroup) <= 256;
    for (loads, defines, checked) in [
        (8u32, "", true),
        (4, "#define WIDE_LOOK", true),
        (8, "#define WIDE_LOOK", true),
        (16, "#define WIDE_LOOK", true),
        (8, "#define NO_LOOKBACK", false),
    ] {
        if !fits(loads) {
            continue;
        }
        let name = format!("uvec4 x{loads}, one pass {defines}");
        designs.push(Design {
            passes: vec![(kernel(&name, text(GLSL4, defines, loads))?, true)],
            name,
            tile: 256 * 4 * loads,
            checked,
        });
    }
    for loads in [8u32] {
        if !fits(loads) {
            continue;
        }
        let name = format!("uvec4 x{loads}, three passes");
        designs.push(Design {
            passes: vec![
                (kernel("count", text(GLSL4, "#define COUNT", loads))?, true),
                (kernel("scan", text(SCAN, "", loads))?, false),
                (kernel("scatter", text(GLSL4, "#define SCATTER", loads))?, true),
            ],
            name,
            tile: 256 * 4 * loads,
            checked: true,
        });
    }
    let copy = timing::Kernel::new(gpu, Target::Wgsl, "copy", timing::COPY_WGSL, &[true, false])?;
    let sizes: &[u32] = if quick { &[16] } else { &[28, 24] };
    println!("## Compaction probe (glsl; times in ms: median, min, max of {REPEATS})\n");
    println!("| n | kept | design | median | min | max | of copy speed |");
    println!("|---|---|---|---|---|---|---|");
    for &log in sizes {
        let n = 1u32 << log;
        let xs = random_words(n);
        let input = timing::storage(gpu, "xs", xs.len());
        let output = timing::storage(gpu, "ys", n as usize);
        let zeros_group = copy.bind(gpu, &[&input, &output]);
        let zeros = timing::time_steps(gpu, &[(&copy, &zeros_group, grid(n / 4 / 256))], REPEATS, &|e| {
            e.clear_buffer(&input, 0, None);
        });
        gpu.queue().write_buffer(&input, 0, timing::bytes(&xs));
        let most = designs.iter().map(|d| n.div_ceil(d.tile)).max().unwrap_or(1);
        let status = timing::storage(gpu, "status", most as usize + 1);
        let copy_group = copy.bind(gpu, &[&input, &output]);
        let copy_steps = [(&copy, &copy_group, grid(n / 4 / 256))];
        let copy_ms = timing::time_steps(gpu, &copy_steps, REPEATS, &|_| {});
        let row = |percent: u64, name: &str, t: timing::Times, copy: f64| {
            println!(
                "| 2^{log} | {percent}% | {name} | {:.3} | {:.3} | {:.3} | {:.2} |",
                t.median,
                t.min,
                t.max,
                copy / t.median
            );
        };
        row(100, "copy of zeros", zeros, copy_ms.median);
        row(100, "copy", copy_ms, copy_ms.median);
        for percent in [50u64, 5] {
            let threshold = ((1u64 << 32) * percent / 100) as u32;
            let expected: Vec<u32> = xs.iter().copied().filter(|&x| x < threshold).collect();
            for design in &designs {
                let tiles = n.div_ceil(design.tile);
                let params = timing::upload(gpu, "params", &[n, threshold, tiles]);
                let groups: Vec<_> = design
                    .passes
                    .iter()
                    .map(|(k, _)| k.bind(gpu, &[&input, &output, &status, &params]))
                    .collect();
                let steps: Vec<_> = design
                    .passes
                    .iter()
                    .zip(&groups)
                    .map(|((k, per_tile), g)| (k, g, if *per_tile { grid(tiles) } else { [1, 1, 1] }))
                    .collect();
                let reset = |encoder: &mut wgpu::CommandEncoder| {
                    encoder.clear_buffer(&status, 0, None);
                };
                let t = timing::time_steps(gpu, &steps, REPEATS, &reset);
                let mut name = design.name.clone();
                if design.checked {
                    let got = timing::download(gpu, &output, expected.len());
                    if got != expected {
                        let first = got.iter().zip(&expected).position(|(a, b)| a != b);
                        name += &format!(" WRONG at {first:?}");
                    }
                }
                row(percent, &name, t, copy_ms.median);
            }
        }
        let again = timing::time_steps(gpu, &copy_steps, REPEATS, &|_| {});
        row(100, "copy, again", again, copy_ms.median);
    }
    println!();
    Ok(())
}

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
