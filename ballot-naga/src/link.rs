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
//! - On `wgsl` and `wgsl-web` naga refuses
//!   `@builtin(subgroup_invocation_id)`, which the init function reads, in
//!   a workgroup of more than one dimension: the entry points need a
//!   one-dimensional workgroup (`@workgroup_size(64)`, not `(8, 8)`); the
//!   error is on the entry point's name.
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
//!   arm of `?:`, a GLSL `case` falling through into statements, a
//!   preprocessor line inside a converted function, a fragment or vertex
//!   entry point that reaches an exchange, a WGSL `let`/`var` without a
//!   type whose initialiser has side effects where not every invocation
//!   runs it, a GLSL broadcast inside a guarded statement whose value's
//!   type it cannot tell, and a collective in a GLSL `#define`'s body
//!   (the pass sees the macro's call, not the collective, and the linker
//!   does not expand macros). Comments inside a converted function are not
//!   kept. A collective's arguments are evaluated in every invocation.
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
//!   constant expression, a power of two, at least 1, and at most the
//!   virtual subgroup size: an integer literal is read by the linker, any
//!   other constant (a `const` name, a macro) as glslang folds it at the
//!   call; anything else, or a size neither gives, is an error at the size.
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
//!   SPIR-V: `glslangValidator`, found as `BALLOT_GLSLANG` or on `PATH`.
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
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
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
mod types;

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
    /// them (an empty value defines the name as nothing): written after
    /// the `#version` line of the linked text, so that it compiles as the
    /// build that passes them does, and read by the emulated target's
    /// resolution of conditionals. None by default; WGSL has no
    /// preprocessor, and refuses any.
    pub defines: Vec<(String, String)>,
}

impl Default for LinkOptions {
    fn default() -> Self {
        Self {
            subgroup_size: 32,
            defines: Vec::new(),
        }
    }
}

impl LinkOptions {
    /// The options with `subgroup_size` set.
    pub fn subgroup_size(mut self, subgroup_size: u32) -> Self {
        self.subgroup_size = subgroup_size;
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
            let identifier = name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            if !identifier {
                Some(format!("invalid define `{name}`: a macro's name is an identifier"))
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

    /// The defines as `#define` lines, each after a line break.
    fn define_lines(&self) -> String {
        self.defines
            .iter()
            .map(|(name, value)| match value.as_str() {
                "" => format!("\n#define {name}"),
                value => format!("\n#define {name} {value}"),
            })
            .collect()
    }
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
    /// The workgroup size the emulation was sized for (emulated targets).
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
    // every offset and line kept.
    let resolve = |text: &str| match target {
        Target::GlslNoSubgroup => conditional::resolve(text, &options.defines),
        _ => None,
    };
    let Some(expanded) = expanded else {
        return match resolve(source) {
            Some(resolved) => link_text(&resolved, path, target, options),
            None => link_text(source, path, target, options),
        };
    };
    let resolved = resolve(&expanded.text);
    match link_text(
        resolved.as_deref().unwrap_or(&expanded.text),
        path,
        target,
        options,
    ) {
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
    if let Some(message) = options.define_error(target.language()) {
        return Err(fail(LinkErrorKind::Options, message, None));
    }
    check::admit(target, source.as_bytes(), &Limits::default())
        .map_err(|p: Problem| fail(LinkErrorKind::Input, p.to_string(), None))?;
    let mut shader =
        Shader::read(source, target).map_err(|(kind, m, at)| fail(kind, m, Some(at)))?;
    shader.stage = judge::glsl_stage(path);
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
        .and_then(|()| shader.check_cluster_sizes(subgroup_size))
        .map_err(|(kind, m, at)| fail(kind, m, Some(at)))?;
    if target.has_subgroups() {
        // naga refuses `@builtin(subgroup_invocation_id)` in a workgroup of
        // more than one dimension: there the init ranks the lanes instead,
        // where the size is literal and where naga says so of another.
        shader.lane_from_rank = language_is_wgsl(target)
            && shader
                .literal_sizes
                .iter()
                .flatten()
                .any(|s| s[1] > 1 || s[2] > 1);
        let mut written = shader.write(&sizes(subgroup_size, [64, 1, 1]));
        let mut verdict = judge::judge(target, &written.text, shader.stage);
        if let Err(rejected) = &verdict {
            if language_is_wgsl(target)
                && !shader.lane_from_rank
                && rejected.1.message.contains("multi dimensional")
            {
                shader.lane_from_rank = true;
                written = shader.write(&sizes(subgroup_size, [64, 1, 1]));
                verdict = judge::judge(target, &written.text, shader.stage);
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
    let at_entry = || shader.entries.first().map(|e| e.name.clone());
    let mut size = shader
        .literal_workgroup_size()
        .filter(|&w| sizes(subgroup_size, w).validate().is_ok());
    // Two passes at most: the second is at the size naga read, which no
    // linked code can change.
    for _ in 0..2 {
        let layout = sizes(subgroup_size, size.unwrap_or([subgroup_size, 1, 1]));
        let written = shader.write(&layout);
        let converged = written.converge(&shader, path)?;
        let (read, verdict) = match judge::judge(target, &converged.text, shader.stage) {
            Ok(read) => (read, None),
            Err(rejected) => match *rejected {
                (Some(read), diagnostic) => (read, Some(diagnostic)),
                (None, diagnostic) => {
                    return Err(written.error_through(&converged, &shader, path, diagnostic))
                }
            },
        };
        let read = read.map_err(|(kind, m)| fail(kind, m, at_entry()))?;
        if size == Some(read) {
            if let Some(diagnostic) = verdict {
                return Err(written.error_through(&converged, &shader, path, diagnostic));
            }
            return Ok(Linked {
                target,
                functions: written.functions,
                text: converged.text,
                ops: shader.linked_ops(),
                workgroup_size: Some(read),
                includes: Vec::new(),
            });
        }
        sizes(subgroup_size, read)
            .validate()
            .map_err(|e: OptionError| {
                // The workgroup is the file's: too many invocations is its
                // fault; a subgroup larger than the workgroup is the
                // option's to change.
                let [x, y, z] = read;
                match e {
                    OptionError::Mismatch { .. } => fail(
                        LinkErrorKind::Options,
                        format!("{e} (the workgroup size is the entry point's)"),
                        at_entry(),
                    ),
                    _ => fail(
                        LinkErrorKind::Unsupported,
                        format!(
                            "the entry point's workgroup size {x}x{y}x{z} has {} invocations; \
                             the emulated subgroups' exchange memory serves 1 to \
                             {MAX_WORKGROUP_INVOCATIONS}: make the workgroup smaller",
                            u64::from(x) * u64::from(y) * u64::from(z)
                        ),
                        at_entry(),
                    ),
                }
            })?;
        size = Some(read);
    }
    Err(fail(
        LinkErrorKind::Bug,
        "the entry points' workgroup size changed between two links".to_string(),
        at_entry(),
    ))
}

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

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Ident,
    Number,
    Punct(u8),
    /// A GLSL preprocessor line; of a `#define`, only `#define` itself:
    /// the macro's name and body are tokens, so that its calls are linked
    /// and its names counted.
    Directive,
}

/// Whether `c`, outside ASCII, is blank space between WGSL tokens.
fn is_unicode_blank(c: char) -> bool {
    matches!(
        c,
        '\u{85}' | '\u{200e}' | '\u{200f}' | '\u{2028}' | '\u{2029}'
    )
}

/// Whether `c` ends a line comment of `language`: `\n`, `\r` (GLSL's
/// preprocessor takes a lone one as a line end), and WGSL's other line
/// breaks.
fn is_line_break(c: char, language: Language) -> bool {
    match language {
        Language::Glsl => matches!(c, '\n' | '\r'),
        Language::Wgsl => matches!(c, '\u{a}'..='\u{d}' | '\u{85}' | '\u{2028}' | '\u{2029}'),
    }
}

/// A token: its kind and where it is, in 12 bytes rather than 24 (a
/// large shader is millions of tokens, and the reader's scans go over
/// them all several times).
#[derive(Clone, Copy, Debug)]
struct Token {
    kind: Kind,
    start: u32,
    end: u32,
}

impl Token {
    fn new(kind: Kind, range: Range<usize>) -> Self {
        // `check::admit` lets through at most 16 MiB.
        let at = |i: usize| u32::try_from(i).expect("a text under 4 GiB");
        Self {
            kind,
            start: at(range.start),
            end: at(range.end),
        }
    }

    /// Where it is.
    fn range(&self) -> Range<usize> {
        self.start as usize..self.end as usize
    }
}

/// The tokens of `text`, comments and white space skipped. WGSL block
/// comments nest; GLSL's do not, and GLSL's `#` lines are one token each
/// (but `#define`'s, see [`Kind::Directive`]). Characters outside ASCII,
/// but WGSL's blank space, are identifier characters: WGSL identifiers may
/// hold them, and a name such as `ésubgroupElect` is one word.
fn lex(text: &str, language: Language) -> Vec<Token> {
    let bytes = text.as_bytes();
    // About a token for every three to five bytes of shader code (dense
    // code such as `x += f(b);` has one every three): one allocation,
    // rather than a copy at each doubling; the pages past the last token
    // are never touched.
    let mut tokens = Vec::with_capacity(text.len() / 3);
    let mut i = 0;
    let mut line_start = true;
    while i < bytes.len() {
        let b = bytes[i];
        let start = i;
        if b == b'\n' || b == b'\r' {
            line_start = true;
            i += 1;
            continue;
        }
        if b.is_ascii_whitespace() || b == 0x0b {
            i += 1;
            continue;
        }
        if !b.is_ascii() && text[i..].starts_with(is_unicode_blank) {
            i += text[i..].chars().next().map_or(1, char::len_utf8);
            continue;
        }
        if b == b'/' && bytes.get(i + 1) == Some(&b'/') {
            // To the line's end, as naga reads it: a lone `\r` ends a line
            // too (and in WGSL, the other line breaks).
            i = text[i..]
                .find(|c| is_line_break(c, language))
                .map_or(text.len(), |n| i + n);
            continue;
        }
        if let Some(end) = (b == b'/')
            .then(|| check::comment_end(bytes, i, language))
            .flatten()
        {
            i = end;
            continue;
        }
        let at_line_start = std::mem::replace(&mut line_start, false);
        let kind = if b == b'#' && language == Language::Glsl && at_line_start {
            let rest = text[i + 1..].trim_start_matches([' ', '\t']);
            if let Some(after) = rest.strip_prefix("define") {
                if after.starts_with([' ', '\t']) {
                    i = text.len() - after.len();
                    tokens.push(Token::new(Kind::Directive, start..i));
                    continue;
                }
            }
            i = logical_line_end(text, i);
            Kind::Directive
        } else if b.is_ascii_alphabetic() || b == b'_' || !b.is_ascii() {
            // Bytes while ASCII (nearly every name), characters outside it.
            while i < bytes.len() {
                if bytes[i].is_ascii() {
                    if !(bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                        break;
                    }
                    i += 1;
                    continue;
                }
                let Some(c) = text[i..].chars().next() else {
                    break;
                };
                if is_unicode_blank(c) {
                    break;
                }
                i += c.len_utf8();
            }
            Kind::Ident
        } else if b.is_ascii_digit() {
            while i < bytes.len()
                && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'.' || bytes[i] == b'_')
            {
                i += 1;
            }
            Kind::Number
        } else {
            i += 1;
            Kind::Punct(b)
        };
        tokens.push(Token::new(kind, start..i));
    }
    tokens
}

// ------------------------------------------------------------------ reading

/// A call (or, in GLSL, a built-in variable) the linker rewrites.
#[derive(Clone, Debug)]
struct Use {
    op: Op,
    /// The name's token.
    name: Range<usize>,
    /// Where an emulated collective's `on` argument goes (after `(`), and
    /// whether the call has other arguments.
    args: Option<(usize, bool)>,
    /// A WGSL generic call's operation and type, on `wgsl-no-subgroup`
    /// ([`types`]).
    typed: Option<types::Typed>,
    /// A GLSL generic call's value ([`ballot_ir::ir::op_is_generic`]): its
    /// range, and its type where glslang gave it, on `glsl-no-subgroup`
    /// ([`glsl_types`]).
    value: Option<(Range<usize>, Option<String>)>,
    /// Broadcast's, Shuffle's and QuadBroadcast's lane argument:
    /// `wgsl-no-subgroup` converts it to `u32`, so that an `i32` lane
    /// (WGSL's other) reaches the `u32` parameter.
    lane: Option<Range<usize>>,
    /// A GLSL clustered reduction's cluster size: its argument's range,
    /// and the constant glslang folds it to, where its tree gives one
    /// ([`glsl_types`]). `glsl-no-subgroup` checks it against the
    /// virtual subgroup size ([`Shader::check_cluster_sizes`]).
    cluster: Option<(Range<usize>, Option<i64>)>,
}

/// A call of a subgroup barrier, `GL_KHR_shader_subgroup_basic`'s (and
/// naga's WGSL `subgroupBarrier`): on the emulated targets,
/// `subgroupBarrier()` becomes an exchange of no value that every
/// invocation of the workgroup makes (a workgroup barrier, which waits for
/// more invocations than the subgroup's, and orders memory as
/// `subgroupBarrier` does), and the memory barriers the language's own,
/// which order at least what the subgroup's do.
#[derive(Clone, Debug)]
struct SubgroupBarrier {
    /// The name's token.
    name: Range<usize>,
    /// After the call's `(`.
    after_open: usize,
    /// What the name becomes on an emulated target; `None` for
    /// `subgroupBarrier`, which becomes the linked exchange.
    memory: Option<&'static str>,
}

/// The subgroup barrier named `name` in `language`: `Some(None)` for
/// `subgroupBarrier`, `Some(Some(replacement))` for a GLSL memory barrier.
fn subgroup_barrier(language: Language, name: &str) -> Option<Option<&'static str>> {
    Some(match (language, name) {
        (_, "subgroupBarrier") => None,
        (Language::Glsl, "subgroupMemoryBarrier") => Some("memoryBarrier"),
        (Language::Glsl, "subgroupMemoryBarrierBuffer") => Some("memoryBarrierBuffer"),
        (Language::Glsl, "subgroupMemoryBarrierShared") => Some("memoryBarrierShared"),
        (Language::Glsl, "subgroupMemoryBarrierImage") => Some("memoryBarrierImage"),
        _ => return None,
    })
}

/// The linked `subgroupBarrier` of an emulated target, in `language`, under
/// `ballot_`: every invocation calls it, its `on` flag unused (the
/// conversion reads it as an exchange whose result is a `bool`).
fn barrier_function(language: Language) -> &'static str {
    match language {
        Language::Glsl => {
            "\n// subgroupBarrier: every invocation of the workgroup waits here.\n\
             bool ballot_subgroupBarrier(bool on) {\n    memoryBarrier();\n    barrier();\n    \
             return on;\n}\n"
        }
        Language::Wgsl => {
            "\n// subgroupBarrier: every invocation of the workgroup waits here.\n\
             fn ballot_subgroupBarrier(on: bool) -> bool {\n    storageBarrier();\n    \
             workgroupBarrier();\n    return on;\n}\n"
        }
    }
}

/// A GLSL built-in variable of the subgroup extensions the emulation
/// replaces, other than the masks: `GL_KHR_shader_subgroup_basic`'s.
#[derive(Clone, Debug)]
struct Builtin {
    name: Range<usize>,
    value: BuiltinValue,
}

/// Which built-in a [`Builtin`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BuiltinValue {
    /// `gl_SubgroupInvocationID`.
    Lane,
    /// `gl_SubgroupSize`.
    Size,
    /// `gl_SubgroupID`: the virtual subgroup's index in the workgroup.
    Id,
    /// `gl_NumSubgroups`: the virtual subgroups of the workgroup.
    Count,
}

impl BuiltinValue {
    /// The WGSL built-in of this value, by its name in `@builtin(…)`.
    fn of_wgsl(name: &str) -> Option<Self> {
        Some(match name {
            "subgroup_invocation_id" => BuiltinValue::Lane,
            "subgroup_size" => BuiltinValue::Size,
            "subgroup_id" => BuiltinValue::Id,
            "num_subgroups" => BuiltinValue::Count,
            _ => return None,
        })
    }

