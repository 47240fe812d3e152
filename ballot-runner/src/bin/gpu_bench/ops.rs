//! Per operation: each subgroup operation in a loop inside one kernel.
//!
//! Every kernel runs `ITERS` steps of `acc = (acc >> 1) + OP + i`, `UNROLL`
//! to a loop iteration, where the operation's input depends on `acc`, so that no iteration can be
//! hoisted or merged with another. In the ballot family each iteration
//! also ballots, because every helper but the masks and elect takes a
//! ballot; votes, arithmetic, shuffles and quads take `acc` (or the
//! step's predicate) directly. The kernels are emitted as complete compute
//! shaders (the shader interface of `ballot_shader::back`) and dispatched
//! over 2^26 invocations.

use ballot::prelude::*;
use ballot_ir::ir::Kernel;
use ballot_runner::Gpu;

use crate::timing::{self, grid, ratios};
use crate::{shader_text, RATIO_HEADERS, REPEATS, VARIANTS};

/// Loop iterations inside each kernel.
const ITERS: u32 = 64;

/// A benchmark kernel: `p` is this step's predicate, `acc` the
/// loop-carried value, `i` the step. Each loop iteration takes
/// `UNROLL` steps, so that the loop's own cost (its counter and branch, and
/// the loop bounding that wgpu adds to WGSL) is spread over them, as it is
/// in any loop a compiler unrolls; what remains is the operation's cost.
macro_rules! op_kernel {
    ($name:ident, |$p:ident, $acc:ident, $i:ident| $op:expr) => {
        // One `1u32` per step: macro_rules repeats what a list holds.
        op_kernel!(@unrolled $name, $p, $acc, $i, $op, [1u32 1u32 1u32 1u32 1u32 1u32 1u32 1u32]);
    };
    (@unrolled $name:ident, $p:ident, $acc:ident, $i:ident, $op:expr, [$($one:tt)*]) => {
        #[ballot::kernel]
        fn $name(x: u32, #[uniform] iters: u32) -> u32 {
            let mut $acc = x;
            let mut $i = 0u32;
            while $i < iters {
                $(
                    let $p: bool = ($acc & 1u32) == 0u32;
                    $acc = ($acc >> 1u32) + ($op) + $i;
                    $i += $one;
                )*
            }
            $acc
        }
    };
}

/// Steps per loop iteration in each kernel ([`ITERS`] is a multiple).
const UNROLL: u32 = 8;
const _: () = assert!(ITERS.is_multiple_of(UNROLL));

op_kernel!(op_ballot, |p, acc, i| subgroup_ballot(p).count());
op_kernel!(op_inverse_ballot, |p, acc, i| {
    subgroup_inverse_ballot(subgroup_ballot(p)) as u32
});
op_kernel!(op_bit_extract, |p, acc, i| {
    subgroup_ballot_bit_extract(subgroup_ballot(p), (acc >> 1u32) & 31u32) as u32
});
op_kernel!(op_bit_count, |p, acc, i| subgroup_ballot_bit_count(
    subgroup_ballot(p)
));
op_kernel!(op_inclusive_bit_count, |p, acc, i| {
    subgroup_ballot_inclusive_bit_count(subgroup_ballot(p))
});
op_kernel!(op_exclusive_bit_count, |p, acc, i| {
    subgroup_ballot_exclusive_bit_count(subgroup_ballot(p))
});
op_kernel!(op_find_lsb, |p, acc, i| subgroup_ballot_find_lsb(
    subgroup_ballot(p)
));
op_kernel!(op_find_msb, |p, acc, i| subgroup_ballot_find_msb(
    subgroup_ballot(p)
));
op_kernel!(op_eq_mask, |p, acc, i| (subgroup_eq_mask()
    & SubgroupMask::lane(acc & 31u32))
.count());
op_kernel!(op_ge_mask, |p, acc, i| (subgroup_ge_mask()
    & SubgroupMask::lane(acc & 31u32))
.count());
op_kernel!(op_gt_mask, |p, acc, i| (subgroup_gt_mask()
    & SubgroupMask::lane(acc & 31u32))
.count());
op_kernel!(op_le_mask, |p, acc, i| (subgroup_le_mask()
    & SubgroupMask::lane(acc & 31u32))
.count());
op_kernel!(op_lt_mask, |p, acc, i| (subgroup_lt_mask()
    & SubgroupMask::lane(acc & 31u32))
.count());
op_kernel!(op_elect, |p, acc, i| {
    (if p {
        subgroup_elect()
    } else {
        subgroup_elect()
    }) as u32
});
op_kernel!(op_broadcast_first, |p, acc, i| subgroup_broadcast_first(
    acc
));
op_kernel!(op_broadcast, |p, acc, i| subgroup_broadcast(acc, 5u32));
// Four ballots whose predicates read only the step's input: the fallbacks
// make them one exchange (`ballot_shader::lower::share`), the native targets
// four ballots.
op_kernel!(op_four_ballots, |p, acc, i| subgroup_ballot(p).count()
    + subgroup_ballot((acc & 2u32) == 0u32).count()
    + subgroup_ballot((acc & 4u32) == 0u32).count()
    + subgroup_ballot((acc & 8u32) == 0u32).count());

