//! A CRD version's schema as the OpenAPI documents publish it: apiextensions-apiserver
//! `generateBuilder`'s schema steps (no schema published when a type is unknown, when
//! `NewStructural` fails or the schema is not structural), `Structural.Unfold`
//! (`schema/unfold.go`), `ToStructuralOpenAPIV2` (`controller/openapi/v2/conversion.go`) and
//! `Structural.ToKubeOpenAPI` (`schema/kubeopenapi.go`).
//!
//! The steps run over the wire form, [`JsonSchemaProps`], which is what Go's structural model
//! holds here (the generic keywords, extensions, value validations, `externalDocs` and
//! `example`) once `NewStructural` has accepted it. Every walk below runs only on schemas the
//! structural checks accepted, which bound their depth.

use std::collections::BTreeSet;

use serde_json::{Map, Value};

use crdkit_apimachinery::field::FieldPath;
use crdkit_schema::check::{MAX_SCHEMA_DEPTH, new_structural_error};
use crdkit_schema::props::{JsonSchemaProps, SchemaOrArray, SchemaOrBool, go_number};
use crdkit_schema::{StructuralOptions, validate_structural_props};

/// The OpenAPI v3 types (`openapiV3Types` of apiextensions validation).
const TYPES: &[&str] = &["string", "number", "integer", "boolean", "array", "object"];

/// `generateBuilder`: the schema to publish, unfolded, or `None` when Go publishes none (a type
/// outside the OpenAPI v3 types, a schema `NewStructural` rejects, or a non-structural one).
#[must_use]
pub fn publishable(props: Option<&JsonSchemaProps>) -> Option<JsonSchemaProps> {
    let p = props?;
    if new_structural_error(p).is_some() || has_invalid_types(p, 0) {
        return None;
    }
    if !validate_structural_props(&FieldPath::nil(), p, StructuralOptions::default()).is_empty() {
        return None;
    }
    let mut p = p.clone();
    unfold(&mut p);
    Some(p)
}

/// `NewStructural` then `ToKubeOpenAPI`, after `ToStructuralOpenAPIV2` when `v2`: the
/// conversion that the Go tests of `conversion.go` exercise (no structural check, no unfolding).
///
/// # Errors
/// `NewStructural`'s message (`OpenAPIV3Schema 'id' is not supported`).
pub fn convert(props: &JsonSchemaProps, v2: bool) -> Result<Value, String> {
    if let Some(e) = new_structural_error(props) {
        return Err(e);
    }
    let mut p = props.clone();
    if v2 {
        to_structural_openapi_v2(&mut p);
    }
    Ok(Value::Object(to_kube_openapi(&p)))
}

/// `SchemaHasInvalidTypes`: a `type` outside the OpenAPI v3 types anywhere.
fn has_invalid_types(p: &JsonSchemaProps, depth: usize) -> bool {
    if depth > MAX_SCHEMA_DEPTH || (!p.ty.is_empty() && !TYPES.contains(&p.ty.as_str())) {
        return true;
    }
    let mut children: Vec<&JsonSchemaProps> = Vec::new();
    if let Some(SchemaOrArray::Schema(s)) = &p.items {
        children.push(s);
    }
    if let Some(SchemaOrBool::Schema(s)) = &p.additional_properties {
        children.push(s);
    }
    children.extend(p.properties.values());
    children.extend(&p.all_of);
    children.extend(&p.any_of);
    children.extend(&p.one_of);
    children.extend(p.not.as_deref());
    children.iter().any(|c| has_invalid_types(c, depth + 1))
}

/// The structural children of a node: `properties`, `items` and `additionalProperties`, not
/// the branches of junctors.
fn for_structural_children(p: &mut JsonSchemaProps, f: &mut dyn FnMut(&mut JsonSchemaProps)) {
    if let Some(SchemaOrArray::Schema(s)) = &mut p.items {
        f(s);
    }
    for v in p.properties.values_mut() {
        f(v);
    }
    if let Some(SchemaOrBool::Schema(s)) = &mut p.additional_properties {
        f(s);
    }
}

fn int_or_string() -> Vec<JsonSchemaProps> {
    ["integer", "string"]
        .iter()
        .map(|t| JsonSchemaProps {
            ty: (*t).to_owned(),
            ..JsonSchemaProps::default()
        })
        .collect()
}

