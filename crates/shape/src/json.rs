//! JSON literals that fit in a `const`: defaults, enum values; and a view of a run-time
//! `serde_json::Value` in the same form ([`with_json`]), so the `const` checks of literal
//! defaults also check the defaults that functions compute when the CRD is built.

use serde_json::Value;

/// A JSON value as `'static` data: the form of literals in shapes.
pub type Json = JsonOf<'static>;

/// A JSON value borrowing its strings and children for `'a`: [`Json`] for literals in
/// `const`s, a borrowed view of a `serde_json::Value` at run time ([`with_json`]).
///
/// ```
/// use crdkit_shape::Json;
///
/// const PORT: Json = Json::Object(&[("name", Json::Str("http")), ("port", Json::Int(80))]);
/// assert_eq!(PORT.to_value(), serde_json::json!({"name": "http", "port": 80}));
/// assert_eq!(PORT.type_name(), "object");
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum JsonOf<'a> {
    /// `null`.
    Null,
    /// `true`, `false`.
    Bool(bool),
    /// Integers that fit in `i64`.
    Int(i64),
    /// Integers above `i64::MAX`.
    UInt(u64),
    /// Numbers with a fraction or an exponent (`1.5`, `1e3`).
    Float(f64),
    /// A string.
    Str(&'a str),
    /// An array of values.
    Array(&'a [JsonOf<'a>]),
    /// An object: `(key, value)` pairs in source order.
    Object(&'a [(&'a str, JsonOf<'a>)]),
}

impl JsonOf<'_> {
    /// The `serde_json` value.
    #[must_use]
    pub fn to_value(&self) -> Value {
        match *self {
            JsonOf::Null => Value::Null,
            JsonOf::Bool(b) => Value::Bool(b),
            JsonOf::Int(i) => Value::from(i),
            JsonOf::UInt(u) => Value::from(u),
            JsonOf::Float(f) => crdkit_schema::props::go_number(f),
            JsonOf::Str(s) => Value::from(s),
            JsonOf::Array(a) => Value::Array(a.iter().map(JsonOf::to_value).collect()),
            JsonOf::Object(o) => Value::Object(
                o.iter()
                    .map(|(k, v)| ((*k).to_owned(), v.to_value()))
                    .collect(),
            ),
        }
    }

    /// The JSON type's name as the API server's messages spell it.
    #[must_use]
    pub const fn type_name(&self) -> &'static str {
        match self {
            JsonOf::Null => "null",
            JsonOf::Bool(_) => "boolean",
            JsonOf::Int(_) | JsonOf::UInt(_) => "integer",
            JsonOf::Float(_) => "number",
            JsonOf::Str(_) => "string",
            JsonOf::Array(_) => "array",
            JsonOf::Object(_) => "object",
        }
    }

    /// The value as a float, for numbers.
    #[must_use]
    #[allow(clippy::cast_precision_loss)]
    pub const fn as_f64(&self) -> Option<f64> {
        match *self {
            JsonOf::Int(i) => Some(i as f64),
            JsonOf::UInt(u) => Some(u as f64),
            JsonOf::Float(f) => Some(f),
            _ => None,
        }
    }

    /// JSON equality, with `1 == 1.0` as Go's `reflect.DeepEqual` on unmarshalled values has it.
    #[must_use]
    pub const fn equals(&self, other: &JsonOf<'_>) -> bool {
        match (self, other) {
            (JsonOf::Null, JsonOf::Null) => true,
            (JsonOf::Bool(a), JsonOf::Bool(b)) => *a == *b,
            (JsonOf::Str(a), JsonOf::Str(b)) => super::msg::str_eq(a, b),
            (JsonOf::Array(a), JsonOf::Array(b)) => {
                if a.len() != b.len() {
                    return false;
                }
                let mut i = 0;
                while i < a.len() {
                    if !a[i].equals(&b[i]) {
                        return false;
                    }
                    i += 1;
                }
                true
            }
            (JsonOf::Object(a), JsonOf::Object(b)) => {
                if a.len() != b.len() {
                    return false;
                }
                let mut i = 0;
                while i < a.len() {
                    let mut found = false;
                    let mut j = 0;
                    while j < b.len() {
                        if super::msg::str_eq(a[i].0, b[j].0) && a[i].1.equals(&b[j].1) {
                            found = true;
                        }
                        j += 1;
                    }
                    if !found {
                        return false;
                    }
                    i += 1;
                }
                true
            }
            _ => match (self.as_f64(), other.as_f64()) {
                (Some(a), Some(b)) => a == b,
                _ => false,
            },
        }
    }
}

