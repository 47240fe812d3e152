//! Tokens of a WGSL or GLSL text: what the statement reader needs, and no
//! more. Comments and blank space are skipped; a GLSL `#` line (with its
//! `\` continuations) is one token.

use std::ops::Range;

use ballot_shader::back::Language;

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A name or keyword.
    Ident,
    /// A numeric literal, suffix included.
    Number,
    /// An operator or punctuation: one to three characters, as in the
    /// text (`&&`, `->`, `>>=`).
    Punct,
    /// A GLSL preprocessor line.
    Directive,
}

/// One token: its kind and where it is, in 12 bytes rather than 24: a
/// large shader's linked text is millions of tokens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Token {
    pub kind: Kind,
    /// A [`Kind::Punct`]'s text as one byte ([`punct_code`]), so that the
    /// reader tells brackets and separators apart without reading the
    /// text; 0 for the other kinds. It takes the padding after `kind`.
    pub code: u8,
    start: u32,
    end: u32,
}

/// [`Token::code`] of `&&`.
pub(crate) const AND_AND: u8 = 0x80 | b'&';
/// [`Token::code`] of `||`.
pub(crate) const OR_OR: u8 = 0x80 | b'|';

/// The code of the operator `op`: its byte where it is one character,
/// [`AND_AND`] and [`OR_OR`], and 0 for the other operators of more than
/// one (which the reader names by their text).
pub(crate) fn punct_code(op: &[u8]) -> u8 {
    match op {
        [b] => *b,
        b"&&" => AND_AND,
        b"||" => OR_OR,
        _ => 0,
    }
}

impl Token {
    /// The token of `kind` at `range`.
    pub fn new(kind: Kind, range: Range<usize>) -> Self {
        // The linked text of a shader `check` admits (16 MiB) is far
        // below 4 GiB.
        let at = |i: usize| u32::try_from(i).expect("a text under 4 GiB");
        Self {
            kind,
            code: 0,
            start: at(range.start),
            end: at(range.end),
        }
    }

    /// The [`Kind::Punct`] token of `op`, at `range`.
    pub fn punct(range: Range<usize>, op: &[u8]) -> Self {
        Self {
            code: punct_code(op),
            ..Self::new(Kind::Punct, range)
        }
    }

    /// Where it is.
    pub fn range(&self) -> Range<usize> {
        self.start as usize..self.end as usize
    }

    /// Where it starts.
    pub fn start(&self) -> usize {
        self.start as usize
    }

    /// Where it ends.
    pub fn end(&self) -> usize {
        self.end as usize
    }
}

/// The length of the operator that starts with `b`, then `next` and
/// `third` (0 past the text's end): 3 for `<<=` and `>>=`; 2 for `&&`,
/// `||`, `==`, `!=`, `<=`, `>=`, `<<`, `>>`, `->`, `++`, `--`, `::` and
/// the compound assignments `+=` … `^=`; else 1. A match on the bytes, not
/// a search of a list: the reader's text has an operator every few tokens.
fn operator_len(b: u8, next: u8, third: u8) -> usize {
    match (b, next) {
        (b'<', b'<') | (b'>', b'>') => 2 + usize::from(third == b'='),
        (b'&', b'&')
        | (b'|', b'|')
        | (b'-', b'>')
        | (b'+', b'+')
        | (b'-', b'-')
        | (b':', b':')
        | (
            b'=' | b'!' | b'<' | b'>' | b'+' | b'-' | b'*' | b'/' | b'%' | b'&' | b'|' | b'^',
            b'=',
        ) => 2,
        _ => 1,
    }
}

fn is_ident_continue(c: char) -> bool {
    c == '_' || c.is_alphanumeric() || (!c.is_ascii() && !is_unicode_blank(c))
}

/// WGSL's blank space outside ASCII.
fn is_unicode_blank(c: char) -> bool {
    matches!(
        c,
        '\u{85}' | '\u{200e}' | '\u{200f}' | '\u{2028}' | '\u{2029}'
    )
}

