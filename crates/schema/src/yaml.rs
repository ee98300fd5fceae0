//! A small, deterministic YAML writer for JSON values.
//!
//! Output follows `kubectl get -o yaml` and controller-gen: keys in the map's order (sorted for
//! `serde_json::Map`), sequences in a mapping at the mapping's indentation, two spaces per level,
//! multi-line strings as literal blocks. Strings are quoted whenever a YAML 1.1 or 1.2 reader
//! could take them for anything but a string (`yes`, `1e3`, `null`, `- x`, ...).

use std::fmt::Write as _;

use serde_json::Value;

/// Writes `value` as one YAML document (no leading `---`), ending in a newline.
#[must_use]
pub fn to_string(value: &Value) -> String {
    let mut out = String::new();
    match value {
        Value::Object(m) if !m.is_empty() => write_map(&mut out, m, 0),
        Value::Array(a) if !a.is_empty() => write_seq(&mut out, a, 0),
        scalar => {
            write_scalar(&mut out, scalar, 0);
            out.push('\n');
        }
    }
    out
}

/// Writes several documents separated by `---`.
#[must_use]
pub fn to_string_multi<'a>(values: impl IntoIterator<Item = &'a Value>) -> String {
    let mut out = String::new();
    for (i, v) in values.into_iter().enumerate() {
        if i > 0 {
            out.push_str("---\n");
        }
        out.push_str(&to_string(v));
    }
    out
}

fn indent(out: &mut String, n: usize) {
    out.extend(std::iter::repeat_n(' ', n));
}

fn write_map(out: &mut String, m: &serde_json::Map<String, Value>, ind: usize) {
    for (i, (k, v)) in m.iter().enumerate() {
        if i > 0 {
            indent(out, ind);
        }
        write_string(out, k, ind, true);
        out.push(':');
        match v {
            Value::Object(m) if !m.is_empty() => {
                out.push('\n');
                indent(out, ind + 2);
                write_map(out, m, ind + 2);
            }
            Value::Array(a) if !a.is_empty() => {
                out.push('\n');
                indent(out, ind);
                write_seq(out, a, ind);
            }
            scalar => {
                out.push(' ');
                write_scalar(out, scalar, ind + 2);
                out.push('\n');
            }
        }
    }
}

fn write_seq(out: &mut String, a: &[Value], ind: usize) {
    for (i, v) in a.iter().enumerate() {
        if i > 0 {
            indent(out, ind);
        }
        out.push_str("- ");
        match v {
            Value::Object(m) if !m.is_empty() => write_map(out, m, ind + 2),
            Value::Array(a) if !a.is_empty() => write_seq(out, a, ind + 2),
            scalar => {
                write_scalar(out, scalar, ind + 2);
                out.push('\n');
            }
        }
    }
}

/// A scalar, or an empty collection, at `ind` (the indentation of block-string content).
fn write_scalar(out: &mut String, v: &Value, ind: usize) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => {
            let _ = write!(out, "{n}");
        }
        Value::String(s) => write_string(out, s, ind, false),
        Value::Array(_) => out.push_str("[]"),
        Value::Object(_) => out.push_str("{}"),
    }
}

fn write_string(out: &mut String, s: &str, ind: usize, is_key: bool) {
    if is_plain_safe(s) {
        out.push_str(s);
    } else if !is_key && can_block(s) {
        write_block(out, s, ind);
    } else if s.chars().all(|c| !c.is_control()) {
        out.push('\'');
        out.push_str(&s.replace('\'', "''"));
        out.push('\'');
    } else {
        write_double_quoted(out, s);
    }
}

/// Literal block (`|`) for multi-line text without characters a block cannot carry.
fn can_block(s: &str) -> bool {
    s.contains('\n')
        && !s.starts_with([' ', '\t', '\n'])
        && s.chars().all(|c| c == '\n' || !c.is_control())
        && !s.lines().any(|l| l.ends_with([' ', '\t']))
}

