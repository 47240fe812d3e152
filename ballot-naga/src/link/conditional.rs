//! GLSL's conditional compilation (`#if`, `#ifdef`, `#ifndef`, `#elif`,
//! `#else`, `#endif`), decided where the text decides it, for the
//! emulated targets, which rewrite the functions that reach a collective.
//!
//! Real shaders choose their code with the preprocessor: a collective in
//! a branch that is not compiled must not be linked (nor refused for
//! having no emulation), and a directive inside a function would be torn
//! from its line by the rewrite. So every conditional whose conditions
//! the text decides, with the macros it `#define`s and `#undef`s before
//! them, and those the caller gives (`-D`, `LinkOptions::defines`), is
//! resolved: its directive lines and the lines of
//! its branches not taken become blanks, character for character, so
//! that every offset and line of the text stays where it was. A
//! conditional that names a function-like macro, or that is not an
//! integer expression, stays as it is, with all it holds, for glslang to
//! decide; so do the conditionals inside it.
//!
//! The expressions are those of the C preprocessor that GLSL takes:
//! integer literals, `defined X` and `defined(X)`, object-like macros
//! (expanded, at most [`MAX_EXPANSION`] deep), identifiers that name no
//! macro (0), and the unary, binary and `?:` operators. glslang defines
//! some names before the text: the linker knows `__VERSION__`, `VULKAN`,
//! `GL_SPIRV` and the subgroup extensions the emulation gives (defined)
//! or lacks (not); a condition on another `GL_` or `__` name is
//! glslang's to decide.

use std::collections::BTreeMap;
use std::ops::Range;

/// How deep object-like macros may expand into each other in a condition.
pub(super) const MAX_EXPANSION: usize = 64;

/// The text with every conditional the text decides resolved, or `None`
/// where it has no conditional it can decide.
pub(super) fn resolve(text: &str, defines: &[(String, String)]) -> Option<String> {
    let lines = logical_lines(text);
    // glslang's own, as it compiles the linked text (Vulkan SPIR-V), then
    // the caller's (`-D`), then the text's own, in order.
    let mut macros = predefined(text);
    macros.extend(
        defines
            .iter()
            .map(|(name, value)| match name.split_once('(') {
                // A function-like one (`-D 'LD(b,i)=b[i]'`): defined.
                Some((name, _)) => (name.trim().to_string(), Macro::Function),
                None => (name.clone(), Macro::Object(value.clone())),
            }),
    );
    // Open conditionals, innermost last.
    let mut open: Vec<Frame> = Vec::new();
    let mut blank: Vec<Range<usize>> = Vec::new();
    // Whether a `/* … */` comment is open at the line's start: a `#` line
    // inside one is no directive.
    let mut in_comment = false;
    for line in &lines {
        let active = open.iter().all(|f| f.taking);
        let decided = open.iter().all(|f| f.decided);
        let commented = in_comment;
        in_comment = comment_open_after(&text[line.clone()], in_comment);
        let found = (!commented)
            .then(|| directive(&text[line.clone()]))
            .flatten();
        let Some((word, rest)) = found else {
            if !active {
                blank.push(line.clone());
            }
            continue;
        };
        let rest = rest.as_str();
        match word {
            "if" | "ifdef" | "ifndef" => {
                let condition = if !(active && decided) {
                    None
                } else {
                    match word {
                        "ifdef" => name(rest).and_then(|n| is_defined(&macros, n)),
                        "ifndef" => name(rest).and_then(|n| is_defined(&macros, n)).map(|d| !d),
                        _ => evaluate(rest, &macros).map(|v| v != 0),
                    }
                };
                let frame = match condition {
                    Some(taken) => Frame {
                        decided: true,
                        taking: taken,
                        taken,
                    },
                    // Not decided here (or inside a branch not taken, where
                    // the whole branch is blanked in any case).
                    None => Frame {
                        decided: !active,
                        taking: active,
                        taken: true,
                    },
                };
                if frame.decided {
                    blank.push(line.clone());
                }
                open.push(frame);
            }
            "elif" | "else" => {
                let outer_active =
                    open.len() < 2 || open[..open.len() - 1].iter().all(|f| f.taking);
                let Some(frame) = open.last_mut() else {
                    continue;
                };
                if !frame.decided {
                    continue;
                }
                let condition = if frame.taken || !outer_active {
                    Some(false)
                } else if word == "else" {
                    Some(true)
                } else {
                    evaluate(rest, &macros).map(|v| v != 0)
                };
                match condition {
                    Some(taking) => {
                        frame.taking = taking;
                        frame.taken |= taking;
                        blank.push(line.clone());
                    }
                    // An `#elif` the text cannot decide, after branches not
                    // taken: it cannot be resolved from here, and the
                    // directives already blanked cannot be put back. The
                    // text stays as it was.
                    None => return None,
                }
            }
            "endif" => {
                if let Some(frame) = open.pop() {
                    if frame.decided {
                        blank.push(line.clone());
                    }
                }
            }
            _ if !active => blank.push(line.clone()),
            "define" if decided => {
                if let Some((n, m)) = definition(rest) {
                    macros.insert(n.to_string(), m);
                }
            }
            "undef" if decided => {
                if let Some(n) = name(rest) {
                    macros.remove(n);
                }
            }
            // Inside a conditional left for glslang: whether the name is
            // defined after it is glslang's to know, so no later
            // condition on it is decided here.
            "define" | "undef" => {
                let n = if word == "define" {
                    definition(rest).map(|(n, _)| n)
                } else {
                    name(rest)
                };
                if let Some(n) = n {
                    macros.insert(n.to_string(), Macro::Unknown);
                }
            }
            _ => {}
        }
    }
    if blank.is_empty() {
        return None;
    }
    let mut out = text.as_bytes().to_vec();
    for range in blank {
        for b in &mut out[range] {
            if *b != b'\n' && *b != b'\r' {
                *b = b' ';
            }
        }
    }
    // Blanking whole lines of UTF-8 text byte for byte: a character is
    // either wholly inside a blanked line or wholly outside.
    Some(String::from_utf8_lossy(&out).into_owned())
}

