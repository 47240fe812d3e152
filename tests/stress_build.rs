//! A user's crate of hostile kernels, built as a user builds it: its own
//! workspace, the default dev profile (every dependency at opt-level 0,
//! where stack frames are largest), validation on. Each build (5, or
//! `BALLOT_STRESS_BUILDS`; 20 under `scripts/test --full`) must
//! succeed: a compiler killed by a signal, as a stack overflow kills it, is
//! a failure. The kernels reach toward the front end's limits
//! (`ballot::limits`): long operator chains, deep brackets, nested
//! `if`s and loops, long `else if` chains and many statements.
//!
//! The same crate then shows what a user's program links: `cargo tree`
//! of its normal dependencies, the proc macro's left out, holds no syn,
//! proc-macro2, quote, clap or naga.
//!
//! The crate also links hand-written shaders at `ballot::check`'s limits
//! with `include_wgsl!` and `include_glsl!` (`shaders_at_the_limits`): an
//! operator chain of 4096 in a block nested deep, a long `else if` chain,
//! a file of 16 MiB. The macros run naga in rustc's own process, where an
//! overflow kills the compiler, so these must build every time too; one
//! past each limit, each file gives one error naming it.
//!
//! Last, `include_wgsl!` links a hand-written shader in that crate, and an
//! edit to the shader alone rebuilds it.
//!
//! It takes minutes (the dependencies build once, unoptimised), so it is
//! ignored by a plain `cargo test`; `scripts/test` runs it.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// How many times the crate is built: `BALLOT_STRESS_BUILDS`, 5 by
/// default; `scripts/test --full` sets 20. A stack overflow at a given
/// depth is deterministic on one machine, but its margin is not (the
/// thread's stack start, the environment's size), so repeated builds find
/// a kernel that only just fits.
fn builds() -> usize {
    std::env::var("BALLOT_STRESS_BUILDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|&n| n > 0)
        .unwrap_or(5)
}

use ballot::limits::{MAX_DEPTH, MAX_STATEMENT_OPERATORS};

/// The largest shader file the include macros read:
/// `ballot::check::MAX_SOURCE_BYTES`.
const MAX_SOURCE_BYTES: usize = 16 << 20;

/// `ballot::check::MAX_NESTING`.
const MAX_NESTING: usize = 256;

/// A function in `language` ("wgsl" or "glsl") with a statement of
/// `operators` operators (`=` and the `+` of a chain, as naga's lowerer
/// recurses on it) in `blocks` nested blocks, then an `else if` chain of
/// `arms` arms.
fn deep_function(language: &str, operators: usize, blocks: usize, arms: usize) -> String {
    let chain = vec!["x"; operators].join(" + ");
    let (open, close) = ("{ ".repeat(blocks), " }".repeat(blocks));
    let mut chain_of_ifs = String::from("if (r == 0u) { r = 1u; }");
    for k in 1..arms {
        let _ = write!(chain_of_ifs, " else if (r == {k}u) {{ r = {}u; }}", k + 1);
    }
    match language {
        "wgsl" => format!(
            "\nfn limits(x: u32) -> u32 {{\n    var r = x;\n    {open}r = {chain};{close}\n    \
             {chain_of_ifs}\n    return r;\n}}\n"
        ),
        _ => format!(
            "\nuint limits(uint x) {{\n    uint r = x;\n    {open}r = {chain};{close}\n    \
             {chain_of_ifs}\n    return r;\n}}\n"
        ),
    }
}

/// tests/linked's shader in `file` (`four.wgsl` or `four.comp`).
fn linked_shader(file: &str) -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/linked")
            .join(file),
    )
    .unwrap()
}

/// `shader`, padded with a comment to `bytes` bytes.
fn padded(shader: &str, bytes: usize) -> String {
    let mut text = format!("{shader}\n//");
    text.push_str(&" ".repeat(bytes - text.len() - 1));
    text.push('\n');
    assert_eq!(text.len(), bytes);
    text
}

