//! Validation of shader text with naga, per target, following
//! docs/design.md's table; and, for tests and runners, glslang and
//! spirv-val.
//!
//! naga parses every text as it is written: lines may be added where naga
//! needs them, and what naga cannot parse may read as blank space, but no
//! other character of the text is changed, and reports point at the
//! text's own lines and columns.
//!
//! | target | what naga parses |
//! |---|---|
//! | `wgsl` | the text, with `Capabilities::SUBGROUP` |
//! | `wgsl-web` | the text after its leading directives (naga rejects `enable subgroups;`), where the directives read as blank space, with `wgsl`'s capabilities |
//! | `wgsl-no-subgroup` | the text, with `Capabilities::empty()` |
//! | `glsl-no-subgroup` | the text; `barrier()` needs `SUBGROUP \| SUBGROUP_BARRIER` |
//! | `glsl` | the text with stand-ins for the extensions' names (`back::glsl::standins`): on a line of its own after the `#version` line |
//!
//! A GLSL helper library also gets an empty entry point after it, and a
//! `#version 450` line before it where it has none. In any GLSL text,
//! `GL_EXT_maximal_reconvergence`'s `[[maximally_reconverges]]` reads as
//! blank space: naga's glsl-in parses no attributes, and the attribute
//! changes only how SPIR-V runs, not what is valid (its `#extension` line
//! naga takes as it is).
//!
//! What ballot writes itself needs none of that: the writers' validation
//! mode (`back::Mode::Validation`) declares the stand-ins on a line of the
//! text and writes the attribute as blank space, and a kernel's
//! `wgsl-web` text is its `wgsl` text after the
//! directives, whose verdict it takes. The expansion validates that text
//! (`validate_printed`), and a compute shader together with its library
//! (`validate_with_library`).
//!
//! One idea per file: this module reads a text with naga as the table
//! says; `user` gives the verdict on a user's text (`check_source`, and
//! glslang's where naga's GLSL front end refuses it); `library` whether a
//! compute shader's verdict is its library's; `tools` runs the external
//! programs (glslang, spirv-val); the `glslang` module runs glslang for
//! the linker and `ballot check`, bounded.

use std::ops::Range;

use naga::valid::{Capabilities, ModuleInfo, ValidationFlags, Validator};

use ballot_shader::back::glsl::standins;
use ballot_shader::back::{Form, Language, Target};

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

/// Validates `text`, emitted for `target` in `form`, with naga (see the
/// table above).
pub fn validate(target: Target, form: Form, text: &str) -> Result<(), ValidationError> {
    validate_written(target, form, text, Author::Elsewhere)
}

/// [`validate`] for a text written in the validation mode
/// ([`ballot_shader::back::Mode::Validation`]) for `target` (not `wgsl-web`, whose
/// text is its `wgsl` one): naga parses it as it is (a GLSL library with
/// its `#version` line and entry point).
pub fn validate_printed(target: Target, form: Form, text: &str) -> Result<(), ValidationError> {
    validate_written(target, form, text, Author::Printed)
}

/// [`validate`] for a text that `written` wrote.
fn validate_written(
    target: Target,
    form: Form,
    text: &str,
    written: Author,
) -> Result<(), ValidationError> {
    let library = form == Form::Helpers;
    let source = Parsed::new(target, text, library, written);
    source
        .check(target.language().extension())
        .map(drop)
        .map_err(|failure| failure.error(target, form, text))
}

/// The capabilities naga validates `target`'s text with (see the table
/// above). `wgsl-web` has `wgsl`'s: a kernel's `wgsl-web` text takes the
/// verdict of its `wgsl` text.
pub fn capabilities(target: Target) -> Capabilities {
    match target {
        Target::Wgsl | Target::WgslWeb => Capabilities::SUBGROUP,
        Target::WgslNoSubgroup => Capabilities::empty(),
        Target::Glsl | Target::GlslNoSubgroup => GLSL_CAPABILITIES,
    }
}

