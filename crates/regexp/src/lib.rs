//! Go's `regexp` (RE2 syntax and semantics) on the `regex` crate: what the Kubernetes API server
//! uses for OpenAPI `pattern` and for CEL `matches`, `find` and `findAll`.
//!
//! Patterns are parsed with Go's rules and error messages ([`check`], from
//! `crdkit_apimachinery::regexp`) and compiled from their translation to the `regex` crate's
//! syntax, so that `\d`, `\w`, `\s`, `\b` and the POSIX classes are ASCII as in Go, and Go's
//! `regexp/regexp.go` `FindString`/`FindAllString` semantics hold. Matching is the `regex`
//! crate's, which is leftmost-first like Go's.
//!
//! ```
//! use crdkit_regexp::Regexp;
//!
//! let re = Regexp::new(r"^\d+$").unwrap();
//! assert!(re.is_match("123"));
//! assert!(!re.is_match("١٢٣")); // ARABIC-INDIC digits: Go's `\d` is ASCII
//! assert_eq!(
//!     Regexp::new("a**").unwrap_err().to_string(),
//!     "error parsing regexp: invalid nested repetition operator: `**`"
//! );
//! ```
//!
//! Depends on `crdkit-apimachinery` (the syntax) and the `regex` crate only.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

use std::fmt;

pub use crdkit_apimachinery::regexp::{Error, ErrorCode, check};
use crdkit_apimachinery::regexp::{MAX_HEIGHT, translate};

/// The `regex` crate's compiled-program budget. Go allows programs up to 128 MiB of
/// instructions; the `regex` crate's default (10 MiB) rejects `\pL{1000}`, which Go accepts, so
/// the budget is larger; a pattern over it fails as Go's `expression too large`.
const SIZE_LIMIT: usize = 64 << 20;
/// The `regex` crate's nesting budget: Go allows parse trees 1000 deep, and the translation
/// adds at most a few groups per level.
const NEST_LIMIT: u32 = 4 * MAX_HEIGHT + 16;

/// Parse trees up to this height are compiled on the caller's stack.
const SHALLOW: u32 = 64;
/// The stack for compiling deeper trees: the `regex` crate needs a few KiB per level (more in
/// debug builds), up to Go's 1000 levels.
const DEEP_STACK: usize = 64 << 20;

/// A compiled Go regular expression (`*regexp.Regexp`).
#[derive(Clone, Debug)]
pub struct Regexp {
    re: regex::Regex,
    source: String,
}

impl Regexp {
    /// Go's `regexp.Compile`: the pattern's syntax is Go's (RE2 with Perl extensions), and so are
    /// its error messages.
    ///
    /// # Errors
    /// Go's parse error, or `expression too large` over the `regex` crate's budget.
    pub fn new(pattern: &str) -> Result<Self, Error> {
        let translation = translate(pattern)?;
        let translated = translation.regex;
        let build = move || {
            regex::RegexBuilder::new(&translated)
                .size_limit(SIZE_LIMIT)
                .nest_limit(NEST_LIMIT)
                .build()
        };
        let built = if translation.height <= SHALLOW {
            build()
        } else {
            // The `regex` crate's compiler recurses once per nesting level: a deep pattern (Go
            // allows 1000 levels) gets a thread with room for it, whatever the caller's stack.
            std::thread::scope(|scope| {
                std::thread::Builder::new()
                    .stack_size(DEEP_STACK)
                    .spawn_scoped(scope, build)
                    .ok()
                    .and_then(|thread| thread.join().ok())
            })
            .ok_or_else(|| Error::new(ErrorCode::InternalError, pattern))?
        };
        let re = built.map_err(|e| {
            // Only the budgets above refuse a translated pattern: over them, the closest of
            // Go's codes.
            let code = match e {
                regex::Error::CompiledTooBig(_) => ErrorCode::Large,
                regex::Error::Syntax(msg) if msg.contains("nested parentheses") => {
                    ErrorCode::NestingDepth
                }
                _ => ErrorCode::InternalError,
            };
            Error::new(code, pattern)
        })?;
        Ok(Self {
            re,
            source: pattern.to_owned(),
        })
    }

    /// The source pattern (Go's `String()`).
    pub fn as_str(&self) -> &str {
        &self.source
    }

    /// The underlying `regex` crate program. Its capture groups are numbered as Go numbers them
    /// (names are not kept: Go allows a name twice).
    pub fn as_regex(&self) -> &regex::Regex {
        &self.re
    }

    /// Go's `MatchString`: whether `s` contains a match.
    pub fn is_match(&self, s: &str) -> bool {
        self.re.is_match(s)
    }

    /// Go's `FindString`, as a match: the leftmost-first match.
    pub fn find<'s>(&self, s: &'s str) -> Option<regex::Match<'s>> {
        self.re.find(s)
    }

    /// Go's `FindAllString(s, n)` as matches: successive non-overlapping matches, at most `n` of
    /// them (all when `n < 0`, none when `n == 0`). As in Go, an empty match right where the
    /// previous match ended is skipped.
    pub fn find_all<'s>(&self, s: &'s str, n: i64) -> Vec<regex::Match<'s>> {
        // Go's `allMatches` (regexp.go): n < 0 means len(s)+1, more than there can be.
        let limit = usize::try_from(n).unwrap_or(s.len() + 1);
        let mut out = Vec::new();
        let mut pos = 0;
        let mut prev_end = None;
        while out.len() < limit && pos <= s.len() {
            let Some(m) = self.re.find_at(s, pos) else {
                break;
            };
            let mut accept = true;
            if m.end() == pos {
                // An empty match here: not right after the previous match, and the search
                // resumes at the next character.
                if prev_end == Some(m.start()) {
                    accept = false;
                }
                pos += s[pos..].chars().next().map_or(1, char::len_utf8);
            } else {
                pos = m.end();
            }
            prev_end = Some(m.end());
            if accept {
                out.push(m);
            }
        }
        out
    }
}

impl fmt::Display for Regexp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.source)
    }
}
