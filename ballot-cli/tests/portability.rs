//! `ballot portability` on hostile files (issue 33): a kernel it cannot
//! run is never certified, kernels are named by their path, recursion is
//! refused where the file is read, and the size limits apply per item.
//!
//! Expected verdicts follow docs/reconvergence.md: a ballot's count in
//! converged control flow is the same under every model, with the size in
//! the contract; `subgroup_elect` inside a divergent branch is not under
//! WGSL, which keeps no branch's lanes together.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn ballot(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ballot"))
        .args(args)
        .output()
        .expect("the ballot binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A fresh temporary file holding `contents`, in a folder of this test's
/// own.
fn temp_file(name: &str, contents: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ballot-cli-portability-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

fn arg(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// No Rust panic message or backtrace reached the user.
fn assert_no_panic_output(out: &Output) {
    let stderr = text(&out.stderr);
    assert!(!stderr.contains("thread '"), "{stderr}");
    assert!(!stderr.contains("RUST_BACKTRACE"), "{stderr}");
}

#[test]
fn a_kernel_that_never_ends_is_not_checked_and_exits_1() {
    let path = temp_file(
        "spin.rs",
        "#[ballot::kernel]\nfn spin(x: u32) -> u32 {\n    let mut n = 0u32;\n    \
         while true {\n        n = subgroup_ballot(x > 0).count();\n    }\n    n\n}\n",
    );
    let out = ballot(&[
        "portability",
        arg(&path),
        "--size-is-contract",
        "--cases",
        "4",
        "--sizes",
        "4,32",
    ]);
    assert_no_panic_output(&out);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(!stdout.contains(": portable"), "{stdout}");
    for model in ["vulkan", "wgsl", "independent"] {
        let line = stdout
            .lines()
            .find(|l| l.starts_with(&format!("  {model}: ")))
            .unwrap_or_else(|| panic!("no {model} line:\n{stdout}"));
        assert!(line.contains("NOT CHECKED"), "{line}");
        assert!(line.contains("step budget of 4096"), "{line}");
        assert!(line.contains("never ends"), "{line}");
    }
    assert!(
        stdout.contains("1 kernels: 0 portable, 0 not, 1 not checked"),
        "{stdout}"
    );
}

const TWINS: &str = r#"
mod a {
    /// A count over the subgroup, in converged control flow.
    #[ballot::kernel]
    pub fn leader(take: bool) -> u32 {
        subgroup_ballot(take).count()
    }
}

mod b {
    /// An election inside a divergent branch.
    #[ballot::kernel]
    pub fn leader(take: bool) -> u32 {
        let mut n = 0u32;
        if take {
            if subgroup_elect() {
                n = 1;
            }
        }
        n
    }
}
"#;

#[test]
fn kernels_of_one_name_in_two_modules_each_get_their_own_report() {
    let path = temp_file("twins.rs", TWINS);
    let out = ballot(&[
        "portability",
        arg(&path),
        "--size-is-contract",
        "--model",
        "wgsl",
        "--cases",
        "16",
    ]);
    assert_no_panic_output(&out);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("a::leader\n  wgsl: portable"), "{stdout}");
    assert!(
        stdout.contains("kernel `a::leader` is portable"),
        "{stdout}"
    );
    assert!(
        stdout.contains("b::leader\n  wgsl: NOT PORTABLE"),
        "{stdout}"
    );
    assert!(
        stdout.contains("kernel `b::leader` is not portable"),
        "{stdout}"
    );
    assert!(stdout.contains("subgroupElect of lanes"), "{stdout}");
    assert!(stdout.contains("2 kernels: 1 portable, 1 not"), "{stdout}");
    // A path selects one of them; the bare name both.
    let out = ballot(&[
        "portability",
        arg(&path),
        "--size-is-contract",
        "--model",
        "wgsl",
        "--cases",
        "8",
        "--kernel",
        "a::leader",
    ]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("1 kernels: 1 portable, 0 not"), "{stdout}");
    assert!(!stdout.contains("b::leader"), "{stdout}");
}

/// `ballot portability` on `files`, which must be refused before any
/// kernel runs, with one error on standard error: returned.
fn refused(files: &[&Path]) -> String {
    let mut args = vec!["portability"];
    args.extend(files.iter().map(|p| arg(p)));
    let out = ballot(&args);
    assert_no_panic_output(&out);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    assert!(stdout.is_empty(), "{stdout}");
    stderr
}

#[test]
fn recursion_is_refused_with_the_cycle_named_at_the_call_that_closes_it() {
    let mutual = temp_file(
        "mutual.rs",
        "#[ballot::kernel]\nfn ping(x: u32) -> u32 {\n    let r: u32 = pong(x);\n    r\n}\n\
         #[ballot::kernel]\nfn pong(x: u32) -> u32 {\n    let r: u32 = ping(x);\n    r\n}\n",
    );
    let stderr = refused(&[&mutual]);
    assert!(
        stderr.contains(
            "mutual.rs:8:18: `ping` calls `pong`, which calls `ping`: kernels cannot recurse"
        ),
        "{stderr}"
    );
    // Through three kernels.
    let three = temp_file(
        "three.rs",
        "#[ballot::kernel]\nfn a(x: u32) -> u32 { let r: u32 = b(x); r }\n\
         #[ballot::kernel]\nfn b(x: u32) -> u32 { let r: u32 = c(x); r }\n\
         #[ballot::kernel]\nfn c(x: u32) -> u32 { let r: u32 = a(x); r }\n",
    );
    let stderr = refused(&[&three]);
    assert!(
        stderr.contains(
            "three.rs:6:36: `a` calls `b`, which calls `c`, which calls `a`: kernels cannot recurse"
        ),
        "{stderr}"
    );
    // A kernel calling itself by a path the front end cannot tell is its
    // own.
    let own = temp_file(
        "own.rs",
        "mod m {\n    #[ballot::kernel]\n    pub fn walk(x: u32) -> u32 {\n        \
         let r: u32 = crate::m::walk(x);\n        r\n    }\n}\n",
    );
    let stderr = refused(&[&own]);
    assert!(
        stderr.contains("own.rs:4:22: `m::walk` calls itself: kernels cannot recurse"),
        "{stderr}"
    );
    // Across two files, each of which alone is no cycle.
    let first = temp_file(
        "first.rs",
        "#[ballot::kernel]\nfn there(x: u32) -> u32 { let r: u32 = back(x); r }\n",
    );
    let second = temp_file(
        "second.rs",
        "#[ballot::kernel]\nfn back(x: u32) -> u32 { let r: u32 = there(x); r }\n",
    );
    let stderr = refused(&[&first, &second]);
    assert!(
        stderr.contains("second.rs:2:39: `there` calls `back`, which calls `there`"),
        "{stderr}"
    );
}

#[test]
fn the_operator_limit_applies_per_item_not_per_file() {
    // Each function's `->` is two operators: 2,100 functions hold more
    // than the 4,096 one statement may, but none holds more than two.
    let mut source: String = (0..2100)
        .map(|i| format!("fn f{i}() -> u32 {{ 0 }}\n"))
        .collect();
    source.push_str(
        "#[ballot::kernel]\nfn count(x: bool) -> u32 {\n    subgroup_ballot(x).count()\n}\n",
    );
    let path = temp_file("many.rs", &source);
    let out = ballot(&[
        "portability",
        arg(&path),
        "--size-is-contract",
        "--cases",
        "4",
    ]);
    assert_no_panic_output(&out);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    assert!(stdout.contains("1 kernels: 1 portable, 0 not"), "{stdout}");
}

/// A file the Rust lexer cannot read (an unclosed string, a bracket
/// closed by another, a character with no token) is an error at the line
/// and column where lexing stopped, not at the file's start.
#[test]
fn a_file_that_is_no_rust_tokens_is_an_error_where_lexing_stopped() {
    let cases = [
        (
            "string.rs",
            "fn a() -> u32 {\n    let x = \"open;\n}\n",
            ":2:13:",
        ),
        (
            "bracket.rs",
            "#[ballot::kernel]\nfn a(x: u32) -> u32 {\n    let y = (x + 1;\n    y\n}\n",
            ":5:1:",
        ),
        ("char.rs", "fn a() {\n  let c = \u{a7};\n}\n", ":2:11:"),
    ];
    for (name, contents, at) in cases {
        let file = temp_file(name, contents);
        let out = ballot(&["portability", arg(&file)]);
        assert_no_panic_output(&out);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{name}: {stderr}");
        assert!(
            stderr.contains(&format!("{name}{at}")) && stderr.contains("no Rust tokens"),
            "{name}: {stderr}"
        );
    }
}

/// A file of no kernel has nothing to check: no "0 kernels" certificate,
/// exit 1, as a check that ran nothing.
#[test]
fn a_file_of_no_kernel_is_no_certificate() {
    let file = temp_file("none.rs", "fn plain() -> u32 {\n    1\n}\n");
    let out = ballot(&["portability", arg(&file)]);
    assert_no_panic_output(&out);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("no `#[ballot::kernel]` function in") && stderr.contains("none.rs"),
        "{stderr}"
    );
    assert!(!text(&out.stdout).contains("portable"));
}

/// An invalid option is the command's fault: a usage error naming it
/// (exit 2) before any kernel's report begins, a negative number
/// included.
#[test]
fn an_invalid_option_is_refused_before_any_report() {
    let file = temp_file(
        "options.rs",
        "#[ballot::kernel]\nfn k(x: u32) -> u32 {\n    x\n}\n",
    );
    for (args, option) in [
        (["--tolerance", "-1"], "invalid `tolerance`"),
        (["--tolerance", "1e40"], "invalid `tolerance`"),
        (["--sizes", "3"], "invalid `sizes`"),
        (["--step-budget", "0"], "invalid `step_budget`"),
    ] {
        let mut all = vec!["portability", arg(&file)];
        all.extend(args);
        let out = ballot(&all);
        assert_no_panic_output(&out);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(option), "{args:?}: {stderr}");
        assert_eq!(text(&out.stdout), "", "{args:?}");
    }
}

