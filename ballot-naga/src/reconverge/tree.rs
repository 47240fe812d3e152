//! The form both front ends produce: a shader's functions, and in each
//! its statements as a tree over ranges of the text.
//!
//! Only structure is read: where each statement is, which control flow
//! holds it, and the calls inside its expressions. Expressions stay text;
//! the pass copies them. Both languages share C's statement syntax, so one
//! reader serves both, with their differences in a few places (`if`'s
//! condition in parentheses or not, declarations, WGSL's `loop` and
//! `continuing`, GLSL's `do`).
//!
//! # Invariants
//! 1. Every range lies in the text read, and a statement's range holds its
//!    children's.
//! 2. A [`Call`]'s argument ranges lie, in order, between its parentheses.
//! 3. [`Stmt::Break`] and [`Stmt::Continue`] are whatever the text says;
//!    whether a loop or a `switch` encloses them is the pass's to check.
//! 4. Every call's and every function's [`Name`] is its name's text: one
//!    number per distinct name, so that the pass classifies each name
//!    once rather than comparing text at every call.
//!
//! # Cost
//! The calls and their arguments live in two arrays of the [`Unit`], and
//! an expression or call holds a range of them: a shader with hundreds
//! of thousands of calls is read, and dropped, without an allocation per
//! call.

use std::ops::Range;

use super::lex::{lex, Kind, Token, AND_AND, OR_OR};
use ballot_shader::back::Language;

/// A shader's functions, in text order.
#[derive(Clone, Debug)]
pub(crate) struct Unit {
    pub functions: Vec<Function>,
    /// Every expression's calls, each expression's in text order
    /// ([`Expr::calls`] is a range of them).
    pub calls: Vec<Call>,
    /// Every call's arguments ([`Call::args`] is a range of them).
    pub args: Vec<Range<usize>>,
    /// The text of each [`Name`], by its number: where it first occurs.
    pub names: Vec<Range<usize>>,
    /// GLSL's function prototypes, in text order.
    pub prototypes: Vec<Prototype>,
}

/// A GLSL function prototype, `type name(…);`: a converted function's
/// takes the caller's activity too.
#[derive(Clone, Debug)]
pub(crate) struct Prototype {
    /// Its name's number.
    pub id: Name,
    /// Just after its parameter list's `(`.
    pub params_open: usize,
    /// Its parameter list's `)`.
    pub params_close: usize,
}

/// A function's or call's name, as a number: the same for the same text.
pub(crate) type Name = u32;

impl Unit {
    /// `e`'s calls, nested ones included, in text order.
    pub fn calls(&self, e: &Expr) -> &[Call] {
        &self.calls[e.calls.start as usize..e.calls.end as usize]
    }

    /// `c`'s argument ranges (none for `f()`).
    pub fn args(&self, c: &Call) -> &[Range<usize>] {
        &self.args[c.args.start as usize..c.args.end as usize]
    }
}

/// The pipeline stage of an entry point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stage {
    Compute,
    Fragment,
    Vertex,
}

/// One function definition.
#[derive(Clone, Debug)]
pub(crate) struct Function {
    /// Its name.
    pub name: Range<usize>,
    /// Its name's number.
    pub id: Name,
    /// Just after its parameter list's `(`.
    pub params_open: usize,
    /// Its parameter list's `)`.
    pub params_close: usize,
    /// Its parameters' names and types (GLSL: the type before the name).
    pub params: Vec<Param>,
    /// The return type's text, where it returns a value.
    pub ret: Option<Range<usize>>,
    /// Its body.
    pub body: Block,
    /// Set for an entry point: WGSL's `@compute`, `@fragment` or `@vertex`
    /// (GLSL: `main`, whose stage is the file's, and taken as compute).
    pub stage: Option<Stage>,
    /// Set where the body could not be read (a macro used as a statement,
    /// a construct the reader does not know): its [`Function::body`] is
    /// then empty. Such a function is left as written unless it reaches a
    /// collective, where the pass refuses it with this error.
    pub unread: Option<Unread>,
}

/// A function body the reader could not read.
#[derive(Clone, Debug)]
pub(crate) struct Unread {
    /// Why, and where.
    pub error: ReadError,
    /// The names its tokens call (a name before `(`), for the pass to
    /// tell whether it reaches a collective.
    pub calls: Vec<Name>,
}

/// A parameter.
#[derive(Clone, Debug)]
pub(crate) struct Param {
    pub name: Range<usize>,
    pub ty: Range<usize>,
}

/// `{ … }`.
#[derive(Clone, Debug)]
pub(crate) struct Block {
    /// From `{` to `}`, both included.
    pub range: Range<usize>,
    pub stmts: Vec<Stmt>,
}

/// An expression's text, with the calls in it.
#[derive(Clone, Debug)]
pub(crate) struct Expr {
    pub range: Range<usize>,
    /// Every call in the expression, nested ones included, in text order:
    /// a range of [`Unit::calls`] ([`Unit::calls`] gives them).
    pub calls: Range<u32>,
}

/// `name(args)`.
#[derive(Clone, Debug)]
pub(crate) struct Call {
    pub name: Range<usize>,
    /// Its name's number.
    pub callee: Name,
    /// Just after `(`.
    pub open: usize,
    /// The `)`.
    pub close: usize,
    /// Each argument's text (none for `f()`): a range of [`Unit::args`]
    /// ([`Unit::args`] gives them).
    pub args: Range<u32>,
    /// Whether the language may skip the call where other invocations
    /// make it: it sits in the right operand of `&&` or `||`, or in an
    /// arm of `?:`.
    pub conditional: bool,
    /// The whole call, name to `)`.
    pub range: Range<usize>,
}

