//! The `ballot` command line, and the robust checker behind `ballot check`
//! (`ballot::check`), on hostile input: arbitrary bytes, mutated golden
//! shaders, and the inputs that overflow naga's stack or make it panic.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use ballot::check::{
    check_bytes, check_bytes_with, Limits, Problem, MAX_NESTING, MAX_SOURCE_BYTES,
};
use ballot::Target;
use proptest::prelude::*;

/// Every golden shader under tests/out, with the target its folder names.
/// Each is an emitted shader that naga accepts.
fn seeds() -> Vec<(Target, PathBuf, Vec<u8>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/out");
    let mut seeds = Vec::new();
    for target in Target::ALL {
        let dir = root.join(target.name());
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|entry| entry.unwrap().path())
            .collect();
        files.sort();
        for path in files {
            let bytes = std::fs::read(&path).unwrap();
            seeds.push((target, path, bytes));
        }
    }
    assert!(seeds.len() >= 25, "the golden shaders are missing");
    seeds
}

/// The limits under test: the defaults, with a timeout short enough for a
/// test yet far above what a golden-sized input takes.
fn limits() -> Limits {
    Limits {
        timeout: Duration::from_secs(20),
        ..Limits::default()
    }
}

/// Runs the checker and asserts it came back, Ok or Err, in bounded time.
fn check_bounded(target: Target, bytes: &[u8]) -> Result<(), Problem> {
    let limits = limits();
    let start = Instant::now();
    let result = check_bytes_with(target, "input", bytes, &limits);
    let elapsed = start.elapsed();
    assert!(
        elapsed < limits.timeout + Duration::from_secs(5),
        "took {elapsed:?}"
    );
    result.map_err(|e| {
        assert_eq!(e.path, "input");
        assert!(!e.to_string().is_empty());
        e.problem
    })
}

#[test]
fn every_golden_shader_checks_ok_for_its_target() {
    for (target, path, bytes) in seeds() {
        let name = path.display().to_string();
        assert_eq!(
            check_bytes(target, &name, &bytes),
            Ok(()),
            "{name} for {target}"
        );
    }
}

#[test]
fn capabilities_follow_the_target() {
    let ballot = b"@compute @workgroup_size(32)\n\
                   fn main(@builtin(local_invocation_index) i: u32) {\n\
                   \x20   let m = subgroupBallot((i % 2u) == 0u);\n}\n";
    assert_eq!(check_bytes(Target::Wgsl, "a.wgsl", ballot), Ok(()));
    let err = check_bytes(Target::WgslNoSubgroup, "a.wgsl", ballot).unwrap_err();
    let Problem::Invalid(source) = &err.problem else {
        panic!("{err:?}")
    };
    assert_eq!(source.line, Some(3));
    assert!(source.report.contains("a.wgsl:3:"), "{}", source.report);
    // naga rejects `enable subgroups;`; wgsl-web checks without it.
    let web = [b"enable subgroups;\n".as_slice(), ballot].concat();
    assert!(check_bytes(Target::Wgsl, "w.wgsl", &web).is_err());
    assert_eq!(check_bytes(Target::WgslWeb, "w.wgsl", &web), Ok(()));
}

/// GLSL for OpenGL is GLSL: a plain uniform and a sampler without a
/// binding, which only Vulkan's rules refuse, check ok, and an error in
/// such a shader is OpenGL glslang's, at its line.
#[test]
fn opengl_glsl_checks_by_opengl_s_rules() {
    if !ballot_testkit::have_tools("OpenGL GLSL in `ballot check`", &[ballot_testkit::GLSLANG]) {
        return;
    }
    let good = b"#version 430 core\nlayout(local_size_x = 64) in;\nuniform float scale;\n\
                 uniform sampler2D img;\nlayout(std430, binding = 0) buffer B { float d[]; };\n\
                 void main() { d[gl_LocalInvocationIndex] = scale * texelFetch(img, ivec2(0), 0).x; }\n";
    check_bytes(Target::Glsl, "gl.comp", good).unwrap_or_else(|e| panic!("{e}"));
    let bad = b"#version 430 core\nlayout(local_size_x = 1) in;\nuniform float s;\n\
                void main() { float x = s + nope; }\n";
    let err = check_bytes(Target::Glsl, "gl.comp", bad).unwrap_err();
    let Problem::Invalid(source) = &err.problem else {
        panic!("{err:?}")
    };
    assert_eq!(source.line, Some(4), "{}", source.report);
    assert!(source.report.contains("nope"), "{}", source.report);
}

