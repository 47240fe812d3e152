//! The printer: the text again, with each converted function's body
//! written as its steps, in the shader's language. Only prints: every
//! decision is the pass's.

use std::ops::Range;

use super::masked::{Cond, Converted, Flag, Piece, Place, Step, Sub};
use super::tree::{Name, Prototype, Unit};
use ballot_shader::back::Language;
use std::collections::BTreeSet;

/// Where a piece of the printed text comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Origin {
    /// Copied from the text read, from this offset on.
    Copied(usize),
    /// Written by the printer for this range of the text read.
    Written(Range<usize>),
}

/// The printed text, and its pieces' origins in text order.
#[derive(Clone, Debug, Default)]
pub(crate) struct Printed {
    pub text: String,
    pub pieces: Vec<(Range<usize>, Origin)>,
}

impl Printed {
    fn copy(&mut self, source: &str, range: Range<usize>) {
        if range.is_empty() {
            return;
        }
        let start = self.text.len();
        self.text.push_str(&source[range.clone()]);
        self.pieces
            .push((start..self.text.len(), Origin::Copied(range.start)));
    }

    fn write(&mut self, text: &str, blame: &Range<usize>) {
        if text.is_empty() {
            return;
        }
        let start = self.text.len();
        self.text.push_str(text);
        self.pieces
            .push((start..self.text.len(), Origin::Written(blame.clone())));
    }

    /// The range of the text read behind `range` of this one: a copy maps
    /// offset for offset, a written piece to what it was written for.
    pub(crate) fn origin(&self, range: &Range<usize>) -> Option<Range<usize>> {
        let (piece, origin) = self.pieces.iter().find(|(p, _)| {
            p.contains(&range.start) || (p.end == range.start && p.end == self.text.len())
        })?;
        Some(match origin {
            Origin::Copied(at) => {
                let start = at + (range.start - piece.start);
                let end = at + (range.end.min(piece.end) - piece.start);
                start..end.max(start)
            }
            Origin::Written(blame) => blame.clone(),
        })
    }
}

