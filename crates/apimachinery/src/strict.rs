//! Decoding JSON and YAML documents into `serde_json::Value` as the API server's strict decoder
//! sees them (apimachinery `pkg/runtime/serializer/json`, sigs.k8s.io/json): a key given twice
//! keeps its last value and is recorded with its path, for `fieldValidation` (`duplicate field
//! "spec.replicas"`), and numbers are kept as Go's decoder keeps them. Works with any serde
//! deserializer (serde_json, serde-saphyr), so `crdgen` and the local API server share it, as
//! they share the texts the API server reports strict decoding with ([`duplicate_field`],
//! [`unknown_field`], [`strict_decoding_error`], [`cannot_be_handled`]).

use std::fmt;

use serde_json::Value;

use crate::gofmt;

/// A key given twice, as the strict decoder reports it (sigs.k8s.io/json's `%q`):
/// `duplicate field "replicas"`.
#[must_use]
pub fn duplicate_field(field: &str) -> String {
    format!("duplicate field {}", gofmt::quote(field))
}

/// A field pruning dropped, as apiextensions' `customresource_handler.go` reports it to
/// `fieldValidation`: `unknown field "spec.someRandomField"`.
#[must_use]
pub fn unknown_field(path: &str) -> String {
    format!("unknown field {}", gofmt::quote(path))
}

/// apimachinery `runtime.NewStrictDecodingError(errors).Error()`: the messages joined with `, `.
///
/// ```
/// use crdkit_apimachinery::strict::{duplicate_field, strict_decoding_error, unknown_field};
/// let msgs = [duplicate_field("replicas"), unknown_field("spec.x\"y")];
/// assert_eq!(strict_decoding_error(&msgs),
///     r#"strict decoding error: duplicate field "replicas", unknown field "spec.x\"y""#);
/// ```
#[must_use]
pub fn strict_decoding_error(messages: &[String]) -> String {
    format!("strict decoding error: {}", messages.join(", "))
}

/// apiserver `endpoints/handlers/rest.go` `transformDecodeError`: a body that did not decode
/// into the kind of the request (`%v in version %q cannot be handled as a %v: %v`).
///
/// ```
/// use crdkit_apimachinery::strict::cannot_be_handled;
/// assert_eq!(cannot_be_handled("CronTab", "v1", "boom"),
///     r#"CronTab in version "v1" cannot be handled as a CronTab: boom"#);
/// ```
#[must_use]
pub fn cannot_be_handled(kind: &str, version: &str, error: &str) -> String {
    format!(
        "{kind} in version {} cannot be handled as a {kind}: {error}",
        gofmt::quote(version)
    )
}

/// A key given twice in a mapping.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Duplicate {
    /// Where, as the API server prints field paths (`spec.template.metadata.labels.app`).
    pub path: String,
    /// The key itself (`app`), as the API server's strict decoding names it.
    pub key: String,
}

/// A document as JSON, with the paths of the keys it gives twice (the last value kept).
#[derive(Clone, Debug, PartialEq)]
pub struct Checked {
    /// The document.
    pub value: Value,
    /// The keys given twice, in the order met (each path once).
    pub duplicates: Vec<Duplicate>,
}

impl<'de> serde_core::Deserialize<'de> for Checked {
    fn deserialize<D: serde_core::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Checked::read(d, false)
    }
}

impl Checked {
    fn read<'de, D: serde_core::Deserializer<'de>>(d: D, yaml: bool) -> Result<Self, D::Error> {
        let mut state = PathState {
            yaml,
            ..PathState::default()
        };
        let value = serde_core::de::DeserializeSeed::deserialize(ValueSeed(&mut state), d)?;
        Ok(Checked {
            value,
            duplicates: state.duplicates,
        })
    }
}

/// A [`Checked`] YAML document, its numbers as kubectl (and the API server's YAML decoder,
/// sigs.k8s.io/yaml) turn them into JSON: go-yaml reads `8.0` and `1e3` as floats, and Go's JSON
/// encoder writes an integral float below 1e21 without a fraction (`8`, `1000`), which the
/// API server then decodes as an integer when it fits in 64 bits.
pub struct YamlChecked(pub Checked);

impl<'de> serde_core::Deserialize<'de> for YamlChecked {
    fn deserialize<D: serde_core::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Checked::read(d, true).map(YamlChecked)
    }
}

/// Where [`ValueSeed`] is, and the duplicates found so far.
#[derive(Default)]
struct PathState {
    path: Vec<Segment>,
    duplicates: Vec<Duplicate>,
    /// Reading YAML: integral floats become integers (see [`YamlChecked`]).
    yaml: bool,
}

enum Segment {
    Key(String),
    Index(usize),
}

impl PathState {
    /// The current path with `key`, as the API server prints field paths (`spec.ports[0].name`).
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

/// Reads a mapping key as kubectl sends it: JSON keys as they are; a YAML key is resolved as
/// a YAML 1.1 scalar first (go-yaml v2) and then named as sigs.k8s.io/yaml names it
/// (`convertToJSONableMapKey`): `on:` and `y:` are `"true"`, `0x10:` is `"16"`, `1.50:` is
/// `"1.5"` (a float as a `float32`), quoted keys stay as written; never null, a list or a mapping.
pub struct KeySeed;

impl<'de> serde_core::de::DeserializeSeed<'de> for KeySeed {
    type Value = String;

