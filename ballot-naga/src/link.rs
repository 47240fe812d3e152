//! The linker: a hand-written shader that calls the subgroup ballot
//! functions by their spec names, with only the helpers it uses linked in,
//! for any target, and judged by its language's validator: naga for
//! WGSL, glslang for GLSL.
//!
//! # What a shader may call
//! The source is written once, for the hardware target of its language,
//! and [`link`] makes it run on every target of that language:
//!
//! | language | names |
//! |---|---|
//! | WGSL | WGSL's own `subgroupBallot`, `subgroupBroadcast`, `subgroupBroadcastFirst`, and the rest of WGSL's `subgroups`: `subgroupAll`, `subgroupAny`, `subgroupAdd` … `subgroupXor`, `subgroupInclusiveAdd`, `subgroupExclusiveMul`, `subgroupShuffle`, `subgroupShuffleXor`, `subgroupShuffleUp`, `subgroupShuffleDown`, `quadBroadcast`, `quadSwapX`, `quadSwapY`, `quadSwapDiagonal`; the GLSL names of the ballot functions WGSL lacks: `subgroupBallotBitCount`, `subgroupBallotFindMSB`, `subgroupInverseBallot`, `subgroupElect()`, and the masks as functions, `subgroupEqMask()` … `subgroupLtMask()` |
//! | GLSL | `GL_KHR_shader_subgroup_ballot`'s functions and built-ins (`subgroupBallotBitCount`, `gl_SubgroupEqMask`, `gl_SubgroupInvocationID`, `gl_SubgroupSize`, …), and the functions of `_vote`, `_arithmetic`, `_clustered`, `_shuffle`, `_shuffle_relative` and `_quad` |
//!
//! naga's `subgroupBallot()`, without its predicate, is the ballot of
//! `true` on the targets naga reads (`wgsl`, `wgsl-no-subgroup`); on
//! `wgsl-web`, whose Tint wants the predicate, it is an error saying so.
//!
//! A name that starts like a ballot function (`subgroupBallot…`,
//! `subgroupInverseBallot…`) but is none of them is an error at its
//! token, unless the shader defines it itself; a function (GLSL: or a
//! macro) the shader defines under one of the names above is the
//! shader's, and is left alone. Names in comments, and members
//! (`x.subgroupBallotBitCount`), are no calls. In GLSL, calls in a
//! `#define`'s body are linked like any other (on the emulated target,
//! but the collectives: see below); names in other `#` lines are not
//! read.
//!
//! # What linking does
//! - Each call of a function the target lacks is renamed to a linked
//!   function, and only those functions are linked in, with the helpers
//!   they need ([`ballot_shader::lower::helpers`], the texts the kernel writers and
//!   the polyfill libraries use).
//! - Every linked name starts with `ballot_`; where the shader has names
//!   of its own that start so, the linker's take another prefix
//!   (`ballot1_`, …), so names never clash.
//! - The linked functions go after the GLSL `#version` line, and before
//!   the first WGSL declaration (after the directives): never at the end,
//!   so that a shader cut short is an error in its own text.
//! - The linked functions keep per-invocation state: every `@compute`
//!   entry point (GLSL: `main`) calls the init function first. A shader
//!   that calls a ballot function (or reads a subgroup built-in) but has
//!   no entry point is an error on every target, the hardware ones too:
//!   nothing would call the init function, and the linked functions would
//!   give wrong values once the text is pasted into a shader. On `wgsl`
//!   and `wgsl-web` it reads `@builtin(subgroup_invocation_id)` and
//!   `@builtin(subgroup_size)`, taken from the entry point's parameters or
//!   added to them.
//! - `wgsl-web` gets `enable subgroups;` and
//!   `diagnostic(off, subgroup_uniformity);` (the helpers branch on lane
//!   values before calling `subgroupBroadcastFirst`) unless the shader has
//!   them (a filter of its own severity stays the only one; `error` is
//!   refused, as it would fail the helpers); `wgsl` and
//!   `wgsl-no-subgroup`, which naga reads, lose `enable subgroups;` (or
//!   `subgroups` from a list, `enable f16, subgroups;`).
//! - On `wgsl` naga refuses `@builtin(subgroup_invocation_id)` and
//!   `subgroup_id` in a workgroup of more than one dimension, a rule of its
//!   own: where the shader takes one, the error is on the entry point's
//!   name, with a note naming `wgsl-web` and `wgsl-no-subgroup`, which take
//!   it; where only the init function would read it, the init ranks the
//!   lanes instead. `wgsl-web` reads the built-in, as browsers take it.
//!
//! # Emulated targets
//! On `wgsl-no-subgroup` and `glsl-no-subgroup` a workgroup holds virtual
//! subgroups of [`LinkOptions::subgroup_size`] invocations, exchanged
//! through workgroup memory (see [`crate::polyfill`]).
//! - The exchange arrays are sized from the entry points' workgroup size,
//!   as the validator evaluates it, so they always fit: a shader whose workgroup size
//!   is pipeline-overridable, or whose entry points disagree, is refused.
//! - `subgroupBallot`, `subgroupElect`, the broadcasts and every function
//!   of the rest of the family meet at barriers there, which every
//!   invocation of the workgroup must reach: the functions that reach one
//!   (entry points and the shader's own) are if-converted
//!   (the crate's `reconverge` pass, through module `converge`). Every invocation makes
//!   every exchange, with its activity as the first argument; early
//!   `return`, `break`, `continue`, `switch`, per-invocation trip counts
//!   and calls keep their meaning, and stores, atomics and texture writes
//!   happen only where the invocation is active. The result is the one
//!   hardware subgroups of the virtual size give under maximal
//!   reconvergence. What the pass cannot convert is an error at the
//!   user's token: an exchange in the right operand of `&&`/`||` or an
//!   arm of `?:`, a GLSL `case` falling through into statements, a fragment or vertex
//!   entry point that reaches an exchange, a WGSL `let`/`var` without a
//!   type whose initialiser has side effects where not every invocation
//!   runs it, where naga gives its type no name a declaration may spell
//!   (the result of `atomicCompareExchangeWeak`; other types come from
//!   naga's reading of the shader linked for `wgsl`), a GLSL broadcast inside a guarded statement whose value's
//!   type it cannot tell, and a collective in a GLSL `#define`'s body
//!   (the pass sees the macro's call, not the collective, and the linker
//!   does not expand macros), but for a macro that only renames one
//!   (`#define shfl(v, m) subgroupShuffleXor(v, m)`: its parameters, in
//!   order, each once, as the call's arguments), whose calls are linked as
//!   the collective's, and whose definition goes. A function whose body the pass cannot read (a
//!   macro used as a statement) is left as written where it reaches no
//!   collective, and refused where it does; a GLSL macro that stands for
//!   an attribute or for nothing (`#define UNROLL [[unroll]]`) before a
//!   statement is read as the attribute is. Comments inside a converted function are not
//!   kept; its preprocessor lines (`#pragma unroll`, a `#define`) are, as
//!   written, each on its own line, in their order among the statements. A collective's arguments are evaluated in every invocation.
//! - `@builtin(subgroup_invocation_id)` and `@builtin(subgroup_size)`
//!   parameters become values from the emulation (GLSL:
//!   `gl_SubgroupInvocationID`, `gl_SubgroupSize`), in a shader that calls
//!   no ballot function too; the entry point gets
//!   `@builtin(local_invocation_index)` if it lacks it.
//! - The calls generic in their value (broadcasts, arithmetic, shuffles,
//!   quads; GLSL also `subgroupAllEqual`) take 32-bit scalars and their
//!   vectors: in WGSL `u32`, `i32`, `f32` and `f16` (arithmetic: not
//!   `f16`), one linked function per operation and type, which naga's
//!   reading of the shader linked for `wgsl` picks (module `types`); in
//!   GLSL `uint`, `int`, `float` and `bool`, as overloads (`types`'
//!   `glsl_overloads`; the arithmetic, clustered too, only those the
//!   extension gives it); GLSL's moves (all but the arithmetic) also take
//!   `double`, `float16_t` and the 8-, 16- and 64-bit integers and their
//!   vectors, through those (`glsl_wide_overloads`). Another type (WGSL's
//!   `f64` or `u64`, GLSL arithmetic on `double`) is refused at the call. The lane of a broadcast, shuffle
//!   or quad broadcast may be an `i32` in WGSL: it is converted to `u32`
//!   at the call on every WGSL target, as naga takes only a `u32`.
//! - `subgroupBarrier()` becomes a workgroup barrier that every
//!   invocation reaches (an exchange of no value, if-converted like the
//!   others), and GLSL's `subgroupMemoryBarrier*()` the language's
//!   `memoryBarrier*()`.
//! - GLSL's clustered reductions (`subgroupClusteredAdd` … `Xor`) are
//!   exchanges like the arithmetic, over the types it takes, each over
//!   one exchange (`ballot_clustered_reduce`, the helper kernels'
//!   `Op::Clustered` uses), with the cluster size as an operand. The size
//!   must be what GL_KHR_shader_subgroup_clustered allows, an integral
//!   constant expression, a power of two, at least 1: an integer literal
//!   is read by the linker, any other constant (a `const` name, a macro)
//!   as glslang folds it at the call; anything else, or a size neither
//!   gives, is an error at the size. A size over the virtual subgroup is
//!   undefined where the call runs, and reduces the whole subgroup there.
//!   On `glsl` the calls stay the extension's, under the shader's own
//!   `#extension` line, as the other families' do. The polyfill libraries
//!   leave them out ([`polyfill::covers`]): only the linker writes their
//!   functions.
//! - GLSL's partitioned and rotate operations have no emulation: each is
//!   refused at its call.
//!
//! # The validator
//! The linked text is judged once, by the validator of its language
//! (module `judge`):
//! - WGSL by naga, which also gives back the workgroup size.
//! - GLSL by glslang, the Khronos reference compiler, as Vulkan 1.1
//!   SPIR-V, or the version [`LinkOptions::vulkan`] names: `glslangValidator`, found as `BALLOT_GLSLANG` or on `PATH`.
//!   naga's GLSL front end reads a subset of the language (no atomics, no
//!   `local_size_x_id`, no `push_constant`, no precision qualifiers on
//!   parameters), so a Vulkan shader glslang accepts is never refused for
//!   naga's sake. The stage is the file's extension as glslang names
//!   stages (`.comp`, `.frag`, `.vert`, …); any other name is read as a
//!   compute shader. The workgroup size is read from the SPIR-V glslang
//!   writes, so macros and constants may spell it. Without glslang, a GLSL
//!   link is an error saying how to install it
//!   ([`LinkErrorKind::Invalid`], at no place). naga still proves the code
//!   ballot adds: every GLSL library passes naga and glslang in its tests.
//!
//! # From a build script
//! [`Build`] links files into `OUT_DIR`; `ballot link` does it from the
//! command line; `ballot::include_wgsl!` and `include_glsl!` when the
//! crate compiles.
//!
//! # Errors
//! A [`LinkError`] renders as a compiler diagnostic on the shader's own
//! file: path, line and column, the offending line, the validator's
//! message and notes. An error it finds inside linked code is reported as a bug
//! in ballot, with the linked text's line. A leading UTF-8 byte order mark
//! is dropped (the output has none), and lines end at `\r\n`, `\n` and a
//! lone `\r`, so that places are those an editor shows.
//! [`LinkErrorKind::Options`] is the caller's fault (an option no shader
//! takes, or a subgroup larger than the workgroup); every other kind is the
//! file's (a workgroup too large for the emulation is
//! [`LinkErrorKind::Unsupported`]).
//!
//! # Cost
//! The validator reads the linked text once; the linker's own work (the
//! lexer, the edits) is linear in the text. On the emulated targets a
//! workgroup size written in literals is read by the lexer and confirmed
//! by the validator; one it must evaluate (a constant, a macro) costs a
//! second pass. glslang runs as a process of its own, for at most
//! `ballot check`'s 60 s. `cargo bench -p ballot-bench --bench link` measures it.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::ops::Range;

