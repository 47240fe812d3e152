//! What an expression writes: each increment, decrement and assignment
//! operator in its text, and the variable it writes, by the name its
//! target starts with (`data` of `data[i].x = …`).
//!
//! The pass needs this where it moves an expression's evaluation: a
//! collective's arguments are evaluated by every invocation of the
//! workgroup, and a collective is computed before the statement that holds
//! it. Both are the shader's own meaning only where what moved writes
//! nothing ([`super::masked`] refuses the rest, at the write).
//!
//! The reader reads the text as tokens of either language: comments are
//! passed over (WGSL's block comments nest, GLSL's do not); `==`, `!=`,
//! `<=` and `>=` compare, while `<<=` and `>>=` assign.

use std::ops::Range;

use ballot_shader::back::Language;

/// One write in an expression's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Write {
    /// The operator: `++`, `--`, `=` or a compound assignment's.
    pub op: Range<usize>,
    /// The name the written target starts with, where it starts with one
    /// (`x`, `data`; WGSL's `*p` gives `p`).
    pub root: Option<Range<usize>>,
    /// Whether it is an assignment (`=`, `+=`, …) rather than an
    /// increment or decrement.
    pub assignment: bool,
    /// The depth of parentheses and brackets it sits at, from the range's
    /// start.
    pub depth: usize,
}

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// The bytes of `text[range]` that are code: comments blanked to spaces,
/// so that offsets stay those of `text`.
fn code(text: &str, range: &Range<usize>, language: Language) -> Vec<u8> {
    let nests = language == Language::Wgsl;
    let bytes = text.as_bytes();
    let mut out = bytes[range.clone()].to_vec();
    let mut at = 0;
    while at < out.len() {
        if out[at] == b'/' && out.get(at + 1) == Some(&b'/') {
            while at < out.len() && out[at] != b'\n' {
                out[at] = b' ';
                at += 1;
            }
        } else if out[at] == b'/' && out.get(at + 1) == Some(&b'*') {
            let mut depth = 0usize;
            while at < out.len() {
                if out[at] == b'/' && out.get(at + 1) == Some(&b'*') && (nests || depth == 0) {
                    depth += 1;
                    out[at] = b' ';
                    out[at + 1] = b' ';
                    at += 2;
                } else if out[at] == b'*' && out.get(at + 1) == Some(&b'/') {
                    out[at] = b' ';
                    out[at + 1] = b' ';
                    at += 2;
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                } else {
                    if out[at] != b'\n' {
                        out[at] = b' ';
                    }
                    at += 1;
                }
            }
        } else {
            at += 1;
        }
    }
    out
}

