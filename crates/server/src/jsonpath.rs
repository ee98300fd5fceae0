//! The JSONPath subset printer columns use (`.status.conditions[?(@.type=="Ready")].status`).
//!
//! Mirrors client-go `util/jsonpath` (parser.go, jsonpath.go) as the table convertor uses it
//! with `AllowMissingKeys`: children, `['quoted']` keys, indexes (negative from the end), `[*]`
//! and `.*`, recursive descent `..`, and filters `[?(@.path op literal)]` (`==`, `!=`, `<`, `>`,
//! `<=`, `>=`) or `[?(@.path)]`. Anything else fails to parse and yields no value. Values print
//! as `PrintResults` does: strings as they are, numbers and booleans as Go prints them, objects
//! and arrays as compact JSON.

use serde_json::Value;

#[derive(Clone, Debug, PartialEq)]
enum Step {
    Child(String),
    Index(i64),
    Wildcard,
    Recursive(String),
    Filter(Filter),
}

#[derive(Clone, Debug, PartialEq)]
struct Filter {
    path: Vec<Step>,
    op: Option<(String, Value)>,
}

/// A compiled path.
#[derive(Clone, Debug, PartialEq)]
pub struct JsonPath {
    steps: Vec<Step>,
}

impl JsonPath {
    /// Parses `.a.b[0]`, with or without the `{…}` template braces.
    ///
    /// # Errors
    /// What the parser did not understand.
    pub fn parse(path: &str) -> Result<JsonPath, String> {
        let p = path.trim();
        let p = p
            .strip_prefix('{')
            .and_then(|p| p.strip_suffix('}'))
            .unwrap_or(p);
        Ok(JsonPath {
            steps: steps(p.trim())?,
        })
    }

    /// Every value the path selects in `obj`, in document order.
    #[must_use]
    pub fn find<'a>(&self, obj: &'a Value) -> Vec<&'a Value> {
        walk(&self.steps, vec![obj])
    }
}

fn steps(s: &str) -> Result<Vec<Step>, String> {
    let chars: Vec<char> = s.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let ident_end = |mut j: usize| {
        while j < chars.len() && !matches!(chars[j], '.' | '[') {
            j += 1;
        }
        j
    };
    while i < chars.len() {
        match chars[i] {
            '$' if i == 0 => i += 1,
            '@' if i == 0 => i += 1,
            '.' if chars.get(i + 1) == Some(&'.') => {
                let end = ident_end(i + 2);
                let name: String = chars[i + 2..end].iter().collect();
                if name.is_empty() {
                    return Err(format!("unexpected end after .. in {s}"));
                }
                out.push(Step::Recursive(name));
                i = end;
            }
            '.' => {
                let end = ident_end(i + 1);
                let name: String = chars[i + 1..end].iter().collect();
                match name.as_str() {
                    "" => {}
                    "*" => out.push(Step::Wildcard),
                    _ => out.push(Step::Child(name)),
                }
                i = end;
            }
            '[' => {
                let close =
                    matching_bracket(&chars, i).ok_or_else(|| format!("unclosed [ in {s}"))?;
                let inner: String = chars[i + 1..close].iter().collect();
                out.push(bracket(inner.trim())?);
                i = close + 1;
            }
            c => return Err(format!("unrecognized character {c:?} in {s}")),
        }
    }
    Ok(out)
}

fn matching_bracket(chars: &[char], open: usize) -> Option<usize> {
    let mut depth = 0;
    let mut quote: Option<char> = None;
    for (j, &c) in chars.iter().enumerate().skip(open) {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(c),
            (None, '[') => depth += 1,
            (None, ']') => {
                depth -= 1;
                if depth == 0 {
                    return Some(j);
                }
            }
            _ => {}
        }
    }
    None
}