use crate::check::{self, Limits, Problem};
use crate::polyfill;
use crate::reconverge;
use crate::valid::Diagnostic;
use ballot_ir::op::Op;
use ballot_shader::back::{
    Language, OptionError, ShaderOptions, Target, MAX_WORKGROUP_INVOCATIONS,
};
use ballot_shader::lower::helpers::{Helper, Needs};

mod build;
mod conditional;
mod converge;
mod glsl_types;
mod include;
mod judge;
mod lex;
mod macros;
mod map;
mod read;
mod types;
mod write;

use judge::Size;
use lex::*;
use map::*;
use read::*;
use write::*;

pub use crate::valid::{GlslApi, VulkanVersion};
pub use build::{Build, BuildError, Output};
pub use include::{IncludeDirs, Includes, NoIncludes, MAX_INCLUDE_DEPTH};

/// Options of [`link`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct LinkOptions {
    /// The virtual subgroup size of the emulated targets: a power of two
    /// from 1 to 128, at most the workgroup's invocation count. Default 32.
    pub subgroup_size: u32,
    /// GLSL's preprocessor macros, as glslang's `-D NAME[=VALUE]` defines
    /// them (an empty value defines the name as nothing; a name
    /// `NAME(a, b)` a function-like macro): written after
    /// the `#version` line of the linked text, so that it compiles as the
    /// build that passes them does, and read by the emulated target's
    /// resolution of conditionals. None by default; WGSL has no
    /// preprocessor, and refuses any.
    pub defines: Vec<(String, String)>,
    /// What a GLSL shader is compiled and judged for: a Vulkan version
    /// (glslang's `--target-env`), or OpenGL; the linked text needs the
    /// same. Vulkan 1.1, where subgroups begin, by default; a shader built
    /// for a later one, as ggml's are for 1.2 (where `subgroupBroadcast`'s
    /// lane may be dynamically uniform), names it, and one for an OpenGL
    /// driver (plain uniforms, samplers without bindings) names OpenGL.
    /// WGSL takes neither.
    pub api: GlslApi,
}

