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
//! 2. a pre-scan, comments skipped, of how deep naga would recurse:
//!    `(`, `[` and `{` nest at most [`Limits::max_nesting`] deep
//!    ([`MAX_NESTING`]), each open `if`, `else`, `for`, `while`, `do`,
//!    `switch`, `loop` and `continuing` statement counting as a level too
//!    (an `else if` chain, or a GLSL `for (;;)` without braces, recurses as
//!    deep as brackets do, though its brackets close); and at most
//!    [`Limits::max_statement_operators`] operator characters
//!    ([`MAX_STATEMENT_OPERATORS`]) between two of `;`, `{`, `}` and `#`. A
//!    GLSL macro counts as what it expands to, and its arguments as often
//!    as its body uses them. Every recursion in naga's front ends is
//!    bounded by one of the two;
//! 3. for GLSL, every `#define` expands to at most
//!    [`Limits::max_macro_tokens`] tokens, so that no macro bomb exhausts
//!    memory in the preprocessor, and no macro expands to itself through
//!    others;
//!
//! and then runs naga on a thread of its own with a
//! [`Limits::stack_bytes`] stack (far more than the bounded recursion
//! needs), inside [`std::panic::catch_unwind`], waiting at most
//! [`Limits::timeout`]: naga takes time quadratic in a function's
//! expression count, and a 16 MiB function would take hours. [`guarded`]
//! is that thread, for other work on untrusted text (`ballot link`, the
//! include macros).
//!
//! The limits are safe where frames are largest, in a crate built at
//! opt-level 0 (as a user's dependencies are, the proc macro's included):
//! there naga's GLSL front end takes about 40 KiB of stack per level of
//! recursion and its WGSL lowerer about 7 KiB per operand of a chain, so
//! that the deepest input the limits let through (4096 operators in a
//! statement nested 256 deep) takes about 170 MiB of GLSL and 30 MiB of
//! WGSL stack, within the [`PARSE_STACK_BYTES`] of the thread; an
//! operator chain overflows it from about 6,600 operands of GLSL and
//! 38,000 of WGSL.
//!
//! GLSL that naga's front end refuses goes to glslang, the reference
//! compiler (`glslangValidator`, as the linker runs it), on the same
//! thread and within the same time: a text glslang compiles is valid, so
//! that Vulkan GLSL naga cannot read (atomics on buffers, push constants,
//! `local_size_x_id`) is not refused; where glslang refuses it too, on
//! another line than naga's first error, glslang's report is the one
//! given (GLSL is the language glslang defines, and naga's first words are
//! then about what its front end cannot read); on the same line, or where
//! glslang cannot run, naga's.
//!
//! A panic inside naga still goes through the process's panic hook, which
//! by default prints a message to stderr; the thread is named
//! [`THREAD_NAME`] so that a program (the `ballot` binary does) can silence
//! the hook for it.

use std::path::Path;
use std::sync::mpsc;
use std::time::Duration;

use crate::bytes::{ascii_word_end as word_end, is_word as is_word_byte};
use crate::valid::{check_source, glslang_check, SourceError};
use ballot_shader::back::{Language, Target};

/// The largest file [`check_bytes`] takes by default: 16 MiB, far beyond
/// any real shader; the files the tools read are cut off there too
/// ([`ballot_ir::source::read`]).
pub const MAX_SOURCE_BYTES: usize = ballot_ir::source::MAX_SOURCE_BYTES;

/// How deep `(`, `[`, `{` and the open control statements may nest by
/// default: 256, as brackets in a kernel ([`ballot_ir::limits::MAX_BRACKETS`]).
/// Real shaders stay under 40; an `else if` chain takes two levels an arm.
pub const MAX_NESTING: usize = ballot_ir::limits::MAX_BRACKETS;

/// How many operator characters (`+-*/%&|^!~<>=?:.([`) one statement may
/// hold by default: 4096, as in a kernel
/// ([`ballot_ir::limits::MAX_STATEMENT_OPERATORS`]), more than a generated
/// lookup table of negative numbers needs.
pub const MAX_STATEMENT_OPERATORS: usize = ballot_ir::limits::MAX_STATEMENT_OPERATORS;

/// How many tokens one GLSL macro may expand to by default: 65,536.
pub const MAX_MACRO_TOKENS: u64 = 1 << 16;

/// The stack of the thread that runs naga by default: 256 MiB of address
/// space ([`ballot_ir::stack::STACK_BYTES`]), touched only as deep as the
/// bounded recursion goes.
pub const PARSE_STACK_BYTES: usize = ballot_ir::stack::STACK_BYTES;

/// How long naga may take by default: 60 s.
pub const TIMEOUT: Duration = Duration::from_secs(60);

/// The name of the thread that runs naga.
pub const THREAD_NAME: &str = "ballot-check";

/// What [`check_bytes_with`] accepts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The largest input, in bytes.
    pub max_bytes: usize,
    /// The deepest nesting of `(`, `[`, `{` and open control statements.
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
    /// Brackets and control statements nest deeper than the limit.
    #[error("brackets and statements nest more than {limit} deep at line {line}")]
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
    /// A GLSL macro expands to itself through other macros: the
    /// preprocessor would stop, but its expansion cannot be bounded here.
    #[error("macro `{name}` at line {line} expands to itself through `{through}`")]
    MacroCycle {
        /// The macro.
        name: String,
        /// The 1-based line of its `#define`.
        line: usize,
        /// The macro its expansion comes back through.
        through: String,
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
            | Problem::MacroTooLarge { line, .. }
            | Problem::MacroCycle { line, .. } => *line,
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
        "glsl" => Some(Target::Glsl),
        stage if crate::valid::glslang::STAGES.contains(&stage) => Some(Target::Glsl),
        _ => None,
    }
}

