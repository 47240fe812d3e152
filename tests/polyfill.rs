//! The polyfill libraries and their cross-compilation.
//!
//! Golden files: every target's library, and its self-test shader, are
//! validated (naga for every target; glslang and spirv-val for GLSL) before
//! they are compared with, or written to, `tests/out/polyfill/`. Regenerate
//! with `BALLOT_BLESS=1 cargo test --test polyfill`, then read the diff.
//!
//! Cross-compilation: the `wgsl` library, its self-test and kernels'
//! `wgsl` compute shaders go through naga to SPIR-V (checked by
//! `spirv-val --target-env vulkan1.1`), HLSL and MSL (checked for the
//! intrinsics subgroup operations become; no HLSL or MSL compiler runs
//! here). Running the self-tests on drivers is the driver harness's job.

use std::path::PathBuf;
use std::process::Command;

use ballot::cross::{self, CrossError, CrossOutput, CrossStage, CrossTarget};
use ballot::ir::Kernel;
use ballot::polyfill::{self, PolyfillOptions};
use ballot::prelude::*;
use ballot::{Language, Missing};

fn golden(target: Target, what: &str) -> PathBuf {
    let ext = target.language().extension();
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/out/polyfill")
        .join(format!("{}{what}.{ext}", target.name()))
}