impl Default for LinkOptions {
    fn default() -> Self {
        Self {
            subgroup_size: 32,
            defines: Vec::new(),
            api: GlslApi::default(),
        }
    }
}

impl LinkOptions {
    /// The options with `subgroup_size` set.
    pub fn subgroup_size(mut self, subgroup_size: u32) -> Self {
        self.subgroup_size = subgroup_size;
        self
    }

    /// The options with `api` set to Vulkan at `vulkan`.
    pub fn vulkan(mut self, vulkan: VulkanVersion) -> Self {
        self.api = GlslApi::Vulkan(vulkan);
        self
    }

    /// The options with `api` set to OpenGL.
    pub fn opengl(mut self) -> Self {
        self.api = GlslApi::OpenGl;
        self
    }

    /// The options with one more define, as `-D name=value` (`value` may
    /// be empty).
    pub fn define(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.defines.push((name.into(), value.into()));
        self
    }

    /// Why a define cannot be one, naming it: a name that is no
    /// identifier, or one GLSL reserves (`GL_…`, `__…`), or a value of
    /// more than one line.
    pub fn define_error(&self, language: Language) -> Option<String> {
        let (name, _) = self.defines.first()?;
        if language == Language::Wgsl {
            return Some(format!(
                "invalid define `{name}`: WGSL has no preprocessor; defines are GLSL's"
            ));
        }
        self.defines.iter().find_map(|(name, value)| {
            let identifier = |n: &str| {
                n.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
                    && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            };
            // `NAME` or, as glslang's `-D` takes it, `NAME(a, b)`.
            let well_formed = match define_parameters(name) {
                Some((macro_name, params)) => {
                    identifier(macro_name)
                        && params.iter().all(|p| identifier(p))
                        && params.iter().enumerate().all(|(i, p)| !params[..i].contains(p))
                }
                None => identifier(name),
            };
            if !well_formed {
                Some(format!(
                    "invalid define `{name}`: a macro's name is an identifier, followed by its \
                     parameters for a function-like macro (`NAME(a, b)`)"
                ))
            } else if name.starts_with("GL_") || name.contains("__") {
                Some(format!(
                    "invalid define `{name}`: GLSL reserves names that start with `GL_` or hold `__`"
                ))
            } else if value.contains(['\n', '\r']) {
                Some(format!("invalid define `{name}`: its value is more than one line"))
            } else {
                None
            }
        })
    }

