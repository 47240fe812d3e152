//! Validation of emitted shader text with naga, per target, following
//! docs/design.md's table; and, for tests and runners, glslang and spirv-val.
//!
//! | target | how naga sees it |
//! |---|---|
//! | `wgsl` | wgsl-in, `Capabilities::SUBGROUP` |
//! | `wgsl-web` | the same, with its `enable` / `diagnostic` directives blanked |
//! | `wgsl-no-subgroup` | wgsl-in, `Capabilities::empty()` |
//! | `glsl-no-subgroup` | glsl-in; `barrier()` needs `SUBGROUP \| SUBGROUP_BARRIER` |
//! | `glsl` | glsl-in on a shim: the extension's functions declared, its built-ins renamed to declared stand-ins |
//!
//! GLSL helper libraries have no `#version` line or entry point, so they are
//! wrapped in both before parsing. Line numbers in reports refer to the
//! emitted text, not to the wrapper or the shim.

use std::io::Write as _;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

use naga::valid::{Capabilities, ValidationFlags, Validator};

use crate::back::{Form, Target};

/// naga rejected an emitted shader.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("naga rejects the {form} form of target `{target}`{}: {message}", location(*line))]
pub struct ValidationError {
    /// The target whose text failed.
    pub target: Target,
    /// The form that failed.
    pub form: Form,
    /// naga's message, with the offending source line as naga prints it.
    pub message: String,
    /// The 1-based line of the emitted text naga points at, if any.
    pub line: Option<u32>,
    /// That line's text.
    pub line_text: Option<String>,
}

fn location(line: Option<u32>) -> String {
    line.map_or_else(String::new, |l| format!(" at line {l}"))
}

/// Validates `text`, emitted for `target` in `form`, with naga.
pub fn validate(target: Target, form: Form, text: &str) -> Result<(), ValidationError> {
    validate_source(target, form, text, &naga_source(target, form, text))
}

/// The text that naga parses when [`validate`] checks `text`, emitted for
/// `target` in `form`: the text itself, or (per the table above) the
/// `wgsl-web` text with its directives blanked, the `glsl` shim, a GLSL
/// helper library wrapped in a version line and an entry point.
pub fn naga_source(target: Target, form: Form, text: &str) -> String {
    match target {
        Target::Wgsl | Target::WgslNoSubgroup => text.to_string(),
        Target::WgslWeb => strip_web_directives(text),
        Target::GlslNoSubgroup => glsl_wrap(text, form),
        Target::Glsl => glsl_wrap(&glsl_shim(text), form),
    }
}

/// [`validate`], given `source`, which must be [`naga_source`] of the
/// other three: for callers that have it already.
pub fn validate_source(
    target: Target,
    form: Form,
    text: &str,
    source: &str,
) -> Result<(), ValidationError> {
    let fail = |(message, line): (String, Option<u32>)| {
        // Wrappers add lines before the emitted text; report its own lines.
        let offset = if wrapped(target, form) { 1 } else { 0 };
        let line = line.and_then(|l| l.checked_sub(offset)).filter(|&l| l > 0);
        ValidationError {
            target,
            form,
            message,
            line,
            line_text: line
                .and_then(|l| text.lines().nth(l as usize - 1))
                .map(str::to_string),
        }
    };
    match target {
        Target::Wgsl | Target::WgslWeb | Target::WgslNoSubgroup => {
            wgsl(source, "wgsl", capabilities(target))
        }
        Target::GlslNoSubgroup => glsl(source, "glsl"),
        Target::Glsl => glsl(source, "glsl").map_err(|(m, l)| (unshim_report(&m), l)),
    }
    .map_err(fail)
}

/// The capabilities naga validates `target`'s text with (see the table
/// above): two targets whose [`naga_source`] texts hold the same tokens
/// and that have the same capabilities get the same verdict.
pub fn capabilities(target: Target) -> Capabilities {
    match target {
        Target::Wgsl | Target::WgslWeb => Capabilities::SUBGROUP,
        Target::WgslNoSubgroup => Capabilities::empty(),
        Target::Glsl | Target::GlslNoSubgroup => GLSL_CAPABILITIES,
    }
}

