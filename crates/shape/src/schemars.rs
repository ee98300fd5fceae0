//! The `#[crd(schemars)]` adapter: a `schemars::JsonSchema` type's schema, converted to the
//! structural model when the CRD is built (`schemars` feature).
//!
//! schemars writes JSON Schema for any serde type; CRDs accept a structural subset. The
//! conversion keeps what maps one to one, rewrites the common spellings that have a structural
//! equivalent (`const` → `enum`, `type: [T, "null"]` → `nullable`, integer formats Kubernetes does
//! not know → bounds), drops what only loosens nothing (`additionalProperties: false`, `$schema`,
//! `title`), and reports everything else with its path.

use serde_json::{Map, Value};

use crate::NotStructural;
use crdkit_schema::{JsonSchemaProps, Structural};

/// The structural schema of `T` from its `schemars::JsonSchema` impl.
///
/// # Errors
/// Every part of the schema without a structural equivalent, one per line, with its path.
pub fn schemars_schema<T: schemars::JsonSchema + ?Sized>() -> Result<Structural, NotStructural> {
    let mut settings = schemars::generate::SchemaSettings::openapi3();
    settings.inline_subschemas = true;
    let schema = settings.into_generator().into_root_schema_for::<T>();
    from_json_schema(schema.as_value())
}

/// The structural schema that a schemars `schema_with` function writes (a field's
/// `#[schemars(schema_with = "f")]`, taken by `#[crd(schemars)]`).
///
/// # Errors
/// Every part of the schema without a structural equivalent, one per line, with its path.
pub fn schemars_schema_with(
    f: fn(&mut schemars::generate::SchemaGenerator) -> schemars::Schema,
) -> Result<Structural, NotStructural> {
    let mut settings = schemars::generate::SchemaSettings::openapi3();
    settings.inline_subschemas = true;
    let schema = f(&mut settings.into_generator());
    from_json_schema(schema.as_value())
}

/// Converts a JSON Schema document (as schemars writes it) to the structural model.
///
/// # Errors
/// Every part of the schema without a structural equivalent, one per line, with its path.
pub fn from_json_schema(schema: &Value) -> Result<Structural, NotStructural> {
    let mut errors = Vec::new();
    let mut v = schema.clone();
    if let Value::Object(m) = &mut v {
        m.remove("$schema");
        m.remove("title");
        m.remove("definitions");
        m.remove("$defs");
        m.remove("components");
    }
    normalize(&mut v, "", &mut errors, 0);
    if !errors.is_empty() {
        return Err(NotStructural { errors });
    }
    let one = |e: String| NotStructural { errors: vec![e] };
    let props: JsonSchemaProps =
        serde_json::from_value(v).map_err(|e| one(format!("not an OpenAPI schema: {e}")))?;
    Structural::from_props(&props).map_err(|e| one(e.to_string()))
}

fn child(path: &str, name: &str) -> String {
    if path.is_empty() {
        name.to_owned()
    } else {
        format!("{path}.{name}")
    }
}

