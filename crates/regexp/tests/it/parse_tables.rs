//! Go `regexp/syntax/parse_test.go`: `parseTests` (every input must parse and compile; where Go
//! dumps a single character class, the compiled pattern must match exactly its runes),
//! `foldcaseTests`, `invalidRegexps`, `onlyPerl` and `onlyPOSIX` (Perl flags: invalid).

use crdkit_regexp::{Regexp, check};

/// `parseTests` (Go 1.25), as (pattern, Go's dump). Dumps of computed classes are left empty.
const PARSE_TESTS: &[(&str, &str)] = &[
    // Base cases
    (r"a", r"lit{a}"),
    (r"a.", r"cat{lit{a}dot{}}"),
    (r"a.b", r"cat{lit{a}dot{}lit{b}}"),
    (r"ab", r"str{ab}"),
    (r"a.b.c", r"cat{lit{a}dot{}lit{b}dot{}lit{c}}"),
    (r"abc", r"str{abc}"),
    (r"a|^", r"alt{lit{a}bol{}}"),
    (r"a|b", r"cc{0x61-0x62}"),
    (r"(a)", r"cap{lit{a}}"),
    (r"(a)|b", r"alt{cap{lit{a}}lit{b}}"),
    (r"a*", r"star{lit{a}}"),
    (r"a+", r"plus{lit{a}}"),
    (r"a?", r"que{lit{a}}"),
    (r"a{2}", r"rep{2,2 lit{a}}"),
    (r"a{2,3}", r"rep{2,3 lit{a}}"),
    (r"a{2,}", r"rep{2,-1 lit{a}}"),
    (r"a*?", r"nstar{lit{a}}"),
    (r"a+?", r"nplus{lit{a}}"),
    (r"a??", r"nque{lit{a}}"),
    (r"a{2}?", r"nrep{2,2 lit{a}}"),
    (r"a{2,3}?", r"nrep{2,3 lit{a}}"),
    (r"a{2,}?", r"nrep{2,-1 lit{a}}"),
    // Malformed { } are treated as literals.
    (r"x{1001", r"str{x{1001}"),
    (r"x{9876543210", r"str{x{9876543210}"),
    (r"x{9876543210,", r"str{x{9876543210,}"),
    (r"x{2,1", r"str{x{2,1}"),
    (r"x{1,9876543210", r"str{x{1,9876543210}"),
    (r"", r"emp{}"),
    (r"|", r"emp{}"),
    (r"|x|", r"alt{emp{}lit{x}emp{}}"),
    (r".", r"dot{}"),
    (r"^", r"bol{}"),
    (r"$", r"eol{}"),
    (r"\|", r"lit{|}"),
    (r"\(", r"lit{(}"),
    (r"\)", r"lit{)}"),
    (r"\*", r"lit{*}"),
    (r"\+", r"lit{+}"),
    (r"\?", r"lit{?}"),
    (r"{", r"lit{{}"),
    (r"}", r"lit{}}"),
    (r"\.", r"lit{.}"),
    (r"\^", r"lit{^}"),
    (r"\$", r"lit{$}"),
    (r"\\", r"lit{\}"),
    (r"[ace]", r"cc{0x61 0x63 0x65}"),
    (r"[abc]", r"cc{0x61-0x63}"),
    (r"[a-z]", r"cc{0x61-0x7a}"),
    (r"[a]", r"lit{a}"),
    (r"\-", r"lit{-}"),
    (r"-", r"lit{-}"),
    (r"\_", r"lit{_}"),
    (r"abc|def", r"alt{str{abc}str{def}}"),
    (r"abc|def|ghi", r"alt{str{abc}str{def}str{ghi}}"),
    // Posix and Perl extensions
    (r"[[:lower:]]", r"cc{0x61-0x7a}"),
    (r"[^[:lower:]]", r"cc{0x0-0x60 0x7b-0x10ffff}"),
    (r"[[:^lower:]]", r"cc{0x0-0x60 0x7b-0x10ffff}"),
    (r"(?i)[[:lower:]]", r"cc{0x41-0x5a 0x61-0x7a 0x17f 0x212a}"),
    (r"(?i)[a-z]", r"cc{0x41-0x5a 0x61-0x7a 0x17f 0x212a}"),
    (
        r"(?i)[^[:lower:]]",
        r"cc{0x0-0x40 0x5b-0x60 0x7b-0x17e 0x180-0x2129 0x212b-0x10ffff}",
    ),
    (
        r"(?i)[[:^lower:]]",
        r"cc{0x0-0x40 0x5b-0x60 0x7b-0x17e 0x180-0x2129 0x212b-0x10ffff}",
    ),
    (r"\d", r"cc{0x30-0x39}"),
    (r"\D", r"cc{0x0-0x2f 0x3a-0x10ffff}"),
    (r"\s", r"cc{0x9-0xa 0xc-0xd 0x20}"),
    (r"\S", r"cc{0x0-0x8 0xb 0xe-0x1f 0x21-0x10ffff}"),
    (r"\w", r"cc{0x30-0x39 0x41-0x5a 0x5f 0x61-0x7a}"),
    (
        r"\W",
        r"cc{0x0-0x2f 0x3a-0x40 0x5b-0x5e 0x60 0x7b-0x10ffff}",
    ),
    (
        r"(?i)\w",
        r"cc{0x30-0x39 0x41-0x5a 0x5f 0x61-0x7a 0x17f 0x212a}",
    ),
    (
        r"(?i)\W",
        r"cc{0x0-0x2f 0x3a-0x40 0x5b-0x5e 0x60 0x7b-0x17e 0x180-0x2129 0x212b-0x10ffff}",
    ),
    (r"[^\\]", r"cc{0x0-0x5b 0x5d-0x10ffff}"),
    // Unicode, negatives, and a double negative.
    (r"\p{Braille}", r"cc{0x2800-0x28ff}"),
    (r"\P{Braille}", r"cc{0x0-0x27ff 0x2900-0x10ffff}"),
    (r"\p{^Braille}", r"cc{0x0-0x27ff 0x2900-0x10ffff}"),
    (r"\P{^Braille}", r"cc{0x2800-0x28ff}"),
    (
        r"\pZ",
        r"cc{0x20 0xa0 0x1680 0x2000-0x200a 0x2028-0x2029 0x202f 0x205f 0x3000}",
    ),
    (r"[\p{Braille}]", r"cc{0x2800-0x28ff}"),
    (r"[\P{Braille}]", r"cc{0x0-0x27ff 0x2900-0x10ffff}"),
    (r"[\p{^Braille}]", r"cc{0x0-0x27ff 0x2900-0x10ffff}"),
    (r"[\P{^Braille}]", r"cc{0x2800-0x28ff}"),
    (
        r"[\pZ]",
        r"cc{0x20 0xa0 0x1680 0x2000-0x200a 0x2028-0x2029 0x202f 0x205f 0x3000}",
    ),
    (r"\p{Lu}", ""),
    (r"\p{Uppercase_Letter}", ""),
    (r"\p{upper case-let ter}", ""),
    (r"\p{__upper case-let ter}", ""),
    (r"\p{Canadian_Aboriginal}", ""),
    (r"[\p{Lu}]", ""),
    (r"(?i)[\p{Lu}]", ""),
    (r"\p{Any}", r"dot{}"),
    (r"\p{^Any}", r"cc{}"),
    (r"(?i)\p{ascii}", r"cc{0x0-0x7f 0x17f 0x212a}"),
    (r"\p{Assigned}", ""),
    (r"\p{^Assigned}", ""),
    // Hex, octal.
    (r"[\012-\234]\141", r"cat{cc{0xa-0x9c}lit{a}}"),
    (r"[\x{41}-\x7a]\x61", r"cat{cc{0x41-0x7a}lit{a}}"),
    // More interesting regular expressions.
    (r"a{,2}", r"str{a{,2}}"),
    (r"\.\^\$\\", r"str{.^$\}"),
    (r"[a-zABC]", r"cc{0x41-0x43 0x61-0x7a}"),
    (r"[^a]", r"cc{0x0-0x60 0x62-0x10ffff}"),
    (r"[α-ε☺]", r"cc{0x3b1-0x3b5 0x263a}"),
    (r"a*{", r"cat{star{lit{a}}lit{{}}"),
    // Test precedences
    (r"(?:ab)*", r"star{str{ab}}"),
    (r"(ab)*", r"star{cap{str{ab}}}"),
    (r"ab|cd", r"alt{str{ab}str{cd}}"),
    (r"a(b|c)d", r"cat{lit{a}cap{cc{0x62-0x63}}lit{d}}"),
    // Test flattening.
    (r"(?:a)", r"lit{a}"),
    (r"(?:ab)(?:cd)", r"str{abcd}"),
    (
        r"(?:a+b+)(?:c+d+)",
        r"cat{plus{lit{a}}plus{lit{b}}plus{lit{c}}plus{lit{d}}}",
    ),
    (
        r"(?:a+|b+)|(?:c+|d+)",
        r"alt{plus{lit{a}}plus{lit{b}}plus{lit{c}}plus{lit{d}}}",
    ),
    (r"(?:a|b)|(?:c|d)", r"cc{0x61-0x64}"),
    (r"a|.", r"dot{}"),
    (r".|a", r"dot{}"),
    (
        r"(?:[abc]|A|Z|hello|world)",
        r"alt{cc{0x41 0x5a 0x61-0x63}str{hello}str{world}}",
    ),
    (r"(?:[abc]|A|Z)", r"cc{0x41 0x5a 0x61-0x63}"),
    // Test Perl quoted literals
    (r"\Q+|*?{[\E", r"str{+|*?{[}"),
    (r"\Q+\E+", r"plus{lit{+}}"),
    (r"\Qab\E+", r"cat{lit{a}plus{lit{b}}}"),
    (r"\Q\\E", r"lit{\}"),
    (r"\Q\\\E", r"str{\\}"),
    // Test Perl \A and \z
    (r"(?m)^", r"bol{}"),
    (r"(?m)$", r"eol{}"),
    (r"(?-m)^", r"bot{}"),
    (r"(?-m)$", r"eot{}"),
    (r"(?m)\A", r"bot{}"),
    (r"(?m)\z", r"eot{\z}"),
    (r"(?-m)\A", r"bot{}"),
    (r"(?-m)\z", r"eot{\z}"),
    // Test named captures
    (r"(?P<name>a)", r"cap{name:lit{a}}"),
    (r"(?<name>a)", r"cap{name:lit{a}}"),
    // Case-folded literals
    (r"[Aa]", r"litfold{A}"),
    (r"[\x{100}\x{101}]", r"litfold{Ā}"),
    (r"[Δδ]", r"litfold{Δ}"),
    // Strings
    (r"abcde", r"str{abcde}"),
    (r"[Aa][Bb]cd", r"cat{strfold{AB}str{cd}}"),
    // Factoring.
    (
        r"abc|abd|aef|bcx|bcy",
        r"alt{cat{lit{a}alt{cat{lit{b}cc{0x63-0x64}}str{ef}}}cat{str{bc}cc{0x78-0x79}}}",
    ),
    (
        r"ax+y|ax+z|ay+w",
        r"cat{lit{a}alt{cat{plus{lit{x}}lit{y}}cat{plus{lit{x}}lit{z}}cat{plus{lit{y}}lit{w}}}}",
    ),
    // Bug fixes.
    (r"(?:.)", r"dot{}"),
    (r"(?:x|(?:xa))", r"cat{lit{x}alt{emp{}lit{a}}}"),
    (r"(?:.|(?:.a))", r"cat{dot{}alt{emp{}lit{a}}}"),
    (r"(?:A(?:A|a))", r"cat{lit{A}litfold{A}}"),
    (r"(?:A|a)", r"litfold{A}"),
    (r"A|(?:A|a)", r"litfold{A}"),
    (r"(?s).", r"dot{}"),
    (r"(?-s).", r"dnl{}"),
    (r"(?:(?:^).)", r"cat{bol{}dot{}}"),
    (r"(?-s)(?:(?:^).)", r"cat{bol{}dnl{}}"),
    (r"[\s\S]a", r"cat{cc{0x0-0x10ffff}lit{a}}"),
    // RE2 prefix_tests
    (r"abc|abd", r"cat{str{ab}cc{0x63-0x64}}"),
    (r"a(?:b)c|abd", r"cat{str{ab}cc{0x63-0x64}}"),
    (r"abc|x|abd", r"alt{str{abc}lit{x}str{abd}}"),
    (r"(?i)abc|ABD", r"cat{strfold{AB}cc{0x43-0x44 0x63-0x64}}"),
    (r"[ab]c|[ab]d", r"cat{cc{0x61-0x62}cc{0x63-0x64}}"),
    (r".c|.d", r"cat{dot{}cc{0x63-0x64}}"),
    (
        r"x{2}|x{2}[0-9]",
        r"cat{rep{2,2 lit{x}}alt{emp{}cc{0x30-0x39}}}",
    ),
    (
        r"x{2}y|x{2}[0-9]y",
        r"cat{rep{2,2 lit{x}}alt{lit{y}cat{cc{0x30-0x39}lit{y}}}}",
    ),
    (
        r"a.*?c|a.*?b",
        r"cat{lit{a}alt{cat{nstar{dot{}}lit{c}}cat{nstar{dot{}}lit{b}}}}",
    ),
    // Valid repetitions.
    (r"((((((((((x{2}){2}){2}){2}){2}){2}){2}){2}){2}))", ""),
    (r"((((((((((x{1}){2}){2}){2}){2}){2}){2}){2}){2}){2})", ""),
    (r"(?:[a-z]{4}){0,250}", ""),
];