// The rest of the family: votes, arithmetic, shuffles and quads. Each
// operand is `acc` or read from it. The float operations take `acc & 255`,
// so that every sum and minimum is exact in `f32` whatever the order in
// which the lanes are combined, and every form computes the same bits.
op_kernel!(op_all, |p, acc, i| subgroup_all(p) as u32);
op_kernel!(op_any, |p, acc, i| subgroup_any(p) as u32);
op_kernel!(op_all_equal, |p, acc, i| subgroup_all_equal(acc) as u32);
op_kernel!(op_i_add, |p, acc, i| subgroup_i_add(acc));
op_kernel!(op_inclusive_i_add, |p, acc, i| subgroup_inclusive_i_add(
    acc
));
op_kernel!(op_exclusive_i_add, |p, acc, i| subgroup_exclusive_i_add(
    acc
));
op_kernel!(op_f_add, |p, acc, i| subgroup_f_add((acc & 255u32) as f32)
    as u32);
op_kernel!(op_i_mul, |p, acc, i| subgroup_i_mul(acc | 1u32));
op_kernel!(op_u_min, |p, acc, i| subgroup_u_min(acc));
op_kernel!(op_s_max, |p, acc, i| subgroup_s_max(acc as i32) as u32);
op_kernel!(op_inclusive_u_max, |p, acc, i| subgroup_inclusive_u_max(
    acc
));
op_kernel!(op_exclusive_u_min, |p, acc, i| subgroup_exclusive_u_min(
    acc
));
op_kernel!(op_f_min, |p, acc, i| subgroup_f_min((acc & 255u32) as f32)
    as u32);
op_kernel!(op_and, |p, acc, i| subgroup_and(acc));
op_kernel!(op_or, |p, acc, i| subgroup_or(acc));
op_kernel!(op_xor, |p, acc, i| subgroup_xor(acc));
// A lane id read from `acc`, within the subgroup.
op_kernel!(op_shuffle, |p, acc, i| subgroup_shuffle(
    acc,
    (acc >> 3u32) & (subgroup_size() - 1u32)
));
op_kernel!(op_shuffle_xor, |p, acc, i| subgroup_shuffle_xor(acc, 1u32));
// A delta of 1, and 0 where lane own - 1 (own + 1) is outside the
// subgroup, which would be undefined.
op_kernel!(op_shuffle_up, |p, acc, i| subgroup_shuffle_up(
    acc,
    if subgroup_local_invocation_id() == 0u32 {
        0u32
    } else {
        1u32
    }
));
op_kernel!(op_shuffle_down, |p, acc, i| subgroup_shuffle_down(
    acc,
    if subgroup_local_invocation_id() + 1u32 == subgroup_size() {
        0u32
    } else {
        1u32
    }
));
op_kernel!(op_quad_broadcast, |p, acc, i| subgroup_quad_broadcast(
    acc, 1u32
));
op_kernel!(
    op_quad_swap_horizontal,
    |p, acc, i| subgroup_quad_swap::<0>(acc)
);
op_kernel!(op_quad_swap_vertical, |p, acc, i| subgroup_quad_swap::<1>(
    acc
));
op_kernel!(op_quad_swap_diagonal, |p, acc, i| subgroup_quad_swap::<2>(
    acc
));

