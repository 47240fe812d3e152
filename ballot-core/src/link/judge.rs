//! The verdict on a linked text, from the validator of its language: naga
//! for WGSL, glslang (the Khronos reference compiler) for GLSL.
//!
//! naga's GLSL front end reads a subset of the language: it refuses
//! `atomicAdd`, `local_size_x_id`, `layout(push_constant)`, precision
//! qualifiers on parameters and much that Vulkan shaders hold. The user's
//! GLSL is therefore judged by `glslangValidator`, run as a program (found
//! as `BALLOT_GLSLANG`, or on `PATH`), so that a shader glslang accepts is
//! never refused for naga's sake. naga still proves the text ballot adds:
//! every GLSL polyfill library is validated by naga and glslang both
//! (`valid::validate`, in the library tests).
//!
//! Each verdict also gives what the emulated targets read back from the
//! validator: the entry points' workgroup size, which sizes the exchange
//! arrays (naga's module for WGSL; the SPIR-V `LocalSize` execution mode
//! glslang writes for GLSL, where the size may be spelled through macros
//! or constants).

use std::io::{Read as _, Write as _};
use std::ops::Range;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use super::LinkErrorKind;
use crate::back::{Language, Target};
use crate::valid::{self, Diagnostic};

/// The entry points' workgroup size, as the validator read it, or why the
/// emulated targets cannot take it.
pub(super) type Workgroup = Result<[u32; 3], (LinkErrorKind, String)>;

/// A rejection: the workgroup, where the validator read one (naga's module
/// survives a validation error), and the diagnostic on the judged text.
pub(super) type Rejected = Box<(Option<Workgroup>, Diagnostic)>;

/// How long glslang may take on one text: `ballot check`'s limit.
const GLSLANG_TIMEOUT: Duration = crate::check::TIMEOUT;

/// The environment variable naming the `glslangValidator` to run.
pub const GLSLANG_VAR: &str = "BALLOT_GLSLANG";

/// The verdict on `text`, linked for `target`; `stage` is the GLSL stage
/// glslang compiles it as (`comp`, `frag`, …), and whether it was assumed
/// ([`glsl_stage`]).
pub(super) fn judge(
    target: Target,
    text: &str,
    (stage, assumed): (&str, bool),
) -> Result<Workgroup, Rejected> {
    #[cfg(test)]
    super::tests::JUDGE_PASSES.with(|n| n.set(n.get() + 1));
    match target.language() {
        Language::Wgsl => match valid::diagnose(target, text) {
            Ok((module, _)) => Ok(naga_workgroup(&module)),
            Err(rejected) => {
                let (module, diagnostic) = *rejected;
                Err(Box::new((module.map(|m| naga_workgroup(&m)), diagnostic)))
            }
        },
        Language::Glsl => match glslang(text, stage) {
            Ok(words) => Ok(spirv_workgroup(&words)),
            Err(mut diagnostic) => {
                if assumed {
                    diagnostic.notes.push(
                        "glslang compiled it as a compute shader, as its file name has no stage \
                         extension: name a shader of another stage `.frag`, `.vert`, … as \
                         glslang does"
                            .to_string(),
                    );
                }
                Err(Box::new((None, diagnostic)))
            }
        },
    }
}

/// The validator of `language`, by name.
pub(super) fn validator(language: Language) -> &'static str {
    match language {
        Language::Wgsl => "naga",
        Language::Glsl => "glslang",
    }
}

/// The stage glslang compiles a file as, from its extension as glslang
/// names stages (`.comp`, `.frag`, `.vert`, …); any other name (`.glsl`)
/// is a compute shader, and the second value says the stage was assumed.
pub(super) fn glsl_stage(path: &str) -> (&'static str, bool) {
    const STAGES: [&str; 14] = [
        "comp", "frag", "vert", "geom", "tesc", "tese", "mesh", "task", "rgen", "rint", "rahit",
        "rchit", "rmiss", "rcall",
    ];
    let extension = path.rsplit_once('.').map(|(_, e)| e);
    match STAGES.iter().find(|&&s| Some(s) == extension) {
        Some(stage) => (stage, false),
        None => ("comp", true),
    }
}