/// The capabilities naga validates a module that ballot's writers did not
/// print with (a user's shader, linked or not): every capability naga
/// knows, less the subgroup ones on `wgsl-no-subgroup`. A target says
/// whether subgroups exist; f16, f64, 64-bit integers, push constants,
/// immediates, binding arrays and the rest are the device's to offer, and
/// a shader that asks for one the device lacks is refused when its
/// pipeline is made, as without ballot.
pub fn user_capabilities(target: Target) -> Capabilities {
    let subgroups = Capabilities::SUBGROUP
        | Capabilities::SUBGROUP_BARRIER
        | Capabilities::SUBGROUP_VERTEX_STAGE;
    match target {
        Target::WgslNoSubgroup => Capabilities::all() - subgroups,
        // naga's glsl-in needs the subgroup barrier for `barrier()`
        // (GLSL_CAPABILITIES); glslang judges GLSL in the linker.
        Target::Wgsl | Target::WgslWeb | Target::Glsl | Target::GlslNoSubgroup => {
            Capabilities::all()
        }
    }
}

/// naga's glsl-in lowers `barrier()` to a barrier that includes the
/// subgroup, which needs these capabilities to validate.
const GLSL_CAPABILITIES: Capabilities =
    Capabilities::SUBGROUP.union(Capabilities::SUBGROUP_BARRIER);

/// Who wrote a text: what naga needs added to it differs.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Author {
    /// A shader writer, in its validation mode: stand-ins included.
    Printed,
    /// Anyone: ballot's output, a user's file.
    Elsewhere,
}

/// The line put before a GLSL helper library: naga and glslang need a
/// version.
const GLSL_LIBRARY_VERSION: &str = "#version 450\n";

/// The lines put after a GLSL helper library: an empty entry point, which
/// naga's glsl-in needs.
const GLSL_LIBRARY_ENTRY: &str = "\nlayout(local_size_x = 1) in;\nvoid main() {}\n";

/// A text as naga parses it: in `source`, the text with lines added.
struct Parsed<'a> {
    target: Target,
    /// The text, as reports quote it.
    text: &'a str,
    /// What naga parses.
    source: String,
    /// The lines added to the text (GLSL only): where each goes in the
    /// text, and its length, in order.
    added: Vec<(usize, usize)>,
    /// What naga validates the module with.
    capabilities: Capabilities,
    /// GLSL: the stage naga's front end reads the text as (compute unless
    /// a user's file names another).
    stage: naga::ShaderStage,
    /// Whether naga's rules of its own that WGSL and browsers lack are
    /// relaxed ([`Parsed::validate`]): for a text that browsers run
    /// (`wgsl-web`), and where the linker reads a text's types.
    browser: bool,
}

/// naga's report on a text, and the line of the text it points at.
struct Failure {
    report: String,
    line: Option<u32>,
}

impl Failure {
    fn error(self, target: Target, form: Form, text: &str) -> ValidationError {
        let line_text = self
            .line
            .and_then(|l| text.lines().nth(l as usize - 1))
            .map(str::to_string);
        ValidationError {
            target,
            form,
            message: self.report,
            line: self.line,
            line_text,
        }
    }
}

impl<'a> Parsed<'a> {
    /// What naga parses for `text`, written for `target` (see the table
    /// above); `library`: a GLSL text without an entry point.
    fn new(target: Target, text: &'a str, library: bool, written: Author) -> Self {
        let mut additions: Vec<(usize, String)> = Vec::new();
        let mut source = None;
        match target {
            Target::Wgsl | Target::WgslNoSubgroup => {}
            Target::WgslWeb => {
                let read = after_directives(text);
                source = Some(without_statement_diagnostics(&read).unwrap_or(read));
            }
            Target::Glsl | Target::GlslNoSubgroup => {
                // The writers' validation mode blanks its own attribute.
                if written == Author::Elsewhere {
                    source = blank_attributes(text);
                }
                let stand_ins = (target == Target::Glsl && written == Author::Elsewhere)
                    .then(|| standins::declarations(|name| text.contains(name)))
                    .filter(|line| !line.is_empty());
                let version = version_line_end(text);
                let mut top = String::new();
                if library && version.is_none() {
                    top.push_str(GLSL_LIBRARY_VERSION);
                }
                match (stand_ins, version) {
                    (Some(line), Some(end)) => additions.push((end, format!("{line}\n"))),
                    (Some(line), None) => top.push_str(&format!("{line}\n")),
                    (None, _) => {}
                }
                if !top.is_empty() {
                    additions.insert(0, (0, top));
                }
                if library {
                    additions.push((text.len(), GLSL_LIBRARY_ENTRY.to_string()));
                }
            }
        }
        let mut added = Vec::new();
        if !additions.is_empty() {
            // Blanking keeps every offset, so the additions' still hold.
            let base = source.as_deref().unwrap_or(text);
            let mut with = String::with_capacity(text.len() + 1024);
            let mut from = 0;
            for (at, lines) in &additions {
                with.push_str(&base[from..*at]);
                with.push_str(lines);
                added.push((*at, lines.len()));
                from = *at;
            }
            with.push_str(&base[from..]);
            source = Some(with);
        }
        Parsed {
            target,
            text,
            source: source.unwrap_or_else(|| text.to_string()),
            added,
            capabilities: match written {
                Author::Elsewhere => user_capabilities(target),
                Author::Printed => capabilities(target),
            },
            stage: naga::ShaderStage::Compute,
            browser: target == Target::WgslWeb && written == Author::Elsewhere,
        }
    }