/// How a variable is declared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DeclKind {
    /// WGSL `let`.
    Let,
    /// WGSL `var` (with or without its address space).
    Var,
    /// WGSL `const`, or a GLSL declaration qualified `const`.
    Const,
    /// A GLSL declaration.
    Typed,
}

/// A declaration statement.
#[derive(Clone, Debug)]
pub(crate) struct Decl {
    pub kind: DeclKind,
    /// The type's text: WGSL's after `:`, GLSL's qualifiers and type
    /// before the first name.
    pub ty: Option<Range<usize>>,
    pub declarators: Vec<Declarator>,
}

/// One name of a declaration.
#[derive(Clone, Debug)]
pub(crate) struct Declarator {
    pub name: Range<usize>,
    /// GLSL's array brackets after the name.
    pub suffix: Option<Range<usize>>,
    pub init: Option<Expr>,
}

/// A `case` (or `default`) of a `switch`.
#[derive(Clone, Debug)]
pub(crate) struct Case {
    /// Where the labels are, for messages.
    pub at: Range<usize>,
    /// The values; empty for `default` alone.
    pub values: Vec<Expr>,
    /// Whether `default` is one of the labels.
    pub default: bool,
    /// WGSL: the case's block's statements; GLSL: the statements up to
    /// the next label.
    pub body: Vec<Stmt>,
}

/// A statement, with its range (`;` included).
#[derive(Clone, Debug)]
pub(crate) struct Stmt {
    pub range: Range<usize>,
    pub kind: StmtKind,
}

/// What a statement is.
#[derive(Clone, Debug)]
pub(crate) enum StmtKind {
    /// An expression, an assignment, an increment.
    Simple(Expr),
    Decl(Decl),
    Block(Block),
    If {
        cond: Expr,
        then: Box<Stmt>,
        els: Option<Box<Stmt>>,
    },
    For {
        init: Option<Box<Stmt>>,
        cond: Option<Expr>,
        update: Option<Expr>,
        body: Box<Stmt>,
    },
    While {
        cond: Expr,
        body: Box<Stmt>,
    },
    /// GLSL `do body while (cond);`.
    DoWhile {
        body: Box<Stmt>,
        cond: Expr,
    },
    /// WGSL `loop { body continuing { … } }`.
    Loop {
        body: Block,
        continuing: Option<Block>,
    },
    Switch {
        selector: Expr,
        cases: Vec<Case>,
    },
    Break,
    /// WGSL's `break if e;`, the last statement of a `continuing` block.
    BreakIf(Expr),
    Continue,
    Return(Option<Expr>),
    Discard,
    /// A GLSL `#` line among statements.
    Directive,
    /// `;` alone.
    Empty,
}

/// A reading error: what, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ReadError {
    pub message: String,
    pub at: Range<usize>,
}

/// GLSL's qualifiers that may precede a local declaration's type.
pub(crate) const GLSL_QUALIFIERS: &[&str] = &[
    "const",
    "highp",
    "mediump",
    "lowp",
    "precise",
    "invariant",
    "coherent",
    "volatile",
    "restrict",
    "readonly",
    "writeonly",
    // GL_EXT_nonuniform_qualifier's, on a local (vkdt's `kpn-t` loss).
    "nonuniformEXT",
];

/// Reads the functions of `text`. Everything outside function bodies is
/// skipped, but for the names and stages of the functions.
#[cfg(test)]
pub(crate) fn read(text: &str, language: Language) -> Result<Unit, ReadError> {
    read_with(text, language, &[])
}

/// [`read`], where `hints` names GLSL macros that expand to nothing or to
/// attributes (`#define UNROLL [[unroll]]`): before a statement, such a
/// name is a hint, as the attribute it stands for is.
pub(crate) fn read_with(text: &str, language: Language, hints: &[&str]) -> Result<Unit, ReadError> {
    let tokens = lex(text, language);
    // Room for a shader dense in calls (the linked bench's has a call in
    // 6.5 tokens, an argument in 3.3), so that the arrays seldom move as
    // they grow; the pages past the last are never touched.
    let mut r = Reader {
        text,
        language,
        hints,
        tokens: &tokens,
        at: 0,
        depth: 0,
        calls: Vec::with_capacity(tokens.len() / 6),
        args: Vec::with_capacity(tokens.len() / 3),
        names: Vec::new(),
        prototypes: Vec::new(),
        ids: naga::FastHashMap::default(),
        groups: Vec::new(),
        opens: Vec::new(),
    };
    let mut functions = Vec::new();
    while r.at < tokens.len() {
        let at = r.at;
        match r.function()? {
            Some(f) => functions.push(f),
            // Past a token, unless the reader passed a struct's body: the
            // next token (WGSL's `fn`, no `;` between) is read next.
            None if r.at == at => r.at += 1,
            None => {}
        }
    }
    Ok(Unit {
        functions,
        calls: r.calls,
        args: r.args,
        names: r.names,
        prototypes: r.prototypes,
    })
}

/// How deep statements may nest: the reader recurses once a level.
const MAX_NESTING: usize = 256;

/// An index of [`Unit::calls`] or [`Unit::args`], as their ranges hold
/// it: a text of at most 16 MiB (`check`'s limit) has fewer of either.
fn index(i: usize) -> u32 {
    u32::try_from(i).expect("fewer than 2^32 calls")
}

struct Reader<'a> {
    text: &'a str,
    language: Language,
    /// [`read_with`]'s macros that stand for attributes or nothing.
    hints: &'a [&'a str],
    tokens: &'a [Token],
    at: usize,
    depth: usize,
    /// [`Unit::calls`], [`Unit::args`] and [`Unit::names`] as read so far.
    calls: Vec<Call>,
    args: Vec<Range<usize>>,
    names: Vec<Range<usize>>,
    /// [`Unit::prototypes`] as read so far.
    prototypes: Vec<Prototype>,
    /// Each name's number, by its text: by naga's Fx hasher, as the
    /// linked text's calls look a name up each, and these names come from
    /// a shader, not from a network peer.
    ids: naga::FastHashMap<&'a str, Name>,
    /// [`Reader::expr`]'s bracket stacks, kept between expressions so
    /// that reading one allocates nothing.
    groups: Vec<bool>,
    opens: Vec<(usize, Option<usize>)>,
}