/// The workgroup size every compute entry point has, as naga reads it.
fn naga_workgroup(module: &naga::Module) -> Workgroup {
    let mut size: Option<([u32; 3], &str)> = None;
    for entry in &module.entry_points {
        if entry.stage != naga::ShaderStage::Compute {
            continue;
        }
        if entry.workgroup_size_overrides.is_some() {
            return Err(overridable(&entry.name));
        }
        match size {
            Some((s, other)) if s != entry.workgroup_size => {
                return Err((
                    LinkErrorKind::Unsupported,
                    format!(
                        "entry points `{other}` ({s:?}) and `{}` ({:?}) have different \
                         workgroup sizes: one emulation serves every entry point",
                        entry.name, entry.workgroup_size
                    ),
                ))
            }
            _ => size = Some((entry.workgroup_size, &entry.name)),
        }
    }
    size.map(|(s, _)| s).ok_or_else(no_compute_entry)
}

fn overridable(entry: &str) -> (LinkErrorKind, String) {
    (
        LinkErrorKind::Unsupported,
        format!(
            "entry point `{entry}` has a pipeline-overridable workgroup size: the emulated \
             subgroups' exchange arrays are sized at link time, so it must be a constant"
        ),
    )
}

fn no_compute_entry() -> (LinkErrorKind, String) {
    (
        LinkErrorKind::Unsupported,
        "the shader has no compute entry point: the emulated subgroups are sized from its \
         workgroup and set up at its start"
            .to_string(),
    )
}

// ------------------------------------------------------------- SPIR-V

/// SPIR-V's opcodes and enumerants that [`spirv_workgroup`] reads (the
/// SPIR-V specification, section 3).
mod spv {
    pub const MAGIC: u32 = 0x0723_0203;
    pub const OP_ENTRY_POINT: u16 = 15;
    pub const OP_EXECUTION_MODE: u16 = 16;
    pub const OP_SPEC_CONSTANT_COMPOSITE: u16 = 51;
    pub const OP_DECORATE: u16 = 71;
    pub const OP_EXECUTION_MODE_ID: u16 = 331;
    pub const GL_COMPUTE: u32 = 5;
    pub const LOCAL_SIZE: u32 = 17;
    pub const LOCAL_SIZE_ID: u32 = 38;
    pub const BUILT_IN: u32 = 11;
    pub const WORKGROUP_SIZE: u32 = 25;
}

/// The compute entry point's `LocalSize` in the module `words`. A
/// workgroup given through specialization constants (`local_size_x_id`)
/// is overridable: glslang writes it as a `WorkgroupSize` built-in that is
/// an `OpSpecConstantComposite`, or as `LocalSizeId`.
fn spirv_workgroup(words: &[u32]) -> Workgroup {
    let bug = |what: &str| (LinkErrorKind::Bug, format!("glslang's SPIR-V: {what}"));
    if words.len() < 5 || words[0] != spv::MAGIC {
        return Err(bug("no SPIR-V header"));
    }
    let mut compute = Vec::new();
    let mut local_size = None;
    let mut by_id = false;
    let mut workgroup_builtin = None;
    let mut spec_composites = Vec::new();
    let mut at = 5;
    while at < words.len() {
        let (count, opcode) = ((words[at] >> 16) as usize, words[at] as u16);
        if count == 0 || at + count > words.len() {
            return Err(bug("an instruction runs past the end"));
        }
        let operands = &words[at + 1..at + count];
        match (opcode, operands) {
            (spv::OP_ENTRY_POINT, [spv::GL_COMPUTE, id, ..]) => compute.push(*id),
            (spv::OP_EXECUTION_MODE, [id, spv::LOCAL_SIZE, x, y, z]) if compute.contains(id) => {
                local_size = Some([*x, *y, *z]);
            }
            (spv::OP_EXECUTION_MODE_ID, [_, spv::LOCAL_SIZE_ID, ..]) => by_id = true,
            (spv::OP_DECORATE, [id, spv::BUILT_IN, spv::WORKGROUP_SIZE]) => {
                workgroup_builtin = Some(*id);
            }
            (spv::OP_SPEC_CONSTANT_COMPOSITE, [_, id, ..]) => spec_composites.push(*id),
            _ => {}
        }
        at += count;
    }
    if compute.is_empty() {
        return Err(no_compute_entry());
    }
    if by_id || workgroup_builtin.is_some_and(|id| spec_composites.contains(&id)) {
        return Err(overridable("main"));
    }
    local_size.ok_or_else(|| bug("no LocalSize for the compute entry point"))
}