/// The extensions [`target_for_path`] knows, for messages.
pub const EXTENSIONS: &str = ".wgsl, .glsl, .comp, .glsl.comp, and glslang's other stages \
     (.vert, .frag, .geom, .tesc, .tese, .mesh, .task, .rgen, .rint, .rahit, .rchit, .rmiss, .rcall)";

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
    run_naga(target, path, &as_an_editor_shows(text), limits).map_err(fail)
}

/// `text` as an editor shows it, so that naga's report falls on the line
/// and column the user sees: a leading byte order mark is no character of
/// the shader (naga's front ends would refuse it, GLSL's with no
/// location), and a carriage return alone ends a line (classic Mac OS
/// line ends), where naga counts `\n` only. The return becomes `\n`, one
/// byte for one, so every other offset stays.
fn as_an_editor_shows(text: &str) -> std::borrow::Cow<'_, str> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let bytes = text.as_bytes();
    let lone = |i: usize| bytes[i] == b'\r' && bytes.get(i + 1) != Some(&b'\n');
    if !(0..bytes.len()).any(lone) {
        return std::borrow::Cow::Borrowed(text);
    }
    let ends: Vec<u8> = (0..bytes.len())
        .map(|i| if lone(i) { b'\n' } else { bytes[i] })
        .collect();
    // One ASCII byte replaced by another: still UTF-8.
    std::borrow::Cow::Owned(String::from_utf8(ends).expect("ASCII for ASCII keeps UTF-8"))
}

/// Steps 1 to 3 of the module docs.
pub fn admit<'a>(target: Target, bytes: &'a [u8], limits: &Limits) -> Result<&'a str, Problem> {
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
    let table = match language {
        Language::Glsl => macros(text, limits.max_macro_tokens)?,
        Language::Wgsl => Table::new(),
    };
    scan(text, language, limits, &table)?;
    Ok(text)
}

fn line_at(bytes: &[u8], offset: usize) -> usize {
    1 + bytes[..offset].iter().filter(|&&b| b == b'\n').count()
}

/// The keywords of a statement that may hold another without braces, as
/// an `else` holds the next `if`: naga recurses once per open one.
const NESTING_KEYWORDS: [&str; 8] = [
    "if",
    "else",
    "for",
    "while",
    "do",
    "switch",
    "loop",
    "continuing",
];

/// The characters the pre-scan counts as operators.
const OPERATORS: &[u8] = b"+-*/%&|^!~<>=?:.([";

/// The GLSL directives followed by a macro's name, which is no use of it.
const NAMING_DIRECTIVES: [&str; 4] = ["define", "undef", "ifdef", "ifndef"];

/// Whether `word` is one of [`NESTING_KEYWORDS`]: by its first byte
/// before its text, as the pre-scan asks at every word of the file.
fn is_nesting_keyword(word: &str) -> bool {
    matches!(
        word.as_bytes().first(),
        Some(b'i' | b'e' | b'f' | b'w' | b'd' | b's' | b'l' | b'c')
    ) && NESTING_KEYWORDS.contains(&word)
}

/// [`OPERATORS`] as a table by byte, built from the list.
const IS_OPERATOR: [bool; 256] = {
    let mut table = [false; 256];
    let mut i = 0;
    while i < OPERATORS.len() {
        table[OPERATORS[i] as usize] = true;
        i += 1;
    }
    table
};

/// Whether `b` is one of [`OPERATORS`]: a lookup, as the pre-scan asks at
/// every byte of the file.
fn is_operator(b: u8) -> bool {
    IS_OPERATOR[b as usize]
}

/// The function-like macro calls open at a point of the text (or of a
/// macro's body): what they repeat, their arguments, as often as the
/// product of their bodies' uses of a parameter.
#[derive(Default)]
struct Calls {
    /// Per open call: the depth just inside its `(`, how often its body
    /// repeats an argument, and what a `(` right after the call calls.
    open: Vec<(i64, u64, Option<u64>)>,
    /// What the next `(` calls, if the token before it was a macro (or a
    /// macro call's `)`): how often that call repeats its arguments.
    next: Option<u64>,
}

impl Calls {
    /// How many times what stands here appears in the expansion.
    fn weight(&self) -> u64 {
        self.open
            .iter()
            .fold(1, |weight, &(_, repeats, _)| weight.saturating_mul(repeats))
    }

    /// At a `(` that takes the depth to `depth`, after the `next` the
    /// token before it left.
    fn open(&mut self, depth: i64, next: Option<u64>) {
        if let Some(repeats) = next {
            self.open.push((depth, repeats, None));
        }
    }

    /// At a closing bracket that takes the depth to `depth`.
    fn close(&mut self, depth: i64) {
        while let Some(&(inside, _, tail)) = self.open.last() {
            if inside <= depth {
                break;
            }
            self.open.pop();
            self.next = tail;
        }
    }
}