// Clustered reductions over clusters of 4, 8 and 16 lanes: GLSL's own
// functions on `glsl`, a shuffle walk on `wgsl`, exchanges elsewhere.
op_kernel!(op_clustered_i_add, |p, acc, i| subgroup_clustered_i_add::<
    4,
    _,
>(acc));
op_kernel!(op_clustered_u_max, |p, acc, i| subgroup_clustered_u_max::<
    8,
    _,
>(acc));
op_kernel!(
    op_clustered_and,
    |p, acc, i| subgroup_clustered_and::<16, _>(acc)
);

/// Every benchmark kernel, with the operation it measures: the ballot
/// family, then the rest of the family.
fn kernels() -> Vec<(&'static str, &'static Kernel)> {
    vec![
        ("Ballot", op_ballot::ir()),
        ("InverseBallot", op_inverse_ballot::ir()),
        ("BitExtract", op_bit_extract::ir()),
        ("BitCount", op_bit_count::ir()),
        ("InclusiveBitCount", op_inclusive_bit_count::ir()),
        ("ExclusiveBitCount", op_exclusive_bit_count::ir()),
        ("FindLSB", op_find_lsb::ir()),
        ("FindMSB", op_find_msb::ir()),
        ("EqMask", op_eq_mask::ir()),
        ("GeMask", op_ge_mask::ir()),
        ("GtMask", op_gt_mask::ir()),
        ("LeMask", op_le_mask::ir()),
        ("LtMask", op_lt_mask::ir()),
        ("Elect", op_elect::ir()),
        ("BroadcastFirst", op_broadcast_first::ir()),
        ("Broadcast", op_broadcast::ir()),
        ("4 Ballots, one exchange", op_four_ballots::ir()),
        ("All", op_all::ir()),
        ("Any", op_any::ir()),
        ("AllEqual", op_all_equal::ir()),
        ("IAdd", op_i_add::ir()),
        ("InclusiveIAdd", op_inclusive_i_add::ir()),
        ("ExclusiveIAdd", op_exclusive_i_add::ir()),
        ("FAdd", op_f_add::ir()),
        ("IMul", op_i_mul::ir()),
        ("UMin", op_u_min::ir()),
        ("SMax", op_s_max::ir()),
        ("InclusiveUMax", op_inclusive_u_max::ir()),
        ("ExclusiveUMin", op_exclusive_u_min::ir()),
        ("FMin", op_f_min::ir()),
        ("And", op_and::ir()),
        ("Or", op_or::ir()),
        ("Xor", op_xor::ir()),
        ("Shuffle", op_shuffle::ir()),
        ("ShuffleXor", op_shuffle_xor::ir()),
        ("ShuffleUp", op_shuffle_up::ir()),
        ("ShuffleDown", op_shuffle_down::ir()),
        ("QuadBroadcast", op_quad_broadcast::ir()),
        ("QuadSwapHorizontal", op_quad_swap_horizontal::ir()),
        ("QuadSwapVertical", op_quad_swap_vertical::ir()),
        ("QuadSwapDiagonal", op_quad_swap_diagonal::ir()),
        ("ClusteredIAdd4", op_clustered_i_add::ir()),
        ("ClusteredUMax8", op_clustered_u_max::ir()),
        ("ClusteredAnd16", op_clustered_and::ir()),
    ]
}

/// Each operation's compute shader in its `glsl` and `wgsl` forms.
pub fn shaders(subgroup: u32) -> Result<Vec<(&'static str, String, String)>, String> {
    kernels()
        .into_iter()
        .map(|(op, kernel)| {
            let glsl = shader(Target::Glsl, kernel, subgroup)?;
            Ok((op, glsl, shader(Target::Wgsl, kernel, subgroup)?))
        })
        .collect()
}

