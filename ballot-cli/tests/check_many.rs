//! `ballot check PATH...`: many files and directories in one run, the
//! human and JSON reports, and the exit codes.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

/// The smallest valid shaders.
const WGSL_OK: &str = "@compute @workgroup_size(1) fn main() {}\n";
const GLSL_OK: &str = "#version 450\nlayout(local_size_x = 1) in;\nvoid main() {}\n";

/// A WGSL syntax error on line 3 (1-based), at the `;`.
const WGSL_BAD_LINE: &str = "    let x = ;";
const WGSL_BAD_LINE_NUMBER: u64 = 3;
fn wgsl_bad() -> String {
    format!("@compute @workgroup_size(1)\nfn main() {{\n{WGSL_BAD_LINE}\n}}\n")
}

/// A GLSL syntax error on line 4, at the `;`.
const GLSL_BAD_LINE: &str = "    int x = ;";
const GLSL_BAD_LINE_NUMBER: u64 = 4;
fn glsl_bad() -> String {
    format!("#version 450\nlayout(local_size_x = 1) in;\nvoid main() {{\n{GLSL_BAD_LINE}\n}}\n")
}

/// The 1-based column of the `;` in a line.
fn semicolon_column(line: &str) -> u64 {
    line.find(';').unwrap() as u64 + 1
}

/// A fresh directory, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> Self {
        let dir =
            std::env::temp_dir().join(format!("ballot-check-many-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    /// Writes `contents` to `relative`, creating its folders; returns the
    /// path as the program will print it.
    fn write(&self, relative: &str, contents: &str) -> String {
        let path = self.0.join(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, contents).unwrap();
        display(&path)
    }

    fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }

    fn join(&self, relative: &str) -> String {
        display(&self.0.join(relative))
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn display(path: &Path) -> String {
    path.display().to_string()
}

fn ballot(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ballot"))
        .args(args)
        .output()
        .expect("the ballot binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Runs `ballot check --format json ARGS`: the exit code and the document.
fn check_json(args: &[&str]) -> (Option<i32>, Value) {
    let mut all = vec!["check", "--format", "json"];
    all.extend_from_slice(args);
    let out = ballot(&all);
    let json: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}):\n{}\nstderr:\n{}",
            text(&out.stdout),
            text(&out.stderr)
        )
    });
    // Not a terminal: no progress bar, and nothing else on stderr.
    assert_eq!(text(&out.stderr), "", "json mode wrote to stderr");
    (out.status.code(), json)
}

fn files(json: &Value) -> &Vec<Value> {
    json["files"].as_array().expect("`files` is an array")
}

fn entry<'a>(json: &'a Value, path: &str) -> &'a Value {
    files(json)
        .iter()
        .find(|f| f["path"] == path)
        .unwrap_or_else(|| panic!("{path} missing from {json:#}"))
}

/// The tree of the first tests: two valid and two invalid shaders, nested,
/// and files a walk must pass over (each invalid, so checking it would
/// show).
struct Tree {
    dir: TempDir,
    ok_wgsl: String,
    ok_glsl: String,
    bad_glsl: String,
    bad_wgsl: String,
}

fn tree(name: &str) -> Tree {
    let dir = TempDir::new(name);
    let ok_wgsl = dir.write("a.wgsl", WGSL_OK);
    let ok_glsl = dir.write("shaders/b.comp", GLSL_OK);
    let bad_glsl = dir.write("shaders/deep/bad.glsl", &glsl_bad());
    let bad_wgsl = dir.write("shaders/deep/bad.wgsl", &wgsl_bad());
    dir.write("notes.txt", "not a shader\n");
    dir.write("shaders/README.md", "# shaders\n");
    dir.write(".git/hidden.wgsl", &wgsl_bad());
    dir.write("shaders/.cache.wgsl", &wgsl_bad());
    dir.write("target/debug/out.wgsl", &wgsl_bad());
    dir.write("node_modules/pkg/x.comp", &glsl_bad());
    Tree {
        dir,
        ok_wgsl,
        ok_glsl,
        bad_glsl,
        bad_wgsl,
    }
}