fn normalize(v: &mut Value, path: &str, errors: &mut Vec<String>, depth: usize) {
    if depth > 64 {
        errors.push(format!("{path}: schema nested more than 64 levels deep"));
        return;
    }
    let Value::Object(m) = v else {
        if *v == Value::Bool(true) {
            *v = Value::Object(Map::from_iter([(
                "x-kubernetes-preserve-unknown-fields".to_owned(),
                Value::Bool(true),
            )]));
        } else {
            errors.push(format!("{path}: schema `{v}` has no structural form"));
        }
        return;
    };
    if let Some(r) = m.get("$ref") {
        errors.push(format!(
            "{}: `$ref` to {r} (a recursive type) has no structural form",
            display(path)
        ));
        return;
    }
    if let Some(c) = m.remove("const") {
        m.insert("enum".to_owned(), Value::Array(vec![c]));
    }
    if let Some(Value::Array(types)) = m.get("type").cloned() {
        let non_null: Vec<Value> = types
            .iter()
            .filter(|t| t.as_str() != Some("null"))
            .cloned()
            .collect();
        match non_null.as_slice() {
            [one] => {
                m.insert("type".to_owned(), one.clone());
                if non_null.len() < types.len() {
                    m.insert("nullable".to_owned(), Value::Bool(true));
                }
            }
            _ => errors.push(format!(
                "{}: a value of several types {} has no structural schema",
                display(path),
                Value::Array(types)
            )),
        }
    }
    if m.get("additionalProperties") == Some(&Value::Bool(false)) {
        m.remove("additionalProperties");
    }
    if let Some(Value::String(f)) = m.get("format").cloned() {
        let ty = m.get("type").and_then(Value::as_str).unwrap_or("");
        let known = match ty {
            "integer" => f == "int32" || f == "int64",
            "number" => f == "float" || f == "double",
            _ => crdkit_schema::STRING_FORMATS.contains(&f.as_str()),
        };
        if !known {
            m.remove("format");
            if f.starts_with("uint") && !m.contains_key("minimum") {
                m.insert("minimum".to_owned(), Value::from(0));
            }
        }
    }
    for key in [
        "examples",
        "readOnly",
        "writeOnly",
        "deprecated",
        "$id",
        "$comment",
    ] {
        m.remove(key);
    }
    // An enum of single-value branches is an enum.
    for key in ["oneOf", "anyOf"] {
        if let Some(Value::Array(branches)) = m.get(key) {
            let values: Option<Vec<Value>> = branches
                .iter()
                .map(single_enum)
                .collect::<Option<Vec<_>>>()
                .map(|v| v.into_iter().flatten().collect());
            if let Some(values) = values {
                m.remove(key);
                m.insert("enum".to_owned(), Value::Array(values));
                m.entry("type").or_insert(Value::from("string"));
            }
        }
    }
    if let Some(p) = m.get_mut("properties").and_then(Value::as_object_mut) {
        for (k, s) in p.iter_mut() {
            normalize(s, &child(path, k), errors, depth + 1);
        }
    }
    if let Some(items) = m.get_mut("items") {
        normalize(items, &format!("{path}[*]"), errors, depth + 1);
    }
    if let Some(ap) = m.get_mut("additionalProperties")
        && ap.is_object()
    {
        normalize(ap, &format!("{path}[*]"), errors, depth + 1);
    }
    for key in ["allOf", "oneOf", "anyOf"] {
        if m.contains_key(key) {
            errors.push(format!("{}: `{key}` from schemars has no structural form here; derive `crdkit::Schema` for this type instead", display(path)));
        }
    }
}

/// `{"enum": [x]}` / `{"const": x}` branches (with an optional description) give their values.
fn single_enum(b: &Value) -> Option<Vec<Value>> {
    let m = b.as_object()?;
    let values = match (m.get("enum"), m.get("const")) {
        (Some(Value::Array(e)), None) => e.clone(),
        (None, Some(c)) => vec![c.clone()],
        _ => return None,
    };
    m.keys()
        .all(|k| matches!(k.as_str(), "enum" | "const" | "type" | "description"))
        .then_some(values)
}

fn display(path: &str) -> &str {
    if path.is_empty() { "<root>" } else { path }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn rewrites_common_json_schema_spellings() {
        let s = from_json_schema(&json!({
            "$schema": "x", "title": "T", "type": "object", "additionalProperties": false,
            "properties": {
                "a": {"type": ["integer", "null"], "format": "uint32"},
                "b": {"oneOf": [{"const": "x"}, {"enum": ["y"], "description": "why"}]},
            }
        }))
        .unwrap();
        let v = serde_json::to_value(s.to_props()).unwrap();
        assert_eq!(
            v,
            json!({"type": "object", "properties": {
                "a": {"type": "integer", "nullable": true, "minimum": 0},
                "b": {"type": "string", "enum": ["x", "y"]},
            }})
        );
    }

    #[test]
    fn reports_what_has_no_structural_form_with_paths() {
        let err = from_json_schema(&json!({"type": "object", "properties": {
            "r": {"$ref": "#/$defs/Node"},
            "u": {"type": ["string", "integer"]},
        }}))
        .unwrap_err()
        .to_string();
        assert!(err.contains("r: `$ref`"), "{err}");
        assert!(err.contains("u: a value of several types"), "{err}");
    }
}