/// `foldcaseTests`, parsed with `FoldCase`: here under `(?i)`.
const FOLDCASE_TESTS: &[(&str, &str)] = &[
    (r"AbCdE", r"strfold{ABCDE}"),
    (r"[Aa]", r"litfold{A}"),
    (r"a", r"litfold{A}"),
    (r"A[F-g]", r"cat{litfold{A}cc{0x41-0x7a 0x17f 0x212a}}"),
    (r"[[:upper:]]", r"cc{0x41-0x5a 0x61-0x7a 0x17f 0x212a}"),
    (r"[[:lower:]]", r"cc{0x41-0x5a 0x61-0x7a 0x17f 0x212a}"),
];

/// The runes of a dumped class: `cc{0x61 0x63-0x65}`, `dot{}`, `cc{}`; `None` for other dumps.
fn dumped_class(dump: &str) -> Option<Vec<(u32, u32)>> {
    if dump == "dot{}" {
        return Some(vec![(0, 0x10_FFFF)]);
    }
    let body = dump.strip_prefix("cc{")?.strip_suffix('}')?;
    let hex = |s: &str| u32::from_str_radix(s.trim_start_matches("0x"), 16).ok();
    body.split_whitespace()
        .map(|r| match r.split_once('-') {
            Some((lo, hi)) => Some((hex(lo)?, hex(hi)?)),
            None => hex(r).map(|c| (c, c)),
        })
        .collect()
}

