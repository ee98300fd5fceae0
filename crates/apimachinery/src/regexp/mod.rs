//! The syntax of Go's `regexp` package (RE2 with Perl extensions), as the Kubernetes API server
//! parses OpenAPI `pattern`s and CEL regexes: Go's `regexp/syntax/parse.go` (`Parse(pattern,
//! syntax.Perl)`, the parser behind `regexp.Compile`) and `perl_groups.go` (the ASCII `\d \s \w`
//! and POSIX classes), with Go's error messages ([`check`]).
//!
//! A pattern Go accepts is also written out in the `regex` crate's syntax with every construct
//! spelled explicitly ([`translate`]), so that the two engines agree where their syntaxes differ:
//! `\d`, `\w`, `\s`, `\b` and the POSIX classes are ASCII in Go, `$` is `\z` without `(?m)`,
//! named groups may repeat a name, and Go rejects `a**`, `\8` or `(?x)` that the `regex` crate
//! accepts. The `crdkit-regexp` crate compiles the translation; this module has no dependency, so
//! the derive checks patterns without building a regex engine.

mod matcher;
mod parse;
mod translate;
mod unicode;

use std::fmt;

pub use parse::check;

/// Go's `regexp/syntax.ErrorCode`: what is wrong with a pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorCode {
    /// Never produced by the parser; kept to mirror Go's table (`regexp/syntax: internal error`).
    InternalError,
    /// `invalid character class` (unused by Go's parser; kept to mirror its table).
    InvalidCharClass,
    /// `[z-a]`, `[[:foo:]]`, `\p{Foo}`: `invalid character class range`.
    InvalidCharRange,
    /// `\8`, `\q`, `\x{}`: `invalid escape sequence`.
    InvalidEscape,
    /// `(?P<a-b>x)`: `invalid named capture`.
    InvalidNamedCapture,
    /// `(?=a)`, `(?i-)`: `invalid or unsupported Perl syntax`.
    InvalidPerlOp,
    /// `a**`, `a{2}{3}`: `invalid nested repetition operator`.
    InvalidRepeatOp,
    /// `a{1001}`, `a{2,1}`, `(a{100}){11}`: `invalid repeat count`.
    InvalidRepeatSize,
    /// Invalid UTF-8 in the pattern: `invalid UTF-8` (unreachable from `&str`).
    InvalidUtf8,
    /// `[a`: `missing closing ]`.
    MissingBracket,
    /// `(a`: `missing closing )`.
    MissingParen,
    /// `*a`, `a|*`: `missing argument to repetition operator`.
    MissingRepeatArgument,
    /// `a\`: `trailing backslash at end of expression`.
    TrailingBackslash,
    /// `a)`: `unexpected )`.
    UnexpectedParen,
    /// 1000 nested groups: `expression nests too deeply`.
    NestingDepth,
    /// A program or class set over Go's limits: `expression too large`.
    Large,
}

impl ErrorCode {
    /// Go's text for the code.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::InternalError => "regexp/syntax: internal error",
            Self::InvalidCharClass => "invalid character class",
            Self::InvalidCharRange => "invalid character class range",
            Self::InvalidEscape => "invalid escape sequence",
            Self::InvalidNamedCapture => "invalid named capture",
            Self::InvalidPerlOp => "invalid or unsupported Perl syntax",
            Self::InvalidRepeatOp => "invalid nested repetition operator",
            Self::InvalidRepeatSize => "invalid repeat count",
            Self::InvalidUtf8 => "invalid UTF-8",
            Self::MissingBracket => "missing closing ]",
            Self::MissingParen => "missing closing )",
            Self::MissingRepeatArgument => "missing argument to repetition operator",
            Self::TrailingBackslash => "trailing backslash at end of expression",
            Self::UnexpectedParen => "unexpected )",
            Self::NestingDepth => "expression nests too deeply",
            Self::Large => "expression too large",
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Go's `*regexp/syntax.Error`: the code and the part of the pattern it is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// What is wrong.
    pub code: ErrorCode,
    /// The offending part of the pattern as Go quotes it (`**` for `a**`, the whole pattern for
    /// `(a`, empty for a trailing backslash).
    pub expr: String,
}

impl Error {
    /// An error of `code` about `expr`.
    #[must_use]
    pub fn new(code: ErrorCode, expr: &str) -> Self {
        Self {
            code,
            expr: expr.to_owned(),
        }
    }
}

/// Go's `Error()`: `error parsing regexp: invalid nested repetition operator: `**``.
impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "error parsing regexp: {}: `{}`", self.code, self.expr)
    }
}

impl std::error::Error for Error {}

/// Nesting Go allows in a parse tree (`maxHeight`).
pub const MAX_HEIGHT: u32 = parse::MAX_HEIGHT;

/// Whether `pattern` (parsed as Go does) matches somewhere in `text`, without a regex engine:
/// `Some` when decided, `None` when deciding needs a Unicode script table or a case folding this
/// crate does not carry (a `\p{Greek}` or `(?i)` test of a character outside ASCII), or when the
/// expanded program would exceed 100,000 instructions. The derive uses it to check a literal
/// `default` against its `pattern` at compile time; run-time matching uses `crdkit-regexp`.
///
/// ```
/// use crdkit_apimachinery::regexp::is_match;
/// assert_eq!(is_match(r"^\d+$", "42"), Ok(Some(true)));
/// assert_eq!(is_match(r"^\d+$", "\u{0661}"), Ok(Some(false))); // Go's \d is ASCII
/// assert_eq!(is_match(r"\p{Greek}", "\u{03B1}"), Ok(None));
/// ```
///
/// # Errors
/// Go's parse error, as [`check`] reports it.
pub fn is_match(pattern: &str, text: &str) -> Result<Option<bool>, Error> {
    let node = parse::parse(pattern)?;
    Ok(matcher::is_match(&node, text))
}

/// A pattern Go accepts, in the `regex` crate's syntax with Go's meaning.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Translation {
    /// The pattern for `regex::Regex::new`.
    pub regex: String,
    /// The height of Go's parse tree (the `regex` crate's compiler recurses once per level).
    pub height: u32,
}

/// Parses `pattern` as Go does and writes it in the `regex` crate's syntax.
///
/// # Errors
/// Go's parse error, as [`check`] reports it.
pub fn translate(pattern: &str) -> Result<Translation, Error> {
    let node = parse::parse(pattern)?;
    Ok(Translation {
        regex: translate::translate(&node),
        height: node.height(),
    })
}
