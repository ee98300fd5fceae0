//! Go `regexp/find_test.go` `findTests`: pattern, text, and the expected matches as Go's
//! `build(n, ...)` lists them (per match: the whole match, then each group; -1 for an unset
//! group). Each case is checked with `find` (the first match), `find_all` (all, and the first
//! n for every n) and the group positions. The six cases whose text is invalid UTF-8 (`"\xff"`,
//! `"\xc2\x00"`), which no `&str` holds, are left out.

use crdkit_regexp::Regexp;

pub(crate) type FindTest = (&'static str, &'static str, usize, &'static [i64]);

pub(crate) const FIND_TESTS: &[FindTest] = &[
    (r#""#, r#""#, 1, &[0, 0]),
    (r#"^abcdefg"#, "abcdefg", 1, &[0, 7]),
    (r#"a+"#, "baaab", 1, &[1, 4]),
    ("abcd..", "abcdef", 1, &[0, 6]),
    (r#"a"#, "a", 1, &[0, 1]),
    (r#"x"#, "y", 0, &[]),
    (r#"b"#, "abc", 1, &[1, 2]),
    (r#"."#, "a", 1, &[0, 1]),
    (r#".*"#, "abcdef", 1, &[0, 6]),
    (r#"^"#, "abcde", 1, &[0, 0]),
    (r#"$"#, "abcde", 1, &[5, 5]),
    (r#"^abcd$"#, "abcd", 1, &[0, 4]),
    (r#"^bcd'"#, "abcdef", 0, &[]),
    (r#"^abcd$"#, "abcde", 0, &[]),
    (r#"a+"#, "baaab", 1, &[1, 4]),
    (r#"a*"#, "baaab", 3, &[0, 0, 1, 4, 5, 5]),
    (r#"[a-z]+"#, "abcd", 1, &[0, 4]),
    (r#"[^a-z]+"#, "ab1234cd", 1, &[2, 6]),
    (r#"[a\-\]z]+"#, "az]-bcz", 2, &[0, 4, 6, 7]),
    (r#"[^\n]+"#, "abcd\n", 1, &[0, 4]),
    (r#"[日本語]+"#, "日本語日本語", 1, &[0, 18]),
    (r#"日本語+"#, "日本語", 1, &[0, 9]),
    (r#"日本語+"#, "日本語語語語", 1, &[0, 18]),
    (r#"()"#, "", 1, &[0, 0, 0, 0]),
    (r#"(a)"#, "a", 1, &[0, 1, 0, 1]),
    (r#"(.)(.)"#, "日a", 1, &[0, 4, 0, 3, 3, 4]),
    (r#"(.*)"#, "", 1, &[0, 0, 0, 0]),
    (r#"(.*)"#, "abcd", 1, &[0, 4, 0, 4]),
    (r#"(..)(..)"#, "abcd", 1, &[0, 4, 0, 2, 2, 4]),
    (r#"(([^xyz]*)(d))"#, "abcd", 1, &[0, 4, 0, 4, 0, 3, 3, 4]),
    (r#"((a|b|c)*(d))"#, "abcd", 1, &[0, 4, 0, 4, 2, 3, 3, 4]),
    (
        r#"(((a|b|c)*)(d))"#,
        "abcd",
        1,
        &[0, 4, 0, 4, 0, 3, 2, 3, 3, 4],
    ),
    (r#"\a\f\n\r\t\v"#, "\x07\x0c\n\r\t\x0b", 1, &[0, 6]),
    (r#"[\a\f\n\r\t\v]+"#, "\x07\x0c\n\r\t\x0b", 1, &[0, 6]),
    (r#"a*(|(b))c*"#, "aacc", 1, &[0, 4, 2, 2, -1, -1]),
    (r#"(.*).*"#, "ab", 1, &[0, 2, 0, 2]),
    (r#"[.]"#, ".", 1, &[0, 1]),
    (r#"/$"#, "/abc/", 1, &[4, 5]),
    (r#"/$"#, "/abc", 0, &[]),
    // multiple matches
    (r#"."#, "abc", 3, &[0, 1, 1, 2, 2, 3]),
    (r#"(.)"#, "abc", 3, &[0, 1, 0, 1, 1, 2, 1, 2, 2, 3, 2, 3]),
    (r#".(.)"#, "abcd", 2, &[0, 2, 1, 2, 2, 4, 3, 4]),
    (r#"ab*"#, "abbaab", 3, &[0, 3, 3, 4, 4, 6]),
    (
        r#"a(b*)"#,
        "abbaab",
        3,
        &[0, 3, 1, 3, 3, 4, 4, 4, 4, 6, 5, 6],
    ),
    // fixed bugs
    (r#"ab$"#, "cab", 1, &[1, 3]),
    (r#"axxb$"#, "axxcb", 0, &[]),
    (r#"data"#, "daXY data", 1, &[5, 9]),
    (r#"da(.)a$"#, "daXY data", 1, &[5, 9, 7, 8]),
    (r#"zx+"#, "zzx", 1, &[1, 3]),
    (r#"ab$"#, "abcab", 1, &[3, 5]),
    (r#"(aa)*$"#, "a", 1, &[1, 1, -1, -1]),
    (r#"(?:.|(?:.a))"#, "", 0, &[]),
    (r#"(?:A(?:A|a))"#, "Aa", 1, &[0, 2]),
    (r#"(?:A|(?:A|a))"#, "a", 1, &[0, 1]),
    (r#"(a){0}"#, "", 1, &[0, 0, -1, -1]),
    (r#"(?-s)(?:(?:^).)"#, "\n", 0, &[]),
    (r#"(?s)(?:(?:^).)"#, "\n", 1, &[0, 1]),
    (r#"(?:(?:^).)"#, "\n", 0, &[]),
    (r#"\b"#, "x", 2, &[0, 0, 1, 1]),
    (r#"\b"#, "xx", 2, &[0, 0, 2, 2]),
    (r#"\b"#, "x y", 4, &[0, 0, 1, 1, 2, 2, 3, 3]),
    (r#"\b"#, "xx yy", 4, &[0, 0, 2, 2, 3, 3, 5, 5]),
    (r#"\B"#, "x", 0, &[]),
    (r#"\B"#, "xx", 1, &[1, 1]),
    (r#"\B"#, "x y", 0, &[]),
    (r#"\B"#, "xx yy", 2, &[1, 1, 4, 4]),
    (r#"(|a)*"#, "aa", 3, &[0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2]),
    // RE2 tests
    (r#"[^\S\s]"#, "abcd", 0, &[]),
    (r#"[^\S[:space:]]"#, "abcd", 0, &[]),
    (r#"[^\D\d]"#, "abcd", 0, &[]),
    (r#"[^\D[:digit:]]"#, "abcd", 0, &[]),
    (r#"(?i)\W"#, "x", 0, &[]),
    (r#"(?i)\W"#, "k", 0, &[]),
    (r#"(?i)\W"#, "s", 0, &[]),
    // can backslash-escape any punctuation
    ("\\`", "`", 1, &[0, 1]),
    ("[\\`]+", "`", 1, &[0, 1]),
    (
        r##"\!\"\#\$\%\&\'\(\)\*\+\,\-\.\/\:\;\<\=\>\?\@\[\\\]\^\_\{\|\}\~"##,
        r##"!"#$%&'()*+,-./:;<=>?@[\]^_{|}~"##,
        1,
        &[0, 31],
    ),
    (
        r##"[\!\"\#\$\%\&\'\(\)\*\+\,\-\.\/\:\;\<\=\>\?\@\[\\\]\^\_\{\|\}\~]+"##,
        r##"!"#$%&'()*+,-./:;<=>?@[\]^_{|}~"##,
        1,
        &[0, 31],
    ),
    // long set of matches (longer than startSize)
    (
        ".",
        "qwertyuiopasdfghjklzxcvbnm1234567890",
        36,
        &[
            0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13,
            13, 14, 14, 15, 15, 16, 16, 17, 17, 18, 18, 19, 19, 20, 20, 21, 21, 22, 22, 23, 23, 24,
            24, 25, 25, 26, 26, 27, 27, 28, 28, 29, 29, 30, 30, 31, 31, 32, 32, 33, 33, 34, 34, 35,
            35, 36,
        ],
    ),
];

/// Each expected match as its list of (start, end) pairs, `None` for unset groups.
fn expected(case: &FindTest) -> Vec<Vec<Option<(usize, usize)>>> {
    let (_, _, n, positions) = *case;
    if n == 0 {
        return Vec::new();
    }
    positions
        .chunks(positions.len() / n)
        .map(|m| {
            m.chunks(2)
                .map(|p| Some((usize::try_from(p[0]).ok()?, usize::try_from(p[1]).ok()?)))
                .collect()
        })
        .collect()
}

#[test]
fn find_tests() {
    for case in FIND_TESTS {
        let (pattern, text, n, _) = *case;
        let re = Regexp::new(pattern).unwrap_or_else(|e| panic!("{pattern}: {e}"));
        let want = expected(case);
        let whole: Vec<(usize, usize)> = want.iter().filter_map(|m| m[0]).collect();
        // Go's FindString / FindStringIndex.
        assert_eq!(
            re.find(text).map(|m| (m.start(), m.end())),
            whole.first().copied(),
            "find {pattern:?} in {text:?}"
        );
        assert_eq!(re.is_match(text), n > 0, "is_match {pattern:?} in {text:?}");
        // Go's FindAllString(s, -1) and FindAllString(s, k) for each k.
        let all = |k| -> Vec<(usize, usize)> {
            re.find_all(text, k)
                .iter()
                .map(|m| (m.start(), m.end()))
                .collect()
        };
        assert_eq!(all(-1), whole, "find_all {pattern:?} in {text:?}");
        for k in 0..=n {
            assert_eq!(all(k as i64), whole[..k], "find_all {pattern:?} {k}");
        }
        // Go's FindAllStringSubmatchIndex: the groups, numbered as in Go.
        let groups: Vec<Vec<Option<(usize, usize)>>> = re
            .as_regex()
            .captures_iter(text)
            .take(1)
            .map(|c| c.iter().map(|g| g.map(|g| (g.start(), g.end()))).collect())
            .collect();
        assert_eq!(
            groups,
            want[..want.len().min(1)],
            "groups {pattern:?} in {text:?}"
        );
    }
}
