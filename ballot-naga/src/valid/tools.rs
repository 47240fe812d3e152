//! The external tools, run as programs with bounded output: glslang
//! (`glslangValidator`) compiling GLSL to SPIR-V, and `spirv-val`.

use std::io::Write as _;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

use super::{GLSL_LIBRARY_ENTRY, GLSL_LIBRARY_VERSION};
use ballot_shader::back::Form;

/// An external tool (glslang, spirv-val) failed or could not run.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{tool}: {message}")]
pub struct ToolError {
    /// The program.
    pub tool: &'static str,
    /// Its output, or why it could not run.
    pub message: String,
}

fn run_tool(tool: &'static str, args: &[&str], stdin: Option<&[u8]>) -> Result<Vec<u8>, ToolError> {
    let err = |message: String| ToolError { tool, message };
    let mut child = Command::new(tool)
        .args(args)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| {
            err(format!(
                "cannot run it ({e}); install glslang-tools and spirv-tools"
            ))
        })?;
    if let (Some(input), Some(mut pipe)) = (stdin, child.stdin.take()) {
        pipe.write_all(input).map_err(|e| err(e.to_string()))?;
    }
    let output = child.wait_with_output().map_err(|e| err(e.to_string()))?;
    if output.status.success() {
        Ok(output.stdout)
    } else {
        let mut message = String::from_utf8_lossy(&output.stdout).into_owned();
        message.push_str(&String::from_utf8_lossy(&output.stderr));
        Err(err(message.trim().to_string()))
    }
}

/// Compiles a GLSL compute shader to SPIR-V for Vulkan 1.1 with
/// `glslangValidator`, then checks the result with `spirv-val`.
pub fn glslang_spirv(text: &str) -> Result<Vec<u8>, ToolError> {
    let io = |e: std::io::Error| ToolError {
        tool: "glslangValidator",
        message: e.to_string(),
    };
    let dir = std::env::temp_dir().join(format!("ballot-glslang-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(io)?;
    // Tests validate in parallel threads: one file per call.
    static CALLS: AtomicUsize = AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, Ordering::Relaxed);
    let spv = dir.join(format!("{:016x}-{call}.spv", fnv1a(text)));
    let spv_path = spv.to_string_lossy().into_owned();
    let args = [
        "-V",
        "--target-env",
        "vulkan1.1",
        "--stdin",
        "-S",
        "comp",
        "-o",
        &spv_path,
    ];
    let result = run_tool("glslangValidator", &args, Some(text.as_bytes()))
        .and_then(|_| run_tool("spirv-val", &["--target-env", "vulkan1.1", &spv_path], None))
        .and_then(|_| std::fs::read(&spv).map_err(io));
    let _ = std::fs::remove_file(&spv);
    result
}

/// Validates GLSL in `form` with glslang and spirv-val: a compute shader as
/// it is, a helper library with the `#version` line and entry point that
/// [`super::validate`] adds.
pub fn glslang(text: &str, form: Form) -> Result<(), ToolError> {
    match form {
        Form::ComputeShader => glslang_spirv(text),
        Form::Helpers => {
            glslang_spirv(&format!("{GLSL_LIBRARY_VERSION}{text}{GLSL_LIBRARY_ENTRY}"))
        }
    }
    .map(drop)
}

/// A small stable hash for temporary file names.
fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    })
}