/// A kernel served only by subgroups of 64 or more: the reference size
/// follows `--reference-size`, and a size no subgroup has is an error that
/// names the option.
#[test]
fn the_reference_size_is_an_option() {
    let path = temp_file(
        "cluster64.rs",
        "#[ballot::kernel]\nfn cluster64(x: u32) -> u32 {\n    \
         subgroup_clustered_i_add::<64, _>(x)\n}\n",
    );
    let sized = |reference: &str| {
        ballot(&[
            "portability",
            arg(&path),
            "--model",
            "vulkan",
            "--cases",
            "8",
            "--sizes",
            "64,128",
            "--reference-size",
            reference,
        ])
    };
    // Lanes 64k..64k + 63 make a cluster at 64 and at 128 alike.
    let out = sized("64");
    assert_no_panic_output(&out);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("1 kernels: 1 portable, 0 not"), "{stdout}");
    // At 32, the reference run itself is undefined: nothing is certified.
    let out = sized("32");
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    assert!(
        text(&out.stdout).contains("NOT CHECKED"),
        "{}",
        text(&out.stdout)
    );
    let out = sized("0");
    assert_no_panic_output(&out);
    assert_ne!(out.status.code(), Some(0));
    assert!(
        text(&out.stderr).contains("reference"),
        "{}",
        text(&out.stderr)
    );
}

/// Inputs past the oracle's bound are refused at once, naming the option,
/// rather than run for days.
#[test]
fn too_many_cases_are_refused() {
    let path = temp_file(
        "slot.rs",
        "#[ballot::kernel]\nfn slot(x: bool) -> u32 {\n    subgroup_ballot(x).count()\n}\n",
    );
    let out = ballot(&["portability", arg(&path), "--cases", "4294967295"]);
    assert_no_panic_output(&out);
    assert_ne!(out.status.code(), Some(0));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("`cases`"), "{stderr}");
    assert!(stderr.contains("65536"), "{stderr}");
}