#[test]
fn glsl_reports_name_the_file_and_line() {
    let text = b"#version 450\nlayout(local_size_x = 1) in;\nvoid main() {\n    bool b = 1.0;\n}\n";
    let err = check_bytes(Target::Glsl, "dir/k.comp", text).unwrap_err();
    let Problem::Invalid(source) = &err.problem else {
        panic!("{err:?}")
    };
    assert_eq!(source.line, Some(4), "{}", source.report);
    assert!(source.report.contains("dir/k.comp:3:"), "{}", source.report);
    assert!(source.report.contains("bool b = 1.0;"), "{}", source.report);
    assert!(err.to_string().starts_with("error"), "{err}");
}

#[test]
fn non_utf8_empty_and_oversized_input_is_refused_before_naga() {
    let err = check_bytes(Target::Wgsl, "x.wgsl", b"fn f() {}\n\xff\xfe").unwrap_err();
    assert_eq!(
        err.problem,
        Problem::NotUtf8 {
            offset: 10,
            line: 2
        }
    );
    assert_eq!(
        err.to_string(),
        "x.wgsl: the file is not UTF-8 (invalid byte at offset 10, line 2)"
    );
    for empty in [&b""[..], b"  \n\t\n"] {
        assert_eq!(
            check_bytes(Target::Glsl, "e.glsl", empty)
                .unwrap_err()
                .problem,
            Problem::Empty
        );
    }
    let huge = vec![b' '; MAX_SOURCE_BYTES + 1];
    assert_eq!(
        check_bytes(Target::Wgsl, "h.wgsl", &huge)
            .unwrap_err()
            .problem,
        Problem::TooLarge {
            size: MAX_SOURCE_BYTES as u64 + 1,
            limit: MAX_SOURCE_BYTES
        }
    );
}

/// 100k nested brackets overflow naga's GLSL parser on any thread stack
/// (an abort); the pre-scan refuses them.
#[test]
fn deep_nesting_is_refused_not_a_stack_overflow() {
    let n = 100_000;
    let wgsl = format!(
        "fn f() -> u32 {{ return {}1u{}; }}",
        "(".repeat(n),
        ")".repeat(n)
    );
    let glsl = format!(
        "#version 450\nlayout(local_size_x = 1) in;\nuint f() {{ return {}1u{}; }}\nvoid main() {{}}",
        "(".repeat(n),
        ")".repeat(n)
    );
    let deep = Problem::TooDeep {
        limit: MAX_NESTING,
        line: 1,
    };
    assert_eq!(check_bounded(Target::Wgsl, wgsl.as_bytes()), Err(deep));
    assert!(matches!(
        check_bounded(Target::Glsl, glsl.as_bytes()),
        Err(Problem::TooDeep { line: 3, .. })
    ));
    let braces = format!("void main() {{ {}", "{".repeat(n));
    assert!(matches!(
        check_bounded(Target::GlslNoSubgroup, braces.as_bytes()),
        Err(Problem::TooDeep { .. })
    ));
    // Just under the limit, naga itself answers.
    let fine = format!(
        "fn f() -> u32 {{ return {}1u{}; }}",
        "(".repeat(100),
        ")".repeat(100)
    );
    assert_eq!(check_bounded(Target::Wgsl, fine.as_bytes()), Ok(()));
}