/// The tokens of `text`. Never fails: a character no token starts with is
/// a one-character [`Kind::Punct`], for the reader to refuse where it
/// matters.
///
/// It reads bytes, decoding a character only outside ASCII: the linked
/// text of a large shader is millions of tokens, nearly all ASCII.
pub(crate) fn lex(text: &str, language: Language) -> Vec<Token> {
    let bytes = text.as_bytes();
    // About one token per four bytes of a shader: reserved, so that the
    // array seldom moves as it grows.
    let mut tokens = Vec::with_capacity(text.len() / 4);
    let mut i = 0;
    // Whether only blank space precedes on this line: where GLSL's `#`
    // starts a directive.
    let mut line_start = true;
    while i < bytes.len() {
        let start = i;
        let b = bytes[i];
        if b >= 0x80 {
            // Outside ASCII: blank space, or a name (any other character
            // starts one).
            let c = text[i..].chars().next().unwrap_or('\0');
            i += c.len_utf8();
            if c.is_whitespace() || is_unicode_blank(c) {
                continue;
            }
            line_start = false;
            i = ident_end(text, i);
            tokens.push(Token::new(Kind::Ident, start..i));
            continue;
        }
        match b {
            b'\n' | b'\r' => {
                line_start = true;
                i += 1;
                continue;
            }
            b' ' | b'\t' | b'\x0b' | b'\x0c' => {
                i = crate::bytes::blank_end(bytes, i + 1);
                continue;
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                // To the end of the line.
                i += 2;
                while i < bytes.len() && !matches!(bytes[i], b'\n' | b'\r') {
                    i += 1;
                }
                continue;
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i += 2;
                // WGSL's block comments nest; GLSL's do not.
                let mut depth = 1;
                let mut prev = 0u8;
                while i < bytes.len() {
                    let c = bytes[i];
                    i += 1;
                    if prev == b'*' && c == b'/' {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                        prev = 0;
                        continue;
                    }
                    if language == Language::Wgsl && prev == b'/' && c == b'*' {
                        depth += 1;
                        prev = 0;
                        continue;
                    }
                    prev = c;
                }
                continue;
            }
            b'#' if language == Language::Glsl && line_start => {
                // To the end of the line, past `\` continuations.
                let mut prev = 0u8;
                while i < bytes.len() {
                    let c = bytes[i];
                    if matches!(c, b'\n' | b'\r') && prev != b'\\' {
                        break;
                    }
                    if !(c == b'\r' && prev == b'\\') {
                        prev = c;
                    }
                    i += 1;
                }
                tokens.push(Token::new(Kind::Directive, start..i));
                continue;
            }
            _ => {}
        }
        line_start = false;
        if b == b'_' || b.is_ascii_alphabetic() {
            i = ident_end(text, i + 1);
            tokens.push(Token::new(Kind::Ident, start..i));
            continue;
        }
        let starts_number =
            b.is_ascii_digit() || (b == b'.' && bytes.get(i + 1).is_some_and(u8::is_ascii_digit));
        if starts_number {
            let hex = matches!(&bytes[i..], [b'0', b'x' | b'X', ..]);
            let mut prev = 0u8;
            while i < bytes.len() {
                let c = bytes[i];
                // An exponent's sign belongs to the number: `1e-3`, and
                // `0x1p-3` in hexadecimal.
                let sign = (c == b'+' || c == b'-')
                    && if hex {
                        matches!(prev, b'p' | b'P')
                    } else {
                        matches!(prev, b'e' | b'E')
                    };
                if !(c.is_ascii_alphanumeric() || c == b'.' || c == b'_' || sign) {
                    break;
                }
                prev = c;
                i += 1;
            }
            tokens.push(Token::new(Kind::Number, start..i));
            continue;
        }
        // Brackets and separators start no longer operator: most
        // punctuation is one of them, and needs no look at its next bytes.
        let len = match b {
            b'(' | b')' | b'[' | b']' | b'{' | b'}' | b',' | b';' | b'@' | b'?' | b'.' => 1,
            _ => {
                let at = |k: usize| bytes.get(k).copied().unwrap_or(0);
                operator_len(b, at(i + 1), at(i + 2))
            }
        };
        i += len;
        tokens.push(Token::punct(start..i, &bytes[start..i]));
    }
    tokens
}

