//! UI tests: each `tests/ui/<area>/<case>.rs` is a kernel with one mistake,
//! and its `.stderr` pins the diagnostic. Regenerate with
//! `TRYBUILD=overwrite cargo test --test compiletest`, then read the diff.

use std::path::{Path, PathBuf};

/// The crate trybuild builds the cases in: `<target dir>/tests/trybuild/<crate>`.
///
/// The include macros read shader paths relative to `CARGO_MANIFEST_DIR`,
/// which for a case is this directory, wherever the target directory is
/// (`CARGO_TARGET_DIR` may point anywhere). Cargo gives integration tests
/// `<target dir>/tmp`, so the directory is computed, never reached by
/// counting `..` from the case's file.
fn trybuild_crate() -> PathBuf {
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let target = tmp
        .parent()
        .expect("CARGO_TARGET_TMPDIR is <target dir>/tmp");
    target
        .join("tests")
        .join("trybuild")
        .join(env!("CARGO_PKG_NAME"))
}

/// Puts `tests/ui/include/*.wgsl` where the include cases name them:
/// `shaders/<file>` under the crate trybuild builds.
fn place_include_shaders() {
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ui/include");
    let to = trybuild_crate().join("shaders");
    std::fs::create_dir_all(&to).unwrap_or_else(|e| panic!("{}: {e}", to.display()));
    for entry in std::fs::read_dir(&from).unwrap_or_else(|e| panic!("{}: {e}", from.display())) {
        let path = entry.expect("a directory entry").path();
        if path
            .extension()
            .is_some_and(|ext| ext == "wgsl" || ext == "comp")
        {
            let name = path.file_name().expect("a file name");
            std::fs::copy(&path, to.join(name))
                .unwrap_or_else(|e| panic!("{} → {}: {e}", path.display(), to.display()));
        }
    }
}

#[test]
fn ui() {
    place_include_shaders();
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*/*.rs");
}
