//! The syntax rules of Go's `regexp.Compile` (RE2 with Perl extensions, Go `regexp/syntax`
//! `parse.go`) for the patterns Go rejects, with Go's error text:
//! `error parsing regexp: invalid nested repetition operator: `++``.
//!
//! The `regex` crate compiles the patterns; its syntax is close to RE2's but accepts some that
//! Go rejects (`x++`, `x**`, `x{2}{3}`, `\8`, `(?i-)`, ...), and words its errors differently.
//! [`check`] walks a pattern as Go's parser does (a stack of groups, each a list of
//! alternatives), keeping only what decides validity: repetition operands, the counts of
//! nested repetitions, escapes, classes, groups and flags. Not reproduced: Go's limits on the
//! compiled size and nesting height (`expression too large`, `expression nests too deeply`,
//! left to the `regex` crate's size limit) and the tables behind `\p{Name}` (a name is valid
//! when the `regex` crate knows it).

/// Go's `maxRepeat`: the largest count, also of nested counts multiplied.
const MAX_REPEAT: i64 = 1000;

/// A Go `regexp/syntax` error: the code's text and the offending part of the pattern.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SyntaxError {
    pub code: &'static str,
    pub expr: String,
}

impl std::fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "error parsing regexp: {}: `{}`", self.code, self.expr)
    }
}

const INVALID_CHAR_RANGE: &str = "invalid character class range";
const INVALID_ESCAPE: &str = "invalid escape sequence";
const INVALID_NAMED_CAPTURE: &str = "invalid named capture";
const INVALID_PERL_OP: &str = "invalid or unsupported Perl syntax";
const INVALID_REPEAT_OP: &str = "invalid nested repetition operator";
const INVALID_REPEAT_SIZE: &str = "invalid repeat count";
const MISSING_BRACKET: &str = "missing closing ]";
const MISSING_PAREN: &str = "missing closing )";
const MISSING_REPEAT_ARGUMENT: &str = "missing argument to repetition operator";
const TRAILING_BACKSLASH: &str = "trailing backslash at end of expression";
const UNEXPECTED_PAREN: &str = "unexpected )";

fn err(code: &'static str, expr: &str) -> SyntaxError {
    SyntaxError {
        code,
        expr: expr.to_owned(),
    }
}

/// What the repetition check needs of a parsed piece.
enum Node {
    /// Literals, classes, anchors, the empty match.
    Leaf,
    /// `x{min,max}` (`max` -1: unbounded).
    Repeat { min: i64, max: i64, sub: Box<Node> },
    /// `x*`, `x+`, `x?` and groups: transparent for the count check.
    Wrap(Box<Node>),
    /// Concatenations and alternations.
    Seq(Vec<Node>),
}

/// Go's `repeatIsValid`: the nested counts multiply to at most `n`.
fn repeat_is_valid(node: &Node, mut n: i64) -> bool {
    match node {
        Node::Leaf => true,
        Node::Repeat { min, max, sub } => {
            let m = if *max < 0 { *min } else { *max };
            if *max == 0 {
                return true;
            }
            if m > n {
                return false;
            }
            if m > 0 {
                n /= m;
            }
            repeat_is_valid(sub, n)
        }
        Node::Wrap(sub) => repeat_is_valid(sub, n),
        Node::Seq(subs) => subs.iter().all(|s| repeat_is_valid(s, n)),
    }
}

/// One open group: the finished alternatives and the pieces of the current one.
#[derive(Default)]
struct Group {
    alternatives: Vec<Node>,
    current: Vec<Node>,
}

impl Group {
    fn close(mut self) -> Node {
        self.alternatives.push(Node::Seq(self.current));
        Node::Seq(self.alternatives)
    }
}