    /// naga's validation of `module`. Where [`Self::browser`] is set, a
    /// workgroup of more than one dimension does not keep
    /// `subgroup_invocation_id` and `subgroup_id` out of its entry point:
    /// naga 30 refuses them there (`valid/interface.rs`), where WGSL and
    /// the browsers take them. naga then judges a copy whose workgroup
    /// sizes are flattened into their first dimension, which changes no
    /// type and no other rule; the module itself keeps its sizes.
    // naga's own error type, passed on as naga's validator returns it.
    #[allow(clippy::result_large_err)]
    fn validate(
        &self,
        module: &naga::Module,
    ) -> Result<ModuleInfo, naga::WithSpan<naga::valid::ValidationError>> {
        let mut validator = Validator::new(ValidationFlags::all(), self.capabilities);
        let multi = |e: &naga::EntryPoint| e.workgroup_size[1..].iter().any(|&s| s > 1);
        if !self.browser || !module.entry_points.iter().any(multi) {
            return validator.validate(module);
        }
        let mut flat = module.clone();
        for entry in &mut flat.entry_points {
            let [x, y, z] = entry.workgroup_size;
            entry.workgroup_size = [x.saturating_mul(y).saturating_mul(z), 1, 1];
        }
        validator.validate(&flat)
    }

    /// naga's module and its analysis, or naga's report, rendered on the
    /// text (naming `path`), and its line.
    fn check(&self, path: &str) -> Result<(naga::Module, ModuleInfo), Failure> {
        let module = match self.target.language() {
            Language::Wgsl => naga::front::wgsl::parse_str(&self.source).map_err(|e| {
                // The source has the text's offsets: it is rendered on the
                // text itself.
                let line = e.location(self.text).map(|l| l.line_number);
                Failure {
                    report: e.emit_to_string_with_path(self.text, path),
                    line,
                }
            })?,
            Language::Glsl => {
                let options = naga::front::glsl::Options::from(self.stage);
                naga::front::glsl::Frontend::default()
                    .parse(&options, &self.source)
                    .map_err(|mut e| {
                        for error in &mut e.errors {
                            error.meta = self.to_text(error.meta);
                        }
                        let line = e.errors.first().map(|error| self.line(error.meta));
                        Failure {
                            report: e.emit_to_string_with_path(self.text, path),
                            line: line.flatten(),
                        }
                    })?
            }
        };
        let info = self.validate(&module).map_err(|e| {
            let spans: Vec<(naga::Span, String)> = e.spans().cloned().collect();
            let mut mapped = naga::WithSpan::new(e.into_inner());
            for (span, label) in spans {
                mapped = mapped.with_span(self.to_text(span), label);
            }
            // The innermost span: the expression rather than the
            // enclosing function.
            let line = mapped.spans().last().and_then(|(s, _)| self.line(*s));
            Failure {
                report: mapped.emit_to_string_with_path(self.text, path),
                line,
            }
        })?;
        Ok((module, info))
    }

