//! Attribute contents (`crd(max_length = 5, items(pattern = ".."))`) as a tree, written as
//! rustfmt writes them, so that the generated code is already formatted: a list goes on one
//! line when it fits (100 columns, and at most 70 for the arguments of a list of several), a
//! list of one list opens both on one line (`#[crd(items(`), others put one item per line.
//! Also the literals: Rust strings, numbers, and JSON values in crdkit's literal syntax.

use serde_json::Value;

/// rustfmt's `max_width`.
pub(crate) const MAX_WIDTH: usize = 100;
/// rustfmt's `attr_fn_like_width` (small heuristics `Default`): the widest argument list of an
/// attribute's list that stays on one line.
const ATTR_ARGS_WIDTH: usize = 70;

/// One item of an attribute.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Meta {
    /// `namespaced`
    Path(String),
    /// `max_length = 5`; the value already written as Rust.
    Value(String, String),
    /// `items(..)`
    List(String, Vec<Meta>),
    /// A literal inside a list: `"a"` in `enum("a", "b")`.
    Lit(String),
}

impl Meta {
    /// `key = "text"`
    pub(crate) fn str(key: &str, text: &str) -> Meta {
        Meta::Value(key.to_owned(), string_lit(text))
    }

    /// `key = <raw>`
    pub(crate) fn raw(key: &str, raw: impl Into<String>) -> Meta {
        Meta::Value(key.to_owned(), raw.into())
    }

    /// `key`
    pub(crate) fn flag(key: &str) -> Meta {
        Meta::Path(key.to_owned())
    }

    /// `key("a", "b")`
    pub(crate) fn strings(key: &str, items: &[String]) -> Meta {
        Meta::List(
            key.to_owned(),
            items.iter().map(|s| Meta::Lit(string_lit(s))).collect(),
        )
    }

    fn flat(&self) -> String {
        match self {
            Meta::Path(p) | Meta::Lit(p) => p.clone(),
            Meta::Value(k, v) => format!("{k} = {v}"),
            Meta::List(k, items) => format!("{k}({})", flat_args(items)),
        }
    }

    /// Whether rustfmt reads the item as a meta item (and so formats the attribute): JSON
    /// objects and arrays are expressions it leaves as written.
    fn formattable(&self) -> bool {
        match self {
            Meta::Path(_) | Meta::Lit(_) => true,
            Meta::Value(_, v) => !v.starts_with(['{', '[']),
            Meta::List(_, items) => items.iter().all(Meta::formattable),
        }
    }
}

/// Whether rustfmt keeps `m` on one line, width aside: lists of several items have at most
/// [`ATTR_ARGS_WIDTH`] of arguments, at every depth.
fn one_line(m: &Meta) -> bool {
    match m {
        Meta::List(_, items) => {
            (items.len() < 2 || flat_args(items).len() <= ATTR_ARGS_WIDTH)
                && items.iter().all(one_line)
        }
        _ => true,
    }
}

fn flat_args(items: &[Meta]) -> String {
    items.iter().map(Meta::flat).collect::<Vec<_>>().join(", ")
}

/// `#[name(items)]` at `indent` spaces, as lines (without newlines).
pub(crate) fn attribute(name: &str, items: &[Meta], indent: usize) -> Vec<String> {
    let list = Meta::List(name.to_owned(), items.to_vec());
    let pad = " ".repeat(indent);
    if !list.formattable() {
        // rustfmt leaves the attribute as it is.
        return vec![format!("{pad}#[{}]", list.flat())];
    }
    let mut out = Vec::new();
    item(&list, indent, &format!("{pad}#["), "]", 0, &mut out);
    out
}

/// Writes `m` with `first` before it on its first line and `last` after it on its last line;
/// `reserve`: the width kept free after it for a comma (rustfmt counts one after every item of a
/// vertical list, the last too).
fn item(m: &Meta, indent: usize, first: &str, last: &str, reserve: usize, out: &mut Vec<String>) {
    let flat = m.flat();
    let Meta::List(key, items) = m else {
        out.push(format!("{first}{flat}{last}"));
        return;
    };
    let line = format!("{first}{flat}{}", last.trim_end_matches(','));
    // Inside a vertical list rustfmt wants one more column for every list closing at the end
    // of the line (measured: `items(validation(..))` breaks at 98 columns, a list of three
    // at 97).
    let closing = line.len() - line.trim_end_matches(')').len();
    let room = if reserve == 0 { 0 } else { reserve + closing };
    let fits = line.len() + room <= MAX_WIDTH;
    let args_fit = items.len() < 2 || flat_args(items).len() <= ATTR_ARGS_WIDTH;
    if fits && args_fit && items.iter().all(one_line) {
        out.push(format!("{first}{flat}{last}"));
        return;
    }
    if let [only @ Meta::List(..)] = items.as_slice() {
        // A list of one list: both open on this line (`#[crd(items(`).
        item(
            only,
            indent,
            &format!("{first}{key}("),
            &format!("){last}"),
            reserve,
            out,
        );
        return;
    }
    out.push(format!("{first}{key}("));
    let pad = " ".repeat(indent + 4);
    for (i, it) in items.iter().enumerate() {
        let comma = if i + 1 < items.len() { "," } else { "" };
        item(it, indent + 4, &pad, comma, 1, out);
    }
    out.push(format!("{}){last}", " ".repeat(indent)));
}

