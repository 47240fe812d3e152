//! GLSL macros that call a collective, expanded where the shader calls
//! them, for `glsl-no-subgroup`.
//!
//! The emulated target if-converts every function that reaches a
//! collective, and each collective where it is called: a collective in a
//! macro's body runs where the macro is called, which the reader cannot see
//! through the macro. Real shaders write such macros (Granite's
//! `SHUFFLE_PASS(a, mimm, s) { uvec4 b = subgroupShuffleXor(a, s); … }`,
//! whose shuffle distance must be a constant; nvpro's renames of
//! `subgroupShuffleXor`). So each macro whose body calls a collective, or
//! another such macro, is expanded at each of its calls, as the C
//! preprocessor that GLSL takes would: the arguments, split at their
//! top-level commas, are expanded first, then substituted for the
//! parameters, and the result is scanned again with the macro itself no
//! longer expanded. The macro's `#define` line becomes blanks.
//!
//! Every line stays where it was: an expansion is written on its call's
//! line, as tokens separated by spaces, and the line breaks of a call
//! that spans lines follow it, so that an error on the linked text is on
//! the user's line. The expansion is bounded ([`MAX_DEPTH`], and the
//! text's size, [`MAX_SOURCE_BYTES`]).
//!
//! Refused, at the offending token: `#` and `##` in such a macro's body,
//! a variadic one, a call with another number of arguments than the
//! macro's parameters or without its `)`, a function-like macro's name
//! without its arguments, and a macro defined twice in conditionals the
//! linker leaves to glslang (`conditional`), where which definition holds
//! is glslang's to decide.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;

use ballot_ir::source::MAX_SOURCE_BYTES;

use super::{lex, logical_line_end, Kind, Language, Token};

/// How deep expansions may nest in one another: deeper than real shaders
/// go, and shallow enough that a runaway stops at once.
pub(super) const MAX_DEPTH: usize = 64;

/// Why a macro cannot be expanded, and where.
pub(super) type MacroError = (String, Range<usize>);

/// A token of an expansion: its text, and whether it touched the token
/// before it where both were written. Only such neighbours are written
/// together (`==`, `<<`, `0xffu`), so that no two tokens paste into one
/// that was not there (`-` and `-b` into `--b`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Word<'t> {
    text: &'t str,
    glued: bool,
}

