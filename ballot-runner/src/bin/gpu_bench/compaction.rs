//! The device-wide primitives of `ballot::primitives`, as users call them:
//! ordered stream compaction (keep the `u32`s below a threshold, in order,
//! as `torch.masked_select` does) and the exclusive scan, on every target,
//! next to a device copy of the same words. Every output is checked
//! against `primitives::reference` before its time is printed.
//!
//! Besides the markdown tables, each figure is printed as a line
//! `csv,<primitive>,<log2 n>,<percent kept>,<variant>,<median ms>,<min>,<max>`
//! for the plot
//! (`plot.py`).

use ballot::prelude::*;
use ballot::primitives::{
    padded_words, reference, Compaction, ExclusiveScan, Keep, Primitive, PrimitiveError,
    PrimitiveOptions, PrimitiveShader, Workspace,
};
use ballot_runner::gpu::words_of;
use ballot_runner::Gpu;
use ballot_shader::back::Language;

use crate::timing::{self, grid, ratios};
use crate::{RATIO_HEADERS, REPEATS, VARIANTS};

/// A variant's name in the CSV lines and the plot.
fn variant_name((target, checked): (Target, bool)) -> String {
    if checked {
        target.to_string()
    } else {
        format!("{target} unchecked")
    }
}

/// The options of `target` on a device whose subgroups have `subgroup`
/// lanes: that size where subgroups are real, the library's default for
/// the target where they are emulated.
fn options(target: Target, subgroup: u32) -> PrimitiveOptions {
    PrimitiveOptions {
        subgroup_size: target.has_subgroups().then_some(subgroup),
        ..PrimitiveOptions::default()
    }
}

/// One size's random input on the device, the output and the workspace.
struct Data {
    n: u32,
    xs: Vec<u32>,
    input: wgpu::Buffer,
    output: wgpu::Buffer,
    workspace: Workspace,
}

impl Data {
    fn new(gpu: &Gpu, n: u32) -> Data {
        let xs = random_words(n);
        let input = timing::storage(gpu, "xs", padded_words(n) as usize);
        gpu.queue().write_buffer(&input, 0, timing::bytes(&xs));
        Data {
            n,
            xs,
            input,
            output: timing::storage(gpu, "ys", n as usize),
            workspace: Workspace::new(gpu.device(), n),
        }
    }
}

/// The compaction for `target` with `options`: GLSL through glslang, as
/// everywhere in this benchmark.
fn compaction_with(
    gpu: &Gpu,
    target: Target,
    options: &PrimitiveOptions,
) -> Result<Compaction, String> {
    let e = |e: PrimitiveError| e.to_string();
    if target.language() == Language::Glsl {
        let words = spirv(Primitive::Compact, target, options)?;
        // SAFETY: glslang's compilation of this shader.
        return unsafe { Compaction::from_spirv(gpu.device(), target, options, &words) }.map_err(e);
    }
    Compaction::new(gpu.device(), target, options).map_err(e)
}

/// `target`'s compaction with `options` over `data`, keeping by `keep`,
/// timed and then checked against `expected`: the median, as a table's
/// cell, or what was wrong.
fn checked_median(
    gpu: &Gpu,
    target: Target,
    options: &PrimitiveOptions,
    data: &Data,
    keep: Keep,
    expected: &[u32],
) -> Result<String, String> {
    let compaction = compaction_with(gpu, target, options)?;
    let bound = compaction
        .bind(
            gpu.device(),
            &data.workspace,
            data.n,
            keep,
            &data.input,
            &data.output,
        )
        .map_err(|e| e.to_string())?;
    let t = timed(gpu, &bound);
    check(
        gpu,
        &data.workspace,
        &data.output,
        expected,
        expected.len() as u32,
    )?;
    Ok(format!("{:.3}", t.median))
}

/// The fallbacks' compaction at 2^24 and 2^28, at 5%, 50% and 95% kept,
/// as the virtual subgroup grows from 8 lanes to 128, half the workgroup:
/// the larger the subgroup, the fewer counts a tile scans, and the more
/// flags each ballot reads. Every output is checked.
pub fn virtual_sizes(gpu: &Gpu, quick: bool) -> Result<(), String> {
    let logs: &[u32] = if quick { &[16] } else { &[24, 28] };
    let sizes = [8u32, 16, 32, 64, 128];
    println!("## Fallback compaction against the virtual subgroup size (ms)\n");
    println!(
        "| n | kept | target | {} |",
        sizes.map(|s| format!("{s} lanes")).join(" | ")
    );
    println!("|---|---|---|{}", "---|".repeat(sizes.len()));
    for &log in logs {
        let data = Data::new(gpu, 1 << log);
        for percent in [5u64, 50, 95] {
            let keep = Keep::Below(((1u64 << 32) * percent / 100) as u32);
            let expected = reference::compact(&data.xs, keep);
            for target in [Target::GlslNoSubgroup, Target::WgslNoSubgroup] {
                let mut cells = Vec::new();
                for &size in &sizes {
                    let options = PrimitiveOptions {
                        subgroup_size: Some(size),
                        ..PrimitiveOptions::default()
                    };
                    let cell = checked_median(gpu, target, &options, &data, keep, &expected)
                        .map_err(|why| format!("{size} lanes on {target}: {why}"))?;
                    cells.push(cell);
                }
                println!(
                    "| 2^{log} | {percent}% | {target} | {} |",
                    cells.join(" | ")
                );
            }
        }
    }
    println!();
    Ok(())
}