    /// Why the API does not fit `language`: WGSL takes none.
    pub fn api_error(&self, language: Language) -> Option<String> {
        (language == Language::Wgsl && self.api != GlslApi::default()).then(|| {
            format!(
                "`{}` is for GLSL, which glslang compiles for a Vulkan version or OpenGL: WGSL \
                 takes neither",
                match self.api {
                    GlslApi::Vulkan(_) => "vulkan",
                    GlslApi::OpenGl => "opengl",
                }
            )
        })
    }

    /// The defines as `#define` lines, each after a line break: a
    /// function-like one's parameters right after its name, as `#define`
    /// needs them.
    fn define_lines(&self) -> String {
        self.defines
            .iter()
            .map(|(name, value)| match value.as_str() {
                "" => format!("\n#define {}", define_head(name)),
                value => format!("\n#define {} {value}", define_head(name)),
            })
            .collect()
    }
}

/// A define's name as `#define` writes it: a function-like macro's
/// parameter list right after its name, without blanks.
fn define_head(name: &str) -> String {
    match define_parameters(name) {
        Some((macro_name, params)) => format!("{}({})", macro_name.trim(), params.join(", ")),
        None => name.to_string(),
    }
}

/// A define's name as a function-like macro's, `NAME(a, b)`: the name
/// and the parameters, trimmed; `None` where it has no parenthesis.
fn define_parameters(name: &str) -> Option<(&str, Vec<&str>)> {
    let (macro_name, rest) = name.split_once('(')?;
    let inside = rest.strip_suffix(')').unwrap_or("\u{0}");
    let params = match inside.trim() {
        "" => Vec::new(),
        list => list.split(',').map(str::trim).collect(),
    };
    Some((macro_name, params))
}

/// A linked shader.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Linked {
    /// The target it was linked for.
    pub target: Target,
    /// The shader, with the linked functions: valid for naga.
    pub text: String,
    /// The operations it calls that the target lacks: what was linked.
    pub ops: BTreeSet<Op>,
    /// The functions the linker added, by name.
    pub functions: Vec<String>,
    /// The workgroup size the emulation was sized for (emulated targets);
    /// `None` on the hardware targets, where the pipeline gives the size
    /// (GLSL's `local_size_x_id`, WGSL's `override`), which the emulation
    /// reads as the pipeline sets it, and where WGSL entry points have
    /// different sizes, each of which sets its own.
    pub workgroup_size: Option<[u32; 3]>,
    /// The files `#include` brought in (GLSL), by the paths the
    /// [`Includes`] gave: what a build depends on beside the shader.
    pub includes: Vec<String>,
}

/// What went wrong, by kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum LinkErrorKind {
    /// The file is not a text naga may be given (empty, too large, not
    /// UTF-8, nested too deep: see [`crate::check`]).
    Input,
    /// A name that looks like a ballot function but is none.
    UnknownFunction,
    /// Something the linker cannot link (a built-in it must read, in a
    /// struct; ballot calls and no entry point to initialise; an
    /// overridable workgroup, or one of more invocations than the
    /// emulation serves).
    Unsupported,
    /// The options' fault, not the file's: an option no shader takes, or
    /// a virtual subgroup larger than the shader's workgroup (the command
    /// line's usage error).
    Options,
    /// The validator (naga for WGSL, glslang for GLSL) rejects the
    /// shader, at a place in the user's file; or, for GLSL, glslang could
    /// not run.
    Invalid,
    /// The validator rejects code the linker wrote: a bug in ballot.
    Bug,
}