#[test]
fn a_directory_reports_every_shader_under_it_and_exits_1() {
    let t = tree("human");
    let out = ballot(&["check", t.dir.path()]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let stderr = text(&out.stderr);
    // The valid files on stdout, in the walk's order (name order, depth
    // first), then the summary: four shaders, two invalid.
    assert_eq!(
        stdout,
        format!(
            "{}: ok (wgsl)\n{}: ok (glsl)\nchecked 4 files: 2 invalid\n",
            t.ok_wgsl, t.ok_glsl
        )
    );
    // naga's diagnostics for both invalid files, at the lines written.
    let wgsl_at = format!("{}:{WGSL_BAD_LINE_NUMBER}:", t.bad_wgsl);
    let glsl_at = format!("{}:{GLSL_BAD_LINE_NUMBER}:", t.bad_glsl);
    for needle in [&wgsl_at, &glsl_at, WGSL_BAD_LINE, GLSL_BAD_LINE] {
        assert!(stderr.contains(needle), "{needle} missing from:\n{stderr}");
    }
    // bad.glsl sorts before bad.wgsl.
    assert!(stderr.find(&glsl_at) < stderr.find(&wgsl_at), "{stderr}");
    for skipped in ["hidden.wgsl", ".cache", "target", "node_modules", "notes"] {
        assert!(
            !stdout.contains(skipped) && !stderr.contains(skipped),
            "{skipped} was checked:\n{stdout}\n{stderr}"
        );
    }
}

#[test]
fn json_lists_every_file_with_counts_and_locations() {
    let t = tree("json");
    let (code, json) = check_json(&[t.dir.path()]);
    assert_eq!(code, Some(1));
    assert_eq!(json["checked"], 4);
    assert_eq!(json["invalid"], 2);
    let paths: Vec<&str> = files(&json)
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths, [&t.ok_wgsl, &t.ok_glsl, &t.bad_glsl, &t.bad_wgsl]);

    for (path, target) in [(&t.ok_wgsl, "wgsl"), (&t.ok_glsl, "glsl")] {
        let f = entry(&json, path);
        assert_eq!(f["ok"], true, "{f}");
        assert_eq!(f["target"], target, "{f}");
        for key in ["problem", "message", "line", "column"] {
            assert!(f[key].is_null(), "{key} in {f}");
        }
    }
    for (path, target, line, line_text) in [
        (&t.bad_wgsl, "wgsl", WGSL_BAD_LINE_NUMBER, WGSL_BAD_LINE),
        (&t.bad_glsl, "glsl", GLSL_BAD_LINE_NUMBER, GLSL_BAD_LINE),
    ] {
        let f = entry(&json, path);
        assert_eq!(f["ok"], false, "{f}");
        assert_eq!(f["target"], target, "{f}");
        assert_eq!(f["problem"], "invalid", "{f}");
        assert_eq!(f["line"], line, "{f}");
        assert_eq!(f["column"], semicolon_column(line_text), "{f}");
        let message = f["message"].as_str().unwrap();
        // The error itself, without the snippet.
        assert!(!message.is_empty() && !message.contains(line_text), "{f}");
        assert!(!message.starts_with("error"), "{f}");
    }
    // Exactly the seven keys per file.
    for f in files(&json) {
        let mut keys: Vec<&str> = f.as_object().unwrap().keys().map(String::as_str).collect();
        keys.sort_unstable();
        assert_eq!(
            keys,
            ["column", "line", "message", "ok", "path", "problem", "target"]
        );
    }
}