    /// [`Self::check`] for the linker: naga's message and labels, with
    /// their spans as byte ranges of the text, rather than a rendered
    /// report; and the module even when only validation fails.
    fn diagnose(&self) -> Result<(naga::Module, ModuleInfo), Rejected> {
        let range = |span: naga::Span| self.to_text(span).to_range();
        let module = match self.target.language() {
            Language::Wgsl => naga::front::wgsl::parse_str(&self.source).map_err(|e| {
                let labels = e
                    .labels()
                    .filter_map(|(span, label)| Some((range(span)?, label.to_string())))
                    .collect();
                let message = e.message().to_string();
                let notes = e.notes().map(str::to_string).collect();
                Box::new((
                    None,
                    Diagnostic {
                        message,
                        labels,
                        notes,
                    },
                ))
            })?,
            Language::Glsl => {
                let options = naga::front::glsl::Options::from(naga::ShaderStage::Compute);
                naga::front::glsl::Frontend::default()
                    .parse(&options, &self.source)
                    .map_err(|e| {
                        let first = e.errors.first();
                        let message = first.map_or_else(String::new, |e| e.kind.to_string());
                        let labels = first
                            .and_then(|e| range(e.meta))
                            .map(|r| (r, String::new()))
                            .into_iter()
                            .collect();
                        let notes = Vec::new();
                        Box::new((
                            None,
                            Diagnostic {
                                message,
                                labels,
                                notes,
                            },
                        ))
                    })?
            }
        };
        match self.validate(&module) {
            Ok(info) => Ok((module, info)),
            Err(e) => {
                let labels = e
                    .spans()
                    .filter_map(|(span, label)| Some((range(*span)?, label.clone())))
                    .collect();
                let mut message = e.as_inner().to_string();
                let mut source = std::error::Error::source(e.as_inner());
                while let Some(cause) = source {
                    message.push_str(": ");
                    message.push_str(&cause.to_string());
                    source = cause.source();
                }
                let mut notes = Vec::new();
                if multi_dimensional_subgroup_builtin(e.as_inner()) {
                    notes.push(
                        "a rule of naga's own, and so of wgpu's: WGSL and the browsers take \
                         these built-ins in a workgroup of any shape; link for `wgsl-web` for \
                         a browser, or for `wgsl-no-subgroup`, whose emulation replaces them"
                            .to_string(),
                    );
                }
                Err(Box::new((
                    Some(module),
                    Diagnostic {
                        message,
                        labels,
                        notes,
                    },
                )))
            }
        }
    }

    /// `span` of the source as a span of the text: undefined where it
    /// starts in an added line, cut short where it runs into one.
    fn to_text(&self, span: naga::Span) -> naga::Span {
        let Some(range) = span.to_range() else {
            return span;
        };
        let start = self.offset(range.start);
        let end = self.offset(range.end.saturating_sub(1)).map(|e| e + 1);
        match (start, end) {
            (Some(start), Some(end)) if end > start => naga::Span::new(start as u32, end as u32),
            (Some(start), _) => {
                let end = (start + 1).min(self.text.len()).max(start);
                naga::Span::new(start as u32, end as u32)
            }
            (None, _) => naga::Span::UNDEFINED,
        }
    }

    /// The offset in the text of `offset` in the source, or `None` in an
    /// added line.
    fn offset(&self, offset: usize) -> Option<usize> {
        let mut shift = 0;
        for &(at, len) in &self.added {
            let start = at + shift;
            if offset < start {
                break;
            }
            if offset < start + len {
                return None;
            }
            shift += len;
        }
        Some(offset - shift)
    }

    /// The 1-based line of the text where a span of the text starts.
    fn line(&self, span: naga::Span) -> Option<u32> {
        span.to_range()
            .filter(|r| r.start <= self.text.len())
            .map(|_| span.location(self.text).line_number)
    }
}

/// naga's verdict on a text, for a caller that renders it on another
/// text (the linker, on the user's file): the message with its causes, the
/// labelled byte ranges of the text it points at, outermost first, and
/// naga's notes (the WGSL front end's; the others have none).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Diagnostic {
    pub message: String,
    pub labels: Vec<(Range<usize>, String)>,
    pub notes: Vec<String>,
}

/// naga's rejection of a text: the module where only validation failed,
/// and the diagnostic. Boxed: a module is large.
pub(crate) type Rejected = Box<(Option<naga::Module>, Diagnostic)>;

/// Parses and validates a whole module of `target` (as [`check_source`]
/// does), keeping naga's spans. On a validation error the module comes
/// back too: the linker reads its entry points either way.
pub(crate) fn diagnose(target: Target, text: &str) -> Result<(naga::Module, ModuleInfo), Rejected> {
    Parsed::new(target, text, false, Author::Elsewhere).diagnose()
}

