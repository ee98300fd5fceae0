//! Go's `regexp.Compile` on the `regex` crate: RE2 semantics and Go's error messages, for the
//! `pattern` check of schemas (`must be a valid regular expression, but isn't: error parsing
//! regexp: missing closing ): `(a``) and for validating values against `pattern`.
//!
//! Go's `regexp` treats `\d`, `\w`, `\s` and `\b` as ASCII classes (`\s` is `[\t\n\f\r ]`), while
//! the `regex` crate makes them Unicode-aware; [`translate`] rewrites them so both agree, and
//! keeps `[`, `&&` and `~~` literal inside classes as Go does.

use regex::Regex;

/// Compiles `pattern` as Go's `regexp.Compile` would, returning Go's error text
/// (`error parsing regexp: missing closing ): `(a``).
///
/// Validity is decided by the `regex` crate on the [`translate`]d pattern (its syntax is close to
/// RE2's), except that a repetition of a repetition (`a**`), which it accepts, is rejected as Go
/// does; the message is Go's for the common mistakes.
pub(crate) fn compile_go_regexp(pattern: &str) -> Result<Regex, String> {
    if classify(pattern).0 == "invalid nested repetition operator" {
        return Err(go_error(pattern));
    }
    Regex::new(&translate(pattern)).map_err(|_| go_error(pattern))
}

/// Compiles a Go regular expression (for formats and other fixed patterns).
#[cfg(feature = "full")]
pub(crate) fn go_regex(source: &str) -> Regex {
    Regex::new(&translate(source))
        .unwrap_or_else(|_| Regex::new("$^").unwrap_or_else(|_| unreachable!()))
}

/// Rewrites the Perl classes and word boundaries to their ASCII (Go) meaning.
pub(crate) fn translate(p: &str) -> String {
    let mut out = String::with_capacity(p.len() + 16);
    let mut in_class = false;
    let mut chars = p.chars().peekable();
    let mut class_start = false;
    while let Some(c) = chars.next() {
        if c == '\\' {
            let Some(n) = chars.next() else {
                out.push('\\');
                break;
            };
            let rep = match (n, in_class) {
                ('d', false) => "[0-9]",
                ('D', false) => "[^0-9]",
                ('w', false) => "[0-9A-Za-z_]",
                ('W', false) => "[^0-9A-Za-z_]",
                ('s', false) => "[\\t\\n\\f\\r ]",
                ('S', false) => "[^\\t\\n\\f\\r ]",
                ('b', false) => "(?-u:\\b)",
                ('B', false) => "(?-u:\\B)",
                ('d', true) => "0-9",
                ('w', true) => "0-9A-Za-z_",
                ('s', true) => "\\t\\n\\f\\r ",
                ('D', true) => "[^0-9]",
                ('W', true) => "[^0-9A-Za-z_]",
                ('S', true) => "[^\\t\\n\\f\\r ]",
                _ => {
                    out.push('\\');
                    out.push(n);
                    class_start = false;
                    continue;
                }
            };
            out.push_str(rep);
            class_start = false;
            continue;
        }
        if in_class {
            if class_start {
                class_start = false;
                if c == ']' {
                    // `]` right after `[` or `[^` is a literal in Go.
                    out.push_str("\\]");
                    continue;
                }
            }
            match c {
                ']' => in_class = false,
                '[' if chars.peek() == Some(&':') => {
                    // POSIX class `[:alpha:]`: copy through its closing `:]`.
                    out.push(c);
                    for d in chars.by_ref() {
                        out.push(d);
                        if d == ']' {
                            break;
                        }
                    }
                    continue;
                }
                // Literals in Go; nested classes and set operators (`&&`, `~~`) in the regex crate.
                '[' | '&' | '~' => {
                    out.push('\\');
                }
                _ => {}
            }
            out.push(c);
            continue;
        }
        if c == '[' {
            in_class = true;
            class_start = true;
            out.push(c);
            if chars.peek() == Some(&'^') {
                out.push('^');
                chars.next();
            }
            continue;
        }
        out.push(c);
    }
    out
}

/// Go's `regexp.Compile` error text for the usual mistakes.
fn go_error(p: &str) -> String {
    let (code, expr) = classify(p);
    format!("error parsing regexp: {code}: `{expr}`")
}

