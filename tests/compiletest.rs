//! UI tests: each `tests/ui/<area>/<case>.rs` is a kernel with one mistake,
//! and its `.stderr` pins the diagnostic. Regenerate with
//! `TRYBUILD=overwrite cargo test --test compiletest`, then read the diff.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*/*.rs");
}