/// Whether naga refused `subgroup_invocation_id` or `subgroup_id` in a
/// workgroup of more than one dimension ([`Parsed::validate`]).
fn multi_dimensional_subgroup_builtin(error: &naga::valid::ValidationError) -> bool {
    use naga::valid::{EntryPointError, ValidationError, VaryingError};
    matches!(
        error,
        ValidationError::EntryPoint {
            source: EntryPointError::Argument(
                _,
                VaryingError::InvalidMultiDimensionalSubgroupBuiltIn
            ),
            ..
        }
    )
}

/// [`diagnose`] of a WGSL text the linker reads types from (the shader
/// linked for hardware subgroups): `wgsl`'s rules, less those of naga's
/// own that WGSL lacks ([`Parsed::validate`]), as the types are the same
/// either way.
pub(crate) fn read_types(text: &str) -> Result<(naga::Module, ModuleInfo), Rejected> {
    let mut parsed = Parsed::new(Target::Wgsl, text, false, Author::Elsewhere);
    parsed.browser = true;
    parsed.diagnose()
}

/// Where the `#version` line of a GLSL text ends (after its line break),
/// if it has one: stand-ins go after it, as nothing may precede it.
fn version_line_end(text: &str) -> Option<usize> {
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        if line.trim_start().starts_with("#version") {
            return Some(at + line.len());
        }
        at += line.len();
    }
    None
}

/// A GLSL text as naga parses it, where it has `GL_EXT_maximal_reconvergence`'s
/// entry-point attribute (`[[maximally_reconverges]]`, with any spaces
/// inside the brackets), which naga's glsl-in does not parse: a copy with
/// the attribute as blank space, line breaks kept, so that naga reads
/// every other character at its own offset, line and column. `None` where
/// there is none. The `#extension` line needs nothing: naga takes any.
fn blank_attributes(text: &str) -> Option<String> {
    let mut blanked: Option<String> = None;
    let mut from = 0;
    while let Some(found) = text[from..].find("[[") {
        let start = from + found;
        let attribute = text[start + 2..]
            .trim_start()
            .strip_prefix(MAXIMALLY_RECONVERGES_NAME)
            .map(str::trim_start)
            .and_then(|rest| rest.strip_prefix("]]"));
        let Some(rest) = attribute else {
            from = start + 2;
            continue;
        };
        let end = text.len() - rest.len();
        let copy = blanked.get_or_insert_with(|| text.to_string());
        copy.replace_range(start..end, &blank(&text[start..end]));
        from = end;
    }
    blanked
}

/// The attribute's name inside its brackets.
const MAXIMALLY_RECONVERGES_NAME: &str = "maximally_reconverges";

/// A `wgsl-web` text as naga parses it: its leading `requires` and
/// `diagnostic` directives, and `subgroups` in its `enable` lists (naga
/// has not implemented that extension), as blank space, so that naga reads
/// the rest, the `wgsl` text, at its own offsets, lines and columns. Other
/// enables stay (`f16`: naga needs it as the browser does). Blank space
/// and comments (line comments, whatever they hold, and block comments,
/// which nest in WGSL) may come before, between and after the directives,
/// and stay as written; the first token that starts no directive ends
/// them, as does a directive with a comment inside it.
fn after_directives(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    loop {
        let code = past_blank_and_comments(text, at);
        out.push_str(&text[at..code]);
        at = code;
        let rest = &text[at..];
        let word = &rest[..rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(rest.len())];
        if !matches!(word, "enable" | "requires" | "diagnostic") {
            break;
        }
        let Some(semicolon) = rest.find(';') else {
            break;
        };
        let directive = &rest[..=semicolon];
        if directive.contains("//") || directive.contains("/*") {
            break;
        }
        if word == "enable" {
            out.push_str(&without_subgroups(directive));
        } else {
            out.push_str(&blank(directive));
        }
        at += directive.len();
    }
    out + &text[at..]
}