/// The compaction at 2^24 and 2^28, 50% kept, as `PrimitiveOptions::spins`
/// varies: what the decoupled fallback costs where every workgroup runs.
pub fn spins(gpu: &Gpu, subgroup: u32, quick: bool) -> Result<(), String> {
    let logs: &[u32] = if quick { &[16] } else { &[24, 28] };
    let counts = [1u32, 4, 16, 64, 256, 4096];
    println!("## Compaction against spins (50% kept; ms)\n");
    println!(
        "| n | target | {} |",
        counts.map(|c| format!("spins {c}")).join(" | ")
    );
    println!("|---|---|{}", "---|".repeat(counts.len()));
    let device = gpu.device();
    for &log in logs {
        let n = 1u32 << log;
        let data = Data::new(gpu, n);
        let Data {
            xs,
            input,
            output,
            workspace,
            ..
        } = &data;
        let keep = Keep::Below(1 << 31);
        let expected = reference::compact(xs, keep);
        for target in [Target::Glsl, Target::WgslNoSubgroup] {
            let mut cells = Vec::new();
            for &count in &counts {
                let options = PrimitiveOptions {
                    spins: count,
                    ..options(target, subgroup)
                };
                let cell = checked_median(gpu, target, &options, &data, keep, &expected)
                    .map_err(|why| format!("spins {count} on {target}: {why}"))?;
                cells.push(cell);
            }
            println!("| 2^{log} | {target} | {} |", cells.join(" | "));
        }
        // The glsl shader with its fallback's summing left out: a wrong
        // shader wherever the fallback runs, which at 4096 spins it did not
        // above. What the fallback's code costs where it does not run.
        let options = PrimitiveOptions {
            spins: 4096,
            ..options(Target::Glsl, subgroup)
        };
        let probe = |from: &str, to: &str| -> Result<(timing::Times, bool), String> {
            let text = edited(&options, from, to)?;
            let bytes = ballot_naga::valid::glslang_spirv(&text).map_err(|e| e.to_string())?;
            // SAFETY: glslang's compilation of a shader with the same bindings.
            let compaction = unsafe {
                Compaction::from_spirv(device, Target::Glsl, &options, &words_of(&bytes))
            }
            .map_err(|e| e.to_string())?;
            let bound = compaction
                .bind(device, workspace, n, keep, input, output)
                .map_err(|e| e.to_string())?;
            let t = timed(gpu, &bound);
            let right = check(gpu, workspace, output, &expected, expected.len() as u32).is_ok();
            Ok((t, right))
        };
        let verdict = |right: bool| if right { "right" } else { "wrong" };
        let (t, right) = probe("tile_weight(t, lid, n)", "0u")?;
        println!(
            "| 2^{log} | glsl, no fallback code | spins 4096: {:.3} ({}) |",
            t.median,
            verdict(right)
        );
        // The library's glsl shader with the subgroup size a constant.
        let (t, right) = probe(
            "uint size = gl_SubgroupSize;",
            &format!("uint size = {subgroup}u;"),
        )?;
        println!(
            "| 2^{log} | glsl, constant subgroup size | spins 4096: {:.3} ({}) |",
            t.median,
            verdict(right)
        );
    }
    println!();
    Ok(())
}

/// glslang's SPIR-V of `primitive`'s shader for a GLSL `target`.
fn spirv(
    primitive: Primitive,
    target: Target,
    options: &PrimitiveOptions,
) -> Result<Vec<u32>, String> {
    let shader = PrimitiveShader::new(primitive, target, options).map_err(|e| e.to_string())?;
    let bytes = ballot_naga::valid::glslang_spirv(shader.text()).map_err(|e| e.to_string())?;
    Ok(words_of(&bytes))
}

/// The compaction and scan pipelines of one variant.
struct Pipelines {
    compact: Compaction,
    scan: ExclusiveScan,
}

fn pipelines(
    gpu: &Gpu,
    (target, checked): (Target, bool),
    subgroup: u32,
) -> Result<Pipelines, String> {
    let device = gpu.device();
    let options = options(target, subgroup);
    let e = |e: PrimitiveError| e.to_string();
    if target.language() == Language::Glsl {
        let compact = spirv(Primitive::Compact, target, &options)?;
        let scan = spirv(Primitive::ExclusiveScan, target, &options)?;
        // SAFETY: each SPIR-V is glslang's compilation of that primitive's
        // shader for `target` with `options`.
        return unsafe {
            Ok(Pipelines {
                compact: Compaction::from_spirv(device, target, &options, &compact).map_err(e)?,
                scan: ExclusiveScan::from_spirv(device, target, &options, &scan).map_err(e)?,
            })
        };
    }
    if checked {
        return Ok(Pipelines {
            compact: Compaction::new(device, target, &options).map_err(e)?,
            scan: ExclusiveScan::new(device, target, &options).map_err(e)?,
        });
    }
    // SAFETY: `encode`'s buffers are the sizes `bind` checks.
    unsafe {
        Ok(Pipelines {
            compact: Compaction::new_unchecked(device, target, &options).map_err(e)?,
            scan: ExclusiveScan::new_unchecked(device, target, &options).map_err(e)?,
        })
    }
}