/// The end of the name whose characters continue at `i`.
fn ident_end(text: &str, mut i: usize) -> usize {
    let bytes = text.as_bytes();
    loop {
        // ASCII bytes by the table, nearly every name's whole length.
        i = crate::bytes::ascii_word_end(bytes, i);
        if i >= bytes.len() || bytes[i] < 0x80 {
            return i;
        }
        let c = text[i..].chars().next().unwrap_or('\0');
        if !is_ident_continue(c) {
            return i;
        }
        i += c.len_utf8();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The operators of more than one character, longest first, so that
    /// the first match is the token: the reference reader's list, which
    /// [`operator_len`] must agree with.
    const MULTI: &[&str] = &[
        "<<=", ">>=", "&&", "||", "==", "!=", "<=", ">=", "<<", ">>", "->", "++", "--", "+=", "-=",
        "*=", "/=", "%=", "&=", "|=", "^=", "::",
    ];

    fn texts(text: &str, language: Language) -> Vec<&str> {
        lex(text, language)
            .into_iter()
            .map(|t| &text[t.range()])
            .collect()
    }

    #[test]
    fn operators_are_one_token_and_comments_none() {
        assert_eq!(
            texts("a&&b||c->d>>=1u // x\n/* y /* z */ */ e", Language::Wgsl),
            ["a", "&&", "b", "||", "c", "->", "d", ">>=", "1u", "e"]
        );
        // GLSL's block comments do not nest: the first `*/` ends it.
        assert_eq!(
            texts("a /* y /* z */ b */ c", Language::Glsl),
            ["a", "b", "*", "/", "c"]
        );
    }

    #[test]
    fn numbers_keep_their_exponent_and_suffix() {
        assert_eq!(
            texts("1.5e-3f+0x1p-3+.5+2u", Language::Wgsl),
            ["1.5e-3f", "+", "0x1p-3", "+", ".5", "+", "2u"]
        );
    }

    #[test]
    fn a_glsl_directive_is_one_token_with_its_continuations() {
        let text = "#define F(x) \\\n  (x + 1)\nint y;\n  #version 450\n";
        assert_eq!(
            texts(text, Language::Glsl),
            [
                "#define F(x) \\\n  (x + 1)",
                "int",
                "y",
                ";",
                "#version 450"
            ]
        );
        // Not at a line's start, `#` is punctuation.
        assert_eq!(texts("a # b", Language::Glsl), ["a", "#", "b"]);
    }

    /// The lexer as it was before it read bytes: char by char, the
    /// reference the byte reader must agree with.
    fn is_ident_start(c: char) -> bool {
        c == '_' || c.is_alphabetic() || (!c.is_ascii() && !is_unicode_blank(c))
    }

    fn reference(text: &str, language: Language) -> Vec<Token> {
        let mut tokens = Vec::new();
        let mut chars = text.char_indices().peekable();
        // Whether only blank space precedes on this line: where GLSL's `#`
        // starts a directive.
        let mut line_start = true;
        while let Some(&(start, c)) = chars.peek() {
            if c == '\n' || c == '\r' {
                line_start = true;
                chars.next();
                continue;
            }
            if c.is_whitespace() || is_unicode_blank(c) {
                chars.next();
                continue;
            }
            let rest = &text[start..];
            if rest.starts_with("//") {
                // To the end of the line.
                while let Some(&(_, c)) = chars.peek() {
                    if c == '\n' || c == '\r' {
                        break;
                    }
                    chars.next();
                }
                continue;
            }
            if rest.starts_with("/*") {
                chars.next();
                chars.next();
                // WGSL's block comments nest; GLSL's do not.
                let mut depth = 1;
                let mut prev = '\0';
                for (_, c) in chars.by_ref() {
                    if prev == '*' && c == '/' {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                        prev = '\0';
                        continue;
                    }
                    if language == Language::Wgsl && prev == '/' && c == '*' {
                        depth += 1;
                        prev = '\0';
                        continue;
                    }
                    prev = c;
                }
                continue;
            }
            if c == '#' && language == Language::Glsl && line_start {
                // To the end of the line, past `\` continuations.
                let mut end = start;
                let mut prev = '\0';
                while let Some(&(at, c)) = chars.peek() {
                    if (c == '\n' || c == '\r') && prev != '\\' {
                        break;
                    }
                    if !(c == '\r' && prev == '\\') {
                        prev = c;
                    }
                    end = at + c.len_utf8();
                    chars.next();
                }
                tokens.push(Token::new(Kind::Directive, start..end));
                continue;
            }
            line_start = false;
            if is_ident_start(c) {
                let mut end = start;
                while let Some(&(at, c)) = chars.peek() {
                    if !is_ident_continue(c) {
                        break;
                    }
                    end = at + c.len_utf8();
                    chars.next();
                }
                tokens.push(Token::new(Kind::Ident, start..end));
                continue;
            }
            let starts_number = c.is_ascii_digit()
                || (c == '.' && rest[1..].starts_with(|d: char| d.is_ascii_digit()));
            if starts_number {
                let mut end = start;
                let mut prev = '\0';
                let hex = rest.starts_with("0x") || rest.starts_with("0X");
                while let Some(&(at, c)) = chars.peek() {
                    // An exponent's sign belongs to the number: `1e-3`, and
                    // `0x1p-3` in hexadecimal.
                    let sign = (c == '+' || c == '-')
                        && if hex {
                            matches!(prev, 'p' | 'P')
                        } else {
                            matches!(prev, 'e' | 'E')
                        };
                    if !(c.is_ascii_alphanumeric() || c == '.' || c == '_' || sign) {
                        break;
                    }
                    prev = c;
                    end = at + 1;
                    chars.next();
                }
                tokens.push(Token::new(Kind::Number, start..end));
                continue;
            }
            let len = MULTI
                .iter()
                .find(|op| rest.starts_with(**op))
                .map_or(c.len_utf8(), |op| op.len());
            for _ in 0..rest[..len].chars().count() {
                chars.next();
            }
            tokens.push(Token::punct(
                start..start + len,
                &text.as_bytes()[start..start + len],
            ));
        }
        tokens
    }

    #[test]
    fn operator_len_is_the_longest_operator_of_the_list() {
        let punct: Vec<u8> = (0x21..0x7f)
            .filter(|b: &u8| b.is_ascii_punctuation())
            .chain([0])
            .collect();
        for &a in &punct[..punct.len() - 1] {
            for &b in &punct {
                for &c in &punct {
                    let text = [a, b, c];
                    let text = &text[..text.iter().position(|&x| x == 0).unwrap_or(3)];
                    let want = MULTI
                        .iter()
                        .find(|op| text.starts_with(op.as_bytes()))
                        .map_or(1, |op| op.len());
                    assert_eq!(
                        operator_len(a, b, c),
                        want,
                        "{:?}",
                        String::from_utf8_lossy(text)
                    );
                }
            }
        }
    }

    #[test]
    fn reading_bytes_gives_the_tokens_of_reading_characters() {
        let texts = [
            "a&&b||c->d>>=1u // x\n/* y /* z */ */ e",
            "a /* y /* z */ b */ c /* never closed",
            "1.5e-3f+0x1p-3+.5+2u+0X1P+4+1e+2+a.b.5",
            "#define F(x) \\\n  (x + 1)\nint y;\n  #version 450\r\n# a\\\r\n b\na # b",
            "fn f() { let é = 1u;\u{85}let x\u{a0}y = é; } // ü\r\n\u{2028}z",
            "x<<=y>>z<=w!=v::u%=t^=s|=r&=q*=p/=o-=n+=m--l++k\u{1f600}",
            "/",
            "#",
            "é",
            "a\tb\x0bc\x0cd",
        ];
        for text in texts {
            for language in [Language::Wgsl, Language::Glsl] {
                assert_eq!(lex(text, language), reference(text, language), "{text:?}");
            }
        }
    }
}
