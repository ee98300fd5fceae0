//! Go's error messages: `regexp/all_test.go` (`goodRe`, `badRe`), the codes' texts, and the cases
//! of the earlier checkers (`schema/check/regexp.rs`, `cel/lib/re2_syntax.rs`).

use crdkit_regexp::{Error, ErrorCode, Regexp, check};

/// What `regexp.Compile` says: "ok" or the error text.
fn go_error(pattern: &str) -> String {
    let checked = check(pattern);
    let compiled = Regexp::new(pattern).map(drop);
    assert_eq!(
        checked, compiled,
        "check and compile disagree on {pattern:?}"
    );
    checked.map_or_else(|e| e.to_string(), |()| "ok".into())
}

/// `goodRe`.
const GOOD_RE: &[&str] = &[
    r"",
    r".",
    r"^.$",
    r"a",
    r"a*",
    r"a+",
    r"a?",
    r"a|b",
    r"a*|b*",
    r"(a*|b)(c*|d)",
    r"[a-z]",
    r"[a-abc-c\-\]\[]",
    r"[a-z]+",
    r"[abc]",
    r"[^1234]",
    r"[^\n]",
    r"\!\\",
];

/// `badRe`: Go checks that the error contains the text; the full message is checked here.
const BAD_RE: &[(&str, &str)] = &[
    (r"*", "missing argument to repetition operator: `*`"),
    (r"+", "missing argument to repetition operator: `+`"),
    (r"?", "missing argument to repetition operator: `?`"),
    (r"(abc", "missing closing ): `(abc`"),
    (r"abc)", "unexpected ): `abc)`"),
    (r"x[a-z", "missing closing ]: `[a-z`"),
    (r"[z-a]", "invalid character class range: `z-a`"),
    (r"abc\", "trailing backslash at end of expression: ``"),
    (r"a**", "invalid nested repetition operator: `**`"),
    (r"a*+", "invalid nested repetition operator: `*+`"),
    (r"\x", "invalid escape sequence: `\\x`"),
];

#[test]
fn good_and_bad_re() {
    for pattern in GOOD_RE {
        assert_eq!(go_error(pattern), "ok", "{pattern}");
    }
    for (pattern, want) in BAD_RE {
        assert_eq!(go_error(pattern), format!("error parsing regexp: {want}"));
    }
    // The last `badRe` entry: 27000 `\pL` are over Go's rune budget.
    let many = r"\pL".repeat(27000);
    assert_eq!(
        go_error(&many),
        format!("error parsing regexp: expression too large: `{many}`")
    );
}

#[test]
fn error_code_texts() {
    use ErrorCode::*;
    for (code, text) in [
        (InternalError, "regexp/syntax: internal error"),
        (InvalidCharClass, "invalid character class"),
        (InvalidCharRange, "invalid character class range"),
        (InvalidEscape, "invalid escape sequence"),
        (InvalidNamedCapture, "invalid named capture"),
        (InvalidPerlOp, "invalid or unsupported Perl syntax"),
        (InvalidRepeatOp, "invalid nested repetition operator"),
        (InvalidRepeatSize, "invalid repeat count"),
        (InvalidUtf8, "invalid UTF-8"),
        (MissingBracket, "missing closing ]"),
        (MissingParen, "missing closing )"),
        (
            MissingRepeatArgument,
            "missing argument to repetition operator",
        ),
        (TrailingBackslash, "trailing backslash at end of expression"),
        (UnexpectedParen, "unexpected )"),
        (NestingDepth, "expression nests too deeply"),
        (Large, "expression too large"),
    ] {
        assert_eq!(code.to_string(), text);
        let err = Error::new(code, "x");
        assert_eq!(
            err.to_string(),
            format!("error parsing regexp: {text}: `x`")
        );
    }
    let err: Box<dyn std::error::Error> = Box::new(check("a**").unwrap_err());
    assert_eq!(
        err.to_string(),
        "error parsing regexp: invalid nested repetition operator: `**`"
    );
}

/// Valid in Go, though the `regex` crate rejects or reads some of them differently.
const VALID: &[&str] = &[
    "",
    "a",
    "^[a-z-]+$",
    "^[a-z]+(-[a-z]+)*$",
    "[0-9]+",
    "a*?",
    "a{2}?",
    "(a|b)*c",
    "(?i)abc",
    "(?i:a)b",
    "(?P<n>x)",
    "(?<n>x)",
    // Go allows a group name twice and names starting with a digit.
    "(?P<n>x)(?P<n>y)",
    "(?P<1>x)",
    "[]a]",
    "[^]a]",
    "[a-]",
    "[[:alpha:][:^digit:]]",
    "\\pL\\p{Greek}\\P{^Lu}",
    "\\pN\\pZ\\p{L}\\p{Nd}\\p{Han}\\p{Latin}",
    "\\d\\S\\w",
    "\\Q+*\\E+",
    "\\x41\\x{10FFFF}\\012\\0",
    "\\377\\1234",
    "a{,3}",
    "a{01}",
    "x{",
    "x{}",
    "x{a}",
    "^*",
    "$+",
    "\\b*",
    "a(?i)*",
    "a*(?i)*",
    "a*\\Q\\E*",
    "(a{10}){100}",
    "(?:a{1000}){1}",
    "\\.\\-\\_\\ \\`\\~",
    // Escaped punctuation is literal (`\<` is a word start in the `regex` crate).
    "\\<\\>",
    "()",
    "a||b",
    "|",
    "(|)",
    "[[]",
    "[a&&b]",
    "[a~~b]",
    "(?s).(?m)^$(?U)a*(?-U)a*",
    "(?i-s:a)",
    "(?imsU)a",
    "\\A\\z",
    "[\\d-z]",
    "[\\x{D800}-\\x{DFFF}a]",
    "\\x{D800}|a",
];

#[test]
fn valid_patterns() {
    for pattern in VALID {
        assert_eq!(go_error(pattern), "ok", "{pattern}");
    }
}

/// Invalid in Go, with its message (after `error parsing regexp: `).
const INVALID: &[(&str, &str)] = &[
    ("x++", "invalid nested repetition operator: `++`"),
    ("x**", "invalid nested repetition operator: `**`"),
    ("x*?+?", "invalid nested repetition operator: `*?+?`"),
    ("x{2}{3}", "invalid nested repetition operator: `{2}{3}`"),
    ("x{2}*", "invalid nested repetition operator: `{2}*`"),
    ("x?*", "invalid nested repetition operator: `?*`"),
    ("x{2}{1001}", "invalid repeat count: `{1001}`"),
    ("*", "missing argument to repetition operator: `*`"),
    ("*a", "missing argument to repetition operator: `*`"),
    ("a|*", "missing argument to repetition operator: `*`"),
    ("(+a)", "missing argument to repetition operator: `+`"),
    ("(?i)*?", "missing argument to repetition operator: `*?`"),
    ("{2}", "missing argument to repetition operator: `{2}`"),
    ("\\Q\\E*", "missing argument to repetition operator: `*`"),
    ("x{1001}", "invalid repeat count: `{1001}`"),
    ("x{2,1}", "invalid repeat count: `{2,1}`"),
    ("x{1000000000}", "invalid repeat count: `{1000000000}`"),
    ("x{1,1000000000}", "invalid repeat count: `{1,1000000000}`"),
    ("(a{100}){11}", "invalid repeat count: `{11}`"),
    ("(a{100}){11}?", "invalid repeat count: `{11}?`"),
    ("(?:[a-z]{4}){0,251}", "invalid repeat count: `{0,251}`"),
    (")", "unexpected ): `)`"),
    ("a)", "unexpected ): `a)`"),
    ("a)b", "unexpected ): `a)b`"),
    ("(a))", "unexpected ): `(a))`"),
    ("(a", "missing closing ): `(a`"),
    ("(abc", "missing closing ): `(abc`"),
    ("((a)", "missing closing ): `((a)`"),
    ("[a", "missing closing ]: `[a`"),
    ("[a-", "missing closing ]: `[a-`"),
    ("x[^", "missing closing ]: `[^`"),
    ("[]", "missing closing ]: `[]`"),
    ("[[:alpha:]", "missing closing ]: `[[:alpha:]`"),
    ("a\\", "trailing backslash at end of expression: ``"),
    ("[a\\", "trailing backslash at end of expression: ``"),
    ("\\8", "invalid escape sequence: `\\8`"),
    ("\\1", "invalid escape sequence: `\\1`"),
    ("a\\7", "invalid escape sequence: `\\7`"),
    ("\\q", "invalid escape sequence: `\\q`"),
    ("\\Z", "invalid escape sequence: `\\Z`"),
    ("\\C", "invalid escape sequence: `\\C`"),
    ("\\é", "invalid escape sequence: `\\é`"),
    ("\\xZZ", "invalid escape sequence: `\\xZZ`"),
    ("\\x4", "invalid escape sequence: `\\x4`"),
    ("\\x{}", "invalid escape sequence: `\\x{}`"),
    ("\\x{41", "invalid escape sequence: `\\x{41`"),
    ("\\x{4g}", "invalid escape sequence: `\\x{4g`"),
    ("\\x{110000}", "invalid escape sequence: `\\x{110000`"),
    ("[\\b]", "invalid escape sequence: `\\b`"),
    ("[\\Q]", "invalid escape sequence: `\\Q`"),
    ("\\cA", "invalid escape sequence: `\\c`"),
    ("\\e", "invalid escape sequence: `\\e`"),
    ("\\u0041", "invalid escape sequence: `\\u`"),
    ("[z-a]", "invalid character class range: `z-a`"),
    ("[a-\\d]", "invalid escape sequence: `\\d`"),
    ("[a--b]", "invalid character class range: `a--`"),
    ("[[:foo:]]", "invalid character class range: `[:foo:]`"),
    ("[[:^foo:]]", "invalid character class range: `[:^foo:]`"),
    ("\\p{Foo}", "invalid character class range: `\\p{Foo}`"),
    ("\\p{Greek", "invalid character class range: `\\p{Greek`"),
    ("\\p", "invalid character class range: `\\p`"),
    ("\\p{", "invalid character class range: `\\p{`"),
    ("\\p{}", "invalid character class range: `\\p{}`"),
    ("\\p{^}", "invalid character class range: `\\p{^}`"),
    ("\\pé", "invalid character class range: `\\pé`"),
    // Properties the `regex` crate knows but Go does not.
    (
        "\\p{Alphabetic}",
        "invalid character class range: `\\p{Alphabetic}`",
    ),
    (
        "\\p{sc=Greek}",
        "invalid character class range: `\\p{sc=Greek}`",
    ),
    (
        "\\p{Greek_And_Coptic}",
        "invalid character class range: `\\p{Greek_And_Coptic}`",
    ),
    ("\\p{Emoji}", "invalid character class range: `\\p{Emoji}`"),
    ("\\p{cntrl}", "invalid character class range: `\\p{cntrl}`"),
    ("[\\p{Foo}]", "invalid character class range: `\\p{Foo}`"),
    ("(?=a)", "invalid or unsupported Perl syntax: `(?=`"),
    ("(?!a)", "invalid or unsupported Perl syntax: `(?!`"),
    ("(?x)a", "invalid or unsupported Perl syntax: `(?x`"),
    ("(?i-)", "invalid or unsupported Perl syntax: `(?i-)`"),
    ("(?-)", "invalid or unsupported Perl syntax: `(?-)`"),
    ("(?i--s)", "invalid or unsupported Perl syntax: `(?i--`"),
    ("(?P=n)", "invalid or unsupported Perl syntax: `(?P`"),
    ("(?", "invalid or unsupported Perl syntax: `(?`"),
    ("(?i", "invalid or unsupported Perl syntax: `(?i`"),
    ("(?'n'a)", "invalid or unsupported Perl syntax: `(?'`"),
    ("(?P<>a)", "invalid named capture: `(?P<>`"),
    ("(?P<a-b>c)", "invalid named capture: `(?P<a-b>`"),
    ("(?P<é>c)", "invalid named capture: `(?P<é>`"),
    ("(?<=a)b", "invalid named capture: `(?<=a)b`"),
    ("(?<!a>b)", "invalid named capture: `(?<!a>`"),
    ("(?P<name", "invalid named capture: `(?P<name`"),
];

#[test]
fn invalid_patterns() {
    for (pattern, want) in INVALID {
        let want = if *want == "ok" {
            "ok".to_owned()
        } else {
            format!("error parsing regexp: {want}")
        };
        assert_eq!(go_error(pattern), want, "{pattern}");
    }
}

/// `error parsing regexp: ` quotes which part of the pattern.
#[test]
fn error_fields() {
    let err = check("ab(c").unwrap_err();
    assert_eq!(err.code, ErrorCode::MissingParen);
    assert_eq!(err.expr, "ab(c");
    let err = check("ab[c").unwrap_err();
    assert_eq!(
        (err.code, err.expr.as_str()),
        (ErrorCode::MissingBracket, "[c")
    );
    let err = check("a{2}{3}").unwrap_err();
    assert_eq!(
        (err.code, err.expr.as_str()),
        (ErrorCode::InvalidRepeatOp, "{2}{3}")
    );
}