fn bracket(inner: &str) -> Result<Step, String> {
    if inner == "*" {
        return Ok(Step::Wildcard);
    }
    if let Some(q) = inner
        .strip_prefix('\'')
        .and_then(|s| s.strip_suffix('\''))
        .or_else(|| inner.strip_prefix('"').and_then(|s| s.strip_suffix('"')))
    {
        return Ok(Step::Child(q.to_owned()));
    }
    if let Ok(n) = inner.parse::<i64>() {
        return Ok(Step::Index(n));
    }
    if let Some(f) = inner.strip_prefix("?(").and_then(|s| s.strip_suffix(')')) {
        return filter(f.trim()).map(Step::Filter);
    }
    Err(format!("unsupported subscript [{inner}]"))
}

fn filter(f: &str) -> Result<Filter, String> {
    for op in ["==", "!=", "<=", ">=", "<", ">"] {
        if let Some((lhs, rhs)) = split_outside_quotes(f, op) {
            let path = steps(lhs.trim())?;
            let rhs = rhs.trim();
            let lit = if let Some(s) = rhs
                .strip_prefix('"')
                .and_then(|s| s.strip_suffix('"'))
                .or_else(|| rhs.strip_prefix('\'').and_then(|s| s.strip_suffix('\'')))
            {
                Value::String(s.to_owned())
            } else if let Ok(n) = rhs.parse::<f64>() {
                serde_json::Number::from_f64(n).map_or(Value::Null, Value::Number)
            } else if rhs == "true" || rhs == "false" {
                Value::Bool(rhs == "true")
            } else {
                return Err(format!("unsupported filter literal {rhs}"));
            };
            return Ok(Filter {
                path,
                op: Some((op.to_owned(), lit)),
            });
        }
    }
    Ok(Filter {
        path: steps(f)?,
        op: None,
    })
}

fn split_outside_quotes<'a>(s: &'a str, op: &str) -> Option<(&'a str, &'a str)> {
    let mut quote: Option<char> = None;
    for (i, c) in s.char_indices() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '"' || c == '\'' => quote = Some(c),
            None if s[i..].starts_with(op) => return Some((&s[..i], &s[i + op.len()..])),
            None => {}
        }
    }
    None
}

fn walk<'a>(steps: &[Step], mut cur: Vec<&'a Value>) -> Vec<&'a Value> {
    for step in steps {
        let mut next = Vec::new();
        for v in cur {
            match step {
                Step::Child(name) => {
                    if let Some(c) = v.get(name) {
                        next.push(c);
                    }
                }
                Step::Index(n) => {
                    if let Value::Array(a) = v {
                        let len = i64::try_from(a.len()).unwrap_or(i64::MAX);
                        let i = if *n < 0 { len + n } else { *n };
                        if let Some(c) = usize::try_from(i).ok().and_then(|i| a.get(i)) {
                            next.push(c);
                        }
                    }
                }
                Step::Wildcard => match v {
                    Value::Array(a) => next.extend(a.iter()),
                    Value::Object(m) => next.extend(m.values()),
                    _ => {}
                },
                Step::Recursive(name) => recursive(v, name, &mut next, 0),
                Step::Filter(f) => {
                    let items: Vec<&Value> = match v {
                        Value::Array(a) => a.iter().collect(),
                        Value::Object(m) => m.values().collect(),
                        _ => Vec::new(),
                    };
                    next.extend(items.into_iter().filter(|item| matches(f, item)));
                }
            }
        }
        cur = next;
    }
    cur
}

fn recursive<'a>(v: &'a Value, name: &str, out: &mut Vec<&'a Value>, depth: usize) {
    if depth > 128 {
        return;
    }
    match v {
        Value::Object(m) => {
            if let Some(c) = m.get(name) {
                out.push(c);
            }
            for c in m.values() {
                recursive(c, name, out, depth + 1);
            }
        }
        Value::Array(a) => {
            for c in a {
                recursive(c, name, out, depth + 1);
            }
        }
        _ => {}
    }
}

