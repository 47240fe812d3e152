//! Users' shader text: naga's verdict on a module a user wrote, and
//! glslang's on GLSL that naga's front end refuses.

use super::{glslang, Author, Failure, Parsed, GLSL_LIBRARY_ENTRY, GLSL_LIBRARY_VERSION};
use ballot_shader::back::{Language, Target};

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
/// helpers that `ballot` emitted), as naga sees `target`'s text in
/// [`super`]'s table, with the capabilities of `target`: subgroups for `glsl`,
/// `wgsl` and `wgsl-web`, none for `wgsl-no-subgroup` (GLSL always gets
/// the subgroup barrier that naga's `barrier()` needs). GLSL is parsed as
/// the stage `path`'s extension names where naga's front end reads it
/// (`.vert`, `.frag`), else as a compute shader; one without `main` is
/// taken as a library (an empty compute entry point is appended). naga's report names `path`, and points at the
/// file's own lines and columns.
///
/// This runs naga directly: on untrusted input use
/// [`crate::check::check_bytes`], which bounds the input first and catches
/// naga's panics.
pub fn check_source(target: Target, path: &str, text: &str) -> Result<(), SourceError> {
    let library = target.language() == Language::Glsl && !defines_main(text);
    let mut source = Parsed::new(target, text, library, Author::Elsewhere);
    // A shader of a stage naga's GLSL front end reads, by its file's
    // extension as glslang names stages; the others (and libraries) as
    // compute, where naga refuses what glslang then judges.
    if target.language() == Language::Glsl && !library {
        source.stage = match glslang::glsl_stage(path).0 {
            "vert" => naga::ShaderStage::Vertex,
            "frag" => naga::ShaderStage::Fragment,
            _ => naga::ShaderStage::Compute,
        };
    }
    match source.check(path) {
        Ok(_) => Ok(()),
        Err(Failure { report, line }) => Err(SourceError {
            target,
            report,
            line,
        }),
    }
}

/// Whether glslang, the reference compiler, accepts a GLSL `text` that
/// naga's GLSL front end refused: naga reads a subset of the language (no
/// atomics on buffers, `local_size_x_id`, push constants, precision
/// qualifiers on parameters), and a text glslang takes is valid GLSL.
/// The stage is the path's extension, as glslang names stages; a text
/// without `main` is a library, given a version and an empty entry point
/// as naga is. False where glslang cannot run: naga's verdict stands.
pub fn glslang_accepts(path: &str, text: &str) -> bool {
    matches!(glslang_check(Target::Glsl, path, text), Some(Ok(())))
}

/// glslang's verdict on a GLSL `text`, where glslang runs (`None` where
/// it cannot: naga's verdict then stands): `Ok`, or glslang's errors as a
/// [`SourceError`] on `path`, rendered as naga renders its own, at the
/// line and token glslang names. GLSL is the language glslang defines, so
/// where naga's front end and glslang both refuse a text, glslang's words
/// are the ones that speak of the user's mistake rather than of what naga
/// cannot read. Stage and library handling as [`glslang_accepts`].
pub(crate) fn glslang_check(
    target: Target,
    path: &str,
    text: &str,
) -> Option<Result<(), SourceError>> {
    if !glslang::runs() {
        return None;
    }
    let (given, stage, shift) = if defines_main(text) {
        (text.to_string(), glslang::glsl_stage(path).0, 0)
    } else {
        let version = if text.lines().any(|l| l.trim_start().starts_with("#version")) {
            ""
        } else {
            GLSL_LIBRARY_VERSION
        };
        (
            format!("{version}{text}{GLSL_LIBRARY_ENTRY}"),
            "comp",
            version.len(),
        )
    };
    let Err(mut diagnostic) = glslang::compile(&given, stage, glslang::GlslApi::default()) else {
        return Some(Ok(()));
    };
    // GLSL for OpenGL is GLSL too (the `glsl` target is Vulkan's or
    // OpenGL's): a text refused by Vulkan's rules (a uniform outside a
    // block, a sampler without a binding) is written for OpenGL, and
    // OpenGL's glslang judges it.
    if glslang::vulkan_rule(&diagnostic.message) {
        match glslang::compile(&given, stage, glslang::GlslApi::OpenGl) {
            Ok(_) => return Some(Ok(())),
            Err(opengl) => diagnostic = opengl,
        }
    }
    // Back onto the user's text: past the version line ballot added, and
    // not in the entry point it appended.
    diagnostic.labels = diagnostic
        .labels
        .into_iter()
        .filter_map(|(range, label)| {
            let range = range.start.checked_sub(shift)?..range.end.checked_sub(shift)?;
            (range.end <= text.len()).then_some((range, label))
        })
        .collect();
    Some(Err(render(target, path, text, &diagnostic)))
}

/// `diagnostic` on `text` as a [`SourceError`], in codespan's layout, as
/// naga renders its reports.
fn render(target: Target, path: &str, text: &str, diagnostic: &super::Diagnostic) -> SourceError {
    use codespan_reporting::diagnostic::{Diagnostic, Label};
    use codespan_reporting::files::SimpleFile;
    use codespan_reporting::term::{emit_into_string, Config};

    let report = Diagnostic::error()
        .with_message(diagnostic.message.clone())
        .with_labels(
            diagnostic
                .labels
                .iter()
                .map(|(range, label)| Label::primary((), range.clone()).with_message(label))
                .collect(),
        )
        .with_notes(diagnostic.notes.clone());
    let files = SimpleFile::new(path, text);
    let report = emit_into_string(&Config::default(), &files, &report)
        .unwrap_or_else(|_| format!("error: {}", diagnostic.message));
    let line = diagnostic.labels.first().map(|(range, _)| {
        let line = 1 + text.as_bytes()[..range.start]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        u32::try_from(line).unwrap_or(u32::MAX)
    });
    SourceError {
        target,
        report,
        line,
    }
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