/// The shader files at the limits, and one past each (`over_*`), under
/// `shaders/`: name and text. WGSL nests its blocks 120 deep, within naga's
/// own limit of 127 braces; GLSL 250 deep, within check's 256 (with the
/// function's own block). 100 `else if` arms nest 201 deep; 150 nest 301.
fn limit_shaders() -> Vec<(&'static str, String)> {
    let (wgsl, glsl) = (linked_shader("four.wgsl"), linked_shader("four.comp"));
    let ops = MAX_STATEMENT_OPERATORS;
    vec![
        (
            "limits.wgsl",
            wgsl.clone() + &deep_function("wgsl", ops, 120, 100),
        ),
        (
            "limits.comp",
            glsl.clone() + &deep_function("glsl", ops, 250, 100),
        ),
        ("size.wgsl", padded(&wgsl, MAX_SOURCE_BYTES)),
        (
            "over_operators.wgsl",
            wgsl.clone() + &deep_function("wgsl", ops + 1, 1, 1),
        ),
        (
            "over_operators.comp",
            glsl.clone() + &deep_function("glsl", ops + 1, 1, 1),
        ),
        (
            "over_blocks.comp",
            glsl.clone() + &deep_function("glsl", 1, MAX_NESTING, 1),
        ),
        (
            "over_arms.wgsl",
            wgsl.clone() + &deep_function("wgsl", 1, 1, 150),
        ),
        (
            "over_arms.comp",
            glsl.clone() + &deep_function("glsl", 1, 1, 150),
        ),
        ("over_size.wgsl", padded(&wgsl, MAX_SOURCE_BYTES + 1)),
    ]
}