/// Whether a block comment is open at the end of `line`, given whether one
/// was at its start; a `//` comment outside one ends the line.
fn comment_open_after(line: &str, mut open: bool) -> bool {
    let mut rest = line;
    loop {
        if open {
            match rest.find("*/") {
                Some(at) => {
                    rest = &rest[at + 2..];
                    open = false;
                }
                None => return true,
            }
        } else {
            let block = rest.find("/*");
            let to_end = rest.find("//");
            match (block, to_end) {
                (Some(b), Some(l)) if l < b => return false,
                (Some(b), _) => {
                    rest = &rest[b + 2..];
                    open = true;
                }
                (None, _) => return false,
            }
        }
    }
}

/// A conditional being read.
struct Frame {
    /// Whether the linker decides it (else every branch stays).
    decided: bool,
    /// Whether the current branch is compiled.
    taking: bool,
    /// Whether a branch was taken already.
    taken: bool,
}

/// An object-like macro's body, or a function-like macro (whose use in a
/// condition the linker does not decide), or a name defined or undefined
/// inside a conditional the linker leaves to glslang (whose state it does
/// not know).
enum Macro {
    Object(String),
    Function,
    Unknown,
    /// Known not to be defined (`#undef`'s are removed instead).
    Absent,
}

/// The subgroup extensions the emulation gives: their macros are defined,
/// as glslang defines an extension's macro where it has the extension,
/// so that a text that chooses its code by them (SPIR-V Cross's output
/// does) takes its subgroup code. The others (rotate, partitioned) are
/// not: such a text takes its code without them.
const EMULATED_EXTENSIONS: &[&str] = &[
    "GL_KHR_shader_subgroup_basic",
    "GL_KHR_shader_subgroup_vote",
    "GL_KHR_shader_subgroup_ballot",
    "GL_KHR_shader_subgroup_arithmetic",
    "GL_KHR_shader_subgroup_shuffle",
    "GL_KHR_shader_subgroup_shuffle_relative",
    "GL_KHR_shader_subgroup_quad",
    "GL_KHR_shader_subgroup_clustered",
];

