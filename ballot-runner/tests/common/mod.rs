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