/// Times every variant of both primitives at every size and share, next
/// to a device copy.
pub fn run(gpu: &Gpu, subgroup: u32, quick: bool) -> Result<(), String> {
    let sizes: Vec<u32> = if quick {
        vec![10, 16]
    } else {
        (20..=28).step_by(2).collect()
    };
    let variants: Vec<Pipelines> = VARIANTS
        .iter()
        .map(|&variant| pipelines(gpu, variant, subgroup))
        .collect::<Result<_, _>>()?;
    let copy = copy_kernel(gpu)?;
    let device = gpu.device();
    let mut compaction_rows = Vec::new();
    let mut scan_rows = Vec::new();
    let mut limit_rows = Vec::new();
    for &log in &sizes {
        let n = 1u32 << log;
        let Data {
            xs,
            input,
            output,
            workspace,
            ..
        } = Data::new(gpu, n);
        let copy_ms = copy_ms(gpu, &copy, &input, &output, n);
        println!("csv,copy,{log},100,copy,{copy_ms:.4}");
        for percent in [5u64, 50, 95] {
            let keep = Keep::Below(((1u64 << 32) * percent / 100) as u32);
            let expected = reference::compact(&xs, keep);
            let mut times = Vec::new();
            for (&variant, pipelines) in VARIANTS.iter().zip(&variants) {
                let bound = pipelines
                    .compact
                    .bind(device, &workspace, n, keep, &input, &output)
                    .map_err(|e| e.to_string())?;
                let t = timed(gpu, &bound);
                let ms = t.median;
                check(gpu, &workspace, &output, &expected, expected.len() as u32).map_err(
                    |why| {
                        format!(
                            "compaction on {}, n = 2^{log}, {percent}%: {why}",
                            variant_name(variant)
                        )
                    },
                )?;
                println!(
                    "csv,compact,{log},{percent},{},{ms:.4}",
                    variant_name(variant)
                );
                times.push(ms);
            }
            let base = times[0];
            let limit = limit_ms(copy_ms, n, expected.len());
            println!("csv,compact_limit,{log},{percent},bandwidth limit,{limit:.4}");
            limit_rows.push(limit_row(
                log,
                &format!("{percent}%"),
                n,
                expected.len(),
                limit,
                &times,
            ));
            let of_copy = limit / base;
            compaction_rows.push(format!(
                "| 2^{log} | {percent}% | {copy_ms:.3} | {base:.3} | {of_copy:.2} | {} |",
                ratios(&times)
            ));
        }
        let (expected, total) = reference::exclusive_scan(&xs);
        let mut times = Vec::new();
        for (&variant, pipelines) in VARIANTS.iter().zip(&variants) {
            let bound = pipelines
                .scan
                .bind(device, &workspace, n, &input, &output)
                .map_err(|e| e.to_string())?;
            let t = timed(gpu, &bound);
            let ms = t.median;
            check(gpu, &workspace, &output, &expected, total)
                .map_err(|why| format!("scan on {}, n = 2^{log}: {why}", variant_name(variant)))?;
            println!(
                "csv,scan,{log},100,{},{ms:.4},{:.4},{:.4}",
                variant_name(variant),
                t.min,
                t.max
            );
            times.push(ms);
        }
        let base = times[0];
        // The scan reads n words and writes n: the copy's bytes.
        println!("csv,scan_limit,{log},100,bandwidth limit,{copy_ms:.4}");
        limit_rows.push(limit_row(log, "scan", n, n as usize, copy_ms, &times));
        scan_rows.push(format!(
            "| 2^{log} | {copy_ms:.3} | {base:.3} | {:.2} | {} |",
            copy_ms / base,
            ratios(&times)
        ));
    }
    println!("\n## Ordered stream compaction (ballot::primitives, u32, keep x < threshold)\n");
    println!("| n | kept | copy (ms) | glsl (ms) | glsl, of copy bandwidth | {RATIO_HEADERS} |");
    println!("|---|---|---|---|---|---|---|---|---|");
    compaction_rows.iter().for_each(|row| println!("{row}"));
    println!("\n## Exclusive scan (ballot::primitives, u32)\n");
    println!("| n | copy (ms) | glsl (ms) | glsl, of copy speed | {RATIO_HEADERS} |");
    println!("|---|---|---|---|---|---|---|---|");
    scan_rows.iter().for_each(|row| println!("{row}"));
    println!("\n## Every figure against the bandwidth limit\n");
    println!(
        "The limit is the bytes each primitive moves (compaction: n words read, \
         the kept written; the scan: n read, n written) at the device copy's rate \
         at the same n. Each cell: ms, and the limit's share of it.\n"
    );
    let names: Vec<String> = VARIANTS.iter().map(|&v| variant_name(v)).collect();
    println!(
        "| n | kept | MiB moved | limit (ms) | {} |",
        names.join(" | ")
    );
    println!("|---|---|---:|---:|{}", "---:|".repeat(names.len()));
    limit_rows.iter().for_each(|row| println!("{row}"));
    println!();
    Ok(())
}

