//! The type errors of decoding a request body into a kind's Go struct: sigs.k8s.io/json (Go's
//! `encoding/json`) `UnmarshalTypeError`, `json: cannot unmarshal <value> into Go struct field
//! <Struct>.<json path> of type <go type>`, which the API server answers inside its 400
//! (`<Kind> in version "<v>" cannot be handled as a <Kind>: ...`).
//!
//! Walked over the published OpenAPI (the Go struct of each definition is its last name
//! segment; the path holds the json names of struct fields, never list indices or map keys, as
//! Go's `errorContext.FieldStack`). Only fields of Go's basic types are checked: definitions
//! with their own `UnmarshalJSON` (Quantity, IntOrString, Time, RawExtension...) and `[]byte`
//! (base64) decode with other errors, and a struct or list given a scalar names Go types this
//! data does not carry; those are left to the schema.

use serde_json::{Map, Value};

use crate::openapi;

/// The first type error of `obj`, an object of the built-in `group/version` `kind`, in Go's
/// words (without the `cannot be handled as` prefix).
///
/// ```
/// use serde_json::json;
/// let d = json!({"spec": {"replicas": "3"}});
/// assert_eq!(crdkit_builtin::decode::type_error("apps", "v1", "Deployment", &d).unwrap(),
///     "json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32");
/// ```
#[must_use]
pub fn type_error(group: &str, version: &str, kind: &str, obj: &Value) -> Option<String> {
    let doc = openapi::components(group, version)?;
    let name = openapi::definition_name(group, version, kind)?;
    let mut path = Vec::new();
    walk(
        doc,
        &Value::String(format!("#/components/schemas/{name}")),
        obj,
        "",
        &mut path,
        true,
    )
}

/// The definition a property refers to (`$ref`, or `allOf: [{$ref}]`).
fn reference<'a>(doc: &'a Map<String, Value>, schema: &Value) -> Option<(&'a str, &'a Value)> {
    let r = schema
        .get("$ref")
        .or_else(|| schema.get("allOf")?.get(0)?.get("$ref"))?
        .as_str()?;
    let name = r.strip_prefix("#/components/schemas/")?;
    doc.get_key_value(name).map(|(k, v)| (k.as_str(), v))
}

fn walk(
    doc: &Map<String, Value>,
    schema: &Value,
    value: &Value,
    strukt: &str,
    path: &mut Vec<String>,
    root: bool,
) -> Option<String> {
    if value.is_null() {
        return None;
    }
    let resolved = if root {
        let name = schema.as_str()?.strip_prefix("#/components/schemas/")?;
        doc.get_key_value(name).map(|(k, v)| (k.as_str(), v))
    } else {
        reference(doc, schema)
    };
    if let Some((name, def)) = resolved {
        let (Some(props), Value::Object(fields)) = (def.get("properties"), value) else {
            return None;
        };
        let strukt = name.rsplit('.').next().unwrap_or(name);
        for (k, v) in fields {
            let Some(p) = props.get(k) else { continue };
            path.push(k.clone());
            let e = walk(doc, p, v, strukt, path, false);
            path.pop();
            if e.is_some() {
                return e;
            }
        }
        return None;
    }
    if schema.get("x-kubernetes-int-or-string").is_some() {
        return None;
    }
    match (schema.get("type").and_then(Value::as_str), value) {
        (Some("array"), Value::Array(items)) => {
            let s = schema.get("items")?;
            items
                .iter()
                .find_map(|i| walk(doc, s, i, strukt, path, false))
        }
        (Some("object"), Value::Object(m)) => {
            let s = schema
                .get("additionalProperties")
                .filter(|s| s.is_object())?;
            m.values()
                .find_map(|v| walk(doc, s, v, strukt, path, false))
        }
        (Some(ty @ ("string" | "integer" | "number" | "boolean")), v) => {
            let format = schema.get("format").and_then(Value::as_str).unwrap_or("");
            let (go, bad) = scalar(ty, format, v)?;
            Some(format!(
                "json: cannot unmarshal {bad} into Go struct field {strukt}.{} of type {go}",
                path.join(".")
            ))
        }
        _ => None,
    }
}

/// The Go type of a scalar field and how Go names `v` when it does not fit it.
fn scalar(ty: &str, format: &str, v: &Value) -> Option<(&'static str, String)> {
    let kind = |v: &Value| -> String {
        match v {
            Value::String(_) => "string",
            Value::Bool(_) => "bool",
            Value::Array(_) => "array",
            Value::Object(_) => "object",
            Value::Number(_) => "number",
            Value::Null => "null",
        }
        .to_owned()
    };
    match ty {
        "string" if format == "byte" => None,
        "string" => (!v.is_string()).then(|| ("string", kind(v))),
        "boolean" => (!v.is_boolean()).then(|| ("bool", kind(v))),
        "number" => {
            let go = if format == "float" {
                "float32"
            } else {
                "float64"
            };
            (!v.is_number()).then(|| (go, kind(v)))
        }
        _ => {
            let (go, min, max) = match format {
                "int32" => ("int32", i64::from(i32::MIN), i64::from(i32::MAX)),
                _ => ("int64", i64::MIN, i64::MAX),
            };
            match v {
                // Go keeps the literal: `number 1.5`, `number 4294967296`.
                Value::Number(n) => match n.as_i64() {
                    Some(i) if (min..=max).contains(&i) => None,
                    _ => Some((go, format!("number {n}"))),
                },
                _ => Some((go, kind(v))),
            }
        }
    }
}