/// Code points worth probing: the BMP's first blocks, the folding specials, the ends.
fn probes() -> impl Iterator<Item = char> {
    (0..0x3100u32)
        .chain([0x212A, 0x017F, 0xFFFD, 0x1_0000, 0x1E943, 0x10_FFFF])
        .filter_map(char::from_u32)
}

/// Go's `parseTests` use `MatchNL` (`.` matches `\n`): `(?s)` here.
fn assert_class(pattern: &str, runes: &[(u32, u32)]) {
    let anchored = Regexp::new(&format!("^(?s)(?:{pattern})$")).unwrap();
    for c in probes() {
        let want = runes
            .iter()
            .any(|&(lo, hi)| (lo..=hi).contains(&u32::from(c)));
        let mut buf = [0; 4];
        assert_eq!(
            anchored.is_match(c.encode_utf8(&mut buf)),
            want,
            "{pattern} on U+{:04X}",
            u32::from(c)
        );
    }
}

#[test]
fn parse_tests_compile() {
    for &(pattern, dump) in PARSE_TESTS {
        assert_eq!(check(pattern), Ok(()), "{pattern}");
        Regexp::new(pattern).unwrap_or_else(|e| panic!("{pattern}: {e}"));
        if let Some(runes) = dumped_class(dump) {
            assert_class(pattern, &runes);
        }
    }
    for &(pattern, dump) in FOLDCASE_TESTS {
        let pattern = format!("(?i){pattern}");
        Regexp::new(&pattern).unwrap_or_else(|e| panic!("{pattern}: {e}"));
        if let Some(runes) = dumped_class(dump) {
            assert_class(&pattern, &runes);
        }
    }
}