/// Prints `text` with `converted`'s functions rewritten. Names start
/// with `prefix`; `vote` is the workgroup vote's function.
pub(crate) fn print(
    text: &str,
    language: Language,
    unit: &Unit,
    converted: &[Converted],
    prefix: &str,
    vote: &str,
) -> Printed {
    let mut out = Printed::default();
    let mut at = 0;
    let w = Writer {
        text,
        language,
        prefix,
        vote,
    };
    // The functions that take the caller's activity, by name: their GLSL
    // prototypes take it too.
    let takes_activity: BTreeSet<Name> = converted
        .iter()
        .filter(|c| !c.entry)
        .map(|c| unit.functions[c.function].id)
        .collect();
    let mut edits: Vec<(usize, Edit<'_>)> = converted
        .iter()
        .map(|c| (unit.functions[c.function].name.start, Edit::Function(c)))
        .chain(
            unit.prototypes
                .iter()
                .filter(|p| takes_activity.contains(&p.id))
                .map(|p| (p.params_open, Edit::Prototype(p))),
        )
        .collect();
    edits.sort_by_key(|(at, _)| *at);
    for (_, edit) in edits {
        let c = match edit {
            Edit::Prototype(p) => {
                at = w.activity_param(
                    &mut out,
                    at,
                    p.params_open,
                    p.params_close,
                    &(p.params_open..p.params_close),
                );
                continue;
            }
            Edit::Function(c) => c,
        };
        let f = &unit.functions[c.function];
        let blame = f.name.clone();
        if !c.entry {
            // The caller's activity, first.
            at = w.activity_param(&mut out, at, f.params_open, f.params_close, &blame);
        }
        out.copy(text, at..f.body.range.start);
        let mut body = Vec::new();
        let active_in = if c.entry {
            "true".to_string()
        } else {
            w.flag(Flag::ActiveIn)
        };
        w.line(&mut body, 1, &w.var_bool(Flag::Active, &active_in));
        w.line(&mut body, 1, &w.var_bool(Flag::Ret, "false"));
        // A function that ends with its only return, as written, keeps no
        // return value apart.
        let ret = f
            .ret
            .as_ref()
            .filter(|_| !c.tail_return)
            .map(|r| text[r.clone()].trim());
        if let Some(ret) = ret {
            let name = w.ret_val();
            let decl = match language {
                Language::Wgsl => format!("var {name}: {ret};"),
                Language::Glsl => format!("{ret} {name};"),
            };
            w.line(&mut body, 1, &decl);
        }
        for s in &c.steps {
            w.step(&mut body, 1, s);
        }
        if ret.is_some() {
            w.line(&mut body, 1, &format!("return {};", w.ret_val()));
        }
        out.write("{\n", &blame);
        for (piece, origin) in body {
            match origin {
                Some(at) => out.copy(text, at),
                None => out.write(&piece, &blame),
            }
        }
        out.write("}", &blame);
        at = f.body.range.end;
    }
    out.copy(text, at..text.len());
    out
}

/// What the printer changes, in text order.
enum Edit<'c> {
    /// A converted function.
    Function(&'c Converted),
    /// The prototype of a function that takes the caller's activity.
    Prototype(&'c Prototype),
}

/// Text, or a copy of a range of the text read.
type Line = (String, Option<Range<usize>>);

struct Writer<'a> {
    text: &'a str,
    language: Language,
    prefix: &'a str,
    vote: &'a str,
}

impl Writer<'_> {
    /// Copies the text from `at` to the parameter list that starts at
    /// `open` and ends at `close`, and writes the caller's activity as its
    /// first parameter; returns where copying resumes.
    fn activity_param(
        &self,
        out: &mut Printed,
        at: usize,
        open: usize,
        close: usize,
        blame: &Range<usize>,
    ) -> usize {
        out.copy(self.text, at..open);
        let list = self.text[open..close].trim();
        let active_in = self.flag(Flag::ActiveIn);
        let param = match self.language {
            Language::Wgsl => format!("{active_in}: bool"),
            Language::Glsl => format!("bool {active_in}"),
        };
        let resume = if list.is_empty() {
            out.write(&param, blame);
            open
        } else if self.language == Language::Glsl && list == "void" {
            out.write(&param, blame);
            close
        } else {
            out.write(&format!("{param}, "), blame);
            open
        };
        if self.language != Language::Glsl {
            return resume;
        }
        // GLSL copies an `out` parameter back to the caller's variable at
        // the return, in every invocation, and every invocation makes a
        // converted call: one that is not active would copy back a value
        // the function never wrote. As `inout` it copies back the value it
        // was given, which only an active invocation changes.
        let mut at = resume;
        let bytes = self.text.as_bytes();
        let ident = |k: usize| {
            bytes
                .get(k)
                .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_')
        };
        let mut k = resume;
        while let Some(found) = self.text[k..close].find("out") {
            let start = k + found;
            if start > 0 && !ident(start - 1) && !ident(start + 3) {
                out.copy(self.text, at..start);
                out.write("in", blame);
                at = start;
            }
            k = start + 3;
        }
        at
    }

    fn flag(&self, f: Flag) -> String {
        let p = self.prefix;
        match f {
            Flag::Active => format!("{p}active"),
            Flag::ActiveIn => format!("{p}active_in"),
            Flag::Ret => format!("{p}ret"),
            Flag::Outer(k) => format!("{p}outer{k}"),
            Flag::Taken(k) => format!("{p}taken{k}"),
            Flag::Entry(k) => format!("{p}entry{k}"),
            Flag::Brk(k) => format!("{p}brk{k}"),
            Flag::Cont(k) => format!("{p}cont{k}"),
        }
    }

    fn ret_val(&self) -> String {
        format!("{}ret_val", self.prefix)
    }

    fn temp(&self, t: u32) -> String {
        format!("{}t{t}", self.prefix)
    }

    fn cond(&self, c: &Cond) -> String {
        match c {
            Cond::False => "false".into(),
            Cond::Flag(f) => self.flag(*f),
            Cond::Not(f) => format!("!{}", self.flag(*f)),
            Cond::And(a, b) => format!("({} && {})", self.cond(a), self.cond(b)),
            Cond::Or(a, b) => format!("({} || {})", self.cond(a), self.cond(b)),
        }
    }

    fn var_bool(&self, f: Flag, value: &str) -> String {
        match self.language {
            Language::Wgsl => format!("var {} = {value};", self.flag(f)),
            Language::Glsl => format!("bool {} = {value};", self.flag(f)),
        }
    }

    fn let_bool(&self, f: Flag, value: &str) -> String {
        match self.language {
            Language::Wgsl => format!("let {} = {value};", self.flag(f)),
            Language::Glsl => format!("bool {} = {value};", self.flag(f)),
        }
    }

    fn line(&self, out: &mut Vec<Line>, depth: usize, text: &str) {
        out.push((format!("{}{text}\n", "    ".repeat(depth)), None));
    }

    /// A piece's text, its substitutions written.
    fn piece(&self, p: &Piece) -> Vec<Line> {
        let mut out = Vec::new();
        let mut at = p.range.start;
        for (r, sub) in &p.subs {
            if r.start > at {
                out.push((String::new(), Some(at..r.start)));
            }
            let active = self.flag(Flag::Active);
            out.push((
                match sub {
                    Sub::Temp(t) => self.temp(*t),
                    Sub::Active => active,
                    Sub::ActiveArg { flag, more: true } => format!("{}, ", self.flag(*flag)),
                    Sub::ActiveArg { flag, more: false } => self.flag(*flag),
                    Sub::Flag(flag) => self.flag(*flag),
                    Sub::Evaluate { flag, open } => format!("({} ? {open}", self.flag(*flag)),
                    Sub::Otherwise(zero) => format!(") : {zero})"),
                },
                None,
            ));
            at = r.end.max(at);
        }
        if p.range.end > at {
            out.push((String::new(), Some(at..p.range.end)));
        }
        out
    }

    fn indent(&self, out: &mut Vec<Line>, depth: usize) {
        out.push(("    ".repeat(depth), None));
    }

    /// `if (ACTIVE) { <inner> }` around pieces.
    fn guarded(&self, out: &mut Vec<Line>, depth: usize, inner: Vec<Line>, end: &str) {
        self.indent(out, depth);
        out.push((format!("if ({}) {{ ", self.flag(Flag::Active)), None));
        out.extend(inner);
        out.push((format!("{end} }}\n"), None));
    }

    fn step(&self, out: &mut Vec<Line>, depth: usize, s: &Step) {
        match s {
            Step::Plain(p) => {
                self.indent(out, depth);
                out.extend(self.piece(p));
                out.push(("\n".into(), None));
            }
            Step::Guarded(p) => self.guarded(out, depth, self.piece(p), ""),
            Step::GuardedExpr(p) => self.guarded(out, depth, self.piece(p), ";"),
            Step::Bind { temp, ty, value } => {
                self.indent(out, depth);
                let name = self.temp(*temp);
                out.push((
                    match (self.language, ty) {
                        (Language::Glsl, Some(ty)) => format!("{ty} {name} = "),
                        _ => format!("let {name} = "),
                    },
                    None,
                ));
                out.extend(self.piece(value));
                out.push((";\n".into(), None));
            }
            Step::Declare { name, ty, suffix } => {
                let name = &self.text[name.clone()];
                let line = match self.language {
                    Language::Wgsl => format!("var {name}: {ty};"),
                    Language::Glsl => {
                        let suffix = suffix.as_ref().map_or("", |s| &self.text[s.clone()]);
                        format!("{ty} {name}{suffix};")
                    }
                };
                self.line(out, depth, &line);
            }
            Step::Assign { place, value } => {
                let to = match place {
                    Place::User(r) => self.text[r.clone()].to_string(),
                    Place::RetVal => self.ret_val(),
                };
                let mut inner = vec![(format!("{to} = "), None)];
                inner.extend(self.piece(value));
                self.guarded(out, depth, inner, ";");
            }
            Step::Test { flag, value } => {
                self.line(out, depth, &self.var_bool(*flag, "false"));
                let mut inner = vec![(format!("{} = (", self.flag(*flag)), None)];
                inner.extend(self.piece(value));
                self.guarded(out, depth, inner, ");");
            }
            Step::Dispatch { selector, arms } => {
                for (flag, _, _) in arms {
                    self.line(out, depth, &self.var_bool(*flag, "false"));
                }
                let mut inner = vec![("switch (".into(), None)];
                inner.extend(self.piece(selector));
                inner.push((") { ".into(), None));
                let wgsl = self.language == Language::Wgsl;
                for (flag, values, default) in arms {
                    let labels: Vec<Vec<Line>> = values
                        .iter()
                        .map(|v| self.piece(v))
                        .chain(default.then(|| vec![("default".to_string(), None)]))
                        .collect();
                    // WGSL: `case a, b, default: { … }`; GLSL: `case a:
                    // case b: default: …; break;`.
                    for (k, label) in labels.into_iter().enumerate() {
                        let is_default = label.len() == 1 && label[0].0 == "default";
                        let head = match (wgsl, k, is_default) {
                            (true, 0, true) => "",
                            (true, 0, false) => "case ",
                            (true, _, _) => ", ",
                            (false, _, true) => "",
                            (false, _, false) => "case ",
                        };
                        inner.push((head.to_string(), None));
                        inner.extend(label);
                        if !wgsl {
                            inner.push((": ".into(), None));
                        }
                    }
                    let set = format!("{} = true;", self.flag(*flag));
                    inner.push((
                        if wgsl {
                            format!(": {{ {set} }} ")
                        } else {
                            format!("{set} break; ")
                        },
                        None,
                    ));
                }
                // WGSL's `switch` needs a `default`.
                if wgsl && !arms.iter().any(|(_, _, default)| *default) {
                    inner.push(("default: {} ".into(), None));
                }
                inner.push(("}".into(), None));
                self.guarded(out, depth, inner, "");
            }
            Step::Let { flag, cond } => {
                self.line(out, depth, &self.let_bool(*flag, &self.cond(cond)))
            }
            Step::Var { flag, cond } => {
                self.line(out, depth, &self.var_bool(*flag, &self.cond(cond)))
            }
            Step::Set { flag, cond } => self.line(
                out,
                depth,
                &format!("{} = {};", self.flag(*flag), self.cond(cond)),
            ),
            Step::Scope(steps) => {
                self.line(out, depth, "{");
                for s in steps {
                    self.step(out, depth + 1, s);
                }
                self.line(out, depth, "}");
            }
            Step::Loop(steps) => {
                self.line(
                    out,
                    depth,
                    match self.language {
                        Language::Wgsl => "loop {",
                        Language::Glsl => "for (;;) {",
                    },
                );
                for s in steps {
                    self.step(out, depth + 1, s);
                }
                self.line(out, depth, "}");
            }
            Step::Exit { vote } => {
                let active = self.flag(Flag::Active);
                let test = if *vote {
                    format!("{}({active})", self.vote)
                } else {
                    active
                };
                self.line(out, depth, &format!("if (!{test}) {{ break; }}"));
            }
        }
    }
}
