//! [`Build`]: linking from a build script, into `OUT_DIR`.

use std::fmt;
use std::path::{Path, PathBuf};

use super::{link_with, IncludeDirs, LinkError, LinkOptions};
use crate::check::{guarded, Limits, Problem};
use ballot_ir::source::ReadError;
use ballot_shader::back::{Language, Target};

/// Links shader files from a crate's `build.rs`, writing each linked
/// shader to `OUT_DIR` as `<stem>.<target>.<extension>`
/// (`shaders/scan.wgsl` for `wgsl-no-subgroup`:
/// `$OUT_DIR/scan.wgsl-no-subgroup.wgsl`), and telling Cargo to rerun the
/// script when a shader, or a file a GLSL shader `#include`s, changes.
/// Includes are found as [`IncludeDirs`] finds them: beside the including
/// file, then in each [`Build::include_dir`].
///
/// ```no_run
/// // build.rs, with `ballot = { version = "0.1", features = ["validate"] }`
/// // under [build-dependencies]: `ballot::link::Build` and `ballot::Target`.
/// use ballot_shader::back::Target;
/// use ballot_naga::link::Build;
///
/// fn main() {
///     if let Err(e) = Build::new()
///         .shader("shaders/scan.wgsl", [Target::Wgsl, Target::WgslNoSubgroup])
///         .subgroup_size(32)
///         .run()
///     {
///         // Cargo shows a build script's stderr when it fails.
///         eprintln!("error: {e}");
///         std::process::exit(1);
///     }
/// }
/// ```
///
/// and in the crate:
///
/// ```ignore
/// const SCAN: &str = include_str!(concat!(env!("OUT_DIR"), "/scan.wgsl-no-subgroup.wgsl"));
/// ```
#[derive(Clone, Debug, Default)]
pub struct Build {
    shaders: Vec<(PathBuf, Vec<Target>)>,
    options: LinkOptions,
    out_dir: Option<PathBuf>,
    limits: Limits,
    includes: IncludeDirs,
}

/// A shader [`Build::run`] wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Output {
    /// The shader file it was linked from.
    pub source: PathBuf,
    /// Its target.
    pub target: Target,
    /// Where it was written.
    pub path: PathBuf,
}

/// Why [`Build::run`] failed.
#[derive(Debug)]
#[non_exhaustive]
pub enum BuildError {
    /// No output directory: `OUT_DIR` is unset (not in a build script) and
    /// none was given.
    NoOutDir,
    /// A target of the other language than the file's extension says.
    Language {
        /// The shader file.
        path: PathBuf,
        /// The target asked for.
        target: Target,
    },
    /// A file could not be read or written.
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        error: std::io::Error,
    },
    /// A shader file could not be read: not a regular file, larger than
    /// [`ballot_ir::source::MAX_SOURCE_BYTES`], or not UTF-8.
    Read {
        /// The file.
        path: PathBuf,
        /// Why, in words.
        reason: String,
    },
    /// Linking stopped short of an answer: it ran past [`Build::limits`]'s
    /// timeout, or the linker panicked.
    Stopped {
        /// The shader file.
        path: PathBuf,
        /// The target it was being linked for.
        target: Target,
        /// What happened.
        problem: crate::check::Problem,
    },
    /// The shader does not link.
    Link(LinkError),
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::NoOutDir => {
                write!(
                    f,
                    "OUT_DIR is not set: run in a build script, or call out_dir"
                )
            }
            BuildError::Language { path, target } => write!(
                f,
                "`{}` is not a {} file, for target `{target}` (by its extension)",
                path.display(),
                match target.language() {
                    Language::Wgsl => "WGSL (.wgsl)",
                    Language::Glsl => "GLSL (.glsl, .comp)",
                }
            ),
            BuildError::Io { path, error } => write!(f, "`{}`: {error}", path.display()),
            BuildError::Read { path, reason } => {
                write!(f, "cannot read shader `{}`: {reason}", path.display())
            }
            BuildError::Stopped {
                path,
                target,
                problem: Problem::TimedOut { limit },
            } => write!(
                f,
                "linking `{}` for `{target}` did not finish within {} s (raise it with \
                 `Build::limits`)",
                path.display(),
                limit.as_secs_f64()
            ),
            BuildError::Stopped {
                path,
                target,
                problem,
            } => write!(
                f,
                "linking `{}` for `{target}` failed: {}",
                path.display(),
                crate::check::link_stopped(problem)
            ),
            BuildError::Link(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for BuildError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            BuildError::Io { error, .. } => Some(error),
            BuildError::Link(e) => Some(e),
            _ => None,
        }
    }
}

