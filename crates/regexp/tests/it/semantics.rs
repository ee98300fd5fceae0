//! Where Go's `regexp` and the `regex` crate differ: ASCII `\d \w \s \b`, POSIX classes, case
//! folding, anchors, greediness flags, and `FindAllString`'s rule on empty matches. The expected
//! matches are Go's `regexp.FindAllStringIndex(s, -1)`.

use crdkit_regexp::{ErrorCode, Regexp, check};

/// Pattern, text, Go's matches.
pub(crate) type Case = (&'static str, &'static str, &'static [(usize, usize)]);

pub(crate) const MATCHES: &[Case] = &[
    ("^\\d$", "1", &[(0, 1)]),
    ("^\\d$", "١", &[]),
    ("^\\d$", "٣", &[]),
    ("^\\d$", "x", &[]),
    ("\\w+", "héllo wörld_1", &[(0, 1), (3, 6), (7, 8), (10, 15)]),
    ("\\w+", "ÀB", &[(2, 3)]),
    ("\\s+", "a\u{9}\u{a}\u{c}\u{d} b", &[(1, 6)]),
    ("\\s+", "a\u{b}b", &[]),
    ("\\s+", "a\u{a0}b", &[]),
    ("\\s+", "a\u{2003}b", &[]),
    ("[[:space:]]+", "a\u{b}b", &[(1, 2)]),
    ("[[:space:]]+", "a\u{a0}b", &[]),
    ("\\bé", "é", &[]),
    ("\\bé", "aé", &[(1, 3)]),
    ("\\bé", " é", &[]),
    ("a\\b", "aé", &[(0, 1)]),
    ("a\\b", "a-", &[(0, 1)]),
    ("a\\b", "ab", &[]),
    ("\\B", "é", &[(0, 0), (2, 2)]),
    ("\\B", "aé", &[(3, 3)]),
    ("(?i)k", "k", &[(0, 1)]),
    ("(?i)k", "K", &[(0, 1)]),
    ("(?i)k", "\u{212a}", &[(0, 3)]),
    ("(?i)s+", "sS\u{17f}", &[(0, 4)]),
    ("(?i)\\w+", "\u{212a}\u{17f}", &[(0, 5)]),
    ("(?i)[^k]", "\u{212a}", &[]),
    ("(?i)[^k]", "K", &[]),
    ("(?i)[^k]", "x", &[(0, 1)]),
    ("(?i)[[:^alpha:]]", "\u{212a}", &[]),
    ("(?i)[[:^alpha:]]", "\u{17f}", &[]),
    ("(?i)[[:^alpha:]]", "1", &[(0, 1)]),
    ("(?i)σ+", "ΣσςΔ", &[(0, 6)]),
    ("(?i)ǅ+", "ǄǅǆDž", &[(0, 6)]),
    ("[^\\d]+", "ab12cd", &[(0, 2), (4, 6)]),
    ("[\\D]+", "ab12cd", &[(0, 2), (4, 6)]),
    ("[^\\D]+", "ab12cd", &[(2, 4)]),
    ("[^\\D]+", "١٢", &[]),
    ("[\\W\\d]+", "a1-b", &[(1, 3)]),
    ("[[:alpha:]]+", "abcé", &[(0, 3)]),
    ("[[:^alpha:]]+", "abé1c", &[(2, 5)]),
    ("[[:word:][:punct:]]+", "a_b!c é", &[(0, 5)]),
    ("a$", "a\u{a}", &[]),
    ("a$", "a", &[(0, 1)]),
    ("(?m)a$", "a\u{a}b", &[(0, 1)]),
    ("(?m)a$", "a", &[(0, 1)]),
    ("^b", "a\u{a}b", &[]),
    ("(?m)^b", "a\u{a}b", &[(2, 3)]),
    ("\\Aa|b\\z", "aab\u{a}b", &[(0, 1), (4, 5)]),
    (".", "\u{a}", &[]),
    ("(?s).", "\u{a}", &[(0, 1)]),
    ("(?U)a+", "aaa", &[(0, 1), (1, 2), (2, 3)]),
    ("(?U)a+?", "aaa", &[(0, 3)]),
    ("a+?", "aaa", &[(0, 1), (1, 2), (2, 3)]),
    ("\\Q.*\\E+", ".**", &[(0, 3)]),
    ("[]a]+", "]a]", &[(0, 3)]),
    ("[^]a]+", "]ab", &[(2, 3)]),
    ("\\101\\x42\\x{43}", "ABC", &[(0, 3)]),
    ("x{,3}", "x{,3}", &[(0, 5)]),
    ("x{,3}", "xxx", &[]),
    ("(?P<n>a)(?P<n>b)", "ab", &[(0, 2)]),
    ("\\p{Greek}+", "abγδε", &[(2, 8)]),
    ("\\pN+", "a١2Ⅳ", &[(1, 7)]),
    ("\\PL+", "ab12cd", &[(2, 4)]),
    ("[\\p{Lu}\\d]+", "aBC1d", &[(1, 4)]),
    ("(?i)\\p{Lu}+", "aBcD1", &[(0, 4)]),
    ("(?i)\\P{Lu}+", "aBcD1", &[(4, 5)]),
    ("a|b|", "abc", &[(0, 1), (1, 2), (3, 3)]),
    ("|a", "abc", &[(0, 0), (1, 1), (2, 2), (3, 3)]),
    ("a*", "baaab", &[(0, 0), (1, 4), (5, 5)]),
    ("a*", "aaa", &[(0, 3)]),
    (
        "a*?",
        "baaab",
        &[(0, 0), (1, 1), (2, 2), (3, 3), (4, 4), (5, 5)],
    ),
    ("(a|ab)(c|bcd)", "abcd", &[(0, 4)]),
    ("x*", "éxé", &[(0, 0), (2, 3), (5, 5)]),
    ("\\b|x", "x x", &[(0, 0), (1, 1), (2, 2), (3, 3)]),
    ("$|a", "aa", &[(0, 1), (1, 2)]),
    ("[^a]", "\u{a}", &[(0, 1)]),
    ("\\S+", "a\u{b}b", &[(0, 3)]),
    ("[\\s\\S]", "\u{b}", &[(0, 1)]),
    ("(?i)[k-k]", "\u{212a}", &[(0, 3)]),
    ("(?i)\\x{212A}", "k", &[(0, 1)]),
    ("(?i)\\x{212A}", "K", &[(0, 1)]),
    ("[a-c-e]+", "abc-e d", &[(0, 5)]),
    ("[\\-]+", "--", &[(0, 2)]),
];

#[test]
fn matches_like_go() {
    for &(pattern, text, want) in MATCHES {
        let re = Regexp::new(pattern).unwrap_or_else(|e| panic!("{pattern}: {e}"));
        let got: Vec<(usize, usize)> = re
            .find_all(text, -1)
            .iter()
            .map(|m| (m.start(), m.end()))
            .collect();
        assert_eq!(got, want, "{pattern:?} in {text:?}");
        assert_eq!(
            re.find(text).map(|m| (m.start(), m.end())),
            want.first().copied(),
            "{pattern:?} in {text:?}"
        );
        assert_eq!(
            re.is_match(text),
            !want.is_empty(),
            "{pattern:?} in {text:?}"
        );
    }
}

#[test]
fn earlier_checker_cases() {
    // `schema/check/regexp.rs`: ASCII classes, and `]` first in a class.
    let re = Regexp::new(r"^[\w-]+$").unwrap();
    assert!(re.is_match("a_b-c"));
    assert!(!re.is_match("é"));
    let re = Regexp::new(r"^a\sb$").unwrap();
    assert!(!re.is_match("a\u{a0}b"));
    assert!(!re.is_match("a\u{b}b"));
    assert!(Regexp::new(r"^[]a]+$").unwrap().is_match("]a"));
    assert!(Regexp::new(r"^\d+$").unwrap().is_match("123"));
    assert!(!Regexp::new(r"^\d+$").unwrap().is_match("١٢٣"));
}

#[test]
fn arabic_indic_digit_is_not_d() {
    // CEL `"١".matches("^\\d$")` is false on the API server.
    let re = Regexp::new(r"^\d$").unwrap();
    assert!(!re.is_match("١"));
    assert!(re.is_match("1"));
}

#[test]
fn find_all_counts() {
    let re = Regexp::new("a.").unwrap();
    let all = |n| -> Vec<&str> {
        re.find_all("a1a2a3", n)
            .iter()
            .map(|m| m.as_str())
            .collect()
    };
    assert_eq!(all(-1), ["a1", "a2", "a3"]);
    assert_eq!(all(-7), ["a1", "a2", "a3"]);
    assert_eq!(all(0), Vec::<&str>::new());
    assert_eq!(all(2), ["a1", "a2"]);
    assert_eq!(all(5), ["a1", "a2", "a3"]);
    // Empty matches: one per position, none right after a match.
    let re = Regexp::new("b*").unwrap();
    let got: Vec<&str> = re.find_all("abbc", -1).iter().map(|m| m.as_str()).collect();
    assert_eq!(got, ["", "bb", ""]);
    assert_eq!(
        re.find_all("", 1)
            .iter()
            .map(|m| (m.start(), m.end()))
            .collect::<Vec<_>>(),
        [(0, 0)]
    );
}

#[test]
fn api() {
    let re = Regexp::new(r"(?i)k(\d)").unwrap();
    assert_eq!(re.as_str(), r"(?i)k(\d)");
    assert_eq!(re.to_string(), r"(?i)k(\d)");
    let caps = re.as_regex().captures("x\u{212a}7").unwrap();
    assert_eq!(caps.get(1).map(|m| m.as_str()), Some("7"));
    assert_eq!(re.find("x\u{212a}7").map(|m| m.as_str()), Some("\u{212a}7"));
}

#[test]
fn surrogates_match_nothing() {
    // Go runes that no `&str` holds: valid, never matched.
    for pattern in [
        r"\x{D800}",
        r"[\x{D800}-\x{DFFF}]",
        r"\p{Cs}",
        r"(?i)[\x{D800}]",
    ] {
        let re = Regexp::new(pattern).unwrap();
        assert!(!re.is_match("a\u{FFFD}\u{D7FF}\u{E000}"), "{pattern}");
    }
    let re = Regexp::new(r"^[\x{D7FF}-\x{E000}]$").unwrap();
    assert!(re.is_match("\u{D7FF}") && re.is_match("\u{E000}"));
    assert!(!re.is_match("\u{FFFD}"));
    let re = Regexp::new(r"^\P{Cs}$").unwrap();
    assert!(re.is_match("a"));
}

#[test]
fn unicode_names_match_loosely() {
    // Go 1.25: case, `_`, `-` and spaces aside; category aliases; Any, Assigned, ASCII.
    for pattern in [
        r"^\p{Lu}$",
        r"^\p{lu}$",
        r"^\p{Uppercase_Letter}$",
        r"^\p{upper case-let ter}$",
        r"^\p{LC}$",
        r"^\p{Cased_Letter}$",
        r"^\p{Latin}$",
        r"^\p{latin}$",
        r"^\p{Any}$",
        r"^\p{Assigned}$",
        r"^\p{ascii}$",
        r"^\PN$",
        r"^\pL$",
        r"^\pl$",
    ] {
        assert!(Regexp::new(pattern).unwrap().is_match("A"), "{pattern}");
    }
    assert!(Regexp::new(r"^\p{Greek}$").unwrap().is_match("λ"));
    assert!(
        Regexp::new(r"^\p{Old_Italic}$")
            .unwrap()
            .is_match("\u{10300}")
    );
    assert!(!Regexp::new(r"\p{Assigned}").unwrap().is_match("\u{378}"));
    assert!(Regexp::new(r"\p{Cn}").unwrap().is_match("\u{378}"));
    // Scripts newer than Go's Unicode 15.0.0 tables are unknown to Go.
    assert_eq!(
        check(r"\p{Garay}").unwrap_err().code,
        ErrorCode::InvalidCharRange
    );
}

#[test]
fn deep_patterns_compile_on_a_small_stack() {
    // Go's deepest valid trees; the caller's thread has the usual 2 MiB.
    let deep = [
        format!("{}a{}", "(".repeat(999), ")".repeat(999)),
        format!("{}a{}", "(?:".repeat(999), ")*".repeat(999)),
        format!("{}a{}", "(?:a|".repeat(500), ")".repeat(500)),
    ];
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || {
            for pattern in &deep {
                let re = Regexp::new(pattern).unwrap();
                assert!(re.is_match("a"));
            }
        })
        .unwrap()
        .join()
        .unwrap();
}
