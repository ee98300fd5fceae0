//! Request bodies as JSON values: JSON or YAML, with the keys given twice (the last value kept,
//! as sigs.k8s.io/json and sigs.k8s.io/yaml keep it) recorded for `fieldValidation`.
//!
//! Mirrors apimachinery `pkg/runtime/serializer/json/json.go` (`unmarshal` with strict errors:
//! `duplicate field "spec.replicas"`, reported, not fatal) for the shape of the result. The
//! nesting limit is the API server's, [`MAX_DEPTH`] levels for both formats: JSON text is
//! scanned for it before serde's recursive parser runs (with serde_json's own limit of 128
//! lifted), YAML is bounded by serde-saphyr's budget, aliases counted as they expand.
//!
//! The duplicate-recording decoder is `crdkit_apimachinery::strict`, which `crdgen`'s manifest
//! reader uses too.

use crdkit_apimachinery::gojson;
use crdkit_apimachinery::strict::{Checked, YamlChecked};
use serde::Deserialize;
use serde_json::Value;

use super::status::ApiError;

pub use crate::deep::MAX_DEPTH;

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
    crate::deep::scan(bytes, MAX_DEPTH)
        .map_err(|e| ApiError::bad_request(format!("json parse error: {e}")))?;
    let checked = go_strings(bytes, |bytes| {
        let mut de = serde_json::Deserializer::from_slice(bytes);
        de.disable_recursion_limit();
        Checked::deserialize(&mut de).and_then(|c| de.end().map(|()| c))
    })
    .map_err(|e| ApiError::bad_request(json_message(&e)))?;
    Ok(Decoded::from(checked))
}

/// `parse` of the text, or, when serde_json refused it for a string Go reads with U+FFFD in it,
/// of the text with those replaced (`crdkit_apimachinery::gojson`).
fn go_strings<T>(
    bytes: &[u8],
    parse: impl Fn(&[u8]) -> serde_json::Result<T>,
) -> serde_json::Result<T> {
    parse(bytes).or_else(|e| {
        match gojson::refused_for_unicode(&e)
            .then(|| gojson::replace_invalid(bytes))
            .flatten()
        {
            Some(fixed) => parse(&fixed),
            None => Err(e),
        }
    })
}

/// Decodes JSON into a value: [`json`] without the record of duplicates (a stored object, a
/// webhook's answer).
///
/// # Errors
/// The parser's message, or [`crate::deep::TooDeep`]'s.
pub fn json_value(bytes: &[u8]) -> Result<Value, String> {
    crate::deep::scan(bytes, MAX_DEPTH).map_err(|e| e.to_string())?;
    go_strings(bytes, |bytes| {
        let mut de = serde_json::Deserializer::from_slice(bytes);
        de.disable_recursion_limit();
        Value::deserialize(&mut de).and_then(|v| de.end().map(|()| v))
    })
    .map_err(|e| e.to_string())
}

/// Decodes one YAML document (JSON is YAML) of at most `max_bytes`, which also bounds what its
/// aliases expand to.
///
/// # Errors
/// 400 for malformed YAML, several documents, too deep nesting, or aliases expanding past the
/// size of the largest body.
pub fn yaml(bytes: &[u8], max_bytes: usize) -> Result<Decoded, ApiError> {
    let text = std::str::from_utf8(bytes)
        .map_err(|e| ApiError::bad_request(format!("error converting YAML to JSON: {e}")))?;
    let mut options = budgeted(max_bytes);
    options.duplicate_keys = serde_saphyr::DuplicateKeyPolicy::PassThrough;
    // YAML 1.1 as go-yaml v2 reads it: `010` is eight.
    options.legacy_octal_numbers = true;
    let docs: Vec<YamlChecked> =
        serde_saphyr::from_multiple_with_options(text, options).map_err(|e| {
            ApiError::bad_request(format!("error converting YAML to JSON: {}", yaml_error(&e)))
        })?;
    let mut docs = docs.into_iter().map(|d| d.0).filter(|d| !d.value.is_null());
    let first = docs.next().unwrap_or(Checked {
        value: Value::Null,
        duplicates: Vec::new(),
    });
    Ok(Decoded::from(first))
}

/// A YAML error as go-yaml words the limits it shares (`crdkit_apply::yaml_error`).
pub fn yaml_error(e: &serde_saphyr::Error) -> String {
    crdkit_apply::request::yaml_error(e, Some(MAX_DEPTH))
}

/// YAML reader options bounded for a body of at most `max_bytes` (see [`yaml_budget`]); the
/// reader of apply bodies takes them too.
#[must_use]
pub fn budgeted(max_bytes: usize) -> serde_saphyr::Options {
    let mut options = serde_saphyr::Options::default();
    options.budget = Some(yaml_budget(max_bytes));
    // Replayed aliases are charged to the budget too, and their number is capped: a plain
    // document replays nothing, and go-yaml v2 (`allowedAliasRatio` in decode.go) refuses a
    // document made mostly of aliases once it has decoded about 400,000 nodes. A cap as
    // large as the body (3 Mi events) let a 400-byte "billion laughs" cost seconds of CPU.
    options.alias_limits.max_total_replayed_events =
        max_bytes.saturating_add(64).min(MAX_ALIAS_REPLAYS);
    options
}

/// Events replayed from aliases in one YAML body, at most.
const MAX_ALIAS_REPLAYS: usize = 400_000;

