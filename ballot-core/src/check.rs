//! Checking a user's shader file with naga, robustly: the engine behind
//! `ballot check`.
//!
//! The file is untrusted, and naga was not written for hostile input: its
//! parsers and lowerers recurse once per nested bracket, per prefix
//! operator and per operand of an operator chain, so a deep enough input
//! overflows any stack (an abort, not a panic), and some inputs make it
//! panic. [`check_bytes`] therefore never hands naga anything before these
//! checks, each reported as a [`Problem`]:
//!
//! 1. at most [`Limits::max_bytes`] bytes ([`MAX_SOURCE_BYTES`], 16 MiB),
//!    not empty, valid UTF-8;
//! 2. a pre-scan, comments skipped: `(`, `[` and `{` nested at most
//!    [`Limits::max_nesting`] deep ([`MAX_NESTING`]), and at most
//!    [`Limits::max_statement_operators`] operator characters
//!    ([`MAX_STATEMENT_OPERATORS`]) between two of `;`, `{`, `}` and `#`. Every
//!    recursion in naga's front ends is bounded by one of the two;
//! 3. for GLSL, every `#define` expands to at most
//!    [`Limits::max_macro_tokens`] tokens, so that no macro bomb exhausts
//!    memory in the preprocessor;
//!
//! and then runs naga on a thread of its own with a
//! [`Limits::stack_bytes`] stack (far more than the bounded recursion
//! needs), inside [`std::panic::catch_unwind`], waiting at most
//! [`Limits::timeout`]: naga takes time quadratic in a function's
//! expression count, and a 16 MiB function would take hours.
//!
//! A panic inside naga still goes through the process's panic hook, which
//! by default prints a message to stderr; the thread is named
//! [`THREAD_NAME`] so that a program (the `ballot` binary does) can silence
//! the hook for it.

use std::path::Path;
use std::sync::mpsc;
use std::time::Duration;

use crate::back::{Language, Target};
use crate::valid::{check_source, SourceError};

/// The largest file [`check_bytes`] reads by default: 16 MiB, far beyond
/// any real shader.
pub const MAX_SOURCE_BYTES: usize = 16 << 20;

/// How deep `(`, `[` and `{` may nest by default: 256, as in a kernel
/// ([`crate::limits::MAX_BRACKETS`]). Real shaders stay under 20.
pub const MAX_NESTING: usize = crate::limits::MAX_BRACKETS;

/// How many operator characters (`+-*/%&|^!~<>=?:.([`) one statement may
/// hold by default: 4096, as in a kernel
/// ([`crate::limits::MAX_STATEMENT_OPERATORS`]), more than a generated
/// lookup table of negative numbers needs.
pub const MAX_STATEMENT_OPERATORS: usize = crate::limits::MAX_STATEMENT_OPERATORS;

/// How many tokens one GLSL macro may expand to by default: 65,536.
pub const MAX_MACRO_TOKENS: u64 = 1 << 16;

/// The stack of the thread that runs naga by default: 256 MiB of address
/// space, touched only as deep as the bounded recursion goes.
pub const PARSE_STACK_BYTES: usize = 256 << 20;

/// How long naga may take by default: 60 s.
pub const TIMEOUT: Duration = Duration::from_secs(60);

/// The name of the thread that runs naga.
pub const THREAD_NAME: &str = "ballot-check";

/// What [`check_bytes_with`] accepts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The largest input, in bytes.
    pub max_bytes: usize,
    /// The deepest nesting of `(`, `[` and `{`.
    pub max_nesting: usize,
    /// The most operator characters between two statement separators.
    pub max_statement_operators: usize,
    /// The most tokens a GLSL `#define` may expand to.
    pub max_macro_tokens: u64,
    /// The stack size of the thread that runs naga.
    pub stack_bytes: usize,
    /// How long naga may take.
    pub timeout: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_bytes: MAX_SOURCE_BYTES,
            max_nesting: MAX_NESTING,
            max_statement_operators: MAX_STATEMENT_OPERATORS,
            max_macro_tokens: MAX_MACRO_TOKENS,
            stack_bytes: PARSE_STACK_BYTES,
            timeout: TIMEOUT,
        }
    }
}

