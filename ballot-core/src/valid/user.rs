//! Users' shader text: naga's verdict on a module a user wrote, and
//! glslang's on GLSL that naga's front end refuses.

use super::{glslang, Author, Failure, Parsed, GLSL_LIBRARY_ENTRY, GLSL_LIBRARY_VERSION};
use crate::back::{Language, Target};

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
/// the subgroup barrier that naga's `barrier()` needs). GLSL is parsed as a
/// compute shader; one without `main` is taken as a library (an empty
/// entry point is appended). naga's report names `path`, and points at the
/// file's own lines and columns.
///
/// This runs naga directly: on untrusted input use
/// [`crate::check::check_bytes`], which bounds the input first and catches
/// naga's panics.
pub fn check_source(target: Target, path: &str, text: &str) -> Result<(), SourceError> {
    let library = target.language() == Language::Glsl && !defines_main(text);
    let source = Parsed::new(target, text, library, Author::Elsewhere);
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
    if defines_main(text) {
        return glslang::compile(text, glslang::glsl_stage(path).0).is_ok();
    }
    let version = if text.lines().any(|l| l.trim_start().starts_with("#version")) {
        ""
    } else {
        GLSL_LIBRARY_VERSION
    };
    glslang::compile(&format!("{version}{text}{GLSL_LIBRARY_ENTRY}"), "comp").is_ok()
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