#[test]
fn all_valid_exits_0() {
    let dir = TempDir::new("valid");
    let a = dir.write("x/a.wgsl", WGSL_OK);
    let b = dir.write("x/y/b.glsl", GLSL_OK);
    let c = dir.write("c.glsl.comp", GLSL_OK);
    let out = ballot(&["check", &dir.join("x"), &c]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        format!("{a}: ok (wgsl)\n{b}: ok (glsl)\n{c}: ok (glsl)\nchecked 3 files: 0 invalid\n")
    );
    assert_eq!(text(&out.stderr), "");

    let (code, json) = check_json(&[dir.path()]);
    assert_eq!(code, Some(0));
    assert_eq!(
        (json["checked"].as_u64(), json["invalid"].as_u64()),
        (Some(3), Some(0))
    );
    assert!(files(&json).iter().all(|f| f["ok"] == true), "{json:#}");

    // One file, under a directory or not: no summary line.
    let one = TempDir::new("one");
    let a = one.write("only/a.wgsl", WGSL_OK);
    let out = ballot(&["check", one.path()]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(text(&out.stdout), format!("{a}: ok (wgsl)\n"));
}

#[test]
fn target_applies_to_every_file() {
    // Fine with subgroups, invalid without: naga points at line 3.
    let ballot_shader = "@compute @workgroup_size(32)\n\
                         fn main(@builtin(local_invocation_index) i: u32) {\n\
                         \x20   let m = subgroupBallot((i % 2u) == 0u);\n}\n";
    let dir = TempDir::new("target");
    let a = dir.write("a.wgsl", ballot_shader);
    let b = dir.write("sub/b.wgsl", ballot_shader);
    let (code, json) = check_json(&[dir.path()]);
    assert_eq!(code, Some(0), "{json:#}");
    let (code, json) = check_json(&[dir.path(), "--target", "wgsl-no-subgroup"]);
    assert_eq!(code, Some(1));
    assert_eq!(json["invalid"], 2);
    for path in [&a, &b] {
        let f = entry(&json, path);
        assert_eq!(f["target"], "wgsl-no-subgroup", "{f}");
        assert_eq!(f["problem"], "invalid", "{f}");
        assert_eq!(f["line"], 3, "{f}");
    }
}

#[test]
fn problems_before_naga_have_their_kind_and_line() {
    let dir = TempDir::new("kinds");
    let empty = dir.write("empty.wgsl", "");
    let binary = dir.join("binary.wgsl");
    // An invalid byte on line 2.
    std::fs::write(&binary, b"fn f() {}\n\xff\n").unwrap();
    let (code, json) = check_json(&[dir.path()]);
    assert_eq!(code, Some(1));
    assert_eq!(
        (json["checked"].as_u64(), json["invalid"].as_u64()),
        (Some(2), Some(2))
    );
    let f = entry(&json, &empty);
    assert_eq!(
        (&f["problem"], &f["line"]),
        (&"empty".into(), &Value::Null),
        "{f}"
    );
    let f = entry(&json, &binary);
    assert_eq!(
        (&f["problem"], &f["line"]),
        (&"not-utf8".into(), &2.into()),
        "{f}"
    );
    assert!(f["message"].as_str().unwrap().contains("UTF-8"), "{f}");
}

/// A path that does not exist is reported like an unreadable file (exit 1),
/// and the others are still checked.
#[test]
fn a_missing_path_is_reported_and_the_rest_checked() {
    let dir = TempDir::new("missing");
    let ok = dir.write("ok.wgsl", WGSL_OK);
    let missing_wgsl = dir.join("gone.wgsl");
    let missing_dir = dir.join("no-such-dir");
    let (code, json) = check_json(&[&missing_wgsl, &ok, &missing_dir]);
    assert_eq!(code, Some(1));
    assert_eq!(
        (json["checked"].as_u64(), json["invalid"].as_u64()),
        (Some(3), Some(2))
    );
    assert_eq!(entry(&json, &ok)["ok"], true);
    for (path, target) in [
        (&missing_wgsl, Value::from("wgsl")),
        (&missing_dir, Value::Null),
    ] {
        let f = entry(&json, path);
        assert_eq!(f["problem"], "unreadable", "{f}");
        assert_eq!(f["target"], target, "{f}");
        assert!(
            f["message"].as_str().unwrap().contains(path.as_str()),
            "{f}"
        );
    }
    let out = ballot(&["check", &missing_dir, &ok]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains(&format!("cannot read `{missing_dir}`")));
    assert!(text(&out.stdout).contains(&format!("{ok}: ok (wgsl)")));
}

#[test]
fn named_paths_are_checked_even_where_a_walk_would_skip_them() {
    let dir = TempDir::new("named");
    let hidden = dir.write(".hidden/h.wgsl", WGSL_OK);
    let built = dir.write("target/t.comp", GLSL_OK);
    let txt = dir.write("k.txt", WGSL_OK);
    let (code, json) = check_json(&[&dir.join(".hidden"), &dir.join("target")]);
    assert_eq!(code, Some(0), "{json:#}");
    assert_eq!(json["checked"], 2);
    entry(&json, &hidden);
    entry(&json, &built);
    // Any name, with --target; the same path twice is checked once.
    let (code, json) = check_json(&[&txt, &txt, "--target", "wgsl"]);
    assert_eq!(code, Some(0), "{json:#}");
    assert_eq!(json["checked"], 1);
    assert_eq!(entry(&json, &txt)["target"], "wgsl");
    let (_, json) = check_json(&[&hidden, &dir.join(".hidden")]);
    assert_eq!(json["checked"], 1);
}

/// A link to a directory is not followed: a link back up would loop.
#[cfg(unix)]
#[test]
fn a_walk_does_not_follow_links_to_directories() {
    let dir = TempDir::new("links");
    let a = dir.write("a.wgsl", WGSL_OK);
    std::os::unix::fs::symlink(&dir.0, dir.0.join("loop")).unwrap();
    std::os::unix::fs::symlink(dir.0.join("a.wgsl"), dir.0.join("link.wgsl")).unwrap();
    let (code, json) = check_json(&[dir.path()]);
    assert_eq!(code, Some(0), "{json:#}");
    let paths: Vec<&str> = files(&json)
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    // A link to a file counts as the file.
    assert_eq!(paths, [a, dir.join("link.wgsl")]);
}

#[test]
fn usage_errors_exit_2_before_anything_is_checked() {
    let t = tree("usage");
    let txt = t.dir.write("shader.txt", WGSL_OK);
    // An unknown extension without --target, even beside a directory.
    for args in [
        vec!["check", &txt],
        vec!["check", t.dir.path(), &txt],
        vec!["check", "--format", "json", t.dir.path(), &txt],
    ] {
        let out = ballot(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(text(&out.stdout), "", "{args:?}: nothing checked");
        let stderr = text(&out.stderr);
        assert!(
            stderr.contains("shader.txt") && stderr.contains("--target"),
            "{stderr}"
        );
    }
    // A format that does not exist.
    let out = ballot(&["check", "--format", "xml", t.dir.path()]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("human") && stderr.contains("json"),
        "{stderr}"
    );
    // No path at all.
    assert_eq!(ballot(&["check"]).status.code(), Some(2));
    // Directories with no shader in them (a hidden or skipped one aside).
    let empty = TempDir::new("usage-empty");
    empty.write("docs/notes.txt", "no shader\n");
    empty.write(".hidden/h.wgsl", WGSL_OK);
    empty.write("target/t.wgsl", WGSL_OK);
    std::fs::create_dir_all(empty.0.join("nothing")).unwrap();
    for args in [
        vec!["check", empty.path()],
        vec![
            "check",
            "--format",
            "json",
            &empty.join("docs"),
            &empty.join("nothing"),
        ],
    ] {
        let out = ballot(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(text(&out.stdout), "");
        assert!(
            text(&out.stderr).contains("no shader file"),
            "{}",
            text(&out.stderr)
        );
    }
}

#[test]
fn help_tells_how_directories_are_walked() {
    let out = ballot(&["check", "--help"]);
    assert_eq!(out.status.code(), Some(0));
    let help = text(&out.stdout);
    for needle in [
        "<PATH>...",
        "--format",
        "json",
        "hidden",
        "target",
        "node_modules",
        "Exit status",
        "no shader file",
    ] {
        assert!(help.contains(needle), "{needle} missing from:\n{help}");
    }
}