/// The macros glslang defines before the text, as the linker knows them:
/// `__VERSION__` from the `#version` line, `VULKAN` and `GL_SPIRV` (the
/// linked text is compiled for Vulkan), and the emulated subgroup
/// extensions. Other names glslang may define (`GL_` extensions, `__`
/// names) are [`Macro::Unknown`] in [`expand`]: glslang decides them.
fn predefined(text: &str) -> BTreeMap<String, Macro> {
    let mut macros: BTreeMap<String, Macro> = EMULATED_EXTENSIONS
        .iter()
        .map(|n| (n.to_string(), Macro::Object("1".into())))
        .collect();
    for other in ["rotate", "partitioned"] {
        macros.insert(format!("GL_KHR_shader_subgroup_{other}"), Macro::Absent);
    }
    macros.insert("VULKAN".into(), Macro::Object("100".into()));
    macros.insert("GL_SPIRV".into(), Macro::Object("100".into()));
    let version = text.lines().find_map(|l| {
        let rest = l.trim_start().strip_prefix('#')?.trim_start();
        let v = rest.strip_prefix("version")?.split_whitespace().next()?;
        v.parse::<u32>().ok()
    });
    if let Some(v) = version {
        macros.insert("__VERSION__".into(), Macro::Object(v.to_string()));
    }
    macros
}

/// Whether `name` may be one glslang defines before the text.
fn glslang_may_define(name: &str) -> bool {
    name.starts_with("GL_") || name.starts_with("__")
}

/// Whether `name` is defined, where the linker knows.
fn is_defined(macros: &BTreeMap<String, Macro>, name: &str) -> Option<bool> {
    match macros.get(name) {
        Some(Macro::Unknown) => None,
        Some(Macro::Absent) => Some(false),
        None if glslang_may_define(name) => None,
        found => Some(found.is_some()),
    }
}

/// The object-like macros `text` `#define`s, each with its body (comments
/// dropped, continuations joined), in text order.
pub(super) fn object_macros(text: &str) -> Vec<(String, String)> {
    logical_lines(text)
        .into_iter()
        .filter_map(|line| {
            let (word, rest) = directive(&text[line])?;
            match (word, definition(&rest)?) {
                ("define", (name, Macro::Object(body))) => Some((name.to_string(), body)),
                _ => None,
            }
        })
        .collect()
}

/// The function-like macros `text` `#define`s, each with its body
/// (comments dropped, continuations joined), in text order.
pub(super) fn function_macros(text: &str) -> Vec<(String, String)> {
    logical_lines(text)
        .into_iter()
        .filter_map(|line| {
            let (word, rest) = directive(&text[line])?;
            let rest = rest.trim_start();
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            let (name, params) = rest.split_at(end);
            let params = params.strip_prefix('(')?;
            let close = params.find(')')?;
            (word == "define" && !name.is_empty())
                .then(|| (name.to_string(), params[close + 1..].trim().to_string()))
        })
        .collect()
}

/// The ranges of the text's lines, a line continued by `\` at its end
/// running on into the next, each range with its line break.
fn logical_lines(text: &str) -> Vec<Range<usize>> {
    let mut lines = Vec::new();
    let mut start = 0;
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'\n' {
            let before = text[start..i].trim_end_matches('\r');
            if !before.ends_with('\\') {
                lines.push(start..i + 1);
                start = i + 1;
            }
        }
        i += 1;
    }
    if start < text.len() {
        lines.push(start..text.len());
    }
    lines
}

/// A directive line's word and what follows it, comments dropped.
fn directive(line: &str) -> Option<(&str, String)> {
    let rest = line.trim_start().strip_prefix('#')?.trim_start();
    let end = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    let (word, rest) = rest.split_at(end);
    let mut body = rest.replace("\\\r\n", " ").replace("\\\n", " ");
    if let Some(at) = body.find("//") {
        body.truncate(at);
    }
    while let Some(open) = body.find("/*") {
        match body[open + 2..].find("*/") {
            Some(close) => body.replace_range(open..open + 2 + close + 2, " "),
            None => body.truncate(open),
        }
    }
    Some((word, body))
}