/// A Rust string literal: plain when it needs no escapes but `"` and `\`, raw (`r#"..."#`) when
/// that reads better, escaped otherwise.
#[must_use]
pub(crate) fn string_lit(s: &str) -> String {
    let needs_escape = s.chars().any(|c| c.is_control() && c != '\n');
    let quotes_or_backslashes = s.contains(['"', '\\']);
    if quotes_or_backslashes && !needs_escape && !s.contains('\n') {
        let mut hashes = String::from("#");
        while s.contains(&format!("\"{hashes}")) {
            hashes.push('#');
        }
        return format!("r{hashes}\"{s}\"{hashes}");
    }
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A number as a Rust literal the derive reads back to the same `f64` (`10`, `0.5`, `-1e30`).
#[must_use]
#[allow(clippy::cast_possible_truncation, clippy::cast_precision_loss)]
pub(crate) fn number_lit(f: f64) -> String {
    if f.fract() == 0.0 && f.abs() < 9.007_199_254_740_992e15 {
        format!("{}", f as i64)
    } else {
        let s = format!("{f:?}");
        if s.contains(['.', 'e']) {
            s
        } else {
            format!("{s}.0")
        }
    }
}

/// A JSON value in crdkit's literal syntax (`{"a": [1, "x", null]}`), on one line.
#[must_use]
pub(crate) fn json_lit(v: &Value) -> String {
    match v {
        Value::Null => "null".to_owned(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => {
            let s = n.to_string();
            // serde_json writes `1e30` as `1e30`, which is a float literal in Rust too.
            if n.is_f64() && !s.contains(['.', 'e', 'E']) {
                format!("{s}.0")
            } else {
                s
            }
        }
        Value::String(s) => string_lit(s),
        Value::Array(a) => format!(
            "[{}]",
            a.iter().map(json_lit).collect::<Vec<_>>().join(", ")
        ),
        Value::Object(o) => format!(
            "{{{}}}",
            o.iter()
                .map(|(k, v)| format!("{}: {}", string_lit(k), json_lit(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(items: &[Meta]) -> String {
        attribute("crd", items, 4).join("\n")
    }

    #[test]
    fn short_lists_stay_on_one_line() {
        assert_eq!(
            lines(&[Meta::raw("max_length", "5"), Meta::str("pattern", "^a$")]),
            r#"    #[crd(max_length = 5, pattern = "^a$")]"#
        );
    }

    #[test]
    fn long_lists_break_as_rustfmt_does() {
        let long = "x".repeat(70);
        let rule = Meta::List(
            "validation".into(),
            vec![Meta::str("rule", &long), Meta::str("message", "m")],
        );
        assert_eq!(
            lines(std::slice::from_ref(&rule)),
            format!(
                "    #[crd(validation(\n        rule = \"{long}\",\n        message = \"m\"\n    ))]"
            )
        );
        assert_eq!(
            lines(&[rule, Meta::raw("max_items", "1")]),
            format!(
                "    #[crd(\n        validation(\n            rule = \"{long}\",\n            message = \"m\"\n        ),\n        max_items = 1\n    )]"
            )
        );
        // One long value alone goes on a line of its own.
        let long = "y".repeat(95);
        assert_eq!(
            lines(&[Meta::str("pattern", &long)]),
            format!("    #[crd(\n        pattern = \"{long}\"\n    )]")
        );
    }

    #[test]
    fn literals() {
        assert_eq!(string_lit("a\"b"), "r#\"a\"b\"#");
        assert_eq!(string_lit("a\nb"), "\"a\\nb\"");
        assert_eq!(string_lit(r"^\d+$"), r###"r#"^\d+$"#"###);
        assert_eq!(string_lit("\"#"), "r##\"\"#\"##");
        assert_eq!(number_lit(10.0), "10");
        assert_eq!(number_lit(0.5), "0.5");
        assert_eq!(number_lit(1e30), "1e30");
        assert_eq!(
            json_lit(&serde_json::json!({"a": [1, "x", null, 1.5]})),
            r#"{"a": [1, "x", null, 1.5]}"#
        );
    }
}
