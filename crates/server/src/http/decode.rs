//! Request bodies as JSON values: JSON or YAML, with the keys given twice (the last value kept,
//! as sigs.k8s.io/json and sigs.k8s.io/yaml keep it) recorded for `fieldValidation`.
//!
//! Mirrors apimachinery `pkg/runtime/serializer/json/json.go` (`unmarshal` with strict errors:
//! `duplicate field "spec.replicas"`, reported, not fatal) for the shape of the result. The
//! nesting limit is serde_json's 128 levels for both formats (the API server's decoders go to
//! 10,000; the engine's algorithms recurse, and no manifest needs that much).
//!
//! The duplicate-recording visitor is the one `crdgen`'s manifest reader has (runtime
//! `cli/load.rs`); it belongs in a shared crate once the runtime is split.

use std::fmt;

use serde::de::{DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

use super::status::ApiError;

/// The deepest nesting accepted.
pub const MAX_DEPTH: usize = 127;

/// A decoded body.
#[derive(Clone, Debug, PartialEq)]
pub struct Decoded {
    /// The value.
    pub value: Value,
    /// The paths of duplicate keys (`spec.replicas`).
    pub duplicates: Vec<String>,
}

/// Decodes JSON.
///
/// # Errors
/// 400 for malformed JSON, trailing data or too deep nesting.
pub fn json(bytes: &[u8]) -> Result<Decoded, ApiError> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let mut state = PathState::default();
    let value = ValueSeed(&mut state)
        .deserialize(&mut de)
        .and_then(|v| de.end().map(|()| v))
        .map_err(|e| ApiError::bad_request(json_message(&e)))?;
    Ok(Decoded {
        value,
        duplicates: state.duplicates,
    })
}

/// Decodes one YAML document (JSON is YAML).
///
/// # Errors
/// 400 for malformed YAML, several documents, or too deep nesting.
pub fn yaml(bytes: &[u8]) -> Result<Decoded, ApiError> {
    let text = std::str::from_utf8(bytes)
        .map_err(|e| ApiError::bad_request(format!("error converting YAML to JSON: {e}")))?;
    let mut budget = serde_saphyr::Budget::default();
    budget.max_depth = MAX_DEPTH;
    budget.flow_nesting_limit = MAX_DEPTH;
    let mut options = serde_saphyr::Options::default();
    options.budget = Some(budget);
    options.duplicate_keys = serde_saphyr::DuplicateKeyPolicy::PassThrough;
    let docs: Vec<Checked> =
        serde_saphyr::from_multiple_with_options(text, options).map_err(|e| {
            let msg = e.to_string();
            let first = msg
                .lines()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("invalid YAML");
            ApiError::bad_request(format!("error converting YAML to JSON: {}", first.trim()))
        })?;
    let mut docs = docs.into_iter().filter(|d| !d.value.is_null());
    let first = docs.next().unwrap_or(Checked {
        value: Value::Null,
        duplicates: Vec::new(),
    });
    Ok(Decoded {
        value: first.value,
        duplicates: first.duplicates,
    })
}

/// serde_json's message without its position, in the words of Go's decoder where they differ.
fn json_message(e: &serde_json::Error) -> String {
    let msg = e.to_string();
    let base = msg.rfind(" at line ").map_or(msg.as_str(), |i| &msg[..i]);
    if base == "recursion limit exceeded" {
        return format!("json: exceeded max depth of {MAX_DEPTH}");
    }
    format!(
        "json parse error: {base} (line {}, column {})",
        e.line(),
        e.column()
    )
}

struct Checked {
    value: Value,
    duplicates: Vec<String>,
}

impl<'de> serde::Deserialize<'de> for Checked {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let mut state = PathState::default();
        let value = ValueSeed(&mut state).deserialize(d)?;
        Ok(Checked {
            value,
            duplicates: state.duplicates,
        })
    }
}

#[derive(Default)]
struct PathState {
    path: Vec<Segment>,
    duplicates: Vec<String>,
}

enum Segment {
    Key(String),
    Index(usize),
}

impl PathState {
    /// `spec.ports[0].name`, as the API server prints field paths.
    fn path_to(&self, key: &str) -> String {
        let mut s = String::new();
        for seg in &self.path {
            match seg {
                Segment::Key(k) => {
                    if !s.is_empty() {
                        s.push('.');
                    }
                    s.push_str(k);
                }
                Segment::Index(i) => s.push_str(&format!("[{i}]")),
            }
        }
        if !s.is_empty() {
            s.push('.');
        }
        s.push_str(key);
        s
    }
}

