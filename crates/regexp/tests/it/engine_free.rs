//! The derive's engine-free matcher (`crdkit_apimachinery::regexp::is_match`, a Pike VM over
//! Go's parse tree) against this crate's `regex`-based one: wherever the matcher decides, it
//! decides the same, on Go's `find_test.go` table, the cases where Go and the `regex` crate
//! differ, and random patterns of Go syntax on texts that mix ASCII, folding pairs, scripts and
//! categories.

use crdkit_apimachinery::regexp::is_match;
use crdkit_regexp::Regexp;

use crate::find_tables::FIND_TESTS;
use crate::semantics::MATCHES;
use crate::soup::PIECES;

/// Compares the two on one pair; returns whether the matcher decided.
fn agree(pattern: &str, text: &str) -> bool {
    let re = Regexp::new(pattern).unwrap_or_else(|e| panic!("{pattern:?}: {e}"));
    match is_match(pattern, text) {
        Ok(Some(m)) => {
            assert_eq!(m, re.is_match(text), "{pattern:?} on {text:?}");
            true
        }
        Ok(None) => false,
        Err(e) => panic!("{pattern:?}: the matcher's parse failed: {e}"),
    }
}

#[test]
fn go_find_table() {
    for &(pattern, text, _, _) in FIND_TESTS {
        // No case of Go's table needs a script or a non-ASCII fold.
        assert!(agree(pattern, text), "{pattern:?} on {text:?} undecided");
    }
}

#[test]
fn where_go_and_the_regex_crate_differ() {
    let mut undecided = Vec::new();
    for &(pattern, text, _) in MATCHES {
        if !agree(pattern, text) {
            undecided.push((pattern, text));
        }
    }
    // Only a script test of letters outside ASCII stays open (the folds of `σ` and `ǅ` are
    // decided by the letters that match themselves).
    assert_eq!(undecided, [(r"\p{Greek}+", "abγδε")]);
}

#[test]
fn decided_cases() {
    let cases = [
        (
            r"^(\d+|\*)(/\d+)?(\s+(\d+|\*)(/\d+)?){4}$",
            "5 0 * * *",
            Some(true),
        ),
        (
            r"^(\d+|\*)(/\d+)?(\s+(\d+|\*)(/\d+)?){4}$",
            "5 0 * *",
            Some(false),
        ),
        (r"^[a-z]+$", "ABC", Some(false)),
        (r"^\d$", "\u{661}", Some(false)),
        (r"(?i)^k$", "\u{212A}", Some(true)),
        (r"(?i)^[^k]$", "\u{212A}", Some(false)),
        (r"^\pL+$", "héllo", Some(true)),
        (r"^\p{Nd}$", "\u{661}", Some(true)),
        (r"^\p{Greek}$", "a", Some(false)),
        (r"^\p{Greek}$", "\u{3B1}", None),
        (r"^\p{Latin}+$", "abc", Some(true)),
        (r"(?i)é", "É", None),
        (r"(a*)*$", "b", Some(true)),
        (r"x{1000}", "x", Some(false)),
    ];
    for (pattern, text, want) in cases {
        assert_eq!(is_match(pattern, text), Ok(want), "{pattern:?} on {text:?}");
    }
    // A program past the matcher's limit is left undecided, not run.
    let large = vec!["a{1000}"; 101].join("|");
    assert!(Regexp::new(&large).is_ok());
    assert_eq!(is_match(&large, "a"), Ok(None));
    assert!(is_match("a(b", "ab").is_err());
}

#[test]
fn random_patterns() {
    // xorshift64*, as in `soup`.
    let mut state: u64 = 0x2545_F491_4F6C_DD1D;
    let mut next = |n: usize| {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        (state.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    };
    const TEXTS: &[&str] = &[
        "",
        "a",
        "ab\n K\u{212a}ſé0 .]-",
        "bbb aaa",
        "\u{3B1}\u{661}_Z",
        "k\nS",
    ];
    let (mut valid, mut decided) = (0, 0);
    for _ in 0..4000 {
        let len = 1 + next(8);
        let pattern: String = (0..len).map(|_| PIECES[next(PIECES.len())]).collect();
        if Regexp::new(&pattern).is_err() {
            assert!(is_match(&pattern, "").is_err(), "{pattern:?}");
            continue;
        }
        valid += 1;
        for text in TEXTS {
            if agree(&pattern, text) {
                decided += 1;
            }
        }
    }
    assert!(valid > 300, "{valid} valid patterns");
    // Most pairs are decided.
    assert!(
        decided * 10 > valid * TEXTS.len() * 9,
        "{decided} of {}",
        valid * TEXTS.len()
    );
}