fn is_ident_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_'
}

/// The one identifier `rest` holds.
fn name(rest: &str) -> Option<&str> {
    let n = rest.trim();
    (n.starts_with(is_ident_start) && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        .then_some(n)
}

/// A `#define`'s name and macro.
fn definition(rest: &str) -> Option<(&str, Macro)> {
    let rest = rest.trim_start();
    let end = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    let (n, body) = rest.split_at(end);
    if !n.starts_with(is_ident_start) {
        return None;
    }
    if body.starts_with('(') {
        return Some((n, Macro::Function));
    }
    Some((n, Macro::Object(body.trim().to_string())))
}

/// A token of a condition.
#[derive(Clone, Debug, PartialEq)]
enum Token {
    Number(i64),
    Ident(String),
    Punct(&'static str),
}

const PUNCTS: [&str; 24] = [
    "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "(", ")", "!", "~", "*", "/", "%", "+", "-",
    "<", ">", "&", "^", "|", "?", ":",
];

fn lex(text: &str) -> Option<Vec<Token>> {
    let mut out = Vec::new();
    let mut rest = text.trim_start();
    while !rest.is_empty() {
        let c = rest.chars().next()?;
        if c.is_ascii_digit() {
            let end = rest
                .find(|c: char| !c.is_ascii_alphanumeric())
                .unwrap_or(rest.len());
            out.push(Token::Number(number(&rest[..end])?));
            rest = &rest[end..];
        } else if is_ident_start(c) {
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            out.push(Token::Ident(rest[..end].to_string()));
            rest = &rest[end..];
        } else {
            let p = PUNCTS.iter().find(|p| rest.starts_with(**p))?;
            out.push(Token::Punct(p));
            rest = &rest[p.len()..];
        }
        rest = rest.trim_start();
    }
    Some(out)
}

/// An integer literal, suffixes (`u`, `U`, `l`) aside.
fn number(text: &str) -> Option<i64> {
    let digits = text.trim_end_matches(['u', 'U', 'l', 'L']);
    if let Some(hex) = digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        return i64::from_str_radix(hex, 16).ok();
    }
    if digits.len() > 1 && digits.starts_with('0') {
        return i64::from_str_radix(&digits[1..], 8).ok();
    }
    digits.parse().ok()
}

/// A condition's value, or `None` where the linker cannot decide it.
fn evaluate(condition: &str, macros: &BTreeMap<String, Macro>) -> Option<i64> {
    let tokens = expand(lex(condition)?, macros, 0)?;
    let mut parser = Parser { tokens, at: 0 };
    let value = parser.conditional()?;
    (parser.at == parser.tokens.len()).then_some(value)
}

/// `defined` resolved, then macros expanded; identifiers left are 0.
fn expand(
    tokens: Vec<Token>,
    macros: &BTreeMap<String, Macro>,
    depth: usize,
) -> Option<Vec<Token>> {
    if depth > MAX_EXPANSION {
        return None;
    }
    let mut out = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        match &tokens[i] {
            Token::Ident(word) if word == "defined" => {
                let (n, next) = match tokens.get(i + 1) {
                    Some(Token::Ident(n)) => (n, i + 2),
                    Some(Token::Punct("(")) => match (tokens.get(i + 2), tokens.get(i + 3)) {
                        (Some(Token::Ident(n)), Some(Token::Punct(")"))) => (n, i + 4),
                        _ => return None,
                    },
                    _ => return None,
                };
                out.push(Token::Number(i64::from(is_defined(macros, n)?)));
                i = next;
                continue;
            }
            Token::Ident(word) => match macros.get(word) {
                Some(Macro::Object(body)) => {
                    out.extend(expand(lex(body)?, macros, depth + 1)?);
                }
                Some(Macro::Function | Macro::Unknown) => return None,
                None if glslang_may_define(word) => return None,
                Some(Macro::Absent) | None => out.push(Token::Number(0)),
            },
            other => out.push(other.clone()),
        }
        i += 1;
    }
    Some(out)
}

