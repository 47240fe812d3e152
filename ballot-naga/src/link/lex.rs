//! The linker's reader of a shader's text: tokens of either language,
//! and the lines they stand on.

use super::*;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    Ident,
    Number,
    Punct(u8),
    /// A GLSL preprocessor line; of a `#define`, only `#define` itself:
    /// the macro's name and body are tokens, so that its calls are linked
    /// and its names counted.
    Directive,
}

/// Whether `c`, outside ASCII, is blank space between WGSL tokens.
pub(super) fn is_unicode_blank(c: char) -> bool {
    matches!(
        c,
        '\u{85}' | '\u{200e}' | '\u{200f}' | '\u{2028}' | '\u{2029}'
    )
}

/// Whether `c` ends a line comment of `language`: `\n`, `\r` (GLSL's
/// preprocessor takes a lone one as a line end), and WGSL's other line
/// breaks.
pub(super) fn is_line_break(c: char, language: Language) -> bool {
    match language {
        Language::Glsl => matches!(c, '\n' | '\r'),
        Language::Wgsl => matches!(c, '\u{a}'..='\u{d}' | '\u{85}' | '\u{2028}' | '\u{2029}'),
    }
}

/// A token: its kind and where it is, in 12 bytes rather than 24 (a
/// large shader is millions of tokens, and the reader's scans go over
/// them all several times).
#[derive(Clone, Copy, Debug)]
pub(super) struct Token {
    pub(super) kind: Kind,
    pub(super) start: u32,
    pub(super) end: u32,
}

impl Token {
    pub(super) fn new(kind: Kind, range: Range<usize>) -> Self {
        // `check::admit` lets through at most 16 MiB.
        let at = |i: usize| u32::try_from(i).expect("a text under 4 GiB");
        Self {
            kind,
            start: at(range.start),
            end: at(range.end),
        }
    }

    /// Where it is.
    pub(super) fn range(&self) -> Range<usize> {
        self.start as usize..self.end as usize
    }
}

/// The tokens of `text`, comments and white space skipped. WGSL block
/// comments nest; GLSL's do not, and GLSL's `#` lines are one token each
/// (but `#define`'s, see [`Kind::Directive`]). Characters outside ASCII,
/// but WGSL's blank space, are identifier characters: WGSL identifiers may
/// hold them, and a name such as `ésubgroupElect` is one word.
pub(super) fn lex(text: &str, language: Language) -> Vec<Token> {
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
        if crate::bytes::is_blank(b) {
            i = crate::bytes::blank_end(bytes, i + 1);
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
            // Bytes by the table while ASCII (nearly every name),
            // characters outside it.
            loop {
                i = crate::bytes::ascii_word_end(bytes, i);
                if i >= bytes.len() || bytes[i].is_ascii() {
                    break;
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
            while i < bytes.len() && (crate::bytes::is_word(bytes[i]) || bytes[i] == b'.') {
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

/// The end of the line `from` is on, through `\` continuations (GLSL's
/// preprocessor joins them), at its line break or the text's end.
pub(super) fn logical_line_end(text: &str, from: usize) -> usize {
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

/// `range`, widened to its whole line where nothing else is on it: the
/// line goes, its line break before it included.
pub(super) fn whole_line(text: &str, range: Range<usize>) -> Range<usize> {
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