/// The budget of a YAML body of at most `max_bytes`: what a document of that size without
/// aliases stays within, charged as aliases expand (an alias naming a large string or a large
/// subtree is refused before it is built). Nodes take at least two bytes (`[0,0,…]`), scalar
/// text at most what it is written with, so no plain document of that size is refused.
fn yaml_budget(max_bytes: usize) -> serde_saphyr::Budget {
    let mut budget = serde_saphyr::Budget::default();
    budget.max_depth = MAX_DEPTH;
    budget.flow_nesting_limit = MAX_DEPTH;
    budget.max_total_scalar_bytes = max_bytes;
    budget.max_nodes = max_bytes / 2 + 16;
    budget.max_events = max_bytes.saturating_add(64);
    budget.max_recorded_anchor_bytes = max_bytes;
    budget.max_recorded_anchor_events = max_bytes / 2 + 16;
    budget
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
        let deep = "[".repeat(MAX_DEPTH + 1) + &"]".repeat(MAX_DEPTH + 1);
        let e = json(deep.as_bytes()).unwrap_err();
        assert_eq!(e.code, 400);
        assert_eq!(
            e.message,
            "json parse error: invalid character '[' exceeded max depth"
        );
        // At the limit, on the stack the server's threads have.
        let at_limit = "[".repeat(MAX_DEPTH) + &"]".repeat(MAX_DEPTH);
        let v = crate::deep::on_server_stack(move || json(at_limit.as_bytes()).map(|d| d.value));
        crate::deep::dismantle(v.unwrap());
    }

    #[test]
    fn yaml_bodies() {
        let d = yaml(b"kind: CronTab\nspec:\n  a: 1\n  a: 2\n", 1 << 20).unwrap();
        assert_eq!(d.value, json!({"kind": "CronTab", "spec": {"a": 2}}));
        assert_eq!(d.duplicates, ["spec.a"]);
        // As sigs.k8s.io/yaml turns YAML into JSON: YAML 1.1 keys and scalars, integral floats
        // written as integers.
        let d = yaml(b"on: 010\nspec: {replicas: 3.0, ratio: 0.5}\n", 1 << 20).unwrap();
        assert_eq!(
            d.value,
            json!({"true": 8, "spec": {"replicas": 3, "ratio": 0.5}})
        );
        assert!(d.value["spec"]["replicas"].is_i64());
        assert_eq!(yaml(b"a: [", 1 << 20).unwrap_err().code, 400);
        // Deep YAML, on the stack the server's threads have.
        let deep = "a: ".to_owned() + &"[".repeat(MAX_DEPTH + 1) + &"]".repeat(MAX_DEPTH + 1);
        let e = crate::deep::on_server_stack(move || yaml(deep.as_bytes(), 1 << 20).unwrap_err());
        assert_eq!(e.code, 400);
        assert_eq!(
            e.message,
            "error converting YAML to JSON: yaml: exceeded max depth of 10000"
        );
        let at_limit = "a: ".to_owned() + &"[".repeat(MAX_DEPTH - 1) + &"]".repeat(MAX_DEPTH - 1);
        let v = crate::deep::on_server_stack(move || {
            yaml(at_limit.as_bytes(), 1 << 20).map(|d| d.value)
        });
        crate::deep::dismantle(v.unwrap());
    }

    #[test]
    fn yaml_aliases_are_charged_as_they_expand() {
        // One 64 KiB string named 99 times: 6.3 MiB once expanded, from a 64 KiB body.
        let mut bomb = format!("a: &s \"{}\"\nb: [", "x".repeat(64 * 1024));
        bomb.push_str(&vec!["*s"; 99].join(", "));
        bomb.push_str("]\n");
        let e = yaml(bomb.as_bytes(), 3 << 20).unwrap_err();
        assert_eq!(e.code, 400);
        assert!(
            e.message.starts_with("error converting YAML to JSON: "),
            "{}",
            e.message
        );
        // A "billion laughs" of nine levels (9^9 strings from 400 bytes) is refused with
        // go-yaml's message, after at most MAX_ALIAS_REPLAYS replayed events.
        let mut lol =
            "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n"
                .to_owned();
        for (prev, next) in ["a", "b", "c", "d", "e", "f", "g", "h"]
            .iter()
            .zip(["b", "c", "d", "e", "f", "g", "h", "i"])
        {
            lol.push_str(&format!(
                "{next}: &{next} [{}]\n",
                vec![format!("*{prev}"); 9].join(",")
            ));
        }
        let e = yaml(lol.as_bytes(), 3 << 20).unwrap_err();
        assert_eq!(
            e.message,
            "error converting YAML to JSON: yaml: document contains excessive aliasing"
        );
        // 300,000 strings expanded from aliases (fewer events than the cap) are fine, as in go-yaml.
        let many = "a: &a [\"x\",\"x\",\"x\",\"x\",\"x\",\"x\",\"x\",\"x\",\"x\",\"x\"]\n\
                    b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\n\
                    d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]\n\
                    f: [*e,*e]\n";
        let v = yaml(many.as_bytes(), 3 << 20)
            .map_err(|e| e.message)
            .unwrap();
        crate::deep::dismantle(v.value);
        // A few aliases within the size of a body are fine.
        let ok = "a: &s [1, 2]\nb: [*s, *s]\n";
        assert_eq!(
            yaml(ok.as_bytes(), 3 << 20).unwrap().value,
            json!({"a": [1, 2], "b": [[1, 2], [1, 2]]})
        );
        // A document as large as the limit without aliases passes.
        let flat = format!("[{}0]", "0,".repeat((1 << 20) / 2 - 1));
        assert!(yaml(flat.as_bytes(), 1 << 20).is_ok());
    }
}
