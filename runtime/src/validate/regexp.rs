//! `pattern` of values, with Go's RE2 semantics ([`compile_go_regexp`]). An invalid pattern fails
//! every value with Go's message (`should match '+, but pattern is invalid: error parsing
//! regexp: missing argument to repetition operator: `+`'`), as kube-openapi does.

use regex::Regex;

pub(crate) use crate::schema::check::regexp::{compile_go_regexp, go_regex};

/// A compiled `pattern`, or the Go error text of an invalid one.
#[derive(Debug, Clone)]
pub(crate) struct Pattern {
    /// The pattern as written (messages quote it).
    pub(crate) source: String,
    pub(crate) compiled: Result<Regex, String>,
}

impl Pattern {
    pub(crate) fn new(source: &str) -> Pattern {
        Pattern {
            source: source.to_owned(),
            compiled: compile_go_regexp(source),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invalid_patterns_keep_their_message() {
        let p = Pattern::new("+");
        assert_eq!(p.source, "+");
        assert_eq!(
            p.compiled.unwrap_err(),
            "error parsing regexp: missing argument to repetition operator: `+`"
        );
        assert!(Pattern::new(r"^\d+$").compiled.unwrap().is_match("12"));
    }
}
