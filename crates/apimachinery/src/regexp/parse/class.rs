//! Bracketed classes and Unicode classes (Go `parseClass`, `parseNamedClass`,
//! `parseUnicodeClass` in `parse.go`).

use super::escape::{parse_escape, perl_group, posix_group};
use super::{Class, ClassItem, unicode_table};
use crate::regexp::{Error, ErrorCode};

/// The class at the start of `s` (which starts with `[`) and the rest of the pattern.
pub(crate) fn parse_class(s: &str, fold: bool) -> Result<(Class, &str), Error> {
    let mut t = &s[1..];
    let negated = t.starts_with('^');
    if negated {
        t = &t[1..];
    }
    let mut items = Vec::new();
    // `]` right after `[` or `[^` is a literal.
    let mut first = true;
    while first || !t.starts_with(']') {
        first = false;
        // `[:alpha:]`: a POSIX group when the name is closed by `:]`.
        if t.len() > 2
            && t.starts_with("[:")
            && let Some(i) = t[2..].find(":]")
        {
            let name = &t[..i + 4];
            let Some(item) = posix_group(&name[2..name.len() - 2]) else {
                return Err(Error::new(ErrorCode::InvalidCharRange, name));
            };
            items.push(item);
            t = &t[i + 4..];
            continue;
        }
        if let Some((item, rest)) = unicode_class(t)? {
            items.push(item);
            t = rest;
            continue;
        }
        if let Some((item, rest)) = perl_group(t) {
            items.push(item);
            t = rest;
            continue;
        }
        // One character or a range `lo-hi` (`a-]` is `a` and `-`).
        let range = t;
        let (lo, rest) = class_char(t, s)?;
        t = rest;
        let mut hi = lo;
        if t.len() >= 2 && t.starts_with('-') && !t[1..].starts_with(']') {
            let (c, rest) = class_char(&t[1..], s)?;
            t = rest;
            hi = c;
            if hi < lo {
                return Err(Error::new(
                    ErrorCode::InvalidCharRange,
                    &range[..range.len() - t.len()],
                ));
            }
        }
        items.push(ClassItem::Range(lo, hi));
    }
    let class = Class {
        negated,
        fold,
        items,
    };
    Ok((class, &t[1..]))
}

/// One character of a class, escaped or not (Go `parseClassChar`); `whole` is the class from
/// its `[`, quoted when it is not closed.
fn class_char<'p>(t: &'p str, whole: &str) -> Result<(u32, &'p str), Error> {
    match t.chars().next() {
        None => Err(Error::new(ErrorCode::MissingBracket, whole)),
        Some('\\') => parse_escape(t),
        Some(c) => Ok((u32::from(c), &t[c.len_utf8()..])),
    }
}

/// `\pL`, `\p{Greek}`, `\P{^Lu}` at the start of `s`: the class and the rest, `None` when `s`
/// does not start with `\p` or `\P` (Go `parseUnicodeClass`).
pub(crate) fn unicode_class(s: &str) -> Result<Option<(ClassItem, &str)>, Error> {
    let b = s.as_bytes();
    if b.len() < 2 || b[0] != b'\\' || (b[1] != b'p' && b[1] != b'P') {
        return Ok(None);
    }
    let mut negated = b[1] == b'P';
    let (seq, name, rest) = match s[2..].chars().next() {
        Some('{') => {
            let Some(end) = s.find('}') else {
                return Err(Error::new(ErrorCode::InvalidCharRange, s));
            };
            (&s[..=end], &s[3..end], &s[end + 1..])
        }
        // A one-letter name (none at the end of the pattern).
        c => {
            let n = 2 + c.map_or(0, char::len_utf8);
            (&s[..n], &s[2..n], &s[n..])
        }
    };
    // `\p{^Greek}` is `\P{Greek}`.
    let name = match name.strip_prefix('^') {
        Some(bare) => {
            negated = !negated;
            bare
        }
        None => name,
    };
    let Some(table) = unicode_table(name) else {
        return Err(Error::new(ErrorCode::InvalidCharRange, seq));
    };
    Ok(Some((ClassItem::Unicode { table, negated }, rest)))
}