// ------------------------------------------------------------ glslang

/// The program to run: `BALLOT_GLSLANG`, or `glslangValidator` on `PATH`.
fn glslang_program() -> PathBuf {
    std::env::var_os(GLSLANG_VAR)
        .filter(|v| !v.is_empty())
        .map_or_else(|| PathBuf::from("glslangValidator"), PathBuf::from)
}

/// Compiles `text` as a Vulkan 1.1 shader of `stage` with glslang: its
/// SPIR-V words, or glslang's first error as a diagnostic on `text` (its
/// later errors as notes). A glslang that cannot run, or that runs past
/// [`GLSLANG_TIMEOUT`], is a diagnostic without a place, saying so.
fn glslang(text: &str, stage: &str) -> Result<Vec<u32>, Diagnostic> {
    let program = glslang_program();
    let plain = |message: String| Diagnostic {
        message,
        labels: Vec::new(),
        notes: Vec::new(),
    };
    // Parallel links (tests, a build script's threads) each have a file.
    static CALLS: AtomicUsize = AtomicUsize::new(0);
    let spv = std::env::temp_dir().join(format!(
        "ballot-link-{}-{}.spv",
        std::process::id(),
        CALLS.fetch_add(1, Ordering::Relaxed)
    ));
    let mut child = Command::new(&program)
        .args([
            "-V",
            "--target-env",
            "vulkan1.1",
            "--stdin",
            "-S",
            stage,
            "-o",
        ])
        .arg(&spv)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| {
            plain(format!(
                "GLSL is judged by glslang, the Khronos reference compiler, and `{}` cannot \
                 run ({e}): install it (Debian and Ubuntu: `apt install glslang-tools`), or \
                 name it in {GLSLANG_VAR}",
                program.display()
            ))
        })?;
    // Writing and reading on threads of their own: a pipe that fills
    // would otherwise stop both sides.
    let input = child.stdin.take().map(|mut pipe| {
        let text = text.as_bytes().to_vec();
        std::thread::spawn(move || {
            let _ = pipe.write_all(&text);
        })
    });
    let reader = |pipe: Option<Box<dyn std::io::Read + Send>>| {
        std::thread::spawn(move || {
            let mut out = Vec::new();
            if let Some(pipe) = pipe {
                // glslang's report on a text of at most 16 MiB; bounded
                // all the same.
                let _ = pipe.take(1 << 20).read_to_end(&mut out);
            }
            out
        })
    };
    let stdout = reader(child.stdout.take().map(|p| Box::new(p) as _));
    let stderr = reader(child.stderr.take().map(|p| Box::new(p) as _));
    let started = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Ok(status),
            Ok(None) if started.elapsed() > GLSLANG_TIMEOUT => {
                let _ = child.kill();
                let _ = child.wait();
                break Err(format!(
                    "glslang did not finish within {} s",
                    GLSLANG_TIMEOUT.as_secs()
                ));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(2)),
            Err(e) => break Err(format!("waiting for glslang: {e}")),
        }
    };
    if let Some(input) = input {
        let _ = input.join();
    }
    let mut report = stdout.join().unwrap_or_default();
    report.extend(stderr.join().unwrap_or_default());
    let report = String::from_utf8_lossy(&report).into_owned();
    let result = match status {
        Err(message) => Err(plain(message)),
        Ok(status) if status.success() => match std::fs::read(&spv) {
            Ok(bytes) => Ok(bytes
                .chunks_exact(4)
                .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
                .collect()),
            Err(e) => Err(plain(format!("glslang wrote no SPIR-V: {e}"))),
        },
        Ok(_) => Err(diagnostic(text, &report)),
    };
    let _ = std::fs::remove_file(&spv);
    result
}