/// The pre-scan of the module docs' step 2, through a text.
struct Scan<'l> {
    limits: &'l Limits,
    line: usize,
    /// The brackets open.
    depth: usize,
    /// Per bracket level, the control statements open at it.
    heads: Vec<usize>,
    /// Brackets and control statements open: what `max_nesting` bounds.
    nested: usize,
    /// Operators since the statement began, as expanded.
    operators: u64,
    /// Tokens that macros made since the statement began.
    expanded: u64,
    /// The level where a statement just ended: the next token, unless it
    /// is `else`, closes that level's control statements.
    pending: Option<usize>,
    calls: Calls,
}

impl Scan<'_> {
    fn too_deep(&self) -> Problem {
        Problem::TooDeep {
            limit: self.limits.max_nesting,
            line: self.line,
        }
    }

    /// Before each token: a statement that ended closes its level's
    /// control statements, unless an `else` continues them.
    fn settle(&mut self, word: Option<&str>) {
        if let Some(level) = self.pending.take() {
            if level == self.depth && word != Some("else") {
                self.nested -= std::mem::take(&mut self.heads[level]);
            }
        }
    }

    fn operators(&mut self, count: u64) -> Result<(), Problem> {
        self.operators = self.operators.saturating_add(count);
        if self.operators > self.limits.max_statement_operators as u64 {
            return Err(Problem::TooLong {
                limit: self.limits.max_statement_operators,
                line: self.line,
            });
        }
        Ok(())
    }

    fn expanded(&mut self, count: u64, name: &str) -> Result<(), Problem> {
        self.expanded = self.expanded.saturating_add(count);
        if self.expanded > self.limits.max_macro_tokens {
            return Err(Problem::MacroTooLarge {
                name: name.to_string(),
                line: self.line,
                limit: self.limits.max_macro_tokens,
            });
        }
        Ok(())
    }

    fn open(&mut self) -> Result<(), Problem> {
        self.depth += 1;
        self.heads.push(0);
        self.nested += 1;
        if self.nested > self.limits.max_nesting {
            return Err(self.too_deep());
        }
        Ok(())
    }

    fn close(&mut self) {
        if self.depth == 0 {
            return;
        }
        if self.pending == Some(self.depth) {
            self.pending = None;
        }
        self.nested -= self.heads.pop().unwrap_or(0) + 1;
        self.depth -= 1;
        self.calls.close(self.depth as i64);
    }

    /// An identifier: a keyword that nests, a macro, or neither.
    fn word(&mut self, word: &str, table: &Table<'_>) -> Result<(), Problem> {
        self.settle(Some(word));
        self.calls.next = None;
        let weight = self.calls.weight();
        if is_nesting_keyword(word) {
            self.heads[self.depth] += 1;
            self.nested += 1;
            if self.nested > self.limits.max_nesting {
                return Err(self.too_deep());
            }
        } else if let Some(macro_) = table.get(word) {
            self.operators(weight.saturating_mul(macro_.operators))?;
            self.expanded(weight.saturating_mul(macro_.tokens), word)?;
            if self.nested as u64 + macro_.peak > self.limits.max_nesting as u64 {
                return Err(self.too_deep());
            }
            // Within max_nesting, by the peak.
            for _ in 0..macro_.net.max(0) {
                self.open()?;
            }
            for _ in 0..macro_.net.min(0).unsigned_abs().min(self.depth as u64) {
                self.close();
            }
            self.calls.next = macro_.repeats.or(macro_.tail);
        } else if weight > 1 {
            self.expanded(weight, word)?;
        }
        Ok(())
    }

    /// A punctuation character.
    fn punct(&mut self, b: u8) -> Result<(), Problem> {
        self.settle(None);
        let next = self.calls.next.take();
        let weight = self.calls.weight();
        match b {
            b';' => {
                self.operators = 0;
                self.expanded = 0;
                self.pending = Some(self.depth);
            }
            b'{' => {
                self.operators = 0;
                self.expanded = 0;
                self.open()?;
            }
            b'}' => {
                self.operators = 0;
                self.expanded = 0;
                self.close();
                self.pending = Some(self.depth);
            }
            b'(' | b'[' => {
                self.open()?;
                if b == b'(' {
                    self.calls.open(self.depth as i64, next);
                }
            }
            b')' | b']' => self.close(),
            _ => {}
        }
        if is_operator(b) {
            self.operators(weight)?;
        }
        if weight > 1 {
            self.expanded(weight, "(an argument)")?;
        }
        Ok(())
    }
}

