//! Error display as the API server prints CEL compile errors: cel-go `common/errors.go`
//! (`Errors.ToDisplayString`), `common/error.go` (`Error.ToDisplayString`), `common/source.go`
//! and `common/location.go`.
//!
//! Locations are a 1-based line and a 0-based column counted in code points; the display adds 1
//! to the column. The caret line has one `.` per code point before the error (a full-width `．`
//! for a character of more than one UTF-8 byte) and `^` (or `＾`). Tabs in the snippet are shown
//! as spaces. Errors without a location print as `<input>:-1:0` with no snippet, and sort first.

use std::fmt;

/// The expression text with cel-go's line table (code-point offsets where lines start).
#[derive(Clone, Debug)]
pub struct Source {
    text: String,
    /// Code-point offset just past each `\n`, then `len + 1` (cel-go `runes` line offsets).
    lines: Vec<u32>,
}

impl Source {
    /// Indexes the lines of `text`.
    pub fn new(text: &str) -> Source {
        let mut lines = Vec::new();
        let mut n = 0u32;
        for c in text.chars() {
            n += 1;
            if c == '\n' {
                lines.push(n);
            }
        }
        lines.push(n + 1);
        Source {
            text: text.to_string(),
            lines,
        }
    }

    /// The expression text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// cel-go `GetLocationByOffset`: (line, column) of a code-point offset.
    pub fn location(&self, cp: u32) -> (i32, i32) {
        let (mut line, mut col) = (1, cp as i32);
        for &l in &self.lines {
            if l > cp {
                break;
            }
            line += 1;
            col = cp as i32 - l as i32;
        }
        (line, col)
    }

    /// Code-point offset of a byte offset.
    pub fn cp_of_byte(&self, byte: u32) -> u32 {
        let b = (byte as usize).min(self.text.len());
        let mut end = b;
        while !self.text.is_char_boundary(end) {
            end -= 1;
        }
        self.text[..end].chars().count() as u32
    }

    /// cel-go `Snippet`: the text of a 1-based line.
    fn snippet(&self, line: i32) -> Option<&str> {
        if self.text.is_empty() || line < 1 {
            return None;
        }
        let start = if line == 1 {
            0
        } else {
            *self.lines.get(line as usize - 2)?
        };
        let end = self.lines.get(line as usize - 1).map(|e| e - 1);
        let slice = |from: u32, to: Option<u32>| {
            let mut it = self
                .text
                .char_indices()
                .map(|(i, _)| i)
                .chain([self.text.len()]);
            let a = it.nth(from as usize)?;
            let b = match to {
                Some(to) => self
                    .text
                    .char_indices()
                    .map(|(i, _)| i)
                    .chain([self.text.len()])
                    .nth(to as usize)?,
                None => self.text.len(),
            };
            self.text.get(a..b)
        };
        slice(start, end)
    }
}

/// One parse (or, later, check) error. `location` is `None` for cel-go's `NoLocation`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Issue {
    /// 1-based line and 0-based column, in code points.
    pub location: Option<(i32, i32)>,
    /// cel-go's message, e.g. `Syntax error: mismatched input '<EOF>' expecting …`.
    pub message: String,
}

const MAX_SNIPPET: usize = 16384;
const MAX_ERRORS: usize = 100;

impl Issue {
    /// cel-go `Error.ToDisplayString`.
    pub fn display(&self, source: &Source) -> String {
        let (line, col) = self.location.unwrap_or((-1, -1));
        let mut out = format!("ERROR: <input>:{}:{}: {}", line, col + 1, self.message);
        if let Some(snippet) = source.snippet(line).filter(|s| s.len() <= MAX_SNIPPET) {
            let snippet = snippet.replace('\t', " ");
            out.push_str("\n | ");
            out.push_str(&snippet);
            out.push_str("\n | ");
            let mut chars = snippet.chars();
            for _ in 0..col.max(0) {
                match chars.next() {
                    Some(c) if c.len_utf8() > 1 => out.push('\u{ff0e}'),
                    Some(_) => out.push('.'),
                    None => break,
                }
            }
            match chars.next() {
                Some(c) if c.len_utf8() > 1 => out.push('\u{ff3e}'),
                _ => out.push('^'),
            }
        }
        out
    }
}

/// The errors of one parse, displayed exactly as cel-go's `Issues.String()` (which the API
/// server wraps in `compilation failed: …`).
///
/// ```
/// let err = crdkit_cel_check::parse("self.a +").unwrap_err();
/// assert_eq!(err.issues[0].location, Some((1, 8)));
/// let text = err.to_string();
/// assert!(text.starts_with("ERROR: <input>:1:9: Syntax error: mismatched input '<EOF>'"));
/// assert!(text.ends_with("\n | self.a +\n | ........^"));
/// ```
#[derive(Clone, Debug)]
pub struct ParseErrors {
    /// The first 100 errors, by location (errors without one first).
    pub issues: Vec<Issue>,
    /// How many errors were reported in total (cel-go keeps the first 100).
    pub count: usize,
    /// The expression, for the snippets of [`Issue::display`].
    pub source: Source,
}

impl ParseErrors {
    pub(crate) fn new(mut issues: Vec<Issue>, source: Source) -> ParseErrors {
        let count = issues.len();
        issues.truncate(MAX_ERRORS);
        issues.sort_by_key(|i| i.location.unwrap_or((-1, -1)));
        ParseErrors {
            issues,
            count,
            source,
        }
    }
}

impl fmt::Display for ParseErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, issue) in self.issues.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            f.write_str(&issue.display(&self.source))?;
        }
        if self.count > MAX_ERRORS {
            write!(
                f,
                "\n{} more errors were truncated",
                self.count - MAX_ERRORS
            )?;
        }
        Ok(())
    }
}

impl std::error::Error for ParseErrors {}
