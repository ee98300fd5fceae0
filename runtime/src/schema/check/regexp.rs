//! Go's `regexp.Compile` errors for `pattern`.

/// Compiles `pattern` as Go's `regexp.Compile` would, returning Go's error text
/// (`error parsing regexp: missing closing ): `(a``).
///
/// Validity is decided by the `regex` crate, whose syntax is close to RE2's; the message is Go's
/// for the common mistakes (unbalanced parentheses or brackets, a trailing backslash, a
/// repetition operator without argument) and the `regex` crate's first line otherwise.
pub(crate) fn compile_go_regexp(pattern: &str) -> Result<(), String> {
    let err = match regex::Regex::new(pattern) {
        Ok(_) => return Ok(()),
        Err(e) => e.to_string(),
    };
    let (code, expr) = go_regexp_error(pattern).unwrap_or_else(|| {
        let line = err
            .lines()
            .rev()
            .find(|l| l.starts_with("error:"))
            .unwrap_or("error: invalid regexp");
        (
            line.trim_start_matches("error:").trim().to_owned(),
            pattern.to_owned(),
        )
    });
    Err(format!("error parsing regexp: {code}: `{expr}`"))
}

/// Go's error code and offending expression for the mistakes it is easy to be exact about.
fn go_regexp_error(p: &str) -> Option<(String, String)> {
    let chars: Vec<(usize, char)> = p.char_indices().collect();
    let mut depth = 0usize;
    let mut i = 0;
    let mut prev_atom = false;
    while i < chars.len() {
        let (at, c) = chars[i];
        match c {
            '\\' => {
                if i + 1 == chars.len() {
                    return Some((
                        "trailing backslash at end of expression".into(),
                        String::new(),
                    ));
                }
                i += 1;
                prev_atom = true;
            }
            '[' => {
                // Skip to the closing bracket; `]` right after `[` or `[^` is a literal.
                let mut j = i + 1;
                if chars.get(j).is_some_and(|c| c.1 == '^') {
                    j += 1;
                }
                if chars.get(j).is_some_and(|c| c.1 == ']') {
                    j += 1;
                }
                while j < chars.len() && chars[j].1 != ']' {
                    if chars[j].1 == '\\' {
                        j += 1;
                    }
                    j += 1;
                }
                if j >= chars.len() {
                    return Some(("missing closing ]".into(), p[at..].to_owned()));
                }
                i = j;
                prev_atom = true;
            }
            '(' => {
                depth += 1;
                prev_atom = false;
            }
            ')' => {
                if depth == 0 {
                    return Some(("unexpected )".into(), p.to_owned()));
                }
                depth -= 1;
                prev_atom = true;
            }
            '|' => prev_atom = false,
            '*' | '+' | '?' => {
                if !prev_atom {
                    return Some((
                        "missing argument to repetition operator".into(),
                        c.to_string(),
                    ));
                }
            }
            _ => prev_atom = true,
        }
        i += 1;
    }
    (depth > 0).then(|| ("missing closing )".into(), p.to_owned()))
}