/// glslang's errors on `text`, as a diagnostic: the first at its line (at
/// the token it quotes, where that is on the line), the rest as notes.
/// glslang writes each as `ERROR: stdin:LINE: 'TOKEN' : MESSAGE`, or
/// without a place (`ERROR: #version: …`, `ERROR: Linking compute stage:
/// …`).
fn diagnostic(text: &str, report: &str) -> Diagnostic {
    let mut errors = report.lines().filter_map(|line| {
        let rest = line.trim().strip_prefix("ERROR: ")?;
        let placed = rest
            .strip_prefix("stdin:")
            .or_else(|| rest.strip_prefix("0:"));
        let (number, rest) = match placed.and_then(|r| r.split_once(':')) {
            Some((number, rest)) if number.trim().parse::<usize>().is_ok() => {
                (number.trim().parse::<usize>().ok(), rest.trim())
            }
            _ => (None, rest),
        };
        let (token, message) = match rest.strip_prefix('\'').and_then(|r| r.split_once("' :")) {
            Some((token, message)) => (token, message.trim()),
            None => ("", rest),
        };
        // glslang's own closing words, which say nothing of the text.
        let closing = message == "compilation terminated"
            || message.ends_with("compilation errors.  No code generated.")
            || message.ends_with("compilation error.  No code generated.");
        (!closing).then_some((number, token, message))
    });
    let Some((number, token, message)) = errors.next() else {
        return Diagnostic {
            message: format!("glslang rejects the shader: {}", report.trim()),
            labels: Vec::new(),
            notes: Vec::new(),
        };
    };
    let quoted = |token: &str, message: &str| match token {
        "" => message.to_string(),
        token => format!("`{token}`: {message}"),
    };
    let notes: Vec<String> = errors
        .take(8)
        .map(|(n, token, message)| match n {
            Some(n) => format!(
                "glslang, also: {} (line {n} of the text it was given)",
                quoted(token, message)
            ),
            None => format!("glslang, also: {}", quoted(token, message)),
        })
        .collect();
    // No line given: the first line, where `#version` belongs, for
    // glslang's words on it; else no place.
    let number = number.or_else(|| message.starts_with("#version").then_some(1));
    Diagnostic {
        message: format!("glslang: {}", quoted(token, message)),
        labels: number
            .and_then(|n| line_range(text, n, token))
            .map(|range| (range, String::new()))
            .into_iter()
            .collect(),
        notes,
    }
}

/// Whether a GLSL `text` has a `#version` line (with any blanks around
/// the `#`).
pub(super) fn has_version(text: &str) -> bool {
    text.lines().any(|line| {
        line.trim_start()
            .strip_prefix('#')
            .is_some_and(|rest| rest.trim_start().starts_with("version"))
    })
}

