//! The nesting of JSON values, measured and handled without recursion: the one depth limit of
//! every object a request can produce, checked before anything recursive walks it.
//!
//! Mirrors the limit of Go's `encoding/json` and sigs.k8s.io/json (`scanner.go`:
//! `maxNestingDepth = 10000`, a `SyntaxError` `invalid character '{' exceeded max depth`),
//! which is what bounds the API server's objects: a body, a patch result, an apply result or a
//! conversion answer deeper than that does not decode. Below the limit, the server's own
//! recursive code (serde's, the engine's) runs on threads whose stack is sized for it
//! (`server::runtime`).
//!
//! Above the limit, values exist only inside a JSON patch being applied (a `copy` into itself
//! doubles the depth): [`clone`], [`dismantle`] and [`encoded_len`] work at any depth.

use serde_json::{Map, Value};

/// The deepest nesting of arrays and objects accepted (Go's `maxNestingDepth`).
pub const MAX_DEPTH: usize = 10_000;

/// The stack of the threads that handle requests (`server::runtime`): objects of
/// [`MAX_DEPTH`] levels pass through serde's and the engine's recursive code, a few KiB a level
/// in a debug build. Only the pages a request touches are ever committed.
pub const THREAD_STACK: usize = 256 << 20;

/// Runs `f` on a thread with the stack of the server's threads.
#[cfg(test)]
pub fn on_server_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(THREAD_STACK)
        .spawn(f)
        .expect("a thread")
        .join()
        .expect("no panic")
}

/// A value nested deeper than the limit: the opening character of the first container past it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooDeep(pub char);

impl std::fmt::Display for TooDeep {
    /// Go's scanner error: `invalid character '{' exceeded max depth`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "invalid character '{}' exceeded max depth", self.0)
    }
}

/// Checks that `v` nests at most `limit` arrays and objects (a scalar is depth 0, `{}` depth 1).
///
/// # Errors
/// [`TooDeep`] with the opener of the first container beyond `limit`.
pub fn check(v: &Value, limit: usize) -> Result<(), TooDeep> {
    let mut stack: Vec<(&Value, usize)> = vec![(v, 0)];
    while let Some((v, depth)) = stack.pop() {
        match v {
            Value::Array(_) | Value::Object(_) if depth >= limit => {
                return Err(TooDeep(if v.is_array() { '[' } else { '{' }));
            }
            Value::Array(a) => stack.extend(a.iter().map(|c| (c, depth + 1))),
            Value::Object(m) => stack.extend(m.values().map(|c| (c, depth + 1))),
            _ => {}
        }
    }
    Ok(())
}

