//! JSON literals that fit in a `const`: defaults, enum values.

use serde_json::Value;

/// A JSON value as `'static` data.
///
/// ```
/// use crdkit_shape::Json;
///
/// const PORT: Json = Json::Object(&[("name", Json::Str("http")), ("port", Json::Int(80))]);
/// assert_eq!(PORT.to_value(), serde_json::json!({"name": "http", "port": 80}));
/// assert_eq!(PORT.type_name(), "object");
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Json {
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
    Str(&'static str),
    /// An array of values.
    Array(&'static [Json]),
    /// An object: `(key, value)` pairs in source order.
    Object(&'static [(&'static str, Json)]),
}

impl Json {
    /// The `serde_json` value.
    #[must_use]
    pub fn to_value(&self) -> Value {
        match *self {
            Json::Null => Value::Null,
            Json::Bool(b) => Value::Bool(b),
            Json::Int(i) => Value::from(i),
            Json::UInt(u) => Value::from(u),
            Json::Float(f) => crdkit_schema::props::go_number(f),
            Json::Str(s) => Value::from(s),
            Json::Array(a) => Value::Array(a.iter().map(Json::to_value).collect()),
            Json::Object(o) => Value::Object(
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
            Json::Null => "null",
            Json::Bool(_) => "boolean",
            Json::Int(_) | Json::UInt(_) => "integer",
            Json::Float(_) => "number",
            Json::Str(_) => "string",
            Json::Array(_) => "array",
            Json::Object(_) => "object",
        }
    }

    /// The value as a float, for numbers.
    #[must_use]
    #[allow(clippy::cast_precision_loss)]
    pub const fn as_f64(&self) -> Option<f64> {
        match *self {
            Json::Int(i) => Some(i as f64),
            Json::UInt(u) => Some(u as f64),
            Json::Float(f) => Some(f),
            _ => None,
        }
    }

    /// JSON equality, with `1 == 1.0` as Go's `reflect.DeepEqual` on unmarshalled values has it.
    #[must_use]
    pub const fn equals(&self, other: &Json) -> bool {
        match (self, other) {
            (Json::Null, Json::Null) => true,
            (Json::Bool(a), Json::Bool(b)) => *a == *b,
            (Json::Str(a), Json::Str(b)) => super::msg::str_eq(a, b),
            (Json::Array(a), Json::Array(b)) => {
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
            (Json::Object(a), Json::Object(b)) => {
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