#[test]
fn parse_tests_limits_valid() {
    // The valid nesting of `parseTests`: at Go's limits, and an alternation that is not nested.
    for pattern in [
        format!("{}{}", "(".repeat(999), ")".repeat(999)),
        format!("{}{}", "(?:".repeat(999), ")*".repeat(999)),
        format!("({})", "|".repeat(12345)),
    ] {
        assert_eq!(check(&pattern), Ok(()));
        let re = Regexp::new(&pattern).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(re.find("x").map(|m| m.range()), Some(0..0));
    }
}

/// `invalidRegexps` (without the four that are invalid UTF-8, which no `&str` holds).
const INVALID_REGEXPS: &[&str] = &[
    r"(",
    r")",
    r"(a",
    r"a)",
    r"(a))",
    r"(a|b|",
    r"a|b|)",
    r"(a|b|))",
    r"(a|b",
    r"a|b)",
    r"(a|b))",
    r"[a-z",
    r"([a-z)",
    r"[a-z)",
    r"([a-z]))",
    r"x{1001}",
    r"x{9876543210}",
    r"x{2,1}",
    r"x{1,9876543210}",
    r"(?P<name>a",
    r"(?P<name>",
    r"(?P<name",
    r"(?P<x y>a)",
    r"(?P<>a)",
    r"(?<name>a",
    r"(?<name>",
    r"(?<name",
    r"(?<x y>a)",
    r"(?<>a)",
    r"[a-Z]",
    r"(?i)[a-Z]",
    r"\Q\E*",
    r"a{100000}",
    r"a{100000,}",
    r"((((((((((x{2}){2}){2}){2}){2}){2}){2}){2}){2}){2})",
    r"(?:[a-z]{4}){0,251}",
];