/// naga's glsl-in lowers `barrier()` to a barrier that includes the
/// subgroup, which needs these capabilities to validate.
const GLSL_CAPABILITIES: Capabilities =
    Capabilities::SUBGROUP.union(Capabilities::SUBGROUP_BARRIER);

fn wrapped(target: Target, form: Form) -> bool {
    target.language() == crate::back::Language::Glsl && form == Form::Helpers
}

fn validator(caps: Capabilities) -> Validator {
    Validator::new(ValidationFlags::all(), caps)
}

/// naga rejected a user's shader module (see [`check_source`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{report}")]
pub struct SourceError {
    /// The target the module was checked for.
    pub target: Target,
    /// naga's report, as `emit_to_string_with_path` renders it: the error,
    /// the path, line and column, and the offending source line.
    pub report: String,
    /// The 1-based line naga points at, if any.
    pub line: Option<u32>,
}

/// Validates a whole shader module written by a user (which may paste in
/// helpers that `ballot` emitted), as naga sees `target`'s text in the
/// table above, with the capabilities of `target`: subgroups for `glsl`,
/// `wgsl` and `wgsl-web`, none for `wgsl-no-subgroup` (GLSL always gets
/// the subgroup barrier that naga's `barrier()` needs). GLSL is parsed as a
/// compute shader; one without `main` is taken as a library (an empty
/// entry point is appended). naga's report names `path`.
///
/// For `glsl` naga checks the shim ([`glsl_shim`]), but the report names
/// and points at the file's own text: its lines, columns and names.
///
/// This runs naga directly: on untrusted input use
/// [`crate::check::check_bytes`], which bounds the input first and catches
/// naga's panics.
pub fn check_source(target: Target, path: &str, text: &str) -> Result<(), SourceError> {
    let fail = |(report, line): (String, Option<u32>)| SourceError {
        target,
        report,
        line,
    };
    match target {
        Target::Wgsl => wgsl(text, path, Capabilities::SUBGROUP),
        Target::WgslWeb => wgsl(&strip_web_directives(text), path, Capabilities::SUBGROUP),
        Target::WgslNoSubgroup => wgsl(text, path, Capabilities::empty()),
        Target::Glsl => glsl(&glsl_library(glsl_shim(text)), path)
            .map_err(|(report, line)| (unshim_report(&report), line)),
        Target::GlslNoSubgroup => glsl(&glsl_library(text.to_string()), path),
    }
    .map_err(fail)
}

/// A GLSL module without `main` is a library: naga's glsl-in needs an
/// entry point, so one is appended (after the text, keeping its line
/// numbers).
fn glsl_library(mut text: String) -> String {
    if !defines_main(&text) {
        text.push_str("\nlayout(local_size_x = 1) in;\nvoid main() {}\n");
    }
    text
}

/// Whether `void main(` appears (spaces aside): a comment saying "call
/// it from main()" must not count.
fn defines_main(text: &str) -> bool {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.match_indices("main").any(|(at, _)| {
        let before = &text[..at];
        let void = before.trim_end().strip_suffix("void");
        before.ends_with(char::is_whitespace)
            && void.is_some_and(|b| !b.chars().next_back().is_some_and(ident))
            && text[at + 4..].trim_start().starts_with('(')
    })
}

/// naga's report of a validation error, and the line of its innermost span
/// (the expression rather than the enclosing function).
fn validation_report(
    e: &naga::WithSpan<naga::valid::ValidationError>,
    source: &str,
    path: &str,
) -> (String, Option<u32>) {
    let line = e
        .spans()
        .last()
        .map(|(span, _)| span.location(source).line_number);
    (e.emit_to_string_with_path(source, path), line)
}

/// Parses and validates WGSL; on failure, naga's report (naming `path`)
/// and its line.
fn wgsl(source: &str, path: &str, caps: Capabilities) -> Result<(), (String, Option<u32>)> {
    let module = naga::front::wgsl::parse_str(source).map_err(|e| {
        let line = e.location(source).map(|l| l.line_number);
        (e.emit_to_string_with_path(source, path), line)
    })?;
    validator(caps)
        .validate(&module)
        .map_err(|e| validation_report(&e, source, path))?;
    Ok(())
}