/// Checks `pattern` as Go's `regexp.Compile` parses it.
pub(crate) fn check(pattern: &str) -> Result<(), SyntaxError> {
    let mut groups = vec![Group::default()];
    // The pattern from the previous piece's repetition operator on, if it was one.
    let mut last_repeat: Option<&str> = None;
    let mut t = pattern;
    while let Some(c) = t.chars().next() {
        let mut repeat = None;
        match c {
            '(' if t[1..].starts_with('?') => {
                let (rest, opens) = perl_flags(t)?;
                if opens {
                    groups.push(Group::default());
                }
                t = rest;
            }
            '(' => {
                groups.push(Group::default());
                t = &t[1..];
            }
            '|' => {
                let g = top(&mut groups);
                let current = std::mem::take(&mut g.current);
                g.alternatives.push(Node::Seq(current));
                t = &t[1..];
            }
            ')' => {
                if groups.len() < 2 {
                    return Err(err(UNEXPECTED_PAREN, pattern));
                }
                let node = groups.pop().map_or(Node::Leaf, Group::close);
                top(&mut groups).current.push(Node::Wrap(Box::new(node)));
                t = &t[1..];
            }
            '*' | '+' | '?' => {
                let after = repetition(&mut groups, t, 1, None, last_repeat)?;
                repeat = Some(t);
                t = after;
            }
            '{' => match parse_repeat(t) {
                None => {
                    // Not a count: a literal brace.
                    top(&mut groups).current.push(Node::Leaf);
                    t = &t[1..];
                }
                Some((min, max, len)) => {
                    if !(0..=MAX_REPEAT).contains(&min)
                        || max > MAX_REPEAT
                        || (max >= 0 && min > max)
                    {
                        return Err(err(INVALID_REPEAT_SIZE, &t[..len]));
                    }
                    let after = repetition(&mut groups, t, len, Some((min, max)), last_repeat)?;
                    repeat = Some(t);
                    t = after;
                }
            },
            '[' => {
                t = class(t)?;
                top(&mut groups).current.push(Node::Leaf);
            }
            '\\' => {
                t = escape_atom(t, &mut groups)?;
            }
            _ => {
                t = &t[c.len_utf8()..];
                top(&mut groups).current.push(Node::Leaf);
            }
        }
        last_repeat = repeat;
    }
    if groups.len() != 1 {
        return Err(err(MISSING_PAREN, pattern));
    }
    Ok(())
}

fn top(groups: &mut [Group]) -> &mut Group {
    let n = groups.len() - 1;
    &mut groups[n]
}

/// `*`, `+`, `?` (`count` `None`) or `{min,max}` spanning `len` bytes at the start of `t`:
/// applies it to the last piece and returns the rest of the pattern.
fn repetition<'p>(
    groups: &mut [Group],
    t: &'p str,
    len: usize,
    count: Option<(i64, i64)>,
    last_repeat: Option<&'p str>,
) -> Result<&'p str, SyntaxError> {
    let mut after = &t[len..];
    // A `?` after the operator makes it non-greedy.
    if after.starts_with('?') {
        after = &after[1..];
    }
    if let Some(last) = last_repeat {
        // Perl does not stack repetitions: `a**` is an error, not `(a*)*`.
        return Err(err(INVALID_REPEAT_OP, &last[..last.len() - after.len()]));
    }
    let op = &t[..t.len() - after.len()];
    let g = top(groups);
    let Some(sub) = g.current.pop() else {
        return Err(err(MISSING_REPEAT_ARGUMENT, op));
    };
    let node = match count {
        None => Node::Wrap(Box::new(sub)),
        Some((min, max)) => {
            let node = Node::Repeat {
                min,
                max,
                sub: Box::new(sub),
            };
            if (min >= 2 || max >= 2) && !repeat_is_valid(&node, MAX_REPEAT) {
                return Err(err(INVALID_REPEAT_SIZE, op));
            }
            node
        }
    };
    g.current.push(node);
    Ok(after)
}

/// `{n}`, `{n,}` or `{n,m}` at the start of `t`: (min, max (-1: none), length); min is -1 when
/// a number is too large. `None` when it is not a count (then `{` is a literal).
fn parse_repeat(t: &str) -> Option<(i64, i64, usize)> {
    let s = t.strip_prefix('{')?;
    let (min, mut s) = parse_int(s)?;
    let mut min = min;
    let max;
    if let Some(rest) = s.strip_prefix(',') {
        s = rest;
        if s.starts_with('}') {
            max = -1;
        } else {
            let (m, rest) = parse_int(s)?;
            s = rest;
            max = m;
            if m < 0 {
                min = -1;
            }
        }
    } else {
        max = min;
    }
    let rest = s.strip_prefix('}')?;
    Some((min, max, t.len() - rest.len()))
}

/// A decimal without leading zeros; -1 when it is too large.
fn parse_int(s: &str) -> Option<(i64, &str)> {
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || (digits >= 2 && s.starts_with('0')) {
        return None;
    }
    let mut n: i64 = 0;
    for b in s[..digits].bytes() {
        if n >= 100_000_000 {
            n = -1;
            break;
        }
        n = n * 10 + i64::from(b - b'0');
    }
    Some((n, &s[digits..]))
}

