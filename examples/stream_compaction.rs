//! Ordered stream compaction, the flagship use of ballots: every invocation
//! with an element to keep finds its output slot from one ballot and one
//! exclusive bit count, with no atomics and in input order, as
//! `torch.masked_select` keeps it.
//!
//! ```text
//! cargo run --example stream_compaction [COUNT]
//! ```
//!
//! Runs the kernels natively over COUNT elements (default 1000) in
//! subgroups of 32, checks the compacted stream against `Iterator::filter`,
//! and writes every target's compute shader (validated by naga when the
//! kernels compiled) to `target/ballot-examples/`. No GPU is needed.
//!
//! `cargo run -p ballot-runner --example stream_compaction_gpu [COUNT]`
//! does the same, then runs the shaders on a Vulkan adapter and compares
//! each invocation with the simulator. It includes this file as a module,
//! so that this example builds without wgpu.

mod common;

use std::process::ExitCode;

use ballot::prelude::*;

/// The slot of this invocation's element among the kept ones of its
/// subgroup: how many lanes below it keep theirs.
#[ballot::kernel]
pub fn compaction_slot(keep: bool) -> u32 {
    let kept = subgroup_ballot(keep);
    subgroup_ballot_exclusive_bit_count(kept)
}

/// How many elements the whole subgroup keeps: what the next subgroup's
/// slots start after.
#[ballot::kernel]
pub fn subgroup_kept(keep: bool) -> u32 {
    subgroup_ballot_bit_count(subgroup_ballot(keep))
}

const WORKGROUP: u32 = 64;
const SUBGROUP: u32 = 32;

fn main() -> ExitCode {
    let count = match count_arg() {
        Ok(count) => count,
        Err(code) => return code,
    };
    match run(count) {
        Ok(_) => {
            println!(
                "\nto run them on a Vulkan adapter and compare every invocation with the \
                 simulator: cargo run -p ballot-runner --example stream_compaction_gpu"
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// COUNT, the first argument (default 1000), or the exit code of a usage
/// error, already reported.
pub fn count_arg() -> Result<usize, ExitCode> {
    match std::env::args().nth(1).map(|s| s.parse::<usize>()) {
        None => Ok(1000),
        Some(Ok(n)) if n > 0 => Ok(n),
        _ => {
            eprintln!("error: COUNT must be a positive number");
            Err(ExitCode::from(2))
        }
    }
}

/// What a driver needs to run `compaction_slot` as the native run did.
pub struct Compaction {
    /// Each invocation's flag, padded to whole workgroups with `false`.
    pub keep: Vec<bool>,
    /// The workgroups of the dispatch, along x.
    pub workgroups: u32,
    /// The options the shaders were written with.
    pub options: ShaderOptions,
}

/// Compacts `count` elements natively, checks the result, prints the WGSL
/// helper and writes every target's compute shader.
pub fn run(count: usize) -> Result<Compaction, Box<dyn std::error::Error>> {
    // The input, padded to whole workgroups with elements nobody keeps.
    let workgroups = count.div_ceil(WORKGROUP as usize);
    let padded = workgroups * WORKGROUP as usize;
    let values: Vec<u32> = (0..padded as u32)
        .map(|i| i.wrapping_mul(2_654_435_761))
        .collect();
    let keep: Vec<bool> = (0..padded)
        .map(|i| i < count && values[i].is_multiple_of(3))
        .collect();

    // Pass 1, on the "GPU": per-subgroup slots and counts.
    let dispatch = Dispatch::new([WORKGROUP, 1, 1], SUBGROUP, [workgroups as u32, 1, 1])?;
    let slots = compaction_slot::run_dispatch(&dispatch, &keep)?;
    let kept = subgroup_kept::run_dispatch(&dispatch, &keep)?;

    // Pass 2: an exclusive scan of the subgroup counts gives each subgroup's
    // base (on a GPU, a cross-workgroup scan such as decoupled look-back).
    let mut base = Vec::new();
    let mut total = 0u32;
    for sg in dispatch.subgroups() {
        base.push(total);
        total += kept[sg.first_invocation];
    }

    // Pass 3: scatter each kept element to base + slot.
    let mut out = vec![0u32; total as usize];
    for (i, sg) in dispatch.subgroups().enumerate() {
        let lanes = sg.subgroup.active().count() as usize;
        for g in sg.first_invocation..sg.first_invocation + lanes {
            if keep[g] {
                out[(base[i] + slots[g]) as usize] = values[g];
            }
        }
    }
    let expected: Vec<u32> = values[..count]
        .iter()
        .zip(&keep)
        .filter(|(_, &k)| k)
        .map(|(&v, _)| v)
        .collect();
    assert_eq!(out, expected, "the compacted stream keeps the input order");
    println!(
        "kept {} of {count} elements, in order, over {} subgroups of {SUBGROUP}",
        out.len(),
        base.len()
    );

    // The shaders: the WGSL helper a renderer would paste in, then every
    // target's complete compute shader on disk.
    let options = ShaderOptions {
        workgroup_size: [WORKGROUP, 1, 1],
        subgroup_size: SUBGROUP,
        ..ShaderOptions::default()
    };
    println!("\n--- compaction_slot as a WGSL helper ---");
    println!(
        "{}",
        compaction_slot::shader(Target::Wgsl, Form::Helpers, &options)?
    );
    for path in common::write_shaders("stream_compaction", &compaction_slot::kernels(), &options)? {
        println!("wrote {}", path.display());
    }

    Ok(Compaction {
        keep,
        workgroups: workgroups as u32,
        options,
    })
}