    fn deserialize<D: serde_core::Deserializer<'de>>(self, d: D) -> Result<String, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> serde_core::de::Visitor<'de> for KeySeed {
    type Value = String;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a mapping key that is a string, number or boolean")
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
    fn visit_i128<E>(self, v: i128) -> Result<String, E> {
        Ok(v.to_string())
    }
    fn visit_u128<E>(self, v: u128) -> Result<String, E> {
        Ok(v.to_string())
    }
    fn visit_f64<E>(self, v: f64) -> Result<String, E> {
        Ok(match crate::gofmt::format_float32(v).as_str() {
            "+Inf" => ".inf".to_owned(),
            "-Inf" => "-.inf".to_owned(),
            "NaN" => ".nan".to_owned(),
            s => s.to_owned(),
        })
    }
    fn visit_bytes<E>(self, v: &[u8]) -> Result<String, E> {
        Ok(String::from_utf8_lossy(v).into_owned())
    }
    fn visit_unit<E: serde_core::de::Error>(self) -> Result<String, E> {
        Err(E::custom("a mapping key must not be null"))
    }
    fn visit_none<E: serde_core::de::Error>(self) -> Result<String, E> {
        self.visit_unit()
    }
    fn visit_seq<A: serde_core::de::SeqAccess<'de>>(self, _: A) -> Result<String, A::Error> {
        Err(serde_core::de::Error::custom(
            "a mapping key must be a string, number or boolean, not a list",
        ))
    }
    fn visit_map<A: serde_core::de::MapAccess<'de>>(self, _: A) -> Result<String, A::Error> {
        Err(serde_core::de::Error::custom(
            "a mapping key must be a string, number or boolean, not a mapping",
        ))
    }
}

/// Reads a value as `serde_json::Value` does, noting duplicate keys; numbers as the API server's
/// decoder keeps them: integers beyond 64 bits become floats, and NaN and infinities are errors.
struct ValueSeed<'a>(&'a mut PathState);

impl<'de> serde_core::de::DeserializeSeed<'de> for ValueSeed<'_> {
    type Value = Value;

    fn deserialize<D: serde_core::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> serde_core::de::Visitor<'de> for ValueSeed<'_> {
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
    fn visit_i128<E: serde_core::de::Error>(self, v: i128) -> Result<Value, E> {
        match i64::try_from(v) {
            Ok(i) => Ok(Value::from(i)),
            Err(_) => self.visit_f64(v as f64),
        }
    }
    fn visit_u128<E: serde_core::de::Error>(self, v: u128) -> Result<Value, E> {
        match u64::try_from(v) {
            Ok(u) => Ok(Value::from(u)),
            Err(_) => self.visit_f64(v as f64),
        }
    }
    fn visit_f64<E: serde_core::de::Error>(self, v: f64) -> Result<Value, E> {
        #[allow(clippy::cast_possible_truncation, clippy::cast_precision_loss)]
        if self.0.yaml
            && v.fract() == 0.0
            && v.abs() < 1e21
            && v >= i64::MIN as f64
            && v < i64::MAX as f64
        {
            return Ok(Value::from(v as i64));
        }
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
    // `!!binary` that is not UTF-8: Go's JSON encoder writes invalid bytes as U+FFFD.
    fn visit_bytes<E>(self, v: &[u8]) -> Result<Value, E> {
        Ok(Value::String(String::from_utf8_lossy(v).into_owned()))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_some<D: serde_core::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        serde_core::de::DeserializeSeed::deserialize(self, d)
    }
    fn visit_newtype_struct<D: serde_core::Deserializer<'de>>(
        self,
        d: D,
    ) -> Result<Value, D::Error> {
        serde_core::de::DeserializeSeed::deserialize(self, d)
    }

    fn visit_seq<A: serde_core::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
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

    fn visit_map<A: serde_core::de::MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = serde_json::Map::new();
        while let Some(key) = map.next_key_seed(KeySeed)? {
            // The key moves into the path and back, then into the map: copied only for a
            // duplicate (every key of every request body passes here).
            self.0.path.push(Segment::Key(key));
            let value = map.next_value_seed(ValueSeed(&mut *self.0));
            let key = match self.0.path.pop() {
                Some(Segment::Key(key)) => key,
                // What this loop pushed comes back: nothing else pops here.
                _ => String::new(),
            };
            let value = value?;
            match out.entry(key) {
                serde_json::map::Entry::Vacant(v) => {
                    v.insert(value);
                }
                serde_json::map::Entry::Occupied(mut o) => {
                    o.insert(value);
                    let key = o.key().clone();
                    let path = self.0.path_to(&key);
                    if !self.0.duplicates.iter().any(|d| d.path == path) {
                        self.0.duplicates.push(Duplicate { path, key });
                    }
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
    fn duplicates_keep_the_last_value_and_their_paths() {
        let c: Checked = serde_json::from_str(
            r#"{"a": 1, "spec": {"x": [{"k": 1, "k": 2}], "y": 1, "y": {"z": 3}}, "a": 2, "a": 3}"#,
        )
        .unwrap();
        assert_eq!(
            c.value,
            json!({"a": 3, "spec": {"x": [{"k": 2}], "y": {"z": 3}}})
        );
        let found: Vec<(&str, &str)> = c
            .duplicates
            .iter()
            .map(|d| (d.path.as_str(), d.key.as_str()))
            .collect();
        // In the order met, each path once.
        assert_eq!(found, [("spec.x[0].k", "k"), ("spec.y", "y"), ("a", "a")]);
        let c: Checked = serde_json::from_str(r#"{"a": {"b": 1}, "c": [1, {"d": 2}]}"#).unwrap();
        assert!(c.duplicates.is_empty());
        assert_eq!(c.value, json!({"a": {"b": 1}, "c": [1, {"d": 2}]}));
    }
}