/// `(?flags)`, `(?flags:`, `(?P<name>` or `(?<name>` at the start of `s`: the rest of the
/// pattern and whether a group opens.
fn perl_flags(s: &str) -> Result<(&str, bool), SyntaxError> {
    let b = s.as_bytes();
    let with_p = b.len() > 4 && b[2] == b'P' && b[3] == b'<';
    let bare = b.len() > 3 && b[2] == b'<';
    if with_p || bare {
        let start = if with_p { 4 } else { 3 };
        let Some(end) = s.find('>') else {
            return Err(err(INVALID_NAMED_CAPTURE, s));
        };
        let name = &s[start..end];
        if name.is_empty() || !name.chars().all(|c| c == '_' || c.is_ascii_alphanumeric()) {
            return Err(err(INVALID_NAMED_CAPTURE, &s[..=end]));
        }
        return Ok((&s[end + 1..], true));
    }
    let mut t = &s[2..];
    let mut negated = false;
    let mut saw_flag = false;
    while let Some(c) = t.chars().next() {
        t = &t[c.len_utf8()..];
        match c {
            'i' | 'm' | 's' | 'U' => saw_flag = true,
            '-' if !negated => {
                negated = true;
                saw_flag = false;
            }
            ':' | ')' if !negated || saw_flag => return Ok((t, c == ':')),
            _ => break,
        }
    }
    Err(err(INVALID_PERL_OP, &s[..s.len() - t.len()]))
}

/// An escape outside a class: an assertion, `\Q...\E`, a Unicode or Perl class, or a
/// single-character escape. Pushes what it adds; returns the rest.
fn escape_atom<'p>(t: &'p str, groups: &mut [Group]) -> Result<&'p str, SyntaxError> {
    match t.as_bytes().get(1) {
        Some(b'A' | b'b' | b'B' | b'z') => {
            top(groups).current.push(Node::Leaf);
            return Ok(&t[2..]);
        }
        Some(b'C') => return Err(err(INVALID_ESCAPE, &t[..2])),
        Some(b'Q') => {
            let (lit, rest) = t[2..].split_once("\\E").unwrap_or((&t[2..], ""));
            for _ in lit.chars() {
                top(groups).current.push(Node::Leaf);
            }
            return Ok(rest);
        }
        _ => {}
    }
    let rest = match unicode_class(t)? {
        Some(rest) => rest,
        None => match perl_class(t) {
            Some(rest) => rest,
            None => parse_escape(t)?,
        },
    };
    top(groups).current.push(Node::Leaf);
    Ok(rest)
}

/// `\d`, `\D`, `\s`, `\S`, `\w`, `\W`.
fn perl_class(t: &str) -> Option<&str> {
    let b = t.as_bytes();
    (b.len() >= 2 && b[0] == b'\\' && b"dDsSwW".contains(&b[1])).then(|| &t[2..])
}

/// `\pL`, `\p{Name}`, `\P{^Name}`: `None` when `t` does not start with one.
fn unicode_class(t: &str) -> Result<Option<&str>, SyntaxError> {
    let b = t.as_bytes();
    if b.len() < 2 || b[0] != b'\\' || (b[1] != b'p' && b[1] != b'P') {
        return Ok(None);
    }
    let after = &t[2..];
    let Some(c) = after.chars().next() else {
        // Go reads no name and finds no table for it.
        return Err(err(INVALID_CHAR_RANGE, t));
    };
    let (seq, name, rest) = if c == '{' {
        let Some(end) = t.find('}') else {
            return Err(err(INVALID_CHAR_RANGE, t));
        };
        (&t[..=end], &t[3..end], &t[end + 1..])
    } else {
        let n = 2 + c.len_utf8();
        (&t[..n], &t[2..n], &t[n..])
    };
    let name = name.strip_prefix('^').unwrap_or(name);
    if !known_unicode_class(name) {
        return Err(err(INVALID_CHAR_RANGE, seq));
    }
    Ok(Some(rest))
}

/// Whether a Unicode class name is known (Go: the categories, scripts and their aliases; here
/// the `regex` crate's tables, which hold those).
fn known_unicode_class(name: &str) -> bool {
    if name.is_empty() || name.contains(['{', '}', '\\', '^']) {
        return false;
    }
    regex::Regex::new(&format!("\\p{{{name}}}")).is_ok()
}