/// `Structural.Unfold`: an `x-kubernetes-int-or-string` node gets `anyOf: [integer, string]`,
/// or that `anyOf` in front of its `allOf` when it has an `anyOf` of its own, unless it already
/// spells one of the two allowed patterns.
pub fn unfold(p: &mut JsonSchemaProps) {
    if p.x_int_or_string {
        let pattern = int_or_string();
        let spelled = p.any_of == pattern || p.all_of.first().is_some_and(|a| a.any_of == pattern);
        if !spelled {
            if p.any_of.is_empty() {
                p.any_of = pattern;
            } else {
                let first = JsonSchemaProps {
                    any_of: pattern,
                    ..JsonSchemaProps::default()
                };
                p.all_of.insert(0, first);
            }
        }
    }
    for_structural_children(p, &mut unfold);
}

/// `ToStructuralOpenAPIV2`: what v2 clients (kubectl's v2 validation) cannot read is dropped.
/// On every structural node, before its children: the junctors; with `nullable: true` the
/// `type`, `items` and `properties` (and `nullable`); with `x-kubernetes-preserve-unknown-fields`
/// the `items` and `properties`, and a `type` of `object`; the `type` of an array left without
/// `items`; the names of nullable properties from `required`, and all of `required` when
/// `additionalProperties` is nullable.
pub fn to_structural_openapi_v2(p: &mut JsonSchemaProps) {
    p.all_of.clear();
    p.one_of.clear();
    p.any_of.clear();
    p.not = None;
    if p.nullable {
        p.ty.clear();
        p.nullable = false;
        p.items = None;
        p.properties.clear();
    }
    let preserve = p.x_preserve_unknown_fields == Some(true);
    if preserve {
        p.items = None;
        p.properties.clear();
    }
    if p.items.is_none() && p.ty == "array" {
        p.ty.clear();
    }
    if preserve && p.ty == "object" {
        p.ty.clear();
    }
    let nullable: BTreeSet<&String> = p
        .properties
        .iter()
        .filter(|(_, v)| v.nullable)
        .map(|(k, _)| k)
        .collect();
    if !nullable.is_empty() {
        let required = std::mem::take(&mut p.required);
        p.required = required
            .into_iter()
            .filter(|r| !nullable.contains(r))
            .collect();
    }
    if matches!(&p.additional_properties, Some(SchemaOrBool::Schema(s)) if s.nullable) {
        p.required.clear();
    }
    for_structural_children(p, &mut to_structural_openapi_v2);
}

/// `ToKubeOpenAPI` of a structural node.
pub fn to_kube_openapi(p: &JsonSchemaProps) -> Map<String, Value> {
    let mut m = node(p, false);
    match &p.additional_properties {
        Some(SchemaOrBool::Bool(b)) => {
            m.insert("additionalProperties".to_owned(), Value::Bool(*b));
        }
        Some(SchemaOrBool::Schema(s)) => {
            m.insert(
                "additionalProperties".to_owned(),
                Value::Object(to_kube_openapi(s)),
            );
        }
        None => {}
    }
    m
}

/// The keywords a structural node and a junctor branch (`NestedValueValidation.toKubeOpenAPI`,
/// which drops `additionalProperties`) have in common.
fn node(p: &JsonSchemaProps, nested: bool) -> Map<String, Value> {
    let mut m = Map::new();
    let child = |s: &JsonSchemaProps| {
        if nested {
            Value::Object(node(s, true))
        } else {
            Value::Object(to_kube_openapi(s))
        }
    };
    if let Some(SchemaOrArray::Schema(s)) = &p.items {
        m.insert("items".to_owned(), child(s));
    }
    if !p.properties.is_empty() {
        let props: Map<String, Value> = p
            .properties
            .iter()
            .map(|(k, v)| (k.clone(), child(v)))
            .collect();
        m.insert("properties".to_owned(), Value::Object(props));
    }
    generic(&mut m, p);
    extensions(&mut m, p);
    value_validation(&mut m, p);
    m
}

fn put_str(m: &mut Map<String, Value>, k: &str, v: &str) {
    if !v.is_empty() {
        m.insert(k.to_owned(), Value::String(v.to_owned()));
    }
}

fn put_true(m: &mut Map<String, Value>, k: &str, v: bool) {
    if v {
        m.insert(k.to_owned(), Value::Bool(true));
    }
}

