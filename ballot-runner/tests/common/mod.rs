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