impl<'t> Word<'t> {
    /// The words of `tokens`, each glued where it touches the one before.
    fn of(text: &'t str, tokens: &[Token]) -> Vec<Word<'t>> {
        let mut words = Vec::with_capacity(tokens.len());
        let mut end = None;
        for t in tokens {
            words.push(Word {
                text: &text[t.range()],
                glued: end == Some(t.range().start),
            });
            end = Some(t.range().end);
        }
        words
    }

    /// The same token, apart from the one before it.
    fn apart(self) -> Self {
        Word {
            glued: false,
            ..self
        }
    }
}

/// `words` as text: a space between two that do not touch.
fn join(words: &[Word<'_>]) -> String {
    let mut out = String::with_capacity(words.iter().map(|w| w.text.len() + 1).sum());
    for (i, w) in words.iter().enumerate() {
        if i > 0 && !w.glued {
            out.push(' ');
        }
        out.push_str(w.text);
    }
    out
}

/// One `#define`.
struct Definition<'t> {
    /// Its parameters (a function-like macro), or none (object-like).
    params: Option<Vec<&'t str>>,
    /// The tokens of its body.
    body: Vec<Word<'t>>,
    /// Where its name is, for errors.
    name: Range<usize>,
    /// Its whole logical line, which becomes blanks.
    line: Range<usize>,
    /// Whether it is variadic (`...`).
    variadic: bool,
    /// The text from which it holds: after its line, up to the next
    /// `#define` or `#undef` of its name.
    holds: Range<usize>,
    /// Whether a `#define` of its name, with no `#undef` between, ends it:
    /// the two are in branches of a conditional left for glslang.
    redefined: bool,
}

/// The text with the calls of every macro that calls a collective
/// (`collective`, by name) expanded and those macros' `#define` lines
/// blanked, or `None` where it defines no such macro.
pub(super) fn expand(
    text: &str,
    collective: impl Fn(&str) -> bool,
) -> Result<Option<String>, MacroError> {
    let tokens = lex(text, Language::Glsl);
    let s = |t: &Token| &text[t.range()];
    let mut defined: BTreeMap<&str, Vec<Definition<'_>>> = BTreeMap::new();
    // Each directive's line, which the scan for calls skips.
    let mut directive_lines: Vec<Range<usize>> = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let t = tokens[i];
        if t.kind != Kind::Directive {
            i += 1;
            continue;
        }
        let end = logical_line_end(text, t.range().end);
        directive_lines.push(t.range().start..end);
        let word = s(&t)[1..].trim_start();
        let mut j = i + 1;
        while j < tokens.len() && tokens[j].range().start < end {
            j += 1;
        }
        // `#define` is a token of its own, its name and body the tokens
        // after it; every other directive is one token.
        if word == "define" {
            if let Some((name, definition)) =
                definition(text, &tokens[i + 1..j], t.range().start..end)
            {
                close(&mut defined, name, t.range().start, true);
                defined.entry(name).or_default().push(definition);
            }
        } else if let Some(name) = word
            .strip_prefix("undef")
            .map(str::trim)
            .filter(|n| !n.is_empty())
        {
            close(&mut defined, name, t.range().start, false);
        }
        i = j;
    }
    // The macros that call a collective, or such a macro: to a fixed point.
    let mut calling: BTreeSet<&str> = BTreeSet::new();
    loop {
        let before = calling.len();
        for (&name, definitions) in &defined {
            if definitions.iter().any(|d| {
                d.body
                    .iter()
                    .any(|w| w.text != name && (collective(w.text) || calling.contains(w.text)))
            }) {
                calling.insert(name);
            }
        }
        if calling.len() == before {
            break;
        }
    }
    if calling.is_empty() {
        return Ok(None);
    }
    for &name in &calling {
        let definitions = &defined[name];
        for pair in definitions.windows(2) {
            let [first, second] = pair else { continue };
            if first.redefined && (first.body != second.body || first.params != second.params) {
                return Err((
                    format!(
                        "`{name}` calls a subgroup function and is defined twice (first on an \
                         earlier line), in conditionals the linker leaves to glslang: on \
                         `glsl-no-subgroup` its calls are expanded, and which definition holds \
                         is not the linker's to decide; define it once"
                    ),
                    second.name.clone(),
                ));
            }
        }
        for d in definitions {
            if d.variadic {
                return Err((
                    format!(
                        "`{name}` calls a subgroup function and is variadic: on \
                         `glsl-no-subgroup` its calls are expanded, and the linker does not \
                         expand `...`; name its parameters"
                    ),
                    d.name.clone(),
                ));
            }
            if let Some(op) = d
                .body
                .iter()
                .map(|w| w.text)
                .find(|&w| w == "#" || w == "##")
            {
                return Err((
                    format!(
                        "`{name}` calls a subgroup function and its body uses `{op}`: on \
                         `glsl-no-subgroup` its calls are expanded, and the linker does not \
                         expand `#` or `##`"
                    ),
                    d.name.clone(),
                ));
            }
        }
    }
    let expander = Expander {
        defined: &defined,
        calling: &calling,
    };
    let words = Word::of(text, &tokens);
    // The calls, outside directives, in order; and the lines that go.
    let mut out = String::with_capacity(text.len() + text.len() / 4);
    let mut from = 0;
    let mut blank: Vec<Range<usize>> = calling
        .iter()
        .flat_map(|name| defined[name].iter().map(|d| d.line.clone()))
        .collect();
    blank.sort_by_key(|r| r.start);
    let mut lines = directive_lines.iter().peekable();
    let mut k = 0;
    while k < tokens.len() {
        let t = tokens[k];
        while lines.peek().is_some_and(|l| l.end <= t.range().start) {
            lines.next();
        }
        let in_directive = lines.peek().is_some_and(|l| l.contains(&t.range().start));
        let name = words[k].text;
        if in_directive || t.kind != Kind::Ident || !calling.contains(name) {
            k += 1;
            continue;
        }
        let Some(definition) = expander.holding(name, t.range().start) else {
            k += 1;
            continue;
        };
        let call = Call {
            place: t.range(),
            at: t.range().start,
        };
        let (expansion, used) = expander.call(definition, &words[k..], &call, &[], 0)?;
        let range = t.range().start..tokens[k + used - 1].range().end;
        copy_blanked(&mut out, text, from..range.start, &blank);
        out.push_str(&join(&expansion));
        // The call's line breaks, after it.
        for c in text[range.clone()].chars().filter(|&c| c == '\n') {
            out.push(c);
        }
        if out.len() > MAX_SOURCE_BYTES {
            return Err((
                format!(
                    "the expansion of `{name}` makes the shader larger than {MAX_SOURCE_BYTES} \
                     bytes"
                ),
                t.range(),
            ));
        }
        from = range.end;
        k += used;
    }
    copy_blanked(&mut out, text, from..text.len(), &blank);
    Ok(Some(out))
}