    /// The value on an emulated target, an expression of the emulation's
    /// state under the prefix `p`: the virtual subgroups are the
    /// workgroup's linear index cut into runs of the virtual size.
    fn emulated(self, p: &str) -> String {
        match self {
            BuiltinValue::Lane => format!("{p}lane"),
            BuiltinValue::Size => format!("{p}subgroup_size"),
            BuiltinValue::Id => format!("({p}index / {p}subgroup_size)"),
            BuiltinValue::Count => {
                format!("(({p}workgroup_size + {p}subgroup_size - 1u) / {p}subgroup_size)")
            }
        }
    }
}

/// An entry point's parameter.
#[derive(Clone, Debug)]
struct Param {
    /// The built-in it is, or empty (a struct of them).
    builtin: String,
    name: String,
    /// Its type's name (WGSL: the struct of a parameter without a
    /// built-in).
    ty: String,
    /// The parameter's tokens, from its first attribute to its type's end.
    range: Range<usize>,
}

/// An entry point: its name, parameters and the body's opening brace.
#[derive(Clone, Debug)]
struct Entry {
    /// Whether it is a compute entry point (WGSL: else a fragment one;
    /// GLSL's `main` is the file's stage).
    compute: bool,
    name: Range<usize>,
    /// Where the parameter list's `)` starts.
    close: usize,
    params: Vec<Param>,
    /// Whether the list ends with a comma.
    trailing_comma: bool,
    body: usize,
}

/// A built-in member of a WGSL struct: `@builtin(name) member: type`.
#[derive(Clone, Debug)]
struct Member {
    builtin: String,
    name: String,
    /// The member's text, its attributes and the comma after it included.
    range: Range<usize>,
}

/// A WGSL struct with built-in members.
#[derive(Clone, Debug)]
struct Struct {
    /// Its built-in members.
    builtins: Vec<Member>,
    /// How many members it has in all.
    fields: usize,
}

/// The user's shader, read: what it calls, defines and declares.
struct Shader<'a> {
    text: &'a str,
    target: Target,
    uses: Vec<Use>,
    /// The subgroup barriers' calls ([`SubgroupBarrier`]).
    barriers: Vec<SubgroupBarrier>,
    builtins: Vec<Builtin>,
    entries: Vec<Entry>,
    /// The WGSL structs with built-in members, by name.
    structs: BTreeMap<String, Struct>,
    /// Ranges to delete: `enable subgroups;` (WGSL read by naga), the
    /// subgroup `#extension` lines (emulated GLSL).
    deletions: Vec<Range<usize>>,
    /// Whether a `wgsl-web` shader has the directives itself.
    has_enable: bool,
    has_diagnostic: bool,
    /// Where the linked functions go: after the GLSL text's `#version`
    /// line; before the WGSL text's first declaration, after its
    /// directives. Never at the end, where a text cut short (a missing
    /// `}`, `;`) would take them in and naga's error would fall in linked
    /// code.
    library_at: usize,
    /// GLSL: the caller's defines, as `#define` lines each after a line
    /// break ([`LinkOptions::defines`]), written with the library.
    defines: String,
    prefix: String,
    /// Whether the shader has an entry point of any stage.
    has_entry_point: bool,
    /// Each compute entry point's workgroup size, where it is spelled in
    /// integer literals (GLSL: the one `layout(local_size_x = …) in;`).
    literal_sizes: Vec<Option<[u32; 3]>>,
    /// The stage glslang compiles a GLSL shader as, from its path, and
    /// whether that was assumed ([`judge::glsl_stage`]).
    stage: (&'static str, bool),
    /// Whether the shader names any subgroup function or built-in (WGSL's
    /// own too): `wgsl-web` then needs `enable subgroups;`.
    uses_subgroups: bool,
    /// Whether the hardware WGSL init reads the lane id from the lanes'
    /// ranks (`entry_lane`) rather than `@builtin(subgroup_invocation_id)`,
    /// which naga refuses in a workgroup of more than one dimension.
    lane_from_rank: bool,
    /// Whether Broadcast's, Shuffle's and QuadBroadcast's lane argument is
    /// converted to `u32` at the call ([`Use::lane`]): on every WGSL target,
    /// as WGSL takes an `i32` lane too, and naga only a `u32`.
    lane_as_u32: bool,
}

/// The lane id without `@builtin(subgroup_invocation_id)`: every lane of
/// the subgroup is active at the top of the entry point, where the init
/// runs, so an invocation's rank among them (`subgroupExclusiveAdd(1u)`)
/// picks its bit of their ballot; the lanes need not be the low ones.
const ENTRY_LANE: &str = "
// The invocation's lane id, where @builtin(subgroup_invocation_id) cannot be
// read (naga refuses it in a workgroup of more than one dimension): its rank
// among the lanes, all active at the top of the entry point, as a bit of
// their ballot.
fn ballot_entry_lane() -> u32 {
    let lanes = subgroupBallot(true);
    var rank = subgroupExclusiveAdd(1u);
    for (var word = 0u; word < 4u; word++) {
        let n = countOneBits(lanes[word]);
        if rank < n {
            var bits = lanes[word];
            for (var k = 0u; k < rank; k++) {
                bits &= bits - 1u;
            }
            return word * 32u + firstTrailingBit(bits);
        }
        rank -= n;
    }
    return 0u;
}
";

type ReadError = (LinkErrorKind, String, Range<usize>);

/// The names a shader of `language` calls the operations by.
fn source_name(language: Language, op: Op) -> &'static str {
    match language {
        Language::Glsl => op.glsl_name(),
        Language::Wgsl => polyfill::function_name(Target::Wgsl, op),
    }
}