/// Why a file failed [`check_bytes`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Problem {
    /// The file is empty (or only whitespace).
    #[error("the file is empty")]
    Empty,
    /// The file is larger than the limit.
    #[error("the file has {size} bytes; the limit is {limit}")]
    TooLarge {
        /// The file's size.
        size: u64,
        /// [`Limits::max_bytes`].
        limit: usize,
    },
    /// The file is not UTF-8.
    #[error("the file is not UTF-8 (invalid byte at offset {offset}, line {line})")]
    NotUtf8 {
        /// The offset of the first invalid byte.
        offset: usize,
        /// Its 1-based line.
        line: usize,
    },
    /// Brackets nest deeper than the limit.
    #[error("brackets nest more than {limit} deep at line {line}")]
    TooDeep {
        /// [`Limits::max_nesting`].
        limit: usize,
        /// The 1-based line where the limit is passed.
        line: usize,
    },
    /// One statement holds more operators than the limit.
    #[error("a statement holds more than {limit} operators at line {line}")]
    TooLong {
        /// [`Limits::max_statement_operators`].
        limit: usize,
        /// The 1-based line where the limit is passed.
        line: usize,
    },
    /// A GLSL macro expands to more tokens than the limit.
    #[error("macro `{name}` at line {line} expands to more than {limit} tokens")]
    MacroTooLarge {
        /// The macro.
        name: String,
        /// The 1-based line of its `#define`.
        line: usize,
        /// [`Limits::max_macro_tokens`].
        limit: u64,
    },
    /// naga rejected the shader.
    #[error(transparent)]
    Invalid(#[from] SourceError),
    /// naga panicked: a bug in naga, reported rather than propagated.
    #[error("naga panicked: {message}")]
    NagaPanicked {
        /// The panic's message.
        message: String,
    },
    /// naga did not finish within [`Limits::timeout`].
    #[error("naga did not finish within {} s", limit.as_secs_f64())]
    TimedOut {
        /// The limit.
        limit: Duration,
    },
    /// The thread that runs naga could not start.
    #[error("cannot start the checking thread: {message}")]
    Thread {
        /// The operating system's reason.
        message: String,
    },
}

/// A file that failed [`check_bytes`]: its path and the [`Problem`].
///
/// Displays naga's own report (which names the path and shows the
/// offending line) for [`Problem::Invalid`], and `PATH: PROBLEM` otherwise.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct CheckError {
    /// The path, as given.
    pub path: String,
    /// What is wrong.
    pub problem: Problem,
}

impl std::fmt::Display for CheckError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.problem {
            Problem::Invalid(e) => f.write_str(e.report.trim_end()),
            problem => write!(f, "{}: {problem}", self.path),
        }
    }
}

impl CheckError {
    /// The 1-based line the problem points at, if it has one: naga's line
    /// ([`SourceError::line`]) for [`Problem::Invalid`], the line a pre-scan
    /// stopped at for the others that name one.
    pub fn line(&self) -> Option<u32> {
        let line = match &self.problem {
            Problem::Invalid(e) => return e.line,
            Problem::NotUtf8 { line, .. }
            | Problem::TooDeep { line, .. }
            | Problem::TooLong { line, .. }
            | Problem::MacroTooLarge { line, .. } => *line,
            _ => return None,
        };
        u32::try_from(line).ok()
    }

    /// The 1-based column (in characters) on [`CheckError::line`], for
    /// [`Problem::Invalid`] when naga's report places its first label on that
    /// line: the report's `PATH:LINE:COLUMN`. `None` otherwise, as when naga
    /// names the enclosing function first and the line is an expression's
    /// inside it.
    pub fn column(&self) -> Option<u32> {
        let Problem::Invalid(e) = &self.problem else {
            return None;
        };
        let at = format!("{}:{}:", self.path, e.line?);
        let (_, rest) = e.report.split_once(&at)?;
        let digits = rest
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len());
        rest[..digits].parse().ok()
    }
}

/// The target a file's extension implies: `.wgsl` is `wgsl`; `.glsl`,
/// `.comp` and `.glsl.comp` are `glsl` (a GLSL compute shader, with or
/// without `GL_KHR_shader_subgroup_ballot`). `None` for anything else.
pub fn target_for_path(path: &Path) -> Option<Target> {
    match path.extension()?.to_str()? {
        "wgsl" => Some(Target::Wgsl),
        "glsl" | "comp" => Some(Target::Glsl),
        _ => None,
    }
}

/// The extensions [`target_for_path`] knows, for messages.
pub const EXTENSIONS: &str = ".wgsl, .glsl, .comp, .glsl.comp";

/// Checks `bytes`, the contents of the file at `path`, as a whole shader
/// module for `target`, with the default [`Limits`]. See the module docs.
pub fn check_bytes(target: Target, path: &str, bytes: &[u8]) -> Result<(), CheckError> {
    check_bytes_with(target, path, bytes, &Limits::default())
}

/// [`check_bytes`] with explicit limits.
pub fn check_bytes_with(
    target: Target,
    path: &str,
    bytes: &[u8],
    limits: &Limits,
) -> Result<(), CheckError> {
    let fail = |problem: Problem| CheckError {
        path: path.to_string(),
        problem,
    };
    let text = admit(target, bytes, limits).map_err(fail)?;
    run_naga(target, path, text, limits).map_err(fail)
}