fn write_block(out: &mut String, s: &str, ind: usize) {
    let body = s.trim_end_matches('\n');
    let trailing = s.len() - body.len();
    out.push_str(match trailing {
        0 => "|-",
        1 => "|",
        _ => "|+",
    });
    for line in s
        .split('\n')
        .take(body.split('\n').count() + trailing.saturating_sub(1))
    {
        out.push('\n');
        if !line.is_empty() {
            indent(out, ind);
            out.push_str(line);
        }
    }
}

fn write_double_quoted(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Whether `s` reads back as this same string when written without quotes.
fn is_plain_safe(s: &str) -> bool {
    let Some(first) = s.chars().next() else {
        return false;
    };
    if s.starts_with(' ') || s.ends_with(' ') || s.ends_with(':') {
        return false;
    }
    if "?:,[]{}#&*!|>'\"%@`~".contains(first) {
        return false;
    }
    // `-` starts a sequence entry when a space or nothing follows.
    if first == '-' && s[1..].chars().next().is_none_or(|c| c == ' ') {
        return false;
    }
    if s.contains(": ") || s.contains(" #") || s.chars().any(|c| c.is_control() || c == '\u{feff}')
    {
        return false;
    }
    !is_yaml_keyword(s) && !looks_numeric(s)
}

/// Numbers, dates and times as YAML 1.1 or 1.2 may read them: `1e3`, `0x1F`, `1_000`, `.5`,
/// `2001-12-14`, `1:20`.
fn looks_numeric(s: &str) -> bool {
    let first = s.chars().next().unwrap_or(' ');
    (first.is_ascii_digit() || "+-.".contains(first))
        && s.chars().any(|c| c.is_ascii_digit())
        && s.chars()
            .all(|c| c.is_ascii_hexdigit() || "xXoO_.:+-".contains(c))
}

/// Words that YAML 1.1 or 1.2 resolve to null, booleans or special floats.
fn is_yaml_keyword(s: &str) -> bool {
    matches!(
        s.to_ascii_lowercase().as_str(),
        "null" | "true" | "false" | "yes" | "no" | "on" | "off" | "y" | "n" | "~" | ".inf" | ".nan"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn writes_nested_structures_kubectl_style() {
        let v = json!({"a": {"b": [1, {"c": "x", "d": []}], "e": {}}, "f": null});
        assert_eq!(
            to_string(&v),
            "a:\n  b:\n  - 1\n  - c: x\n    d: []\n  e: {}\nf: null\n"
        );
    }

    #[test]
    fn quotes_ambiguous_strings() {
        for s in [
            "yes",
            "No",
            "1",
            "1e3",
            "",
            " x",
            "a: b",
            "#c",
            "- x",
            "*",
            "null",
            "~",
            ".5",
            "2001-12-14",
            "1:20",
            "0x1F",
            "-1",
            "-",
        ] {
            let out = to_string(&json!({ "k": s }));
            assert!(
                out.starts_with("k: '") || out.starts_with("k: \""),
                "{s:?} -> {out}"
            );
        }
        assert_eq!(to_string(&json!({"k": "it's"})), "k: it's\n");
        assert_eq!(to_string(&json!({"k": ".spec.x"})), "k: .spec.x\n");
        assert_eq!(to_string(&json!({"k": "5 0 * * *"})), "k: 5 0 * * *\n");
        assert_eq!(to_string(&json!({"k": "-x"})), "k: -x\n");
        assert_eq!(to_string(&json!({"k": "'q"})), "k: '''q'\n");
        assert_eq!(to_string(&json!({"k": "a\u{1}"})), "k: \"a\\u0001\"\n");
    }

    #[test]
    fn multi_line_strings_become_literal_blocks() {
        let v = json!({"d": "line one\nline two", "e": "x\n\ny\n"});
        assert_eq!(
            to_string(&v),
            "d: |-\n  line one\n  line two\ne: |\n  x\n\n  y\n"
        );
    }
}