/// Checks the nesting of JSON text before a recursive parser reads it: brackets outside
/// strings are counted, nothing else is validated (the parser reports malformed text).
///
/// # Errors
/// [`TooDeep`] with the bracket that goes past `limit`.
pub fn scan(text: &[u8], limit: usize) -> Result<(), TooDeep> {
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    for &b in text {
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > limit {
                    return Err(TooDeep(char::from(b)));
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Ok(())
}

/// The length of `v` encoded as Go's `json.Marshal` writes it (compact; `<`, `>`, `&`, U+2028
/// and U+2029 escaped as `\u00XX`), without building the text: what evanphx/json-patch charges
/// a `copy` (`deepCopy` marshals the value and counts its bytes).
#[must_use]
pub fn encoded_len(v: &Value) -> usize {
    let mut total = 0usize;
    let mut stack: Vec<&Value> = vec![v];
    while let Some(v) = stack.pop() {
        total = total.saturating_add(match v {
            Value::Null => 4,
            Value::Bool(true) => 4,
            Value::Bool(false) => 5,
            Value::Number(n) => n.to_string().len(),
            Value::String(s) => string_len(s),
            Value::Array(a) => {
                stack.extend(a.iter());
                // Brackets and the commas between items.
                2 + a.len().saturating_sub(1)
            }
            Value::Object(m) => {
                stack.extend(m.values());
                // Braces, commas, and each key with its colon.
                2 + m.len().saturating_sub(1) + m.keys().map(|k| string_len(k) + 1).sum::<usize>()
            }
        });
    }
    total
}

/// The length of a JSON string as Go's encoder escapes it, quotes included.
fn string_len(s: &str) -> usize {
    2 + s
        .chars()
        .map(|c| match c {
            '"' | '\\' | '\n' | '\r' | '\t' => 2,
            '<' | '>' | '&' | '\u{2028}' | '\u{2029}' => 6,
            c if (c as u32) < 0x20 => 6,
            c => c.len_utf8(),
        })
        .sum::<usize>()
}

/// A copy of `v`, made without recursion.
#[must_use]
pub fn clone(v: &Value) -> Value {
    enum Frame<'a> {
        Array(std::slice::Iter<'a, Value>, Vec<Value>),
        Object(serde_json::map::Iter<'a>, Map<String, Value>, String),
    }
    fn start(v: &Value) -> Result<Frame<'_>, Value> {
        match v {
            Value::Array(a) => Ok(Frame::Array(a.iter(), Vec::with_capacity(a.len()))),
            Value::Object(m) => Ok(Frame::Object(m.iter(), Map::new(), String::new())),
            scalar => Err(scalar.clone()),
        }
    }
    let mut stack = match start(v) {
        Ok(frame) => vec![frame],
        Err(scalar) => return scalar,
    };
    loop {
        let next = match stack.last_mut() {
            Some(Frame::Array(items, _)) => items.next(),
            Some(Frame::Object(entries, _, key)) => entries.next().map(|(k, v)| {
                key.clone_from(k);
                v
            }),
            None => unreachable!("the root frame returns below"),
        };
        let done = match next {
            Some(child) => match start(child) {
                Ok(frame) => {
                    stack.push(frame);
                    continue;
                }
                Err(scalar) => scalar,
            },
            None => match stack.pop() {
                Some(Frame::Array(_, items)) => Value::Array(items),
                Some(Frame::Object(_, map, _)) => Value::Object(map),
                None => unreachable!("popped only while frames remain"),
            },
        };
        match stack.last_mut() {
            Some(Frame::Array(_, items)) => items.push(done),
            Some(Frame::Object(_, map, key)) => {
                map.insert(std::mem::take(key), done);
            }
            None => return done,
        }
    }
}

/// `v` as compact JSON (serde_json's escaping), written without recursion.
#[must_use]
pub fn to_json(v: &Value) -> String {
    enum Step<'a> {
        Value(&'a Value),
        Text(&'static str),
        Key(&'a str),
    }
    let mut out = String::new();
    let mut stack = vec![Step::Value(v)];
    while let Some(step) = stack.pop() {
        match step {
            Step::Text(t) => out.push_str(t),
            Step::Key(k) => {
                out.push_str(&Value::from(k).to_string());
                out.push(':');
            }
            Step::Value(Value::Array(items)) => {
                out.push('[');
                stack.push(Step::Text("]"));
                for (i, item) in items.iter().enumerate().rev() {
                    stack.push(Step::Value(item));
                    if i > 0 {
                        stack.push(Step::Text(","));
                    }
                }
            }
            Step::Value(Value::Object(map)) => {
                out.push('{');
                stack.push(Step::Text("}"));
                let entries: Vec<_> = map.iter().collect();
                for (i, (k, v)) in entries.into_iter().enumerate().rev() {
                    stack.push(Step::Value(v));
                    stack.push(Step::Key(k));
                    if i > 0 {
                        stack.push(Step::Text(","));
                    }
                }
            }
            // Scalars do not recurse.
            Step::Value(scalar) => out.push_str(&scalar.to_string()),
        }
    }
    out
}

/// Drops `v` without recursion (serde_json's `Drop` recurses once per level).
pub fn dismantle(v: Value) {
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        match v {
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => stack.extend(map.into_iter().map(|(_, v)| v)),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// `{"a": {"a": … null}}`, `n` objects deep, built without recursion.
    fn nested(n: usize) -> Value {
        let mut v = Value::Null;
        for _ in 0..n {
            let mut m = Map::new();
            m.insert("a".to_owned(), v);
            v = Value::Object(m);
        }
        v
    }

    #[test]
    fn depth_is_go_s_nesting_count() {
        assert_eq!(check(&json!(1), 0), Ok(()));
        assert_eq!(check(&json!({}), 0), Err(TooDeep('{')));
        assert_eq!(check(&json!({"a": [1]}), 2), Ok(()));
        assert_eq!(check(&json!({"a": [1]}), 1), Err(TooDeep('[')));
        let deep = nested(MAX_DEPTH + 1);
        assert_eq!(check(&deep, MAX_DEPTH), Err(TooDeep('{')));
        assert_eq!(
            TooDeep('{').to_string(),
            "invalid character '{' exceeded max depth"
        );
        dismantle(deep);
    }

    #[test]
    fn scan_skips_strings() {
        assert_eq!(scan(br#"{"a": "[[[[{{"}"#, 1), Ok(()));
        assert_eq!(scan(br#"{"a": "\"[[", "b": [1]}"#, 1), Err(TooDeep('[')));
        assert_eq!(scan(b"[[]]", 2), Ok(()));
        assert_eq!(scan(b"[[[]]]", 2), Err(TooDeep('[')));
        // Unbalanced closers do not go below zero.
        assert_eq!(scan(b"]]]]{", 1), Ok(()));
    }

    #[test]
    fn encoded_len_is_the_marshalled_length() {
        for v in [
            json!(null),
            json!({"a": [1, 2.5, true, false, null], "b": {}, "c": []}),
            json!(["x\"y\\z\n\t", "é", -3, 1e300]),
            json!({"k\u{1}": "\u{7f}"}),
        ] {
            assert_eq!(
                encoded_len(&v),
                serde_json::to_vec(&v).unwrap().len(),
                "{v}"
            );
        }
        // Go escapes HTML characters and the line separators.
        assert_eq!(encoded_len(&json!("<&>")), 2 + 18);
        assert_eq!(encoded_len(&json!("\u{2028}")), 2 + 6);
    }

    #[test]
    fn clone_and_dismantle_at_any_depth() {
        // Far deeper than a 2 MiB stack survives with serde_json's recursive Clone and Drop.
        let v = nested(200_000);
        let c = clone(&v);
        assert_eq!(check(&c, 200_000), Ok(()));
        assert_eq!(check(&c, 199_999), Err(TooDeep('{')));
        dismantle(v);
        dismantle(c);
        let small = json!({"a": [1, {"b": "c\"<"}, []], "d": {"e": null}, "f": 1.5});
        assert_eq!(clone(&small), small);
        assert_eq!(to_json(&small), small.to_string());
        assert_eq!(to_json(&json!([])), "[]");
        let n = nested(100_000);
        assert!(to_json(&n).starts_with("{\"a\":{\"a\":"));
        dismantle(n);
        assert_eq!(clone(&json!(3)), json!(3));
    }
}
