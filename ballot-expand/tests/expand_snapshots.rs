//! Expansion snapshots: each `tests/expand/<kernel>.rs` is expanded by
//! `#[ballot::kernel]` and compared with the committed
//! `tests/expand/<kernel>.expanded.rs`. Regenerate with
//! `BALLOT_BLESS=1 cargo test -p ballot-expand --test expand_snapshots`, then
//! read the diff.

use std::path::{Path, PathBuf};

use ballot_expand as expand;
use proc_macro2::TokenStream;

fn inputs() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/expand");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/expand exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .filter(|p| !p.to_string_lossy().ends_with(".expanded.rs"))
        .collect();
    files.sort();
    files
}

fn expand_file(path: &Path) -> String {
    let source = std::fs::read_to_string(path).expect("readable input");
    let item: TokenStream = source.parse().expect("input is Rust tokens");
    let tokens = expand::kernel(TokenStream::new(), item);
    let file: syn::File = syn::parse2(tokens).expect("the expansion is valid Rust");
    prettyplease::unparse(&file)
}

#[test]
fn expansions_match_their_snapshots() {
    let bless = std::env::var_os("BALLOT_BLESS").is_some();
    let mut stale = Vec::new();
    for input in inputs() {
        let expanded = expand_file(&input);
        let snapshot = input.with_extension("expanded.rs");
        if bless {
            std::fs::write(&snapshot, &expanded).expect("writable snapshot");
        } else if std::fs::read_to_string(&snapshot).ok().as_deref() != Some(expanded.as_str()) {
            stale.push(snapshot.display().to_string());
        }
    }
    assert!(
        stale.is_empty(),
        "stale expansion snapshots (run with BALLOT_BLESS=1): {stale:?}"
    );
}

#[test]
fn expanding_twice_gives_identical_text() {
    for input in inputs() {
        assert_eq!(
            expand_file(&input),
            expand_file(&input),
            "{}",
            input.display()
        );
    }
}

#[test]
fn expansions_use_absolute_paths_only() {
    for input in inputs() {
        let expanded = expand_file(&input);
        for line in expanded.lines().filter(|l| l.contains("__spmd::")) {
            assert!(
                line.contains("::ballot::__private::__spmd::"),
                "relative runtime path in {line}"
            );
        }
    }
}
