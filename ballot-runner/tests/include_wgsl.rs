//! A hand-written shader that calls four ballot helpers
//! (tests/linked/four.wgsl), linked by `ballot::include_wgsl!` for every
//! WGSL target, run on the drivers and compared invocation by invocation
//! with the native simulator running the same logic as a kernel:
//!
//! - wgpu on Vulkan (lavapipe in CI): `wgsl` in the driver's subgroups,
//!   `wgsl-no-subgroup` in virtual subgroups of 32;
//! - Dawn/Tint (Node's `webgpu`): `wgsl-web` and `wgsl-no-subgroup`.
//!
//! The simulator is given the subgroup size each invocation reports.
//! Without a Vulkan adapter (or Node's `webgpu`) the tests say why on
//! stderr and pass, unless `BALLOT_REQUIRE_GPU=1`.

use ballot::prelude::*;
use ballot_runner::dawn::{Dawn, StorageJob};
use ballot_runner::Gpu;

mod common;

use common::{loud, required, skip};

const SHADERS: [&str; 3] = ballot::include_wgsl!(
    "../tests/linked/four.wgsl",
    targets = ["wgsl", "wgsl-web", "wgsl-no-subgroup"]
);
const WORKGROUP: u32 = 64;
const WORKGROUPS: u32 = 4;
const INVOCATIONS: usize = (WORKGROUP * WORKGROUPS) as usize;
/// Two `vec4<u32>` records per invocation.
const WORDS: usize = INVOCATIONS * 8;

/// The shader's `keep`, in Rust.
fn keep(i: u32) -> bool {
    i.is_multiple_of(3) || (i.wrapping_mul(2654435761) >> 28) & 1 == 1
}

/// The shader's logic as a kernel: its four results, one byte each.
#[ballot::kernel]
fn four(keep: bool) -> u32 {
    let kept = subgroup_ballot(keep);
    subgroup_ballot_bit_count(kept)
        | (subgroup_ballot_exclusive_bit_count(kept) << 8)
        | (subgroup_ballot_find_lsb(kept) << 16)
        | ((subgroup_ballot_bit_extract(kept, 3) as u32) << 24)
}

/// Compares a driver's records with the simulator at the subgroup size
/// the driver reported; `emulated`: the linker's documented layout
/// (lane = local index % 32) is asserted too.
fn check(what: &str, words: &[u32], emulated: bool) {
    assert_eq!(words.len(), WORDS, "{what}");
    let size = words[5];
    assert!(
        size.is_power_of_two() && size <= 128,
        "{what}: subgroup size {size}"
    );
    if emulated {
        assert_eq!(size, 32, "{what}: the default virtual subgroup size");
    }
    let input: Vec<bool> = (0..INVOCATIONS as u32).map(keep).collect();
    let dispatch = Dispatch::new([WORKGROUP, 1, 1], size, [WORKGROUPS, 1, 1]).unwrap();
    let expected = four::run_dispatch(&dispatch, &input).unwrap();
    let mut mismatches = Vec::new();
    for (g, &want) in expected.iter().enumerate() {
        let r = &words[8 * g..8 * g + 8];
        let got = r[0] | (r[1] << 8) | (r[2] << 16) | (r[3] << 24);
        let (lane, reported) = (r[4], r[5]);
        assert_eq!(reported, size, "{what}: invocation {g}'s subgroup size");
        assert_eq!(lane, g as u32 % size, "{what}: invocation {g}'s lane");
        if got != want || r[0..4].iter().any(|&w| w > 255) {
            mismatches.push(format!(
                "invocation {g}: {:?}, simulator {want:#010x}",
                &r[0..4]
            ));
        }
    }
    assert!(
        mismatches.is_empty(),
        "{what}: {} of {INVOCATIONS} invocations differ from the simulator:\n{}",
        mismatches.len(),
        mismatches[..mismatches.len().min(8)].join("\n")
    );
    loud(&format!(
        "{what}: {INVOCATIONS} invocations agree with the simulator in subgroups of {size}"
    ));
}

#[test]
fn the_linked_shader_agrees_with_the_simulator_on_vulkan() {
    let gpu = match Gpu::new() {
        Ok(gpu) => gpu,
        Err(e) => return skip("the linked shader on Vulkan", &e.to_string()),
    };
    for (target, text) in [
        (Target::Wgsl, SHADERS[0]),
        (Target::WgslNoSubgroup, SHADERS[2]),
    ] {
        let what = format!("four.wgsl linked for {target} on {}", gpu.describe());
        if let Some(why) = gpu.unsupported(target) {
            skip(&what, &why);
            continue;
        }
        let words = gpu
            .run_storage(target, text, [WORKGROUP, 1, 1], [WORKGROUPS, 1, 1], WORDS)
            .unwrap_or_else(|e| panic!("{what}: {e}"));
        check(&what, &words, target == Target::WgslNoSubgroup);
    }
}

#[test]
fn the_linked_shader_agrees_with_the_simulator_on_dawn() {
    let dawn = match Dawn::find() {
        Ok(dawn) => dawn,
        Err(why) => return skip("the linked shader on Dawn", &why),
    };
    let targets = [
        (Target::WgslWeb, SHADERS[1]),
        (Target::WgslNoSubgroup, SHADERS[2]),
    ];
    let jobs: Vec<StorageJob> = targets
        .iter()
        .map(|&(target, text)| StorageJob {
            name: format!("four.wgsl linked for {target} on Dawn"),
            target,
            shader: text.to_string(),
            workgroups: [WORKGROUPS, 1, 1],
            words: WORDS,
        })
        .collect();
    let results = match dawn.run_storage(&jobs) {
        Ok(results) => results,
        Err(e) if !required() && e.to_string().contains("no Vulkan adapter") => {
            return skip("the linked shader on Dawn", &e.to_string())
        }
        Err(e) => panic!("{e}"),
    };
    for ((job, result), (target, _)) in jobs.iter().zip(results).zip(targets) {
        let words = result.unwrap_or_else(|e| panic!("{}: {e}", job.name));
        check(&job.name, &words, target == Target::WgslNoSubgroup);
    }
}

/// `include_wgsl!(.., descriptor)`: the same shaders as wgpu's shader
/// module descriptors, made into modules by the device and run.
#[test]
fn the_descriptors_make_modules_that_agree_with_the_simulator() {
    let gpu = match Gpu::new() {
        Ok(gpu) => gpu,
        Err(e) => return skip("the linked shader's descriptors on Vulkan", &e.to_string()),
    };
    let descriptors = ballot::include_wgsl!(
        "../tests/linked/four.wgsl",
        targets = ["wgsl", "wgsl-no-subgroup"],
        descriptor
    );
    let targets = [Target::Wgsl, Target::WgslNoSubgroup];
    for (descriptor, target) in descriptors.into_iter().zip(targets) {
        let label = descriptor.label.unwrap_or_default().to_string();
        assert_eq!(label, format!("../tests/linked/four.wgsl ({target})"));
        if let Some(why) = gpu.unsupported(target) {
            skip(&label, &why);
            continue;
        }
        let words = gpu
            .run_storage_module(
                &label,
                || Ok(gpu.device().create_shader_module(descriptor)),
                [WORKGROUPS, 1, 1],
                WORDS,
            )
            .unwrap_or_else(|e| panic!("{label}: {e}"));
        check(&label, &words, target == Target::WgslNoSubgroup);
    }
}