/// A single-character escape (Go `parseEscape`); returns the rest.
fn parse_escape(s: &str) -> Result<&str, SyntaxError> {
    let t = &s[1..];
    let Some(c) = t.chars().next() else {
        return Err(err(TRAILING_BACKSLASH, ""));
    };
    let mut t = &t[c.len_utf8()..];
    let octal = |b: Option<&u8>| b.is_some_and(|b| (b'0'..=b'7').contains(b));
    let invalid = |t: &str| err(INVALID_ESCAPE, &s[..s.len() - t.len()]);
    match c {
        '1'..='7' if !octal(t.as_bytes().first()) => Err(invalid(t)),
        '0'..='7' => {
            // Up to three octal digits in all.
            for _ in 1..3 {
                if !octal(t.as_bytes().first()) {
                    break;
                }
                t = &t[1..];
            }
            Ok(t)
        }
        'x' => {
            let Some(c) = t.chars().next() else {
                return Err(invalid(t));
            };
            t = &t[c.len_utf8()..];
            if c == '{' {
                let mut digits = 0;
                let mut value: u32 = 0;
                loop {
                    let Some(c) = t.chars().next() else {
                        return Err(invalid(t));
                    };
                    t = &t[c.len_utf8()..];
                    if c == '}' {
                        break;
                    }
                    let Some(v) = c.to_digit(16) else {
                        return Err(invalid(t));
                    };
                    value = value * 16 + v;
                    if value > 0x10_FFFF {
                        return Err(invalid(t));
                    }
                    digits += 1;
                }
                return if digits == 0 { Err(invalid(t)) } else { Ok(t) };
            }
            let second = t.chars().next();
            if let Some(c2) = second {
                t = &t[c2.len_utf8()..];
            }
            if c.is_ascii_hexdigit() && second.is_some_and(|c2| c2.is_ascii_hexdigit()) {
                Ok(t)
            } else {
                Err(invalid(t))
            }
        }
        'a' | 'f' | 'n' | 'r' | 't' | 'v' => Ok(t),
        c if c.is_ascii() && !c.is_ascii_alphanumeric() => Ok(t),
        _ => Err(invalid(t)),
    }
}

/// The POSIX classes of Go's `posixGroup` (each also negated as `[:^name:]`).
const POSIX: &[&str] = &[
    "alnum", "alpha", "ascii", "blank", "cntrl", "digit", "graph", "lower", "print", "punct",
    "space", "upper", "word", "xdigit",
];

/// A bracketed class at the start of `s` (Go `parseClass`); returns the rest.
fn class(s: &str) -> Result<&str, SyntaxError> {
    let mut t = &s[1..];
    if t.starts_with('^') {
        t = &t[1..];
    }
    let mut first = true;
    while first || !t.starts_with(']') {
        first = false;
        // [:alpha:]
        if t.len() > 2
            && t.starts_with("[:")
            && let Some(i) = t[2..].find(":]")
        {
            let name = &t[..i + 4];
            let bare = &name[2..name.len() - 2];
            if !POSIX.contains(&bare.strip_prefix('^').unwrap_or(bare)) {
                return Err(err(INVALID_CHAR_RANGE, name));
            }
            t = &t[i + 4..];
            continue;
        }
        if let Some(rest) = unicode_class(t)? {
            t = rest;
            continue;
        }
        if let Some(rest) = perl_class(t) {
            t = rest;
            continue;
        }
        // A character or a range `lo-hi` (`a-]` is `a` and `-`).
        let range = t;
        let (lo, rest) = class_char(t, s)?;
        t = rest;
        if t.len() >= 2 && t.starts_with('-') && !t[1..].starts_with(']') {
            let (hi, rest) = class_char(&t[1..], s)?;
            t = rest;
            if hi < lo {
                return Err(err(INVALID_CHAR_RANGE, &range[..range.len() - t.len()]));
            }
        }
    }
    Ok(&t[1..])
}

/// One character of a class, escaped or not (Go `parseClassChar`).
fn class_char<'p>(t: &'p str, whole: &str) -> Result<(u32, &'p str), SyntaxError> {
    let Some(c) = t.chars().next() else {
        return Err(err(MISSING_BRACKET, whole));
    };
    if c == '\\' {
        let rest = parse_escape(t)?;
        return Ok((escape_value(&t[1..t.len() - rest.len()]), rest));
    }
    Ok((u32::from(c), &t[c.len_utf8()..]))
}

