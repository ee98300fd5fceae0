//! Request bodies as JSON values: JSON or YAML, with the keys given twice (the last value kept,
//! as sigs.k8s.io/json and sigs.k8s.io/yaml keep it) recorded for `fieldValidation`.
//!
//! Mirrors apimachinery `pkg/runtime/serializer/json/json.go` (`unmarshal` with strict errors:
//! `duplicate field "spec.replicas"`, reported, not fatal) for the shape of the result. The
//! nesting limit is serde_json's 128 levels for both formats (the API server's decoders go to
//! 10,000; the engine's algorithms recurse, and no manifest needs that much).
//!
//! The duplicate-recording decoder is `crdkit_apimachinery::strict`, which `crdgen`'s manifest
//! reader uses too.

use crdkit_apimachinery::strict::{Checked, YamlChecked};
use serde::Deserialize;
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
    let checked = Checked::deserialize(&mut de)
        .and_then(|c| de.end().map(|()| c))
        .map_err(|e| ApiError::bad_request(json_message(&e)))?;
    Ok(Decoded::from(checked))
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
    // YAML 1.1 as go-yaml v2 reads it: `010` is eight.
    options.legacy_octal_numbers = true;
    let docs: Vec<YamlChecked> =
        serde_saphyr::from_multiple_with_options(text, options).map_err(|e| {
            let msg = e.to_string();
            let first = msg
                .lines()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("invalid YAML");
            ApiError::bad_request(format!("error converting YAML to JSON: {}", first.trim()))
        })?;
    let mut docs = docs.into_iter().map(|d| d.0).filter(|d| !d.value.is_null());
    let first = docs.next().unwrap_or(Checked {
        value: Value::Null,
        duplicates: Vec::new(),
    });
    Ok(Decoded::from(first))
}

impl From<Checked> for Decoded {
    fn from(c: Checked) -> Decoded {
        Decoded {
            value: c.value,
            duplicates: c.duplicates.into_iter().map(|d| d.path).collect(),
        }
    }
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
        // As sigs.k8s.io/yaml turns YAML into JSON: YAML 1.1 keys and scalars, integral floats
        // written as integers.
        let d = yaml(b"on: 010\nspec: {replicas: 3.0, ratio: 0.5}\n").unwrap();
        assert_eq!(
            d.value,
            json!({"true": 8, "spec": {"replicas": 3, "ratio": 0.5}})
        );
        assert!(d.value["spec"]["replicas"].is_i64());
        assert_eq!(yaml(b"a: [").unwrap_err().code, 400);
        let deep = "a: ".to_owned() + &"[".repeat(5_000);
        assert_eq!(yaml(deep.as_bytes()).unwrap_err().code, 400);
    }
}