/// Prefix operators and operator chains recurse in naga too.
#[test]
fn long_operator_chains_are_refused() {
    let negations = format!(
        "#version 450\nlayout(local_size_x = 1) in;\nint f() {{ return {}1; }}\nvoid main() {{}}",
        "- ".repeat(100_000)
    );
    assert!(matches!(
        check_bounded(Target::Glsl, negations.as_bytes()),
        Err(Problem::TooLong { line: 3, .. })
    ));
    let sum = format!(
        "fn f(a: u32) -> u32 {{ return a{}; }}",
        "+a".repeat(100_000)
    );
    assert!(matches!(
        check_bounded(Target::Wgsl, sum.as_bytes()),
        Err(Problem::TooLong { .. })
    ));
}

#[test]
fn a_glsl_macro_bomb_is_refused() {
    let mut text = String::from("#version 450\nlayout(local_size_x = 1) in;\n#define M0 1u\n");
    for i in 1..64 {
        text.push_str(&format!("#define M{i} (M{p} + M{p})\n", p = i - 1));
    }
    text.push_str("void main() { uint x = M63; }\n");
    assert!(matches!(
        check_bounded(Target::Glsl, text.as_bytes()),
        Err(Problem::MacroTooLarge { .. })
    ));
}

/// naga 30's glsl-in unwraps a layout error for an array too large to lay
/// out: a panic, reported as a diagnostic.
#[test]
fn a_naga_panic_is_a_diagnostic() {
    let text = b"#version 450\nlayout(local_size_x = 1) in;\n\
                 void main() { float a[2147483647][2147483647]; }\n";
    let err = check_bounded(Target::Glsl, text).unwrap_err();
    let Problem::NagaPanicked { message } = &err else {
        panic!("{err:?}")
    };
    assert!(!message.is_empty());
}

#[test]
fn a_slow_input_times_out() {
    let statement = format!("x = x{};\n", "+a".repeat(4000));
    let text = format!(
        "fn f(a: u32) -> u32 {{ var x = a;\n{} return x; }}",
        statement.repeat(20)
    );
    let limits = Limits {
        timeout: Duration::from_millis(50),
        ..Limits::default()
    };
    let start = Instant::now();
    let err = check_bytes_with(Target::Wgsl, "slow.wgsl", text.as_bytes(), &limits).unwrap_err();
    assert!(start.elapsed() < Duration::from_secs(5));
    assert_eq!(
        err.problem,
        Problem::TimedOut {
            limit: limits.timeout
        }
    );
}

/// One change to a golden shader.
#[derive(Clone, Debug)]
enum Mutation {
    Flip(prop::sample::Index, u8),
    Truncate(prop::sample::Index),
    Duplicate(prop::sample::Index, usize, prop::sample::Index),
    Nest(prop::sample::Index, u8, usize),
    Delete(prop::sample::Index, usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<prop::sample::Index>(), 0u8..8).prop_map(|(i, bit)| Mutation::Flip(i, bit)),
        any::<prop::sample::Index>().prop_map(Mutation::Truncate),
        (
            any::<prop::sample::Index>(),
            1usize..400,
            any::<prop::sample::Index>()
        )
            .prop_map(|(s, n, at)| Mutation::Duplicate(s, n, at)),
        (any::<prop::sample::Index>(), 0u8..6, 1usize..1000)
            .prop_map(|(at, kind, n)| Mutation::Nest(at, kind, n)),
        (any::<prop::sample::Index>(), 1usize..50).prop_map(|(at, n)| Mutation::Delete(at, n)),
    ]
}

