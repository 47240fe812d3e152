//! `scripts/test` itself, on a workspace with planted failures.
//!
//! The script is copied, unchanged, into a small workspace of its own whose
//! test binaries stand where the real suite's do: `compiletest`, early,
//! fails; `drivers` and `primitives` pass; `zz_late` fails too, and records
//! that it ran; the stress build's ignored test records that it ran. A
//! failure must not hide a later one: every binary runs, every step runs,
//! and the summary names both failed binaries and the failed step.

use std::path::{Path, PathBuf};
use std::process::Command;

const MANIFEST: &str = r#"[package]
name = "planted"
version = "0.0.0"
edition = "2021"
publish = false

[features]
glam = []
portability = []

[workspace]
"#;

/// A test that fails.
const FAILS: &str = r#"#[test]
fn planted_failure() {
    panic!("planted failure");
}
"#;

const PASSES: &str = "#[test]\nfn passes() {}\n";

/// A test that writes `name` into the directory `PLANTED_MARKS` names, and
/// fails if `fail`.
fn marks(name: &str, fail: bool, ignored: bool) -> String {
    format!(
        "#[test]\n{}fn marks() {{\n    let dir = std::path::PathBuf::from(env!(\"PLANTED_MARKS\"));\n    \
         std::fs::write(dir.join(\"{name}\"), \"ran\").unwrap();\n    assert!(!{fail}, \"planted failure\");\n}}\n",
        if ignored { "#[ignore]\n" } else { "" }
    )
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the testkit is in the workspace")
        .to_path_buf()
}

#[test]
fn a_failing_binary_is_named_and_the_later_ones_still_run() {
    let base = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("planted-failures");
    let _ = std::fs::remove_dir_all(&base);
    let marks_dir = base.join("marks");
    std::fs::create_dir_all(&marks_dir).unwrap();
    for script in ["scripts/test", "scripts/lib/steps.sh"] {
        let to = base.join(script);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(repo().join(script), &to).unwrap_or_else(|e| panic!("{script}: {e}"));
    }
    write(&base.join("Cargo.toml"), MANIFEST);
    write(&base.join("src/lib.rs"), "");
    write(&base.join("tests/compiletest.rs"), FAILS);
    write(&base.join("tests/drivers.rs"), PASSES);
    write(&base.join("tests/primitives.rs"), PASSES);
    write(
        &base.join("tests/zz_late.rs"),
        &marks("zz_late", true, false),
    );
    write(
        &base.join("tests/stress_build.rs"),
        &marks("stress_build", false, true),
    );

    let out = Command::new("bash")
        .arg(base.join("scripts/test"))
        .arg("--no-install")
        .env("CARGO_TARGET_DIR", base.join("target"))
        .env("PLANTED_MARKS", &marks_dir)
        .env_remove("BALLOT_SKIP_LEDGER")
        .output()
        .expect("bash runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let shown = format!("{stdout}\n{}", String::from_utf8_lossy(&out.stderr));

    assert_eq!(
        out.status.code(),
        Some(1),
        "a failed step fails the script:\n{shown}"
    );
    // Both binaries cargo ran to the end after the first failure.
    assert!(
        marks_dir.join("zz_late").exists(),
        "the binary after the failure did not run:\n{shown}"
    );
    // And the step after the failed one.
    assert!(
        marks_dir.join("stress_build").exists(),
        "the step after the failed one did not run:\n{shown}"
    );
    let summary = stdout
        .rsplit_once("\n== times\n")
        .map(|(_, tail)| tail)
        .unwrap_or_else(|| panic!("no summary of times:\n{shown}"));
    for named in [
        "--test compiletest",
        "--test zz_late",
        "FAILED: 1 step(s):",
        "    tests\n",
    ] {
        assert!(
            summary.contains(named),
            "the summary does not name `{named}`:\n{summary}"
        );
    }
    // Each step has its time, and the whole run its budget.
    assert!(summary.contains("  tests\n"), "{summary}");
    assert!(
        summary.contains("stress build of a user crate"),
        "{summary}"
    );
    assert!(
        summary.contains("scripts/test, in all (budget 25m00s)"),
        "{summary}"
    );
    assert!(!stdout.contains("every step passed"), "{shown}");
}