/// The time of moving the bytes of a compaction of `n` words that keeps
/// `kept` (n read, `kept` written) at the rate of the copy, which moved 2n
/// words in `copy_ms`.
fn limit_ms(copy_ms: f64, n: u32, kept: usize) -> f64 {
    (f64::from(n) + kept as f64) / (2.0 * f64::from(n)) * copy_ms
}

/// A row of the table of every figure against the limit: `times` in the
/// order of [`VARIANTS`], for a primitive that reads n words and writes
/// `written`.
fn limit_row(log: u32, kept: &str, n: u32, written: usize, limit: f64, times: &[f64]) -> String {
    let mib = (f64::from(n) + written as f64) * 4.0 / f64::from(1u32 << 20);
    let cells: Vec<String> = times
        .iter()
        .map(|t| format!("{t:.3} ({:.0}%)", 100.0 * limit / t))
        .collect();
    format!(
        "| 2^{log} | {kept} | {mib:.0} | {limit:.3} | {} |",
        cells.join(" | ")
    )
}

/// The times of `bound`'s dispatch, the status cleared before each.
fn timed(gpu: &Gpu, bound: &ballot::primitives::Bound<'_>) -> timing::Times {
    timing::time_runs(gpu, REPEATS, &|encoder, timestamps| {
        bound.clear(encoder);
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: None,
            timestamp_writes: Some(timestamps),
        });
        bound.dispatch(&mut pass);
    })
}

/// Whether the last run left `expected` in `output` and `count` in the
/// workspace.
fn check(
    gpu: &Gpu,
    workspace: &Workspace,
    output: &wgpu::Buffer,
    expected: &[u32],
    count: u32,
) -> Result<(), String> {
    let got_count = workspace
        .read_count(gpu.device(), gpu.queue())
        .map_err(|e| e.to_string())?;
    if got_count != count {
        return Err(format!("count {got_count}, not {count}"));
    }
    let got = timing::download(gpu, output, expected.len());
    match got.iter().zip(expected).position(|(a, b)| a != b) {
        None => Ok(()),
        Some(first) => Err(format!(
            "wrong output (first difference at {first} of {})",
            expected.len()
        )),
    }
}

/// The device copy, the bandwidth limit's measure: `n` words read and
/// written, a `uvec4` per invocation.
fn copy_kernel(gpu: &Gpu) -> Result<timing::Kernel, String> {
    timing::Kernel::new(gpu, Target::Wgsl, "copy", timing::COPY_WGSL, &[true, false])
}

/// The median time of `copy` from the first `n` words of `input` into
/// `output`.
fn copy_ms(
    gpu: &Gpu,
    copy: &timing::Kernel,
    input: &wgpu::Buffer,
    output: &wgpu::Buffer,
    n: u32,
) -> f64 {
    let group = copy.bind(gpu, &[input, output]);
    timing::time(gpu, copy, &group, grid(n / 4 / 256), REPEATS, &|_| {}).median
}