/// `text`, a WGSL text, with each `@diagnostic(…)` attribute inside a
/// function's body (on a statement: WGSL, section 2.3) as blank space,
/// every offset kept; `None` where it has none. naga 30 reads the
/// attribute on a function and as a directive, not on a statement, where
/// browsers take it (gridwise's kernels turn `subgroup_uniformity` off
/// around their subgroup calls). Comments are passed over.
pub(crate) fn without_statement_diagnostics(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    let (mut at, mut depth) = (0, 0usize);
    while at < bytes.len() {
        let next = past_blank_and_comments(text, at);
        if next > at {
            at = next;
            continue;
        }
        match bytes[at] {
            b'{' => depth += 1,
            b'}' => depth = depth.saturating_sub(1),
            b'@' if depth > 0 => {
                let name = past_blank_and_comments(text, at + 1);
                let named = text[name..].starts_with("diagnostic")
                    && !text[name + "diagnostic".len()..]
                        .starts_with(|c: char| c.is_alphanumeric() || c == '_');
                let open = past_blank_and_comments(text, name + "diagnostic".len());
                if named && bytes.get(open) == Some(&b'(') {
                    // Its arguments hold no parenthesis (a severity and a
                    // rule name): the first `)` closes it.
                    if let Some(close) = text[open..].find(')') {
                        spans.push(at..open + close + 1);
                        at = open + close + 1;
                        continue;
                    }
                }
            }
            _ => {}
        }
        at += 1;
    }
    if spans.is_empty() {
        return None;
    }
    let mut out = text.to_string();
    for span in spans {
        let spaces = blank(&text[span.clone()]);
        out.replace_range(span, &spaces);
    }
    Some(out)
}

/// `part` as blank space of its length in bytes, its line breaks kept: a
/// text naga reads at the original's offsets, lines and columns.
fn blank(part: &str) -> String {
    part.chars()
        .map(|c| match c {
            '\n' => "\n".to_string(),
            c => " ".repeat(c.len_utf8()),
        })
        .collect()
}

/// The offset in `text` of the first byte from `at` that is neither blank
/// space nor inside a comment (WGSL, section 3.2: block comments nest);
/// the text's end where a block comment is never closed.
fn past_blank_and_comments(text: &str, mut at: usize) -> usize {
    let bytes = text.as_bytes();
    while at < bytes.len() {
        if bytes[at].is_ascii_whitespace() {
            at += 1;
        } else if bytes[at..].starts_with(b"//") {
            at = text[at..]
                .find(['\n', '\r'])
                .map_or(bytes.len(), |end| at + end);
        } else if bytes[at..].starts_with(b"/*") {
            let mut depth = 0usize;
            while at < bytes.len() {
                if bytes[at..].starts_with(b"/*") {
                    depth += 1;
                    at += 2;
                } else if bytes[at..].starts_with(b"*/") {
                    depth -= 1;
                    at += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    at += 1;
                }
            }
        } else {
            break;
        }
    }
    at.min(bytes.len())
}

/// An `enable` line with each `subgroups` in its list, and the comma
/// after it, as blank space; the whole line where nothing else is enabled.
/// A list may end in a comma (WGSL, section 4.1.1), so what is left parses.
fn without_subgroups(line: &str) -> String {
    let list = line
        .trim()
        .trim_start_matches("enable")
        .trim_end_matches(';');
    if list
        .split(',')
        .all(|n| matches!(n.trim(), "" | "subgroups"))
    {
        return blank(line);
    }
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(i) = rest.find("subgroups") {
        let (before, after) = rest.split_at(i);
        let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
        let after_word = &after["subgroups".len()..];
        if word(before.chars().next_back()) || word(after_word.chars().next()) {
            out.push_str(&rest[..i + "subgroups".len()]);
            rest = after_word;
            continue;
        }
        out.push_str(before);
        let spaces = after_word.len() - after_word.trim_start().len();
        let take = "subgroups".len()
            + if after_word[spaces..].starts_with(',') {
                spaces + 1
            } else {
                0
            };
        out.push_str(&blank(&after[..take]));
        rest = &after[take..];
    }
    out.push_str(rest);
    out
}

mod library;
mod tools;
mod user;

pub use library::validate_with_library;
pub use tools::{glslang, glslang_spirv, ToolError};
pub(crate) use user::glslang_check;
pub use user::{check_source, glslang_accepts, SourceError};

pub(crate) mod glslang;
pub use glslang::{GlslApi, VulkanVersion};
#[cfg(test)]
mod tests;
