//! What the driver tests share: skipping where no driver exists, unless
//! `BALLOT_REQUIRE_GPU=1` (as CI sets) forbids it. Each skip is printed
//! and recorded in the ledger `scripts/test` summarises
//! ([`ballot_testkit`]).

#![allow(dead_code)] // Each test file uses its own part of this module.

pub use ballot_testkit::loud;

use ballot_shader::back::Target;

/// Whether `BALLOT_REQUIRE_GPU=1` forbids skipping.
pub fn required() -> bool {
    ballot_testkit::Need::Gpu.required()
}

/// Skips (loudly, and in the ledger) or fails, as `BALLOT_REQUIRE_GPU`
/// says.
#[track_caller]
pub fn skip(what: &str, why: &str) {
    ballot_testkit::skip_gpu(what, why);
}

/// The targets among `of` that `BALLOT_TARGETS` allows.
pub fn targets(of: &[Target]) -> Vec<Target> {
    match std::env::var("BALLOT_TARGETS") {
        Ok(list) if !list.trim().is_empty() => {
            let wanted: Vec<Target> = list
                .split(',')
                .map(|t| t.trim().parse().expect("BALLOT_TARGETS names a target"))
                .collect();
            of.iter().copied().filter(|t| wanted.contains(t)).collect()
        }
        _ => of.to_vec(),
    }
}

/// Links `shader` (named `path`) for `glsl-no-subgroup` at each virtual
/// subgroup size of `sizes`: [`linked_mismatches_on`] those runs.
pub fn linked_mismatches<const WORDS: usize>(
    gpu: &ballot_runner::Gpu,
    shader: (&str, &str),
    sizes: &[u32],
    options: impl Fn(u32) -> ballot_naga::link::LinkOptions,
    invocations: u32,
    expected: impl Fn(u32, u32) -> [u32; WORDS],
) -> Vec<String> {
    let runs: Vec<(Target, u32)> = sizes.iter().map(|&v| (Target::GlslNoSubgroup, v)).collect();
    linked_mismatches_on(gpu, shader, &runs, options, invocations, expected)
}

/// Links `shader` (named `path`) for each (target, subgroup size) of
/// `runs` (the size is the virtual one of an emulated target, the
/// adapter's of a hardware one), with the options `options` gives for
/// the size, runs it on `gpu` as one workgroup of `invocations` that each
/// write `WORDS` words, and compares invocation `i`'s words at size `v`
/// with `expected(i, v)`: one line for each invocation that differs.
pub fn linked_mismatches_on<const WORDS: usize>(
    gpu: &ballot_runner::Gpu,
    (shader, path): (&str, &str),
    runs: &[(Target, u32)],
    options: impl Fn(u32) -> ballot_naga::link::LinkOptions,
    invocations: u32,
    expected: impl Fn(u32, u32) -> [u32; WORDS],
) -> Vec<String> {
    let mut failures = Vec::new();
    for &(target, v) in runs {
        let linked = ballot_naga::link::link(shader, path, target, &options(v))
            .unwrap_or_else(|e| panic!("{target}, size {v}: {e}"));
        let got = gpu
            .run_storage(
                target,
                &linked.text,
                [invocations, 1, 1],
                [1, 1, 1],
                invocations as usize * WORDS,
            )
            .unwrap_or_else(|e| panic!("{target}, size {v}: {e}"));
        for i in 0..invocations {
            let at = i as usize * WORDS;
            let want = expected(i, v);
            if got[at..at + WORDS] != want {
                failures.push(format!(
                    "{target}, size {v}, invocation {i}: expected {want:x?}, got {:x?}",
                    &got[at..at + WORDS]
                ));
            }
        }
    }
    failures
}

/// Links `shader` (named `path`) for the `emulated` target at virtual
/// sizes 4 to 32 and for its `hardware` target at the adapter's size
/// (where the adapter has one size), runs each on the Vulkan adapter and
/// asserts that every invocation writes `expected(i, size)`: the
/// [`linked_mismatches_on`] of the runs the adapter takes. Without an
/// adapter, or a target it runs, it says why and passes, unless
/// `BALLOT_REQUIRE_GPU=1`; `what` names the test in those lines.
pub fn assert_linked_agree<const WORDS: usize>(
    what: &str,
    shader: (&str, &str),
    [emulated, hardware]: [Target; 2],
    invocations: u32,
    expected: impl Fn(u32, u32) -> [u32; WORDS],
) {
    let gpu = match ballot_runner::Gpu::new() {
        Ok(gpu) => gpu,
        Err(e) => return skip(what, &e.to_string()),
    };
    let mut runs = Vec::new();
    if gpu.unsupported(emulated).is_none() {
        runs.extend([4, 8, 16, 32].map(|v| (emulated, v)));
    }
    let info = gpu.info();
    if gpu.unsupported(hardware).is_none() && info.subgroup_min_size == info.subgroup_max_size {
        runs.push((hardware, info.subgroup_min_size));
    }
    if runs.is_empty() {
        if required() {
            panic!("{what}: neither {emulated} nor {hardware} runs on this adapter");
        }
        loud(&format!(
            "{what}: neither {emulated} nor {hardware} runs on this adapter: skipped"
        ));
        return;
    }
    let failures = linked_mismatches_on(
        &gpu,
        shader,
        &runs,
        |v| ballot_naga::link::LinkOptions::default().subgroup_size(v),
        invocations,
        expected,
    );
    assert!(
        failures.is_empty(),
        "{what}: {} mismatches:\n{}",
        failures.len(),
        failures[..failures.len().min(20)].join("\n")
    );
}