/// The device copy alone at every size from 2^20 to 2^28: where the
/// bandwidth limit itself changes with size.
pub fn copy_sweep(gpu: &Gpu) -> Result<(), String> {
    let copy = copy_kernel(gpu)?;
    println!("## Device copy (read + write)\n");
    println!("| n (u32) | copy (ms) | TB/s |");
    println!("|---|---|---|");
    for log in 20..=28u32 {
        let n = 1usize << log;
        let input = timing::storage(gpu, "src", n);
        let output = timing::storage(gpu, "dst", n);
        let ms = copy_ms(gpu, &copy, &input, &output, n as u32);
        println!("| 2^{log} | {ms:.3} | {:.2} |", (8 * n) as f64 / ms / 1e9);
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

/// The library's `glsl` compaction shader for `options` with `from`
/// replaced by `to`: an error if `from` is not there, so that a probe never
/// times the unchanged shader under another name.
fn edited(options: &PrimitiveOptions, from: &str, to: &str) -> Result<String, String> {
    let shader = PrimitiveShader::new(Primitive::Compact, Target::Glsl, options)
        .map_err(|e| e.to_string())?;
    swapped(shader.text(), from, to)
}

/// `text` with `from` replaced by `to`, or an error if `from` is absent.
fn swapped(text: &str, from: &str, to: &str) -> Result<String, String> {
    if text.contains(from) {
        Ok(text.replace(from, to))
    } else {
        Err(format!("the probe's shader no longer holds `{from}`"))
    }
}

/// One build of the `glsl` primitives for `gpu_bench tiles`: the tile
/// size, the dispatch's cap on workgroups, whether the next tile's loads
/// go out before the current tile's look-back, and which phases a probe
/// leaves out (its outputs are then wrong, and not checked).
#[derive(Clone, Copy)]
struct Layout {
    loads: u32,
    workgroups: Option<u32>,
    prefetch: bool,
    /// Compaction's tile count published after the scan of its counts, as
    /// before `EARLY_TOTAL`, rather than as the ballots add it up.
    late_total: bool,
    /// The look-back left out: each tile's offset is its number times its
    /// own count, so that the writes spread as they would.
    no_look_back: bool,
    /// The tile's writes left out.
    no_write: bool,
}

impl Layout {
    fn probe(self) -> bool {
        self.no_look_back || self.no_write
    }

    fn name(self) -> String {
        let workgroups = self
            .workgroups
            .map_or("every tile".to_string(), |w| w.to_string());
        let prefetch = if self.prefetch { "ahead" } else { "after" };
        let mut name = format!("{} loads, {workgroups} wg", self.loads);
        if self.workgroups.is_some() {
            name.push_str(&format!(", loads {prefetch}"));
        }
        if self.late_total {
            name.push_str(", count after the scan");
        }
        if self.no_look_back {
            name.push_str(", no look-back");
        }
        if self.no_write {
            name.push_str(", no writes");
        }
        name
    }
}

/// The `glsl` primitive `primitive` built as `layout` says: its options
/// and SPIR-V.
fn glsl_variant(
    primitive: Primitive,
    subgroup: u32,
    layout: Layout,
) -> Result<(PrimitiveOptions, Vec<u32>), String> {
    let options = PrimitiveOptions {
        loads: Some(layout.loads),
        // One workgroup per tile where the layout takes no cap.
        workgroups: Some(layout.workgroups.unwrap_or(u32::MAX)),
        ..options(Target::Glsl, subgroup)
    };
    let shader =
        PrimitiveShader::new(primitive, Target::Glsl, &options).map_err(|e| e.to_string())?;
    let mut text = shader.text().to_string();
    if !layout.prefetch {
        text = swapped(
            &text,
            "const bool PREFETCH = true;",
            "const bool PREFETCH = false;",
        )?;
    }
    if layout.late_total {
        text = swapped(
            &text,
            "const bool EARLY_TOTAL = true;",
            "const bool EARLY_TOTAL = false;",
        )?;
    }
    if layout.no_look_back {
        text = swapped(&text, "while (s_look != 0u) {", "while (false) {")?;
        text = swapped(
            &text,
            "uint offset = s_offset;",
            "uint offset = tile * aggregate;",
        )?;
    }
    if layout.no_write {
        text = swapped(
            &text,
            "tile_write(tile, lid, n, offset);",
            "if (n == 0u) { tile_write(tile, lid, n, offset); }",
        )?;
    }
    let bytes = ballot_naga::valid::glslang_spirv(&text).map_err(|e| e.to_string())?;
    Ok((options, words_of(&bytes)))
}

/// Compaction (5%, 50%, 95% kept) and the scan at 2^28 (2^16 with
/// `quick`) in `glsl`: the library's layout (one workgroup per tile, of 8
/// loads per invocation), compaction's count published after the scan of
/// its counts rather than before, and 1,024 workgroups each taking tiles in
/// turn, the next tile's loads issued before the current tile's look-back
/// or after its writes; and, as a profile, the library's layout with the
/// look-back, the writes or both left out. Each against the bandwidth
/// limit: the measurements behind the library's choices. (`0b46261`'s
/// form of this probe, tiles of 4 loads and direct writes, is in
/// docs/performance.md.)
pub fn tiles(gpu: &Gpu, subgroup: u32, quick: bool) -> Result<(), String> {
    let log = if quick { 16 } else { 28 };
    let n = 1u32 << log;
    let device = gpu.device();
    let Data {
        xs,
        input,
        output,
        workspace,
        ..
    } = Data::new(gpu, n);
    let copy = copy_kernel(gpu)?;
    let copy_ms = copy_ms(gpu, &copy, &input, &output, n);
    let layout = |loads, workgroups, prefetch| Layout {
        loads,
        workgroups,
        prefetch,
        late_total: false,
        no_look_back: false,
        no_write: false,
    };
    let library = layout(8, None, true);
    let mut layouts = vec![
        library,
        Layout {
            late_total: true,
            ..library
        },
        layout(8, Some(1024), true),
        layout(8, Some(1024), false),
    ];
    for (no_look_back, no_write) in [(true, false), (false, true), (true, true)] {
        layouts.push(Layout {
            no_look_back,
            no_write,
            ..library
        });
    }
    let layouts: Vec<Layout> = layouts
        .into_iter()
        .filter(|l| l.loads <= subgroup)
        .collect();
    println!("## Tile layout and phases (glsl, n = 2^{log}; ms, and the limit's share)\n");
    println!("copy: {copy_ms:.3} ms\n");
    println!("| primitive | kept | limit (ms) | layout | ms | of limit |");
    println!("|---|---|---:|---|---:|---:|");
    let kinds: Vec<(Primitive, u64)> = [5u64, 50, 95]
        .into_iter()
        .map(|p| (Primitive::Compact, p))
        .chain([(Primitive::ExclusiveScan, 100)])
        .collect();
    for (primitive, percent) in kinds {
        let keep = Keep::Below(((1u64 << 32) * percent / 100) as u32);
        let (expected, count) = if primitive == Primitive::ExclusiveScan {
            reference::exclusive_scan(&xs)
        } else {
            let kept = reference::compact(&xs, keep);
            let count = kept.len() as u32;
            (kept, count)
        };
        let limit = if primitive == Primitive::ExclusiveScan {
            copy_ms
        } else {
            limit_ms(copy_ms, n, expected.len())
        };
        for &layout in &layouts {
            if layout.late_total && primitive == Primitive::ExclusiveScan {
                // The scan's total is its scan's last entry either way.
                continue;
            }
            let (options, words) = glsl_variant(primitive, subgroup, layout)?;
            let bound;
            let t = if primitive == Primitive::ExclusiveScan {
                // SAFETY: glslang's compilation of the scan shader for
                // `options`, at most with a phase left out.
                let scan =
                    unsafe { ExclusiveScan::from_spirv(device, Target::Glsl, &options, &words) }
                        .map_err(|e| e.to_string())?;
                bound = scan
                    .bind(device, &workspace, n, &input, &output)
                    .map_err(|e| e.to_string())?;
                timed(gpu, &bound)
            } else {
                // SAFETY: as for the scan.
                let compaction =
                    unsafe { Compaction::from_spirv(device, Target::Glsl, &options, &words) }
                        .map_err(|e| e.to_string())?;
                bound = compaction
                    .bind(device, &workspace, n, keep, &input, &output)
                    .map_err(|e| e.to_string())?;
                timed(gpu, &bound)
            };
            let name = layout.name();
            if !layout.probe() {
                check(gpu, &workspace, &output, &expected, count)
                    .map_err(|why| format!("{}, {percent}%, {name}: {why}", primitive.name()))?;
            }
            let kept = if primitive == Primitive::ExclusiveScan {
                String::new()
            } else {
                format!("{percent}%")
            };
            println!(
                "| {} | {kept} | {limit:.3} | {name} | {:.3} | {:.2} |",
                primitive.name(),
                t.median,
                limit / t.median
            );
            println!(
                "csv,tiles,{},{log},{percent},{name},{:.4}",
                primitive.name(),
                t.median
            );
        }
    }
    println!();
    Ok(())
}

/// The bounds of `gpu_bench guard`: what one figure's time over another's
/// may be at most, on lavapipe at 2^18 elements in subgroups of 8. Each is
/// about twice the largest ratio of three runs on a 2-core machine that
/// another build shared (`docs/performance.md`), so that noise does not
/// trip it, while a regression of the kind the H200 runs found (a WGSL
/// loop left bounded, 2.6×; a branch on the `Keep` kind, 1.7×) on top of
/// a ratio near its usual value does.
const GUARD: [(&str, &str, f64); 9] = [
    ("compact glsl", "copy", 25.0),
    ("scan glsl", "copy", 25.0),
    ("compact wgsl", "compact glsl", 2.0),
    ("compact wgsl unchecked", "compact glsl", 2.0),
    ("compact glsl-no-subgroup", "compact glsl", 6.0),
    ("compact wgsl-no-subgroup", "compact glsl", 4.0),
    ("scan wgsl", "scan glsl", 2.5),
    ("scan glsl-no-subgroup", "scan glsl", 2.5),
    ("scan wgsl-no-subgroup", "scan glsl", 2.5),
];

/// The regression guard for CI: on the adapter at hand (lavapipe in
/// scripts/test), compaction at 50% kept and the scan at 2^18 elements in
/// every variant and a device copy, timed in interleaved rounds of one
/// short batch each, every output checked; then the ratios between
/// variants (never a time) against [`GUARD`]. Fails, naming each ratio
/// over its bound.
pub fn guard(gpu: &Gpu, subgroup: u32) -> Result<(), String> {
    const ROUNDS: usize = 5;
    const RUNS: usize = 5;
    let log = 18;
    let n = 1u32 << log;
    let device = gpu.device();
    let Data {
        xs,
        input,
        output,
        workspace,
        ..
    } = Data::new(gpu, n);
    let copy = copy_kernel(gpu)?;
    let copy_group = copy.bind(gpu, &[&input, &output]);
    let variants: Vec<Pipelines> = VARIANTS
        .iter()
        .map(|&variant| pipelines(gpu, variant, subgroup))
        .collect::<Result<_, _>>()?;
    let keep = Keep::Below(1 << 31);
    let kept = reference::compact(&xs, keep);
    let (sums, total) = reference::exclusive_scan(&xs);
    // The fastest median of the rounds, per figure: "copy", then
    // "compact <variant>" and "scan <variant>".
    let mut best: Vec<(String, f64)> = Vec::new();
    let mut note = |name: String, ms: f64| match best.iter_mut().find(|(n, _)| *n == name) {
        Some((_, t)) => *t = t.min(ms),
        None => best.push((name, ms)),
    };
    for _ in 0..ROUNDS {
        let copy_run = |encoder: &mut wgpu::CommandEncoder,
                        timestamps: wgpu::ComputePassTimestampWrites<'_>| {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: None,
                timestamp_writes: Some(timestamps),
            });
            copy.dispatch(&mut pass, &copy_group, grid(n / 4 / 256));
        };
        note(
            "copy".to_string(),
            timing::batch(gpu, &copy_run, RUNS).median,
        );
        for (&variant, pipelines) in VARIANTS.iter().zip(&variants) {
            let name = variant_name(variant);
            let bound = pipelines
                .compact
                .bind(device, &workspace, n, keep, &input, &output)
                .map_err(|e| e.to_string())?;
            note(format!("compact {name}"), batch_of(gpu, &bound, RUNS));
            check(gpu, &workspace, &output, &kept, kept.len() as u32)
                .map_err(|why| format!("compaction on {name}: {why}"))?;
            let bound = pipelines
                .scan
                .bind(device, &workspace, n, &input, &output)
                .map_err(|e| e.to_string())?;
            note(format!("scan {name}"), batch_of(gpu, &bound, RUNS));
            check(gpu, &workspace, &output, &sums, total)
                .map_err(|why| format!("scan on {name}: {why}"))?;
        }
    }
    let time_of = |name: &str| {
        best.iter()
            .find(|(n, _)| n == name)
            .map(|(_, t)| *t)
            .ok_or_else(|| format!("no figure `{name}`"))
    };
    println!("## Regression guard (n = 2^{log}, fastest of {ROUNDS} medians of {RUNS}; ms)\n");
    for (name, ms) in &best {
        println!("{name}: {ms:.4}");
    }
    println!("\n| ratio | measured | bound |");
    println!("|---|---:|---:|");
    let mut over = Vec::new();
    for (top, bottom, bound) in GUARD {
        let ratio = time_of(top)? / time_of(bottom)?;
        println!("| {top} / {bottom} | {ratio:.2} | {bound:.2} |");
        if ratio > bound {
            over.push(format!("{top} / {bottom} = {ratio:.2}, over {bound:.2}"));
        }
    }
    println!();
    if over.is_empty() {
        Ok(())
    } else {
        Err(format!("ratios over their bounds: {}", over.join("; ")))
    }
}