impl<'a> Reader<'a> {
    fn tok(&self, i: usize) -> Option<&'a str> {
        self.tokens.get(i).map(|t| &self.text[t.range()])
    }

    fn peek(&self) -> Option<&'a str> {
        self.tok(self.at)
    }

    /// Token `i`'s [`Token::code`] (0 past the end): the brackets and
    /// separators the scans below branch on, read without the text.
    fn code(&self, i: usize) -> u8 {
        self.tokens.get(i).map_or(0, |t| t.code)
    }

    fn start(&self, i: usize) -> usize {
        self.tokens.get(i).map_or(self.text.len(), |t| t.start())
    }

    fn end(&self, i: usize) -> usize {
        self.tokens.get(i).map_or(self.text.len(), |t| t.end())
    }

    /// The number of the name at `range`.
    fn name(&mut self, range: Range<usize>) -> Name {
        let next = self.names.len();
        *self
            .ids
            .entry(&self.text[range.clone()])
            .or_insert_with(|| {
                self.names.push(range);
                // A text holds fewer names than bytes, and `check` caps a
                // shader at 16 MiB.
                Name::try_from(next).expect("fewer than 2^32 names")
            })
    }

    fn error(&self, i: usize, message: impl Into<String>) -> ReadError {
        let at = self
            .tokens
            .get(i)
            .map_or(self.text.len()..self.text.len(), |t| t.range());
        ReadError {
            message: message.into(),
            at,
        }
    }

    fn expect(&mut self, what: &str) -> Result<usize, ReadError> {
        if self.peek() == Some(what) {
            self.at += 1;
            Ok(self.at - 1)
        } else {
            Err(self.error(self.at, format!("expected `{what}`")))
        }
    }

    /// The index of the bracket closing the one at `open`.
    fn matching(&self, open: usize) -> Result<usize, ReadError> {
        let mut stack = Vec::new();
        for i in open..self.tokens.len() {
            let t = self.code(i);
            match t {
                b'(' | b'[' | b'{' => stack.push(t),
                b')' | b']' | b'}' => {
                    let want = match t {
                        b')' => b'(',
                        b']' => b'[',
                        _ => b'{',
                    };
                    if stack.pop() != Some(want) {
                        return Err(self.error(i, format!("unbalanced `{}`", t as char)));
                    }
                    if stack.is_empty() {
                        return Ok(i);
                    }
                }
                _ => {}
            }
        }
        Err(self.error(open, "this bracket is never closed"))
    }

    /// A function definition starting at the current token, if one does:
    /// WGSL `[attributes] fn name(…) [-> type] {`, GLSL `type name(…) {`.
    /// Leaves the reader past it.
    fn function(&mut self) -> Result<Option<Function>, ReadError> {
        let i = self.at;
        let name_at = match self.language {
            Language::Wgsl if self.tok(i) == Some("fn") => i + 1,
            Language::Glsl
                if self.tokens.get(i).is_some_and(|t| t.kind == Kind::Ident)
                    && self.tok(i + 1) == Some("(")
                    && i > 0
                    && self.tokens[i - 1].kind == Kind::Ident =>
            {
                i
            }
            Language::Wgsl if self.tok(i) == Some("{") => {
                // A struct's body, or something else: skip it whole.
                self.at = self.matching(i)? + 1;
                return Ok(None);
            }
            _ => return Ok(None),
        };
        if self.tok(name_at + 1) != Some("(") {
            return Ok(None);
        }
        let open = name_at + 1;
        let close = self.matching(open)?;
        // What follows the parameters: the body, or (GLSL) `;` of a
        // prototype, or something that is no function at all.
        let mut j = close + 1;
        let mut ret = None;
        // GLSL attributes after the parameters
        // (GL_EXT_subgroup_uniform_control_flow's on `main`): before the
        // body, as written.
        while self.language == Language::Glsl
            && self.tok(j) == Some("[")
            && self.tok(j + 1) == Some("[")
        {
            j = self.matching(j)? + 1;
        }
        if self.language == Language::Wgsl && self.tok(j) == Some("->") {
            j += 1;
            // The return type's attributes (`@location(0)`) are not part of
            // its text.
            while self.tok(j) == Some("@") {
                j += 2;
                if self.tok(j) == Some("(") {
                    j = self.matching(j)? + 1;
                }
            }
            let from = j;
            while j < self.tokens.len() && self.tok(j) != Some("{") {
                j += 1;
            }
            ret = Some(self.start(from)..self.end(j - 1));
        }
        if self.tok(j) != Some("{") {
            if self.language == Language::Glsl && self.tok(j) == Some(";") {
                let id = self.name(self.tokens[name_at].range());
                self.prototypes.push(Prototype {
                    id,
                    params_open: self.end(open),
                    params_close: self.start(close),
                });
            }
            self.at = close + 1;
            return Ok(None);
        }
        let name = self.tokens[name_at].range();
        let stage = match self.language {
            Language::Wgsl => self.wgsl_stage(i),
            Language::Glsl => (&self.text[name.clone()] == "main").then_some(Stage::Compute),
        };
        if self.language == Language::Glsl {
            let ty = self.tok(i - 1).unwrap_or("");
            if ty != "void" {
                ret = Some(self.tokens[i - 1].range());
            }
        }
        let params = self.params(open, close);
        self.at = j;
        let (calls, args, depth) = (self.calls.len(), self.args.len(), self.depth);
        let (body, unread) = match self.block() {
            Ok(body) => (body, None),
            Err(error) => {
                // The body by its brackets (a text whose brackets do not
                // close is unread as a whole), and the names it calls.
                let end = self.matching(j).map_err(|_| error.clone())?;
                self.calls.truncate(calls);
                self.args.truncate(args);
                self.depth = depth;
                self.groups.clear();
                self.opens.clear();
                let named: Vec<Range<usize>> = (j..end)
                    .filter(|&k| self.tokens[k].kind == Kind::Ident && self.code(k + 1) == b'(')
                    .map(|k| self.tokens[k].range())
                    .collect();
                let called: Vec<Name> = named.into_iter().map(|r| self.name(r)).collect();
                self.at = end + 1;
                let body = Block {
                    range: self.start(j)..self.end(end),
                    stmts: Vec::new(),
                };
                (
                    body,
                    Some(Unread {
                        error,
                        calls: called,
                    }),
                )
            }
        };
        let id = self.name(name.clone());
        Ok(Some(Function {
            id,
            name,
            params_open: self.end(open),
            params_close: self.start(close),
            params,
            ret,
            body,
            stage,
            unread,
        }))
    }

    /// The stage attribute among those before `fn` at `fn_at`.
    fn wgsl_stage(&self, fn_at: usize) -> Option<Stage> {
        let mut k = fn_at;
        let mut stage = None;
        // Walk back over `@name` and `@name(…)`.
        while k >= 2 {
            let prev = self.tok(k - 1)?;
            if prev == ")" {
                // Back to its `(`.
                let mut depth = 0;
                let mut m = k - 1;
                loop {
                    match self.tok(m)? {
                        ")" => depth += 1,
                        "(" => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                    m = m.checked_sub(1)?;
                }
                k = m;
                continue;
            }
            if self.tok(k - 2) == Some("@") {
                match prev {
                    "compute" => stage = Some(Stage::Compute),
                    "fragment" => stage = Some(Stage::Fragment),
                    "vertex" => stage = Some(Stage::Vertex),
                    _ => {}
                }
                k -= 2;
                continue;
            }
            break;
        }
        stage
    }

    fn params(&self, open: usize, close: usize) -> Vec<Param> {
        let mut params = Vec::new();
        let mut from = open + 1;
        // Brackets, and in WGSL a type's `<…>`: a parameter list holds no
        // comparison, so every `<` there opens a template.
        let wgsl = self.language == Language::Wgsl;
        let mut depth = 0i32;
        for i in open + 1..=close {
            let t = self.tok(i).unwrap_or("");
            if i < close {
                match t {
                    "(" | "[" => depth += 1,
                    ")" | "]" => depth -= 1,
                    "<" if wgsl => depth += 1,
                    ">" if wgsl => depth -= 1,
                    ">>" if wgsl => depth -= 2,
                    _ => {}
                }
            }
            if (t == "," && depth == 0) || i == close {
                if let Some(p) = self.param(from, i) {
                    params.push(p);
                }
                from = i + 1;
            }
        }
        params
    }

    /// A parameter in tokens `from..to`: WGSL `[attrs] name: type`, GLSL
    /// `[qualifiers] type name[array]`.
    fn param(&self, from: usize, to: usize) -> Option<Param> {
        if from >= to {
            return None;
        }
        match self.language {
            Language::Wgsl => {
                let colon = (from..to).find(|&i| self.tok(i) == Some(":"))?;
                Some(Param {
                    name: self.tokens[colon - 1].range(),
                    ty: self.start(colon + 1)..self.end(to - 1),
                })
            }
            Language::Glsl => {
                // The last identifier outside brackets is the name.
                let mut last = to - 1;
                if self.tok(last) == Some("]") {
                    while last > from && self.tok(last) != Some("[") {
                        last -= 1;
                    }
                    last = last.checked_sub(1)?;
                }
                if last <= from || self.tokens[last].kind != Kind::Ident {
                    // `void`, or a nameless prototype parameter.
                    return None;
                }
                Some(Param {
                    name: self.tokens[last].range(),
                    ty: self.start(from)..self.end(last - 1),
                })
            }
        }
    }

    fn block(&mut self) -> Result<Block, ReadError> {
        let open = self.expect("{")?;
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err(self.error(open, format!("blocks nest deeper than {MAX_NESTING}")));
        }
        let mut stmts = Vec::new();
        while self.code(self.at) != b'}' {
            if self.at >= self.tokens.len() {
                return Err(self.error(open, "this block is never closed"));
            }
            stmts.push(self.stmt()?);
        }
        self.depth -= 1;
        self.at += 1;
        Ok(Block {
            range: self.start(open)..self.end(self.at - 1),
            stmts,
        })
    }

    /// The tokens up to the first of the one-character tokens `until` at
    /// bracket depth 0, as an expression; the reader stops at that token.
    fn expr_until(&mut self, until: &[u8]) -> Result<Expr, ReadError> {
        let from = self.at;
        let mut depth = 0usize;
        while self.at < self.tokens.len() {
            let t = self.code(self.at);
            if depth == 0 && t != 0 && until.contains(&t) {
                break;
            }
            match t {
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' => {
                    if depth == 0 {
                        return Err(self.error(self.at, format!("unexpected `{}`", t as char)));
                    }
                    depth -= 1;
                }
                _ => {}
            }
            self.at += 1;
        }
        if self.at >= self.tokens.len() {
            return Err(self.error(from, format!("expected `{}`", until[0] as char)));
        }
        Ok(self.expr(from, self.at))
    }

    /// The expression of tokens `from..to`.
    fn expr(&mut self, from: usize, to: usize) -> Expr {
        let range = if from < to {
            self.start(from)..self.end(to - 1)
        } else {
            self.start(from)..self.start(from)
        };
        let first = self.calls.len();
        // The bracket groups open at each token: for each, whether a `&&`,
        // `||` or `?` has been seen in its current comma-separated operand.
        let mut groups = std::mem::take(&mut self.groups);
        let mut opens = std::mem::take(&mut self.opens);
        groups.clear();
        groups.push(false);
        opens.clear();
        for i in from..to {
            let t = self.code(i);
            match t {
                b'(' | b'[' | b'{' => {
                    let callee = (t == b'('
                        && i > from
                        && self.tokens[i - 1].kind == Kind::Ident
                        && (i < from + 2 || self.code(i - 2) != b'.'))
                        .then_some(i - 1);
                    let conditional = groups.iter().any(|&c| c);
                    if let Some(name) = callee {
                        let callee = self.name(self.tokens[name].range());
                        self.calls.push(Call {
                            name: self.tokens[name].range(),
                            callee,
                            open: self.end(i),
                            close: 0,
                            args: 0..0,
                            conditional,
                            range: self.start(name)..0,
                        });
                        opens.push((i, Some(self.calls.len() - 1)));
                    } else {
                        opens.push((i, None));
                    }
                    groups.push(false);
                }
                b')' | b']' | b'}' => {
                    groups.pop();
                    if groups.is_empty() {
                        groups.push(false);
                    }
                    if let Some((open, Some(call))) = opens.pop() {
                        let args = self.args(open, i);
                        let (close, end) = (self.start(i), self.end(i));
                        let c = &mut self.calls[call];
                        c.close = close;
                        c.range.end = end;
                        c.args = args;
                    }
                }
                AND_AND | OR_OR | b'?' => {
                    if let Some(g) = groups.last_mut() {
                        *g = true;
                    }
                }
                b',' => {
                    if let Some(g) = groups.last_mut() {
                        *g = false;
                    }
                }
                _ => {}
            }
        }
        self.groups = groups;
        self.opens = opens;
        // A call never closed (a text cut short) has no arguments read.
        let mut kept = first;
        for i in first..self.calls.len() {
            if self.calls[i].close != 0 {
                self.calls.swap(kept, i);
                kept += 1;
            }
        }
        self.calls.truncate(kept);
        Expr {
            range,
            calls: index(first)..index(kept),
        }
    }

    /// The argument ranges between the brackets at `open` and `close`,
    /// appended to [`Unit::args`].
    fn args(&mut self, open: usize, close: usize) -> Range<u32> {
        let first = self.args.len();
        if close == open + 1 {
            return index(first)..index(first);
        }
        let mut from = open + 1;
        let mut depth = 0;
        for i in open + 1..close {
            match self.code(i) {
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' => depth -= 1,
                b',' if depth == 0 => {
                    let arg = self.start(from)..self.end(i - 1);
                    self.args.push(arg);
                    from = i + 1;
                }
                _ => {}
            }
        }
        if from < close {
            let arg = self.start(from)..self.end(close - 1);
            self.args.push(arg);
        }
        index(first)..index(self.args.len())
    }

    fn stmt(&mut self) -> Result<Stmt, ReadError> {
        let first = self.at;
        let kind = self.stmt_kind()?;
        Ok(Stmt {
            range: self.start(first)..self.end(self.at - 1),
            kind,
        })
    }

    /// The condition of `if`, `while` or `switch`: WGSL's up to the `{`,
    /// GLSL's in parentheses.
    fn head(&mut self) -> Result<Expr, ReadError> {
        match self.language {
            Language::Wgsl => self.expr_until(b"{"),
            Language::Glsl => {
                let open = self.expect("(")?;
                let close = self.matching(open)?;
                let e = self.expr(open + 1, close);
                self.at = close + 1;
                Ok(e)
            }
        }
    }

    /// A statement body: a block in WGSL, any statement in GLSL.
    fn body(&mut self) -> Result<Box<Stmt>, ReadError> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err(self.error(
                self.at,
                format!("statements nest deeper than {MAX_NESTING}"),
            ));
        }
        let s = match self.language {
            Language::Wgsl => {
                let first = self.at;
                let b = self.block()?;
                Stmt {
                    range: self.start(first)..self.end(self.at - 1),
                    kind: StmtKind::Block(b),
                }
            }
            Language::Glsl => self.stmt()?,
        };
        self.depth -= 1;
        Ok(Box::new(s))
    }

    fn stmt_kind(&mut self) -> Result<StmtKind, ReadError> {
        // GL_EXT_control_flow_attributes: `[[unroll]]`, `[[dont_unroll]]`,
        // `[[flatten]]`, `[[loop]]`, … before a statement are hints to the
        // compiler, not code; the statement's text keeps them where it is
        // written as it was, and a converted loop drops them with its head.
        // So do the macros that stand for them, or for nothing.
        while self.language == Language::Glsl {
            if self.peek() == Some("[") && self.tok(self.at + 1) == Some("[") {
                self.at = self.matching(self.at)? + 1;
            } else if !self.hints.is_empty()
                && self
                    .tokens
                    .get(self.at)
                    .is_some_and(|t| t.kind == Kind::Ident)
                && self.peek().is_some_and(|t| self.hints.contains(&t))
            {
                self.at += 1;
            } else {
                break;
            }
        }
        let Some(t) = self.peek() else {
            return Err(self.error(self.at, "expected a statement"));
        };
        if self.tokens[self.at].kind == Kind::Directive {
            self.at += 1;
            return Ok(StmtKind::Directive);
        }
        let wgsl = self.language == Language::Wgsl;
        match t {
            "{" => Ok(StmtKind::Block(self.block()?)),
            ";" => {
                self.at += 1;
                Ok(StmtKind::Empty)
            }
            "if" => {
                self.at += 1;
                let cond = self.head()?;
                let then = self.body()?;
                let els = if self.peek() == Some("else") {
                    self.at += 1;
                    if wgsl && self.peek() == Some("if") {
                        // `else if` is an `if` statement in the else arm.
                        Some(Box::new(self.stmt()?))
                    } else {
                        Some(self.body()?)
                    }
                } else {
                    None
                };
                Ok(StmtKind::If { cond, then, els })
            }
            "for" => {
                self.at += 1;
                let open = self.expect("(")?;
                let close = self.matching(open)?;
                let init = if self.peek() == Some(";") {
                    self.at += 1;
                    None
                } else {
                    Some(Box::new(self.stmt()?))
                };
                // WGSL's init has no `;` of its own in the statement form
                // read above; GLSL's declaration ends with it.
                let cond = if self.peek() == Some(";") {
                    None
                } else {
                    Some(self.expr_until(b";")?)
                };
                self.expect(";")?;
                let update = if self.at == close {
                    None
                } else {
                    let e = self.expr(self.at, close);
                    Some(e)
                };
                self.at = close + 1;
                let body = self.body()?;
                Ok(StmtKind::For {
                    init,
                    cond,
                    update,
                    body,
                })
            }
            "while" => {
                self.at += 1;
                let cond = self.head()?;
                let body = self.body()?;
                Ok(StmtKind::While { cond, body })
            }
            "do" if !wgsl => {
                self.at += 1;
                let body = self.body()?;
                self.expect("while")?;
                let cond = self.head()?;
                self.expect(";")?;
                Ok(StmtKind::DoWhile { body, cond })
            }
            "loop" if wgsl => {
                self.at += 1;
                let open = self.expect("{")?;
                let mut stmts = Vec::new();
                let mut continuing = None;
                loop {
                    match self.peek() {
                        Some("}") => break,
                        Some("continuing") => {
                            self.at += 1;
                            continuing = Some(self.block()?);
                        }
                        Some(_) => stmts.push(self.stmt()?),
                        None => return Err(self.error(open, "this loop is never closed")),
                    }
                }
                self.at += 1;
                Ok(StmtKind::Loop {
                    body: Block {
                        range: self.start(open)..self.end(self.at - 1),
                        stmts,
                    },
                    continuing,
                })
            }
            "switch" => {
                self.at += 1;
                let selector = self.head()?;
                let cases = self.cases()?;
                Ok(StmtKind::Switch { selector, cases })
            }
            "break" => {
                self.at += 1;
                if wgsl && self.peek() == Some("if") {
                    self.at += 1;
                    let e = self.expr_until(b";")?;
                    self.at += 1;
                    return Ok(StmtKind::BreakIf(e));
                }
                self.expect(";")?;
                Ok(StmtKind::Break)
            }
            "continue" => {
                self.at += 1;
                self.expect(";")?;
                Ok(StmtKind::Continue)
            }
            "discard" => {
                self.at += 1;
                self.expect(";")?;
                Ok(StmtKind::Discard)
            }
            "return" => {
                self.at += 1;
                let value = if self.peek() == Some(";") {
                    None
                } else {
                    Some(self.expr_until(b";")?)
                };
                self.expect(";")?;
                Ok(StmtKind::Return(value))
            }
            "let" | "var" | "const" if wgsl => self.wgsl_decl(),
            _ if !wgsl && self.glsl_decl_start() => self.glsl_decl(),
            _ => {
                let e = self.expr_until(b";")?;
                self.expect(";")?;
                Ok(StmtKind::Simple(e))
            }
        }
    }

    /// WGSL `let x [: T] = e;`, `var[<…>] x [: T] [= e];`, `const …`.
    fn wgsl_decl(&mut self) -> Result<StmtKind, ReadError> {
        let kind = match self.peek() {
            Some("let") => DeclKind::Let,
            Some("var") => DeclKind::Var,
            _ => DeclKind::Const,
        };
        self.at += 1;
        if kind == DeclKind::Var && self.peek() == Some("<") {
            while self.at < self.tokens.len() && self.peek() != Some(">") {
                self.at += 1;
            }
            self.at += 1;
        }
        let name_at = self.at;
        if self.tokens.get(name_at).map(|t| t.kind) != Some(Kind::Ident) {
            return Err(self.error(name_at, "expected a name"));
        }
        self.at += 1;
        let mut ty = None;
        if self.peek() == Some(":") {
            self.at += 1;
            let e = self.expr_until(b"=;")?;
            ty = Some(e.range);
        }
        let init = if self.peek() == Some("=") {
            self.at += 1;
            Some(self.expr_until(b";")?)
        } else {
            None
        };
        self.expect(";")?;
        Ok(StmtKind::Decl(Decl {
            kind,
            ty,
            declarators: vec![Declarator {
                name: self.tokens[name_at].range(),
                suffix: None,
                init,
            }],
        }))
    }

    /// Whether a GLSL declaration starts here: qualifiers, then a type
    /// (with array brackets) and a name. No GLSL expression statement
    /// starts with two names.
    fn glsl_decl_start(&self) -> bool {
        let mut i = self.at;
        while self.tok(i).is_some_and(|t| GLSL_QUALIFIERS.contains(&t)) {
            i += 1;
        }
        if self.tokens.get(i).map(|t| t.kind) != Some(Kind::Ident) {
            return false;
        }
        i += 1;
        while self.tok(i) == Some("[") {
            match self.matching(i) {
                Ok(close) => i = close + 1,
                Err(_) => return false,
            }
        }
        self.tokens.get(i).map(|t| t.kind) == Some(Kind::Ident)
    }

    fn glsl_decl(&mut self) -> Result<StmtKind, ReadError> {
        let from = self.at;
        let mut kind = DeclKind::Typed;
        while self.peek().is_some_and(|t| GLSL_QUALIFIERS.contains(&t)) {
            if self.peek() == Some("const") {
                kind = DeclKind::Const;
            }
            self.at += 1;
        }
        self.at += 1;
        while self.peek() == Some("[") {
            self.at = self.matching(self.at)? + 1;
        }
        let ty = self.start(from)..self.end(self.at - 1);
        let mut declarators = Vec::new();
        loop {
            let name_at = self.at;
            if self.tokens.get(name_at).map(|t| t.kind) != Some(Kind::Ident) {
                return Err(self.error(name_at, "expected a name"));
            }
            self.at += 1;
            let mut suffix = None;
            if self.peek() == Some("[") {
                let open = self.at;
                while self.peek() == Some("[") {
                    self.at = self.matching(self.at)? + 1;
                }
                suffix = Some(self.start(open)..self.end(self.at - 1));
            }
            let init = if self.peek() == Some("=") {
                self.at += 1;
                Some(self.expr_until(b",;")?)
            } else {
                None
            };
            declarators.push(Declarator {
                name: self.tokens[name_at].range(),
                suffix,
                init,
            });
            match self.peek() {
                Some(",") => self.at += 1,
                _ => break,
            }
        }
        self.expect(";")?;
        Ok(StmtKind::Decl(Decl {
            kind,
            ty: Some(ty),
            declarators,
        }))
    }

    /// A `switch`'s `{ case …: … }`.
    fn cases(&mut self) -> Result<Vec<Case>, ReadError> {
        let open = self.expect("{")?;
        let mut cases = Vec::new();
        loop {
            let first = self.at;
            let mut values = Vec::new();
            let mut default = false;
            match self.peek() {
                Some("}") => {
                    self.at += 1;
                    return Ok(cases);
                }
                Some("default") => {
                    self.at += 1;
                    default = true;
                }
                Some("case") => {
                    self.at += 1;
                    // Values up to `:` or (WGSL) the case's `{`, separated
                    // by commas; WGSL allows `default` among them.
                    loop {
                        if self.peek() == Some("default") {
                            self.at += 1;
                            default = true;
                        } else {
                            values.push(self.expr_until(b",:{")?);
                        }
                        if self.peek() == Some(",") {
                            self.at += 1;
                            if matches!(self.peek(), Some(":" | "{")) {
                                break;
                            }
                            continue;
                        }
                        break;
                    }
                }
                None => return Err(self.error(open, "this switch is never closed")),
                Some(_) => return Err(self.error(self.at, "expected `case` or `default`")),
            }
            let at = self.start(first)..self.end(self.at - 1);
            let body = if self.language == Language::Wgsl {
                if self.peek() == Some(":") {
                    self.at += 1;
                }
                self.block()?.stmts
            } else {
                self.expect(":")?;
                let mut body = Vec::new();
                while !matches!(self.peek(), Some("case" | "default" | "}") | None) {
                    body.push(self.stmt()?);
                }
                body
            };
            cases.push(Case {
                at,
                values,
                default,
                body,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(text: &str, language: Language) -> Function {
        let unit = read(text, language).unwrap();
        assert_eq!(unit.functions.len(), 1, "{unit:?}");
        unit.functions.into_iter().next().unwrap()
    }

    #[test]
    fn a_wgsl_function_right_after_a_struct_is_read() {
        // WGSL needs no `;` after a struct's `}`: the `fn` that follows is
        // the next item (probes of the emulation: it went unconverted).
        let text = "struct S { a: u32, b: u32 }\nfn red(v: u32) -> u32 { return v; }\n";
        let f = one(text, Language::Wgsl);
        assert_eq!(&text[f.name], "red");
    }

    #[test]
    fn glsl_attributes_after_the_parameters_come_before_the_body() {
        // GL_EXT_subgroup_uniform_control_flow (dxvk's mipgen), and two.
        for attrs in ["[[subgroup_uniform_control_flow]]", "[[a]] [[b, c]]"] {
            let text = format!("void main() {attrs} {{\n    f(subgroupAdd(1u));\n}}\n");
            let f = one(&text, Language::Glsl);
            assert_eq!(&text[f.name.clone()], "main");
            assert_eq!(f.body.stmts.len(), 1, "{attrs}");
            assert!(text[f.body.range.clone()].starts_with('{'), "{attrs}");
        }
    }

    #[test]
    fn wgsl_functions_statements_and_calls() {
        let text = "struct S { a: u32 }\n@group(0) @binding(0) var<storage> d: array<u32>;\n\
                    @compute @workgroup_size(64)\nfn main(@builtin(local_invocation_index) i: u32) {\n\
                    if i >= arrayLength(&d) { return; }\n\
                    let b = subgroupBallot(d[i] > 0u && f(i));\n\
                    for (var k = 0u; k < i; k++) { continue; }\n}\n";
        let unit = read(text, Language::Wgsl).unwrap();
        assert_eq!(unit.functions.len(), 1);
        let f = &unit.functions[0];
        assert_eq!(&text[f.name.clone()], "main");
        assert_eq!(f.stage, Some(Stage::Compute));
        assert_eq!(&text[f.params[0].name.clone()], "i");
        assert_eq!(&text[f.params[0].ty.clone()], "u32");
        let s = &f.body.stmts;
        assert_eq!(s.len(), 3);
        let StmtKind::If { cond, then, els } = &s[0].kind else {
            panic!("{:?}", s[0])
        };
        assert_eq!(&text[cond.range.clone()], "i >= arrayLength(&d)");
        assert!(els.is_none());
        let StmtKind::Block(b) = &then.kind else {
            panic!()
        };
        assert!(matches!(b.stmts[0].kind, StmtKind::Return(None)));
        let StmtKind::Decl(d) = &s[1].kind else {
            panic!()
        };
        let init = d.declarators[0].init.as_ref().unwrap();
        let calls = unit.calls(init);
        let names: Vec<_> = calls.iter().map(|c| &text[c.name.clone()]).collect();
        assert_eq!(names, ["subgroupBallot", "f"]);
        // `f` is the right operand of `&&`; the ballot itself is not.
        assert!(!calls[0].conditional);
        assert!(calls[1].conditional);
        assert_eq!(&text[unit.args(&calls[0])[0].clone()], "d[i] > 0u && f(i)");
        assert_eq!(unit.args(&calls[1]).len(), 1);
        let StmtKind::For {
            init, cond, update, ..
        } = &s[2].kind
        else {
            panic!()
        };
        assert!(matches!(init.as_ref().unwrap().kind, StmtKind::Decl(_)));
        assert_eq!(&text[cond.as_ref().unwrap().range.clone()], "k < i");
        assert_eq!(&text[update.as_ref().unwrap().range.clone()], "k++");
    }

    #[test]
    fn glsl_declarations_switch_and_do() {
        let text = "#version 450\nlayout(local_size_x = 64) in;\nlayout(std430) buffer B { uint d[]; };\n\
                    uint f(uint x, const in uint y[2]) { return x; }\n\
                    void main() {\n  const uint n = 4u, m[2] = uint[2](1u, 2u);\n  mediump float q;\n\
                    switch (n) { case 1: case 2: q = 1.0; break; default: break; }\n\
                    do { q += 1.0; } while (q < 3.0);\n  if (subgroupElect()) d[0] = 1u; else d[1] = n > 1u ? f(1u, m) : 0u;\n}\n";
        let unit = read(text, Language::Glsl).unwrap();
        let names: Vec<_> = unit
            .functions
            .iter()
            .map(|f| &text[f.name.clone()])
            .collect();
        assert_eq!(names, ["f", "main"]);
        let f = &unit.functions[0];
        assert_eq!(&text[f.ret.clone().unwrap()], "uint");
        assert_eq!(f.params.len(), 2);
        assert_eq!(&text[f.params[1].name.clone()], "y");
        assert_eq!(&text[f.params[1].ty.clone()], "const in uint");
        let main = &unit.functions[1];
        assert_eq!(main.stage, Some(Stage::Compute));
        let s = &main.body.stmts;
        let StmtKind::Decl(d) = &s[0].kind else {
            panic!()
        };
        assert_eq!(d.kind, DeclKind::Const);
        assert_eq!(d.declarators.len(), 2);
        assert_eq!(&text[d.declarators[1].suffix.clone().unwrap()], "[2]");
        let StmtKind::Decl(q) = &s[1].kind else {
            panic!()
        };
        assert_eq!(&text[q.ty.clone().unwrap()], "mediump float");
        let StmtKind::Switch { cases, .. } = &s[2].kind else {
            panic!()
        };
        assert_eq!(cases.len(), 3);
        assert!(cases[0].body.is_empty());
        assert_eq!(cases[1].body.len(), 2);
        assert!(cases[2].default);
        assert!(matches!(s[3].kind, StmtKind::DoWhile { .. }));
        let StmtKind::If { cond, els, .. } = &s[4].kind else {
            panic!()
        };
        assert_eq!(&text[unit.calls(cond)[0].name.clone()], "subgroupElect");
        let StmtKind::Simple(e) = &els.as_ref().unwrap().kind else {
            panic!()
        };
        let f_call = unit
            .calls(e)
            .iter()
            .find(|c| &text[c.name.clone()] == "f")
            .unwrap();
        assert!(f_call.conditional, "an arm of ?:");
        assert_eq!(unit.args(f_call).len(), 2);
        // A call's name and the function's are one name; others differ.
        assert_eq!(f_call.callee, f.id);
        assert_ne!(f.id, main.id);
        assert_ne!(unit.calls(cond)[0].callee, f.id);
        assert_eq!(&text[unit.names[f.id as usize].clone()], "f");
    }

    #[test]
    fn wgsl_loop_continuing_break_if_and_else_if() {
        let text = "fn g(a: u32) -> u32 {\n var i = 0u;\n loop {\n  if a == 0u { break; } else if a == 1u { i = 2u; } else { i = 3u; }\n  continuing { i++; break if i > a; }\n }\n switch a { case 0u, 1u: { return 1u; } case default, 2u { } }\n return i;\n}\n";
        let f = one(text, Language::Wgsl);
        assert_eq!(&text[f.ret.clone().unwrap()], "u32");
        let StmtKind::Loop { body, continuing } = &f.body.stmts[1].kind else {
            panic!()
        };
        let StmtKind::If { els, .. } = &body.stmts[0].kind else {
            panic!()
        };
        assert!(matches!(els.as_ref().unwrap().kind, StmtKind::If { .. }));
        let c = continuing.as_ref().unwrap();
        assert!(matches!(c.stmts[1].kind, StmtKind::BreakIf(_)));
        let StmtKind::Switch { cases, .. } = &f.body.stmts[2].kind else {
            panic!()
        };
        assert_eq!(cases[0].values.len(), 2);
        assert!(cases[1].default);
        assert_eq!(cases[1].values.len(), 1);
    }

    #[test]
    fn unbalanced_text_is_an_error_not_a_panic() {
        for text in [
            "fn f() { if (a { }",
            "fn f() { let x = (1;",
            "fn f() {",
            "fn f() { switch x { case",
        ] {
            assert!(read(text, Language::Wgsl).is_err(), "{text}");
        }
        assert!(read("void main() { for (;;", Language::Glsl).is_err());
    }
}
