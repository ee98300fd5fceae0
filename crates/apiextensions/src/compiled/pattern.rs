//! `pattern` of values, with Go's RE2 semantics ([`crdkit_regexp`]). An invalid pattern fails
//! every value with Go's message (`should match '+, but pattern is invalid: error parsing
//! regexp: missing argument to repetition operator: `+`'`), as kube-openapi does.

use crdkit_regexp::Regexp;

/// A compiled `pattern`, or the Go error text of an invalid one.
#[derive(Debug, Clone)]
pub(crate) struct Pattern {
    /// The pattern as written (messages quote it).
    pub(crate) source: String,
    pub(crate) compiled: Result<Regexp, String>,
}

impl Pattern {
    pub(crate) fn new(source: &str) -> Pattern {
        Pattern {
            source: source.to_owned(),
            compiled: Regexp::new(source).map_err(|e| e.to_string()),
        }
    }
}

/// Compiles one of the formats' fixed Go regular expressions.
pub(crate) fn go_regex(source: &str) -> Regexp {
    match Regexp::new(source) {
        Ok(re) => re,
        Err(e) => unreachable!("a fixed format pattern does not compile: {e}"),
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
        assert!(!Pattern::new(r"^\d+$").compiled.unwrap().is_match("١"));
    }
}