fn classify(p: &str) -> (&'static str, String) {
    let b: Vec<char> = p.chars().collect();
    let mut depth = 0i32;
    let mut i = 0;
    let mut prev_atom = false;
    let mut prev_rep = false;
    while i < b.len() {
        let c = b[i];
        match c {
            '\\' => {
                if i + 1 == b.len() {
                    return ("trailing backslash at end of expression", String::new());
                }
                let n = b[i + 1];
                if n.is_ascii_alphanumeric() && !"dDwWsSbBAzpPnrtfvx0123456789Q".contains(n) {
                    return ("invalid escape sequence", format!("\\{n}"));
                }
                i += 2;
                prev_atom = true;
                prev_rep = false;
                continue;
            }
            '[' => {
                let start = i;
                let mut j = i + 1;
                if b.get(j) == Some(&'^') {
                    j += 1;
                }
                if b.get(j) == Some(&']') {
                    j += 1;
                }
                while j < b.len() && b[j] != ']' {
                    if b[j] == '\\' {
                        j += 1;
                    }
                    j += 1;
                }
                if j >= b.len() {
                    return ("missing closing ]", b[start..].iter().collect());
                }
                i = j + 1;
                prev_atom = true;
                prev_rep = false;
                continue;
            }
            '(' => {
                depth += 1;
                prev_atom = false;
                if b.get(i + 1) == Some(&'?') {
                    i += 1;
                }
            }
            ')' => {
                depth -= 1;
                if depth < 0 {
                    return ("unexpected )", p.to_owned());
                }
                prev_atom = true;
            }
            '|' => prev_atom = false,
            '*' | '+' | '?' | '{' => {
                let mut end = i + 1;
                if c == '{' {
                    match b[i..].iter().position(|&x| x == '}') {
                        Some(k)
                            if b[i + 1..i + k]
                                .iter()
                                .all(|x| x.is_ascii_digit() || *x == ',')
                                && k > 1 =>
                        {
                            end = i + k + 1
                        }
                        _ => {
                            prev_atom = true;
                            i += 1;
                            continue;
                        }
                    }
                }
                if b.get(end) == Some(&'?') {
                    end += 1;
                }
                let op: String = b[i..end].iter().collect();
                if prev_rep {
                    let mut j = i;
                    while j > 0 && "*+?}".contains(b[j - 1]) {
                        j -= 1;
                    }
                    return (
                        "invalid nested repetition operator",
                        b[j.saturating_sub(0)..end].iter().collect(),
                    );
                }
                if !prev_atom {
                    return ("missing argument to repetition operator", op);
                }
                prev_rep = true;
                i = end;
                continue;
            }
            _ => prev_atom = true,
        }
        prev_rep = false;
        i += 1;
    }
    if depth > 0 {
        return ("missing closing )", p.to_owned());
    }
    ("invalid or unsupported Perl syntax", p.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ascii_classes() {
        let re = compile_go_regexp(r"^\d+$").unwrap();
        assert!(re.is_match("123"));
        assert!(!re.is_match("١٢٣"));
        let re = compile_go_regexp(r"^[\w-]+$").unwrap();
        assert!(re.is_match("a_b-c"));
        assert!(!re.is_match("é"));
        let re = compile_go_regexp(r"^a\sb$").unwrap();
        assert!(!re.is_match("a\u{a0}b"));
        assert!(!re.is_match("a\u{b}b"));
        let re = compile_go_regexp(r"^[]a]+$").unwrap();
        assert!(re.is_match("]a"));
    }

    #[test]
    fn go_messages() {
        assert_eq!(
            compile_go_regexp("+").unwrap_err(),
            "error parsing regexp: missing argument to repetition operator: `+`"
        );
        assert_eq!(
            compile_go_regexp("(a").unwrap_err(),
            "error parsing regexp: missing closing ): `(a`"
        );
        assert_eq!(
            compile_go_regexp("a)").unwrap_err(),
            "error parsing regexp: unexpected ): `a)`"
        );
        assert_eq!(
            compile_go_regexp("[a").unwrap_err(),
            "error parsing regexp: missing closing ]: `[a`"
        );
        assert_eq!(
            compile_go_regexp("a**").unwrap_err(),
            "error parsing regexp: invalid nested repetition operator: `**`"
        );
    }
}
