//! Every arrow points down, between crates and between the modules of a
//! crate.
//!
//! - **Crates.** The workspace's crates stand in layers, bottom up, as
//!   `docs/architecture.md` draws them. A crate's `[dependencies]` name
//!   only `ballot` crates on a lower layer. Dev-dependencies are free: the
//!   printers' tests build kernels with the front end and hand the text to
//!   naga.
//! - **Modules.** Within a crate of several layers, no module names one on
//!   a higher layer, in code (comments and test modules aside, which may
//!   build kernels with the front end to test a pass). The rule the
//!   lowering most needs: `lower` never names a printer (`back`).

use std::path::{Path, PathBuf};

/// The crates, bottom up, each layer with its members' directories (`.`
/// is the `ballot` facade).
const CRATES: &[&[&str]] = &[
    &["ballot-ir"],
    &[
        "ballot-sim",
        "ballot-front",
        "ballot-shader",
        "ballot-testkit",
    ],
    &["ballot-naga"],
    &["ballot-expand"],
    &["ballot-macros"],
    &["."],
    &["ballot-cli", "ballot-runner", "ballot-wesl", "ballot-bench"],
];

/// The module layers of each crate of more than one, bottom up.
const MODULES: &[(&str, &[&[&str]])] = &[
    (
        "ballot-ir",
        &[
            &[
                "target", "limits", "source", "stack", "op", "mask", "size", "error",
            ],
            &["ir", "scalar"],
        ],
    ),
    (
        "ballot-sim",
        &[
            &["sim", "ops", "schedule"],
            &["spmd"],
            &["interp", "portability"],
        ],
    ),
    ("ballot-shader", &[&["lower"], &["back"]]),
    (
        "ballot-naga",
        &[
            &["bytes", "valid"],
            &["check", "polyfill", "reconverge"],
            &["compose", "cross", "link"],
        ],
    ),
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

fn crate_layer(dir: &str) -> Option<usize> {
    CRATES.iter().position(|layer| layer.contains(&dir))
}

/// The directory of the workspace member named `name`.
fn member_dir(name: &str) -> &str {
    if name == "ballot" {
        "."
    } else {
        name
    }
}

/// The `ballot` crates in the `[dependencies]` of `manifest`.
fn ballot_dependencies(manifest: &str) -> Vec<String> {
    let mut in_dependencies = false;
    let mut found = Vec::new();
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_dependencies = line == "[dependencies]";
            continue;
        }
        if !in_dependencies || !line.starts_with("ballot") {
            continue;
        }
        let name: String = line
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
            .collect();
        found.push(name);
    }
    found
}

#[test]
fn every_crate_depends_only_on_lower_layers() {
    let mut upward = Vec::new();
    for dir in CRATES.iter().flat_map(|layer| layer.iter()) {
        let from = crate_layer(dir).expect("listed");
        let manifest = std::fs::read_to_string(root().join(dir).join("Cargo.toml"))
            .unwrap_or_else(|e| panic!("{dir}/Cargo.toml: {e}"));
        for dependency in ballot_dependencies(&manifest) {
            let to = crate_layer(member_dir(&dependency))
                .unwrap_or_else(|| panic!("`{dependency}` ({dir}'s dependency) has no layer"));
            if to >= from {
                upward.push(format!("{dir} depends on {dependency}"));
            }
        }
    }
    assert!(
        upward.is_empty(),
        "dependencies that do not point down: {upward:?}"
    );
}

/// Every member of the workspace has a layer, so that a new crate cannot
/// slip past the rule.
#[test]
fn every_crate_has_a_layer() {
    let manifest = std::fs::read_to_string(root().join("Cargo.toml")).expect("Cargo.toml");
    let members = manifest
        .split("members = [")
        .nth(1)
        .and_then(|rest| rest.split(']').next())
        .expect("the workspace lists its members");
    let members: Vec<&str> = members
        .split(',')
        .map(|m| m.trim().trim_matches('"'))
        .filter(|m| !m.is_empty())
        .collect();
    assert!(members.len() > 8, "{members:?}");
    for member in members {
        assert!(
            crate_layer(member).is_some(),
            "crate `{member}` has no layer"
        );
    }
}

/// The reader of manifests finds a `ballot` dependency in
/// `[dependencies]` alone.
#[test]
fn the_manifest_reader_reads_dependencies_alone() {
    let manifest = "[package]\nname = \"ballot-x\"\n\n[dependencies]\nballot-ir.workspace = true\n\
                    ballot-sim = { workspace = true }\nsyn = \"2\"\n\n[dev-dependencies]\n\
                    ballot-front.workspace = true\n";
    assert_eq!(ballot_dependencies(manifest), ["ballot-ir", "ballot-sim"]);
}

fn layer_of(layers: &[&[&str]], module: &str) -> Option<usize> {
    layers.iter().position(|ms| ms.contains(&module))
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

/// `(file, line, from, to)` for each arrow that points up among the
/// modules under `src`, layered as `layers`.
fn upward_arrows(src: &Path, layers: &[&[&str]]) -> Vec<(String, usize, String, String)> {
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
        let Some(from) = layer_of(layers, &top) else {
            continue;
        };
        let text = std::fs::read_to_string(&file).expect("readable");
        for (line, code) in code(&text) {
            for module in named(&code) {
                if let Some(to) = layer_of(layers, &module) {
                    if to > from {
                        found.push((relative.display().to_string(), line, top.clone(), module));
                    }
                }
            }
        }
    }
    found
}

#[test]
fn no_module_names_one_on_a_higher_layer() {
    let mut arrows = Vec::new();
    for (dir, layers) in MODULES {
        for (file, line, from, to) in upward_arrows(&root().join(dir).join("src"), layers) {
            arrows.push(format!("  {dir}/src/{file}:{line}: `{from}` names `{to}`"));
        }
    }
    assert!(
        arrows.is_empty(),
        "modules that name a higher layer:\n{}",
        arrows.join("\n")
    );
}

/// Every top-level module of a layered crate has a layer, so that a new
/// one cannot slip past the rule.
#[test]
fn every_module_has_a_layer() {
    for (dir, layers) in MODULES {
        let lib =
            std::fs::read_to_string(root().join(dir).join("src").join("lib.rs")).expect("lib.rs");
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
        assert!(
            modules.len() >= 2,
            "{dir}'s lib.rs lists the modules: {modules:?}"
        );
        for m in &modules {
            assert!(
                layer_of(layers, m).is_some(),
                "module `{m}` of {dir} has no layer"
            );
        }
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
         use ballot_ir::ir::Kernel;\n\
         use crate::back::ShaderError; // the arrow\n\
         #[cfg(test)]\n\
         pub(crate) mod tests {\n    use crate::back::emit;\n}\n\
         fn after() { crate::back::emit(); }\n",
    )
    .expect("written");
    let arrows = upward_arrows(&dir, &[&["lower"], &["back"]]);
    std::fs::remove_dir_all(&dir).ok();
    let file = Path::new("lower").join("calls.rs").display().to_string();
    assert_eq!(
        arrows,
        vec![
            (file.clone(), 3, "lower".to_string(), "back".to_string()),
            (file, 8, "lower".to_string(), "back".to_string()),
        ]
    );
}