/// Steps 1 to 3 of the module docs.
pub(crate) fn admit<'a>(
    target: Target,
    bytes: &'a [u8],
    limits: &Limits,
) -> Result<&'a str, Problem> {
    if bytes.len() > limits.max_bytes {
        return Err(Problem::TooLarge {
            size: bytes.len() as u64,
            limit: limits.max_bytes,
        });
    }
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let offset = e.valid_up_to();
        Problem::NotUtf8 {
            offset,
            line: line_at(bytes, offset),
        }
    })?;
    if text.trim().is_empty() {
        return Err(Problem::Empty);
    }
    let language = target.language();
    scan(text, language, limits)?;
    if language == Language::Glsl {
        macros(text, limits.max_macro_tokens)?;
    }
    Ok(text)
}

fn line_at(bytes: &[u8], offset: usize) -> usize {
    1 + bytes[..offset].iter().filter(|&&b| b == b'\n').count()
}

/// The bracket-nesting and statement-length pre-scan, skipping comments.
/// WGSL block comments nest; GLSL's do not.
fn scan(text: &str, language: Language, limits: &Limits) -> Result<(), Problem> {
    let bytes = text.as_bytes();
    let (mut depth, mut operators, mut line, mut i) = (0usize, 0usize, 1usize, 0usize);
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b'\n' => line += 1,
            b'/' if comment_end(bytes, i, language).is_some() => {
                let end = comment_end(bytes, i, language).unwrap_or(bytes.len());
                line += bytes[i..end].iter().filter(|&&b| b == b'\n').count();
                i = end;
                continue;
            }
            // A preprocessor directive starts afresh too.
            b';' | b'{' | b'}' | b'#' => operators = 0,
            _ => {}
        }
        match b {
            b'(' | b'[' | b'{' => {
                depth += 1;
                if depth > limits.max_nesting {
                    return Err(Problem::TooDeep {
                        limit: limits.max_nesting,
                        line,
                    });
                }
            }
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        if b"+-*/%&|^!~<>=?:.([".contains(&b) {
            operators += 1;
            if operators > limits.max_statement_operators {
                return Err(Problem::TooLong {
                    limit: limits.max_statement_operators,
                    line,
                });
            }
        }
        i += 1;
    }
    Ok(())
}

/// Where the comment that starts at `i` ends, if one does: a line comment
/// before its line break, a block comment after its `*/` (or at the end of
/// the text). WGSL block comments nest; GLSL's do not. The pre-scan and
/// the linker's lexer skip comments alike.
pub(crate) fn comment_end(bytes: &[u8], i: usize, language: Language) -> Option<usize> {
    match (bytes.get(i), bytes.get(i + 1)) {
        (Some(b'/'), Some(b'/')) => Some(
            bytes[i..]
                .iter()
                .position(|&b| b == b'\n')
                .map_or(bytes.len(), |n| i + n),
        ),
        (Some(b'/'), Some(b'*')) => {
            let (mut open, mut i) = (1usize, i + 2);
            while i < bytes.len() && open > 0 {
                match (bytes[i], bytes.get(i + 1)) {
                    (b'*', Some(b'/')) => {
                        open -= 1;
                        i += 1;
                    }
                    (b'/', Some(b'*')) if language == Language::Wgsl => {
                        open += 1;
                        i += 1;
                    }
                    _ => {}
                }
                i += 1;
            }
            Some(i.min(bytes.len()))
        }
        _ => None,
    }
}

/// Bounds what each `#define` expands to: its body's tokens, a use of an
/// earlier macro counting as that macro's expansion. Function-like macros
/// count their body once; the nesting limit bounds calls inside arguments.
fn macros(text: &str, limit: u64) -> Result<(), Problem> {
    let mut sizes: Vec<(&str, u64)> = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let Some(rest) = line.trim_start().strip_prefix('#') else {
            continue;
        };
        let Some(rest) = rest.trim_start().strip_prefix("define") else {
            continue;
        };
        let mut words = tokens(rest);
        let Some(name) = words.next() else { continue };
        let size = words.fold(0u64, |size, word| {
            let expansion = sizes
                .iter()
                .rev()
                .find(|(n, _)| *n == word)
                .map_or(1, |(_, s)| *s);
            size.saturating_add(expansion)
        });
        if size > limit {
            return Err(Problem::MacroTooLarge {
                name: name.to_string(),
                line: index + 1,
                limit,
            });
        }
        sizes.push((name, size));
    }
    Ok(())
}

/// Identifiers, numbers and single punctuation characters.
fn tokens(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        rest = rest.trim_start();
        let first = rest.chars().next()?;
        let end = if first.is_alphanumeric() || first == '_' {
            rest.find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(rest.len())
        } else {
            first.len_utf8()
        };
        let (token, tail) = rest.split_at(end);
        rest = tail;
        Some(token)
    })
}