/// A mapping key: a string, or a scalar written as text (YAML).
struct KeySeed;

impl<'de> DeserializeSeed<'de> for KeySeed {
    type Value = String;
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<String, D::Error> {
        d.deserialize_str(self)
    }
}

impl Visitor<'_> for KeySeed {
    type Value = String;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string key")
    }
    fn visit_str<E>(self, v: &str) -> Result<String, E> {
        Ok(v.to_owned())
    }
    fn visit_string<E>(self, v: String) -> Result<String, E> {
        Ok(v)
    }
    fn visit_bool<E>(self, v: bool) -> Result<String, E> {
        Ok(v.to_string())
    }
    fn visit_i64<E>(self, v: i64) -> Result<String, E> {
        Ok(v.to_string())
    }
    fn visit_u64<E>(self, v: u64) -> Result<String, E> {
        Ok(v.to_string())
    }
    fn visit_f64<E>(self, v: f64) -> Result<String, E> {
        Ok(v.to_string())
    }
    fn visit_unit<E: serde::de::Error>(self) -> Result<String, E> {
        Err(E::custom("a mapping key must not be null"))
    }
}

struct ValueSeed<'a>(&'a mut PathState);

impl<'de> DeserializeSeed<'de> for ValueSeed<'_> {
    type Value = Value;
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ValueSeed<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    #[allow(clippy::cast_precision_loss)]
    fn visit_i128<E: serde::de::Error>(self, v: i128) -> Result<Value, E> {
        match i64::try_from(v) {
            Ok(i) => Ok(Value::from(i)),
            Err(_) => self.visit_f64(v as f64),
        }
    }
    #[allow(clippy::cast_precision_loss)]
    fn visit_u128<E: serde::de::Error>(self, v: u128) -> Result<Value, E> {
        match u64::try_from(v) {
            Ok(u) => Ok(Value::from(u)),
            Err(_) => self.visit_f64(v as f64),
        }
    }
    fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Value, E> {
        serde_json::Number::from_f64(v)
            .map(Value::Number)
            .ok_or_else(|| E::custom(format!("{v}: JSON has no NaN or infinite numbers")))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_bytes<E>(self, v: &[u8]) -> Result<Value, E> {
        Ok(Value::String(String::from_utf8_lossy(v).into_owned()))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_some<D: serde::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        self.deserialize(d)
    }
    fn visit_newtype_struct<D: serde::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        self.deserialize(d)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1024));
        loop {
            self.0.path.push(Segment::Index(items.len()));
            let item = seq.next_element_seed(ValueSeed(&mut *self.0));
            self.0.path.pop();
            match item? {
                Some(v) => items.push(v),
                None => break,
            }
        }
        Ok(Value::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = serde_json::Map::new();
        while let Some(key) = map.next_key_seed(KeySeed)? {
            self.0.path.push(Segment::Key(key.clone()));
            let value = map.next_value_seed(ValueSeed(&mut *self.0));
            self.0.path.pop();
            let value = value?;
            if out.insert(key.clone(), value).is_some() {
                let path = self.0.path_to(&key);
                if !self.0.duplicates.contains(&path) {
                    self.0.duplicates.push(path);
                }
            }
        }
        Ok(Value::Object(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn json_with_duplicates() {
        let d = json(br#"{"spec": {"a": 1, "a": 2, "l": [{"x": 1, "x": 3}]}}"#).unwrap();
        assert_eq!(d.value, json!({"spec": {"a": 2, "l": [{"x": 3}]}}));
        assert_eq!(d.duplicates, ["spec.a", "spec.l[0].x"]);
    }

    #[test]
    fn malformed_and_deep_json_are_bad_requests() {
        assert_eq!(json(b"{").unwrap_err().code, 400);
        assert_eq!(json(b"{} x").unwrap_err().code, 400);
        let deep = "[".repeat(10_000) + &"]".repeat(10_000);
        let e = json(deep.as_bytes()).unwrap_err();
        assert_eq!(e.code, 400);
        assert!(e.message.contains("max depth"), "{}", e.message);
    }

    #[test]
    fn yaml_bodies() {
        let d = yaml(b"kind: CronTab\nspec:\n  a: 1\n  a: 2\n").unwrap();
        assert_eq!(d.value, json!({"kind": "CronTab", "spec": {"a": 2}}));
        assert_eq!(d.duplicates, ["spec.a"]);
        assert_eq!(yaml(b"a: [").unwrap_err().code, 400);
        let deep = "a: ".to_owned() + &"[".repeat(5_000);
        assert_eq!(yaml(deep.as_bytes()).unwrap_err().code, 400);
    }
}
