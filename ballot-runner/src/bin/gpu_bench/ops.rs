//! Per operation: each ballot operation in a loop inside one kernel.
//!
//! Every kernel runs `ITERS` steps of `acc = (acc >> 1) + OP + i`, `UNROLL`
//! to a loop iteration, where the operation's input depends on `acc`, so that no iteration can be
//! hoisted or merged with another. Each iteration also ballots, because
//! every helper but the masks and elect takes a ballot. The kernels are
//! emitted as complete compute shaders (the shader interface of
//! `ballot_core::back`) and dispatched over 2^26 invocations.

use ballot::prelude::*;
use ballot_core::ir::Kernel;
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
// make them one exchange (`ballot_core::lower::share`), the native targets
// four ballots.
op_kernel!(op_four_ballots, |p, acc, i| subgroup_ballot(p).count()
    + subgroup_ballot((acc & 2u32) == 0u32).count()
    + subgroup_ballot((acc & 4u32) == 0u32).count()
    + subgroup_ballot((acc & 8u32) == 0u32).count());

/// Every benchmark kernel, with the operation it measures.
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
    for (op, kernel) in kernels() {
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
        for ((target, _), out) in VARIANTS.iter().zip(&outputs).skip(1) {
            if *out != outputs[0] {
                return Err(format!("{op}: {target} disagrees with glsl"));
            }
        }
        println!("| {op} | {:.3} | {} |", times[0], ratios(&times));
    }
    println!();
    Ok(())
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
