//! The first implementation of OpenAPI ratcheting, kept as the reference of a differential
//! test: the whole object is validated once, then every unchanged correlated child that some
//! error may come from is validated on its own, and the errors it raises (renamed to full
//! paths) are removed. It differs from the walk in one place, where the walk follows Go: an
//! error a junctor of a changed node raises about an unchanged child, with the very message the
//! child's own validation raises, is dropped here and kept by Go (junctor branches are plain
//! validators); the test's junctor says what no property's own schema says.

use std::collections::HashSet;

use serde_json::Value;

use crate::compiled::errors::{OpenApiError, to_field_errors};
use crate::compiled::{Additional, Node};
use crate::ratchet::Correlated;
use crate::validate::openapi::OpenApi;
use crdkit_apimachinery::field::{FieldError, FieldPath};
use crdkit_apimachinery::gofmt;

/// The ratcheted OpenAPI errors of `correlation.new` against `root`.
pub(super) fn ratcheted_openapi(root: &Node, correlation: &Correlated<'_>) -> Vec<FieldError> {
    let mut v = OpenApi::new();
    v.validate(root, correlation.new);
    let mut errors = v.errors;
    if !errors.is_empty() {
        if correlation.cached_deep_equal() {
            errors.clear();
        } else {
            let mut dropped = HashSet::new();
            collect(root, correlation, "", true, &errors, &mut dropped);
            errors.retain(|e| !dropped.contains(e.message()));
        }
    }
    let mut out = Vec::new();
    to_field_errors(&FieldPath::nil(), errors, &mut out);
    out
}

/// Walks the correlated children of `node` (kube-openapi name `name`), collecting the messages
/// of the errors that unchanged children raise.
fn collect(
    node: &Node,
    correlation: &Correlated<'_>,
    name: &str,
    is_root: bool,
    errors: &[OpenApiError],
    dropped: &mut HashSet<String>,
) {
    match correlation.new {
        Value::Object(map) => {
            for k in map.keys() {
                // apiVersion and kind of the root are validated without ratcheting.
                if is_root && (k == "apiVersion" || k == "kind") {
                    continue;
                }
                let (child, child_name) = if let Some(p) = node.property(k) {
                    let n = if name.is_empty() {
                        k.clone()
                    } else {
                        format!("{name}.{k}")
                    };
                    (p, n)
                } else if let Some(Additional::Schema(a)) = &node.additional {
                    (&**a, format!("{name}.{k}"))
                } else {
                    continue;
                };
                if let Some(c) = correlation.key(k) {
                    visit(child, &c, &child_name, errors, dropped);
                }
            }
        }
        Value::Array(items) => {
            let Some(item) = &node.items else {
                return;
            };
            for i in 0..items.len() {
                if let Some(c) = correlation.index(i) {
                    visit(item, &c, &format!("{name}[{i}]"), errors, dropped);
                }
            }
        }
        _ => {}
    }
}

fn visit(
    node: &Node,
    correlation: &Correlated<'_>,
    name: &str,
    errors: &[OpenApiError],
    dropped: &mut HashSet<String>,
) {
    if !may_mention(errors, name) {
        return;
    }
    if correlation.cached_deep_equal() {
        let mut v = OpenApi::new();
        v.validate(node, correlation.new);
        dropped.extend(v.errors.iter().map(|e| absolute_message(e, name)));
    } else {
        collect(node, correlation, name, false, errors, dropped);
    }
}

/// Whether an error below `name` may be among `errors` (every message names its path).
fn may_mention(errors: &[OpenApiError], name: &str) -> bool {
    let quoted = gofmt::quote(name);
    if quoted.len() != name.len() + 2 {
        return true;
    }
    errors.iter().any(|e| e.message().contains(name))
}

/// The message an error of a validation rooted at `base` has in the whole object's validation.
fn absolute_message(e: &OpenApiError, base: &str) -> String {
    match e {
        OpenApiError::Validation { name, message, .. } => {
            let full = join(base, name);
            if let Some(rest) = message.strip_prefix(name.as_str()) {
                format!("{full}{rest}")
            } else if let Some(rest) = message.strip_prefix("factor MultipleOf declared for ") {
                let rest = rest.strip_prefix(name.as_str()).unwrap_or(rest);
                format!("factor MultipleOf declared for {full}{rest}")
            } else {
                message.clone()
            }
        }
        OpenApiError::Plain(message) => {
            // Junctor messages start with the quoted path; the rest with the path.
            let quoted = gofmt::quote("");
            if let Some(rest) = message.strip_prefix(&quoted) {
                format!("{}{rest}", gofmt::quote(base))
            } else {
                plain_with_path(message, base)
            }
        }
    }
}