/// Parses GLSL as a compute shader and validates it; on failure, naga's
/// report (naming `path`) and its line.
fn glsl(source: &str, path: &str) -> Result<(), (String, Option<u32>)> {
    let options = naga::front::glsl::Options::from(naga::ShaderStage::Compute);
    let module = naga::front::glsl::Frontend::default()
        .parse(&options, source)
        .map_err(|e| {
            let line = e
                .errors
                .first()
                .and_then(|err| err.location(source))
                .map(|l| l.line_number);
            (e.emit_to_string_with_path(source, path), line)
        })?;
    validator(GLSL_CAPABILITIES)
        .validate(&module)
        .map_err(|e| validation_report(&e, source, path))?;
    Ok(())
}

/// Blanks `enable` and `diagnostic` directives (keeping line numbers):
/// naga's wgsl-in rejects `enable subgroups;`.
pub fn strip_web_directives(text: &str) -> String {
    text.lines()
        .map(|line| {
            let t = line.trim_start();
            if t.starts_with("enable ") || t.starts_with("diagnostic") {
                ""
            } else {
                line
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A GLSL helper library needs a version and an entry point to parse; a
/// compute shader is taken as it is.
fn glsl_wrap(text: &str, form: Form) -> String {
    match form {
        Form::ComputeShader => text.to_string(),
        Form::Helpers => {
            let [layout, main] = GLSL_LIBRARY_ENTRY;
            format!("{GLSL_LIBRARY_VERSION}\n{text}\n{layout}\n{main}\n")
        }
    }
}

/// The line that [`naga_source`] puts before a GLSL helper library.
pub const GLSL_LIBRARY_VERSION: &str = "#version 450";

/// The lines that [`naga_source`] puts after a GLSL helper library: an
/// empty entry point, which naga's glsl-in needs.
pub const GLSL_LIBRARY_ENTRY: [&str; 2] = ["layout(local_size_x = 1) in;", "void main() {}"];

/// The names `GL_KHR_shader_subgroup_ballot` (and `_basic`) add, with the
/// stand-in declarations that make them known to naga, which knows none.
///
/// Functions keep their names: naga's glsl-in has no built-in of that
/// name, so a declared function of the same signature stands in. A
/// built-in variable cannot be declared under a `gl_` name (the prefix is
/// reserved), so it becomes a constant under [`SHIM_PREFIX`] instead of
/// `gl_`, which is just as long: every column of the file stays where it
/// was, and naga's report, with the prefix mapped back
/// ([`unshim_report`]), quotes and points at the user's own text.
const SHIM: &[(&str, &str)] = &[
    (
        "subgroupBallot",
        "uvec4 subgroupBallot(bool p) { return uvec4(0u); }",
    ),
    (
        "subgroupInverseBallot",
        "bool subgroupInverseBallot(uvec4 v) { return false; }",
    ),
    (
        "subgroupBallotBitExtract",
        "bool subgroupBallotBitExtract(uvec4 v, uint i) { return false; }",
    ),
    (
        "subgroupBallotBitCount",
        "uint subgroupBallotBitCount(uvec4 v) { return 0u; }",
    ),
    (
        "subgroupBallotInclusiveBitCount",
        "uint subgroupBallotInclusiveBitCount(uvec4 v) { return 0u; }",
    ),
    (
        "subgroupBallotExclusiveBitCount",
        "uint subgroupBallotExclusiveBitCount(uvec4 v) { return 0u; }",
    ),
    (
        "subgroupBallotFindLSB",
        "uint subgroupBallotFindLSB(uvec4 v) { return 0u; }",
    ),
    (
        "subgroupBallotFindMSB",
        "uint subgroupBallotFindMSB(uvec4 v) { return 0u; }",
    ),
    ("subgroupElect", "bool subgroupElect() { return false; }"),
    (
        "subgroupBroadcastFirst",
        "bool subgroupBroadcastFirst(bool x) { return x; }\n\
         uint subgroupBroadcastFirst(uint x) { return x; }\n\
         int subgroupBroadcastFirst(int x) { return x; }\n\
         float subgroupBroadcastFirst(float x) { return x; }\n\
         uvec4 subgroupBroadcastFirst(uvec4 x) { return x; }",
    ),
    (
        "subgroupBroadcast",
        "bool subgroupBroadcast(bool x, uint id) { return x; }\n\
         uint subgroupBroadcast(uint x, uint id) { return x; }\n\
         int subgroupBroadcast(int x, uint id) { return x; }\n\
         float subgroupBroadcast(float x, uint id) { return x; }\n\
         uvec4 subgroupBroadcast(uvec4 x, uint id) { return x; }",
    ),
    (
        "gl_SubgroupInvocationID",
        "const uint GL_SubgroupInvocationID = 0u;",
    ),
    ("gl_SubgroupSize", "const uint GL_SubgroupSize = 32u;"),
    (
        "gl_SubgroupEqMask",
        "const uvec4 GL_SubgroupEqMask = uvec4(0u);",
    ),
    (
        "gl_SubgroupGeMask",
        "const uvec4 GL_SubgroupGeMask = uvec4(0u);",
    ),
    (
        "gl_SubgroupGtMask",
        "const uvec4 GL_SubgroupGtMask = uvec4(0u);",
    ),
    (
        "gl_SubgroupLeMask",
        "const uvec4 GL_SubgroupLeMask = uvec4(0u);",
    ),
    (
        "gl_SubgroupLtMask",
        "const uvec4 GL_SubgroupLtMask = uvec4(0u);",
    ),
];

/// What the shim writes in place of a built-in variable's `gl_`.
pub const SHIM_PREFIX: &str = "GL_";

/// The `glsl` target's text as naga can check it: each built-in variable
/// renamed to its stand-in, the stand-ins declared in place of the first
/// `#extension` line, the other `#extension` lines blanked. Every line
/// keeps its number and every other character its column.
pub fn glsl_shim(text: &str) -> String {
    let mut used = Vec::new();
    let mut lines: Vec<String> = text
        .lines()
        .map(|line| {
            if line.trim_start().starts_with("#extension") {
                String::new()
            } else {
                rename_identifiers(line, &mut used)
            }
        })
        .collect();
    let decls: Vec<&str> = SHIM
        .iter()
        .filter(|(name, _)| used.contains(name))
        .map(|(_, decl)| *decl)
        .collect();
    let decls = decls.join(" ").replace('\n', " ");
    // Text that uses the extension must enable it, so the line exists.
    match text
        .lines()
        .position(|l| l.trim_start().starts_with("#extension"))
    {
        Some(first) => lines[first] = decls,
        None if !decls.is_empty() => lines.insert(0, decls),
        None => {}
    }
    lines.join("\n")
}

/// Notes each whole identifier that is an extension name, and renames the
/// built-in variables to their stand-ins.
fn rename_identifiers(line: &str, used: &mut Vec<&'static str>) -> String {
    map_identifiers(line, |ident| {
        // Every extension name has one of these prefixes: most identifiers
        // are ruled out without a look at the list.
        if !(ident.starts_with("subgroup") || ident.starts_with("gl_")) {
            return None;
        }
        let (name, _) = SHIM.iter().find(|(name, _)| *name == ident)?;
        if !used.contains(name) {
            used.push(name);
        }
        name.strip_prefix("gl_")
            .map(|rest| format!("{SHIM_PREFIX}{rest}"))
    })
}

/// naga's report on [`glsl_shim`]'s text, in the user's names: each
/// built-in variable's stand-in becomes the `gl_` name again. Columns
/// match, as the two names are equally long.
pub fn unshim_report(report: &str) -> String {
    map_identifiers(report, |ident| {
        let rest = ident.strip_prefix(SHIM_PREFIX)?;
        let name = format!("gl_{rest}");
        SHIM.iter().any(|(n, _)| *n == name).then_some(name)
    })
}

/// `text` with each whole identifier that `rename` maps replaced.
fn map_identifiers(text: &str, mut rename: impl FnMut(&str) -> Option<String>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find(|c: char| c.is_ascii_alphabetic() || c == '_') {
        out.push_str(&rest[..start]);
        rest = &rest[start..];
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        let ident = &rest[..end];
        match rename(ident) {
            Some(name) => out.push_str(&name),
            None => out.push_str(ident),
        }
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

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
/// it is, a helper library wrapped like [`validate`] wraps it.
pub fn glslang(text: &str, form: Form) -> Result<(), ToolError> {
    glslang_spirv(&glsl_wrap(text, form)).map(drop)
}

/// A small stable hash for temporary file names.
fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const BALLOT_WGSL: &str = "\
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) i: u32) {
    let m = subgroupBallot((i % 2u) == 0u);
}
";

    #[test]
    fn subgroup_wgsl_needs_the_subgroup_capability() {
        assert_eq!(
            validate(Target::Wgsl, Form::ComputeShader, BALLOT_WGSL),
            Ok(())
        );
        let err = validate(Target::WgslNoSubgroup, Form::ComputeShader, BALLOT_WGSL).unwrap_err();
        assert_eq!(err.line, Some(3));
        assert_eq!(
            err.line_text.as_deref(),
            Some("    let m = subgroupBallot((i % 2u) == 0u);")
        );
    }

    #[test]
    fn web_directives_are_blanked_for_naga() {
        let web =
            format!("enable subgroups;\ndiagnostic(off, subgroup_uniformity);\n{BALLOT_WGSL}");
        assert!(
            naga::front::wgsl::parse_str(&web).is_err(),
            "naga rejects `enable subgroups;`"
        );
        assert_eq!(validate(Target::WgslWeb, Form::ComputeShader, &web), Ok(()));
        let broken = web.replace("2u) == 0u", "2u) == 0i");
        assert_eq!(
            validate(Target::WgslWeb, Form::ComputeShader, &broken)
                .unwrap_err()
                .line,
            Some(5)
        );
    }

    #[test]
    fn the_glsl_shim_declares_stand_ins_and_keeps_line_numbers() {
        let text = "#version 450\n#extension GL_KHR_shader_subgroup_ballot : require\n\
                    layout(local_size_x = 32) in;\n\
                    void main() {\n\
                    uvec4 m = subgroupBallot(gl_SubgroupInvocationID < 3u);\n\
                    uint n = subgroupBallotBitCount(m) + gl_SubgroupSize;\n\
                    }\n";
        let shim = glsl_shim(text);
        assert!(shim.contains("m = subgroupBallot(GL_SubgroupInvocationID < 3u);"));
        // Every line the same length: columns are kept.
        for (a, b) in text.lines().zip(shim.lines()).skip(2) {
            assert_eq!(a.len(), b.len(), "{b}");
        }
        assert!(!shim.contains("#extension"));
        assert_eq!(shim.lines().count(), text.lines().count(), "{shim}");
        assert_eq!(validate(Target::Glsl, Form::ComputeShader, text), Ok(()));
        let broken = text.replace("uint n", "bool n");
        let err = validate(Target::Glsl, Form::ComputeShader, &broken).unwrap_err();
        assert_eq!(err.line, Some(6), "{err}");
    }

    #[test]
    fn every_shim_name_has_a_prefix_that_rename_identifiers_looks_for() {
        for (name, _) in SHIM {
            assert!(
                name.starts_with("subgroup") || name.starts_with("gl_"),
                "{name}"
            );
        }
    }

    #[test]
    fn glsl_helper_libraries_are_wrapped_and_lines_refer_to_the_library() {
        let helpers = "uint twice(uint x) {\n    return x * 2u;\n}\n";
        assert_eq!(
            validate(Target::GlslNoSubgroup, Form::Helpers, helpers),
            Ok(())
        );
        let err = validate(
            Target::GlslNoSubgroup,
            Form::Helpers,
            &helpers.replace("2u", "true"),
        )
        .unwrap_err();
        assert_eq!(err.line, Some(2), "{err}");
    }

    #[test]
    fn glslang_compiles_and_spirv_val_accepts_a_ballot_shader() {
        if !ballot_testkit::have_tools("glslang and spirv-val", &ballot_testkit::GLSL_TOOLS) {
            return;
        }
        let text = "#version 450\n#extension GL_KHR_shader_subgroup_ballot : require\n\
                    layout(local_size_x = 32) in;\n\
                    layout(std430, set = 0, binding = 0) buffer Out { uvec4 data[]; } out_;\n\
                    void main() { out_.data[gl_LocalInvocationIndex] = subgroupBallot(true); }\n";
        let spirv = glslang_spirv(text).expect("glslang-tools and spirv-tools are installed");
        assert_eq!(&spirv[..4], &0x0723_0203u32.to_le_bytes());
        let err = glslang_spirv(&text.replace("subgroupBallot(true)", "subgroupBallot(1.0)"))
            .unwrap_err();
        assert_eq!(err.tool, "glslangValidator");
    }
}