#[test]
fn libraries_are_valid_and_match_their_golden_files() {
    let bless = std::env::var_os("BALLOT_BLESS").is_some();
    let options = PolyfillOptions::default();
    let mut failures = Vec::new();
    for target in Target::ALL {
        let library = polyfill::library(target, &options).unwrap();
        let test = polyfill::self_test(target, &options).unwrap();
        // library() and self_test() validate with naga; check it
        // independently, as the kernel goldens are.
        if let Err(e) = ballot::validate(target, Form::Helpers, &library) {
            failures.push(format!("{target} library: {e}"));
        }
        if let Err(e) = ballot::validate(target, Form::ComputeShader, &test) {
            failures.push(format!("{target} self-test: {e}"));
        }
        if target.language() == Language::Glsl && have_glsl_tools() {
            if let Err(e) = ballot::glslang(&library, Form::Helpers) {
                failures.push(format!("{target} library: {e}"));
            }
            if let Err(e) = ballot::glslang(&test, Form::ComputeShader) {
                failures.push(format!("{target} self-test: {e}"));
            }
        }
        assert!(
            test.starts_with(&match target.language() {
                Language::Glsl => format!("#version 450\n{library}"),
                Language::Wgsl => library.clone(),
            }),
            "{target}: the self-test is the library plus an entry point"
        );
        for (what, text) in [("", &library), (".self-test", &test)] {
            let file = golden(target, what);
            if bless {
                std::fs::create_dir_all(file.parent().unwrap()).unwrap();
                std::fs::write(&file, text).unwrap();
            } else if std::fs::read_to_string(&file).ok().as_deref() != Some(text.as_str()) {
                failures.push(format!(
                    "stale golden file {} (run with BALLOT_BLESS=1)",
                    file.display()
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// A library is pasted into other code, so it ends with exactly one line
/// break: no missing newline, no trailing blank line.
#[test]
fn libraries_end_with_one_line_break() {
    let options = PolyfillOptions::default();
    for target in Target::ALL {
        for (what, text) in [
            ("library", polyfill::library(target, &options).unwrap()),
            ("self-test", polyfill::self_test(target, &options).unwrap()),
        ] {
            assert!(
                text.ends_with('\n') && !text.ends_with("\n\n"),
                "{target} {what} ends with {:?}",
                &text[text.len().saturating_sub(12)..]
            );
        }
    }
}

/// The emulated GLSL library's names must not collide with glslang's
/// built-ins: the bare GLSL name does, which is why it is prefixed.
#[test]
fn glslang_rejects_the_bare_glsl_names_without_the_extension() {
    if !have_glsl_tools() {
        return;
    }
    let bare = "uint subgroupBallotFindMSB(uvec4 v) {\n    return 0u;\n}\n";
    assert!(ballot::glslang(bare, Form::Helpers).is_err());
    let prefixed = bare.replace("subgroupBallot", "ballotSubgroupBallot");
    assert_eq!(ballot::glslang(&prefixed, Form::Helpers), Ok(()));
}

/// Names a GLSL library or shader uses, and where they come from.
#[test]
fn every_library_names_every_operation() {
    for target in Target::ALL {
        let test = polyfill::self_test(target, &PolyfillOptions::default()).unwrap();
        // The clustered reductions are kernels' only (`polyfill::covers`).
        for op in ballot::Op::ALL
            .into_iter()
            .filter(|&op| polyfill::covers(op))
        {
            let name = polyfill::function_name(target, op);
            assert!(
                test.contains(name),
                "{target}'s self-test never calls {name}"
            );
        }
    }
}

/// Whether glslang and spirv-val run; records the skip where not.
fn have_glsl_tools() -> bool {
    ballot_testkit::have_tools("glslang and spirv-val checks", &ballot_testkit::GLSL_TOOLS)
}

/// spirv-val's verdict on `words`; `Ok` without checking where spirv-val
/// is missing (the skip is recorded).
fn spirv_val(words: &[u32]) -> Result<(), String> {
    if !ballot_testkit::have_tools("spirv-val checks", &[ballot_testkit::SPIRV_VAL]) {
        return Ok(());
    }
    let dir = std::env::temp_dir().join(format!("ballot-cross-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let file = dir.join(format!("{n}.spv"));
    let bytes = CrossOutput::SpirV(words.to_vec()).to_bytes();
    std::fs::write(&file, bytes).unwrap();
    let out = Command::new("spirv-val")
        .args(["--target-env", "vulkan1.1"])
        .arg(&file)
        .output()
        .map_err(|e| format!("spirv-val cannot run: {e}"))?;
    let _ = std::fs::remove_file(&file);
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

/// Cross-compiles a complete `wgsl` shader to every target and checks each
/// result; `intrinsics` lists, per target, what its subgroup operations
/// must become.
fn check_cross(what: &str, wgsl: &str, intrinsics: [&[&str]; 3]) {
    for (to, expected) in CrossTarget::ALL.into_iter().zip(intrinsics) {
        let output = cross::compile(wgsl, to).unwrap_or_else(|e| panic!("{what} to {to}: {e}"));
        match (&output, to) {
            (CrossOutput::SpirV(words), CrossTarget::SpirV) => {
                // The magic number, and version 1.3 (0x00010300).
                assert_eq!(words[0], 0x0723_0203, "{what}");
                assert_eq!(words[1], 0x0001_0300, "{what}");
                spirv_val(words).unwrap_or_else(|e| panic!("{what}: spirv-val: {e}"));
                let bytes = output.to_bytes();
                assert_eq!(bytes.len(), words.len() * 4);
                assert_eq!(&bytes[..4], &[0x03, 0x02, 0x23, 0x07]);
            }
            (CrossOutput::Text(text), CrossTarget::Hlsl | CrossTarget::Msl) => {
                for name in expected {
                    assert!(text.contains(name), "{what} to {to} lacks {name}:\n{text}");
                }
                assert_eq!(output.to_bytes(), text.as_bytes());
            }
            _ => panic!("{what}: {to} gave the wrong kind of output"),
        }
    }
}

#[test]
fn the_wgsl_library_and_its_self_test_cross_compile() {
    let options = PolyfillOptions::default();
    let test = polyfill::self_test(Target::Wgsl, &options).unwrap();
    check_cross(
        "the wgsl self-test",
        &test,
        [
            &[],
            &[
                "WaveActiveBallot",
                "WaveReadLaneFirst",
                "WaveReadLaneAt",
                "WaveGetLaneIndex",
            ],
            &["simd_ballot", "simd_broadcast_first", "simd_broadcast"],
        ],
    );
    // The emulated library has no subgroup operation left to translate:
    // only workgroup barriers.
    let emulated = polyfill::self_test(Target::WgslNoSubgroup, &options).unwrap();
    check_cross(
        "the wgsl-no-subgroup self-test",
        &emulated,
        [
            &[],
            &["GroupMemoryBarrierWithGroupSync"],
            &["threadgroup_barrier"],
        ],
    );
    // The library alone has no entry point, but translates.
    let library = polyfill::library(Target::Wgsl, &options).unwrap();
    for to in CrossTarget::ALL {
        let output = cross::compile(&library, to).unwrap_or_else(|e| panic!("{to}: {e}"));
        assert!(!output.to_bytes().is_empty());
    }
}

#[test]
fn spirv_of_the_self_test_holds_the_group_non_uniform_ballot_instructions() {
    let test = polyfill::self_test(Target::Wgsl, &PolyfillOptions::default()).unwrap();
    let Ok(CrossOutput::SpirV(words)) = cross::compile(&test, CrossTarget::SpirV) else {
        panic!("no SPIR-V");
    };
    // Opcodes from the SPIR-V spec: OpCapability 17 with
    // GroupNonUniformBallot (64); OpGroupNonUniformBallot (339).
    let mut at = 5;
    let (mut capability, mut ballot) = (false, false);
    while at < words.len() {
        let (count, opcode) = ((words[at] >> 16) as usize, words[at] & 0xffff);
        capability |= opcode == 17 && words[at + 1] == 64;
        ballot |= opcode == 339;
        at += count.max(1);
    }
    assert!(capability && ballot);
}

#[ballot::kernel]
fn compaction_slot(keep: bool) -> u32 {
    subgroup_ballot_exclusive_bit_count(subgroup_ballot(keep))
}

#[ballot::kernel]
fn elect_and_broadcast(x: u32) -> u32 {
    let mut r = subgroup_broadcast_first(x);
    if subgroup_elect() {
        r += subgroup_broadcast(x, 0);
    }
    r + subgroup_ballot_find_msb(subgroup_ballot(x > 3))
}

#[test]
fn kernels_compute_shaders_cross_compile() {
    let fixtures: [(&str, Vec<&Kernel>); 2] = [
        ("compaction_slot", compaction_slot::kernels()),
        ("elect_and_broadcast", elect_and_broadcast::kernels()),
    ];
    for (name, kernels) in fixtures {
        let wgsl = ballot::emit(
            Target::Wgsl,
            Form::ComputeShader,
            &kernels,
            &ShaderOptions::default(),
            Missing::Error,
        )
        .unwrap();
        check_cross(name, &wgsl, [&[], &["WaveActiveBallot"], &["simd_ballot"]]);
    }
}

#[test]
fn cross_targets_parse_by_name_and_errors_name_stage_and_target() {
    for to in CrossTarget::ALL {
        assert_eq!(to.name().parse::<CrossTarget>(), Ok(to));
    }
    let err = "dxil".parse::<CrossTarget>().unwrap_err();
    let message = err.to_string();
    for name in ["dxil", "spirv", "hlsl", "msl"] {
        assert!(message.contains(name), "{message}");
    }

    let err = cross::compile("fn f( {", CrossTarget::Hlsl).unwrap_err();
    assert!(
        matches!(
            err,
            CrossError::Failed {
                target: CrossTarget::Hlsl,
                stage: CrossStage::Parse,
                ..
            }
        ),
        "{err:?}"
    );
    // Parses, but a u32 is no bool.
    let err = cross::compile("fn f() -> bool { return 1u; }", CrossTarget::Msl).unwrap_err();
    assert!(
        matches!(
            err,
            CrossError::Failed {
                target: CrossTarget::Msl,
                stage: CrossStage::Validate,
                ..
            }
        ),
        "{err:?}"
    );
    assert!(err.to_string().contains("msl") && err.to_string().contains("validate"));
}

/// The tool checks above, with `glslangValidator` and `spirv-val` out of
/// `PATH`: skipped and recorded in the ledger by default, failures with
/// `BALLOT_REQUIRE_TOOLS=1`.
#[test]
fn tool_checks_skip_without_the_tools_unless_required() {
    const TOOL_TESTS: [&str; 3] = [
        "libraries_are_valid_and_match_their_golden_files",
        "glslang_rejects_the_bare_glsl_names_without_the_extension",
        "kernels_compute_shaders_cross_compile",
    ];
    let dir = std::env::temp_dir().join(format!("ballot-skip-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let ledger = dir.join("skipped.tsv");
    let _ = std::fs::remove_file(&ledger);
    let out = ballot_testkit::rerun_without_tools(&TOOL_TESTS, &[], &ledger);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(stdout.contains("3 passed"), "{stdout}");
    let recorded = std::fs::read_to_string(&ledger).unwrap_or_default();
    for test in TOOL_TESTS {
        let line = recorded
            .lines()
            .find(|l| l.contains(test))
            .unwrap_or_else(|| panic!("{test} not in the ledger:\n{recorded}"));
        let fields: Vec<&str> = line.split('\t').collect();
        assert_eq!(fields[0], "tool", "{line}");
        assert!(fields[3].starts_with("apt-get install"), "{line}");
        assert!(stderr.contains(&format!("SKIPPED [{test}]")), "{stderr}");
    }

    let out = ballot_testkit::rerun_without_tools(
        &TOOL_TESTS,
        &[(ballot_testkit::REQUIRE_TOOLS_VAR, "1")],
        &ledger,
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success(), "{stdout}");
    assert!(stdout.contains("3 failed"), "{stdout}");
    assert!(
        stdout.contains("BALLOT_REQUIRE_TOOLS=1 forbids skipping"),
        "{stdout}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