/// A linking failure, as a diagnostic on the shader's file: its `Display`
/// is the message, then the path, line and column, the line and a caret
/// under the place, as rustc draws them (a caller adds `error: `).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkError {
    /// What went wrong.
    pub kind: LinkErrorKind,
    /// The shader's path, as given to [`link`].
    pub path: String,
    /// The target being linked.
    pub target: Target,
    /// The message.
    pub message: String,
    /// Where, in the user's file, if anywhere. Boxed, as naga's notes
    /// are: an error returned by value stays small.
    pub location: Option<Box<Location>>,
    /// naga's notes on the error (why it gave up: "Parser recursion limit
    /// exceeded"), each drawn as `= note:` under the place.
    pub notes: Box<[String]>,
}

/// A place in a shader file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    /// 1-based line.
    pub line: u32,
    /// 1-based column, in characters.
    pub column: u32,
    /// How many characters the error spans on that line (at least 1).
    pub length: u32,
    /// The line's text.
    pub line_text: String,
    /// What the validator says of that place, if anything.
    pub label: String,
}

impl std::error::Error for LinkError {}

impl fmt::Display for LinkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let target = self.target;
        match self.kind {
            LinkErrorKind::Bug => writeln!(
                f,
                "{} rejects what ballot linked for target `{target}` (a bug in ballot): {}",
                judge::validator(target.language()),
                self.message
            )?,
            _ => writeln!(f, "{} (target `{target}`)", self.message)?,
        }
        let pad = match &self.location {
            None => {
                write!(f, "  --> {}", self.path)?;
                " ".to_string()
            }
            Some(at) => {
                let number = at.line.to_string();
                let pad = " ".repeat(number.len());
                writeln!(f, "{pad}--> {}:{}:{}", self.path, at.line, at.column)?;
                writeln!(f, "{pad} |")?;
                writeln!(f, "{number} | {}", at.line_text)?;
                let indent: String = at
                    .line_text
                    .chars()
                    .take(at.column as usize - 1)
                    .map(|c| if c == '\t' { '\t' } else { ' ' })
                    .collect();
                let carets = "^".repeat(at.length.max(1) as usize);
                if at.label.is_empty() {
                    write!(f, "{pad} | {indent}{carets}")?;
                } else {
                    write!(f, "{pad} | {indent}{carets} {}", at.label)?;
                }
                pad
            }
        };
        for note in &self.notes {
            write!(f, "\n{pad} = note: {note}")?;
        }
        Ok(())
    }
}

/// Links `source`, the shader at `path` (used in messages), for `target`.
/// See the module docs.
pub fn link(
    source: &str,
    path: &str,
    target: Target,
    options: &LinkOptions,
) -> Result<Linked, LinkError> {
    link_with(source, path, target, options, &NoIncludes)
}

/// [`link`], with GLSL's `#include`s found by `includes` (see
/// [`IncludeDirs`]) and expanded first: each included file's lines in
/// place of its directive, the ballot calls in them linked too, and an
/// error in one of them on that file's line, its [`LinkError::path`]
/// that file's, with a note naming the line that included it.
pub fn link_with(
    source: &str,
    path: &str,
    target: Target,
    options: &LinkOptions,
    includes: &dyn Includes,
) -> Result<Linked, LinkError> {
    let source = source.strip_prefix('\u{feff}').unwrap_or(source);
    // The emulation leaves no subgroup operation whose uniformity a
    // statement's `@diagnostic` could govern, and naga reads none on a
    // statement: they go, as blank space.
    if target == Target::WgslNoSubgroup {
        if let Some(blanked) = crate::valid::without_statement_diagnostics(source) {
            return link_text(&blanked, path, target, options);
        }
    }
    if target.language() != Language::Glsl
        || ballot_ir::size::SubgroupSize::new(options.subgroup_size).is_err()
    {
        return link_text(source, path, target, options);
    }
    let expanded =
        include::expand(source, path, includes).map_err(|(file, text, at, message)| LinkError {
            kind: LinkErrorKind::Input,
            path: file,
            target,
            message,
            location: Some(Box::new(locate(&text, at, String::new()))),
            notes: Box::default(),
        })?;
    // The emulated target rewrites the shader's functions: the
    // conditionals the text decides are resolved first (`conditional`),
    // every offset and line kept, then the macros that call a collective
    // are expanded where they are called (`macros`), every line kept.
    let prepare = |text: &str| -> Result<Option<String>, LinkError> {
        if target != Target::GlslNoSubgroup {
            return Ok(None);
        }
        let resolved = conditional::resolve(text, &options.defines);
        let base = resolved.as_deref().unwrap_or(text);
        match macros::expand(base, glsl_collective) {
            Ok(Some(expanded)) => Ok(Some(expanded)),
            Ok(None) => Ok(resolved),
            Err((message, at)) => Err(LinkError {
                kind: LinkErrorKind::Unsupported,
                path: path.to_string(),
                target,
                message,
                location: Some(Box::new(locate(base, at, String::new()))),
                notes: Box::default(),
            }),
        }
    };
    let Some(expanded) = expanded else {
        return match prepare(source)? {
            Some(prepared) => link_text(&prepared, path, target, options),
            None => link_text(source, path, target, options),
        };
    };
    let linked = prepare(&expanded.text).and_then(|prepared| {
        link_text(
            prepared.as_deref().unwrap_or(&expanded.text),
            path,
            target,
            options,
        )
    });
    match linked {
        Ok(mut linked) => {
            linked.includes = expanded.files[1..].iter().map(|(p, _)| p.clone()).collect();
            Ok(linked)
        }
        Err(mut e) => {
            if let Some(location) = e.location.as_mut() {
                let (file, line) = expanded.origin(location.line);
                location.line = line;
                e.path = expanded.files[file].0.clone();
                let mut notes = e.notes.into_vec();
                let mut at = file;
                while let Some((from, line)) = expanded.files[at].1 {
                    notes.push(format!("included from {}:{line}", expanded.files[from].0));
                    at = from;
                }
                e.notes = notes.into_boxed_slice();
            }
            Err(e)
        }
    }
}

