//! Mirrors `crates/cel-check/src/errors.rs` in `const fn`s.
//!
//! cel-go's error display (`common/errors.go`, `common/error.go`) over the checker's issues:
//! sorted by location, each `ERROR: <input>:line:col: message` with the line of the expression
//! and a caret under the column (`.` per code point before it, full-width `．`/`＾` for
//! characters of more than one byte, tabs shown as spaces).

use super::check::{Checker, Issue, MAX_ISSUES};
use crate::Msg;

/// Appends the issues, sorted by location (stable), as cel-go prints them.
#[must_use]
pub const fn issues(c: &Checker, src: &str, m: Msg) -> Msg {
    let mut sorted: [Issue; MAX_ISSUES] = c.issues;
    let n = c.issues_len;
    // Insertion sort keeps equal locations in report order.
    let mut i = 1;
    while i < n {
        let mut j = i;
        while j > 0 && before(&sorted[j], &sorted[j - 1]) {
            let tmp = sorted[j];
            sorted[j] = sorted[j - 1];
            sorted[j - 1] = tmp;
            j -= 1;
        }
        i += 1;
    }
    let mut m = m;
    let mut k = 0;
    while k < n {
        if k > 0 {
            m = m.s("\n");
        }
        let is = &sorted[k];
        m = m
            .s("ERROR: <input>:")
            .int(is.line as i128)
            .s(":")
            .int(is.col as i128 + 1)
            .s(": ")
            .s(is.message.as_str());
        m = snippet(m, src, is.line, is.col);
        k += 1;
    }
    m
}

const fn before(a: &Issue, b: &Issue) -> bool {
    a.line < b.line || (a.line == b.line && a.col < b.col)
}

/// The text of a 1-based line, without its line break.
#[must_use]
pub const fn line_of(src: &str, line: u32) -> &str {
    let b = src.as_bytes();
    let mut cur = 1;
    let mut start = 0;
    let mut i = 0;
    while i < b.len() && cur < line {
        if b[i] == b'\n' {
            cur += 1;
            start = i + 1;
        }
        i += 1;
    }
    if cur < line {
        return "";
    }
    let mut end = start;
    while end < b.len() && b[end] != b'\n' {
        end += 1;
    }
    let (head, _) = b.split_at(end);
    let (_, s) = head.split_at(start);
    match core::str::from_utf8(s) {
        Ok(s) => s,
        Err(_) => "",
    }
}

/// `\n | <line>\n | ....^`
#[must_use]
pub const fn snippet(m: Msg, src: &str, line: u32, col: u32) -> Msg {
    if src.is_empty() || line < 1 {
        return m;
    }
    let text = line_of(src, line);
    if text.len() > 16384 {
        return m;
    }
    let mut m = m.s("\n | ");
    m = tabs_as_spaces(m, text);
    m = m.s("\n | ");
    let b = text.as_bytes();
    let (mut i, mut c) = (0, 0);
    while c < col && i < b.len() {
        let w = width(b[i]);
        m = m.s(if w > 1 { "\u{ff0e}" } else { "." });
        i += w;
        c += 1;
    }
    if i < b.len() && width(b[i]) > 1 {
        m.s("\u{ff3e}")
    } else {
        m.s("^")
    }
}

/// ` | <rule>` lines for messages without a location.
#[must_use]
pub const fn source_lines(m: Msg, src: &str) -> Msg {
    let mut m = m;
    let mut line = 1;
    let b = src.as_bytes();
    let mut lines = 1;
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\n' {
            lines += 1;
        }
        i += 1;
    }
    while line <= lines {
        m = tabs_as_spaces(m.s("\n | "), line_of(src, line));
        line += 1;
    }
    m
}

const fn tabs_as_spaces(m: Msg, text: &str) -> Msg {
    let b = text.as_bytes();
    let mut m = m;
    let mut start = 0;
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\t' {
            m = m.s(sub(text, start, i)).s(" ");
            start = i + 1;
        }
        i += 1;
    }
    m.s(sub(text, start, b.len()))
}

const fn sub(s: &str, from: usize, to: usize) -> &str {
    let (head, _) = s.as_bytes().split_at(to);
    let (_, mid) = head.split_at(from);
    match core::str::from_utf8(mid) {
        Ok(s) => s,
        Err(_) => "",
    }
}

const fn width(b: u8) -> usize {
    if b < 0x80 {
        1
    } else if b >= 0xF0 {
        4
    } else if b >= 0xE0 {
        3
    } else {
        2
    }
}