/// The nesting and statement-length pre-scan, skipping comments. WGSL
/// block comments nest; GLSL's do not. `table` holds the GLSL macros
/// ([`macros`]); a use of one counts as its expansion.
fn scan(text: &str, language: Language, limits: &Limits, table: &Table<'_>) -> Result<(), Problem> {
    let bytes = text.as_bytes();
    let mut scan = Scan {
        limits,
        line: 1,
        depth: 0,
        heads: vec![0],
        nested: 0,
        operators: 0,
        expanded: 0,
        pending: None,
        calls: Calls::default(),
    };
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'\n' {
            scan.line += 1;
            i += 1;
            continue;
        }
        // Blank space, and what is not ASCII (WGSL's other blanks, letters
        // of identifiers, which name no keyword or macro), count for nothing.
        if crate::bytes::is_blank(b) {
            i = crate::bytes::blank_end(bytes, i + 1);
            continue;
        }
        if b.is_ascii_whitespace() || !b.is_ascii() {
            i += 1;
            continue;
        }
        // A comment starts with `/`: every other byte is spared the call.
        if let Some(end) = (b == b'/')
            .then(|| comment_end(bytes, i, language))
            .flatten()
        {
            scan.line += bytes[i..end].iter().filter(|&&b| b == b'\n').count();
            i = end;
            continue;
        }
        if is_word_byte(b) {
            let end = word_end(bytes, i);
            if b.is_ascii_digit() {
                // A number, suffix and all (`1u`, `0x1F`).
                scan.settle(None);
                scan.calls.next = None;
            } else {
                scan.word(&text[i..end], table)?;
            }
            i = end;
            continue;
        }
        if b == b'#' {
            // A preprocessor directive starts afresh; its name, and the
            // macro a `#define` or `#ifdef` names, are no uses of a macro.
            scan.operators = 0;
            scan.expanded = 0;
            scan.calls.next = None;
            i = directive_end(bytes, i + 1);
            continue;
        }
        scan.punct(b)?;
        i += 1;
    }
    Ok(())
}

/// Past the name of the directive whose `#` is just before `i`, and past
/// the macro's name after a [`NAMING_DIRECTIVES`] one.
fn directive_end(bytes: &[u8], mut i: usize) -> usize {
    let blanks = |mut i: usize| {
        while i < bytes.len() && (bytes[i] == b' ' || bytes[i] == b'\t') {
            i += 1;
        }
        i
    };
    i = blanks(i);
    let end = word_end(bytes, i);
    let name = &bytes[i..end];
    i = end;
    if NAMING_DIRECTIVES.iter().any(|d| d.as_bytes() == name) {
        i = word_end(bytes, blanks(i));
    }
    i
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

/// What a GLSL macro expands to, as the pre-scan counts it: an upper
/// bound, its arguments aside (they count where they are written).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Expansion {
    tokens: u64,
    operators: u64,
    /// The brackets it leaves open (negative: closes).
    net: i64,
    /// The deepest its brackets nest while it expands, from where it
    /// starts.
    peak: u64,
    /// For a function-like macro: how many times its body holds an
    /// argument (at most).
    repeats: Option<u64>,
    /// What a `(` right after its expansion calls, when the expansion
    /// ends with a macro's name: how many times that call repeats its
    /// arguments.
    tail: Option<u64>,
}

impl Expansion {
    /// The larger of the two in every respect: a name defined twice
    /// counts as its larger definition.
    fn max(self, other: Self) -> Self {
        Self {
            tokens: self.tokens.max(other.tokens),
            operators: self.operators.max(other.operators),
            net: self.net.max(other.net),
            peak: self.peak.max(other.peak),
            repeats: self.repeats.max(other.repeats),
            tail: self.tail.max(other.tail),
        }
    }
}

/// The expansion of every macro a GLSL text defines, by name.
type Table<'a> = std::collections::HashMap<&'a str, Expansion>;

/// One `#define`.
struct Define<'a> {
    name: &'a str,
    /// 1-based.
    line: usize,
    /// A function-like macro's parameters.
    params: Option<Vec<&'a str>>,
    /// Identifiers, numbers and single punctuation characters, comments
    /// and line continuations left out.
    body: Vec<&'a str>,
}

/// Every `#define` of a GLSL text, in order, each to the end of its
/// logical line: past `\` line continuations, and past the line breaks of
/// a block comment, as the preprocessor reads it.
fn defines(text: &str) -> Vec<Define<'_>> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let (mut i, mut line, mut line_start) = (0usize, 1usize, true);
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'\n' {
            line += 1;
            line_start = true;
            i += 1;
        } else if let Some(end) = comment_end(bytes, i, Language::Glsl) {
            line += bytes[i..end].iter().filter(|&&b| b == b'\n').count();
            i = end;
        } else if b.is_ascii_whitespace() {
            i += 1;
        } else if b == b'#' && line_start {
            let at = line;
            let mut j = i + 1;
            let mut words = Vec::new();
            // To the end of the logical line.
            while j < bytes.len() && bytes[j] != b'\n' {
                if bytes[j] == b'\\' && matches!(bytes.get(j + 1), Some(b'\n')) {
                    line += 1;
                    j += 2;
                } else if bytes[j] == b'\\' && bytes[j + 1..].starts_with(b"\r\n") {
                    line += 1;
                    j += 3;
                } else if let Some(end) = comment_end(bytes, j, Language::Glsl) {
                    line += bytes[j..end].iter().filter(|&&b| b == b'\n').count();
                    j = end;
                } else if is_word_byte(bytes[j]) {
                    let end = word_end(bytes, j);
                    words.push((j, &text[j..end]));
                    j = end;
                } else if bytes[j].is_ascii() && !bytes[j].is_ascii_whitespace() {
                    words.push((j, &text[j..j + 1]));
                    j += 1;
                } else {
                    j += 1;
                }
            }
            if let [(_, "define"), (at_name, name), rest @ ..] = words.as_slice() {
                if !name.as_bytes()[0].is_ascii_digit() {
                    // Function-like only with `(` right after the name.
                    let function = bytes.get(at_name + name.len()) == Some(&b'(');
                    let (params, body) = match (function, rest) {
                        (true, [_, rest @ ..]) => {
                            let close = rest.iter().position(|&(_, w)| w == ")");
                            let close = close.unwrap_or(rest.len());
                            let params = rest[..close]
                                .iter()
                                .map(|&(_, w)| w)
                                .filter(|&w| w != ",")
                                .collect();
                            (Some(params), rest.get(close + 1..).unwrap_or_default())
                        }
                        _ => (None, rest),
                    };
                    found.push(Define {
                        name,
                        line: at,
                        params,
                        body: body.iter().map(|&(_, w)| w).collect(),
                    });
                }
            }
            i = j;
        } else {
            line_start = false;
            i += 1;
        }
    }
    found
}