/// Whether `name` may be a ballot function's, a look-alike's or a
/// subgroup built-in's: every name [`Shader::read`] looks up starts so.
fn is_subgroup_word(name: &str) -> bool {
    name.starts_with("subgroup")
        || name.starts_with("gl_Subgroup")
        || matches!(
            name,
            "gl_NumSubgroups"
                | "num_subgroups"
                | "quadBroadcast"
                | "quadSwapX"
                | "quadSwapY"
                | "quadSwapDiagonal"
        )
}

/// The operations the linker reads in a shader of `language`, by the
/// names [`source_name`] gives: in GLSL every one, under the extensions'
/// names; in WGSL the ballot family (under the GLSL names of what WGSL
/// lacks) and the rest of the family where WGSL has it (`subgroupAdd`,
/// `quadSwapX`). GLSL's clustered reductions are read too, though the
/// polyfill libraries leave them out ([`polyfill::covers`]): the linker
/// writes their functions itself. Where one name stands for several operations
/// (`subgroupAdd`: `IAdd` and `FAdd`), the first is read, and the value's
/// type picks the operation later ([`types`], [`types::glsl_namesakes`]).
fn source_ops(language: Language) -> impl Iterator<Item = Op> {
    Op::ALL.into_iter().filter(move |&op| {
        language == Language::Glsl
            || crate::polyfill::covers(op) && (op.is_ballot() || op.wgsl_name().is_some())
    })
}

/// The functions the emulated targets link, for messages.
fn emulated_names(language: Language) -> String {
    let names: Vec<&str> = Op::BALLOT
        .iter()
        .filter(|&&op| language == Language::Glsl || !is_mask(op))
        .map(|&op| source_name(language, op))
        .collect();
    let rest = match language {
        Language::Glsl => {
            "the vote, arithmetic, clustered, shuffle, relative shuffle and quad \
             functions of GL_KHR_shader_subgroup_*"
        }
        Language::Wgsl => "WGSL's votes, arithmetic, shuffles and quad functions",
    };
    format!("{}, {rest}, and the subgroup built-ins", names.join(", "))
}

/// The number of arguments `op` takes.
fn arity(op: Op) -> usize {
    ballot_ir::ir::op_signature(op, ballot_ir::ir::Type::U32)
        .0
        .len()
}