/// The start of the target that ends just before `end` in `code` (its
/// offsets from `base`): back over names, `.`, whole `[…]` and `(…)`, and
/// a leading `*`; then the first name in it.
fn root_before(code: &[u8], end: usize) -> Option<Range<usize>> {
    let mut at = end;
    while at > 0 && code[at - 1].is_ascii_whitespace() {
        at -= 1;
    }
    let mut start = at;
    loop {
        if start == 0 {
            break;
        }
        let b = code[start - 1];
        if b.is_ascii_whitespace() {
            // Blanks inside a target sit before `.`, `[` or `(` (`a .b`,
            // `a [i]`); between two names (`uint w = …`, `if (c) x = 1`)
            // the target has begun after them.
            let after = code[start..at].iter().find(|b| !b.is_ascii_whitespace());
            let before = code[..start]
                .iter()
                .rev()
                .find(|b| !b.is_ascii_whitespace());
            if after.is_some_and(|&a| is_ident(a))
                && before.is_some_and(|&b| is_ident(b) || b == b')')
            {
                break;
            }
            start -= 1;
        } else if is_ident(b) || b == b'.' {
            start -= 1;
        } else if b == b']' || b == b')' {
            let (close, open) = if b == b']' {
                (b']', b'[')
            } else {
                (b')', b'(')
            };
            let mut depth = 0usize;
            let mut k = start;
            loop {
                if k == 0 {
                    return None;
                }
                k -= 1;
                if code[k] == close {
                    depth += 1;
                } else if code[k] == open {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
            }
            start = k;
        } else {
            break;
        }
    }
    first_name(code, start..at)
}

/// The first name in `code[range]`, past `(`, `*` and blanks.
fn first_name(code: &[u8], range: Range<usize>) -> Option<Range<usize>> {
    let mut at = range.start;
    while at < range.end && (code[at].is_ascii_whitespace() || matches!(code[at], b'(' | b'*')) {
        at += 1;
    }
    let start = at;
    while at < range.end && is_ident(code[at]) {
        at += 1;
    }
    (at > start && !code[start].is_ascii_digit()).then_some(start..at)
}

/// Every write in `text[range]`, in text order.
pub(crate) fn writes(text: &str, range: Range<usize>, language: Language) -> Vec<Write> {
    let code = code(text, &range, language);
    let base = range.start;
    let shift = |r: Range<usize>| r.start + base..r.end + base;
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut at = 0;
    // The last byte of code before `at`, past blanks.
    let prev = |at: usize| code[..at].iter().rev().find(|b| !b.is_ascii_whitespace());
    while at < code.len() {
        let b = code[at];
        let next = code.get(at + 1).copied();
        match b {
            b'(' | b'[' => depth += 1,
            b')' | b']' => depth = depth.saturating_sub(1),
            b'+' | b'-' if next == Some(b) => {
                // Postfix where a name or a closing bracket precedes it.
                let postfix = prev(at).is_some_and(|&p| is_ident(p) || p == b')' || p == b']');
                let root = if postfix {
                    root_before(&code, at)
                } else {
                    first_name(&code, at + 2..code.len())
                };
                out.push(Write {
                    op: shift(at..at + 2),
                    root: root.map(shift),
                    assignment: false,
                    depth,
                });
                at += 2;
                continue;
            }
            b'=' => {
                if next == Some(b'=') {
                    at += 2;
                    continue;
                }
                let before = at.checked_sub(1).map(|k| code[k]);
                let before2 = at.checked_sub(2).map(|k| code[k]);
                let (assignment, start) = match before {
                    Some(b'!') => (false, at),
                    Some(b'<') | Some(b'>') => match before2 {
                        // `<<=`, `>>=`.
                        Some(c) if Some(c) == before => (true, at - 2),
                        // `<=`, `>=`.
                        _ => (false, at),
                    },
                    Some(b'+' | b'-' | b'*' | b'/' | b'%' | b'&' | b'|' | b'^') => (true, at - 1),
                    _ => (true, at),
                };
                if assignment {
                    out.push(Write {
                        op: shift(start..at + 1),
                        root: root_before(&code, start).map(shift),
                        assignment: true,
                        depth,
                    });
                }
            }
            _ => {}
        }
        at += 1;
    }
    out
}

/// The tokens of `code`: names and single punctuation, by their offsets.
fn tokens(code: &[u8]) -> Vec<(usize, usize)> {
    let mut tokens = Vec::new();
    let mut at = 0;
    while at < code.len() {
        if code[at].is_ascii_whitespace() {
            at += 1;
        } else if is_ident(code[at]) {
            let start = at;
            while at < code.len() && is_ident(code[at]) {
                at += 1;
            }
            tokens.push((start, at));
        } else {
            tokens.push((at, at + 1));
            at += 1;
        }
    }
    tokens
}

/// The names `text[range]` seems to declare: a name after `let` or
/// `var` (WGSL; `var<storage> name` past its template), or after a type's
/// name and before `=`, `;`, `,` or `[` (GLSL's `uint k = …`). With
/// `globals`, only those outside braces, and the members of GLSL's
/// interface blocks (`buffer B { uint data[]; }`), which are the shader's
/// globals; else every one, for a body the reader could not read.
fn declared(
    text: &str,
    range: Range<usize>,
    language: Language,
    globals: bool,
) -> Vec<Range<usize>> {
    let code = code(text, &range, language);
    let tokens = tokens(&code);
    let word = |k: usize| tokens.get(k).map(|&(a, b)| &code[a..b]);
    let name = |k: usize| word(k).is_some_and(|w| is_ident(w[0]) && !w[0].is_ascii_digit());
    let mut out = Vec::new();
    // The braces open, and whether each is an interface block's; the
    // parentheses open (a function's parameters are no globals).
    let mut braces: Vec<bool> = Vec::new();
    let mut parens = 0usize;
    for k in 0..tokens.len() {
        match word(k) {
            Some(b"(") => parens += 1,
            Some(b")") => parens = parens.saturating_sub(1),
            Some(b"{") => {
                let block = k >= 2
                    && name(k - 1)
                    && matches!(word(k - 2), Some(b"buffer" | b"uniform" | b"in" | b"out"));
                braces.push(block);
                continue;
            }
            Some(b"}") => {
                braces.pop();
                continue;
            }
            _ => {}
        }
        if globals && (parens > 0 || braces.iter().any(|&block| !block)) {
            continue;
        }
        let declares = match word(k) {
            Some(b"var") if word(k + 1) == Some(b"<") => {
                let close = (k + 2..tokens.len()).find(|&j| word(j) == Some(b">"));
                if let Some(j) = close.filter(|&j| name(j + 1)) {
                    let (a, b) = tokens[j + 1];
                    out.push(a + range.start..b + range.start);
                }
                false
            }
            Some(b"let" | b"var") => true,
            Some(b"return" | b"else" | b"case" | b"const") => false,
            _ => {
                name(k)
                    && matches!(word(k + 2), Some(b"=" | b";" | b"," | b"["))
                    && word(k + 3) != Some(b"=")
            }
        };
        if declares && name(k + 1) {
            let (a, b) = tokens[k + 1];
            out.push(a + range.start..b + range.start);
        }
    }
    out
}

/// The names `text[range]` seems to declare, for a body the reader could
/// not read ([`declared`]).
pub(crate) fn declared_names(
    text: &str,
    range: Range<usize>,
    language: Language,
) -> Vec<Range<usize>> {
    declared(text, range, language, false)
}

/// The names `text` declares outside every function: its globals, the
/// members of its interface blocks, and its `shared` variables
/// ([`declared`]).
pub(crate) fn global_names(text: &str, language: Language) -> Vec<Range<usize>> {
    declared(text, 0..text.len(), language, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roots(text: &str) -> Vec<(String, Option<String>, bool)> {
        writes(text, 0..text.len(), Language::Glsl)
            .into_iter()
            .map(|w| {
                (
                    text[w.op].to_string(),
                    w.root.map(|r| text[r].to_string()),
                    w.assignment,
                )
            })
            .collect()
    }

    #[test]
    fn writes_are_found_with_their_targets() {
        assert_eq!(
            roots("data[i].x = a == b"),
            [("=".into(), Some("data".into()), true)]
        );
        assert_eq!(
            roots("x += y <= z, k++, --m, n >>= 1u, p != q, r >= s"),
            [
                ("+=".into(), Some("x".into()), true),
                ("++".into(), Some("k".into()), false),
                ("--".into(), Some("m".into()), false),
                (">>=".into(), Some("n".into()), true),
            ]
        );
        assert_eq!(roots("(*p).v = 1u"), [("=".into(), Some("p".into()), true)]);
        assert_eq!(roots("*p = 1u"), [("=".into(), Some("p".into()), true)]);
        assert_eq!(
            roots("f(a[i++]) /* x = 1 */ + g(b) // y = 2"),
            [("++".into(), Some("i".into()), false)]
        );
        assert_eq!(roots("a - -b + c * -d"), []);
        // A declaration's and a statement's target is the name before `=`.
        assert_eq!(roots("uint w = v"), [("=".into(), Some("w".into()), true)]);
        assert_eq!(
            roots("if (c) x = 1"),
            [("=".into(), Some("x".into()), true)]
        );
        assert_eq!(
            roots("a [i] .b = 1"),
            [("=".into(), Some("a".into()), true)]
        );
        // GLSL's block comments do not nest: `k++` is code.
        assert_eq!(
            roots("x /* a /* b */ + k++"),
            [("++".into(), Some("k".into()), false)]
        );
        let body = "{ uint k = 0u; float a[4]; let b = 1; x = k; k == 2u; }";
        let names: Vec<&str> = declared_names(body, 0..body.len(), Language::Glsl)
            .into_iter()
            .map(|r| &body[r])
            .collect();
        assert_eq!(names, ["k", "a", "b"]);
        let glsl = "layout(std430) buffer B { uint data[]; };\nshared uint acc;\n\
                    uint f(uint v, inout S sdec) { uint w = v; return w; }\nstruct S { uint m; };\n";
        let names: Vec<&str> = global_names(glsl, Language::Glsl)
            .into_iter()
            .map(|r| &glsl[r])
            .collect();
        assert_eq!(names, ["data", "acc"]);
        let wgsl = "var<storage, read_write> data: array<u32>;\nvar<private> n: u32 = 0u;\n\
                    fn f(v: u32) -> u32 { let w = v; return w; }\n";
        let names: Vec<&str> = global_names(wgsl, Language::Wgsl)
            .into_iter()
            .map(|r| &wgsl[r])
            .collect();
        assert_eq!(names, ["data", "n"]);
        assert_eq!(roots("x < y && u > v"), []);
    }
}