/// The include macros on the shaders at the limits: each must link.
const SHADERS_AT_THE_LIMITS: &str = "
pub const WGSL_AT_THE_LIMITS: [&str; 2] =
    ballot::include_wgsl!(\"shaders/limits.wgsl\", targets = [\"wgsl\", \"wgsl-no-subgroup\"]);
pub const GLSL_AT_THE_LIMITS: [&str; 2] =
    ballot::include_glsl!(\"shaders/limits.comp\", targets = [\"glsl\", \"glsl-no-subgroup\"]);
pub const WGSL_OF_16_MIB: &str = ballot::include_wgsl!(\"shaders/size.wgsl\", target = \"wgsl\");
";

/// One past each limit: each file's error, as the macro gives it.
const PAST_THE_LIMITS: [(&str, &str, &str); 6] = [
    (
        "include_wgsl!",
        "over_operators.wgsl",
        "a statement holds more than 4096 operators",
    ),
    (
        "include_glsl!",
        "over_operators.comp",
        "a statement holds more than 4096 operators",
    ),
    (
        "include_glsl!",
        "over_blocks.comp",
        "brackets and statements nest more than 256 deep",
    ),
    (
        "include_wgsl!",
        "over_arms.wgsl",
        "brackets and statements nest more than 256 deep",
    ),
    (
        "include_glsl!",
        "over_arms.comp",
        "brackets and statements nest more than 256 deep",
    ),
    (
        "include_wgsl!",
        "over_size.wgsl",
        "the file has 16777217 bytes; the limit is 16777216",
    ),
];

/// `x + (x ^ 1) + …` over `terms` operands: a chain as deep as it is long.
fn long_chain(terms: usize) -> String {
    let mut body = String::from("x");
    for k in 1..terms {
        let _ = write!(body, " + (x ^ {k}u32)");
    }
    format!("#[ballot::kernel]\npub fn chain_{terms}(x: u32) -> u32 {{\n    {body}\n}}\n")
}

/// `leaves` terms summed as a balanced tree: hundreds of terms, little
/// depth.
fn balanced(leaves: usize, first: usize) -> String {
    if leaves == 1 {
        return format!("(x ^ {first}u32)");
    }
    let half = leaves / 2;
    format!(
        "({} + {})",
        balanced(half, first),
        balanced(leaves - half, first + half)
    )
}

fn long_sum(leaves: usize) -> String {
    format!(
        "#[ballot::kernel]\npub fn sum_{leaves}(x: u32) -> u32 {{\n    {}\n}}\n",
        balanced(leaves, 0)
    )
}

/// Parentheses around a ballot, as deep as the limit allows.
fn deep_parens() -> String {
    // The body, the `+` and parenthesis of each level, the count, the
    // ballot, the `>`, `x`.
    let levels = (MAX_DEPTH - 5) / 2;
    let mut body = String::from("subgroup_ballot_bit_count(subgroup_ballot(x > 3u32))");
    for k in 0..levels {
        body = format!("({body} + {k}u32)");
    }
    format!("#[ballot::kernel]\npub fn parens(x: u32) -> u32 {{\n    {body}\n}}\n")
}

/// `if`s nested as deep as the limit allows, a ballot at each level:
/// divergence all the way down.
fn nested_ifs() -> String {
    // The body, a block per `if`, then six levels in the innermost
    // statement (`+=`, the LSB, the ballot, `==`, `%`, `x`).
    let depth = MAX_DEPTH - 7;
    let mut body = String::from("n += subgroup_ballot_bit_count(subgroup_ballot(true));");
    for k in (0..depth).rev() {
        body = format!(
            "if x > {k}u32 {{ n += subgroup_ballot_find_lsb(subgroup_ballot(x % 2u32 == 0u32)); {body} }}"
        );
    }
    format!(
        "#[ballot::kernel]\npub fn ifs(x: u32) -> u32 {{\n    let mut n = 0u32;\n    {body}\n    n\n}}\n"
    )
}

/// Loops nested as deep as the limit allows, each with a divergent exit.
fn nested_loops() -> String {
    let depth = MAX_DEPTH - 6;
    let mut body = String::from("n += subgroup_ballot_bit_count(subgroup_ballot(true));");
    for k in (0..depth).rev() {
        body = format!("for i{k} in 0u32..2u32 {{ if x < i{k} {{ break; }} {body} }}");
    }
    format!(
        "#[ballot::kernel]\npub fn loops(x: u32) -> u32 {{\n    let mut n = 0u32;\n    {body}\n    n\n}}\n"
    )
}

/// An `else if` chain of `arms` arms: flat in brackets, one level deeper
/// per arm in the syntax tree.
fn else_if_chain(arms: usize) -> String {
    let mut body = String::new();
    for k in 0..arms {
        let _ = write!(body, "if x == {k}u32 {{ {k}u32 }} else ");
    }
    body.push_str("{ subgroup_ballot_bit_count(subgroup_ballot(true)) }");
    format!("#[ballot::kernel]\npub fn arms_{arms}(x: u32) -> u32 {{\n    {body}\n}}\n")
}

/// `count` statements, each using the one before.
fn many_statements(count: usize) -> String {
    let mut body = String::from("    let mut v = x;\n");
    for k in 0..count {
        let _ = writeln!(body, "    v = (v ^ {k}u32) + subgroup_broadcast_first(v);");
    }
    format!("#[ballot::kernel]\npub fn statements_{count}(x: u32) -> u32 {{\n{body}    v\n}}\n")
}

/// Prefix operators as deep as the limit allows.
fn prefix_chain() -> String {
    let body = format!("{}x", "!".repeat(MAX_DEPTH - 2));
    format!("#[ballot::kernel]\npub fn prefix(x: u32) -> u32 {{\n    {body}\n}}\n")
}

/// Kernels at the limits: every build must succeed.
fn source() -> String {
    let mut lib = String::from(
        "//! Generated by ballot's tests/stress_build.rs.\n#![allow(clippy::all)]\nuse ballot::prelude::*;\n\n",
    );
    for kernel in [
        long_chain(MAX_DEPTH - 3),
        long_sum(512),
        long_sum(MAX_STATEMENT_OPERATORS / 4),
        deep_parens(),
        nested_ifs(),
        nested_loops(),
        else_if_chain(MAX_DEPTH / 2 - 2),
        many_statements(500),
        prefix_chain(),
    ] {
        lib.push_str(&kernel);
        lib.push('\n');
    }
    lib.push_str(SHADERS_AT_THE_LIMITS);
    lib
}

fn write_crate(dir: &Path) {
    let root = env!("CARGO_MANIFEST_DIR");
    std::fs::create_dir_all(dir.join("src")).unwrap();
    // No [profile] section: the default dev profile, as a user has it.
    let manifest = format!(
        "[package]\nname = \"ballot-stress\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n\
         [workspace]\n\n[dependencies]\nballot = {{ path = {root:?} }}\n"
    );
    std::fs::write(dir.join("Cargo.toml"), manifest).unwrap();
    // The workspace's versions of every dependency.
    std::fs::copy(Path::new(root).join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    std::fs::write(dir.join("src/lib.rs"), source()).unwrap();
    std::fs::create_dir_all(dir.join("shaders")).unwrap();
    for (name, text) in limit_shaders() {
        std::fs::write(dir.join("shaders").join(name), text).unwrap();
    }
}

fn cargo_build(dir: &Path, target: &Path) -> std::process::Output {
    Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .arg("build")
        .arg("--manifest-path")
        .arg(dir.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(target)
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("CARGO_INCREMENTAL")
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env_remove("CARGO_BUILD_RUSTFLAGS")
        .output()
        .expect("cargo runs")
}

#[test]
#[ignore = "builds a separate crate 5 (BALLOT_STRESS_BUILDS) times, its dependencies unoptimised (minutes); scripts/test runs it"]
fn hostile_kernels_build_every_time_in_a_default_profile() {
    let base = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("stress-build");
    let dir = base.join("crate");
    let target = base.join("target");
    write_crate(&dir);
    let lib = dir.join("src/lib.rs");
    let mut failures = Vec::new();
    let builds = builds();
    for build in 0..builds {
        // A different text each time, so that every build expands every
        // kernel again.
        std::fs::write(&lib, format!("{}// build {build}\n", source())).unwrap();
        let start = Instant::now();
        let out = cargo_build(&dir, &target);
        let stderr = String::from_utf8_lossy(&out.stderr);
        println!(
            "build {}/{builds}: {} in {:.1} s",
            build + 1,
            out.status,
            start.elapsed().as_secs_f64()
        );
        if !out.status.success() {
            let tail: Vec<&str> = stderr.lines().rev().take(30).collect();
            let tail: Vec<&str> = tail.into_iter().rev().collect();
            failures.push(format!(
                "build {}: {}\n{}",
                build + 1,
                out.status,
                tail.join("\n")
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {builds} builds failed:\n{}",
        failures.len(),
        failures.join("\n\n")
    );

    // Past the limit: one error, at the kernel, naming the limit; and the
    // kernel's uses elsewhere in the crate add none.
    let over = format!(
        "{}{}\npub fn uses_it(x: &[u32]) -> usize {{\n    let sg = Subgroup::full(4).unwrap();\n    \
         chain_300::run(&sg, x).map_or(0, |out| out.active().count())\n}}\n",
        source(),
        long_chain(300)
    );
    std::fs::write(&lib, over).unwrap();
    let out = cargo_build(&dir, &target);
    let stderr = String::from_utf8_lossy(&out.stderr);
    println!("over the limit: {}", out.status);
    assert_eq!(out.status.code(), Some(101), "{stderr}");
    let errors: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("error") && !l.starts_with("error: could not compile"))
        .collect();
    assert_eq!(errors.len(), 1, "{stderr}");
    assert!(errors[0].contains("MAX_DEPTH"), "{stderr}");

    shaders_past_the_limits(&dir, &target);
    runtime_carries_no_compiler(&dir);
    a_changed_shader_rebuilds_the_crate(&dir, &target);
}

/// Each shader one past a limit, through its macro: one error each, naming
/// the limit, and no compiler killed.
fn shaders_past_the_limits(dir: &Path, target: &Path) {
    let mut lib = source();
    for (k, (macro_, file, _)) in PAST_THE_LIMITS.iter().enumerate() {
        let target = if file.ends_with(".wgsl") {
            "wgsl"
        } else {
            "glsl"
        };
        let _ = writeln!(
            lib,
            "pub const OVER_{k}: &str = ballot::{macro_}(\"shaders/{file}\", target = \"{target}\");"
        );
    }
    std::fs::write(dir.join("src/lib.rs"), lib).unwrap();
    let start = Instant::now();
    let out = cargo_build(dir, target);
    let stderr = String::from_utf8_lossy(&out.stderr);
    println!(
        "shaders past the limits: {} in {:.1} s",
        out.status,
        start.elapsed().as_secs_f64()
    );
    assert_eq!(out.status.code(), Some(101), "{stderr}");
    let errors: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("error") && !l.starts_with("error: could not compile"))
        .collect();
    assert_eq!(errors.len(), PAST_THE_LIMITS.len(), "{stderr}");
    for (_, file, message) in PAST_THE_LIMITS {
        assert!(
            errors
                .iter()
                .any(|e| e.contains(file) && e.contains(message)),
            "no error `{message}` for {file}:\n{stderr}"
        );
    }
}

/// `include_wgsl!` in the same crate: the shader links when the crate
/// builds; an edit to the shader alone (the Rust source untouched) makes
/// the next build fail at the shader's line; undoing it builds again.
fn a_changed_shader_rebuilds_the_crate(dir: &Path, target: &Path) {
    let shader = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/linked/four.wgsl"),
    )
    .unwrap();
    std::fs::create_dir_all(dir.join("shaders")).unwrap();
    let path = dir.join("shaders/four.wgsl");
    std::fs::write(&path, &shader).unwrap();
    std::fs::write(
        dir.join("src/lib.rs"),
        format!(
            "{}\npub const FOUR: [&str; 3] = ballot::include_wgsl!(\n    \"shaders/four.wgsl\",\n    \
             targets = [\"wgsl\", \"wgsl-web\", \"wgsl-no-subgroup\"]\n);\n",
            source()
        ),
    )
    .unwrap();
    let build = |what: &str| {
        let start = Instant::now();
        let out = cargo_build(dir, target);
        println!(
            "{what}: {} in {:.1} s",
            out.status,
            start.elapsed().as_secs_f64()
        );
        out
    };
    let out = build("include_wgsl!");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let broken = shader.replace(
        "subgroupBallotFindLSB(kept)",
        "subgroupBallotFindFirst(kept)",
    );
    let line = broken
        .lines()
        .position(|l| l.contains("FindFirst"))
        .unwrap()
        + 1;
    std::fs::write(&path, broken).unwrap();
    let out = build("the shader broken");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success(),
        "the edited shader was not linked again"
    );
    assert!(
        stderr.contains(&format!("shaders/four.wgsl:{line}:"))
            && stderr.contains("subgroupBallotFindFirst"),
        "{stderr}"
    );

    std::fs::write(&path, &shader).unwrap();
    let out = build("the shader mended");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// What the user's program links (normal dependencies, without the proc
/// macro's): no Rust parser, no command line, no naga.
fn runtime_carries_no_compiler(dir: &Path) {
    let out = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args([
            "tree",
            "-e",
            "normal,no-proc-macro",
            "--prefix",
            "none",
            "-f",
            "{p} {f}",
        ])
        .arg("--manifest-path")
        .arg(dir.join("Cargo.toml"))
        .output()
        .expect("cargo tree runs");
    let tree = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The simulator and the printers, which the program runs.
    for runtime in ["ballot-ir", "ballot-sim", "ballot-shader"] {
        assert!(tree.contains(runtime), "{tree}");
    }
    for line in tree.lines() {
        let name = line.split(' ').next().unwrap_or_default();
        assert!(
            ![
                "syn",
                "proc-macro2",
                "quote",
                "clap",
                "prettyplease",
                "naga",
                "ballot-front",
                "ballot-naga",
                "ballot-expand"
            ]
            .contains(&name),
            "the user's program links {line}"
        );
    }
    println!("the program's dependencies:\n{tree}");
}