fn apply(bytes: &mut Vec<u8>, m: &Mutation) {
    if bytes.is_empty() {
        return;
    }
    match m {
        Mutation::Flip(i, bit) => {
            let i = i.index(bytes.len());
            bytes[i] ^= 1 << bit;
        }
        Mutation::Truncate(i) => bytes.truncate(i.index(bytes.len())),
        Mutation::Duplicate(start, n, at) => {
            let start = start.index(bytes.len());
            let end = (start + n).min(bytes.len());
            let chunk = bytes[start..end].to_vec();
            let at = at.index(bytes.len());
            bytes.splice(at..at, chunk);
        }
        Mutation::Nest(at, kind, n) => {
            // Openers alone, or opener-closer pairs, or prefix operators.
            let unit: &[u8] = [&b"("[..], b"[", b"{", b"()", b"-", b"!"][*kind as usize];
            let at = at.index(bytes.len());
            bytes.splice(at..at, unit.repeat(*n));
        }
        Mutation::Delete(at, n) => {
            let at = at.index(bytes.len());
            let end = (at + n).min(bytes.len());
            bytes.drain(at..end);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(
        target in prop::sample::select(Target::ALL.to_vec()),
        bytes in prop::collection::vec(any::<u8>(), 0..2048),
    ) {
        let _ = check_bounded(target, &bytes);
    }

    #[test]
    fn shader_like_text_never_panics(
        target in prop::sample::select(Target::ALL.to_vec()),
        text in "[a-z0-9_(){}<>;:,.=+*/&|!@# \n\\[\\]-]{0,600}",
    ) {
        let _ = check_bounded(target, text.as_bytes());
    }

    #[test]
    fn mutated_golden_shaders_never_panic(
        seed in any::<prop::sample::Index>(),
        mutations in prop::collection::vec(mutation(), 1..4),
    ) {
        let seeds = seeds();
        let (target, _, bytes) = &seeds[seed.index(seeds.len())];
        let mut bytes = bytes.clone();
        for m in &mutations {
            apply(&mut bytes, m);
        }
        // Nesting past the limit can only be refused (or sit in a comment).
        if let Err(Problem::TooDeep { limit, .. }) = check_bounded(*target, &bytes) {
            prop_assert_eq!(limit, MAX_NESTING);
        }
    }
}

// ---- the binary ----

fn ballot(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ballot"))
        .args(args)
        .output()
        .expect("the ballot binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A fresh temporary file holding `contents`.
fn temp_file(name: &str, contents: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ballot-cli-test-{}", std::process::id()));
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
fn help_and_version() {
    let out = ballot(&["--help"]);
    assert_eq!(out.status.code(), Some(0));
    let help = text(&out.stdout);
    for word in ["targets", "check", "polyfill", "Usage: ballot"] {
        assert!(help.contains(word), "{help}");
    }
    let out = ballot(&["--version"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        text(&out.stdout).trim(),
        format!("ballot {}", env!("CARGO_PKG_VERSION"))
    );
    let out = ballot(&["check", "--help"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out.stdout).contains("--target"));
    // No subcommand is a usage error, on stderr.
    let out = ballot(&[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("Usage: ballot"));
}

#[test]
fn targets_lists_every_target_and_cross_output() {
    let out = ballot(&["targets"]);
    assert_eq!(out.status.code(), Some(0));
    let listing = text(&out.stdout);
    for target in Target::ALL {
        let line = listing
            .lines()
            .find(|l| l.split_whitespace().next() == Some(target.name()))
            .unwrap_or_else(|| panic!("{target} missing from\n{listing}"));
        assert!(line.contains(target.requirements()), "{line}");
    }
    for needle in [
        "GL_KHR_shader_subgroup_ballot",
        "Features::SUBGROUP",
        "`subgroups`",
        "virtual subgroup size",
        "spirv",
        "hlsl",
        "msl",
        "32 lanes",
    ] {
        assert!(listing.contains(needle), "{needle} missing from\n{listing}");
    }
}

#[test]
fn check_accepts_golden_shaders_by_extension() {
    for (target, path, _) in seeds() {
        // .wgsl and .glsl both imply a target; the web and no-subgroup
        // forms need theirs named.
        let mut args = vec!["check", arg(&path)];
        let name = target.name();
        if !matches!(target, Target::Wgsl | Target::Glsl) {
            args.extend(["--target", name]);
        }
        let out = ballot(&args);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}: {}",
            path.display(),
            text(&out.stderr)
        );
        assert_eq!(
            text(&out.stdout),
            format!("{}: ok ({name})\n", path.display())
        );
    }
    let comp = temp_file(
        "k.glsl.comp",
        b"#version 450\nlayout(local_size_x = 1) in;\nvoid main() {}\n",
    );
    let out = ballot(&["check", arg(&comp)]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

#[test]
fn check_reports_naga_errors_with_exit_code_1() {
    let bad = temp_file(
        "bad.wgsl",
        b"@compute @workgroup_size(1)\nfn main() {\n    let x: u32 = 1.5;\n}\n",
    );
    let out = ballot(&["check", arg(&bad)]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let stderr = text(&out.stderr);
    assert!(stderr.starts_with("error"), "{stderr}");
    assert!(
        stderr.contains(&format!("{}:3:", bad.display())),
        "{stderr}"
    );
    assert!(stderr.contains("let x: u32 = 1.5;"), "{stderr}");

    let web = temp_file("web.wgsl", b"enable subgroups;\nfn f() {}\n");
    let out = ballot(&["check", arg(&web)]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("--target wgsl-web"));
    let out = ballot(&["check", arg(&web), "--target", "wgsl-web"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));

    let missing = ballot(&["check", "/nonexistent/ballot/x.wgsl"]);
    assert_eq!(missing.status.code(), Some(1));
    assert!(text(&missing.stderr).contains("cannot read"));
}

/// naga checks `glsl` text with stand-ins for the extension's names on a
/// line of their own, but the report is about the user's file: its line
/// numbers, the extension's names as written, and the caret under the
/// offending text of the original line.
#[test]
fn glsl_check_reports_quote_the_users_names() {
    let line = "    bool n = subgroupBallotBitCount(subgroupBallot(gl_SubgroupInvocationID < 3u)) + gl_SubgroupSize;";
    let source = format!(
        "#version 450\n#extension GL_KHR_shader_subgroup_ballot : require\n\
         layout(local_size_x = 32) in;\nvoid main() {{\n{line}\n}}\n"
    );
    let file = temp_file("names.glsl", source.as_bytes());
    let out = ballot(&["check", arg(&file)]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let stderr = text(&out.stderr);
    // The snippet is the user's line, word for word.
    assert!(stderr.contains(line.trim()), "{stderr}");
    for shim in ["ballot_shim", "GL_Subgroup"] {
        assert!(!stderr.contains(shim), "{shim} in:\n{stderr}");
    }
    // The carets sit under the user's text: the underlined expression ends
    // where `gl_SubgroupSize` does (on the shim's text, with longer names,
    // they would run past it).
    let after_bar =
        |l: &str| -> Vec<char> { l.chars().skip_while(|&c| c != '│').skip(2).collect() };
    let lines: Vec<&str> = stderr.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with("5 │"))
        .unwrap_or_else(|| panic!("no snippet of line 5 in:\n{stderr}"));
    let (quoted, carets) = (after_bar(lines[at]), after_bar(lines[at + 1]));
    let start = carets.iter().position(|&c| c == '^').expect("carets");
    let end = start + carets[start..].iter().take_while(|&&c| c == '^').count();
    let underlined: String = quoted[start..end].iter().collect();
    assert!(
        underlined.ends_with("+ gl_SubgroupSize") && line.contains(&underlined),
        "underlined {underlined:?} in:\n{stderr}"
    );

    // A message that names a function: a call of no declared signature.
    let wrong = source.replace(line, "    uint n = subgroupBallotFindMSB(1.5);");
    let file = temp_file("call.glsl", wrong.as_bytes());
    let stderr = text(&ballot(&["check", arg(&file)]).stderr);
    assert!(stderr.contains("subgroupBallotFindMSB(1.5)"), "{stderr}");
    assert!(!stderr.contains("ballot_shim"), "{stderr}");
}

#[test]
fn check_usage_errors_exit_2_and_list_the_options() {
    let file = temp_file("shader.txt", b"fn f() {}\n");
    let out = ballot(&["check", arg(&file)]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    for needle in [
        ".wgsl",
        ".comp",
        "--target",
        "wgsl-no-subgroup",
        "glsl-no-subgroup",
    ] {
        assert!(stderr.contains(needle), "{needle} missing from {stderr}");
    }
    let out = ballot(&["check", arg(&file), "--target", "hlsl"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    for target in Target::ALL {
        assert!(
            stderr.contains(target.name()),
            "{target} missing from {stderr}"
        );
    }
    // With the target named, any extension goes.
    let out = ballot(&["check", arg(&file), "--target", "wgsl"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

#[test]
fn check_survives_hostile_files() {
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("binary.wgsl", b"fn f() {}\n\xc3\x28".to_vec(), "not UTF-8"),
        ("empty.glsl", Vec::new(), "empty"),
        (
            "deep.wgsl",
            format!("fn f() -> u32 {{ return {}1u; }}", "(".repeat(100_000)).into_bytes(),
            "nest more than",
        ),
        (
            "panic.comp",
            b"#version 450\nlayout(local_size_x = 1) in;\nvoid main() { float a[2147483647][2147483647]; }\n"
                .to_vec(),
            "naga panicked",
        ),
    ];
    for (name, contents, needle) in cases {
        let path = temp_file(name, &contents);
        let out = ballot(&["check", arg(&path)]);
        assert_eq!(out.status.code(), Some(1), "{name}");
        let stderr = text(&out.stderr);
        assert!(stderr.contains(needle), "{name}: {stderr}");
        assert!(
            stderr.contains(&path.display().to_string()),
            "{name}: {stderr}"
        );
        assert_no_panic_output(&out);
    }
    let huge = temp_file("huge.wgsl", &vec![b'\n'; MAX_SOURCE_BYTES + 10]);
    let out = ballot(&["check", arg(&huge)]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains(&format!("has {} bytes", MAX_SOURCE_BYTES + 10)),
        "{}",
        text(&out.stderr)
    );
    std::fs::remove_file(huge).unwrap();
}

#[test]
fn polyfill_usage_errors_exit_2() {
    let out = ballot(&["polyfill", "--target", "vulkan"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    for name in [
        "glsl",
        "wgsl-web",
        "wgsl-no-subgroup",
        "spirv",
        "hlsl",
        "msl",
    ] {
        assert!(stderr.contains(name), "{name} missing from {stderr}");
    }
    let out = ballot(&["polyfill", "--target", "wgsl", "--workgroup-size", "8,x"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("X,Y,Z"), "{}", text(&out.stderr));
    let out = ballot(&[
        "polyfill",
        "--target",
        "wgsl",
        "--workgroup-size",
        "1,2,3,4",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let out = ballot(&["polyfill"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--target"));
}

#[test]
fn polyfill_libraries_pass_ballot_check_for_every_target() {
    for target in Target::ALL {
        let ext = target.language().extension();
        let file = temp_file(&format!("lib-{}.{ext}", target.name()), b"");
        let out = ballot(&["polyfill", "--target", target.name(), "-o", arg(&file)]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{target}: {}",
            text(&out.stderr)
        );
        assert!(out.stdout.is_empty(), "-o writes nothing to stdout");
        let written = std::fs::read(&file).unwrap();
        assert!(!written.is_empty(), "{target}");
        let out = ballot(&["check", arg(&file), "--target", target.name()]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{target}: {}",
            text(&out.stderr)
        );
        // Without -o, the same text goes to stdout.
        let out = ballot(&["polyfill", "--target", target.name()]);
        assert_eq!(out.status.code(), Some(0));
        assert_eq!(out.stdout, written, "{target}");
    }
    let out = ballot(&[
        "polyfill",
        "--target",
        "wgsl-no-subgroup",
        "--subgroup-size",
        "8",
        "--workgroup-size",
        "16,2",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

/// An option value out of its range is a usage error: exit 2, as clap's
/// own are, naming the option.
#[test]
fn polyfill_names_a_bad_option_and_exits_2() {
    for (flag, value, name) in [
        ("--subgroup-size", "3", "subgroup_size"),
        ("--subgroup-size", "256", "subgroup_size"),
        ("--workgroup-size", "0", "workgroup_size"),
        ("--workgroup-size", "8,0,1", "workgroup_size"),
    ] {
        for target in ["wgsl-no-subgroup", "glsl", "spirv"] {
            let out = ballot(&["polyfill", "--target", target, flag, value]);
            let stderr = text(&out.stderr);
            assert_eq!(
                out.status.code(),
                Some(2),
                "{target} {flag} {value}: {stderr}"
            );
            assert!(out.stdout.is_empty());
            assert!(stderr.contains(name), "{target} {flag} {value}: {stderr}");
            assert!(stderr.contains("Usage:"), "{stderr}");
            assert_no_panic_output(&out);
        }
    }
}

#[test]
fn polyfill_cross_compiles_the_wgsl_library() {
    let spv = temp_file("lib.spv", b"");
    let out = ballot(&["polyfill", "--target", "spirv", "-o", arg(&spv)]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let bytes = std::fs::read(&spv).unwrap();
    assert_eq!(bytes[..4], 0x0723_0203u32.to_le_bytes());
    assert_eq!(bytes.len() % 4, 0);
    // stdout is a pipe here, not a terminal: binary may go there.
    let out = ballot(&["polyfill", "--target", "spirv"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(out.stdout, bytes);
    // The library's one subgroup intrinsic is Elect's subgroupBroadcastFirst.
    for (name, needle) in [
        ("hlsl", "WaveReadLaneFirst"),
        ("msl", "simd_broadcast_first"),
    ] {
        let out = ballot(&["polyfill", "--target", name]);
        assert_eq!(out.status.code(), Some(0), "{name}: {}", text(&out.stderr));
        assert!(text(&out.stdout).contains(needle), "{name}");
    }
}

const KERNELS: &str = r#"
use ballot::prelude::*;

/// Converged: the same answer under every model, given its size.
#[ballot::kernel]
fn slot(keep: bool) -> u32 {
    subgroup_ballot_exclusive_bit_count(subgroup_ballot(keep))
}

mod idioms {
    /// The leader of a branch: WGSL may part the branch's lanes.
    #[kernel]
    pub fn branch_leader(take: bool) -> bool {
        let mut leader = false;
        if take {
            leader = subgroup_elect();
        }
        leader
    }
}
"#;

#[test]
fn portability_certifies_and_exits_0() {
    let path = temp_file("portable.rs", KERNELS.as_bytes());
    let out = ballot(&[
        "portability",
        arg(&path),
        "--kernel",
        "slot",
        "--size-is-contract",
        "--cases",
        "8",
    ]);
    assert_no_panic_output(&out);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    for model in ["vulkan", "wgsl", "independent"] {
        assert!(stdout.contains(&format!("  {model}: portable")), "{stdout}");
    }
    assert!(stdout.contains("1 kernels: 1 portable, 0 not"), "{stdout}");
}

#[test]
fn portability_reports_a_counterexample_and_exits_1() {
    let path = temp_file("leader.rs", KERNELS.as_bytes());
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
    // The kernel in the inline module is found, and its counterexample is
    // the smallest: three invocations in a subgroup of 4.
    assert!(
        stdout.contains("branch_leader\n  wgsl: NOT PORTABLE"),
        "{stdout}"
    );
    assert!(stdout.contains("subgroup 0 at size 4"), "{stdout}");
    assert!(stdout.contains("subgroupElect of lanes"), "{stdout}");
    assert!(stdout.contains("2 kernels: 1 portable, 1 not"), "{stdout}");
}

#[test]
fn portability_usage_errors_exit_2() {
    let path = temp_file("usage.rs", KERNELS.as_bytes());
    for args in [
        vec!["portability", arg(&path), "--kernel", "missing"],
        vec!["portability", arg(&path), "--sizes", "3"],
        vec!["portability", arg(&path), "--model", "maximal-ish"],
        vec!["portability"],
    ] {
        let out = ballot(&args);
        assert_no_panic_output(&out);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
    let out = ballot(&["portability", arg(&path), "--sizes", "3"]);
    assert!(
        text(&out.stderr).contains("`sizes`"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn portability_points_at_unsupported_rust_and_exits_1() {
    let path = temp_file(
        "bad.rs",
        b"#[ballot::kernel]\nfn bad(x: u32) -> u32 {\n    let v = vec![x];\n    x\n}\n",
    );
    let out = ballot(&["portability", arg(&path)]);
    assert_no_panic_output(&out);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("bad.rs:3:"), "{stderr}");
}

/// The catalogue's verdicts on the examples (docs/reconvergence.md,
/// section 7): with the size in the contract, the two kernels of the
/// leader-election example that run a collective inside a branch hold
/// under Vulkan only; every other kernel is portable under every model.
#[test]
fn portability_over_the_examples_matches_the_catalogue() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "rs"))
        .collect();
    files.sort();
    let mut args = vec!["portability", "--size-is-contract", "--cases", "16"];
    args.extend(files.iter().map(|p| arg(p)));
    let out = ballot(&args);
    assert_no_panic_output(&out);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("8 kernels: 6 portable, 2 not"), "{stdout}");
    for kernel in ["leads", "slot"] {
        let report = stdout
            .split(&format!("\n{kernel}\n"))
            .nth(1)
            .unwrap_or_else(|| panic!("no report of `{kernel}`:\n{stdout}"));
        assert!(
            report.starts_with("  vulkan: portable"),
            "{kernel}: {report}"
        );
        assert!(
            report.contains("  wgsl: NOT PORTABLE"),
            "{kernel}: {report}"
        );
        assert!(
            report.contains("  independent: NOT PORTABLE"),
            "{kernel}: {report}"
        );
    }
}

/// Vulkan GLSL that naga's GLSL front end refuses (an atomic on a buffer
/// member, a push constant, a precision qualifier on a parameter), which
/// glslang compiles: valid, as `ballot link` judges it.
#[test]
fn check_takes_the_vulkan_glsl_glslang_compiles() {
    let source = "#version 450\n\
                  layout(local_size_x = 64) in;\n\
                  layout(push_constant) uniform Push { uint n; } pc;\n\
                  layout(std430, binding = 0) buffer B { uint count; uint data[]; };\n\
                  uint twice(mediump uint x) { return 2u * x; }\n\
                  void main() {\n    \
                  if (gl_GlobalInvocationID.x < pc.n) {\n        \
                  data[atomicAdd(count, 1u)] = twice(gl_GlobalInvocationID.x);\n    }\n}\n";
    let file = temp_file("vulkan.comp", source.as_bytes());
    let out = ballot(&["check", arg(&file)]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // Broken for both: naga's report, at the line.
    let broken = source.replace("return 2u * x;", "return 2u * y;");
    let file = temp_file("broken.comp", broken.as_bytes());
    let out = ballot(&["check", arg(&file)]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("broken.comp:5:"),
        "{}",
        text(&out.stderr)
    );
}
