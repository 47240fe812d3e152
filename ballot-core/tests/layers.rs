//! Every arrow points down: no module of `ballot-core` names one on a
//! higher layer, in code (comments and test modules aside, which may
//! build kernels with the front end to test a pass).
//!
//! The layers, bottom up, are those of `docs/architecture.md`. Modules of
//! one layer may name each other; a module of a layer may name any module
//! below it. The rule the lowering most needs: `lower` never names a
//! printer (`back`), nor the front end.

use std::path::{Path, PathBuf};

/// The layers, bottom up, each with its top-level modules.
const LAYERS: &[(&str, &[&str])] = &[
    (
        "foundation",
        &[
            "target", "limits", "source", "stack", "op", "mask", "sim", "error", "ops", "schedule",
        ],
    ),
    ("ir", &["ir", "spans", "scalar", "spmd"]),
    ("lowering", &["lower"]),
    ("printers", &["back"]),
    (
        "naga-facing tools",
        &[
            "valid",
            "check",
            "polyfill",
            "reconverge",
            "link",
            "compose",
            "cross",
        ],
    ),
    ("front end", &["front"]),
    ("expansion and oracle", &["expand", "interp", "portability"]),
];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|(_, ms)| ms.contains(&module))
}

/// Every `.rs` file under `dir`, but test files (`tests.rs`, and the files
/// of a `tests` directory).
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("src is readable")
        .map(|e| e.expect("an entry").path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if path.is_dir() {
            if name != "tests" {
                sources(&path, out);
            }
        } else if name.ends_with(".rs") && name != "tests.rs" {
            out.push(path);
        }
    }
}

/// The file's code lines: comments dropped, and the lines of each inline
/// `#[cfg(test)]` module (up to its closing brace, at its indentation)
/// skipped.
fn code(text: &str) -> Vec<(usize, String)> {
    let mut lines = Vec::new();
    let mut after_cfg_test = false;
    // The closing line of the test module being skipped.
    let mut skipping: Option<String> = None;
    for (i, line) in text.lines().enumerate() {
        if let Some(close) = &skipping {
            if line == close {
                skipping = None;
            }
            continue;
        }
        let trimmed = line.trim_start();
        let module = trimmed
            .strip_prefix("pub(crate) ")
            .or_else(|| trimmed.strip_prefix("pub "))
            .unwrap_or(trimmed);
        if after_cfg_test && module.starts_with("mod ") && module.ends_with('{') {
            let indent = &line[..line.len() - trimmed.len()];
            skipping = Some(format!("{indent}}}"));
            after_cfg_test = false;
            continue;
        }
        // `#[cfg(test)]`, `#[cfg(all(test, feature = "macros"))]`.
        after_cfg_test = trimmed.starts_with("#[cfg(")
            && trimmed
                .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
                .any(|w| w == "test")
            && !trimmed.contains("not(test");
        if trimmed.starts_with("//") {
            continue;
        }
        let code = line.split("//").next().unwrap_or(line);
        lines.push((i + 1, code.to_string()));
    }
    lines
}

/// The top-level modules a line names through `crate::`.
fn named(line: &str) -> Vec<String> {
    line.match_indices("crate::")
        .filter(|(at, _)| {
            // `ballot_core::…` or `$crate::…` are other paths.
            let before = line[..*at].chars().next_back();
            !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
        })
        .map(|(at, m)| {
            line[at + m.len()..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect()
        })
        .collect()
}

/// `(file, line, from, to)` for each arrow that points up.
fn upward_arrows(src: &Path) -> Vec<(String, usize, String, String)> {
    let mut files = Vec::new();
    sources(src, &mut files);
    let mut found = Vec::new();
    for file in files {
        let relative = file.strip_prefix(src).expect("under src");
        let top = relative
            .components()
            .next()
            .and_then(|c| c.as_os_str().to_str())
            .expect("a name")
            .trim_end_matches(".rs")
            .to_string();
        let Some(from) = layer_of(&top) else {
            continue;
        };
        let text = std::fs::read_to_string(&file).expect("readable");
        for (line, code) in code(&text) {
            for module in named(&code) {
                if let Some(to) = layer_of(&module) {
                    if to > from {
                        found.push((relative.display().to_string(), line, top.clone(), module));
                    }
                }
            }
        }
    }
    found
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

#[test]
fn no_module_names_one_on_a_higher_layer() {
    let arrows = upward_arrows(&src());
    assert!(
        arrows.is_empty(),
        "modules that name a higher layer:\n{}",
        arrows
            .iter()
            .map(|(file, line, from, to)| format!("  src/{file}:{line}: `{from}` names `{to}`"))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// Every top-level module of the crate has a layer, so that a new one
/// cannot slip past the rule.
#[test]
fn every_module_has_a_layer() {
    let lib = std::fs::read_to_string(src().join("lib.rs")).expect("lib.rs");
    let modules: Vec<String> = lib
        .lines()
        .filter_map(|l| {
            let l = l.trim_start();
            let rest = l
                .strip_prefix("pub mod ")
                .or_else(|| l.strip_prefix("pub(crate) mod "))
                .or_else(|| l.strip_prefix("mod "))?;
            Some(rest.trim_end_matches(';').to_string())
        })
        .collect();
    assert!(modules.len() > 10, "lib.rs lists the modules: {modules:?}");
    for m in &modules {
        assert!(layer_of(m).is_some(), "module `{m}` has no layer");
    }
}

/// The rule's reader sees an upward arrow where one is: the lowering
/// naming a printer, in code, is found, before a test module and after
/// it; in a comment or in the test module it is not.
#[test]
fn the_reader_finds_an_upward_arrow() {
    let dir = std::env::temp_dir().join(format!("ballot-layers-{}", std::process::id()));
    let lower = dir.join("lower");
    std::fs::create_dir_all(&lower).expect("a temporary directory");
    std::fs::write(
        lower.join("calls.rs"),
        "//! Names [`crate::back`] in a comment only.\n\
         use crate::ir::Kernel;\n\
         use crate::back::ShaderError; // the arrow\n\
         #[cfg(all(test, feature = \"macros\"))]\n\
         pub(crate) mod tests {\n    use crate::front::lower_source;\n}\n\
         fn after() { crate::valid::check(); }\n",
    )
    .expect("written");
    let arrows = upward_arrows(&dir);
    std::fs::remove_dir_all(&dir).ok();
    let file = Path::new("lower").join("calls.rs").display().to_string();
    assert_eq!(
        arrows,
        vec![
            (file.clone(), 3, "lower".to_string(), "back".to_string()),
            (file, 8, "lower".to_string(), "valid".to_string()),
        ]
    );
}
