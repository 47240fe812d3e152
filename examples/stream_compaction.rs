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
//! writes every target's compute shader to `target/ballot-examples/`, and,
//! when a Vulkan adapter exists, runs the shaders and compares each
//! invocation with the simulator.

mod common;

use std::process::ExitCode;

use ballot::prelude::*;
use ballot_core::interp::{Arg, Value};

/// The slot of this invocation's element among the kept ones of its
/// subgroup: how many lanes below it keep theirs.
#[ballot::kernel]
fn compaction_slot(keep: bool) -> u32 {
    let kept = subgroup_ballot(keep);
    subgroup_ballot_exclusive_bit_count(kept)
}

/// How many elements the whole subgroup keeps: what the next subgroup's
/// slots start after.
#[ballot::kernel]
fn subgroup_kept(keep: bool) -> u32 {
    subgroup_ballot_bit_count(subgroup_ballot(keep))
}

const WORKGROUP: u32 = 64;
const SUBGROUP: u32 = 32;

fn main() -> ExitCode {
    let count = match std::env::args().nth(1).map(|s| s.parse::<usize>()) {
        None => 1000,
        Some(Ok(n)) if n > 0 => n,
        _ => {
            eprintln!("error: COUNT must be a positive number");
            return ExitCode::from(2);
        }
    };
    match run(count) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(count: usize) -> Result<bool, Box<dyn std::error::Error>> {
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

    // The same kernel on a real driver, when there is one.
    let keep_arg = Arg::PerLane(keep.iter().map(|&k| Value::Bool(k)).collect());
    let result = common::on_gpu(
        &compaction_slot::kernels(),
        &[
            Target::Glsl,
            Target::GlslNoSubgroup,
            Target::Wgsl,
            Target::WgslNoSubgroup,
        ],
        &options,
        [workgroups as u32, 1, 1],
        vec![keep_arg],
        |d| {
            Ok(compaction_slot::run_dispatch(d, &keep)?
                .into_iter()
                .map(Value::U32)
                .collect())
        },
    );
    Ok(common::report(result))
}
