//! Byte classes shared by the three scanners of a shader's text
//! (`check`'s pre-scan, the linker's lexer and `reconverge`'s): a table
//! looked up once per byte, where a chain of range tests costs several
//! compares and branches. A large shader is megabytes, and each scanner
//! reads every byte of it.

/// What a byte can be the start or part of.
const WORD: u8 = 1;
const BLANK: u8 = 2;

/// The classes of every byte, built from their definitions: the bytes of
/// ASCII names and numbers (`A`–`Z`, `a`–`z`, `0`–`9`, `_`) are [`WORD`];
/// space, tab, vertical tab and form feed are [`BLANK`] (line breaks are
/// not: the scanners count lines).
const CLASS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        if c.is_ascii_alphanumeric() || c == b'_' {
            table[b] = WORD;
        }
        if matches!(c, b' ' | b'\t' | 0x0b | 0x0c) {
            table[b] = BLANK;
        }
        b += 1;
    }
    table
};

/// Whether `b` is an ASCII letter, digit or `_`.
#[inline]
pub(crate) fn is_word(b: u8) -> bool {
    CLASS[b as usize] == WORD
}

/// Whether `b` is blank space within a line: space, tab, vertical tab or
/// form feed.
#[inline]
pub(crate) fn is_blank(b: u8) -> bool {
    CLASS[b as usize] == BLANK
}

/// The first position at or after `i` whose byte is no ASCII word byte
/// ([`is_word`]), or the end of `bytes`; `i` is at most its length.
#[inline]
pub(crate) fn ascii_word_end(bytes: &[u8], i: usize) -> usize {
    end_of_class(bytes, i, WORD)
}

/// The first position at or after `i` whose byte is no blank within a
/// line ([`is_blank`]), or the end of `bytes`; `i` is at most its
/// length.
#[inline]
pub(crate) fn blank_end(bytes: &[u8], i: usize) -> usize {
    end_of_class(bytes, i, BLANK)
}

/// The first position at or after `i` whose byte is not of `class`.
#[inline]
fn end_of_class(bytes: &[u8], i: usize, class: u8) -> usize {
    bytes[i..]
        .iter()
        .position(|&b| CLASS[b as usize] != class)
        .map_or(bytes.len(), |n| i + n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_classes_are_their_definitions() {
        for b in 0..=255u8 {
            assert_eq!(is_word(b), b.is_ascii_alphanumeric() || b == b'_', "{b:#x}");
            assert_eq!(
                is_blank(b),
                matches!(b, b' ' | b'\t' | 0x0b | 0x0c),
                "{b:#x}"
            );
        }
    }

    #[test]
    fn ends_stop_at_the_first_other_byte_or_the_end() {
        let text = b"ab_9 \t\x0bx+";
        assert_eq!(ascii_word_end(text, 0), 4);
        assert_eq!(ascii_word_end(text, 4), 4);
        assert_eq!(blank_end(text, 4), 7);
        assert_eq!(ascii_word_end(text, 7), 8);
        assert_eq!(ascii_word_end(b"abc", 1), 3);
        assert_eq!(blank_end(b"  ", 0), 2);
    }
}