/// The range of `token` on 1-based line `number` of `text`, or of the
/// line's code where the token is not on it.
fn line_range(text: &str, number: usize, token: &str) -> Option<Range<usize>> {
    let start: usize = text
        .split_inclusive('\n')
        .take(number.checked_sub(1)?)
        .map(str::len)
        .sum();
    let line = text[start..].split('\n').next()?;
    if let Some(at) = (!token.is_empty()).then(|| line.find(token)).flatten() {
        return Some(start + at..start + at + token.len());
    }
    let code = line.trim_start();
    let indent = line.len() - code.len();
    Some(start + indent..start + indent + code.trim_end().len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glslang_errors_are_placed_at_their_token() {
        let text =
            "#version 450\nlayout(local_size_x = 4) in;\nvoid main() {\n  int x = foo(1);\n}\n";
        let report = "stdin\nERROR: stdin:4: 'foo' : no matching overloaded function found \n\
                      ERROR: stdin:4: '=' :  cannot convert from ' const float' to ' temp highp int'\n\
                      ERROR: stdin:4: '' : compilation terminated \nERROR: 3 compilation errors.  No code generated.\n";
        let d = diagnostic(text, report);
        assert_eq!(
            d.message,
            "glslang: `foo`: no matching overloaded function found"
        );
        let (range, _) = &d.labels[0];
        assert_eq!(&text[range.clone()], "foo");
        assert_eq!(d.notes.len(), 1, "{:?}", d.notes);
        assert!(d.notes[0].contains("cannot convert"), "{:?}", d.notes);
        // A token not on its line: the line's code.
        assert_eq!(
            line_range(text, 2, "zzz").map(|r| &text[r]),
            Some("layout(local_size_x = 4) in;")
        );
        assert_eq!(line_range(text, 0, "x"), None);
    }

    #[test]
    fn stages_come_from_glslang_s_extensions() {
        assert_eq!(glsl_stage("a/b.frag"), ("frag", false));
        assert_eq!(glsl_stage("x.comp"), ("comp", false));
        assert_eq!(glsl_stage("x.glsl"), ("comp", true));
        assert_eq!(glsl_stage("noext"), ("comp", true));
    }

    /// A SPIR-V module of a header and `instructions`, each its opcode and
    /// operands (the word count is added).
    fn module(instructions: &[(u16, &[u32])]) -> Vec<u32> {
        let mut words = vec![spv::MAGIC, 0x0001_0300, 0, 100, 0];
        for (opcode, operands) in instructions {
            words.push(((operands.len() as u32 + 1) << 16) | u32::from(*opcode));
            words.extend_from_slice(operands);
        }
        words
    }

    #[test]
    fn the_workgroup_is_read_from_local_size() {
        // OpEntryPoint GLCompute %4 "main"; OpExecutionMode %4 LocalSize 8 4 1.
        let name = u32::from_le_bytes(*b"main");
        let entry: &[u32] = &[spv::GL_COMPUTE, 4, name, 0];
        let fixed = module(&[
            (spv::OP_ENTRY_POINT, entry),
            (spv::OP_EXECUTION_MODE, &[4, spv::LOCAL_SIZE, 8, 4, 1]),
        ]);
        assert_eq!(spirv_workgroup(&fixed), Ok([8, 4, 1]));
        // local_size_x_id: the WorkgroupSize built-in is a spec constant.
        let overridable = module(&[
            (spv::OP_ENTRY_POINT, entry),
            (spv::OP_EXECUTION_MODE, &[4, spv::LOCAL_SIZE, 1, 1, 1]),
            (spv::OP_DECORATE, &[9, spv::BUILT_IN, spv::WORKGROUP_SIZE]),
            (spv::OP_SPEC_CONSTANT_COMPOSITE, &[7, 9, 5, 6, 6]),
        ]);
        let (kind, message) = spirv_workgroup(&overridable).unwrap_err();
        assert_eq!(kind, LinkErrorKind::Unsupported);
        assert!(message.contains("pipeline-overridable"), "{message}");
        // A fragment shader has no compute entry point.
        let fragment = module(&[(spv::OP_ENTRY_POINT, &[4, 4, name, 0])]);
        assert!(spirv_workgroup(&fragment)
            .unwrap_err()
            .1
            .contains("no compute entry point"));
        // A truncated module is glslang's fault, never a panic.
        let mut cut = fixed.clone();
        cut.truncate(cut.len() - 2);
        assert_eq!(spirv_workgroup(&cut).unwrap_err().0, LinkErrorKind::Bug);
    }
}