/// `Generic.toKubeOpenAPI`. A `null` default or example is none: Go's decoding of the CRD
/// leaves the pointer nil.
fn generic(m: &mut Map<String, Value>, p: &JsonSchemaProps) {
    put_str(m, "type", &p.ty);
    put_true(m, "nullable", p.nullable);
    put_str(m, "description", &p.description);
    put_str(m, "title", &p.title);
    if let Some(d) = p.default.as_ref().filter(|d| !d.is_null()) {
        m.insert("default".to_owned(), go_json(d));
    }
    if let Some(docs) = &p.external_docs {
        let mut d = Map::new();
        put_str(&mut d, "description", &docs.description);
        put_str(&mut d, "url", &docs.url);
        m.insert("externalDocs".to_owned(), Value::Object(d));
    }
    if let Some(e) = p.example.as_ref().filter(|e| !e.is_null()) {
        m.insert("example".to_owned(), go_json(e));
    }
}

/// `Extensions.toKubeOpenAPI` and `ValidationExtensions.toKubeOpenAPI`.
fn extensions(m: &mut Map<String, Value>, p: &JsonSchemaProps) {
    put_true(
        m,
        "x-kubernetes-preserve-unknown-fields",
        p.x_preserve_unknown_fields == Some(true),
    );
    put_true(m, "x-kubernetes-embedded-resource", p.x_embedded_resource);
    put_true(m, "x-kubernetes-int-or-string", p.x_int_or_string);
    if !p.x_list_map_keys.is_empty() {
        m.insert(
            "x-kubernetes-list-map-keys".to_owned(),
            p.x_list_map_keys
                .iter()
                .cloned()
                .map(Value::String)
                .collect(),
        );
    }
    if let Some(t) = &p.x_list_type {
        m.insert(
            "x-kubernetes-list-type".to_owned(),
            Value::String(t.clone()),
        );
    }
    if let Some(t) = &p.x_map_type {
        m.insert("x-kubernetes-map-type".to_owned(), Value::String(t.clone()));
    }
    if !p.x_validations.is_empty()
        && let Ok(v) = serde_json::to_value(&p.x_validations)
    {
        m.insert("x-kubernetes-validations".to_owned(), v);
    }
}

/// `ValueValidation.toKubeOpenAPI`; junctor branches convert as nested value validations.
fn value_validation(m: &mut Map<String, Value>, p: &JsonSchemaProps) {
    put_str(m, "format", &p.format);
    let mut num = |k: &str, v: Option<f64>| {
        if let Some(f) = v {
            m.insert(k.to_owned(), go_number(f));
        }
    };
    num("maximum", p.maximum);
    num("minimum", p.minimum);
    num("multipleOf", p.multiple_of);
    put_true(m, "exclusiveMaximum", p.exclusive_maximum);
    put_true(m, "exclusiveMinimum", p.exclusive_minimum);
    let mut int = |k: &str, v: Option<i64>| {
        if let Some(i) = v {
            m.insert(k.to_owned(), Value::from(i));
        }
    };
    int("maxLength", p.max_length);
    int("minLength", p.min_length);
    int("maxItems", p.max_items);
    int("minItems", p.min_items);
    int("maxProperties", p.max_properties);
    int("minProperties", p.min_properties);
    put_str(m, "pattern", &p.pattern);
    put_true(m, "uniqueItems", p.unique_items);
    if !p.enum_values.is_empty() {
        m.insert(
            "enum".to_owned(),
            p.enum_values.iter().map(go_json).collect(),
        );
    }
    if !p.required.is_empty() {
        m.insert(
            "required".to_owned(),
            p.required.iter().cloned().map(Value::String).collect(),
        );
    }
    for (k, branches) in [
        ("allOf", &p.all_of),
        ("anyOf", &p.any_of),
        ("oneOf", &p.one_of),
    ] {
        if !branches.is_empty() {
            let v = branches.iter().map(|b| Value::Object(node(b, true)));
            m.insert(k.to_owned(), v.collect());
        }
    }
    if let Some(n) = &p.not {
        m.insert("not".to_owned(), Value::Object(node(n, true)));
    }
}

/// A JSON value (a default, an example, an enum member) as Go writes it back: it decoded
/// numbers to int64 or float64, and writes integral floats without a fraction (`1.0` → `1`).
#[must_use]
pub fn go_json(v: &Value) -> Value {
    match v {
        Value::Number(n) if n.is_f64() => n.as_f64().map_or_else(|| v.clone(), go_number),
        Value::Array(a) => Value::Array(a.iter().map(go_json).collect()),
        Value::Object(o) => Value::Object(o.iter().map(|(k, v)| (k.clone(), go_json(v))).collect()),
        _ => v.clone(),
    }
}