/// The character a valid single-character escape (without its backslash) stands for.
fn escape_value(e: &str) -> u32 {
    let mut chars = e.chars();
    let c = chars.next().unwrap_or('\0');
    let digits = |s: &str, radix| u32::from_str_radix(s, radix).unwrap_or(0);
    match c {
        '0'..='7' => digits(e, 8),
        'x' => digits(e[1..].trim_start_matches('{').trim_end_matches('}'), 16),
        'a' => 7,
        'f' => 12,
        'n' => 10,
        'r' => 13,
        't' => 9,
        'v' => 11,
        c => u32::from(c),
    }
}

#[cfg(test)]
mod tests {
    use super::check;

    fn go_error(p: &str) -> String {
        check(p).map_or_else(|e| e.to_string(), |()| "ok".into())
    }

    #[test]
    fn valid_patterns() {
        for p in [
            "",
            "a",
            "^[a-z-]+$",
            "[0-9]+",
            "a*?",
            "a{2}?",
            "(a|b)*c",
            "(?i)abc",
            "(?i:a)b",
            "(?P<n>x)",
            "(?<n>x)",
            "[]a]",
            "[^]a]",
            "[a-]",
            "[[:alpha:][:^digit:]]",
            "\\pL\\p{Greek}\\P{^Lu}",
            "\\d\\S\\w",
            "\\Q+*\\E+",
            "\\x41\\x{10FFFF}\\012\\0",
            "a{,3}",
            "a{01}",
            "x{",
            "^*",
            "a(?i)*",
            "(a{10}){100}",
            "\\.\\-\\_\\ ",
            "()",
            "a||b",
        ] {
            assert_eq!(go_error(p), "ok", "{p}");
        }
    }

    #[test]
    fn go_errors() {
        for (p, want) in [
            ("x++", "invalid nested repetition operator: `++`"),
            ("x**", "invalid nested repetition operator: `**`"),
            ("x*?+?", "invalid nested repetition operator: `*?+?`"),
            ("x{2}{3}", "invalid nested repetition operator: `{2}{3}`"),
            ("x{2}*", "invalid nested repetition operator: `{2}*`"),
            ("*", "missing argument to repetition operator: `*`"),
            ("a|*", "missing argument to repetition operator: `*`"),
            ("(+a)", "missing argument to repetition operator: `+`"),
            ("(?i)*?", "missing argument to repetition operator: `*?`"),
            ("{2}", "missing argument to repetition operator: `{2}`"),
            ("x{1001}", "invalid repeat count: `{1001}`"),
            ("x{2,1}", "invalid repeat count: `{2,1}`"),
            ("x{1000000000}", "invalid repeat count: `{1000000000}`"),
            ("(a{100}){11}", "invalid repeat count: `{11}`"),
            (")", "unexpected ): `)`"),
            ("a)b", "unexpected ): `a)b`"),
            ("(a", "missing closing ): `(a`"),
            ("[a", "missing closing ]: `[a`"),
            ("x[^", "missing closing ]: `[^`"),
            ("a\\", "trailing backslash at end of expression: ``"),
            ("\\8", "invalid escape sequence: `\\8`"),
            ("\\1", "invalid escape sequence: `\\1`"),
            ("\\q", "invalid escape sequence: `\\q`"),
            ("\\C", "invalid escape sequence: `\\C`"),
            ("\\xZZ", "invalid escape sequence: `\\xZZ`"),
            ("\\x{}", "invalid escape sequence: `\\x{}`"),
            ("\\x{110000}", "invalid escape sequence: `\\x{110000`"),
            ("[\\b]", "invalid escape sequence: `\\b`"),
            ("[z-a]", "invalid character class range: `z-a`"),
            ("[[:foo:]]", "invalid character class range: `[:foo:]`"),
            ("\\p{Foo}", "invalid character class range: `\\p{Foo}`"),
            ("\\p{Greek", "invalid character class range: `\\p{Greek`"),
            ("(?=a)", "invalid or unsupported Perl syntax: `(?=`"),
            ("(?i-)", "invalid or unsupported Perl syntax: `(?i-)`"),
            ("(?P=n)", "invalid or unsupported Perl syntax: `(?P`"),
            ("(?", "invalid or unsupported Perl syntax: `(?`"),
            ("(?P<>a)", "invalid named capture: `(?P<>`"),
            ("(?P<a-b>c)", "invalid named capture: `(?P<a-b>`"),
            ("(?<=a)b", "invalid named capture: `(?<=a)b`"),
        ] {
            assert_eq!(go_error(p), format!("error parsing regexp: {want}"), "{p}");
        }
    }
}