/// Runs naga on its own thread, catching panics, within the timeout.
fn run_naga(target: Target, path: &str, text: &str, limits: &Limits) -> Result<(), Problem> {
    let (send, receive) = mpsc::channel();
    let (path, text) = (path.to_string(), text.to_string());
    std::thread::Builder::new()
        .name(THREAD_NAME.to_string())
        .stack_size(limits.stack_bytes)
        .spawn(move || {
            let result = std::panic::catch_unwind(|| check_source(target, &path, &text));
            // The receiver is gone only after a timeout; nobody is left to tell.
            let _ = send.send(result);
        })
        .map_err(|e| Problem::Thread {
            message: e.to_string(),
        })?;
    match receive.recv_timeout(limits.timeout) {
        Ok(Ok(result)) => result.map_err(Problem::Invalid),
        Ok(Err(payload)) => Err(Problem::NagaPanicked {
            message: panic_message(payload.as_ref()),
        }),
        Err(mpsc::RecvTimeoutError::Timeout) => Err(Problem::TimedOut {
            limit: limits.timeout,
        }),
        // The thread ended without sending: only a panic while sending.
        Err(mpsc::RecvTimeoutError::Disconnected) => Err(Problem::NagaPanicked {
            message: "the checking thread ended without a result".to_string(),
        }),
    }
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(a panic without a message)".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scan_skips_comments_and_resets_at_statements() {
        let limits = Limits {
            max_nesting: 2,
            max_statement_operators: 3,
            ..Limits::default()
        };
        assert_eq!(scan("// ((((( +++++\na;", Language::Wgsl, &limits), Ok(()));
        assert_eq!(
            scan("/* /* ((( */ ((( */ a;", Language::Wgsl, &limits),
            Ok(())
        );
        assert_eq!(scan("a+b; c+d; e+f;", Language::Glsl, &limits), Ok(()));
        assert_eq!(
            scan("\na+b+c+d+e;", Language::Glsl, &limits),
            Err(Problem::TooLong { limit: 3, line: 2 })
        );
        assert_eq!(
            scan("{\n{\n{", Language::Glsl, &limits),
            Err(Problem::TooDeep { limit: 2, line: 3 })
        );
        // GLSL block comments end at the first `*/`.
        assert_eq!(
            scan("/* /* */ ((( */", Language::Glsl, &limits),
            Err(Problem::TooDeep { limit: 2, line: 1 })
        );
    }

    #[test]
    fn a_macro_bomb_is_refused_before_the_preprocessor_runs() {
        let mut text = String::from("#version 450\n#define M0 x\n");
        for i in 1..40 {
            text.push_str(&format!("#define M{i} M{p} M{p}\n", p = i - 1));
        }
        let err = macros(&text, MAX_MACRO_TOKENS).unwrap_err();
        assert_eq!(
            err,
            Problem::MacroTooLarge {
                name: "M17".to_string(),
                line: 19,
                limit: MAX_MACRO_TOKENS
            }
        );
        assert_eq!(
            macros("#define MAX(a, b) ((a) > (b) ? (a) : (b))\n", 100),
            Ok(())
        );
    }

    #[test]
    fn errors_tell_their_line_and_column() {
        let text = b"@compute @workgroup_size(1)\nfn main() {\n    let x = ;\n}\n";
        let err = check_bytes(Target::Wgsl, "dir/a:b.wgsl", text).unwrap_err();
        assert_eq!((err.line(), err.column()), (Some(3), Some(13)), "{err}");
        // naga names the function first; the line is the initializer's.
        let glsl =
            b"#version 450\nlayout(local_size_x = 1) in;\nvoid main() {\n    bool b = 1.0;\n}\n";
        let err = check_bytes(Target::Glsl, "k.comp", glsl).unwrap_err();
        assert_eq!((err.line(), err.column()), (Some(4), None), "{err}");
        let err = check_bytes(Target::Wgsl, "x.wgsl", b"fn f() {}\n\xff").unwrap_err();
        assert_eq!((err.line(), err.column()), (Some(2), None));
        let err = check_bytes(Target::Wgsl, "e.wgsl", b"").unwrap_err();
        assert_eq!((err.line(), err.column()), (None, None));
    }

    #[test]
    fn extensions_pick_the_language() {
        let t = |p: &str| target_for_path(Path::new(p));
        assert_eq!(t("a.wgsl"), Some(Target::Wgsl));
        assert_eq!(t("dir/a.glsl"), Some(Target::Glsl));
        assert_eq!(t("a.comp"), Some(Target::Glsl));
        assert_eq!(t("a.glsl.comp"), Some(Target::Glsl));
        assert_eq!(t("a.txt"), None);
        assert_eq!(t("wgsl"), None);
    }
}