struct Parser {
    tokens: Vec<Token>,
    at: usize,
}

/// Binary operators by precedence, loosest first.
const LEVELS: [&[&str]; 9] = [
    &["||"],
    &["&&"],
    &["|"],
    &["^"],
    &["&"],
    &["==", "!="],
    &["<", ">", "<=", ">="],
    &["<<", ">>"],
    &["+", "-"],
];

impl Parser {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.at)
    }

    fn punct(&mut self, p: &str) -> bool {
        let here = matches!(self.peek(), Some(Token::Punct(q)) if *q == p);
        self.at += usize::from(here);
        here
    }

    fn conditional(&mut self) -> Option<i64> {
        let c = self.binary(0)?;
        if self.punct("?") {
            let a = self.conditional()?;
            if !self.punct(":") {
                return None;
            }
            let b = self.conditional()?;
            return Some(if c != 0 { a } else { b });
        }
        Some(c)
    }

    fn binary(&mut self, level: usize) -> Option<i64> {
        if level == LEVELS.len() {
            return self.multiplicative();
        }
        let mut left = self.binary(level + 1)?;
        loop {
            let Some(Token::Punct(p)) = self.peek().cloned() else {
                return Some(left);
            };
            if !LEVELS[level].contains(&p) {
                return Some(left);
            }
            self.at += 1;
            let right = self.binary(level + 1)?;
            left = match p {
                "||" => i64::from(left != 0 || right != 0),
                "&&" => i64::from(left != 0 && right != 0),
                "|" => left | right,
                "^" => left ^ right,
                "&" => left & right,
                "==" => i64::from(left == right),
                "!=" => i64::from(left != right),
                "<" => i64::from(left < right),
                ">" => i64::from(left > right),
                "<=" => i64::from(left <= right),
                ">=" => i64::from(left >= right),
                "<<" => left.checked_shl(u32::try_from(right).ok()?)?,
                ">>" => left.checked_shr(u32::try_from(right).ok()?)?,
                "+" => left.checked_add(right)?,
                _ => left.checked_sub(right)?,
            };
        }
    }

    fn multiplicative(&mut self) -> Option<i64> {
        let mut left = self.unary()?;
        loop {
            let op = match self.peek() {
                Some(Token::Punct(p @ ("*" | "/" | "%"))) => *p,
                _ => return Some(left),
            };
            self.at += 1;
            let right = self.unary()?;
            left = match op {
                "*" => left.checked_mul(right)?,
                "/" => left.checked_div(right)?,
                _ => left.checked_rem(right)?,
            };
        }
    }

    fn unary(&mut self) -> Option<i64> {
        // Bounded: a condition is one line of a bounded text, and each
        // prefix operator takes a token.
        match self.peek()?.clone() {
            Token::Punct("!") => {
                self.at += 1;
                Some(i64::from(self.unary()? == 0))
            }
            Token::Punct("~") => {
                self.at += 1;
                Some(!self.unary()?)
            }
            Token::Punct("-") => {
                self.at += 1;
                self.unary()?.checked_neg()
            }
            Token::Punct("+") => {
                self.at += 1;
                self.unary()
            }
            Token::Punct("(") => {
                self.at += 1;
                let v = self.conditional()?;
                self.punct(")").then_some(v)
            }
            Token::Number(n) => {
                self.at += 1;
                Some(n)
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kept(text: &str) -> Vec<String> {
        let resolved = resolve(text, &[]).unwrap_or_else(|| text.to_string());
        assert_eq!(resolved.len(), text.len(), "offsets stay");
        assert_eq!(resolved.lines().count(), text.lines().count(), "lines stay");
        resolved
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(String::from)
            .collect()
    }

    #[test]
    fn branches_are_taken_as_the_preprocessor_takes_them() {
        let text = "#define A 2\n#if A > 1 && !defined(B)\nyes1\n#elif 1\nno1\n#else\nno2\n#endif\n\
                    #ifdef B\nno3\n#else\nyes2\n#endif\n#ifndef A\nno4\n#elif defined A\nyes3\n#endif\n\
                    #if 0\n#if 1\nno5\n#endif\n#include \"absent.h\"\n#else\nyes4\n#endif\n";
        assert_eq!(kept(text), ["#define A 2", "yes1", "yes2", "yes3", "yes4"]);
    }

    #[test]
    fn what_the_text_cannot_decide_stays() {
        // A function-like macro in a condition: left whole, nested ones too.
        let text = "#define F(x) x\n#if F(1)\n#if 0\na\n#endif\n#endif\n#if 0\nb\n#endif\n";
        assert_eq!(
            kept(text),
            [
                "#define F(x) x",
                "#if F(1)",
                "#if 0",
                "a",
                "#endif",
                "#endif"
            ]
        );
        // A name defined inside such a conditional: later conditions on it
        // are glslang's too.
        let text =
            "#define F(x) x\n#if F(1)\n#define X\n#endif\n#ifdef X\na\n#endif\n#if 0\nb\n#endif\n";
        assert_eq!(
            kept(text),
            [
                "#define F(x) x",
                "#if F(1)",
                "#define X",
                "#endif",
                "#ifdef X",
                "a",
                "#endif"
            ]
        );
        // A `#` line inside a block comment is no directive.
        let text = "/*\n#if 0\n*/\ncode\n#if 0 /* a\n#endif\n*/\nno\n#endif\nyes\n";
        assert_eq!(kept(text), ["/*", "#if 0", "*/", "code", "yes"]);
        // An #elif that cannot be decided after a branch not taken: as it is.
        let text = "#define F(x) x\n#if 0\na\n#elif F(1)\nb\n#endif\n";
        assert_eq!(resolve(text, &[]), None);
        // Undefined names are 0; defines inside branches not taken do not
        // count; #undef does.
        let text = "#if 0\n#define X 1\n#endif\n#if X\na\n#endif\n#define Y\n#undef Y\n#ifdef Y\nb\n#endif\n";
        assert_eq!(kept(text), ["#define Y", "#undef Y"]);
    }

    #[test]
    fn glslang_s_own_macros_are_as_glslang_defines_them() {
        // SPIR-V Cross's GLSL picks its subgroup code by the extensions'
        // macros: the emulated ones are defined (clustered too), rotate
        // is not.
        let text = "#version 450\n#if defined(GL_KHR_shader_subgroup_ballot)\nballot\n#else\n#error none\n#endif\n\
                    #ifdef GL_KHR_shader_subgroup_clustered\nclustered\n#else\nby_hand\n#endif\n\
                    #ifdef GL_KHR_shader_subgroup_rotate\nrotated\n#else\nunrotated\n#endif\n\
                    #if __VERSION__ >= 450 && VULKAN == 100\nv450\n#endif\n";
        assert_eq!(
            kept(text),
            ["#version 450", "ballot", "clustered", "unrotated", "v450"]
        );
        // Another extension's macro is glslang's to decide.
        let text = "#version 450\n#ifdef GL_EXT_shader_explicit_arithmetic_types_int8\na\n#endif\n#if 0\nb\n#endif\n";
        assert_eq!(
            kept(text),
            [
                "#version 450",
                "#ifdef GL_EXT_shader_explicit_arithmetic_types_int8",
                "a",
                "#endif"
            ]
        );
    }

    #[test]
    fn conditions_with_comments_continuations_and_literals() {
        let text = "#if 0x10 == 16u /* hex */ && \\\n 010 == 8 // octal\nyes\n#endif\n#if (1 ? 2 : 3) == 2 && -1 < 0 && (7 % 4) * 2 == 6 && (1 << 4) == 16\nyes2\n#endif\n";
        assert_eq!(kept(text), ["yes", "yes2"]);
        // Division by zero, or a name expanding to itself forever: undecided.
        assert_eq!(evaluate("1 / 0", &BTreeMap::new()), None);
        let mut loops = BTreeMap::new();
        loops.insert("L".to_string(), Macro::Object("L + 1".to_string()));
        assert_eq!(evaluate("L", &loops), None);
    }
}