/// The byte ranges of the first two arguments (all the linker reads) of
/// the call whose name is token `at`, of an operation that takes `arity`
/// ([`arity`]); an error where it is given another number: the emulated
/// call gains one, and the validator's count would not be the user's.
/// Neither where the call is cut short (the validator says so). No
/// allocation: a large shader makes hundreds of thousands of calls.
fn arguments(
    text: &str,
    tokens: &[Token],
    at: usize,
    arity: usize,
) -> Result<[Option<Range<usize>>; 2], ReadError> {
    let mut ranges = [None, None];
    let mut given = 0;
    let mut argument = |range: Range<usize>| {
        if let Some(slot) = ranges.get_mut(given) {
            *slot = Some(range);
        }
        given += 1;
    };
    let (mut depth, mut i, mut start) = (0usize, at + 2, at + 2);
    while i < tokens.len() {
        match tokens[i].kind {
            Kind::Punct(b'(' | b'[') => depth += 1,
            Kind::Punct(b')') if depth == 0 => break,
            Kind::Punct(b')' | b']') => depth -= 1,
            Kind::Punct(b',') if depth == 0 => {
                argument(tokens[start].range().start..tokens[i - 1].range().end);
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    if i == tokens.len() {
        return Ok([None, None]);
    }
    // A trailing comma (WGSL allows one) ends no argument.
    if start < i {
        argument(tokens[start].range().start..tokens[i - 1].range().end);
    }
    if given == arity {
        return Ok(ranges);
    }
    let what = |n: usize| match n {
        0 => "no argument".to_string(),
        1 => "1 argument".to_string(),
        n => format!("{n} arguments"),
    };
    let name = &text[tokens[at].range()];
    Err((
        LinkErrorKind::Invalid,
        format!(
            "`{name}` takes {}, and is given {}",
            what(arity),
            what(given)
        ),
        tokens[at].range().start..tokens[i].range().end,
    ))
}

/// The end of the line `from` is on, through `\` continuations (GLSL's
/// preprocessor joins them), at its line break or the text's end.
fn logical_line_end(text: &str, from: usize) -> usize {
    let bytes = text.as_bytes();
    let mut i = from;
    while i < bytes.len() && !matches!(bytes[i], b'\n' | b'\r') {
        if bytes[i] == b'\\' {
            match (bytes.get(i + 1), bytes.get(i + 2)) {
                (Some(b'\r'), Some(b'\n')) => i += 2,
                (Some(b'\n' | b'\r'), _) => i += 1,
                _ => {}
            }
        }
        i += 1;
    }
    i
}

/// Whether `name` looks like a ballot function's.
fn looks_like_ballot(name: &str) -> bool {
    name.starts_with("subgroupBallot") || name.starts_with("subgroupInverseBallot")
}

impl<'a> Shader<'a> {
    fn read(text: &'a str, target: Target) -> Result<Self, ReadError> {
        let language = target.language();
        let tokens = lex(text, language);
        let s = |t: &Token| &text[t.range()];
        let ident = |i: usize| tokens.get(i).filter(|t| t.kind == Kind::Ident).map(s);
        let punct = |i: usize, c: u8| tokens.get(i).is_some_and(|t| t.kind == Kind::Punct(c));

        // What the shader defines itself: functions, and every name that
        // would clash with the linker's prefix.
        // Hashed: looked up at every subgroup word, of which a large
        // shader has hundreds of thousands.
        let mut defined = HashSet::new();
        // Whether any name starts like the linker's (`ballot…`), found in
        // the same scan: nearly no shader's does.
        let mut like_linked = false;
        for i in 0..tokens.len() {
            let Some(name) = ident(i) else { continue };
            like_linked |= name.starts_with("ballot");
            let defines = match language {
                Language::Wgsl => i > 0 && ident(i - 1) == Some("fn"),
                // `type name(`, where the type is no keyword that may
                // precede a call; or a macro's name.
                Language::Glsl => {
                    i > 0
                        && (punct(i + 1, b'(')
                            && ident(i - 1).is_some_and(|t| !matches!(t, "return" | "else"))
                            || tokens[i - 1].kind == Kind::Directive
                                && s(&tokens[i - 1])[1..].trim() == "define")
                }
            };
            if defines {
                defined.insert(name);
            }
        }
        let mut prefix = "ballot_".to_string();
        let mut k = 0;
        while like_linked
            && tokens
                .iter()
                .any(|t| t.kind == Kind::Ident && s(t).starts_with(&prefix))
        {
            k += 1;
            prefix = format!("ballot{k}_");
        }

        // Each name's operation, and how many arguments it takes.
        let mut by_name: HashMap<&str, (Op, usize)> = HashMap::new();
        for op in source_ops(language) {
            by_name
                .entry(source_name(language, op))
                .or_insert((op, arity(op)));
        }
        let mut uses = Vec::new();
        let mut barriers = Vec::new();
        let mut builtins = Vec::new();
        let mut uses_subgroups = false;
        // The end of the `#define` line the tokens are in, if any.
        let mut define_end = 0;
        for (i, token) in tokens.iter().enumerate() {
            if token.kind == Kind::Directive {
                define_end = logical_line_end(text, token.range().end);
                continue;
            }
            let Some(name) = ident(i) else { continue };
            // Every name read below starts so (`source_names_are_prefixed`):
            // the other words, nearly all of a shader's, cost one test.
            if !is_subgroup_word(name) || defined.contains(name) || (i > 0 && punct(i - 1, b'.')) {
                continue;
            }
            // Any subgroup function or built-in of WGSL's, ballot's or
            // not (`subgroupAdd`, `@builtin(num_subgroups)`).
            uses_subgroups = true;
            let called = punct(i + 1, b'(');
            if let Some(memory) = subgroup_barrier(language, name).filter(|_| called) {
                if !punct(i + 2, b')') {
                    return Err((
                        LinkErrorKind::Invalid,
                        format!("`{name}` takes no argument"),
                        token.range(),
                    ));
                }
                barriers.push(SubgroupBarrier {
                    name: token.range(),
                    after_open: tokens[i + 1].range().end,
                    memory,
                });
                continue;
            }
            match by_name.get(name) {
                Some(&(op, arity)) => {
                    let variable = language == Language::Glsl && is_mask(op);
                    if !called && !variable {
                        continue;
                    }
                    // The if-conversion sees a macro's call, not the
                    // collective in its body, which would run only where
                    // the invocation is active: some would miss its
                    // barrier.
                    if token.range().start < define_end
                        && is_collective(op)
                        && !target.has_subgroups()
                    {
                        return Err((
                            LinkErrorKind::Unsupported,
                            format!(
                                "`{name}` in a `#define`: on `{target}` every collective is \
                                 if-converted where the shader calls it, and the linker does \
                                 not expand macros, so it cannot convert this one; call \
                                 `{name}` in the function instead"
                            ),
                            token.range(),
                        ));
                    }
                    let [first, second] = match called {
                        true => arguments(text, &tokens, i, arity)?,
                        false => [None, None],
                    };
                    let cluster = match op {
                        Op::Clustered(_) => second.clone().map(|r| (r, None)),
                        _ => None,
                    };
                    let lane = second
                        .filter(|_| matches!(op, Op::Broadcast | Op::Shuffle | Op::QuadBroadcast));
                    let value = first
                        .filter(|_| ballot_ir::ir::op_is_generic(op))
                        .map(|v| (v, None));
                    let args = called.then(|| (tokens[i + 1].range().end, !punct(i + 2, b')')));
                    uses.push(Use {
                        op,
                        name: token.range(),
                        args,
                        typed: None,
                        value,
                        lane,
                        cluster,
                    });
                }
                None if looks_like_ballot(name) && called => {
                    let known: Vec<&str> = Op::BALLOT
                        .iter()
                        .map(|&op| source_name(language, op))
                        .filter(|n| looks_like_ballot(n))
                        .collect();
                    return Err((
                        LinkErrorKind::UnknownFunction,
                        format!(
                            "`{name}` is no subgroup ballot function; the ballot functions are {}",
                            known.join(", ")
                        ),
                        token.range(),
                    ));
                }
                // A subgroup function the emulation has no rule for: on
                // an emulated target, an error at the call, not the
                // validator's word that the target lacks subgroups.
                None if called && !target.has_subgroups() => {
                    return Err((
                        LinkErrorKind::Unsupported,
                        format!(
                            "`{name}` has no emulation on `{target}`: the emulated targets \
                             link {}; link this shader for `{}`, whose devices have \
                             subgroups",
                            emulated_names(language),
                            match language {
                                Language::Wgsl => "wgsl",
                                Language::Glsl => "glsl",
                            }
                        ),
                        token.range(),
                    ));
                }
                // Read on every target, for `require_entry_point`; only the
                // emulated ones replace them.
                None if language == Language::Glsl => {
                    if let Some(value) = match name {
                        "gl_SubgroupInvocationID" => Some(BuiltinValue::Lane),
                        "gl_SubgroupSize" => Some(BuiltinValue::Size),
                        "gl_SubgroupID" => Some(BuiltinValue::Id),
                        "gl_NumSubgroups" => Some(BuiltinValue::Count),
                        _ => None,
                    } {
                        builtins.push(Builtin {
                            name: token.range(),
                            value,
                        });
                    }
                }
                None => {}
            }
        }

        let mut shader = Shader {
            text,
            target,
            uses,
            barriers,
            builtins,
            entries: Vec::new(),
            structs: BTreeMap::new(),
            deletions: Vec::new(),
            has_enable: false,
            has_diagnostic: false,
            library_at: 0,
            defines: String::new(),
            prefix,
            has_entry_point: false,
            literal_sizes: Vec::new(),
            stage: ("comp", false),
            lane_from_rank: false,
            lane_as_u32: language == Language::Wgsl,
            uses_subgroups,
        };
        match language {
            Language::Wgsl => shader.read_wgsl(&tokens)?,
            Language::Glsl => shader.read_glsl(&tokens),
        }
        Ok(shader)
    }

    fn read_wgsl(&mut self, tokens: &[Token]) -> Result<(), ReadError> {
        let text = self.text;
        let s = |i: usize| tokens.get(i).map_or("", |t| &text[t.range()]);
        // Directives open the module.
        let mut i = 0;
        while matches!(s(i), "enable" | "requires" | "diagnostic") {
            let start = i;
            while i < tokens.len() && s(i) != ";" {
                i += 1;
            }
            if i == tokens.len() {
                // Cut short: naga says so, on the text as it is.
                break;
            }
            let words: Vec<&str> = (start..i).map(s).collect();
            // `enable subgroups;`, or `subgroups` in a list (`enable f16,
            // subgroups;`): naga's targets lose that name only.
            let item = (start + 1..i).find(|&k| s(k) == "subgroups");
            if let (Some(k), true) = (item, words[0] == "enable") {
                self.has_enable = true;
                if self.target != Target::WgslWeb {
                    let names = words[1..].iter().filter(|w| **w != ",").count();
                    let range = if names == 1 {
                        tokens[start].range().start..tokens[i].range().end
                    } else if s(k + 1) == "," {
                        tokens[k].range().start..tokens[k + 1].range().end
                    } else {
                        // Last in the list: the comma before it goes.
                        tokens[k - 1].range().start..tokens[k].range().end
                    };
                    self.deletions.push(range);
                }
            }
            // Any global filter of the rule: a second one of another
            // severity would be an error. `error` itself fails the helpers.
            if words.len() >= 5
                && words[..2] == ["diagnostic", "("]
                && words[4] == "subgroup_uniformity"
            {
                if words[2] == "error"
                    && self.target == Target::WgslWeb
                    && !self.linked_ops().is_empty()
                {
                    return Err((
                        LinkErrorKind::Unsupported,
                        "the linked functions branch on lane values before subgroup \
                         functions: `subgroup_uniformity` must not be an error (make it \
                         `off` or `warning`)"
                            .to_string(),
                        tokens[start].range().start..tokens[i].range().end,
                    ));
                }
                self.has_diagnostic = true;
            }
            i += 1;
        }
        self.library_at = tokens.get(i).map_or(text.len(), |t| t.range().start);
        let mut in_params = Vec::new();
        self.read_wgsl_structs(tokens);
        for at in 0..tokens.len() {
            // `@` first, by its kind: the one test most tokens take.
            if tokens[at].kind != Kind::Punct(b'@') {
                continue;
            }
            // Vertex entry points read no subgroup built-in: WGSL has
            // subgroups in compute and fragment shaders only.
            let compute = match (s(at), s(at + 1)) {
                ("@", "compute") => true,
                ("@", "fragment") => false,
                _ => continue,
            };
            let mut i = at + 2;
            while i < tokens.len() && s(i) != "fn" {
                i += 1;
            }
            let name = i + 1;
            let open = name + 1;
            if s(open) != "(" {
                continue;
            }
            let mut depth = 0usize;
            let mut close = open;
            let mut params = Vec::new();
            let mut param_start = open + 1;
            while close < tokens.len() {
                match s(close) {
                    "(" | "[" | "<" if close > open => depth += 1,
                    ")" | "]" | ">" if depth > 0 => depth -= 1,
                    ")" => break,
                    "," if depth == 0 => {
                        params.push(param_start..close);
                        param_start = close + 1;
                    }
                    _ => {}
                }
                if close == open {
                    depth = 0;
                }
                close += 1;
            }
            let trailing_comma = param_start == close && close > open + 1;
            if param_start < close {
                params.push(param_start..close);
            }
            let mut body = close;
            while body < tokens.len() && s(body) != "{" {
                body += 1;
            }
            if body >= tokens.len() {
                continue;
            }
            let mut entry = Entry {
                compute,
                name: tokens[name].range(),
                close: tokens[close].range().start,
                params: Vec::new(),
                trailing_comma,
                body: tokens[body].range().end,
            };
            for p in params {
                in_params.push(p.clone());
                // `@builtin(x) name : type`, attributes in any order.
                let mut j = p.start;
                let mut builtin = None;
                while s(j) == "@" {
                    if s(j + 1) == "builtin" && s(j + 2) == "(" {
                        builtin = Some(s(j + 3).to_string());
                    }
                    j += 2;
                    if s(j) == "(" {
                        while j < p.end && s(j) != ")" {
                            j += 1;
                        }
                        j += 1;
                    }
                }
                let ty = if s(j + 1) == ":" { s(j + 2) } else { "" };
                entry.params.push(Param {
                    builtin: builtin.unwrap_or_default(),
                    name: s(j).to_string(),
                    ty: ty.to_string(),
                    range: tokens[p.start].range().start..tokens[p.end - 1].range().end,
                });
            }
            self.entries.push(entry);
        }
        self.read_wgsl_attributes(tokens);
        if !self.target.has_subgroups() {
            self.emulate_struct_builtins(tokens)?;
        }
        // The built-ins the linker reads must be parameters or members of
        // a parameter's struct, where it can name them.
        let in_entry_struct = |at: usize| {
            self.structs.iter().any(|(name, decl)| {
                decl.builtins.iter().any(|m| m.range.contains(&at))
                    && self
                        .entries
                        .iter()
                        .flat_map(|e| &e.params)
                        .any(|q| q.ty == *name)
            })
        };
        if self.links_any() {
            // `@` first, by its kind: the one test most tokens take.
            for j in 0..tokens.len() {
                if tokens[j].kind != Kind::Punct(b'@') {
                    continue;
                }
                let read = match s(j + 3) {
                    "subgroup_invocation_id" | "subgroup_size" => true,
                    "local_invocation_index" | "subgroup_id" | "num_subgroups" => {
                        !self.target.has_subgroups()
                    }
                    _ => false,
                };
                if s(j + 1) == "builtin"
                    && read
                    && !in_params.iter().any(|p| p.contains(&j))
                    && !in_entry_struct(tokens[j].range().start)
                {
                    return Err((
                        LinkErrorKind::Unsupported,
                        format!(
                            "the linker reads `@builtin({})` from the entry point's \
                             parameters: declare it as one, or as a member of a parameter's \
                             struct",
                            s(j + 3)
                        ),
                        tokens[j].range().start..tokens[j + 4].range().end,
                    ));
                }
            }
        }
        Ok(())
    }

    /// The WGSL structs with built-in members: `struct Name { @builtin(x)
    /// member: type, … }`, attributes in any order.
    fn read_wgsl_structs(&mut self, tokens: &[Token]) {
        let text = self.text;
        let s = |i: usize| tokens.get(i).map_or("", |t| &text[t.range()]);
        for at in 0..tokens.len() {
            if tokens[at].kind != Kind::Ident || s(at) != "struct" || s(at + 2) != "{" {
                continue;
            }
            let mut members = Vec::new();
            let mut fields = 0;
            let mut i = at + 3;
            while i < tokens.len() && s(i) != "}" {
                let start = i;
                fields += 1;
                let mut builtin = None;
                while s(i) == "@" {
                    if s(i + 1) == "builtin" && s(i + 2) == "(" {
                        builtin = Some(s(i + 3).to_string());
                    }
                    i += 2;
                    if s(i) == "(" {
                        while i < tokens.len() && s(i) != ")" {
                            i += 1;
                        }
                        i += 1;
                    }
                }
                let name = s(i).to_string();
                // To the member's end: a comma at depth 0, or the `}`.
                let mut depth = 0usize;
                while i < tokens.len() {
                    match s(i) {
                        "<" | "(" | "[" => depth += 1,
                        ">" | ")" | "]" => depth = depth.saturating_sub(1),
                        "," if depth == 0 => break,
                        "}" if depth == 0 => break,
                        _ => {}
                    }
                    i += 1;
                }
                let end = if s(i) == "," { i } else { i.saturating_sub(1) };
                if let (Some(builtin), Some(last)) = (builtin, tokens.get(end)) {
                    members.push(Member {
                        builtin,
                        name,
                        range: tokens[start].range().start..last.range().end,
                    });
                }
                if s(i) == "," {
                    i += 1;
                }
                if i == start {
                    break;
                }
            }
            if !members.is_empty() {
                let decl = Struct {
                    builtins: members,
                    fields,
                };
                self.structs.insert(s(at + 1).to_string(), decl);
            }
        }
    }

    /// On an emulated target, the subgroup built-ins an entry point's
    /// struct parameter holds are the emulation's: each such member goes
    /// from its struct, and the body's reads of it (`input.lane`) become
    /// the emulated value, as a parameter's do.
    fn emulate_struct_builtins(&mut self, tokens: &[Token]) -> Result<(), ReadError> {
        let text = self.text;
        let s = |i: usize| tokens.get(i).map_or("", |t| &text[t.range()]);
        let mut removed: BTreeMap<&str, Vec<&Member>> = BTreeMap::new();
        let mut reads = Vec::new();
        for entry in &self.entries {
            let first = tokens.partition_point(|t| t.range().start < entry.body);
            let mut depth = 0usize;
            let end = (first..tokens.len())
                .find(|&k| match s(k) {
                    "{" => {
                        depth += 1;
                        false
                    }
                    "}" if depth == 0 => true,
                    "}" => {
                        depth -= 1;
                        false
                    }
                    _ => false,
                })
                .unwrap_or(tokens.len());
            for q in &entry.params {
                let Some(decl) = self.structs.get(&q.ty) else {
                    continue;
                };
                for m in &decl.builtins {
                    let Some(value) = BuiltinValue::of_wgsl(&m.builtin) else {
                        continue;
                    };
                    let list = removed.entry(q.ty.as_str()).or_default();
                    if !list.iter().any(|r| r.range == m.range) {
                        list.push(m);
                    }
                    for k in first..end {
                        if s(k) == q.name
                            && s(k + 1) == "."
                            && s(k + 2) == m.name
                            && (k == 0 || s(k - 1) != ".")
                        {
                            reads.push(Builtin {
                                name: tokens[k].range().start..tokens[k + 2].range().end,
                                value,
                            });
                        }
                    }
                }
            }
        }
        for (name, members) in removed {
            if self.structs[name].fields == members.len() {
                let at = members[0].range.clone();
                return Err((
                    LinkErrorKind::Unsupported,
                    format!(
                        "struct `{name}` holds only subgroup built-ins, which the emulation \
                         replaces: a struct left empty is no WGSL; declare them as the entry \
                         point's parameters"
                    ),
                    at,
                ));
            }
            for m in members {
                self.deletions.push(whole_line(text, m.range.clone()));
            }
        }
        self.builtins.extend(reads);
        Ok(())
    }

    /// How `entry`'s body reads `builtin`: a parameter's name, or a
    /// parameter's member (`input.lane`) where a struct holds it.
    fn builtin_access(&self, entry: &Entry, builtin: &str) -> Option<String> {
        entry.params.iter().find_map(|q| {
            if q.builtin == builtin {
                return Some(q.name.clone());
            }
            let member = self
                .structs
                .get(&q.ty)?
                .builtins
                .iter()
                .find(|m| m.builtin == builtin)?;
            Some(format!("{}.{}", q.name, member.name))
        })
    }

    /// The WGSL entry points' attributes: whether there is an entry point
    /// of any stage, and each compute entry point's literal workgroup size.
    /// An attribute list is the `@name(…)`s before `fn`; any other token
    /// ends one (a member's, a parameter's, a variable's).
    fn read_wgsl_attributes(&mut self, tokens: &[Token]) {
        let text = self.text;
        let s = |i: usize| tokens.get(i).map_or("", |t| &text[t.range()]);
        let (mut compute, mut size) = (false, None);
        let mut i = 0;
        while i < tokens.len() {
            if tokens[i].kind != Kind::Punct(b'@') {
                if compute && s(i) == "fn" {
                    self.literal_sizes.push(size);
                }
                (compute, size) = (false, None);
                i += 1;
                continue;
            }
            let name = s(i + 1);
            let mut j = i + 2;
            let mut args = j..j;
            if s(j) == "(" {
                let mut depth = 0usize;
                while j < tokens.len() {
                    match s(j) {
                        "(" => depth += 1,
                        ")" if depth <= 1 => break,
                        ")" => depth -= 1,
                        _ => {}
                    }
                    j += 1;
                }
                args = i + 3..j;
                j += 1;
            }
            match name {
                "compute" => {
                    compute = true;
                    self.has_entry_point = true;
                }
                "vertex" | "fragment" => self.has_entry_point = true,
                "workgroup_size" => size = literal_size(text, &tokens[args.clone()]),
                _ => {}
            }
            i = j;
        }
    }

    fn read_glsl(&mut self, tokens: &[Token]) {
        let text = self.text;
        let s = |i: usize| tokens.get(i).map_or("", |t| &text[t.range()]);
        // `layout(local_size_x = 64, …) in;`: the workgroup size, where it
        // is literals; more than one such line is left to naga.
        let mut sizes = Vec::new();
        for i in 0..tokens.len() {
            if s(i) != "layout" || s(i + 1) != "(" {
                continue;
            }
            let Some(n) = (i + 2..tokens.len()).find(|&k| s(k) == ")") else {
                continue;
            };
            if s(n + 1) != "in" || s(n + 2) != ";" {
                continue;
            }
            let items = &tokens[i + 2..n];
            if !items
                .iter()
                .any(|t| text[t.range()].starts_with("local_size_"))
            {
                continue;
            }
            let mut size = Some([1, 1, 1]);
            for item in items.split(|t| t.kind == Kind::Punct(b',')) {
                let word = |k: usize| item.get(k).map_or("", |t| &text[t.range()]);
                let axis = match word(0) {
                    "local_size_x" => 0,
                    "local_size_y" => 1,
                    "local_size_z" => 2,
                    _ => continue,
                };
                match (word(1), item.get(2).map(|t| t.kind), item.len()) {
                    ("=", Some(Kind::Number), 3) => {
                        if let (Some(s), Some(v)) = (size.as_mut(), integer(word(2))) {
                            s[axis] = v;
                        } else {
                            size = None;
                        }
                    }
                    _ => size = None,
                }
            }
            sizes.push(size);
        }
        if let [size] = sizes[..] {
            self.literal_sizes.push(size);
        }
        for (i, token) in tokens.iter().enumerate() {
            if token.kind == Kind::Directive {
                let line = s(i);
                let words: Vec<&str> = line
                    .trim_start_matches('#')
                    .split(|c: char| c.is_whitespace() || c == ':')
                    .filter(|w| !w.is_empty())
                    .collect();
                if words.first() == Some(&"version") {
                    self.library_at = token.range().end;
                }
                if words.first() == Some(&"extension")
                    && words
                        .get(1)
                        .is_some_and(|e| e.starts_with("GL_KHR_shader_subgroup"))
                    && !self.target.has_subgroups()
                {
                    self.deletions.push(token.range());
                }
            }
            if s(i) == "void" && s(i + 1) == "main" && s(i + 2) == "(" {
                let mut close = i + 3;
                while close < tokens.len() && s(close) != ")" {
                    close += 1;
                }
                let mut body = close;
                while body < tokens.len() && s(body) != "{" && s(body) != ";" {
                    body += 1;
                }
                if s(body) == "{" {
                    self.entries.push(Entry {
                        // The file's stage, which `require_compute` reads.
                        compute: true,
                        name: tokens[i + 1].range(),
                        close: tokens.get(close).map_or(text.len(), |t| t.range().start),
                        params: Vec::new(),
                        trailing_comma: false,
                        body: tokens[body].range().end,
                    });
                }
            }
        }
    }

    /// The one workgroup size every compute entry point spells in integer
    /// literals, if they do: a guess that naga's module must confirm.
    fn literal_workgroup_size(&self) -> Option<[u32; 3]> {
        let first = (*self.literal_sizes.first()?)?;
        self.literal_sizes
            .iter()
            .all(|&s| s == Some(first))
            .then_some(first)
    }

    /// A shader that calls a ballot function (or reads a subgroup built-in
    /// the emulation replaces) must have an entry point: the linked
    /// functions keep per-invocation state that the entry point sets up
    /// first, and without one nothing would, and they would compute wrong
    /// values once the user adds it. Refused on every target, those that
    /// link nothing too, so that a shader links for all or none.
    fn require_entry_point(&self) -> Result<(), ReadError> {
        let has_entry = match self.target.language() {
            Language::Wgsl => self.has_entry_point,
            Language::Glsl => !self.entries.is_empty(),
        };
        let first = self
            .uses
            .iter()
            .map(|u| u.name.clone())
            .chain(self.builtins.iter().map(|b| b.name.clone()))
            .min_by_key(|r| r.start);
        let (Some(at), false) = (first, has_entry) else {
            return Ok(());
        };
        let entry = match self.target.language() {
            Language::Wgsl => "an entry point (`@compute @workgroup_size(64) fn main(…)`)",
            Language::Glsl => "`void main()`",
        };
        Err((
            LinkErrorKind::Unsupported,
            format!(
                "the shader calls `{}` but has no entry point: the linked ballot functions \
                 are set up at the start of each entry point (`{}init`), so they would give \
                 wrong values in any shader this text is pasted into; link the whole shader, \
                 with {entry}, not a library of functions",
                &self.text[at.clone()],
                self.prefix
            ),
            at,
        ))
    }

    /// The emulated targets exchange through workgroup memory, which only
    /// compute shaders have: a shader that links the emulation has no
    /// entry point of another stage (WGSL), and is no other stage's file
    /// (GLSL, the stage from its extension). The hardware targets take
    /// fragment shaders too.
    fn require_compute(&self) -> Result<(), ReadError> {
        if self.target.has_subgroups() || !self.links_any() {
            return Ok(());
        }
        let why = "the emulated targets exchange lane values through workgroup memory, which \
                   only compute shaders have";
        match self.target.language() {
            Language::Wgsl => match self.entries.iter().find(|e| !e.compute) {
                Some(e) => Err((
                    LinkErrorKind::Unsupported,
                    format!(
                        "`{}` is a fragment entry point, in a shader that links subgroup \
                         emulation: {why}; link the fragment shader for `wgsl` or \
                         `wgsl-web`, or keep it in a file of its own",
                        &self.text[e.name.clone()]
                    ),
                    e.name.clone(),
                )),
                None => Ok(()),
            },
            Language::Glsl if self.stage.0 != "comp" => {
                let first = self
                    .uses
                    .iter()
                    .map(|u| u.name.clone())
                    .chain(self.builtins.iter().map(|b| b.name.clone()))
                    .min_by_key(|r| r.start)
                    .unwrap_or(0..0);
                Err((
                    LinkErrorKind::Unsupported,
                    format!(
                        "the file is a `{}` shader (from its extension): {why}; link it for \
                         `glsl`, or as a `.comp` compute shader",
                        self.stage.0
                    ),
                    first,
                ))
            }
            Language::Glsl => Ok(()),
        }
    }

    /// On `wgsl-no-subgroup`, each generic call's operation and types, as
    /// naga reads them in the shader linked for `wgsl` ([`types`]). Where
    /// that shader does not read or validate, the calls keep the `u32`
    /// functions, and the validator's verdict on the emulated text is the
    /// error.
    fn type_calls(&mut self) -> Result<(), ReadError> {
        let typed = |u: &Use| types::is_typed(u.op);
        if self.target == Target::GlslNoSubgroup && self.uses.iter().any(|u| u.value.is_some()) {
            return self.type_glsl_values();
        }
        if self.target != Target::WgslNoSubgroup || !self.uses.iter().any(typed) {
            return Ok(());
        }
        // Without types, `u32`'s.
        for u in self.uses.iter_mut().filter(|u| types::is_typed(u.op)) {
            u.typed = Some(types::Typed::plain(u.op));
        }
        let Ok(mut hardware) = Shader::read(self.text, Target::Wgsl) else {
            return Ok(());
        };
        // naga's rule on the lane id in two dimensions is no concern here,
        // nor its want of a `u32` lane.
        hardware.lane_from_rank = true;
        let written = hardware.write(&sizes(32, [64, 1, 1]));
        for (at, found) in types::calls(&written.text) {
            let Some(user) = written.origin(&(at..at + 1)) else {
                continue;
            };
            let Some(u) = self.uses.iter_mut().find(|u| u.name.start == user.start) else {
                continue;
            };
            match found {
                // One name, more than one operation: the type picks it.
                Ok(t) if linked_name(t.op) == linked_name(u.op) => {
                    u.op = t.op;
                    u.typed = Some(t);
                }
                Ok(_) => {}
                Err(ty) => {
                    let takes = match u.op {
                        Op::Arith(..) => {
                            "the emulation's arithmetic takes scalars and vectors \
                                          of u32, i32 and f32 (f16 would round once, in f32, \
                                          where a driver rounds each step)"
                        }
                        _ => "the emulation moves scalars and vectors of u32, i32, f32 and f16",
                    };
                    return Err((
                        LinkErrorKind::Unsupported,
                        format!("`{}` of a `{ty}`: {takes}", &self.text[u.name.clone()]),
                        u.name.clone(),
                    ));
                }
            }
        }
        Ok(())
    }

    /// Each GLSL generic call's value type, from glslang ([`glsl_types`]):
    /// a type the exchange cannot carry is refused at the call; the others
    /// are written around the value on `glsl-no-subgroup`, so that the
    /// if-conversion can declare a temporary of it. Where glslang's types
    /// do not match the calls line by line, none is taken.
    fn type_glsl_values(&mut self) -> Result<(), ReadError> {
        let Some(mut found) = glsl_types::values(self.text, self.stage.0, &self.defines) else {
            return Ok(());
        };
        // The uses are in the text's order: one pass counts their lines.
        let mut by_line: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
        let (mut line, mut counted) = (1u32, 0);
        for (i, u) in self.uses.iter().enumerate() {
            if u.value.is_some() {
                let newlines = self.text.as_bytes()[counted..u.name.start]
                    .iter()
                    .filter(|&&b| b == b'\n')
                    .count();
                line = line.saturating_add(u32::try_from(newlines).unwrap_or(u32::MAX));
                counted = u.name.start;
                by_line.entry(line).or_default().push(i);
            }
        }
        let matched = by_line.len() == found.len()
            && by_line
                .iter()
                .all(|(line, uses)| found.get(line).is_some_and(|t| t.len() == uses.len()));
        if !matched {
            return Ok(());
        }
        for (line, uses) in by_line {
            for (i, call) in uses
                .into_iter()
                .zip(found.remove(&line).unwrap_or_default())
            {
                let u = &mut self.uses[i];
                if let Some((_, size)) = u.cluster.as_mut() {
                    *size = call.cluster;
                }
                let ty = call.ty;
                // A value glslang's tree gives no type for (a constant):
                // the overloads decide.
                if ty.is_empty() {
                    continue;
                }
                if !glsl_types::carried(&ty) && !types::glsl_moves_wide(u.op, &ty) {
                    if u.op.arith().is_some() {
                        return Err((
                            LinkErrorKind::Unsupported,
                            format!(
                                "`{}` of a `{ty}`: the emulation's arithmetic takes `int`, \
                                 `uint` and `float` (and `bool` for And, Or and Xor) and their \
                                 vectors",
                                &self.text[u.name.clone()]
                            ),
                            u.name.clone(),
                        ));
                    }
                    return Err((
                        LinkErrorKind::Unsupported,
                        format!(
                            "`{}` of a `{ty}`: the emulation moves scalars and vectors of \
                             32-bit types and `bool`, and of `double`, `float16_t` and the 8-, \
                             16- and 64-bit integers",
                            &self.text[u.name.clone()]
                        ),
                        u.name.clone(),
                    ));
                }
                if let Some((_, slot)) = u.value.as_mut() {
                    *slot = Some(ty);
                }
            }
        }
        Ok(())
    }

    /// On `glsl-no-subgroup`, each clustered reduction's cluster size, as
    /// GL_KHR_shader_subgroup_clustered requires it: an integral constant
    /// expression, a power of two, at least 1 and at most the subgroup
    /// size, here the virtual one (`subgroup_size`), which the emulated
    /// helper reads clusters within; a larger one is undefined, and would
    /// mean another size on hardware. An integer literal is read here; any
    /// other expression (a `const` name, a macro, `K / 2u`) by glslang, whose
    /// tree gives the constant it folds it to ([`glsl_types`]), and which
    /// refuses a size that is not constant as it compiles the shader
    /// linked for `glsl`. Where neither gives a value, the size is refused:
    /// the helper takes it as an operand, and a size no power of two would
    /// read past its cluster. The error is at the size.
    fn check_cluster_sizes(&self, subgroup_size: u32) -> Result<(), ReadError> {
        if self.target != Target::GlslNoSubgroup {
            return Ok(());
        }
        for u in &self.uses {
            let Some((range, folded)) = &u.cluster else {
                continue;
            };
            let written = self.text[range.clone()].trim();
            let name = &self.text[u.name.clone()];
            let size = integer(written).map(i64::from).or(*folded);
            let rule = format!(
                "a power of two from 1 to the virtual subgroup size, {subgroup_size} \
                 (`LinkOptions::subgroup_size`)"
            );
            let message = match size {
                None => format!(
                    "the cluster size of `{name}`, `{written}`, must be an integral constant \
                     expression, {rule}: ballot reads it as an integer literal, or as the \
                     constant glslang folds it to at this call, and it is neither"
                ),
                Some(n) if n < 1 || n & (n - 1) != 0 => {
                    format!("the cluster size of `{name}` is {n}: it must be {rule}")
                }
                Some(n) if n > i64::from(subgroup_size) => format!(
                    "the cluster size of `{name}` is {n}, larger than the subgroup: it must \
                     be {rule}"
                ),
                Some(_) => continue,
            };
            return Err((LinkErrorKind::Invalid, message, range.clone()));
        }
        Ok(())
    }

    /// Whether the target lacks `op`, so that its calls are linked.
    fn links(&self, op: Op) -> bool {
        // GLSL's extensions have every operation; WGSL has its own, but
        // naga lacks `subgroupElect`.
        match self.target {
            Target::Glsl => false,
            Target::Wgsl | Target::WgslWeb => op.wgsl_name().is_none() || op == Op::Elect,
            Target::GlslNoSubgroup | Target::WgslNoSubgroup => true,
        }
    }

    /// Whether the linker links anything in: operations, or, emulated,
    /// the lane state behind the subgroup built-ins the shader reads
    /// (which it does even where it calls no ballot function).
    fn links_any(&self) -> bool {
        let reads_builtins = !self.builtins.is_empty()
            || self
                .entries
                .iter()
                .flat_map(|e| &e.params)
                .any(|q| BuiltinValue::of_wgsl(&q.builtin).is_some());
        // An operation links its namesakes too ([`Shader::linked_ops`]),
        // never none.
        self.uses.iter().any(|u| self.links(u.op))
            || !self.target.has_subgroups() && (reads_builtins || self.links_barrier())
    }

    /// Whether an emulated target links `subgroupBarrier`.
    fn links_barrier(&self) -> bool {
        !self.target.has_subgroups() && self.barriers.iter().any(|b| b.memory.is_none())
    }

    /// The operations linked in. In GLSL, whose one name may stand for
    /// several (`subgroupAdd`: `IAdd`, `FAdd`), all of them: the
    /// overloads go together, and glslang picks.
    fn linked_ops(&self) -> BTreeSet<Op> {
        let glsl = self.target.language() == Language::Glsl;
        // The distinct operations first: a shader makes many calls of few.
        let ops: BTreeSet<Op> = self
            .uses
            .iter()
            .map(|u| u.op)
            .filter(|&op| self.links(op))
            .collect();
        ops.into_iter()
            .flat_map(|op| match glsl && !op.is_ballot() {
                true => types::glsl_namesakes(op),
                false => vec![op],
            })
            .collect()
    }

    /// The linked text at the emulation's sizes `layout`.
    fn write(&self, layout: &ShaderOptions) -> Written {
        let target = self.target;
        let language = target.language();
        let emulated = !target.has_subgroups();
        let ops: Vec<Op> = self.linked_ops().into_iter().collect();
        let p = &self.prefix;
        // Each operation's name once, not once a call.
        let names: BTreeMap<Op, String> = ops
            .iter()
            .map(|&op| (op, format!("{p}{}", &linked_name(op)["ballot_".len()..])))
            .collect();
        let mut edits: Vec<Edit<'_>> = Vec::new();
        // A text the same at every call (a name, `true, `) is borrowed,
        // not allocated once a call.
        macro_rules! edit {
            ($range:expr, $text:expr, $blame:expr $(,)?) => {
                edits.push(Edit {
                    range: $range,
                    text: Cow::from($text),
                    blame: $blame,
                })
            };
        }
        for range in &self.deletions {
            edit!(range.clone(), "", range.clone());
        }
        for lane in self.uses.iter().filter_map(|u| u.lane.as_ref()) {
            if self.lane_as_u32 {
                edit!(lane.start..lane.start, "u32(".to_string(), lane.clone());
                edit!(lane.end..lane.end, ")".to_string(), lane.clone());
            }
        }
        for u in self.uses.iter().filter(|u| self.links(u.op)) {
            let mut name = Cow::from(names[&u.op].as_str());
            if let Some(suffix) = u.typed.as_ref().and_then(types::Typed::suffix) {
                name.to_mut().push_str(&suffix);
            }
            match u.args {
                None => edit!(u.name.clone(), format!("{name}()"), u.name.clone()),
                Some((after_open, more)) => {
                    edit!(u.name.clone(), name, u.name.clone());
                    if emulated && is_collective(u.op) {
                        let on = if more { "true, " } else { "true" };
                        edit!(after_open..after_open, on, u.name.clone());
                    }
                    // The value's type, written as a constructor (which
                    // changes no value) for the if-conversion to read,
                    // where the value is more than a name or a literal
                    // (whose type it reads itself): after the `on`
                    // argument where both go at one place.
                    let word = |v: &Range<usize>| {
                        self.text[v.clone()]
                            .bytes()
                            .all(|b| b.is_ascii_alphanumeric() || b == b'_')
                    };
                    if let Some((value, Some(ty))) = u.value.as_ref().filter(|(v, _)| !word(v)) {
                        edit!(value.start..value.start, format!("{ty}("), value.clone());
                        edit!(value.end..value.end, ")".to_string(), value.clone());
                    }
                }
            }
        }
        // The virtual subgroups are the workgroup's linear index cut into
        // runs of the virtual size (`ballot_init`).
        for b in self.builtins.iter().filter(|_| emulated) {
            edit!(b.name.clone(), b.value.emulated(p), b.name.clone());
        }
        for b in self.barriers.iter().filter(|_| emulated) {
            match b.memory {
                Some(memory) => edit!(b.name.clone(), memory.to_string(), b.name.clone()),
                None => {
                    edit!(
                        b.name.clone(),
                        format!("{p}subgroupBarrier"),
                        b.name.clone(),
                    );
                    edit!(
                        b.after_open..b.after_open,
                        "true".to_string(),
                        b.name.clone(),
                    );
                }
            }
        }
        let needs_init = self.links_any();
        if let Some(init) = target.init().filter(|_| needs_init) {
            let init_name = format!("{p}init");
            let init_call = |args: &[&str]| format!("{};", init.call_as(&init_name, args));
            for entry in &self.entries {
                let mut added = Vec::new();
                // The statements the body starts with.
                let mut body;
                match (language, emulated) {
                    (Language::Glsl, _) => {
                        body = vec![init_call(init.builtins)];
                    }
                    (Language::Wgsl, false) => {
                        let mut arg = |builtin: &str| match self.builtin_access(entry, builtin) {
                            Some(read) => read,
                            None => {
                                let name = format!("{p}{builtin}");
                                added.push(format!("@builtin({builtin}) {name}: u32"));
                                name
                            }
                        };
                        let lane = match self.lane_from_rank {
                            true => self
                                .builtin_access(entry, "subgroup_invocation_id")
                                .unwrap_or_else(|| format!("{p}entry_lane()")),
                            false => arg("subgroup_invocation_id"),
                        };
                        let size = arg("subgroup_size");
                        body = vec![init_call(&[&lane, &size])];
                    }
                    (Language::Wgsl, true) => {
                        let index = match self.builtin_access(entry, "local_invocation_index") {
                            Some(read) => read,
                            None => {
                                let name = format!("{p}local_invocation_index");
                                added.push(format!("@builtin(local_invocation_index) {name}: u32"));
                                name
                            }
                        };
                        body = vec![init_call(&[&index])];
                        // The subgroup built-ins become the emulation's.
                        for q in &entry.params {
                            let Some(value) = BuiltinValue::of_wgsl(&q.builtin) else {
                                continue;
                            };
                            let value = value.emulated(p);
                            // The parameter goes, with the comma after it
                            // (or, last, before it).
                            let rest = &self.text[q.range.end..entry.close];
                            let comma = rest.find(',').filter(|&c| rest[..c].trim().is_empty());
                            let range = match comma {
                                Some(c) => q.range.start..q.range.end + c + 1,
                                None => q.range.clone(),
                            };
                            edit!(whole_line(self.text, range), String::new(), q.range.clone());
                            body.push(format!("let {} = {value};", q.name));
                        }
                    }
                }
                if !added.is_empty() {
                    let removed =
                        |q: &Param| emulated && BuiltinValue::of_wgsl(&q.builtin).is_some();
                    // The added ones need a comma before them only after a
                    // last parameter that stays and has none: a removed
                    // parameter takes the comma after it, so the one
                    // before it keeps its own.
                    let needs_comma = entry
                        .params
                        .last()
                        .is_some_and(|q| !removed(q) && !entry.trailing_comma);
                    // The parameter list, after the `(` that follows the name.
                    let open = self.text[entry.name.end..entry.close]
                        .find('(')
                        .map_or(entry.close, |n| entry.name.end + n + 1);
                    let list = &self.text[open..entry.close];
                    let close_line = list.rfind('\n').map(|n| open + n + 1);
                    match close_line.filter(|&at| self.text[at..entry.close].trim().is_empty()) {
                        // One parameter a line, `)` on a line of its own: one
                        // line each, indented as the first.
                        Some(at) => {
                            if let (true, Some(last)) = (needs_comma, entry.params.last()) {
                                let end = last.range.end;
                                edit!(end..end, ",".to_string(), entry.name.clone());
                            }
                            let first = list.trim_start_matches(['\r', '\n']);
                            let indent = &first[..first.len() - first.trim_start().len()];
                            let indent = if indent.is_empty() { "    " } else { indent };
                            let lines: String =
                                added.iter().map(|a| format!("{indent}{a},\n")).collect();
                            edit!(at..at, lines, entry.name.clone());
                        }
                        None => {
                            let lead = if needs_comma { ", " } else { "" };
                            edit!(
                                entry.close..entry.close,
                                format!("{lead}{}", added.join(", ")),
                                entry.name.clone(),
                            );
                        }
                    }
                }
                edit!(
                    entry.body..entry.body,
                    statements(self.text, entry.body, &body),
                    entry.name.clone(),
                );
            }
        }
        edits.sort_by_key(|e| (e.range.start, e.range.end));

        // The linked functions, under the prefix.
        let wanted = match target {
            // The extension's own functions: only its `#extension` lines.
            Target::Glsl => !self.uses.is_empty(),
            _ => needs_init,
        };
        let library = if !wanted {
            String::new()
        } else {
            let mut text = library(target, &ops, layout, self.links_barrier());
            if self.links_barrier() {
                text.push_str(barrier_function(language));
            }
            if self.lane_from_rank && target.has_subgroups() {
                text.push_str(ENTRY_LANE);
            }
            // The generic calls' typed functions: the broadcasts of other
            // types than the library's, and the rest of the family.
            if emulated {
                let typed: BTreeSet<types::Typed> =
                    self.uses.iter().filter_map(|u| u.typed).collect();
                for t in typed.iter().filter(|t| t.suffix().is_some()) {
                    text.push_str(&t.wrapper());
                }
                if language == Language::Glsl {
                    // Each operation its own types' overloads: `ops` holds
                    // every namesake of a name called (`linked_ops`).
                    for &op in ops.iter().filter(|&&op| ballot_ir::ir::op_is_generic(op)) {
                        text.push_str(&types::glsl_overloads(op));
                    }
                    // Values of 8, 16 and 64 bits, through those.
                    let wide: BTreeSet<(Op, String)> = self
                        .uses
                        .iter()
                        .filter_map(|u| Some((u.op, u.value.as_ref()?.1.clone()?)))
                        .filter(|(op, ty)| types::glsl_moves_wide(*op, ty))
                        .collect();
                    text.push_str(&types::glsl_wide_overloads(&wide));
                    text.insert_str(0, &types::glsl_wide_extensions(&wide));
                }
            }
            rename(&text, language, p)
        };
        let functions = defined_functions(&library, language);
        // The caller's defines, after `#version` and before all else.
        let library = format!("{}{library}", self.defines);

        let mut out = Out::default();
        let (directives, library_at) = match language {
            Language::Glsl => (String::new(), self.library_at),
            Language::Wgsl => {
                let mut d = String::new();
                // Tint refuses any subgroup name without the directive,
                // WGSL's own `subgroupBallot` too.
                if target == Target::WgslWeb
                    && !self.has_enable
                    && (!ops.is_empty() || self.uses_subgroups)
                {
                    d.push_str("enable subgroups;\n");
                }
                if target == Target::WgslWeb && !ops.is_empty() && !self.has_diagnostic {
                    d.push_str("diagnostic(off, subgroup_uniformity);\n");
                }
                (d, self.library_at)
            }
        };
        // One allocation each: the text is at most the user's, the
        // library's and every edit's, in a piece before each edit and
        // each edit's own.
        out.text.reserve(
            directives.len()
                + library.len()
                + self.text.len()
                + edits.iter().map(|e| e.text.len()).sum::<usize>(),
        );
        out.pieces.reserve(2 * edits.len() + 4);
        out.generated(&directives, None);
        let mut from = 0;
        let mut library_written = false;
        for e in &edits {
            if !library_written && library_at <= e.range.start {
                out.user(self.text, from..library_at);
                out.generated(&library, None);
                from = library_at;
                library_written = true;
            }
            out.user(self.text, from..e.range.start);
            out.generated(&e.text, Some(e.blame.clone()));
            from = e.range.end;
        }
        if !library_written {
            out.user(self.text, from..library_at);
            out.generated(&library, None);
            from = library_at;
        }
        out.user(self.text, from..self.text.len());
        Written {
            text: out.text,
            pieces: out.pieces,
            functions,
        }
    }
}

struct Edit<'a> {
    range: Range<usize>,
    text: Cow<'a, str>,
    /// What in the user's text an error in `text` is blamed on.
    blame: Range<usize>,
}

/// Where a piece of the linked text comes from.
#[derive(Clone, Debug)]
enum Origin {
    /// The user's text, from this offset on.
    User(usize),
    /// Written by the linker in place of (or next to) this user range.
    Edit(Range<usize>),
    /// The linked functions and directives.
    Linked,
}

#[derive(Default)]
struct Out {
    text: String,
    pieces: Vec<(Range<usize>, Origin)>,
}

impl Out {
    fn user(&mut self, source: &str, range: Range<usize>) {
        if range.is_empty() {
            return;
        }
        let start = self.text.len();
        self.text.push_str(&source[range.clone()]);
        self.pieces
            .push((start..self.text.len(), Origin::User(range.start)));
    }

    fn generated(&mut self, text: &str, blame: Option<Range<usize>>) {
        if text.is_empty() {
            return;
        }
        let start = self.text.len();
        self.text.push_str(text);
        let origin = blame.map_or(Origin::Linked, Origin::Edit);
        self.pieces.push((start..self.text.len(), origin));
    }
}

/// A linked text, and where each of its pieces comes from.
struct Written {
    text: String,
    pieces: Vec<(Range<usize>, Origin)>,
    functions: Vec<String>,
}

impl Written {
    /// This emulated target's text with the functions that reach an
    /// exchange if-converted ([`converge`]); a refusal is on the user's
    /// file, through this text's pieces.
    fn converge(&self, shader: &Shader<'_>, path: &str) -> Result<reconverge::Printed, LinkError> {
        let language = shader.target.language();
        converge::converge(&self.text, language, &shader.prefix, &self.functions).map_err(|r| {
            // A text the reader cannot read is most often one naga rejects:
            // its verdict says more. One it accepts is refused, never
            // linked unconverted.
            if r.unread {
                if let Err(rejected) = judge::judge(shader.target, &self.text, shader.stage) {
                    return self.error(shader, path, rejected.1);
                }
            }
            let mut message = if r.unread {
                format!(
                    "{}: the emulated targets rewrite the functions that reach a collective, \
                     and cannot read this one",
                    r.message
                )
            } else {
                r.message
            };
            let at = self.origin(&r.at);
            // A linked function's name, as the user wrote the call.
            if let (Some(linked), Some(user)) = (self.text.get(r.at.clone()), at.as_ref()) {
                if linked.starts_with(&shader.prefix) {
                    message = message.replace(
                        &format!("`{linked}`"),
                        &format!("`{}`", &shader.text[user.clone()]),
                    );
                }
            }
            LinkError {
                kind: LinkErrorKind::Unsupported,
                path: path.to_string(),
                target: shader.target,
                message,
                location: at.map(|at| Box::new(locate(shader.text, at, String::new()))),
                notes: Box::default(),
            }
        })
    }

    /// naga's verdict on `converged`, the conversion of this text, as an
    /// error on the user's file: its labels taken back through both.
    fn error_through(
        &self,
        converged: &reconverge::Printed,
        shader: &Shader<'_>,
        path: &str,
        mut d: Diagnostic,
    ) -> LinkError {
        let all = d.labels.len();
        d.labels = d
            .labels
            .iter()
            .filter_map(|(r, label)| Some((converged.origin(r)?, label.clone())))
            .collect();
        if d.labels.len() < all && d.labels.is_empty() {
            return LinkError {
                kind: LinkErrorKind::Bug,
                path: path.to_string(),
                target: shader.target,
                message: format!(
                    "{} rejects the if-converted text (a bug in ballot): {}",
                    judge::validator(shader.target.language()),
                    d.message
                ),
                location: None,
                notes: d.notes.into(),
            };
        }
        self.error(shader, path, d)
    }

    /// The user's range behind `range` of the linked text, or `None` where
    /// it starts in linked code.
    fn origin(&self, range: &Range<usize>) -> Option<Range<usize>> {
        // naga puts "expected `}`" of a text cut short at its very end,
        // past every piece: that is the last piece's.
        let at_end = |p: &Range<usize>| range.start == p.end && p.end == self.text.len();
        let (piece, origin) = self
            .pieces
            .iter()
            .find(|(p, _)| p.contains(&range.start) || at_end(p))?;
        match origin {
            // An empty range stays so: `locate` shows it as one character.
            Origin::User(at) => {
                let start = at + (range.start - piece.start);
                let end = at + (range.end.min(piece.end) - piece.start);
                Some(start..end.max(start))
            }
            Origin::Edit(blame) => Some(blame.clone()),
            Origin::Linked => None,
        }
    }

    /// naga's verdict on this text as an error on the user's file: at the
    /// innermost label in the user's code, or, where every label is in
    /// linked code, a bug in ballot.
    fn error(&self, shader: &Shader<'_>, path: &str, d: Diagnostic) -> LinkError {
        let mapped: Vec<(Range<usize>, String)> = d
            .labels
            .iter()
            .filter_map(|(r, label)| Some((self.origin(r)?, label.clone())))
            .collect();
        let base = LinkError {
            kind: LinkErrorKind::Invalid,
            path: path.to_string(),
            target: shader.target,
            message: d.message.clone(),
            location: None,
            notes: d.notes.clone().into(),
        };
        match mapped.last() {
            Some((range, label)) => LinkError {
                location: Some(Box::new(locate(shader.text, range.clone(), label.clone()))),
                ..base
            },
            None if !d.labels.is_empty() => {
                let (range, label) = &d.labels[d.labels.len() - 1];
                let at = locate(&self.text, range.clone(), label.clone());
                LinkError {
                    kind: LinkErrorKind::Bug,
                    message: format!(
                        "{} (at line {} of the linked text: `{}`)",
                        d.message,
                        at.line,
                        at.line_text.trim()
                    ),
                    ..base
                }
            }
            // naga gives an entry point's errors (its built-ins, its
            // workgroup) no span: they are on the entry point's name.
            None => {
                let name = d
                    .message
                    .strip_prefix("Entry point ")
                    .and_then(|m| m.split_once(' '))
                    .map(|(name, _)| name);
                let entry = shader
                    .entries
                    .iter()
                    .find(|e| Some(&shader.text[e.name.clone()]) == name);
                LinkError {
                    location: entry
                        .map(|e| Box::new(locate(shader.text, e.name.clone(), String::new()))),
                    ..base
                }
            }
        }
    }
}

/// `range`, widened to its whole line where nothing else is on it: the
/// line goes, its line break before it included.
fn whole_line(text: &str, range: Range<usize>) -> Range<usize> {
    let start = text[..range.start].rfind('\n');
    let end = text[range.end..]
        .find('\n')
        .map_or(text.len(), |n| range.end + n);
    match start {
        Some(nl)
            if text[nl + 1..range.start].trim().is_empty()
                && text[range.end..end].trim().is_empty() =>
        {
            nl..end
        }
        _ => range,
    }
}

/// `statements` as they go right after the `{` at `body`: a line each,
/// indented as the body's first line, where the body starts on a new line;
/// else on the brace's line.
fn statements(text: &str, body: usize, statements: &[String]) -> String {
    let rest = &text[body..];
    let multiline = rest.trim_start_matches([' ', '\t', '\r']).starts_with('\n');
    if !multiline {
        return statements.iter().map(|s| format!(" {s}")).collect();
    }
    let indent = rest
        .lines()
        .skip(1)
        .find(|l| !l.trim().is_empty())
        .map_or("    ", |l| &l[..l.len() - l.trim_start().len()]);
    let indent = if indent.is_empty() { "    " } else { indent };
    statements
        .iter()
        .map(|s| format!("\n{indent}{s}"))
        .collect()
}

/// How many lines end in `text`: at `\r\n`, `\n` or a lone `\r`, as
/// editors count them (a file from an old Mac has only `\r`).
fn line_ends(text: &str) -> usize {
    let bytes = text.as_bytes();
    let crs = bytes
        .iter()
        .enumerate()
        .filter(|&(i, &b)| b == b'\r' && bytes.get(i + 1) != Some(&b'\n'))
        .count();
    bytes.iter().filter(|&&b| b == b'\n').count() + crs
}

/// The location of `range` in `text`, widened to whole characters. Lines
/// end at `\r\n`, `\n` and a lone `\r`.
fn locate(text: &str, range: Range<usize>, label: String) -> Location {
    let mut start = range.start.min(text.len());
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    let line_start = text[..start].rfind(['\n', '\r']).map_or(0, |i| i + 1);
    let line_end = text[start..]
        .find(['\n', '\r'])
        .map_or(text.len(), |i| start + i);
    let line_text = text[line_start..line_end].to_string();
    let column = text[line_start..start].chars().count() as u32 + 1;
    let mut end = range.end.clamp(start, line_end);
    while !text.is_char_boundary(end) {
        end += 1;
    }
    let length = text[start..end].chars().count().max(1) as u32;
    Location {
        line: line_ends(&text[..start]) as u32 + 1,
        column,
        length,
        line_text,
        label,
    }
}

/// The functions (and lane state) behind `ops` on `target`, named
/// `ballot_*`, each public one under `ballot_` + its GLSL name without
/// `gl_` (`ballot_subgroupBallotBitCount`, `ballot_subgroupEqMask`).
fn library(target: Target, ops: &[Op], options: &ShaderOptions, barrier: bool) -> String {
    let language = target.language();
    let emulated = !target.has_subgroups();
    let name = linked_name;
    let mut out =
        String::from("\n// Linked by ballot: the subgroup functions this shader calls.\n");
    match (language, emulated) {
        (Language::Glsl, false) => {
            out.push_str("#extension GL_KHR_shader_subgroup_basic : require\n");
            out.push_str("#extension GL_KHR_shader_subgroup_ballot : require\n");
        }
        (Language::Glsl, true) => {
            out.push_str(&ballot_shader::back::glsl::emulated_constants(
                options, false, 1,
            ));
            let helpers = polyfill::helpers_of(language, true, ops);
            let helpers = with_vote(language, helpers, ops, barrier);
            ballot_shader::back::glsl::helpers::write_all(&mut out, &helpers);
            polyfill::glsl_public(&mut out, &untyped(ops), &name, false);
        }
        (Language::Wgsl, _) => {
            let mut helpers = polyfill::helpers_of(language, emulated, ops);
            if emulated {
                helpers = with_vote(language, helpers, ops, barrier);
            }
            out.push_str(&ballot_shader::back::wgsl::lane_state(
                emulated, options, &helpers, 1,
            ));
            for helper in helpers {
                out.push('\n');
                out.push_str(
                    ballot_shader::back::wgsl::helpers::text(helper, emulated).unwrap_or_default(),
                );
            }
            polyfill::wgsl_public(&mut out, target, &untyped(ops), &name, false);
        }
    }
    // A blank line between the linked functions and the shader's own code.
    out.push('\n');
    out
}

/// The operations of `ops` whose public functions the polyfill library
/// writes as the linker needs them: the ballot family and the votes on a
/// `bool`. The generic ones get typed functions ([`types`]), the
/// broadcasts besides the library's `u32` and `vec4<u32>` ones.
fn untyped(ops: &[Op]) -> Vec<Op> {
    ops.iter()
        .copied()
        .filter(|&op| op.is_ballot() || !ballot_ir::ir::op_is_generic(op))
        .collect()
}

/// `helpers`, with the workgroup vote and what it needs where `ops` holds
/// an exchange or the shader a linked `barrier`: the if-conversion's loops
/// that hold one leave by it ([`converge`]).
fn with_vote(
    language: Language,
    helpers: BTreeSet<Helper>,
    ops: &[Op],
    barrier: bool,
) -> BTreeSet<Helper> {
    if !barrier && !ops.iter().any(|&op| is_collective(op)) {
        return helpers;
    }
    let mut needs = Needs::new(language, true);
    for helper in helpers {
        needs.add(helper);
    }
    needs.add(Helper::WorkgroupAny);
    needs.into_set()
}

/// The linked function of `op`: `ballot_` + its GLSL name without `gl_`
/// (`ballot_subgroupBallotBitCount`, `ballot_subgroupEqMask`).
fn linked_name(op: Op) -> String {
    let glsl = op.glsl_name();
    format!("ballot_{}", glsl.strip_prefix("gl_").unwrap_or(glsl)).replace("ballot_S", "ballot_s")
}

/// Whether `op` is a GLSL built-in variable (the masks).
fn is_mask(op: Op) -> bool {
    op.glsl_name().starts_with("gl_")
}

/// Whether `op` exchanges values between lanes: emulated, it holds
/// barriers and takes the `on` flag. The ballot family's four, and every
/// other operation of the family.
fn is_collective(op: Op) -> bool {
    !op.is_ballot()
        || matches!(
            op,
            Op::Ballot | Op::Elect | Op::Broadcast | Op::BroadcastFirst
        )
}

/// `text` with every identifier that starts with `ballot_` under `prefix`.
fn rename(text: &str, language: Language, prefix: &str) -> String {
    if prefix == "ballot_" {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + 256);
    let mut from = 0;
    for token in lex(text, language) {
        let word = &text[token.range()];
        if token.kind == Kind::Ident {
            if let Some(rest) = word.strip_prefix("ballot_") {
                out.push_str(&text[from..token.range().start]);
                out.push_str(prefix);
                out.push_str(rest);
                from = token.range().end;
            }
        }
    }
    out.push_str(&text[from..]);
    out
}

/// The names of the functions `text` defines.
fn defined_functions(text: &str, language: Language) -> Vec<String> {
    let tokens = lex(text, language);
    let s = |i: usize| tokens.get(i).map_or("", |t| &text[t.range()]);
    let mut names = Vec::new();
    let mut depth = 0usize;
    for (i, t) in tokens.iter().enumerate() {
        match t.kind {
            Kind::Punct(b'{') => depth += 1,
            Kind::Punct(b'}') => depth = depth.saturating_sub(1),
            Kind::Ident if depth == 0 => {
                let defines = match language {
                    Language::Wgsl => i > 0 && s(i - 1) == "fn",
                    Language::Glsl => s(i + 1) == "(" && i > 0 && tokens[i - 1].kind == Kind::Ident,
                };
                if defines {
                    names.push(s(i).to_string());
                }
            }
            _ => {}
        }
    }
    names
}

#[cfg(test)]
mod tests;