/// How deep a run-time value may nest to be viewed as [`JsonOf`]: far beyond any default.
pub const MAX_VIEW_DEPTH: usize = 64;

/// Calls `f` with `v` seen as a [`JsonOf`] that borrows from it (numbers as serde_json reads
/// them: `Int` when they fit `i64`, `UInt` above, `Float` otherwise); `None` when `v` nests
/// deeper than [`MAX_VIEW_DEPTH`].
///
/// The view's arrays and objects are slices, so each level is laid out in one vector that
/// the level above borrows: the levels are built deepest first, each in a call that lends
/// its vector to the next shallower one.
///
/// ```
/// use crdkit_shape::json::{JsonOf, with_json};
///
/// let v = serde_json::json!({"ports": [80, 443], "name": "web"});
/// let n = with_json(&v, |j| match j {
///     JsonOf::Object(entries) => entries.len(),
///     _ => 0,
/// });
/// assert_eq!(n, Some(2));
/// ```
pub fn with_json<R>(v: &Value, f: impl FnOnce(&JsonOf<'_>) -> R) -> Option<R> {
    // Breadth first: each level lists its nodes with their key when their parent is an
    // object, so every container's children are one run of the next level.
    let mut levels: Vec<Vec<(Option<&str>, &Value)>> = vec![vec![(None, v)]];
    loop {
        let next: Vec<(Option<&str>, &Value)> = levels[levels.len() - 1]
            .iter()
            .flat_map(
                |(_, v)| -> Box<dyn Iterator<Item = (Option<&str>, &Value)>> {
                    match v {
                        Value::Array(a) => Box::new(a.iter().map(|v| (None, v))),
                        Value::Object(o) => Box::new(o.iter().map(|(k, v)| (Some(k.as_str()), v))),
                        _ => Box::new(std::iter::empty()),
                    }
                },
            )
            .collect();
        if next.is_empty() {
            break;
        }
        if levels.len() > MAX_VIEW_DEPTH {
            return None;
        }
        levels.push(next);
    }
    let mut f = Some(f);
    Some(build_level(&levels, 0, &mut |items, _| {
        let f = f.take().expect("the root level is built once");
        f(&items[0])
    }))
}

type LevelFn<'f, R> = dyn FnMut(&[JsonOf<'_>], &[(&str, JsonOf<'_>)]) -> R + 'f;

/// Builds level `d` over the built level `d + 1`, then hands it to `k`: array children in
/// the first slice, object entries in the second.
fn build_level<R>(levels: &[Vec<(Option<&str>, &Value)>], d: usize, k: &mut LevelFn<'_, R>) -> R {
    if d == levels.len() {
        return k(&[], &[]);
    }
    build_level(levels, d + 1, &mut |items, entries| {
        let (mut i, mut e) = (0, 0);
        let mut my_items = Vec::new();
        let mut my_entries = Vec::new();
        for (key, v) in &levels[d] {
            let node = match v {
                Value::Null => JsonOf::Null,
                Value::Bool(b) => JsonOf::Bool(*b),
                Value::Number(n) => match (n.as_i64(), n.as_u64()) {
                    (Some(i), _) => JsonOf::Int(i),
                    (None, Some(u)) => JsonOf::UInt(u),
                    _ => JsonOf::Float(n.as_f64().unwrap_or_default()),
                },
                Value::String(s) => JsonOf::Str(s),
                Value::Array(a) => {
                    i += a.len();
                    JsonOf::Array(&items[i - a.len()..i])
                }
                Value::Object(o) => {
                    e += o.len();
                    JsonOf::Object(&entries[e - o.len()..e])
                }
            };
            match key {
                Some(key) => my_entries.push((*key, node)),
                None => my_items.push(node),
            }
        }
        k(&my_items, &my_entries)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn views_round_trip() {
        let v = serde_json::json!({
            "a": [1, -2, 18446744073709551615u64, 1.5, "x", null, true, [], {}],
            "b": {"c": {"d": [[[]]]}}, "e": "é"
        });
        assert_eq!(with_json(&v, |j| j.to_value()), Some(v.clone()));
        let deep = (0..=MAX_VIEW_DEPTH).fold(Value::Null, |v, _| Value::Array(vec![v]));
        assert_eq!(with_json(&deep, |_| ()), None);
    }
}
