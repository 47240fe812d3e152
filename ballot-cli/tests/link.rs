//! `ballot link`: a hand-written shader linked for a target, its exit
//! codes, and its output checked by `ballot check`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn ballot(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ballot"))
        .args(args)
        .output()
        .expect("the ballot binary runs")
}

fn dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ballot-cli-link-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// The workspace's hand-written test shader: four ballot helpers.
fn four() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/linked/four.wgsl")
}

#[test]
fn links_for_each_wgsl_target_and_the_output_checks() {
    let out = dir("ok");
    for target in ["wgsl", "wgsl-web", "wgsl-no-subgroup"] {
        let file = out.join(format!("four.{target}.wgsl"));
        let run = ballot(&["link", s(&four()), "--target", target, "-o", s(&file)]);
        assert_eq!(
            run.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
        let text = std::fs::read_to_string(&file).unwrap();
        assert!(
            text.contains("fn ballot_subgroupBallotExclusiveBitCount("),
            "{target}"
        );
        assert!(
            !text.contains("fn ballot_subgroupBallotFindMSB("),
            "{target}"
        );
        let check = ballot(&["check", s(&file), "--target", target]);
        assert_eq!(
            check.status.code(),
            Some(0),
            "{target}: {}",
            String::from_utf8_lossy(&check.stderr)
        );
    }
    // To stdout, at another virtual subgroup size.
    let run = ballot(&[
        "link",
        s(&four()),
        "-t",
        "wgsl-no-subgroup",
        "--subgroup-size",
        "8",
    ]);
    assert_eq!(run.status.code(), Some(0));
    let text = String::from_utf8(run.stdout).unwrap();
    assert!(text.contains("const ballot_subgroup_size: u32 = 8u;"));
    std::fs::remove_dir_all(out).unwrap();
}

#[test]
fn a_shader_that_does_not_link_exits_1_at_its_line() {
    let out = dir("bad");
    let file = out.join("bad.wgsl");
    let text = std::fs::read_to_string(four()).unwrap();
    let bad = text.replace(
        "subgroupBallotFindLSB(kept)",
        "subgroupBallotFindFirst(kept)",
    );
    let line = bad.lines().position(|l| l.contains("FindFirst")).unwrap() + 1;
    let column = bad
        .lines()
        .nth(line - 1)
        .unwrap()
        .find("subgroupBallotFindFirst")
        .unwrap()
        + 1;
    std::fs::write(&file, bad).unwrap();
    let run = ballot(&["link", s(&file), "--target", "wgsl"]);
    assert_eq!(run.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        stderr.contains(&format!("bad.wgsl:{line}:{column}")),
        "{stderr}"
    );
    assert!(
        stderr.contains("subgroupBallotFindFirst(kept)"),
        "shows the line: {stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
    // A missing file.
    let run = ballot(&["link", s(&out.join("none.wgsl")), "--target", "wgsl"]);
    assert_eq!(run.status.code(), Some(1));
    std::fs::remove_dir_all(out).unwrap();
}

#[test]
fn usage_errors_exit_2() {
    let four = four();
    for args in [
        // A GLSL target for a WGSL file.
        vec!["link", s(&four), "--target", "glsl"],
        // An unknown target, no target, a subgroup size that is no power of two.
        vec!["link", s(&four), "--target", "hlsl"],
        vec!["link", s(&four)],
        vec![
            "link",
            s(&four),
            "--target",
            "wgsl-no-subgroup",
            "--subgroup-size",
            "3",
        ],
        // A define WGSL cannot take, and one that is no name.
        vec!["link", s(&four), "--target", "wgsl", "-D", "N=1"],
        // Larger than the shader's workgroup of 64.
        vec![
            "link",
            s(&four),
            "--target",
            "wgsl-no-subgroup",
            "--subgroup-size",
            "128",
        ],
    ] {
        let run = ballot(&args);
        assert_eq!(
            run.status.code(),
            Some(2),
            "{args:?}: {}",
            String::from_utf8_lossy(&run.stderr)
        );
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert!(
            stderr.starts_with("error:") && stderr.contains("--help"),
            "{args:?}: clap's usage error: {stderr}"
        );
    }
}

#[test]
fn a_workgroup_the_emulation_cannot_serve_is_the_files_fault_exit_1() {
    // 16 x 16 x 2 invocations: more than `wgsl-no-subgroup`'s 256;
    // 64 x 32, more than `glsl-no-subgroup`'s 1,024. The file's fault,
    // with no option given: exit 1, no usage line.
    let out = dir("workgroup");
    let wgsl = out.join("big.wgsl");
    let text = std::fs::read_to_string(four()).unwrap();
    std::fs::write(
        &wgsl,
        text.replace("@workgroup_size(64)", "@workgroup_size(16, 16, 2)"),
    )
    .unwrap();
    let comp = out.join("big.comp");
    let glsl = std::fs::read_to_string(four().with_extension("comp")).unwrap();
    std::fs::write(
        &comp,
        glsl.replace("local_size_x = 64", "local_size_x = 64, local_size_y = 32"),
    )
    .unwrap();
    for (file, target, invocations) in [
        (&wgsl, "wgsl-no-subgroup", 512),
        (&comp, "glsl-no-subgroup", 2048),
    ] {
        let run = ballot(&["link", s(file), "--target", target]);
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(1), "{target}: {stderr}");
        assert!(!stderr.contains("Usage:"), "{target}: {stderr}");
        assert!(
            stderr.contains(&format!("{invocations} invocations")),
            "{target}: {stderr}"
        );
        assert!(stderr.contains(s(file)), "at the file: {stderr}");
    }
    std::fs::remove_dir_all(out).unwrap();
}

#[test]
fn glsl_includes_come_from_beside_the_file_and_the_include_dirs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/linked/include");
    let main = root.join("main.comp");
    let run = ballot(&["link", s(&main), "--target", "glsl-no-subgroup"]);
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert_eq!(
        run.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(stdout.contains("uint low_bit(uint x)") && !stdout.contains("#include"));
    // `<name>` is searched in the -I directories only.
    let out = dir("include");
    let angled = out.join("angled.comp");
    std::fs::write(
        &angled,
        std::fs::read_to_string(&main)
            .unwrap()
            .replace("#include \"lib/count.glsl\"", "#include <count.glsl>"),
    )
    .unwrap();
    let run = ballot(&["link", s(&angled), "--target", "glsl"]);
    assert_eq!(run.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(stderr.contains("cannot include `count.glsl`"), "{stderr}");
    assert!(stderr.contains(":5:"), "at the directive's line: {stderr}");
    let lib = root.join("lib");
    let run = ballot(&["link", s(&angled), "--target", "glsl", "-I", s(&lib)]);
    assert_eq!(
        run.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn defines_reach_glsl_as_glslangs_do() {
    if !ballot_testkit::have_tools(
        "`ballot link -D`, judged by glslang",
        &[ballot_testkit::GLSLANG],
    ) {
        return;
    }
    let out = dir("defines");
    let file = out.join("d.comp");
    std::fs::write(
        &file,
        "#version 450\n#extension GL_KHR_shader_subgroup_ballot : enable\n\
         layout(local_size_x = WORKGROUP) in;\n\
         layout(binding = 0) buffer Out { uint result[]; };\n\
         void main() {\n#ifdef COUNT\n    result[0] = subgroupBallotBitCount(subgroupBallot(true));\n#endif\n}\n",
    )
    .unwrap();
    for target in ["glsl", "glsl-no-subgroup"] {
        let run = ballot(&[
            "link",
            s(&file),
            "--target",
            target,
            "-D",
            "WORKGROUP=32",
            "--define",
            "COUNT",
        ]);
        let stdout = String::from_utf8_lossy(&run.stdout);
        assert_eq!(
            run.status.code(),
            Some(0),
            "{target}: {}",
            String::from_utf8_lossy(&run.stderr)
        );
        assert!(
            stdout.contains("#define WORKGROUP 32") && stdout.contains("#define COUNT\n"),
            "{stdout}"
        );
        // Without them glslang cannot size the workgroup: the file's fault.
        let run = ballot(&["link", s(&file), "--target", target]);
        assert_eq!(run.status.code(), Some(1), "{target}");
        // A name GLSL reserves: the option's fault.
        let run = ballot(&["link", s(&file), "--target", target, "-D", "GL_X=1"]);
        assert_eq!(run.status.code(), Some(2), "{target}");
        assert!(String::from_utf8_lossy(&run.stderr).contains("invalid define `GL_X`"));
    }
    std::fs::remove_dir_all(out).unwrap();
}

/// `--opengl` judges GLSL as an OpenGL driver's compiler does: a plain
/// uniform links; with `--vulkan`, or for WGSL, it is a usage error.
#[test]
fn opengl_reaches_glslang_and_clashes_with_vulkan() {
    let out = dir("opengl");
    let file = out.join("gl.comp");
    std::fs::write(
        &file,
        "#version 430 core\n#extension GL_KHR_shader_subgroup_arithmetic : require\n\
         layout(local_size_x = 64) in;\nuniform float scale;\n\
         layout(std430, binding = 0) buffer B { float d[]; };\n\
         void main() { d[gl_LocalInvocationIndex] = subgroupAdd(scale); }\n",
    )
    .unwrap();
    let run = ballot(&[
        "link",
        s(&file),
        "--target",
        "glsl",
        "--opengl",
        "--vulkan",
        "1.2",
    ]);
    assert_eq!(run.status.code(), Some(2));
    let run = ballot(&["link", s(&four()), "--target", "wgsl", "--opengl"]);
    assert_eq!(run.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(stderr.contains("`--opengl` is for GLSL"), "{stderr}");
    if ballot_testkit::have_tools("`ballot link --opengl`", &[ballot_testkit::GLSLANG]) {
        let run = ballot(&["link", s(&file), "--target", "glsl-no-subgroup"]);
        assert_eq!(run.status.code(), Some(1));
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert!(
            stderr.contains("gl.comp:4") && stderr.contains("--opengl"),
            "{stderr}"
        );
        for target in ["glsl", "glsl-no-subgroup"] {
            let run = ballot(&["link", s(&file), "--target", target, "--opengl"]);
            assert_eq!(
                run.status.code(),
                Some(0),
                "{target}: {}",
                String::from_utf8_lossy(&run.stderr)
            );
        }
    }
    std::fs::remove_dir_all(out).unwrap();
}

/// `--vulkan` reaches glslang: GL_KHR_shader_subgroup_ballot lets
/// `subgroupBroadcast`'s lane be dynamically uniform only from SPIR-V 1.5
/// (Vulkan 1.2); before, it must be a constant.
#[test]
fn the_vulkan_version_reaches_glslang_and_a_bad_one_is_a_usage_error() {
    let out = dir("vulkan");
    let file = out.join("v.comp");
    std::fs::write(&file, ballot_testkit::DYNAMIC_BROADCAST_COMP).unwrap();
    let run = ballot(&["link", s(&file), "--target", "glsl", "--vulkan", "1.5"]);
    assert_eq!(run.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(stderr.contains("unknown Vulkan version `1.5`"), "{stderr}");
    let run = ballot(&["link", s(&four()), "--target", "wgsl", "--vulkan", "1.2"]);
    assert_eq!(run.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(stderr.contains("`--vulkan` is for GLSL"), "{stderr}");
    if ballot_testkit::have_tools("`ballot link --vulkan`", &[ballot_testkit::GLSLANG]) {
        let run = ballot(&["link", s(&file), "--target", "glsl"]);
        assert_eq!(run.status.code(), Some(1));
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert!(
            stderr.contains("v.comp:7") && stderr.contains("from Vulkan 1.2"),
            "{stderr}"
        );
        for target in ["glsl", "glsl-no-subgroup"] {
            let run = ballot(&["link", s(&file), "--target", target, "--vulkan", "1.2"]);
            assert_eq!(
                run.status.code(),
                Some(0),
                "{target}: {}",
                String::from_utf8_lossy(&run.stderr)
            );
        }
    }
    std::fs::remove_dir_all(out).unwrap();
}