/// `kernel`'s compute shader for `target`.
fn shader(target: Target, kernel: &'static Kernel, subgroup: u32) -> Result<String, String> {
    shader_text(target, Form::ComputeShader, &[kernel], subgroup)
}

/// The file name of `row`'s shader for `target` in `gpu_bench dump` and
/// `gpu_bench files`: the row's name without spaces, the target, and the
/// language's extension.
fn file_name(row: &str, target: Target) -> String {
    let ext = match target.language() {
        ballot_shader::back::Language::Glsl => "glsl",
        ballot_shader::back::Language::Wgsl => "wgsl",
    };
    format!("{}.{target}.{ext}", row.replace([' ', ','], "_"))
}

/// The rows `GPU_BENCH_ROWS` names (comma-separated), or every row.
fn wanted(row: &str) -> bool {
    std::env::var("GPU_BENCH_ROWS").map_or(true, |rows| rows.split(',').any(|r| r.trim() == row))
}

/// Writes every row's shader for every target into `dir` (no GPU needed),
/// so that a later `gpu_bench files` can time these texts beside another
/// commit's or hand-edited variants.
pub fn dump(dir: &std::path::Path, subgroup: u32) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    for (row, kernel) in kernels() {
        for target in [
            Target::Glsl,
            Target::Wgsl,
            Target::GlslNoSubgroup,
            Target::WgslNoSubgroup,
        ] {
            let text = shader(target, kernel, subgroup)?;
            std::fs::write(dir.join(file_name(row, target)), text).map_err(|e| e.to_string())?;
        }
    }
    Ok(())
}

/// A file's name, and the row and target it names, as `ROW.TARGET.EXT`
/// (any suffix after: a variant), as `dump` writes them.
pub fn named_file(path: &str) -> Result<(String, String, Target), String> {
    let name = std::path::Path::new(path)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default()
        .to_string();
    let mut parts = name.splitn(3, '.');
    let (Some(row), Some(target)) = (parts.next(), parts.next()) else {
        return Err(format!("{path}: not ROW.TARGET.EXT"));
    };
    let target: Target = target.parse().map_err(|_| format!("{path}: no target"))?;
    let row = row.to_string();
    Ok((name, row, target))
}

/// Times shader texts from files: each argument is a file named
/// `ROW.TARGET.EXT[.anything]`, as `gpu_bench dump` writes them (a suffix
/// marks a variant), compiled for that target and run as the row's kernel
/// is. Each row's `glsl` form is emitted and timed first; every file's
/// time is reported with its ratio to it, and its first outputs checked
/// against it. `quick` runs 2^16 invocations, within lavapipe's limits.
pub fn files(gpu: &Gpu, subgroup: u32, quick: bool, paths: &[String]) -> Result<(), String> {
    let invocations: u32 = if quick { 1 << 16 } else { 1 << 26 };
    let workgroups = invocations / 256;
    let xs: Vec<u32> = (0..invocations)
        .map(|i| i.wrapping_mul(0x9E37_79B9).rotate_left(7))
        .collect();
    let input = timing::upload(gpu, "x", &xs);
    let iters = timing::upload(gpu, "iters", &[ITERS]);
    let output = timing::storage(gpu, "out", invocations as usize);
    let measure = |target: Target, label: &str, text: &str| -> Result<(f64, Vec<u32>), String> {
        let pipeline =
            timing::Kernel::with_checks(gpu, target, label, text, &[true, true, false], true)?;
        let group = pipeline.bind(gpu, &[&input, &iters, &output]);
        let ms = timing::time(gpu, &pipeline, &group, grid(workgroups), REPEATS, &|_| {}).median;
        Ok((ms, timing::download(gpu, &output, 4096)))
    };
    println!("| file | ms | / glsl | outputs |");
    println!("|---|---|---|---|");
    let mut natives: std::collections::BTreeMap<String, (f64, Vec<u32>)> = Default::default();
    let mut failed = false;
    for path in paths {
        let (name, row, target) = named_file(path)?;
        let row = row.as_str();
        let Some((_, kernel)) = kernels()
            .into_iter()
            .find(|(r, _)| r.replace([' ', ','], "_") == row)
        else {
            return Err(format!("{path}: no row {row}"));
        };
        if !natives.contains_key(row) {
            let text = shader(Target::Glsl, kernel, subgroup)?;
            let native = measure(Target::Glsl, row, &text)?;
            println!("| {row} (glsl, emitted) | {:.3} | 1.00 | |", native.0);
            natives.insert(row.to_string(), native);
        }
        let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
        let (ms, out) = match measure(target, &name, &text) {
            Ok(m) => m,
            Err(e) => {
                println!(
                    "| {name} | error: {} | | |",
                    e.lines().next().unwrap_or_default()
                );
                failed = true;
                continue;
            }
        };
        let native = &natives[row];
        let agree = if out == native.1 { "agree" } else { "DISAGREE" };
        failed |= out != native.1;
        println!("| {name} | {ms:.3} | {:.2} | {agree} |", ms / native.0);
    }
    if failed {
        Err("some files failed or disagree".to_string())
    } else {
        Ok(())
    }
}