/// Whether `name` is a GLSL collective's, which `glsl-no-subgroup`
/// if-converts where it is called.
fn glsl_collective(name: &str) -> bool {
    source_ops(Language::Glsl)
        .any(|op| is_collective(op) && source_name(Language::Glsl, op) == name)
}

/// [`link`] of a text whose includes are expanded.
fn link_text(
    source: &str,
    path: &str,
    target: Target,
    options: &LinkOptions,
) -> Result<Linked, LinkError> {
    // A UTF-8 byte order mark is no character of the shader (naga's GLSL
    // front end would refuse it): it goes, and every location is one of
    // the text after it, as an editor shows it.
    let source = source.strip_prefix('\u{feff}').unwrap_or(source);
    let fail = |kind, message: String, at: Option<Range<usize>>| LinkError {
        kind,
        path: path.to_string(),
        target,
        message,
        location: at.map(|r| Box::new(locate(source, r, String::new()))),
        notes: Box::default(),
    };
    let subgroup_size = options.subgroup_size;
    // The option on its own, first and on every target, so that its error
    // depends neither on the file nor on the target list.
    if ballot_ir::size::SubgroupSize::new(subgroup_size).is_err() {
        return Err(fail(
            LinkErrorKind::Options,
            format!("invalid `subgroup_size` {subgroup_size}: a power of two from 1 to 128"),
            None,
        ));
    }
    if let Some(message) = options
        .define_error(target.language())
        .or_else(|| options.api_error(target.language()))
    {
        return Err(fail(LinkErrorKind::Options, message, None));
    }
    // The emulation expands the macros that call a collective where the
    // shader calls them, reading their `#define`s in its text; a define
    // given as an option is written in only for the validator.
    if target == Target::GlslNoSubgroup {
        let collective_in = |value: &str| {
            lex::lex(value, Language::Glsl)
                .iter()
                .any(|t| t.kind == lex::Kind::Ident && glsl_collective(&value[t.range()]))
        };
        if let Some((name, _)) = options.defines.iter().find(|(_, v)| collective_in(v)) {
            return Err(fail(
                LinkErrorKind::Options,
                format!(
                    "invalid define `{name}`: its value calls a subgroup function, which \
                     `glsl-no-subgroup` links only where the shader's text calls it or \
                     `#define`s a macro that does: define it in the shader"
                ),
                None,
            ));
        }
    }
    check::admit(target, source.as_bytes(), &Limits::default())
        .map_err(|p: Problem| fail(LinkErrorKind::Input, p.to_string(), None))?;
    let mut shader =
        Shader::read(source, target).map_err(|(kind, m, at)| fail(kind, m, Some(at)))?;
    shader.stage = judge::glsl_stage(path);
    shader.api = options.api;
    shader.defines = options.define_lines();
    // A shader without `#version` is GLSL 1.10, which has no compute
    // shaders and which Vulkan does not take (GL_KHR_vulkan_glsl: 1.40 or
    // later); glslang's words on it would fall on the linked code, which
    // goes after that line.
    if target.language() == Language::Glsl && !judge::has_version(source) {
        let first = source.find('\n').unwrap_or(source.len());
        return Err(fail(
            LinkErrorKind::Invalid,
            "the shader has no `#version` line: GLSL without one is version 1.10, which has \
             no compute shaders and which Vulkan does not take; start it with `#version 450`"
                .to_string(),
            Some(0..first),
        ));
    }
    shader
        .require_entry_point()
        .and_then(|()| shader.require_compute())
        .and_then(|()| shader.type_calls())
        .and_then(|()| shader.check_cluster_sizes())
        .map_err(|(kind, m, at)| fail(kind, m, Some(at)))?;
    if target.has_subgroups() {
        // naga refuses `@builtin(subgroup_invocation_id)` in a workgroup of
        // more than one dimension: for `wgsl`, which naga and wgpu judge,
        // the init ranks the lanes instead, where the size is literal and
        // where naga says so of another. Browsers take the built-in
        // (`wgsl-web`, judged without that rule: `valid`).
        shader.lane_from_rank = target == Target::Wgsl
            && shader
                .literal_sizes
                .iter()
                .flatten()
                .any(|s| s[1] > 1 || s[2] > 1);
        let mut written = shader.write(&sizes(subgroup_size, [64, 1, 1]));
        let mut verdict = judge::judge(target, &written.text, shader.stage, shader.api);
        if let Err(rejected) = &verdict {
            if target == Target::Wgsl
                && !shader.lane_from_rank
                && rejected.1.message.contains("multi dimensional")
            {
                shader.lane_from_rank = true;
                written = shader.write(&sizes(subgroup_size, [64, 1, 1]));
                verdict = judge::judge(target, &written.text, shader.stage, shader.api);
            }
        }
        if let Err(rejected) = verdict {
            return Err(written.error(&shader, path, rejected.1));
        }
        return Ok(Linked {
            target,
            functions: written.functions,
            text: written.text,
            ops: shader.linked_ops(),
            workgroup_size: None,
            includes: Vec::new(),
        });
    }
    // The exchange arrays need the entry points' workgroup size, which
    // naga evaluates (a constant expression). Where the shader spells it
    // in literals, the lexer's reading is linked and validated at once,
    // and naga's module confirms the size: one pass, as on the other
    // targets. Otherwise (or where naga reads another size) the text is
    // linked at a size that fits any subgroup, naga reads the size back,
    // and the shader is linked again at it.
    let entry = shader.entries.first().map(|e| e.name.clone());
    let at_entry = || entry.clone();
    let mut size = shader.literal_workgroup_size().filter(|&w| {
        sizes(subgroup_size, w)
            .validate_up_to(max_invocations(target))
            .is_ok()
    });
    // Two passes at most: the second is at the size naga read, which no
    // linked code can change.
    for _ in 0..2 {
        let layout = sizes(subgroup_size, size.unwrap_or([subgroup_size, 1, 1]));
        let written = shader.write(&layout);
        let converged = written.converge(&shader, path)?;
        let (read, verdict) = match judge::judge(target, &converged.text, shader.stage, shader.api)
        {
            Ok(read) => (read, None),
            Err(rejected) => match *rejected {
                (Some(read), diagnostic) => (read, Some(diagnostic)),
                (None, diagnostic) => {
                    return Err(written.error_through(&converged, &shader, path, diagnostic))
                }
            },
        };
        let read = match read {
            // A shader that links nothing (its subgroup code in a branch
            // of the preprocessor not compiled, or none) needs no
            // workgroup, and may be of any stage: it passes as it is.
            Err(_) if verdict.is_none() && !shader.links_any() => {
                return Ok(Linked {
                    target,
                    functions: written.functions,
                    text: converged.text,
                    ops: shader.linked_ops(),
                    workgroup_size: None,
                    includes: Vec::new(),
                })
            }
            read => read.map_err(|(kind, m)| fail(kind, m, at_entry()))?,
        };
        if read == Size::Specialised && !shader.specialised_workgroup {
            if language_is_wgsl(target) && shader.spelled_invocations().is_none() {
                return Err(fail(
                    LinkErrorKind::Unsupported,
                    "the pipeline overrides the workgroup size, but the compute entry points \
                     do not all spell the same `@workgroup_size(…)`: one emulation, its \
                     exchange memory sized from those arguments, serves every entry point"
                        .to_string(),
                    at_entry(),
                ));
            }
            if !language_is_wgsl(target) && shader.workgroup_layouts.is_empty() {
                return Err(fail(
                    LinkErrorKind::Unsupported,
                    "the pipeline specialises the workgroup size, but its `layout(…) in;` \
                     lines are not all of literals (`local_size_x_id = 0`, `local_size_y = 1`): \
                     the emulated subgroups' sizes are expressions of `gl_WorkGroupSize`, which \
                     glslang reads as the layout declared so far, so the linker writes these \
                     lines again before them; spell their values as literals"
                        .to_string(),
                    at_entry(),
                ));
            }
            // Linked again, its exchange memory sized by expressions of
            // `gl_WorkGroupSize` (GLSL) or overrides of the entry point's
            // `@workgroup_size` arguments (WGSL); no linked code changes
            // the size.
            shader.specialised_workgroup = true;
            size = None;
            continue;
        }
        // The workgroup's bounds, each entry point's where they differ.
        let fits = |read: [u32; 3], entry: Option<&str>| {
            sizes(subgroup_size, read)
                .validate_up_to(max_invocations(target))
                .map_err(|e: OptionError| {
                    // The workgroup is the file's: too many invocations is
                    // its fault; a subgroup larger than the workgroup is
                    // the option's to change.
                    let [x, y, z] = read;
                    let whose =
                        entry.map_or("the entry point's".to_string(), |n| format!("`{n}`'s"));
                    match e {
                        OptionError::Mismatch { .. } => fail(
                            LinkErrorKind::Options,
                            format!("{e} (the workgroup size is {whose})"),
                            at_entry(),
                        ),
                        _ => fail(
                            LinkErrorKind::Unsupported,
                            format!(
                                "{whose} workgroup size {x}x{y}x{z} has {} invocations; the \
                                 emulated subgroups' exchange memory on `{target}` serves 1 to \
                                 {}: make the workgroup smaller",
                                u64::from(x) * u64::from(y) * u64::from(z),
                                max_invocations(target)
                            ),
                            at_entry(),
                        ),
                    }
                })
        };
        // Entry points of different sizes (WGSL): the exchange memory is
        // laid out for the largest, and each entry point sets its own
        // count before its init.
        let read = match read {
            Size::PerEntry(each) => {
                let mut counts = Vec::with_capacity(each.len());
                for (name, read) in &each {
                    // An entry point smaller than the virtual subgroup is
                    // one partial subgroup (another entry point may use no
                    // collective at all); too many invocations is refused.
                    match fits(*read, Some(name)) {
                        Err(e) if e.kind != LinkErrorKind::Options => return Err(e),
                        _ => {}
                    }
                    counts.push((name.clone(), read.iter().product::<u32>()));
                }
                let most = counts.iter().map(|&(_, n)| n).max().unwrap_or(1);
                if shader.entry_sizes.as_ref() != Some(&counts) {
                    shader.entry_sizes = Some(counts);
                    size = Some([most, 1, 1]);
                    continue;
                }
                Size::Fixed([most, 1, 1])
            }
            other => other,
        };
        let read = match read {
            // Linked at the size the validator read, or at the pipeline's.
            Size::Fixed(read) if size != Some(read) => read,
            done => {
                if let Some(diagnostic) = verdict {
                    return Err(written.error_through(&converged, &shader, path, diagnostic));
                }
                return Ok(Linked {
                    target,
                    functions: written.functions,
                    text: converged.text,
                    ops: shader.linked_ops(),
                    workgroup_size: match done {
                        Size::Fixed(read) if shader.entry_sizes.is_none() => Some(read),
                        _ => None,
                    },
                    includes: Vec::new(),
                });
            }
        };
        fits(read, None)?;
        size = Some(read);
    }
    Err(fail(
        LinkErrorKind::Bug,
        "the entry points' workgroup size changed between two links".to_string(),
        at_entry(),
    ))
}