/// The expansion of `define`, the macros it uses already in `table` (one
/// that is not is a plain word: itself, or undefined).
fn expansion(define: &Define<'_>, table: &Table<'_>) -> Expansion {
    let mut e = Expansion::default();
    let mut calls = Calls::default();
    let mut depth = 0i64;
    let mut peak = 0i64;
    let params = define.params.as_deref().unwrap_or_default();
    let mut uses = vec![0u64; params.len()];
    let mut last = None;
    for &word in &define.body {
        let weight = calls.weight();
        let next = calls.next.take();
        last = None;
        let first = word.as_bytes()[0];
        if let Some(p) = params.iter().position(|&p| p == word) {
            uses[p] = uses[p].saturating_add(weight);
            e.tokens = e.tokens.saturating_add(weight);
            continue;
        }
        let used = table.get(word).filter(|_| word != define.name);
        if let Some(m) = used {
            e.tokens = e.tokens.saturating_add(weight.saturating_mul(m.tokens));
            e.operators = e
                .operators
                .saturating_add(weight.saturating_mul(m.operators));
            peak = peak.max(depth.saturating_add_unsigned(m.peak));
            depth = depth.saturating_add(m.net);
            calls.next = m.repeats.or(m.tail);
            last = Some(m);
            continue;
        }
        e.tokens = e.tokens.saturating_add(weight);
        if word.len() == 1 && OPERATORS.contains(&first) {
            e.operators = e.operators.saturating_add(weight);
        }
        match first {
            b'(' | b'[' | b'{' => {
                depth += 1;
                peak = peak.max(depth);
                if first == b'(' {
                    calls.open(depth, next);
                }
            }
            b')' | b']' | b'}' => {
                depth -= 1;
                calls.close(depth);
            }
            _ => {}
        }
    }
    e.net = depth;
    e.peak = peak.max(0).unsigned_abs();
    e.repeats = define
        .params
        .as_ref()
        .map(|_| uses.iter().copied().max().unwrap_or(0).max(1));
    e.tail = last.and_then(|m| m.repeats.or(m.tail));
    e
}

/// Bounds what each `#define` expands to, and returns every macro's
/// expansion for the scan. Macros expand when used, so that a body may use
/// one defined after it: each is counted after those its body names (a
/// name in its own body is a plain word, as the preprocessor leaves it).
/// A macro that comes back to itself through others is refused: its
/// expansion depends on where it is used. Function-like macros count
/// their body once; the scan counts their arguments where they are
/// written, as often as the body repeats them.
fn macros(text: &str, limit: u64) -> Result<Table<'_>, Problem> {
    let found = defines(text);
    let mut by_name: std::collections::HashMap<&str, Vec<usize>> = Default::default();
    for (index, define) in found.iter().enumerate() {
        by_name.entry(define.name).or_default().push(index);
    }
    let uses = |name: &str| -> Vec<&str> {
        let mut named: Vec<&str> = by_name[name]
            .iter()
            .flat_map(|&d| {
                let define = &found[d];
                let params = define.params.as_deref().unwrap_or_default();
                define
                    .body
                    .iter()
                    .copied()
                    .filter(move |w| *w != define.name && !params.contains(w))
            })
            .filter(|w| by_name.contains_key(w))
            .collect();
        named.sort_unstable();
        named.dedup();
        named
    };
    // Depth first, without recursion: a chain of macros may be as long as
    // the file.
    let mut table = Table::new();
    let mut on_path = std::collections::HashSet::new();
    for define in &found {
        if table.contains_key(define.name) {
            continue;
        }
        let mut path = vec![(define.name, uses(define.name), 0usize)];
        on_path.insert(define.name);
        while let Some((name, named, next)) = path.last_mut() {
            if let Some(&used) = named.get(*next) {
                *next += 1;
                if table.contains_key(used) {
                    continue;
                }
                if on_path.contains(used) {
                    return Err(Problem::MacroCycle {
                        name: used.to_string(),
                        line: found[by_name[used][0]].line,
                        through: name.to_string(),
                    });
                }
                on_path.insert(used);
                path.push((used, uses(used), 0));
                continue;
            }
            let name = *name;
            let e = by_name[name]
                .iter()
                .map(|&d| expansion(&found[d], &table))
                .reduce(Expansion::max)
                .unwrap_or_default();
            table.insert(name, e);
            on_path.remove(name);
            path.pop();
        }
    }
    for define in &found {
        if expansion(define, &table).tokens > limit {
            return Err(Problem::MacroTooLarge {
                name: define.name.to_string(),
                line: define.line,
                limit,
            });
        }
    }
    Ok(table)
}