/// The median of one batch of `runs` dispatches of `bound`, no warm-up.
fn batch_of(gpu: &Gpu, bound: &ballot::primitives::Bound<'_>, runs: usize) -> f64 {
    timing::batch(
        gpu,
        &|encoder, timestamps| {
            bound.clear(encoder);
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: None,
                timestamp_writes: Some(timestamps),
            });
            bound.dispatch(&mut pass);
        },
        runs,
    )
    .median
}

/// The subgroup size `gpu_bench dump` writes the native primitives for:
/// NVIDIA's.
pub const DUMP_SUBGROUP: u32 = 32;

/// The targets whose primitive texts `gpu_bench dump` writes.
const DUMPED: [Target; 4] = [
    Target::Glsl,
    Target::Wgsl,
    Target::GlslNoSubgroup,
    Target::WgslNoSubgroup,
];

/// A primitive's row in file names: `compact` or `scan`.
fn row_of(primitive: Primitive) -> &'static str {
    match primitive {
        Primitive::ExclusiveScan => "scan",
        _ => "compact",
    }
}

/// Whether `row` (a file name's first part) names a primitive of
/// [`files`].
pub fn is_row(row: &str) -> bool {
    [Primitive::Compact, Primitive::ExclusiveScan]
        .iter()
        .any(|&p| row_of(p) == row)
}