/// The most invocations per workgroup an emulated target's exchange
/// memory serves in a linked shader: WebGPU's default limit in WGSL
/// ([`MAX_WORKGROUP_INVOCATIONS`]); in GLSL, Vulkan's usual
/// `maxComputeWorkGroupInvocations`, where the exchange memory takes
/// 40 bytes an invocation (10 KiB at 256, 40 KiB at 1,024: a device with
/// less shared memory refuses the pipeline, by its own limit).
fn max_invocations(target: Target) -> u32 {
    match target.language() {
        Language::Glsl => MAX_GLSL_INVOCATIONS,
        Language::Wgsl => MAX_WORKGROUP_INVOCATIONS,
    }
}

/// [`max_invocations`] in GLSL.
const MAX_GLSL_INVOCATIONS: u32 = 1024;

fn language_is_wgsl(target: Target) -> bool {
    target.language() == Language::Wgsl
}

/// A workgroup size written as literals, the tokens in `@workgroup_size(…)`:
/// one to three integers, and a trailing comma.
fn literal_size(text: &str, args: &[Token]) -> Option<[u32; 3]> {
    let mut size = [1, 1, 1];
    let mut n = 0;
    for (k, t) in args.iter().enumerate() {
        let word = &text[t.range()];
        match (k % 2, t.kind) {
            (0, Kind::Number) if n < 3 => {
                size[n] = integer(word)?;
                n += 1;
            }
            (1, Kind::Punct(b',')) => {}
            _ => return None,
        }
    }
    (n > 0).then_some(size)
}

/// An integer literal's value: decimal, octal (GLSL's leading `0`) or
/// `0x` hexadecimal, with WGSL's `u` / `i` or GLSL's `u` / `U` suffix.
/// WGSL has no octal literals and refuses a leading `0`, so reading one
/// as octal changes no valid WGSL; GLSL's literals are 32-bit, and a
/// longer one is its compiler's error.
fn integer(word: &str) -> Option<u32> {
    let digits = word.strip_suffix(['u', 'U', 'i']).unwrap_or(word);
    let (digits, radix) = match digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        Some(hex) => (hex, 16),
        None if digits.len() > 1 && digits.starts_with('0') => (&digits[1..], 8),
        None => (digits, 10),
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    u32::from_str_radix(digits, radix).ok()
}

/// The emulation's sizes, as the writers take them.
fn sizes(subgroup_size: u32, workgroup_size: [u32; 3]) -> ShaderOptions {
    ShaderOptions {
        workgroup_size,
        subgroup_size,
        ..ShaderOptions::default()
    }
}

// ------------------------------------------------------------------ lexing

#[cfg(test)]
mod tests;