impl Build {
    /// No shaders yet, default [`LinkOptions`], output to `OUT_DIR`.
    pub fn new() -> Self {
        Self::default()
    }

    /// Links `path` (relative to the build script's directory, the crate's
    /// root) for each of `targets`.
    pub fn shader(
        mut self,
        path: impl AsRef<Path>,
        targets: impl IntoIterator<Item = Target>,
    ) -> Self {
        self.shaders
            .push((path.as_ref().to_path_buf(), targets.into_iter().collect()));
        self
    }

    /// The virtual subgroup size of the emulated targets (default 32).
    pub fn subgroup_size(mut self, subgroup_size: u32) -> Self {
        self.options.subgroup_size = subgroup_size;
        self
    }

    /// The limits each link runs under, those of `ballot check`: its stack,
    /// and [`Limits::timeout`] (60 s by default) for each (shader, target).
    /// A build script that links a shader slower than that raises it here.
    pub fn limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// A GLSL preprocessor macro for every shader, as glslang's
    /// `-D name=value` (an empty `value` defines it as nothing); see
    /// [`LinkOptions::defines`].
    pub fn define(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.options = self.options.define(name, value);
        self
    }

    /// A directory GLSL's `#include` searches, after the including file's
    /// own; each call adds one, searched in order.
    pub fn include_dir(mut self, dir: impl AsRef<Path>) -> Self {
        self.includes = self.includes.dir(dir.as_ref());
        self
    }

    /// Writes to `dir` instead of `OUT_DIR`.
    pub fn out_dir(mut self, dir: impl AsRef<Path>) -> Self {
        self.out_dir = Some(dir.as_ref().to_path_buf());
        self
    }

    /// Links and writes every shader, printing `cargo:rerun-if-changed`
    /// for each source file; stops at the first error.
    pub fn run(self) -> Result<Vec<Output>, BuildError> {
        let out_dir = self
            .out_dir
            .or_else(|| std::env::var_os("OUT_DIR").map(PathBuf::from))
            .ok_or(BuildError::NoOutDir)?;
        let mut outputs = Vec::new();
        for (source, targets) in &self.shaders {
            println!("cargo:rerun-if-changed={}", source.display());
            let language = crate::check::target_for_path(source).map(Target::language);
            for &target in targets {
                if language.is_some_and(|l| l != target.language()) {
                    return Err(BuildError::Language {
                        path: source.clone(),
                        target,
                    });
                }
            }
            let io = |error| BuildError::Io {
                path: source.clone(),
                error,
            };
            // The reader `ballot link` and the include macros share: a
            // FIFO, a device or a file past the limit is refused at once.
            let read = |reason: String| BuildError::Read {
                path: source.clone(),
                reason,
            };
            let bytes =
                ballot_ir::source::read(source, self.limits.max_bytes).map_err(|e| match e {
                    ReadError::Io(error) => io(error),
                    other => read(other.to_string()),
                })?;
            let text = String::from_utf8(bytes).map_err(|e| {
                read(format!(
                    "it is not UTF-8 (invalid byte at offset {})",
                    e.utf8_error().valid_up_to()
                ))
            })?;
            let text = std::sync::Arc::new(text);
            let shown = source.display().to_string();
            let stem = source
                .file_name()
                .and_then(|n| n.to_str())
                .map_or("shader", |n| n.split('.').next().unwrap_or(n));
            let extension = source
                .extension()
                .and_then(|e| e.to_str())
                .unwrap_or(match language {
                    Some(Language::Glsl) => "comp",
                    _ => "wgsl",
                });
            for &target in targets {
                // On `check`'s thread: its stack, its time limit, a panic
                // caught.
                let (text, shown, options) = (text.clone(), shown.clone(), self.options.clone());
                let includes = self.includes.clone();
                let linked = guarded(&self.limits, move || {
                    link_with(&text, &shown, target, &options, &includes)
                })
                .map_err(|problem| BuildError::Stopped {
                    path: source.clone(),
                    target,
                    problem,
                })?
                .map_err(BuildError::Link)?;
                for include in &linked.includes {
                    println!("cargo:rerun-if-changed={include}");
                }
                let path = out_dir.join(format!("{stem}.{target}.{extension}"));
                std::fs::write(&path, linked.text).map_err(|error| BuildError::Io {
                    path: path.clone(),
                    error,
                })?;
                outputs.push(Output {
                    source: source.clone(),
                    target,
                    path,
                });
            }
        }
        Ok(outputs)
    }
}
