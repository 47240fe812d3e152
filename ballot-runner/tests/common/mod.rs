//! What the driver tests share: skipping where no driver exists, unless
//! `BALLOT_REQUIRE_GPU=1` (as CI sets) forbids it.

#![allow(dead_code)] // Each test file uses its own part of this module.

use std::io::Write as _;

/// Whether `BALLOT_REQUIRE_GPU=1` forbids skipping.
pub fn required() -> bool {
    std::env::var("BALLOT_REQUIRE_GPU").is_ok_and(|v| v == "1")
}

/// Prints past the test harness's capture, so that a skip is seen even in
/// a passing run.
pub fn loud(message: &str) {
    let _ = writeln!(std::io::stderr(), "{message}");
}

/// Skips (loudly) or fails, as `BALLOT_REQUIRE_GPU` says.
pub fn skip(what: &str, why: &str) {
    if required() {
        panic!("{what}: {why} (BALLOT_REQUIRE_GPU=1 forbids skipping)");
    }
    loud(&format!("SKIPPED {what}: {why}"));
}