/// Times every operation on every target and prints the ratios to `glsl`.
pub fn run(gpu: &Gpu, subgroup: u32, quick: bool) -> Result<(), String> {
    let invocations: u32 = if quick { 1 << 16 } else { 1 << 26 };
    let workgroups = invocations / 256;
    let xs: Vec<u32> = (0..invocations)
        .map(|i| i.wrapping_mul(0x9E37_79B9).rotate_left(7))
        .collect();
    let input = timing::upload(gpu, "x", &xs);
    let iters = timing::upload(gpu, "iters", &[ITERS]);
    let output = timing::storage(gpu, "out", invocations as usize);
    println!(
        "## Per operation: {ITERS} steps in one kernel, {UNROLL} per loop iteration, 2^{} invocations\n",
        invocations.trailing_zeros()
    );
    println!("| operation | glsl (ms) | {RATIO_HEADERS} |");
    println!("|---|---|---|---|---|---|");
    let mut disagreements = Vec::new();
    for (op, kernel) in kernels().into_iter().filter(|(op, _)| wanted(op)) {
        let mut times = Vec::new();
        let mut outputs = Vec::new();
        for (target, checks) in VARIANTS {
            let text = shader(target, kernel, subgroup)?;
            let label = format!("{}-{target}", kernel.name);
            let pipeline = timing::Kernel::with_checks(
                gpu,
                target,
                &label,
                &text,
                &[true, true, false],
                checks,
            )?;
            let group = pipeline.bind(gpu, &[&input, &iters, &output]);
            let ms =
                timing::time(gpu, &pipeline, &group, grid(workgroups), REPEATS, &|_| {}).median;
            times.push(ms);
            outputs.push(timing::download(
                gpu,
                &output,
                4096.min(invocations as usize),
            ));
        }
        // The forms must compute the same thing for their times to compare:
        // every target's first invocations against the native one's.
        // (Broadcast and the masks read lane ids, which the emulated targets
        // lay out exactly as the driver does here: lane = index % size.)
        // A row that disagrees is still printed, marked, so that one
        // operation does not cost the rest of the table; the run fails at
        // the end.
        let mut mark = "";
        for ((target, _), out) in VARIANTS.iter().zip(&outputs).skip(1) {
            if *out != outputs[0] {
                disagreements.push(format!("{op}: {target} disagrees with glsl"));
                mark = " (outputs disagree)";
            }
        }
        println!("| {op}{mark} | {:.3} | {} |", times[0], ratios(&times));
    }
    println!();
    if disagreements.is_empty() {
        Ok(())
    } else {
        Err(disagreements.join("; "))
    }
}

