//! Single-character escapes (Go `parseEscape` in `parse.go`) and the ASCII Perl and POSIX groups
//! (Go `perl_groups.go`).

use super::ClassItem;
use crate::regexp::{Error, ErrorCode};

const DIGIT: &[(u8, u8)] = &[(b'0', b'9')];
/// Go's `\s`: `[\t\n\f\r ]` (no `\v`, unlike `[[:space:]]`).
const PERL_SPACE: &[(u8, u8)] = &[(b'\t', b'\n'), (0x0c, b'\r'), (b' ', b' ')];
const WORD: &[(u8, u8)] = &[(b'0', b'9'), (b'A', b'Z'), (b'_', b'_'), (b'a', b'z')];

/// `\d \D \s \S \w \W` at the start of `s` (Go `parsePerlClassEscape`).
pub(crate) fn perl_group(s: &str) -> Option<(ClassItem, &str)> {
    let b = s.as_bytes();
    if b.len() < 2 || b[0] != b'\\' {
        return None;
    }
    let ranges = match b[1].to_ascii_lowercase() {
        b'd' => DIGIT,
        b's' => PERL_SPACE,
        b'w' => WORD,
        _ => return None,
    };
    let negated = b[1].is_ascii_uppercase();
    Some((ClassItem::Ascii { ranges, negated }, &s[2..]))
}

/// The POSIX group named `name` (`alpha` in `[:alpha:]`, or `^alpha` negated).
pub(crate) fn posix_group(name: &str) -> Option<ClassItem> {
    let (negated, bare) = match name.strip_prefix('^') {
        Some(bare) => (true, bare),
        None => (false, name),
    };
    let ranges: &'static [(u8, u8)] = match bare {
        "alnum" => &[(b'0', b'9'), (b'A', b'Z'), (b'a', b'z')],
        "alpha" => &[(b'A', b'Z'), (b'a', b'z')],
        "ascii" => &[(0, 0x7f)],
        "blank" => &[(b'\t', b'\t'), (b' ', b' ')],
        "cntrl" => &[(0, 0x1f), (0x7f, 0x7f)],
        "digit" => DIGIT,
        "graph" => &[(b'!', b'~')],
        "lower" => &[(b'a', b'z')],
        "print" => &[(b' ', b'~')],
        "punct" => &[(b'!', b'/'), (b':', b'@'), (b'[', b'`'), (b'{', b'~')],
        "space" => &[(b'\t', b'\r'), (b' ', b' ')],
        "upper" => &[(b'A', b'Z')],
        "word" => WORD,
        "xdigit" => &[(b'0', b'9'), (b'A', b'F'), (b'a', b'f')],
        _ => return None,
    };
    Some(ClassItem::Ascii { ranges, negated })
}

/// One escaped character at the start of `s` (which starts with `\`): the character (a Go rune,
/// possibly a surrogate) and the rest of the pattern (Go `parseEscape`).
pub(crate) fn parse_escape(s: &str) -> Result<(u32, &str), Error> {
    let t = &s[1..];
    let Some(c) = t.chars().next() else {
        return Err(Error::new(ErrorCode::TrailingBackslash, ""));
    };
    let mut t = &t[c.len_utf8()..];
    let invalid = |t: &str| Error::new(ErrorCode::InvalidEscape, &s[..s.len() - t.len()]);
    let is_octal = |t: &str| {
        t.as_bytes()
            .first()
            .is_some_and(|b| (b'0'..=b'7').contains(b))
    };
    match c {
        // A single non-zero digit would be a backreference: not supported.
        '1'..='7' if !is_octal(t) => Err(invalid(t)),
        '0'..='7' => {
            // Up to three octal digits in all.
            let mut r = u32::from(c) - u32::from('0');
            for _ in 1..3 {
                if !is_octal(t) {
                    break;
                }
                r = r * 8 + u32::from(t.as_bytes()[0] - b'0');
                t = &t[1..];
            }
            Ok((r, t))
        }
        'x' => hex_escape(t, invalid),
        'a' => Ok((0x07, t)),
        'f' => Ok((0x0c, t)),
        'n' => Ok((0x0a, t)),
        'r' => Ok((0x0d, t)),
        't' => Ok((0x09, t)),
        'v' => Ok((0x0b, t)),
        // Escaped punctuation is itself (`\_` too); `\b` is not a backspace.
        c if c.is_ascii() && !c.is_ascii_alphanumeric() => Ok((u32::from(c), t)),
        _ => Err(invalid(t)),
    }
}

/// `\x41` or `\x{10FFFF}` after the `\x` (`t` is what follows it).
fn hex_escape(mut t: &str, invalid: impl Fn(&str) -> Error) -> Result<(u32, &str), Error> {
    let Some(c) = t.chars().next() else {
        return Err(invalid(t));
    };
    t = &t[c.len_utf8()..];
    if c == '{' {
        // Any number of hex digits, at least one, up to U+10FFFF.
        let mut digits = 0;
        let mut r: u32 = 0;
        loop {
            let Some(c) = t.chars().next() else {
                return Err(invalid(t));
            };
            t = &t[c.len_utf8()..];
            if c == '}' {
                break;
            }
            let Some(v) = c.to_digit(16) else {
                return Err(invalid(t));
            };
            r = r * 16 + v;
            if r > 0x10_FFFF {
                return Err(invalid(t));
            }
            digits += 1;
        }
        if digits == 0 {
            return Err(invalid(t));
        }
        return Ok((r, t));
    }
    let x = c.to_digit(16);
    let second = t.chars().next();
    if let Some(c2) = second {
        t = &t[c2.len_utf8()..];
    }
    match (x, second.and_then(|c2| c2.to_digit(16))) {
        (Some(x), Some(y)) => Ok((x * 16 + y, t)),
        _ => Err(invalid(t)),
    }
}