/// A plain message of a validation rooted at `base` that starts with a relative path other
/// than the empty one (`"x" must validate ...`, `x exceeds the maximum nesting depth ...`).
fn plain_with_path(message: &str, base: &str) -> String {
    if let Some(inner) = message.strip_prefix('"')
        && let Some(end) = inner.find("\" ")
    {
        let rel = &inner[..end];
        return format!("{}{}", gofmt::quote(&join(base, rel)), &inner[end + 1..]);
    }
    if let Some((rel, rest)) = message.split_once(" exceeds the maximum nesting depth") {
        return format!(
            "{} exceeds the maximum nesting depth{rest}",
            join(base, rel)
        );
    }
    // Range errors of formats: `Checked value must be of type integer with format int32 in x`.
    if message.contains(" value must be of type ")
        && let Some((head, rel)) = message.rsplit_once(" in ")
    {
        return format!("{head} in {}", join(base, rel));
    }
    message.to_owned()
}

/// kube-openapi's path of `rel` (a path relative to a value) under the value at `base`.
fn join(base: &str, rel: &str) -> String {
    if rel.is_empty() {
        base.to_owned()
    } else if rel.starts_with('.') || rel.starts_with('[') || base.is_empty() {
        format!("{base}{rel}")
    } else {
        format!("{base}.{rel}")
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use serde_json::{Map, Value, json};

    use crate::ratchet::Correlated;
    use crate::validate::CompiledSchema;
    use crdkit_schema::{JsonSchemaProps, Structural};

    /// Every kind of correlation: properties, `additionalProperties`, map lists (one key and
    /// two, nested), set and atomic lists, a junctor, with constraints that fail.
    fn schema_json() -> Value {
        let entry = json!({"type": "object", "required": ["name"], "properties": {
            "name": {"type": "string", "maxLength": 1},
            "port": {"type": "integer", "maximum": 5},
            "sub": {"type": "object", "properties": {"v": {"type": "integer", "maximum": 3}}},
            "inner": {"type": "array", "x-kubernetes-list-type": "map",
                "x-kubernetes-list-map-keys": ["k", "j"],
                "items": {"type": "object", "required": ["k"], "properties": {
                    "k": {"type": "string"}, "j": {"type": "integer"},
                    "v": {"type": "integer", "maximum": 2}}}}}});
        json!({"type": "object", "properties": {
            "apiVersion": {"type": "string", "enum": ["v1"]},
            "kind": {"type": "string", "maxLength": 1},
            "metadata": {"type": "object", "properties": {"name": {"type": "string", "maxLength": 2}}},
            "spec": {"type": "object", "required": ["name"],
                "allOf": [{"properties": {"port": {"minimum": 2}}}],
                "properties": {
                "name": {"type": "string", "maxLength": 2, "pattern": "^[a-z]+$"},
                "port": {"type": "integer", "minimum": 1, "maximum": 10},
                "mode": {"type": "string", "enum": ["x", "y"]},
                "labels": {"type": "object", "maxProperties": 2,
                    "additionalProperties": {"type": "string", "maxLength": 1}},
                "tags": {"type": "array", "maxItems": 2, "items": {"type": "string", "maxLength": 1}},
                "set": {"type": "array", "x-kubernetes-list-type": "set",
                    "items": {"type": "integer", "maximum": 5}},
                "entries": {"type": "array", "x-kubernetes-list-type": "map",
                    "x-kubernetes-list-map-keys": ["name"], "items": entry}}}}})
    }

    fn scalar() -> impl Strategy<Value = Value> {
        prop_oneof![
            Just(json!("a")),
            Just(json!("b")),
            Just(json!("abc")),
            Just(json!("x")),
            Just(json!("A")),
            Just(json!(1)),
            Just(json!(7)),
            Just(json!(12)),
            Just(json!(1.0)),
            Just(json!(true)),
            Just(Value::Null),
        ]
    }

    /// A value for `schema`, mostly of its shape, sometimes not.
    fn value(schema: &Value, depth: u32) -> BoxedStrategy<Value> {
        let shaped = match schema["type"].as_str() {
            Some("object") if depth < 5 => {
                let mut fields: Vec<(String, BoxedStrategy<Value>)> = Vec::new();
                if let Some(props) = schema["properties"].as_object() {
                    for (k, s) in props {
                        fields.push((k.clone(), value(s, depth + 1)));
                    }
                }
                if let Some(ap) = schema.get("additionalProperties") {
                    for k in ["p", "q", "r"] {
                        fields.push((k.into(), value(ap, depth + 1)));
                    }
                }
                // A key without a schema: never unchanged.
                fields.push(("unknown".into(), scalar().boxed()));
                let strategies: Vec<_> = fields
                    .into_iter()
                    .map(|(k, s)| (Just(k), proptest::option::weighted(0.6, s)))
                    .collect();
                strategies
                    .prop_map(|kvs| {
                        let map: Map<String, Value> =
                            kvs.into_iter().filter_map(|(k, v)| Some((k, v?))).collect();
                        Value::Object(map)
                    })
                    .boxed()
            }
            Some("array") if depth < 5 => {
                proptest::collection::vec(value(&schema["items"], depth + 1), 0..4)
                    .prop_map(Value::Array)
                    .boxed()
            }
            _ => scalar().boxed(),
        };
        prop_oneof![9 => shaped, 1 => scalar()].boxed()
    }

    /// `old` from `new`: the same value, a fresh one, or (for containers) a mix child by child.
    fn old_of(new: Value, schema: Value) -> BoxedStrategy<(Value, Value)> {
        let fresh = value(&schema, 3);
        let new2 = new.clone();
        let mixed: BoxedStrategy<Value> = match &new {
            Value::Object(map) => {
                let parts: Vec<_> = map
                    .iter()
                    .map(|(k, v)| {
                        let s = schema["properties"]
                            .get(k)
                            .or_else(|| schema.get("additionalProperties"))
                            .cloned()
                            .unwrap_or(Value::Null);
                        (
                            Just(k.clone()),
                            old_of(v.clone(), s).prop_map(|(_, o)| o),
                            any::<u8>(),
                        )
                    })
                    .collect();
                parts
                    .prop_map(|kvs| {
                        Value::Object(
                            kvs.into_iter()
                                .filter(|(_, _, drop)| *drop > 20)
                                .map(|(k, v, _)| (k, v))
                                .collect(),
                        )
                    })
                    .boxed()
            }
            Value::Array(items) => {
                let parts: Vec<_> = items
                    .iter()
                    .map(|v| old_of(v.clone(), schema["items"].clone()).prop_map(|(_, o)| o))
                    .collect();
                (parts, any::<bool>())
                    .prop_map(|(mut items, rev)| {
                        if rev {
                            items.reverse();
                        }
                        Value::Array(items)
                    })
                    .boxed()
            }
            _ => Just(new.clone()).boxed(),
        };
        prop_oneof![4 => Just(new.clone()), 4 => mixed, 1 => fresh]
            .prop_map(move |old| (new2.clone(), old))
            .boxed()
    }

    fn pair() -> impl Strategy<Value = (Value, Value)> {
        let schema = schema_json();
        value(&schema, 0).prop_flat_map(move |new| old_of(new, schema.clone()))
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

        /// The one walk reports what validating everything and dropping what unchanged
        /// correlated values raise reports, in the same order.
        #[test]
        fn walk_matches_reference((new, old) in pair()) {
            let props: JsonSchemaProps = serde_json::from_value(schema_json()).unwrap();
            let schema = CompiledSchema::new(&Structural::from_props(&props).unwrap());
            let correlation = Correlated::new(&new, &old, schema.structural());
            let expected = super::ratcheted_openapi(&schema.root, &correlation);
            let got = schema.validate_openapi_update(&new, &old);
            prop_assert_eq!(got, expected);
        }

        /// List-type errors on update, leaving out lists with the old object's errors, are
        /// those of the whole new object when the whole old one had none.
        #[test]
        fn list_types_match_reference((new, old) in pair()) {
            let props: JsonSchemaProps = serde_json::from_value(schema_json()).unwrap();
            let structural = Structural::from_props(&props).unwrap();
            let schema = CompiledSchema::new(&structural);
            let nil = crdkit_apimachinery::field::FieldPath::nil();
            let all_new = crate::validate::list_type::validate_list_sets_and_maps(&nil, &structural, &new);
            let all_old = crate::validate::list_type::validate_list_sets_and_maps(&nil, &structural, &old);
            let expected = if all_old.is_empty() { all_new } else { Vec::new() };
            let mut got = Vec::new();
            schema.ratcheted_list_types(&new, &old, &mut got);
            prop_assert_eq!(got, expected);
        }
    }
}