/// Writes the compaction and scan shaders for every target, with the
/// options `gpu_bench compaction` runs them with, into `dir` as
/// `compact.TARGET.EXT` and `scan.TARGET.EXT`, for [`files`].
pub fn dump(dir: &std::path::Path) -> Result<(), String> {
    let subgroup = DUMP_SUBGROUP;
    for target in DUMPED {
        let ext = match target.language() {
            Language::Glsl => "glsl",
            Language::Wgsl => "wgsl",
        };
        for primitive in [Primitive::Compact, Primitive::ExclusiveScan] {
            let shader = PrimitiveShader::new(primitive, target, &options(target, subgroup))
                .map_err(|e| e.to_string())?;
            let name = format!("{}.{target}.{ext}", row_of(primitive));
            std::fs::write(dir.join(name), shader.text()).map_err(|e| e.to_string())?;
        }
    }
    Ok(())
}

/// The SPIR-V of a primitive's text for `target`: glslang's for GLSL,
/// naga's for WGSL (so without wgpu's runtime checks).
fn text_spirv(target: Target, text: &str) -> Result<Vec<u32>, String> {
    use ballot_naga::cross::{self, CrossOutput, CrossTarget};
    if target.language() == Language::Glsl {
        let bytes = ballot_naga::valid::glslang_spirv(text).map_err(|e| e.to_string())?;
        return Ok(words_of(&bytes));
    }
    match cross::compile(text, CrossTarget::SpirV).map_err(|e| e.to_string())? {
        CrossOutput::SpirV(words) => Ok(words),
        CrossOutput::Text(_) => Err("naga wrote text, not SPIR-V".to_string()),
    }
}

/// One primitive text to time: its name, target and text.
struct PrimitiveFile {
    name: String,
    primitive: Primitive,
    target: Target,
    text: String,
}