/// Runs `work` as [`check_bytes`] runs naga: on a thread of its own named
/// [`THREAD_NAME`], with a [`Limits::stack_bytes`] stack, inside
/// [`std::panic::catch_unwind`], waiting at most [`Limits::timeout`]. A
/// panic is [`Problem::NagaPanicked`]; work past the timeout is
/// [`Problem::TimedOut`] and is left to finish on its thread, its result
/// dropped, since a thread cannot be stopped from outside: the callers (the
/// `ballot` binary, a macro whose error ends rustc's build) exit soon
/// after.
pub fn guarded<T: Send + 'static>(
    limits: &Limits,
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, Problem> {
    let (send, receive) = mpsc::channel();
    let start = std::time::Instant::now();
    std::thread::Builder::new()
        .name(THREAD_NAME.to_string())
        .stack_size(limits.stack_bytes)
        .spawn(move || {
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(work));
            // The receiver is gone only after a timeout; nobody is left to tell.
            let _ = send.send(result);
        })
        .map_err(|e| Problem::Thread {
            message: e.to_string(),
        })?;
    match receive.recv_timeout(limits.timeout) {
        // A result that came after the limit is past it too, though the
        // channel had it before the wait began: so the limit does not
        // depend on how the threads were scheduled.
        Ok(_) if start.elapsed() > limits.timeout => Err(Problem::TimedOut {
            limit: limits.timeout,
        }),
        Ok(Ok(value)) => Ok(value),
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

/// What stopped a link run with [`guarded`], in words: a panic there is
/// the linker's as much as naga's (both run on that thread), so it is
/// named a bug of either, to be reported with the shader.
pub fn link_stopped(problem: &Problem) -> String {
    match problem {
        Problem::NagaPanicked { message } => format!(
            "the linker panicked ({message}): a bug in ballot or naga, not in the shader; \
             please report it with the shader"
        ),
        other => other.to_string(),
    }
}

/// Runs naga with [`guarded`].
fn run_naga(target: Target, path: &str, text: &str, limits: &Limits) -> Result<(), Problem> {
    let (path, text) = (path.to_string(), text.to_string());
    guarded(limits, move || match check_source(target, &path, &text) {
        // GLSL naga cannot read: glslang's verdict, as the linker judges
        // it, where glslang runs. Where both refuse on the same line,
        // naga's report stands: its front end reads the same text there,
        // and places a syntax error at its token, where glslang names only
        // the line.
        Err(naga) if target.language() == Language::Glsl => {
            match glslang_check(target, &path, &text) {
                Some(Err(glslang)) if glslang.line == naga.line => Err(naga),
                Some(verdict) => verdict,
                None => Err(naga),
            }
        }
        verdict => verdict,
    })?
    .map_err(Problem::Invalid)
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
    fn the_scans_tests_are_its_lists() {
        for b in 0..=u8::MAX {
            assert_eq!(is_operator(b), OPERATORS.contains(&b), "{b}");
        }
        for word in NESTING_KEYWORDS {
            assert!(is_nesting_keyword(word), "{word}");
        }
        for word in ["", "i", "iff", "elsewhere", "lo", "x", "fn", "struct"] {
            assert!(!is_nesting_keyword(word), "{word}");
        }
    }

    /// Vulkan GLSL naga's front end cannot read (a workgroup size from a
    /// specialisation constant), with a mistake on line 6: an undeclared
    /// name.
    const VULKAN_GLSL_WITH_A_TYPO: &str = "#version 450
layout(local_size_x_id = 0) in;
layout(push_constant) uniform Params { uint n; } params;
layout(std430, binding = 0) buffer Out { uint data[]; };
void main() {
    data[gl_GlobalInvocationID.x] = params.n + missing_value;
}
";

    #[test]
    fn glsl_both_validators_refuse_gets_glslang_s_report_at_the_users_line() {
        if !ballot_testkit::have_tools("glslang's report in `check`", &[ballot_testkit::GLSLANG]) {
            return;
        }
        // naga's front end names `local_size_x_id` first, which is valid
        // Vulkan GLSL: its first words would be about naga, not about the
        // shader.
        let naga = check_source(Target::Glsl, "p.comp", VULKAN_GLSL_WITH_A_TYPO).unwrap_err();
        assert_eq!(naga.line, Some(2), "{}", naga.report);
        let error =
            check_bytes(Target::Glsl, "p.comp", VULKAN_GLSL_WITH_A_TYPO.as_bytes()).unwrap_err();
        assert_eq!(error.line(), Some(6), "{error}");
        let Problem::Invalid(e) = &error.problem else {
            panic!("{error}");
        };
        let first = e.report.lines().next().unwrap_or_default();
        assert!(first.contains("missing_value"), "{}", e.report);
        assert!(e.report.contains("p.comp:6:"), "{}", e.report);
        assert!(!e.report.contains("local_size_x_id"), "{}", e.report);
        // The fixed shader is valid: glslang compiles it.
        let fixed = VULKAN_GLSL_WITH_A_TYPO.replace(" + missing_value", "");
        assert!(check_bytes(Target::Glsl, "p.comp", fixed.as_bytes()).is_ok());
        // A library (no `main`): glslang's line is still the user's.
        let library = "#version 450\nuint f(uint x) {\n    return x + nothing_here;\n}\n";
        let error = check_bytes(Target::Glsl, "lib.glsl", library.as_bytes()).unwrap_err();
        assert_eq!(error.line(), Some(3), "{error}");
    }

    #[test]
    fn every_stage_glslang_names_is_glsl_and_checked_as_that_stage() {
        for ext in ["comp", "vert", "frag", "task", "mesh", "rgen", "glsl"] {
            let path = format!("s.{ext}");
            assert_eq!(
                target_for_path(Path::new(&path)),
                Some(Target::Glsl),
                "{ext}"
            );
        }
        assert_eq!(target_for_path(Path::new("s.hlsl")), None);
        // A fragment shader naga reads as one: its built-ins are known.
        let fragment = "#version 450\nlayout(location = 0) out vec4 colour;\n\
                        void main() { colour = vec4(gl_FragCoord.xy, 0.0, 1.0); }\n";
        assert!(check_source(Target::Glsl, "f.frag", fragment).is_ok());
        assert!(check_bytes(Target::Glsl, "f.frag", fragment.as_bytes()).is_ok());
        // The same text as a compute shader is not one.
        assert!(check_source(Target::Glsl, "f.comp", fragment).is_err());
        // A stage naga does not read is glslang's to judge.
        if ballot_testkit::have_tools("task shaders in `check`", &[ballot_testkit::GLSLANG]) {
            let task = "#version 450\n#extension GL_EXT_mesh_shader : require\n\
                        layout(local_size_x = 32) in;\nvoid main() { EmitMeshTasksEXT(1, 1, 1); }\n";
            assert!(check_bytes(Target::Glsl, "t.task", task.as_bytes()).is_ok());
            let broken = task.replace("EmitMeshTasksEXT(1, 1, 1)", "EmitMeshTasksEXT(1, 1)");
            let error = check_bytes(Target::Glsl, "t.task", broken.as_bytes()).unwrap_err();
            assert_eq!(error.line(), Some(4), "{error}");
        }
    }

    #[test]
    fn a_byte_order_mark_and_lone_carriage_returns_are_read_as_an_editor_shows_them() {
        assert_eq!(as_an_editor_shows("\u{feff}a\r\nb"), "a\r\nb");
        assert_eq!(as_an_editor_shows("a\rb\r\nc\r"), "a\nb\r\nc\n");
        // A valid file with a mark is valid; an error after lone returns
        // is on its own line, not the first.
        let valid = "\u{feff}@compute @workgroup_size(1)\nfn main() {}\n";
        assert!(check_bytes(Target::Wgsl, "m.wgsl", valid.as_bytes()).is_ok());
        let glsl = "\u{feff}#version 450\nlayout(local_size_x = 1) in;\nvoid main() {}\n";
        assert!(check_bytes(Target::Glsl, "m.comp", glsl.as_bytes()).is_ok());
        let broken = "@compute @workgroup_size(1)\rfn main() {\r    let x: u32 = ;\r}\r";
        let error = check_bytes(Target::Wgsl, "m.wgsl", broken.as_bytes()).unwrap_err();
        assert_eq!(
            (error.line(), error.column()),
            (Some(3), Some(18)),
            "{error}"
        );
    }

    #[test]
    fn the_scan_skips_comments_and_resets_at_statements() {
        let limits = Limits {
            max_nesting: 2,
            max_statement_operators: 3,
            ..Limits::default()
        };
        assert_eq!(
            scan("// ((((( +++++\na;", Language::Wgsl, &limits, &Table::new()),
            Ok(())
        );
        assert_eq!(
            scan(
                "/* /* ((( */ ((( */ a;",
                Language::Wgsl,
                &limits,
                &Table::new()
            ),
            Ok(())
        );
        assert_eq!(
            scan("a+b; c+d; e+f;", Language::Glsl, &limits, &Table::new()),
            Ok(())
        );
        assert_eq!(
            scan("\na+b+c+d+e;", Language::Glsl, &limits, &Table::new()),
            Err(Problem::TooLong { limit: 3, line: 2 })
        );
        assert_eq!(
            scan("{\n{\n{", Language::Glsl, &limits, &Table::new()),
            Err(Problem::TooDeep { limit: 2, line: 3 })
        );
        // GLSL block comments end at the first `*/`.
        assert_eq!(
            scan("/* /* */ ((( */", Language::Glsl, &limits, &Table::new()),
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
        assert!(macros("#define MAX(a, b) ((a) > (b) ? (a) : (b))\n", 100).is_ok());
    }

    /// Each of these recursed in naga, one level per repetition, though
    /// the old pre-scan saw them shallow and short: at opt-level 0 each
    /// overflowed the 256 MiB stack (a GLSL level takes about 40 KiB).
    #[test]
    fn chains_the_brackets_do_not_show_count_as_nesting() {
        let glsl = |body: &str| {
            format!("#version 450\nlayout(local_size_x = 1) in;\nvoid main() {{ uint x = 1u;\n{body}\n}}\n")
        };
        let deep = |text: &str, language| {
            let table = match language {
                Language::Glsl => macros(text, MAX_MACRO_TOKENS).unwrap(),
                Language::Wgsl => Table::new(),
            };
            scan(text, language, &Limits::default(), &table)
        };
        let arms = |n: usize| {
            glsl(&format!(
                "if (x == 0u) {{ x = 2u; }} {} else {{ x = 3u; }}",
                "else if (x == 1u) { x = 2u; } ".repeat(n)
            ))
        };
        assert_eq!(
            deep(&arms(10_000), Language::Glsl),
            Err(Problem::TooDeep {
                limit: MAX_NESTING,
                line: 4
            })
        );
        // A real chain fits: two levels an arm, inside `main`.
        assert_eq!(deep(&arms(100), Language::Glsl), Ok(()));
        let wgsl = format!(
            "fn main() {{ var x = 1u; if x == 0u {{ x = 2u; }} {} }}",
            "else if x == 1u { x = 2u; } ".repeat(10_000)
        );
        assert!(matches!(
            deep(&wgsl, Language::Wgsl),
            Err(Problem::TooDeep { .. })
        ));
        let loops = glsl(&format!("{} x = 2u;", "for (;;) ".repeat(10_000)));
        assert!(matches!(
            deep(&loops, Language::Glsl),
            Err(Problem::TooDeep { .. })
        ));
        // Statements one after the other nest nothing.
        let flat = glsl(&"if (x == 1u) { x = 2u; } for (;;) { break; }\n".repeat(10_000));
        assert_eq!(deep(&flat, Language::Glsl), Ok(()));
    }

    #[test]
    fn a_macro_counts_as_what_it_expands_to() {
        let scanned = |text: &str| {
            let table = macros(text, MAX_MACRO_TOKENS)?;
            scan(text, Language::Glsl, &Limits::default(), &table)
        };
        // 2^14 operands in one flat chain, no operator on the line using
        // it: refused where the first macro past the limit is defined.
        let mut chain = String::from("#define M0 x\n");
        for k in 1..=14 {
            chain.push_str(&format!("#define M{k} M{p} + M{p}\n", p = k - 1));
        }
        chain.push_str("void main() { uint x = 1u; uint r = M14; }\n");
        assert_eq!(
            scanned(&chain),
            Err(Problem::TooLong {
                limit: MAX_STATEMENT_OPERATORS,
                line: 14
            })
        );
        // Defined after the macro that uses them, on continued lines: `A`
        // holds 5,119 operators.
        let later = "#define A B + B + B + B\n#define B C \\\n + C + C + C\n\
                     #define C D + D + D + D\n#define D E + E + E + E\n\
                     #define E F + F + F + F\n#define F x + x + x + x + x\n\
                     void main() { uint x = 1u; uint r = A; }\n";
        assert!(matches!(
            scanned(later),
            Err(Problem::TooLong { line: 1, .. })
        ));
        // An argument counts as often as the body holds it.
        let twice = format!(
            "#define D(a) (a + a)\nvoid main() {{ uint x = 1u; uint r = {}x{}; }}\n",
            "D(".repeat(20),
            ")".repeat(20)
        );
        assert!(
            matches!(scanned(&twice), Err(Problem::TooLong { line: 2, .. })),
            "{:?}",
            scanned(&twice)
        );
        // Brackets a macro opens nest.
        let open = format!("#define O {{\nvoid main() {{ {} }}\n", "O x; ".repeat(1000));
        assert!(matches!(
            scanned(&open),
            Err(Problem::TooDeep { line: 2, .. })
        ));
        // What real shaders write passes.
        let real = "#define MAX(a, b) ((a) > (b) ? (a) : (b))\n#define N 64\n\
                    void main() { uint r = MAX(MAX(1u, 2u), MAX(N, 3u)); }\n";
        assert_eq!(scanned(real), Ok(()));
    }

    #[test]
    fn a_macro_that_comes_back_to_itself_is_refused() {
        let cycle = "#define A B + 1\n#define B A + 1\nvoid main() { uint r = A; }\n";
        assert_eq!(
            macros(cycle, MAX_MACRO_TOKENS).unwrap_err(),
            Problem::MacroCycle {
                name: "A".to_string(),
                line: 1,
                through: "B".to_string()
            }
        );
        // Naming itself is what the preprocessor leaves as it is.
        assert!(macros("#define A A\n", MAX_MACRO_TOKENS).is_ok());
    }

    #[test]
    fn guarded_work_returns_panics_and_times_out() {
        // Long enough for the panic hook's message.
        let limits = Limits {
            timeout: Duration::from_secs(20),
            ..Limits::default()
        };
        assert_eq!(guarded(&limits, || 7), Ok(7));
        let panicked = guarded(&limits, || -> u32 { panic!("no") });
        assert_eq!(
            panicked,
            Err(Problem::NagaPanicked {
                message: "no".to_string()
            })
        );
        // In a link, the panic is named the linker's or naga's bug.
        let words = link_stopped(&panicked.unwrap_err());
        assert!(
            words.starts_with("the linker panicked (no): a bug in ballot or naga"),
            "{words}"
        );
        let limits = Limits {
            timeout: Duration::from_millis(200),
            ..limits
        };
        let slow = guarded(&limits, || std::thread::sleep(Duration::from_secs(5)));
        assert_eq!(
            slow,
            Err(Problem::TimedOut {
                limit: limits.timeout
            })
        );
    }

    #[test]
    fn errors_tell_their_line_and_column() {
        let text = b"@compute @workgroup_size(1)\nfn main() {\n    let x = ;\n}\n";
        let err = check_bytes(Target::Wgsl, "dir/a:b.wgsl", text).unwrap_err();
        assert_eq!((err.line(), err.column()), (Some(3), Some(13)), "{err}");
        // naga names the function first; the line is the initializer's.
        // (glslang refuses the same line, so naga's report stands.)
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
