//! The emitted code on a real GPU, timed with timestamp queries (wgpu on
//! Vulkan).
//!
//! ```text
//! gpu_bench [ops|compaction|copy|why|spins|virtual|tiles|guard|shapes|spirv|dump DIR|files FILE…|all] [--quick]
//! ```
//!
//! - `ops`: every subgroup operation (the ballot family, then votes,
//!   arithmetic, shuffles and quads) in a loop inside one kernel, over 2^26
//!   invocations, in its `glsl` native form, its `wgsl` polyfill form (with
//!   and without wgpu's runtime checks) and both `*-no-subgroup` fallbacks;
//!   each time is reported as a ratio to `glsl`.
//! - `compaction`: the device-wide primitives of `ballot::primitives`, as
//!   users call them: ordered stream compaction of 2^20 to 2^28 `u32`s at
//!   5%, 50% and 95% kept, and the exclusive scan, in the same five forms,
//!   next to a device copy of the same size (the bandwidth limit). Every
//!   result is checked against `primitives::reference` before its time is
//!   reported.
//! - `copy`: the device copy alone, at every size from 2^20 to 2^28.
//! - `why`: where the WGSL fallback's time goes: five collectives through
//!   the GLSL fallback compiled by glslang and by naga, and through the WGSL
//!   fallback, with and without wgpu's runtime checks.
//! - `spins`: the compaction as `PrimitiveOptions::spins` varies.
//! - `virtual`: the fallbacks' compaction as the virtual subgroup grows
//!   from 8 lanes to 128.
//! - `tiles`: `glsl` compaction and scan at 2^28 in the library's layout
//!   and others (the count published after the scan, workgroups that take
//!   tiles in turn, loading the next ahead or not), and the library's
//!   layout with its look-back, its writes or both left out: the
//!   measurements behind the library's choices, and where its time goes.
//! - `guard`: the regression guard scripts/test runs on lavapipe: every
//!   variant at 2^18, and the ratios between them (never a time) against
//!   generous bounds; exits non-zero when one is over.
//! - `shapes`: the four hand-written shapes of `tests/shapes.rs`, linked for
//!   `glsl` and `glsl-no-subgroup`, `wgsl` and `wgsl-no-subgroup`, over
//!   2^20 invocations and 65,535 workgroups of 64: what the emulation costs
//!   a hand-written shader.
//! - `dump DIR`: no GPU needed; every `ops` row's shader for every target,
//!   and the compaction and scan shaders (`compact.TARGET.EXT`,
//!   `scan.TARGET.EXT`), written into DIR, for `files`.
//! - `files FILE…`: times shader texts named as `dump` writes them (with any
//!   suffix after the extension for a variant), each against its row's
//!   emitted `glsl` form, checking the outputs agree: a commit's texts, or
//!   hand-edited variants, beside another's in one run. A primitive's text
//!   runs at 2^28 words (compaction at 5%, 50% and 95% kept, and the scan),
//!   its output checked against the reference, beside the library's `glsl`
//!   form and the bandwidth limit; WGSL through naga's SPIR-V, unchecked.
//!
//! `GPU_BENCH_ROWS=A,B` limits `ops` to the rows named.
//!
//! - `spirv`: no GPU needed; the instruction count of each shader's SPIR-V,
//!   `glsl` (glslang) against `wgsl` (naga).
//!
//! Each figure is the median of `REPEATS` timed dispatches, taken once the
//! GPU's clocks have settled (`timing::time`). `--quick`
//! shrinks the sizes, for a check on a software driver. See
//! docs/performance.md for the figures and how they were taken.

use std::process::ExitCode;

use ballot::prelude::*;
use ballot_ir::ir::Kernel;
use ballot_runner::Gpu;
use ballot_shader::back::{emit, Missing};

mod compaction;
mod ops;
mod shapes;
mod spirv;
mod timing;

/// What each table compares, native first: every ratio is to it. `false`
/// compiles WGSL without wgpu's runtime checks, to tell their cost from the
/// polyfills'.
pub const VARIANTS: [(Target, bool); 5] = [
    (Target::Glsl, true),
    (Target::Wgsl, true),
    (Target::Wgsl, false),
    (Target::GlslNoSubgroup, true),
    (Target::WgslNoSubgroup, true),
];

/// The header cells of the ratio columns, in the order of [`VARIANTS`]
/// after the first.
pub const RATIO_HEADERS: &str =
    "wgsl / glsl | wgsl unchecked / glsl | glsl-no-subgroup / glsl | wgsl-no-subgroup / glsl";

/// Timed dispatches per figure; the median is reported.
pub const REPEATS: usize = 15;