/// Times primitive texts from files named `compact.TARGET.EXT[.anything]`
/// or `scan.TARGET.EXT[.anything]` (as [`dump`] writes them; a suffix marks
/// a hand-edited variant), each built with the options
/// `gpu_bench compaction` uses for its target, at 2^28 words (2^16 with
/// `--quick`): compaction at 5%, 50% and 95% kept, the scan, each output
/// checked against the reference, each time beside the library's `glsl`
/// form and the limit, in one run.
pub fn files(gpu: &Gpu, subgroup: u32, quick: bool, paths: &[String]) -> Result<(), String> {
    let mut texts = Vec::new();
    for path in paths {
        let (name, row, target) = crate::ops::named_file(path)?;
        let primitive = [Primitive::Compact, Primitive::ExclusiveScan]
            .into_iter()
            .find(|&p| row_of(p) == row)
            .ok_or_else(|| format!("{path}: no primitive {row}"))?;
        if target.has_subgroups() && subgroup != DUMP_SUBGROUP {
            // The text's layout (subgroups per tile) is fixed when it is
            // written; run on other subgroups it would index past its
            // arrays.
            return Err(format!(
                "{path}: written for subgroups of {DUMP_SUBGROUP}, and this device's have {subgroup} lanes"
            ));
        }
        // Bounded: a primitive's text is a few tens of kilobytes.
        let meta = std::fs::metadata(path).map_err(|e| format!("{path}: {e}"))?;
        if meta.len() > 1 << 22 {
            return Err(format!("{path}: over 4 MiB, not a primitive's text"));
        }
        let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
        texts.push(PrimitiveFile {
            name,
            primitive,
            target,
            text,
        });
    }
    let log = if quick { 16 } else { 28 };
    let data = Data::new(gpu, 1 << log);
    let copy = copy_kernel(gpu)?;
    let copy_ms = copy_ms(gpu, &copy, &data.input, &data.output, data.n);
    println!("## Primitive texts from files (n = 2^{log}; ms, the limit's share, and / glsl)\n");
    println!("copy: {copy_ms:.3} ms\n");
    println!("| file | kept | limit (ms) | ms | of limit | / glsl |");
    println!("|---|---|---:|---:|---:|---:|");
    let mut failed = false;
    for primitive in [Primitive::Compact, Primitive::ExclusiveScan] {
        let mine: Vec<&PrimitiveFile> = texts.iter().filter(|f| f.primitive == primitive).collect();
        if mine.is_empty() {
            continue;
        }
        let shares: &[u64] = if primitive == Primitive::ExclusiveScan {
            &[100]
        } else {
            &[5, 50, 95]
        };
        for &percent in shares {
            let keep = Keep::Below(((1u64 << 32) * percent / 100) as u32);
            let (expected, count, limit, kept) = if primitive == Primitive::ExclusiveScan {
                let (scan, total) = reference::exclusive_scan(&data.xs);
                (scan, total, copy_ms, String::new())
            } else {
                let kept = reference::compact(&data.xs, keep);
                let count = kept.len() as u32;
                let limit = limit_ms(copy_ms, data.n, kept.len());
                (kept, count, limit, format!("{percent}%"))
            };
            let library =
                PrimitiveShader::new(primitive, Target::Glsl, &options(Target::Glsl, subgroup))
                    .map_err(|e| e.to_string())?;
            let glsl_ms = time_text(
                gpu,
                &data,
                primitive,
                Target::Glsl,
                library.text(),
                keep,
                subgroup,
            )
            .and_then(|ms| check(gpu, &data.workspace, &data.output, &expected, count).map(|()| ms))
            .map_err(|e| format!("the library's glsl {}: {e}", row_of(primitive)))?;
            println!(
                "| {} (library glsl) | {kept} | {limit:.3} | {glsl_ms:.3} | {:.2} | 1.00 |",
                row_of(primitive),
                limit / glsl_ms
            );
            for file in &mine {
                let timed = time_text(
                    gpu,
                    &data,
                    primitive,
                    file.target,
                    &file.text,
                    keep,
                    subgroup,
                )
                .and_then(|ms| {
                    check(gpu, &data.workspace, &data.output, &expected, count).map(|()| ms)
                });
                match timed {
                    Ok(ms) => println!(
                        "| {} | {kept} | {limit:.3} | {ms:.3} | {:.2} | {:.2} |",
                        file.name,
                        limit / ms,
                        ms / glsl_ms
                    ),
                    Err(e) => {
                        failed = true;
                        println!(
                            "| {} | {kept} | {limit:.3} | error: {} | | |",
                            file.name,
                            e.lines().next().unwrap_or_default()
                        );
                    }
                }
            }
        }
    }
    println!();
    if failed {
        Err("some files failed or gave wrong results".to_string())
    } else {
        Ok(())
    }
}

/// The median time of `text`, a `primitive` shader for `target` built with
/// `gpu_bench compaction`'s options, over `data` (compaction keeping by
/// `keep`), leaving its output in `data.output`.
fn time_text(
    gpu: &Gpu,
    data: &Data,
    primitive: Primitive,
    target: Target,
    text: &str,
    keep: Keep,
    subgroup: u32,
) -> Result<f64, String> {
    let device = gpu.device();
    let options = options(target, subgroup);
    let words = text_spirv(target, text)?;
    let e = |e: PrimitiveError| e.to_string();
    let t = if primitive == Primitive::ExclusiveScan {
        // SAFETY: glslang's or naga's compilation of a scan shader for
        // `target`; a hand-edited text is the caller's to keep within the
        // buffers, and its output is checked after.
        let scan =
            unsafe { ExclusiveScan::from_spirv(device, target, &options, &words) }.map_err(e)?;
        let bound = scan
            .bind(device, &data.workspace, data.n, &data.input, &data.output)
            .map_err(e)?;
        timed(gpu, &bound)
    } else {
        // SAFETY: as for the scan.
        let compaction =
            unsafe { Compaction::from_spirv(device, target, &options, &words) }.map_err(e)?;
        let bound = compaction
            .bind(
                device,
                &data.workspace,
                data.n,
                keep,
                &data.input,
                &data.output,
            )
            .map_err(e)?;
        timed(gpu, &bound)
    };
    Ok(t.median)
}