/// Ends the definition of `name` that holds, at `at`: by a `#define`
/// (`redefined`) or an `#undef`.
fn close(
    defined: &mut BTreeMap<&str, Vec<Definition<'_>>>,
    name: &str,
    at: usize,
    redefined: bool,
) {
    if let Some(last) = defined.get_mut(name).and_then(|d| d.last_mut()) {
        if last.holds.end == usize::MAX {
            last.holds.end = at;
            last.redefined = redefined;
        }
    }
}

/// The macro a `#define` line defines: its name, then its parameters where
/// a `(` touches the name, then its body. `tokens` are those after
/// `#define`, on its logical `line`.
fn definition<'t>(
    text: &'t str,
    tokens: &[Token],
    line: Range<usize>,
) -> Option<(&'t str, Definition<'t>)> {
    let s = |t: &Token| &text[t.range()];
    // A line's `\` continuations are no tokens of the body.
    let tokens: Vec<Token> = tokens
        .iter()
        .copied()
        .filter(|t| t.kind != Kind::Punct(b'\\'))
        .collect();
    let name = tokens.first().filter(|t| t.kind == Kind::Ident)?;
    let mut body = 1;
    let mut params = None;
    let mut variadic = false;
    if tokens
        .get(1)
        .is_some_and(|t| s(t) == "(" && t.range().start == name.range().end)
    {
        let mut list = Vec::new();
        let mut j = 2;
        loop {
            match tokens.get(j).map(s)? {
                ")" => break,
                "," => {}
                "." => variadic = true,
                w if tokens[j].kind == Kind::Ident => list.push(w),
                _ => return None,
            }
            j += 1;
        }
        params = Some(list);
        body = j + 1;
    }
    // `#` and `##` are one token each in the body.
    let mut words: Vec<Word<'t>> = Vec::new();
    for w in Word::of(text, &tokens[body.min(tokens.len())..]) {
        match words.pop() {
            Some(last) if last.text == "#" && w.text == "#" && w.glued => words.push(Word {
                text: "##",
                glued: last.glued,
            }),
            last => {
                words.extend(last);
                words.push(w);
            }
        }
    }
    if let Some(first) = words.first_mut() {
        first.glued = false;
    }
    Some((
        s(name),
        Definition {
            params,
            body: words,
            name: name.range(),
            holds: line.end..usize::MAX,
            line,
            variadic,
            redefined: false,
        },
    ))
}

/// Expands calls of the macros in `calling`.
struct Expander<'a, 't> {
    defined: &'a BTreeMap<&'t str, Vec<Definition<'t>>>,
    calling: &'a BTreeSet<&'t str>,
}

/// The call in the text that an expansion is part of: where its name is,
/// for errors, and where it starts, which decides the definitions that
/// hold.
struct Call {
    place: Range<usize>,
    at: usize,
}