/// The `glsl-no-subgroup` text through naga (GLSL front end, WGSL writer):
/// the same algorithm as the GLSL fallback, compiled as WGSL is.
fn through_naga(glsl: &str) -> Result<String, String> {
    let mut frontend = naga::front::glsl::Frontend::default();
    let options = naga::front::glsl::Options::from(naga::ShaderStage::Compute);
    let module = frontend
        .parse(&options, glsl)
        .map_err(|e| format!("naga's GLSL front end: {e:?}"))?;
    let info = naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::all(),
    )
    .validate(&module)
    .map_err(|e| format!("naga: {e:?}"))?;
    let text =
        naga::back::wgsl::write_string(&module, &info, naga::back::wgsl::WriterFlags::empty())
            .map_err(|e| format!("naga's WGSL writer: {e:?}"))?;
    // naga reads GLSL's barrier() as every barrier there is; in Vulkan
    // GLSL it is a workgroup barrier, ordering shared memory.
    Ok(text
        .lines()
        .filter(|line| {
            let line = line.trim();
            line != "storageBarrier();"
                && line != "subgroupBarrier();"
                && line != "textureBarrier();"
        })
        .collect::<Vec<_>>()
        .join("\n"))
}

/// Where the WGSL fallback's time goes: the collectives' times as ratios to
/// `glsl`, for the GLSL fallback compiled by glslang and by naga (GLSL in,
/// WGSL out, then wgpu), and for the WGSL fallback, each with and without
/// wgpu's runtime checks.
pub fn why(gpu: &Gpu, subgroup: u32, quick: bool) -> Result<(), String> {
    let invocations: u32 = if quick { 1 << 16 } else { 1 << 26 };
    let workgroups = invocations / 256;
    let xs: Vec<u32> = (0..invocations)
        .map(|i| i.wrapping_mul(0x9E37_79B9).rotate_left(7))
        .collect();
    let input = timing::upload(gpu, "x", &xs);
    let iters = timing::upload(gpu, "iters", &[ITERS]);
    let output = timing::storage(gpu, "out", invocations as usize);
    println!("## Where the WGSL fallback's time goes (ratios to glsl)\n");
    println!(
        "| operation | glsl (ms) | glsl-no-subgroup (glslang) | the same through naga | \
         the same, unchecked | wgsl-no-subgroup | wgsl-no-subgroup, unchecked |"
    );
    println!("|---|---|---|---|---|---|---|");
    let wanted = ["Ballot", "BitCount", "Elect", "BroadcastFirst", "Broadcast"];
    for (op, kernel) in kernels().into_iter().filter(|(op, _)| wanted.contains(op)) {
        let glsl_fallback = shader(Target::GlslNoSubgroup, kernel, subgroup)?;
        let naga_text = through_naga(&glsl_fallback)?;
        let wgsl_fallback = shader(Target::WgslNoSubgroup, kernel, subgroup)?;
        let variants = [
            (Target::Glsl, shader(Target::Glsl, kernel, subgroup)?, true),
            (Target::GlslNoSubgroup, glsl_fallback, true),
            (Target::WgslNoSubgroup, naga_text.clone(), true),
            (Target::WgslNoSubgroup, naga_text, false),
            (Target::WgslNoSubgroup, wgsl_fallback.clone(), true),
            (Target::WgslNoSubgroup, wgsl_fallback, false),
        ];
        let mut times = Vec::new();
        let mut outputs = Vec::new();
        for (i, (target, text, checks)) in variants.iter().enumerate() {
            let label = format!("{}-why-{i}", kernel.name);
            let pipeline = timing::Kernel::with_checks(
                gpu,
                *target,
                &label,
                text,
                &[true, true, false],
                *checks,
            )?;
            let group = pipeline.bind(gpu, &[&input, &iters, &output]);
            times.push(
                timing::time(gpu, &pipeline, &group, grid(workgroups), REPEATS, &|_| {}).median,
            );
            outputs.push(timing::download(
                gpu,
                &output,
                4096.min(invocations as usize),
            ));
        }
        if outputs.iter().any(|out| *out != outputs[0]) {
            return Err(format!("{op}: the variants disagree"));
        }
        println!("| {op} | {:.3} | {} |", times[0], ratios(&times));
    }
    println!();
    Ok(())
}