fn matches(f: &Filter, item: &Value) -> bool {
    let found = walk(&f.path, vec![item]);
    let Some((op, lit)) = &f.op else {
        return !found.is_empty();
    };
    let Some(v) = found.first() else {
        return false;
    };
    match (v, lit) {
        (Value::String(a), Value::String(b)) => compare(op, a.cmp(b)),
        (Value::Number(a), Value::Number(b)) => match (a.as_f64(), b.as_f64()) {
            (Some(a), Some(b)) => a.partial_cmp(&b).is_some_and(|o| compare(op, o)),
            _ => false,
        },
        (Value::Bool(a), Value::Bool(b)) => compare(op, a.cmp(b)),
        _ => op == "!=",
    }
}

fn compare(op: &str, o: std::cmp::Ordering) -> bool {
    use std::cmp::Ordering::{Equal, Greater, Less};
    match op {
        "==" => o == Equal,
        "!=" => o != Equal,
        "<" => o == Less,
        ">" => o == Greater,
        "<=" => o != Greater,
        ">=" => o != Less,
        _ => false,
    }
}

/// A value as `PrintResults` writes it.
#[must_use]
pub fn print(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Number(n) => go_number(n),
        Value::Bool(b) => b.to_string(),
        Value::Null => "<nil>".to_owned(),
        Value::Array(_) | Value::Object(_) => serde_json::to_string(v).unwrap_or_default(),
    }
}

/// Go's `%v` of a JSON number decoded as `int64` or `float64`.
#[must_use]
pub fn go_number(n: &serde_json::Number) -> String {
    if let Some(i) = n.as_i64() {
        return i.to_string();
    }
    if let Some(u) = n.as_u64() {
        return u.to_string();
    }
    let f = n.as_f64().unwrap_or(0.0);
    // %v of a float64 is %g with the shortest representation: exponent form from 1e21 up and
    // below 1e-4.
    let abs = f.abs();
    if abs != 0.0 && !(1e-4..1e21).contains(&abs) {
        let s = format!("{f:e}");
        // Rust writes `1e21`, Go `1e+21`.
        match s.split_once('e') {
            Some((m, e)) if !e.starts_with('-') => format!("{m}e+{e:0>2}"),
            Some((m, e)) => format!("{m}e-{:0>2}", &e[1..]),
            None => s,
        }
    } else {
        format!("{f}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn find(path: &str, obj: &Value) -> Vec<Value> {
        JsonPath::parse(path)
            .unwrap()
            .find(obj)
            .into_iter()
            .cloned()
            .collect()
    }

    #[test]
    fn paths_printer_columns_use() {
        let obj = json!({"spec": {"cronSpec": "* * * * */5", "replicas": 3, "m": {"a.b": 1}},
            "status": {"conditions": [{"type": "Ready", "status": "True"}, {"type": "Synced", "status": "False"}]},
            "list": [1, 2, 3]});
        assert_eq!(find(".spec.cronSpec", &obj), [json!("* * * * */5")]);
        assert_eq!(find("{.spec.replicas}", &obj), [json!(3)]);
        assert_eq!(find(".spec.m['a.b']", &obj), [json!(1)]);
        assert_eq!(
            find(".status.conditions[?(@.type==\"Ready\")].status", &obj),
            [json!("True")]
        );
        assert_eq!(
            find(".status.conditions[?(@.type!='Ready')].type", &obj),
            [json!("Synced")]
        );
        assert_eq!(find(".list[-1]", &obj), [json!(3)]);
        assert_eq!(find(".list[*]", &obj).len(), 3);
        assert_eq!(find("..status", &obj).len(), 3);
        assert!(find(".spec.missing.deeper", &obj).is_empty());
        assert!(JsonPath::parse(".a[1:2]").is_err());
    }

    #[test]
    fn printing() {
        assert_eq!(print(&json!("x")), "x");
        assert_eq!(print(&json!(3)), "3");
        assert_eq!(print(&json!(1.5)), "1.5");
        assert_eq!(print(&json!(1e21)), "1e+21");
        assert_eq!(print(&json!({"a": [1]})), "{\"a\":[1]}");
    }
}