impl<'t> Expander<'_, 't> {
    /// The definition of `name` that holds at `at`.
    fn holding(&self, name: &str, at: usize) -> Option<&Definition<'t>> {
        self.defined
            .get(name)?
            .iter()
            .find(|d| d.holds.contains(&at))
    }

    /// The expansion of the call of `definition` whose name is `words[0]`,
    /// part of the text's `call`: the tokens, and how many words the call
    /// took. `off`: the macros being expanded around it, which are not
    /// expanded again.
    fn call(
        &self,
        definition: &Definition<'t>,
        words: &[Word<'t>],
        call: &Call,
        off: &[&'t str],
        depth: usize,
    ) -> Result<(Vec<Word<'t>>, usize), MacroError> {
        let name = words[0].text;
        let fail = |message: String| Err((message, call.place.clone()));
        if depth >= MAX_DEPTH {
            return fail(format!(
                "`{name}` expands more than {MAX_DEPTH} macros deep"
            ));
        }
        let mut inner = off.to_vec();
        inner.push(name);
        let Some(params) = &definition.params else {
            return Ok((self.scan(&definition.body, call, &inner, depth + 1)?, 1));
        };
        if words.get(1).map(|w| w.text) != Some("(") {
            return fail(format!(
                "`{name}` calls a subgroup function, and is named here without its arguments: \
                 on `glsl-no-subgroup` its calls are expanded"
            ));
        }
        // The arguments, split at the top-level commas.
        let mut args: Vec<&[Word<'t>]> = Vec::new();
        let mut nesting = 0usize;
        let mut start = 2;
        let mut end = None;
        for (j, w) in words.iter().enumerate().skip(2) {
            match w.text {
                "(" => nesting += 1,
                ")" if nesting == 0 => {
                    args.push(&words[start..j]);
                    end = Some(j);
                    break;
                }
                ")" => nesting -= 1,
                "," if nesting == 0 => {
                    args.push(&words[start..j]);
                    start = j + 1;
                }
                _ => {}
            }
        }
        let Some(end) = end else {
            return fail(format!("the call of `{name}` has no `)`"));
        };
        if params.is_empty() && args.len() == 1 && args[0].is_empty() {
            args.clear();
        }
        if args.len() != params.len() {
            return fail(format!(
                "`{name}` takes {} argument(s), and is given {}",
                params.len(),
                args.len()
            ));
        }
        // Each argument expanded on its own, then put in its parameter's
        // place; the whole scanned again, the macro off.
        let expanded = args
            .iter()
            .map(|a| self.scan(a, call, off, depth + 1))
            .collect::<Result<Vec<_>, _>>()?;
        // A substituted argument stands apart from its neighbours.
        let mut body: Vec<Word<'t>> = Vec::with_capacity(definition.body.len());
        let mut after_argument = false;
        for &w in &definition.body {
            match params.iter().position(|&p| p == w.text) {
                Some(p) => {
                    body.extend(expanded[p].iter().enumerate().map(|(i, &a)| match i {
                        0 => a.apart(),
                        _ => a,
                    }));
                    after_argument = true;
                }
                None => {
                    body.push(if after_argument { w.apart() } else { w });
                    after_argument = false;
                }
            }
        }
        Ok((self.scan(&body, call, &inner, depth + 1)?, end + 1))
    }

    /// `words` with every call of a macro in `calling` but those `off`
    /// expanded, as part of the text's `call`.
    fn scan(
        &self,
        words: &[Word<'t>],
        call: &Call,
        off: &[&'t str],
        depth: usize,
    ) -> Result<Vec<Word<'t>>, MacroError> {
        let mut out = Vec::with_capacity(words.len());
        let mut k = 0;
        // Whether the word after an expansion is next.
        let mut apart = false;
        while k < words.len() {
            let w = words[k].text;
            let definition = (self.calling.contains(w) && !off.contains(&w))
                .then(|| self.holding(w, call.at))
                .flatten();
            let Some(definition) = definition else {
                out.push(match std::mem::take(&mut apart) {
                    true => words[k].apart(),
                    false => words[k],
                });
                k += 1;
                continue;
            };
            let (expansion, used) = self.call(definition, &words[k..], call, off, depth)?;
            // An expansion stands apart from what is around it.
            let expansion = expansion.into_iter().enumerate().map(|(i, e)| match i {
                0 => e.apart(),
                _ => e,
            });

            if out.len() + expansion.len() > MAX_SOURCE_BYTES / 4 {
                return Err((
                    format!("the expansion of `{w}` is too large"),
                    call.place.clone(),
                ));
            }
            out.extend(expansion);
            k += used;
            apart = true;
        }
        Ok(out)
    }
}

/// `text[range]` onto `out`, with the parts of it inside `blank` as
/// spaces, their line breaks kept.
fn copy_blanked(out: &mut String, text: &str, range: Range<usize>, blank: &[Range<usize>]) {
    let mut at = range.start;
    for b in blank {
        if b.end <= at || b.start >= range.end {
            continue;
        }
        let start = b.start.max(at);
        let end = b.end.min(range.end);
        out.push_str(&text[at..start]);
        out.extend(
            text[start..end]
                .chars()
                .map(|c| if matches!(c, '\n' | '\r') { c } else { ' ' }),
        );
        at = end;
    }
    out.push_str(&text[at..range.end]);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shuffle(name: &str) -> bool {
        name == "subgroupShuffleXor" || name == "subgroupAdd"
    }

    fn expanded(text: &str) -> String {
        expand(text, shuffle)
            .unwrap_or_else(|e| panic!("{e:?}"))
            .expect("an expansion")
    }

    fn refused(text: &str) -> (String, String) {
        let (message, at) = expand(text, shuffle).expect_err("refused");
        (message, text[at].to_string())
    }

    #[test]
    fn a_call_is_expanded_on_its_line_and_every_line_stays() {
        let text = "#define P(a, s) { a = a + subgroupShuffleXor(a, s); \\\n    a = a; }\n\
                    void f() {\n    uint v = 1u;\n    P(v,\n      2u);\n    v = v << 1;\n}\n";
        let out = expanded(text);
        assert_eq!(out.lines().count(), text.lines().count(), "{out}");
        let lines: Vec<&str> = out.lines().collect();
        // Substituted arguments stand apart; the body's own neighbours
        // touch as written.
        assert_eq!(
            lines[4], "    { v = v + subgroupShuffleXor( v , 2u ); v = v ; }",
            "{out}"
        );
        // The `#define` lines are blanks; the `;` after the call stays on
        // the call's second line.
        assert!(
            lines[0].trim().is_empty() && lines[1].trim().is_empty(),
            "{out}"
        );
        assert_eq!(lines[5].trim(), ";", "{out}");
        assert_eq!(lines[6], "    v = v << 1;");
    }

    #[test]
    fn arguments_and_nested_macros_expand_as_the_preprocessor_does() {
        let text = "#define ONE subgroupAdd(x)\n#define TWO(a) (ONE + subgroupAdd(a))\n\
                    #define ID(a) a\n#define SELF SELF + subgroupAdd(1)\n\
                    void f() { uint x = TWO(ID(x) * 2); uint y = SELF; uint z = -ID(-x); }\n";
        let out = expanded(text);
        let body = out.lines().last().expect("the function");
        assert!(
            body.contains("uint x = ( subgroupAdd(x) + subgroupAdd( ID(x) * 2 ));"),
            "{body}"
        );
        // A macro is not expanded inside itself.
        assert!(body.contains("uint y = SELF + subgroupAdd(1);"), "{body}");
        // ID calls no collective: left to glslang, as written, in an
        // argument too.
        assert!(body.contains("uint z = -ID(-x);"), "{body}");
        assert!(out.contains("#define ID(a) a"), "{out}");
        assert!(!out.contains("#define TWO"), "{out}");
    }

    #[test]
    fn tokens_are_never_pasted_into_new_ones() {
        let text = "#define N(a) -a + subgroupAdd(1)\nvoid f() { uint y = N(-x); }\n";
        let out = expanded(text);
        assert!(out.contains("uint y = - -x + subgroupAdd(1);"), "{out}");
    }

    #[test]
    fn undef_and_redefinition_in_order_are_followed() {
        let text = "#define S(a) subgroupAdd(a)\nvoid f() { uint y = S(1); }\n#undef S\n\
                    #define S(a) subgroupAdd(a + 1)\nvoid g() { uint y = S(1); }\n";
        let out = expanded(text);
        assert!(
            out.contains("void f() { uint y = subgroupAdd( 1 ); }"),
            "{out}"
        );
        assert!(
            out.contains("void g() { uint y = subgroupAdd( 1 + 1); }"),
            "{out}"
        );
    }

    #[test]
    fn what_cannot_be_expanded_is_refused_at_its_token() {
        let (m, at) = refused("#define S(a) subgroupAdd(a ## 1)\nvoid f() { S(x); }\n");
        assert!(m.contains("`##`"), "{m}");
        assert_eq!(at, "S");
        let (m, _) = refused("#define S(a, ...) subgroupAdd(a)\nvoid f() { S(x); }\n");
        assert!(m.contains("variadic"), "{m}");
        let (m, at) = refused("#define S(a, b) subgroupAdd(a)\nvoid f() { S(x); }\n");
        assert!(m.contains("takes 2 argument(s), and is given 1"), "{m}");
        assert_eq!(at, "S");
        let (m, _) = refused("#define S(a) subgroupAdd(a)\nvoid f() { uint y = S; }\n");
        assert!(m.contains("without its arguments"), "{m}");
        let (m, _) = refused("#define S(a) subgroupAdd(a)\nvoid f() { S(x; }\n");
        assert!(m.contains("no `)`"), "{m}");
        let (m, _) = refused(
            "#if FOO(1)\n#define S(a) subgroupAdd(a)\n#else\n#define S(a) subgroupAdd(2 * a)\n\
             #endif\nvoid f() { S(x); }\n",
        );
        assert!(m.contains("defined twice"), "{m}");
    }

    #[test]
    fn a_runaway_expansion_stops() {
        // Each level doubles: 2^40 tokens, were it not bounded.
        let mut text = String::from("#define M0 subgroupAdd(1)\n");
        for k in 1..=40 {
            text.push_str(&format!("#define M{k} M{} + M{}\n", k - 1, k - 1));
        }
        text.push_str("void f() { uint y = M40; }\n");
        let (m, _) = refused(&text);
        assert!(m.contains("too large"), "{m}");
    }

    #[test]
    fn a_text_without_such_macros_is_left_alone() {
        let text = "#define ID(a) a\nvoid f() { uint y = subgroupAdd(ID(1)); }\n";
        assert_eq!(expand(text, shuffle), Ok(None));
    }
}