/// `onlyPOSIX`: invalid with the Perl flags `regexp.Compile` uses.
const ONLY_POSIX: &[&str] = &["a++", "a**", "a?*", "a+*", "a{1}*", ".{1}{2}.{3}"];

/// `onlyPerl`: valid with the Perl flags.
const ONLY_PERL: &[&str] = &[
    r"[a-b-c]",
    r"\Qabc\E",
    r"\Q*+?{[\E",
    r"\Q\\E",
    r"\Q\\\E",
    r"\Q\\\\E",
    r"\Q\\\\\E",
    r"(?:a)",
    r"(?P<name>a)",
];

#[test]
fn invalid_regexps() {
    for pattern in INVALID_REGEXPS.iter().chain(ONLY_POSIX) {
        let err = check(pattern).expect_err(pattern);
        assert_eq!(Regexp::new(pattern).unwrap_err(), err, "{pattern}");
    }
    for pattern in ONLY_PERL {
        Regexp::new(pattern).unwrap_or_else(|e| panic!("{pattern}: {e}"));
    }
}

#[test]
fn invalid_regexps_limits() {
    use crdkit_regexp::ErrorCode::{Large, NestingDepth};
    for (pattern, code) in [
        // too deep
        (
            format!("{}{}", "(".repeat(1000), ")".repeat(1000)),
            NestingDepth,
        ),
        (
            format!("{}{}", "(?:".repeat(1000), ")*".repeat(1000)),
            NestingDepth,
        ),
        // too long
        (format!("({}){{1000}}", "(xx?)".repeat(1000)), Large),
        ("(xx?){1000}".repeat(1000), Large),
        // too many runes
        (r"\pL".repeat(27000), Large),
    ] {
        let err = check(&pattern).unwrap_err();
        assert_eq!(err.code, code);
        // Go quotes the whole pattern for these.
        assert_eq!(err.expr, pattern);
        assert_eq!(Regexp::new(&pattern).unwrap_err(), err);
    }
}