/// `kernels` as `form` for `target`, in workgroups of 256 with virtual
/// subgroups of `subgroup` where they are emulated.
pub fn shader_text(
    target: Target,
    form: Form,
    kernels: &[&Kernel],
    subgroup: u32,
) -> Result<String, String> {
    let options = ShaderOptions {
        workgroup_size: [256, 1, 1],
        subgroup_size: subgroup,
        ..ShaderOptions::default()
    };
    emit(target, form, kernels, &options, Missing::Error).map_err(|e| e.to_string())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let quick = args.iter().any(|a| a == "--quick");
    let what = args
        .iter()
        .find(|a| !a.starts_with("--"))
        .map_or("all", String::as_str);
    if !matches!(
        what,
        "ops"
            | "compaction"
            | "copy"
            | "why"
            | "spins"
            | "virtual"
            | "tiles"
            | "guard"
            | "shapes"
            | "spirv"
            | "dump"
            | "files"
            | "all"
    ) {
        eprintln!(
            "usage: gpu_bench [ops|compaction|copy|why|spins|virtual|tiles|guard|shapes|spirv|dump DIR [SIZE]|files FILE…|all] [--quick]"
        );
        return ExitCode::from(2);
    }
    let rest: Vec<String> = args
        .iter()
        .filter(|a| !a.starts_with("--"))
        .skip(1)
        .cloned()
        .collect();
    if what == "dump" {
        // The per-operation texts for subgroups of 32, as NVIDIA's, unless
        // a size follows: lavapipe's are 8 at LP_NATIVE_VECTOR_WIDTH=256,
        // and texts checked there against its `glsl` need that size. The
        // primitives' texts are always for 32 (`compaction::dump`), and
        // `files` refuses their subgroup forms on another size.
        let size = match rest.get(1).map(|s| s.parse::<u32>()) {
            None => Ok(32),
            Some(Ok(n)) if n.is_power_of_two() && n <= 128 => Ok(n),
            Some(_) => Err(()),
        };
        let (Some(dir), Ok(size)) = (rest.first(), size) else {
            eprintln!("usage: gpu_bench dump DIR [SUBGROUP_SIZE: a power of two up to 128]");
            return ExitCode::from(2);
        };
        let dir = std::path::Path::new(dir);
        return match ops::dump(dir, size).and_then(|()| compaction::dump(dir)) {
            Ok(()) => ExitCode::SUCCESS,
            Err(err) => {
                eprintln!("error: {err}");
                ExitCode::FAILURE
            }
        };
    }
    if what == "spirv" {
        // No device needed: counted for NVIDIA's subgroups of 32.
        return match spirv::run(32) {
            Ok(()) => ExitCode::SUCCESS,
            Err(err) => {
                eprintln!("error: {err}");
                ExitCode::FAILURE
            }
        };
    }
    let gpu = match Gpu::new() {
        Ok(gpu) => gpu,
        Err(err) => {
            eprintln!("error: {err}");
            return ExitCode::FAILURE;
        }
    };
    if !gpu
        .device()
        .features()
        .contains(wgpu::Features::TIMESTAMP_QUERY)
    {
        eprintln!("error: {} has no timestamp queries", gpu.describe());
        return ExitCode::FAILURE;
    }
    let info = gpu.info();
    let subgroup = info.subgroup_min_size;
    if subgroup != info.subgroup_max_size || subgroup == 0 {
        eprintln!(
            "error: the device's subgroup size varies ({}..{}); the benchmark needs one size",
            info.subgroup_min_size, info.subgroup_max_size
        );
        return ExitCode::FAILURE;
    }
    println!("device: {}", gpu.describe());
    println!("subgroup size: {subgroup}; median of {REPEATS} timed dispatches\n");
    let result = (|| {
        if what == "copy" {
            return compaction::copy_sweep(&gpu);
        }
        if what == "tiles" {
            return compaction::tiles(&gpu, subgroup, quick);
        }
        if what == "guard" {
            return compaction::guard(&gpu, subgroup);
        }
        if what == "shapes" {
            return shapes::run_all(&gpu, subgroup);
        }
        if what == "spins" {
            return compaction::spins(&gpu, subgroup, quick);
        }
        if what == "virtual" {
            return compaction::virtual_sizes(&gpu, quick);
        }
        if what == "files" {
            // `compact.*` and `scan.*` are the primitives'; the rest, ops rows.
            let (primitives, rows): (Vec<String>, Vec<String>) =
                rest.iter().cloned().partition(|path| {
                    let name = std::path::Path::new(path)
                        .file_name()
                        .and_then(|n| n.to_str())
                        .unwrap_or_default();
                    compaction::is_row(name.split('.').next().unwrap_or_default())
                });
            if !rows.is_empty() {
                ops::files(&gpu, subgroup, quick, &rows)?;
            }
            if !primitives.is_empty() {
                compaction::files(&gpu, subgroup, quick, &primitives)?;
            }
            return Ok(());
        }
        if what == "why" {
            return ops::why(&gpu, subgroup, quick);
        }
        if what != "compaction" {
            ops::run(&gpu, subgroup, quick)?;
        }
        if what != "ops" {
            compaction::run(&gpu, subgroup, quick)?;
        }
        Ok::<(), String>(())
    })();
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err}");
            ExitCode::FAILURE
        }
    }
}
